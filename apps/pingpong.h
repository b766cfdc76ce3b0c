/* Message tags and the payload pattern shared by pingpong and pingpong-echo. */
#ifndef PVMMON_APPS_PINGPONG_H
#define PVMMON_APPS_PINGPONG_H

#define PINGPONG_TAG_PING 31
#define PINGPONG_TAG_PONG 32
#define PINGPONG_TAG_STOP 33
#define PINGPONG_TAG_DIRECT 34 /* asks the echo task to use direct routing */

/* The byte at position i of round trip k, so a stale or mixed-up message is caught. */
static inline char pingpong_byte(long i, long k)
{
	return (char)((i * 31 + k * 7) & 0xff);
}

#endif

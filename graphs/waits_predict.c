/*
 * What a fix would gain: the run's predicted length, by a replay of its activity graph,
 * with a cause's computation p% faster for p = 0, 10, ..., 100 (a curve), on the
 * measured network or on one of the user's choosing (latency and bandwidth, or ideal),
 * and the curve table of the text report and `pvmmon efficiency --curve`.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "pvmmon/errors.h"
#include "pvmmon/waits.h"
#include "waits_model.h"

/* The replay's network: NULL for the measured one (lat_ns < 0). */
static const wm_net *net_of(wm_net *net, int64_t lat_ns, double bytes_per_ns)
{
	if (lat_ns < 0)
		return NULL;
	net->lat_ns = lat_ns;
	net->bytes_per_ns = bytes_per_ns > 0 && isfinite(bytes_per_ns) ? bytes_per_ns : 0.0;
	return net;
}

int pvmmon_waits_predict_net(int64_t *out_ns, const pvmmon_log *log,
                             const pvmmon_wait_cause *c, int pct, int64_t lat_ns,
                             double bytes_per_ns)
{
	wm_model m;
	wm_net net;
	int rc;

	*out_ns = 0;
	if (!log)
		return pvmmon_error_set(PVMMON_EINVAL, "waits: no log");
	if (pct < 0 || pct > 100)
		return pvmmon_error_set(PVMMON_EINVAL, "waits: %d%% faster is no percentage", pct);
	if ((rc = waits__model(&m, log)) < 0)
		return rc;
	rc = waits__replay_net(out_ns, NULL, &m, net_of(&net, lat_ns, bytes_per_ns), c, pct);
	waits__model_free(&m);
	return rc;
}

/* The curve on model m (built once for all its points). */
static int curve(int64_t *out_ns, const wm_model *m, const wm_net *net,
                 const pvmmon_wait_cause *c)
{
	int rc = 0;

	for (int k = 0; k < PVMMON_WAITS_CURVE && rc == 0; k++)
		rc = waits__replay_net(&out_ns[k], NULL, m, net, c, 10 * k);
	return rc;
}

int pvmmon_waits_curve(int64_t out_ns[PVMMON_WAITS_CURVE], const pvmmon_log *log,
                       const pvmmon_wait_cause *c, int64_t lat_ns, double bytes_per_ns)
{
	wm_model m;
	wm_net net;
	int rc;

	memset(out_ns, 0, PVMMON_WAITS_CURVE * sizeof(*out_ns));
	if (!log)
		return pvmmon_error_set(PVMMON_EINVAL, "waits: no log");
	if ((rc = waits__model(&m, log)) < 0)
		return rc;
	rc = curve(out_ns, &m, net_of(&net, lat_ns, bytes_per_ns), c);
	waits__model_free(&m);
	return rc;
}

/* A non-negative finite number from the whole of [s, e); -1 if it is none. */
static double number(const char *s, const char *e)
{
	char buf[64], *end;
	size_t n = (size_t)(e - s);
	double v;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	errno = 0;
	v = strtod(buf, &end);
	if (*end || errno || !isfinite(v) || v < 0 || buf[0] == '-' || buf[0] == '+' ||
	    buf[0] == ' ')
		return -1;
	return v;
}

int pvmmon_waits_parse_network(const char *option, const char *spec, int64_t *lat_ns,
                               double *bytes_per_ns)
{
	const char *comma;
	double lat, mbs;

	*lat_ns = 0;
	*bytes_per_ns = 0;
	if (!spec || !*spec)
		return pvmmon_error_set(PVMMON_EINVAL, "%s wants ideal or L,B (latency in "
		                                       "microseconds, bandwidth in MB/s)", option);
	if (!strcmp(spec, "ideal"))
		return 0;
	if (!(comma = strchr(spec, ',')))
		return pvmmon_error_set(PVMMON_EINVAL, "%s=%s: no comma: it wants ideal or L,B "
		                                       "(latency in microseconds, bandwidth in MB/s)",
		                        option, spec);
	if ((lat = number(spec, comma)) < 0)
		return pvmmon_error_set(PVMMON_EINVAL, "%s=%s: the latency '%.*s' is no number of "
		                                       "microseconds >= 0",
		                        option, spec, (int)(comma - spec), spec);
	if ((mbs = number(comma + 1, comma + strlen(comma))) <= 0)
		return pvmmon_error_set(PVMMON_EINVAL, "%s=%s: the bandwidth '%s' is no number of "
		                                       "MB/s > 0",
		                        option, spec, comma + 1);
	if (lat > 1e12)
		return pvmmon_error_set(PVMMON_EINVAL, "%s=%s: the latency is too large", option,
		                        spec);
	*lat_ns = (int64_t)(lat * 1e3 + 0.5);
	/* MB/s = 10^6 bytes in 10^9 ns. */
	*bytes_per_ns = mbs / 1e3;
	return 0;
}

int pvmmon_waits_curve_table(const pvmmon_log *log, const pvmmon_wait_cause *causes,
                             size_t ncauses, int64_t lat_ns, double bytes_per_ns, FILE *out)
{
	wm_model m;
	wm_net net;
	const wm_net *n = net_of(&net, lat_ns, bytes_per_ns);
	int64_t ns[PVMMON_WAITS_CURVE];
	char name[600];
	int rc;

	if (!log || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "waits: no log or no output");
	if ((rc = waits__model(&m, log)) < 0)
		return rc;
	/* Milliseconds with one decimal: ten columns on one line. */
	fprintf(out, "  %-32s %8s", "run (ms) if faster by", "0%");
	for (int k = 1; k < PVMMON_WAITS_CURVE; k++)
		fprintf(out, " %6d%%", 10 * k);
	fputc('\n', out);
	for (size_t i = 0; i < ncauses && rc == 0; i++) {
		pvmmon_waits_cause_name(name, sizeof(name), log, &causes[i]);
		if ((rc = curve(ns, &m, n, &causes[i])) < 0)
			break;
		fprintf(out, "  %-32.32s %8.1f", name, (double)ns[0] / 1e6);
		for (int k = 1; k < PVMMON_WAITS_CURVE; k++)
			fprintf(out, " %7.1f", (double)ns[k] / 1e6);
		fputc('\n', out);
	}
	waits__model_free(&m);
	return rc;
}

/*
 * Private to pvmmon: the protocol between tasks, the monitor and pvmmon commands, one
 * header for all of it. Each message kind (common/wire_tags.def lists them) is a struct
 * with an encoder and a decoder, in the file of its family; doc/architecture.md has the
 * table of them.
 */
#ifndef PVMMON_COMMON_WIRE_H
#define PVMMON_COMMON_WIRE_H

#include "wire_buf.h"
#include "wire_check.h"
#include "wire_control.h"
#include "wire_hang.h"
#include "wire_preserve.h"
#include "wire_records.h"
#include "wire_replay.h"
#include "wire_task.h"

#endif

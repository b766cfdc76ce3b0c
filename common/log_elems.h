/* The element table of the streaming log reader (common/log_elems.c): which elements
 * build which parts of the model. */
#ifndef PVMMON_COMMON_LOG_ELEMS_H
#define PVMMON_COMMON_LOG_ELEMS_H

#include <stddef.h>

#include "log_bind.h"

extern const log_elem log__elems[];
extern const size_t log__nelems;

#endif

/* The codec of FINDING, a PVM usage error a task found in its program (wire_check.h). */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "wire_check.h"

void wire__finding_encode(wire_buf *b, const wire_finding *f)
{
	wire__head_put(b);
	wire__put_u8(b, f->kind);
	wire__put_u64(b, f->count);
	wire__put_u32(b, (uint32_t)f->tag);
	wire__put_str(b, f->module);
	wire__put_u64(b, f->offset);
	wire__put_u32(b, f->other_index);
	wire__put_u64(b, f->other_offset);
	wire__put_u32(b, (uint32_t)f->a_type);
	wire__put_u32(b, (uint32_t)f->b_type);
	wire__put_u32(b, f->a_count);
	wire__put_u32(b, f->b_count);
	wire__put_u8(b, f->past_end);
	wire__put_str(b, f->call);
}

void wire__finding_clear(wire_finding *f)
{
	free(f->module);
	free(f->call);
	memset(f, 0, sizeof(*f));
}

int wire__finding_decode(wire_finding *f, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(f, 0, sizeof(*f));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "finding");
	if (rc < 0)
		return rc;
	f->kind = wire__get_u8(&in);
	f->count = wire__get_u64(&in);
	f->tag = (int32_t)wire__get_u32(&in);
	f->module = wire__get_str(&in, WIRE_MAX_STR);
	f->offset = wire__get_u64(&in);
	f->other_index = wire__get_u32(&in);
	f->other_offset = wire__get_u64(&in);
	f->a_type = (int32_t)wire__get_u32(&in);
	f->b_type = (int32_t)wire__get_u32(&in);
	f->a_count = wire__get_u32(&in);
	f->b_count = wire__get_u32(&in);
	f->past_end = wire__get_u8(&in);
	f->call = wire__get_str(&in, WIRE_MAX_STR);
	if (f->kind < WIRE_CHECK_UNPACK || f->kind > WIRE_CHECK_LAST || f->count == 0 || f->past_end > 1)
		in.failed = 1;
	rc = wire__done(&in, "finding");
	if (rc < 0)
		wire__finding_clear(f);
	return rc;
}

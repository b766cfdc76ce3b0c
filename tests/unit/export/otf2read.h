/* Private to the export unit tests: an OTF2 archive read back with libotf2's reader and
 * put as text, one line per definition or event, to compare with what was written. */
#ifndef PVMMON_TESTS_UNIT_EXPORT_OTF2READ_H
#define PVMMON_TESTS_UNIT_EXPORT_OTF2READ_H

/*
 * Reads the archive dir/traces.otf2 and returns it as text (the caller frees it), or
 * NULL when libotf2 cannot read it. First the definitions, each with its names
 * resolved:
 *   clock RESOLUTION length LENGTH
 *   node ID "NAME" class "CLASS" parent ID|-
 *   process ID "NAME" node ID
 *   location ID "NAME" events N process ID
 *   region ID "NAME" ROLE file "FILE" line N        (ROLE: function, point2point)
 *   group ID "NAME" members A,B,...
 *   comm ID "NAME" group ID
 *   attribute ID "NAME"
 *   member ID "NAME" exponent E unit "UNIT"
 * then each location's events in its order:
 *   LOCATION@TIME enter "REGION"          LOCATION@TIME leave "REGION"
 *   LOCATION@TIME send to RANK tag T bytes B
 *   LOCATION@TIME recv from RANK tag T bytes B
 *   LOCATION@TIME metric "REGION" V1 V2 V3 (the region from the event's attribute)
 */
char *otf2read_text(const char *dir);

struct pvmmon_log;
struct pvmmon_otf2_counts;
/* Exports log into a new scratch folder (dir, a mkdtemp template) with export__otf2
 * (real: real times) and returns the archive as text (asserting both worked). */
char *otf2read_export(const struct pvmmon_log *log, int real, struct pvmmon_otf2_counts *n,
                      char *dir);
/* Asserts that text holds the lines of block, together and whole, printing text if not. */
void otf2read_check_block(const char *text, const char *block);

#endif

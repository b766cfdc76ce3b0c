/* Private to the integration tests: headless Chromium checks shared by the report suites. */
#ifndef PVMMON_TESTS_INTEGRATION_REPORT_CHECK_H
#define PVMMON_TESTS_INTEGRATION_REPORT_CHECK_H

#define CHROMIUM "/usr/bin/chromium"

/* Headless Chromium with a private profile; what follows is the rest of its options. */
#define CHROMIUM_RUN                                                                               \
	CHROMIUM " --headless --no-sandbox --disable-gpu --no-first-run "                          \
	         "--user-data-dir='%s/profile' --allow-file-access-from-files "                    \
	         "--enable-logging=stderr --v=0 "

/* Writes text to dir/name; 0 or -1. */
int report_write_file(const char *dir, const char *name, const char *text);

/*
 * Opens the report in dir/rep in headless Chromium: nimages images, each drawn with a
 * size (the one named must, when given, among them), a screenshot, and no console
 * message; a broken control page shows the check can fail.
 */
void report_check_dir(const char *dir, int nimages, const char *must);

#endif

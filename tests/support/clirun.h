/* clirun.h - end-to-end test helpers: run the built rfkit binary, capture
 * its output and exit status, read CSV columns, check bad-input errors. */
#ifndef RF_TEST_CLIRUN_H
#define RF_TEST_CLIRUN_H

typedef struct clirun {
    int status;     /* exit code, -1 when killed */
    char *out;      /* stdout and stderr together, NUL-terminated (free it) */
    int lines;
} clirun;

/* Find the binary: $RFKIT, else rfkit next to the test's build folder
 * (BUILD/tests/test_x -> BUILD/rfkit).  Returns 0, or -1 when it is not
 * built (a message is printed). */
int clirun_init(const char *argv0);

/* The path found by clirun_init. */
const char *clirun_binary(void);

/* Run "rfkit ARGS 2>&1". */
clirun clirun_run(const char *args);

/* Value of CSV column `name` in data row `row` (1 = first after the header). */
double clirun_csv_get(const char *out, const char *name, int row);

/* Bad input: exit code 2 and exactly one line "rfkit: ..." containing want. */
void clirun_expect_bad(const char *args, const char *want);

#endif /* RF_TEST_CLIRUN_H */

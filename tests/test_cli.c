/* test_cli.c - what every rfkit command shares (cli/cli.c): an input that
 * cannot be read, a directory among them, is bad input (exit 2, one line
 * naming the path) in every command; options that would silently mean
 * something else are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "support/clirun.h"

#define SPEC "inputs/kernels/hotspot.spec"

static void unreadable_inputs_are_bad_input(void **state)
{
    (void)state;
    clirun_expect_bad("analyze tests", "tests: is a directory, not a file");
    clirun_expect_bad("analyze tests/no-such.ptx", "tests/no-such.ptx: cannot open:");
    clirun_expect_bad("estimate --gpu fermi-gtx480 --kernel tests",
                      "tests: is a directory, not a file");
    clirun_expect_bad("estimate --gpu tests --kernel " SPEC, "tests: is a directory, not a file");
    clirun_expect_bad("simulate --gpu tests --kernel " SPEC " --cycles 100",
                      "tests: is a directory, not a file");
    clirun_expect_bad("occupancy --gpu tests --regs 32 --threads 256",
                      "tests: is a directory, not a file");
    clirun_expect_bad("gpus --dump tests", "tests: is a directory, not a file");
    clirun_expect_bad("calibrate --gpu tests --kernel " SPEC " -o /dev/null",
                      "tests: is a directory, not a file");
    clirun_expect_bad("batch tests", "tests: is a directory, not a file");
    clirun_expect_bad("batch tests/no-such.csv", "tests/no-such.csv: cannot open:");
}

/* --cycles 0 used to run the whole grid (0 is the library's "no window"). */
static void zero_cycle_window_is_refused(void **state)
{
    (void)state;
    clirun_expect_bad("simulate --gpu fermi-gtx480 --kernel " SPEC " --cycles 0",
                      "cycles: a window of 0 cycles");
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unreadable_inputs_are_bad_input),
        cmocka_unit_test(zero_cycle_window_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

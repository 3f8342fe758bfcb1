/* test_cli_simulate.c - rfkit simulate end to end: CSV shape, byte-identical
 * repeated runs, stealing defaults, windows, and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/clirun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SFU "--gpu fermi-gtx480 --kernel inputs/kernels/sfu.spec"

static void csv_and_determinism(void **state)
{
    (void)state;
    const char *args = "simulate " SFU " --design stealing --banks 8 --cycles 20000 --csv";
    clirun a = clirun_run(args), b = clirun_run(args);
    assert_int_equal(a.status, 0);
    assert_int_equal(a.lines, 2);
    assert_string_equal(a.out, b.out);
    assert_non_null(strstr(a.out, "ipc,cycles,warp_insts"));
    assert_non_null(strstr(a.out, "stall_bank"));
    assert_non_null(strstr(a.out, "wb_stolen_fast"));
    assert_true(clirun_csv_get(a.out, "cycles", 1) == 20000);
    assert_true(clirun_csv_get(a.out, "read_steal", 1) == 1);     /* both on by default */
    assert_true(clirun_csv_get(a.out, "write_steal", 1) == 1);
    assert_true(clirun_csv_get(a.out, "banks", 1) == 8);
    assert_true(clirun_csv_get(a.out, "ipc", 1) > 0);
    free(a.out), free(b.out);

    clirun c = clirun_run("simulate " SFU " --design stealing --read-steal --cycles 20000 --csv");
    assert_int_equal(c.status, 0);
    assert_true(clirun_csv_get(c.out, "read_steal", 1) == 1);
    assert_true(clirun_csv_get(c.out, "write_steal", 1) == 0);
    assert_true(clirun_csv_get(c.out, "stolen_writes", 1) == 0);
    free(c.out);

    /* A flag given off turns that kind off and leaves the other on, in
     * simulate and estimate alike (rf_design_steal_flags). */
    clirun e = clirun_run("simulate " SFU " --design stealing --write-steal=0 --cycles 20000 --csv");
    assert_int_equal(e.status, 0);
    assert_true(clirun_csv_get(e.out, "read_steal", 1) == 1);
    assert_true(clirun_csv_get(e.out, "write_steal", 1) == 0);
    free(e.out);
    const char *est = "estimate --gpu fermi-gtx480 --kernel inputs/kernels/sgemm.spec "
                      "--design stealing --banks 8 --sms 1 --csv";
    char a1[300], a2[300];
    snprintf(a1, sizeof a1, "%s --read-steal", est);
    snprintf(a2, sizeof a2, "%s --write-steal=0", est);
    clirun r1 = clirun_run(a1), r2 = clirun_run(a2), r3 = clirun_run(est);
    assert_int_equal(r1.status, 0);
    assert_int_equal(r2.status, 0);
    assert_int_equal(r3.status, 0);
    double i1 = clirun_csv_get(r1.out, "ipc", 1), i2 = clirun_csv_get(r2.out, "ipc", 1);
    assert_true(i1 > 0);
    assert_true(i1 == i2);
    assert_true(clirun_csv_get(r3.out, "ipc", 1) > i1);  /* both kinds: write stealing adds */
    free(r1.out), free(r2.out), free(r3.out);

    clirun d = clirun_run("simulate " SFU " --design stealing --banks 8 --cycles 20000 --seed 7 --csv");
    assert_int_equal(d.status, 0);
    assert_true(clirun_csv_get(d.out, "seed", 1) == 7);
    free(d.out);
}

static void full_run(void **state)
{
    (void)state;
    clirun a = clirun_run("simulate --gpu fermi-gtx480 --kernel inputs/kernels/reduce.spec --csv");
    clirun b = clirun_run("simulate --gpu fermi-gtx480 --kernel inputs/kernels/reduce.spec --full --csv");
    assert_int_equal(a.status, 0);
    assert_string_equal(a.out, b.out);
    assert_true(clirun_csv_get(a.out, "ctas_done", 1) > 0);
    free(a.out), free(b.out);
    clirun t = clirun_run("simulate --gpu fermi-gtx480 --kernel inputs/kernels/reduce.spec "
                      "--scheduler lrr --cycles 5000 --warmup 1000");
    assert_int_equal(t.status, 0);
    assert_non_null(strstr(t.out, "lrr scheduler"));
    assert_non_null(strstr(t.out, "inter_write_penalty"));
    free(t.out);
}

/* A functionally warmed window: the CTAs before --skip-ctas walked untimed
 * change what the window sees (the mix of CTA ages), deterministically. */
static void warmed_window(void **state)
{
    (void)state;
    const char *w = "simulate " SFU " --sms 1 --skip-ctas 64 --warm-ctas 32 --cycles 3000 --csv";
    clirun a = clirun_run(w), b = clirun_run(w),
           c = clirun_run("simulate " SFU " --sms 1 --skip-ctas 64 --cycles 3000 --csv");
    assert_int_equal(a.status, 0);
    assert_int_equal(c.status, 0);
    assert_string_equal(a.out, b.out);
    assert_true(clirun_csv_get(a.out, "cycles", 1) == 3000);
    assert_true(clirun_csv_get(a.out, "ipc", 1) > 0);
    assert_string_not_equal(a.out, c.out);
    free(a.out), free(b.out), free(c.out);
}

/* Which run: by default the GPU's SMs share the grid and the busiest SM's
 * share is simulated (reduce.spec: 512 CTAs over the GTX480's 15 SMs, SM 0
 * runs ceil(512 / 15) = 35), the same bytes as --sms 15; estimate counts
 * the same 35 CTAs on the busiest SM; --sms 1 is the whole grid on one SM;
 * --side-by-side runs the whole grid on the --sms N SMs together. */
static void default_run_is_the_busiest_sms_share(void **state)
{
    (void)state;
    const char *k = "--gpu fermi-gtx480 --kernel inputs/kernels/reduce.spec --csv";
    char args[256];
    snprintf(args, sizeof args, "simulate %s", k);
    clirun a = clirun_run(args);
    snprintf(args, sizeof args, "simulate %s --sms 15", k);
    clirun b = clirun_run(args);
    snprintf(args, sizeof args, "simulate %s --sms 1", k);
    clirun one = clirun_run(args);
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    assert_int_equal(one.status, 0);
    assert_string_equal(a.out, b.out);
    assert_true(clirun_csv_get(a.out, "sms", 1) == 15);
    assert_true(clirun_csv_get(a.out, "ctas", 1) == 35);
    assert_true(clirun_csv_get(a.out, "ctas_done", 1) == 35);
    assert_true(clirun_csv_get(one.out, "sms", 1) == 1);
    assert_true(clirun_csv_get(one.out, "ctas_done", 1) == 512);
    assert_true(clirun_csv_get(one.out, "cycles", 1) > 10 * clirun_csv_get(a.out, "cycles", 1));
    free(a.out), free(b.out), free(one.out);

    clirun e = clirun_run("estimate --gpu fermi-gtx480 --kernel inputs/kernels/reduce.spec");
    assert_int_equal(e.status, 0);
    const char *busy = strstr(e.out, "CTAs on the busiest SM");
    assert_non_null(busy);
    long n = 0;
    assert_int_equal(sscanf(busy + strlen("CTAs on the busiest SM"), "%ld", &n), 1);
    assert_int_equal(n, 35);
    free(e.out);
    clirun h = clirun_run("simulate --gpu fermi-gtx480 --kernel inputs/kernels/reduce.spec");
    assert_int_equal(h.status, 0);
    assert_non_null(strstr(h.out, "run: the busiest SM's share of the grid spread over 15 SMs: "
                                  "35 of 512 CTAs (grid indices 0, 15, ..., 510)"));
    free(h.out);

    clirun s2 = clirun_run("simulate --gpu fermi-gtx480 --kernel inputs/kernels/sfu.spec "
                           "--sms 2 --side-by-side --cycles 5000 --csv");
    assert_int_equal(s2.status, 0);
    assert_true(clirun_csv_get(s2.out, "side_by_side", 1) == 1);
    assert_true(clirun_csv_get(s2.out, "ctas", 1) == 480);   /* the whole grid */
    free(s2.out);
    clirun_expect_bad("simulate --gpu volta-hirf --kernel inputs/kernels/sfu.spec --side-by-side",
                      "sms: 80 SMs side by side: the sampler models 1 to 64");
}

/* Every command that runs or describes a kernel says which run in --help. */
static void help_says_which_run(void **state)
{
    (void)state;
    static const char *const cmds[] = {"simulate", "estimate", "calibrate"};
    for (int i = 0; i < 3; i++) {
        char args[64];
        snprintf(args, sizeof args, "%s --help", cmds[i]);
        clirun h = clirun_run(args);
        assert_int_equal(h.status, 0);
        assert_non_null(strstr(h.out, "Which run: by default the GPU's SMs share the grid"));
        assert_non_null(strstr(h.out, "ceil(grid / SMs) CTAs"));
        assert_non_null(strstr(h.out, "--sms 1"));
        free(h.out);
    }
}

static void bad_input(void **state)
{
    (void)state;
    clirun_expect_bad("simulate --gpu fermi-gtx480", "kernel");
    clirun_expect_bad("simulate " SFU " --cycles 10 --full", "--full");
    clirun_expect_bad("simulate " SFU " --cycles ten", "cycles");
    clirun_expect_bad("simulate " SFU " --banks 100", "banks");
    clirun_expect_bad("simulate " SFU " --bank-map diagonal", "bank_map");
    clirun_expect_bad("simulate " SFU " --frobnicate", "frobnicate");
    clirun_expect_bad("simulate " SFU " --design nosuch", "nosuch");
    clirun_expect_bad("simulate " SFU " --skip-ctas 8 --warm-ctas 9 --cycles 100", "warm_ctas");
    clirun h = clirun_run("simulate --help");
    assert_int_equal(h.status, 0);
    assert_non_null(strstr(h.out, "--read_steal"));
    free(h.out);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_and_determinism),
        cmocka_unit_test(full_run),
        cmocka_unit_test(warmed_window),
        cmocka_unit_test(default_run_is_the_busiest_sms_share),
        cmocka_unit_test(help_says_which_run),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests_name("cli_simulate", tests, NULL, NULL);
}

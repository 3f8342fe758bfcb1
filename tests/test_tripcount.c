/* test_tripcount.c - exact trip counts of counted PTX loops (tripcount.h)
 * on tests/fixtures/loops.ptx, the --param / [params] plumbing, and the
 * profile line and profile_defaults column of analyze and simulate.
 *
 * The expected block frequencies follow from the back edge's probability
 * P = (N - 1) / N: the loop body runs 1 / (1 - P) = N times per entry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/clirun.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/dstcount.h"
#include "../inputs/kernel.h"

#define LOOPS "tests/fixtures/loops.ptx"

static rf_kernel *load_block(const char *path, const char *entry, const char *block,
                             const char *p1, const char *p2)
{
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    o.entry = entry;
    o.grid = "4";
    o.block = block;
    if (p1)
        o.params[o.nparams++] = p1;
    if (p2)
        o.params[o.nparams++] = p2;
    rf_kernel *k = NULL;
    rf_err err = {0};
    if (rf_kernel_load(path, &o, &k, &err))
        fail_msg("%s", err.msg);
    return k;
}

static rf_kernel *load(const char *path, const char *entry, const char *p1, const char *p2)
{
    return load_block(path, entry, "64", p1, p2);
}

static int block_of(const rf_kernel *k, const char *label)
{
    for (int b = 0; b < k->func->nblocks; b++)
        if (strcmp(k->func->blocks[b].label, label) == 0)
            return b;
    fail_msg("no block %s", label);
    return -1;
}

/* Expected executions of block `label` per thread. */
static double freq_of(const rf_kernel *k, const char *label)
{
    double freq[64];
    rf_err err = {0};
    assert_true(k->func->nblocks <= 64);
    if (rf_dst_block_freq(k->func, k->profile.trip, k->profile.taken, NULL, freq, NULL, &err))
        fail_msg("%s", err.msg);
    return freq[block_of(k, label)];
}

/* for (i = 0; i < 16; i++): i = 1..16 after the add, continue while < 16:
 * N = 1 + ceil((16 - 1) / 1) = 16, P = 15/16. */
static void constant_bound(void **state)
{
    (void)state;
    rf_kernel *k = load(LOOPS, "loop16", NULL, NULL);
    const rf_block *b = &k->func->blocks[block_of(k, "$L__BB0_1")];
    assert_true(b->has_taken);
    assert_true(fabs(b->taken_p - 15.0 / 16.0) < 1e-12);
    assert_true(fabs(freq_of(k, "$L__BB0_1") - 16.0) < 1e-9);
    assert_int_equal(k->psrc.branches, 1);
    assert_int_equal(k->psrc.loops, 1);
    assert_int_equal(k->psrc.loops_code, 1);
    assert_int_equal(k->psrc.defaults, 0);
    rf_kernel_destroy(k);
}

/* for (i = 0; i < n; i++) with n = 100: N = 1 + ceil(99 / 1) = 100,
 * P = 99/100; the guard "n < 1" (100 < 1) is false: taken 0.  Parameter
 * named by position and by its PTX name alike. */
static void parameter_bound(void **state)
{
    (void)state;
    const char *names[] = {"1=100", "loopn_param_1=100", "n=100"};   /* n: from loops.cu */
    for (int i = 0; i < 3; i++) {
        rf_kernel *k = load(LOOPS, "loopn", names[i], NULL);
        const rf_block *b = &k->func->blocks[block_of(k, "$L__BB1_2")];
        assert_true(b->has_taken);
        assert_true(fabs(b->taken_p - 0.99) < 1e-12);
        assert_true(k->func->blocks[0].has_taken);
        assert_true(k->func->blocks[0].taken_p == 0.0);
        assert_true(fabs(freq_of(k, "$L__BB1_2") - 100.0) < 1e-9);
        assert_int_equal(k->psrc.loops_code, 1);
        assert_int_equal(k->psrc.fwd_code, 1);
        assert_int_equal(k->psrc.defaults, 0);
        rf_kernel_destroy(k);
    }
    /* Without a value both branches stay on the defaults: the body runs
     * (1 - taken) * (trip + 1) = 0.5 * 17 = 8.5 times. */
    rf_kernel *k = load(LOOPS, "loopn", NULL, NULL);
    assert_false(k->func->blocks[block_of(k, "$L__BB1_2")].has_taken);
    assert_int_equal(k->psrc.defaults, 2);
    assert_int_equal(k->psrc.loops_default, 1);
    assert_true(fabs(freq_of(k, "$L__BB1_2") - 8.5) < 1e-9);
    /* The profile line names the parameter they read, as --param takes
     * it (loops.cu's name); with its value given it is gone. */
    char line[512];
    rf_kernel_profile_line(k, line, sizeof line);
    assert_non_null(strstr(line, "; branches read parameters given no value: n (--param "
                                 "NAME=V)"));
    rf_kernel_destroy(k);
    k = load(LOOPS, "loopn", "n=100", NULL);
    rf_kernel_profile_line(k, line, sizeof line);
    assert_null(strstr(line, "given no value"));
    rf_kernel_destroy(k);
    /* n = 0: the guard is taken, the loop never entered. */
    k = load(LOOPS, "loopn", "1=0", NULL);
    assert_true(k->func->blocks[0].taken_p == 1.0);
    assert_true(fabs(freq_of(k, "$L__BB1_2")) < 1e-12);
    rf_kernel_destroy(k);
}

/* for (i = 0; i < tid; i++): the bound is %tid.x; nothing folds. */
static void thread_bound_stays_default(void **state)
{
    (void)state;
    rf_kernel *k = load(LOOPS, "looptid", NULL, NULL);
    for (int b = 0; b < k->func->nblocks; b++)
        assert_false(k->func->blocks[b].has_taken);
    assert_int_equal(k->psrc.branches, 2);
    assert_int_equal(k->psrc.loops, 1);
    assert_int_equal(k->psrc.loops_code, 0);
    assert_int_equal(k->psrc.defaults, 2);
    rf_kernel_destroy(k);
}

/* Count-down by 4 from n & ~3, continue while != 0 (post-decrement):
 * n = 100: 100 & -4 = 100, v1 = 96, N = 1 + (0 - 96) / -4 = 25.
 * n = 102: 100 again.  n = 2: 0, v1 = -4 never reaches 0 going down:
 * not counted. */
static void count_down(void **state)
{
    (void)state;
    rf_kernel *k = load(LOOPS, "down", "1=100", NULL);
    assert_true(fabs(freq_of(k, "$L__BB3_1") - 25.0) < 1e-9);
    assert_true(fabs(k->func->blocks[block_of(k, "$L__BB3_1")].taken_p - 24.0 / 25.0) < 1e-12);
    rf_kernel_destroy(k);
    k = load(LOOPS, "down", "1=102", NULL);
    assert_true(fabs(freq_of(k, "$L__BB3_1") - 25.0) < 1e-9);
    rf_kernel_destroy(k);
    k = load(LOOPS, "down", "1=2", NULL);
    assert_false(k->func->blocks[block_of(k, "$L__BB3_1")].has_taken);
    assert_int_equal(k->psrc.defaults, 1);
    rf_kernel_destroy(k);
}

/* unroll (nvcc's unrolling by 4, loops.ptx): with n = 102 the guards
 * "n < 1" and "n - 1 <u 3" are not taken; the main loop counts
 * 102 - (102 & 3) = 100 down by 4 after its body, continuing while != 0:
 * v1 = 96, N = 1 + (0 - 96) / -4 = 25; the remainder's guard "(n & 3) ==
 * 0" (2 == 0) is not taken, and its loop counts 2 down by 1: v1 = 1,
 * N = 1 + (0 - 1) / -1 = 2.  n = 100: 100 & 3 = 0, the main loop still
 * 25, the remainder's guard taken: its body never runs.  n = 3: 3 - 1 <u
 * 3 skips the main loop (never run), the remainder runs 3. */
static void unrolled_by_four(void **state)
{
    (void)state;
    static const struct {
        const char *n;
        double main, rest;
    } c[] = {{"n=102", 25, 2}, {"n=100", 25, 0}, {"n=3", 0, 3}};
    for (int i = 0; i < 3; i++) {
        rf_kernel *k = load(LOOPS, "unroll", c[i].n, NULL);
        assert_true(fabs(freq_of(k, "$L__BB7_3") - c[i].main) < 1e-9);
        assert_true(fabs(freq_of(k, "$L__BB7_6") - c[i].rest) < 1e-9);
        assert_int_equal(k->psrc.fwd_code, 3);
        rf_kernel_destroy(k);
    }
    rf_kernel *k = load(LOOPS, "unroll", "n=102", NULL);
    assert_true(fabs(k->func->blocks[block_of(k, "$L__BB7_3")].taken_p - 24.0 / 25.0) < 1e-12);
    assert_true(fabs(k->func->blocks[block_of(k, "$L__BB7_6")].taken_p - 0.5) < 1e-12);
    assert_int_equal(k->psrc.loops_code, 2);
    assert_int_equal(k->psrc.defaults, 0);
    rf_kernel_destroy(k);
}

/* halve (loops.ptx): s = blockDim.x / 2, s >>= 1 after the body,
 * continuing while s != 0.  64 threads: s = 32, the guard "s == 0" not
 * taken, compared values 16, 8, 4, 2, 1, 0: N = 6 (the first to fail is
 * the 6th), P = 5/6.  256 threads: s = 128, N = 8.  One thread: s = 0,
 * the guard taken, the body never runs (the loop itself is not counted).
 * The "tid < s" branch inside stays on the default. */
static void halving_from_block_size(void **state)
{
    (void)state;
    static const struct {
        const char *block;
        double n;
    } c[] = {{"64", 6}, {"256", 8}, {"1", 0}};
    for (int i = 0; i < 3; i++) {
        rf_kernel *k = load_block(LOOPS, "halve", c[i].block, NULL, NULL);
        assert_true(fabs(freq_of(k, "$L__BB8_3") - c[i].n) < 1e-9);
        assert_true(k->func->blocks[0].has_taken);
        assert_true(k->func->blocks[0].taken_p == (c[i].n == 0 ? 1.0 : 0.0));
        assert_int_equal(k->psrc.fwd_code, 1);
        /* The "tid < s" branch; with one thread the loop too (its count
         * would start from 0 >> 1 = 0, which never moves). */
        assert_int_equal(k->psrc.defaults, c[i].n == 0 ? 2 : 1);
        rf_kernel_destroy(k);
    }
    rf_kernel *k = load_block(LOOPS, "halve", "64", NULL, NULL);
    assert_true(fabs(k->func->blocks[block_of(k, "$L__BB8_3")].taken_p - 5.0 / 6.0) < 1e-12);
    assert_int_equal(k->psrc.loops_code, 1);
    rf_kernel_destroy(k);
}

/* l64 (a 64-bit counter, loops.ptx): the main loop's setp reads x = j +
 * D, D = (n & 3) - n, written after j += 4, against 0; j enters at 0 (set
 * twice before the loop, once on the path into it).  n = 1002: D = 2 -
 * 1002 = -1000, compared values j + D = -996, -992, ..., continuing while
 * != 0: N = 1 + (0 + 996) / 4 = 250; the remainder counts -(n & 3) = -2 up
 * by 1 to 0: N = 2.  n = 1000: the main loop 250, the remainder's guard
 * ((n & 3) == 0) taken. */
static void sum_with_the_counter(void **state)
{
    (void)state;
    rf_kernel *k = load(LOOPS, "l64", "n=1002", NULL);
    assert_true(fabs(freq_of(k, "$L__BB11_3") - 250.0) < 1e-9);
    assert_true(fabs(freq_of(k, "$L__BB11_6") - 2.0) < 1e-9);
    assert_int_equal(k->psrc.loops_code, 2);
    rf_kernel_destroy(k);
    k = load(LOOPS, "l64", "n=1000", NULL);
    assert_true(fabs(freq_of(k, "$L__BB11_3") - 250.0) < 1e-9);
    assert_true(fabs(freq_of(k, "$L__BB11_6")) < 1e-12);
    rf_kernel_destroy(k);
}

/* Loops whose start is the thread's index, counted per warp: the warp
 * runs the body as often as its longest lane, over the lanes that enter
 * (start < n), averaged over the warps with such a lane.
 * bstride, 64 threads (warps of tid 0..31 and 32..63), stride 64, n = 80:
 * a lane runs ceil((80 - tid) / 64): 2 for tid < 16, else 1, so warp 0
 * runs 2 and warp 1 runs 1: N = 1.5, back edge (N - 1) / N = 1/3.
 * n = 40: every lane that enters runs once: N = 1, back edge 0.
 * n = 0: no lane enters: not counted (the default stays).
 * gstride, 4 CTAs of 64, i = 64 cta + tid stepping by 256, n = 900: a
 * lane runs 4 when i < 900 - 768 = 132, else 3 (i < 388 for all); the 8
 * warps of 32 consecutive i: the first 5 (i up to 159, lanes 128..131 of
 * the fifth below 132) run 4, the last 3 run 3: N = 29 / 8, back edge
 * (29/8 - 1) / (29/8) = 21/29.
 * The guard before each loop (start >= n skips it) is decided where every
 * thread goes the same way: n = 80 and n = 900, no thread skips (taken 0);
 * n = 40, threads 40..63 skip and 0..39 do not: it stays on the default;
 * n = 0, every thread skips (taken 1), and the loop is not counted. */
static void strided_by_thread(void **state)
{
    (void)state;
    static const struct {
        const char *entry, *label, *n;
        double back;
        int guard;              /* -1: on the default */
    } c[] = {{"bstride", "$L__BB9_2", "n=80", 1.0 / 3.0, 0},
             {"bstride", "$L__BB9_2", "n=40", 0.0, -1},
             {"gstride", "$L__BB10_2", "n=900", 21.0 / 29.0, 0}};
    for (int i = 0; i < 3; i++) {
        rf_kernel *k = load(LOOPS, c[i].entry, c[i].n, NULL);
        const rf_block *b = &k->func->blocks[block_of(k, c[i].label)];
        assert_true(b->has_taken);
        assert_true(fabs(b->taken_p - c[i].back) < 1e-12);
        assert_int_equal(k->psrc.loops_code, 1);
        assert_int_equal(k->func->blocks[0].has_taken, c[i].guard >= 0);
        if (c[i].guard >= 0)
            assert_true(k->func->blocks[0].taken_p == c[i].guard);
        assert_int_equal(k->psrc.defaults, c[i].guard >= 0 ? 0 : 1);
        rf_kernel_destroy(k);
    }
    rf_kernel *k = load(LOOPS, "bstride", "n=0", NULL);
    assert_false(k->func->blocks[block_of(k, "$L__BB9_2")].has_taken);
    assert_true(k->func->blocks[0].taken_p == 1.0);
    assert_int_equal(k->psrc.loops_code, 0);
    assert_int_equal(k->psrc.fwd_code, 1);
    rf_kernel_destroy(k);
}

/* Loops over a warp's lanes (tests/fixtures/lanes.cu, and gemv_warp),
 * grid 4, block 64:
 * - lanes: for (c = tid.x & 31; c < n; c += 32).  n = 1000: lanes 0-7 run
 *   the body 32 times (c = lane + 32 k < 1000 for k <= 31), lanes 8-31 31
 *   times; a warp runs while any lane does: 32, P = 31/32.  n = 40: lanes
 *   0-7 twice, the rest once: 2, P = 1/2.  The guard lane >= n never holds
 *   (0).  n = 16: lanes 16-31 skip the loop and lanes 0-15 run it once, so
 *   the guard is not decided (a warp's lanes differ) and the lanes that
 *   enter run one body: P = 0.
 * - rows: row = ctaid.x (ntid.x >> 5) + (tid.x >> 5) (rows 0..7), the
 *   same loop to 1024: 32 for every lane, P = 31/32; with nrow = 8 the
 *   guard row >= nrow never holds (0).
 * - gemv_warp (inputs/validation/): the same loop as nvcc writes it
 *   there, c = (lane | -32) = lane - 32, c += 32 while c < 992: lane 0
 *   runs 32 bodies, lane 31 too (c after the k-th add is lane - 32 + 32 k
 *   < 992 for k <= 31): P = 31/32. */
static void lane_strided(void **state)
{
    (void)state;
    static const struct {
        const char *entry, *label, *p;
        double back;
    } c[] = {{"lanes", "$L__BB0_2", "n=1000", 31.0 / 32.0},
             {"lanes", "$L__BB0_2", "n=40", 0.5},
             {"rows", "$L__BB1_2", "nrow=8", 31.0 / 32.0},
             {"gemv_warp", "$L__BB0_2", "nrow=8", 31.0 / 32.0}};
    for (int i = 0; i < 4; i++) {
        rf_kernel *k = load(i < 3 ? "tests/fixtures/lanes.ptx" : "inputs/validation/gemv_warp.ptx",
                            c[i].entry, c[i].p, NULL);
        const rf_block *b = &k->func->blocks[block_of(k, c[i].label)];
        assert_true(b->has_taken);
        assert_true(fabs(b->taken_p - c[i].back) < 1e-12);
        assert_int_equal(k->psrc.loops_code, 1);
        assert_true(k->func->blocks[0].has_taken);
        assert_true(k->func->blocks[0].taken_p == 0.0);
        rf_kernel_destroy(k);
    }
    rf_kernel *k = load("tests/fixtures/lanes.ptx", "lanes", "n=16", NULL);
    const rf_block *b = &k->func->blocks[block_of(k, "$L__BB0_2")];
    assert_true(b->has_taken);
    assert_true(b->taken_p == 0.0);
    assert_false(k->func->blocks[0].has_taken);
    rf_kernel_destroy(k);
}

/* pre: the setp reads i before the add: values 0..10 are compared,
 * continue while <= 9: N = 1 + ceil((10 - 0) / 1) = 11.
 * gt: i = 8, i -= 2, continue while > 0: v1 = 6, N = 1 + ceil(6 / 2) = 4. */
static void compare_forms(void **state)
{
    (void)state;
    rf_kernel *k = load(LOOPS, "pre", NULL, NULL);
    assert_true(fabs(freq_of(k, "$L__BB4_1") - 11.0) < 1e-9);
    rf_kernel_destroy(k);
    k = load(LOOPS, "gt", NULL, NULL);
    assert_true(fabs(freq_of(k, "$L__BB5_1") - 4.0) < 1e-9);
    assert_true(fabs(k->func->blocks[block_of(k, "$L__BB5_1")].taken_p - 0.75) < 1e-12);
    rf_kernel_destroy(k);
}

/* Parameter names from the PTX and from the CUDA source next to it. */
static void param_names(void **state)
{
    (void)state;
    char names[16][128], base[64];
    const char *ptx = ".visible .entry _Z3addPfi(\n\t.param .u64 _Z3addPfi_param_0,\n"
                      "\t.param .align 8 .b8 _Z3addPfi_param_1[16]\n)\n{\n}\n";
    assert_int_equal(rf_trip_ptx_params(ptx, "_Z3addPfi", names, 16), 2);
    assert_string_equal(names[1], "_Z3addPfi_param_1");
    assert_int_equal(rf_trip_ptx_params(ptx, "_Z3add", names, 16), -1);
    const char *cu = "static int add(int x);\n"
                     "template <typename T, int N>\n__global__ void __launch_bounds__(256)\n"
                     "add(const T *__restrict__ a, float b[4], std::pair<int, int> p, int n = 3)"
                     "\n{\n}\n__global__ void none(void) {}\n";
    assert_int_equal(rf_trip_cu_params(cu, "add", names, 16), 4);
    assert_string_equal(names[0], "a");
    assert_string_equal(names[1], "b");
    assert_string_equal(names[2], "p");
    assert_string_equal(names[3], "n");
    assert_int_equal(rf_trip_cu_params(cu, "none", names, 16), 0);
    assert_int_equal(rf_trip_cu_params(cu, "sub", names, 16), -1);
    rf_trip_base_name("_Z7hotspotPKfS0_Pfiiiffffff", base, sizeof base);
    assert_string_equal(base, "hotspot");
    rf_trip_base_name("_ZN2ns6kernelEv", base, sizeof base);
    assert_string_equal(base, "kernel");
    rf_trip_base_name("hotspot", base, sizeof base);
    assert_string_equal(base, "hotspot");
    /* The bundled hotspot: steps is parameter 5 (hotspot.cu); with 4 the
     * guard "steps < 1" is decided (its loop leaves by a break and stays
     * on the profile's trip). */
    rf_kernel *k = load("inputs/kernels/hotspot.spec", NULL, "steps=4", NULL);
    assert_int_equal(k->psrc.fwd_code, 1);
    assert_int_equal(k->psrc.loops_code, 0);
    rf_kernel_destroy(k);
}

/* A loop to 16 with a break: the latch runs fewer than 16 times when the
 * break leaves, so neither branch is decided. */
static void break_stays_default(void **state)
{
    (void)state;
    rf_kernel *k = load(LOOPS, "brk", NULL, NULL);
    for (int b = 0; b < k->func->nblocks; b++)
        assert_false(k->func->blocks[b].has_taken);
    assert_int_equal(k->psrc.loops, 1);
    assert_int_equal(k->psrc.loops_code, 0);
    assert_int_equal(k->psrc.defaults, 2);
    rf_kernel_destroy(k);
}

/* [params] in a spec, --param over it, [branches] over the code. */
static void spec_params(void **state)
{
    (void)state;
    rf_kernel *k = load("tests/fixtures/loops.spec", NULL, NULL, NULL);
    assert_true(fabs(freq_of(k, "$L__BB1_2") - 100.0) < 1e-9);
    rf_kernel_destroy(k);
    k = load("tests/fixtures/loops.spec", NULL, "loopn_param_1=10", NULL);
    assert_true(fabs(freq_of(k, "$L__BB1_2") - 10.0) < 1e-9);   /* P = 9/10 */
    rf_kernel_destroy(k);
    k = load("tests/fixtures/loops_branches.spec", NULL, NULL, NULL);
    assert_true(k->func->blocks[block_of(k, "$L__BB1_2")].taken_p == 0.5);
    assert_int_equal(k->psrc.from_spec, 1);
    assert_int_equal(k->psrc.loops_spec, 1);
    assert_int_equal(k->psrc.loops_code, 0);
    assert_int_equal(k->psrc.fwd_code, 1);
    char line[512];
    rf_kernel_profile_line(k, line, sizeof line);
    /* No branch is left on the profile's trip or taken: no "rest". */
    assert_string_equal(line, "profile: trip counts exact for 0 of 1 loops (from code/params), "
                              "1 from [branches]; 1 of 1 forward branches decided by the code; "
                              "l1_hit 0.6, l2_hit 0.5 defaults");
    rf_kernel_destroy(k);
    /* small.spec's [profile] sets trip 10 and taken 0.25: its one loop and
     * its one forward branch take those, the spec's, not the defaults. */
    k = load("tests/fixtures/small.spec", NULL, NULL, NULL);
    assert_true(k->psrc.trip_given && k->psrc.taken_given);
    assert_int_equal(k->psrc.defaults, 2);
    assert_int_equal(k->psrc.loops_default, 1);
    rf_kernel_profile_line(k, line, sizeof line);
    assert_non_null(strstr(line, "profile: trip counts exact for 0 of 1 loops (from code/params), "
                                 "the spec's trip 10 for the rest; 0 of 1 forward branches "
                                 "decided by the code, the spec's taken 0.25 for the rest; "
                                 "l1_hit 0.6, l2_hit 0.5 defaults"));
    rf_kernel_destroy(k);
}

static void bad_params(void **state)
{
    (void)state;
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    o.grid = "1";
    o.block = "32";
    o.params[o.nparams++] = "n";
    rf_kernel *k = NULL;
    rf_err err = {0};
    assert_int_equal(rf_kernel_load(LOOPS, &o, &k, &err), RF_EUSAGE);
    assert_null(k);
    assert_non_null(strstr(err.msg, "'n' is not NAME=VALUE"));
    o.params[0] = "n=1.5";
    assert_int_equal(rf_kernel_load(LOOPS, &o, &k, &err), RF_ENUMBER);
    assert_null(k);
    /* A name no parameter has. */
    o.params[0] = "m=3";
    o.entry = "loopn";
    assert_int_equal(rf_kernel_load(LOOPS, &o, &k, &err), RF_EUNKNOWN);
    assert_null(k);
    assert_string_equal(err.msg, "command line: m: no parameter of loopn is named so (PTX "
                                 "names loopn_param_0..loopn_param_1, positions 0..1, or "
                                 "their names in the .cu)");
    clirun_expect_bad("analyze tests/fixtures/unknownparam.spec",
                      "unknownparam.spec:8: steps: no parameter of loopn is named so");
    clirun_expect_bad("analyze tests/fixtures/badparam.spec",
                      "badparam.spec:8:5: 1: 'lots' is not an integer parameter value");
    clirun_expect_bad("analyze " LOOPS " --param", "--param needs a value");
}

/* End to end: analyze's CSV column and simulate's profile line. */
static void cli_profile(void **state)
{
    (void)state;
    clirun a = clirun_run("analyze " LOOPS " --entry loopn --no-ptxas --csv");
    assert_int_equal(a.status, 0);
    assert_true(clirun_csv_get(a.out, "profile_defaults", 1) == 2);
    free(a.out);
    a = clirun_run("analyze " LOOPS " --entry loopn --no-ptxas --param 1=100 --csv");
    assert_int_equal(a.status, 0);
    assert_true(clirun_csv_get(a.out, "profile_defaults", 1) == 0);
    free(a.out);
    a = clirun_run("simulate --gpu fermi-gtx480 --kernel " LOOPS " --entry loop16 --grid 4 "
                   "--block 64 --design baseline --cycles 5000");
    assert_int_equal(a.status, 0);
    assert_non_null(strstr(a.out, "profile: trip counts exact for 1 of 1 loops (from "
                                  "code/params); "));
    free(a.out);
    a = clirun_run("simulate --gpu fermi-gtx480 --kernel " LOOPS " --entry looptid --grid 4 "
                   "--block 64 --design baseline --cycles 5000 --csv");
    assert_int_equal(a.status, 0);
    assert_true(clirun_csv_get(a.out, "profile_defaults", 1) == 2);
    free(a.out);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(constant_bound),
        cmocka_unit_test(parameter_bound),
        cmocka_unit_test(thread_bound_stays_default),
        cmocka_unit_test(count_down),
        cmocka_unit_test(unrolled_by_four),
        cmocka_unit_test(halving_from_block_size),
        cmocka_unit_test(strided_by_thread),
        cmocka_unit_test(lane_strided),
        cmocka_unit_test(sum_with_the_counter),
        cmocka_unit_test(compare_forms),
        cmocka_unit_test(break_stays_default),
        cmocka_unit_test(param_names),
        cmocka_unit_test(spec_params),
        cmocka_unit_test(bad_params),
        cmocka_unit_test(cli_profile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* test_ncu.c - Nsight Compute CSV exports (inputs/ncu.h) and rfkit profile:
 * the fixtures in tests/fixtures/ncu/ are built for a hotspot-shaped
 * kernel (launch 32x32 CTAs of 16x16 threads, 26 registers, 3072 bytes of
 * static shared memory, one loop of 4 steps).
 *
 * hotspot_source.csv's counts (warp instructions executed), per block of
 * its SASS: 1024 CTAs x 8 warps = 8192 warps enter; 1024 leave at once
 * (the bounds check, taken 1024 of 8192 = 0.125); 7168 run the loop 4
 * times: header and latch 28672, the back edge taken 3 x 7168 = 21504 of
 * 28672 = 0.75; the compute guard skips 7168 of 28672 = 0.25, so the
 * compute block runs 21504; after the loop 7168; EXIT 8192. */
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
#include <sys/stat.h>
#include <unistd.h>

#include "../analytic/dstcount.h"
#include "../inputs/kernel.h"
#include "../inputs/ncu.h"

#define RAW "tests/fixtures/ncu/hotspot_raw.csv"
#define SRC "tests/fixtures/ncu/hotspot_source.csv"
#define TWO "tests/fixtures/ncu/two_launches.csv"

static void bad(const char *text, int code, const char *want);

static rf_ncu *load_ok(const char *path)
{
    rf_ncu *n = NULL;
    rf_err err = {0};
    if (rf_ncu_load(path, &n, &err))
        fail_msg("%s", err.msg);
    return n;
}

static void raw_page(void **state)
{
    (void)state;
    rf_ncu *n = load_ok(RAW);
    assert_int_equal(n->page, RF_NCU_RAW);
    assert_int_equal(n->nlaunches, 2);
    const rf_ncu_launch *l = NULL;
    rf_err err = {0};
    assert_int_equal(rf_ncu_find_launch(n, "hotspot", -1, &l, &err), 0);
    assert_string_equal(l->id, "1");
    assert_int_equal(l->line, 4);
    /* "(32, 32, 1)" and "(16, 16, 1)"; "3,072" byte/block. */
    assert_int_equal(l->grid[0], 32);
    assert_int_equal(l->grid[1], 32);
    assert_int_equal(l->grid[2], 1);
    assert_int_equal(l->block[0], 16);
    assert_int_equal(l->block[1], 16);
    assert_int_equal(l->regs, 26);
    assert_int_equal(l->smem_dynamic, 0);
    assert_int_equal(l->smem_static, 3072);
    assert_true(fabs(l->l1_hit - 0.3125) < 1e-12);   /* 31.25 % */
    assert_true(fabs(l->l2_hit - 0.785) < 1e-12);    /* 78.5 % */
    assert_true(fabs(l->occupancy - 0.618) < 1e-12); /* 61.8 % */
    assert_int_equal(l->cc, 75);
    assert_int_equal(rf_ncu_find_launch(n, "init_chip", -1, &l, &err), 0);
    assert_int_equal(l->grid[0], 256);
    assert_int_equal(l->regs, 8);
    assert_int_equal(rf_ncu_find_launch(n, "sgemm", -1, &l, &err), RF_EUNKNOWN);
    assert_non_null(strstr(err.msg, "no launch of kernel 'sgemm'"));
    assert_non_null(strstr(err.msg, "'init_chip(float *, int)'"));
    rf_ncu_destroy(n);

    n = load_ok(TWO);
    assert_int_equal(rf_ncu_find_launch(n, "hotspot", -1, &l, &err), RF_EUSAGE);
    assert_non_null(strstr(err.msg, "kernel 'hotspot' has 2 launches (IDs 1, 2)"));
    assert_int_equal(rf_ncu_find_launch(n, "hotspot", 1, &l, &err), 0);
    assert_string_equal(l->id, "2");
    assert_true(fabs(l->l2_hit - 0.8) < 1e-12);
    assert_int_equal(rf_ncu_find_launch(n, "hotspot", 2, &l, &err), RF_ERANGE);
    rf_ncu_destroy(n);
}

/* The default page: the same figures from one row per metric; static
 * shared memory "3.07" Kbyte/block = 3070 bytes (ncu's rounding). */
static void details_page(void **state)
{
    (void)state;
    rf_ncu *n = load_ok("tests/fixtures/ncu/hotspot_details.csv");
    assert_int_equal(n->page, RF_NCU_DETAILS);
    assert_int_equal(n->nlaunches, 1);
    const rf_ncu_launch *l = &n->launches[0];
    assert_int_equal(l->line, 2);
    assert_int_equal(l->grid[0], 32);
    assert_int_equal(l->block[1], 16);
    assert_int_equal(l->regs, 26);
    assert_int_equal(l->smem_static, 3070);
    assert_int_equal(l->smem_dynamic, 0);
    assert_true(fabs(l->l1_hit - 0.3125) < 1e-12);
    assert_true(fabs(l->l2_hit - 0.785) < 1e-12);
    assert_true(fabs(l->occupancy - 0.618) < 1e-12);
    assert_int_equal(l->cc, 75);
    rf_ncu_destroy(n);
    /* Metric names (--print-metric-name name), two launches. */
    const char *text =
        "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Metric Name\",\"Metric Unit\","
        "\"Metric Value\"\n"
        "\"0\",\"k(int)\",\"(64, 1, 1)\",\"(8, 1, 1)\",\"launch__registers_per_thread\","
        "\"register/thread\",\"40\"\n"
        "\"3\",\"k(int)\",\"(64, 1, 1)\",\"(16, 1, 1)\",\"lts__t_sector_hit_rate.pct\",\"%\","
        "\"12.5\"\n";
    rf_err err = {0};
    if (rf_ncu_parse("d.csv", text, strlen(text), &n, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(n->nlaunches, 2);
    assert_int_equal(n->launches[0].regs, 40);
    assert_true(n->launches[0].l2_hit == -1);
    assert_int_equal(n->launches[1].grid[0], 16);
    assert_true(n->launches[1].l2_hit == 0.125);
    rf_ncu_destroy(n);
    bad("\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Metric Name\",\"Metric Unit\","
        "\"Metric Value\"\n\"0\",\"k(int)\",\"(64, 1, 1)\",\"(8, 1, 1)\","
        "\"Achieved Occupancy\",\"%\",\"lots\"\n",
        RF_ENUMBER, "x.csv:2:64: Achieved Occupancy: 'lots' is not a number");
}

static void names(void **state)
{
    (void)state;
    assert_true(rf_ncu_name_matches("hotspot(float *, int)", "hotspot"));
    assert_true(rf_ncu_name_matches("void ns::sgemm<float, 16>(float *, int)", "sgemm"));
    assert_true(rf_ncu_name_matches("_Z7hotspotPfi", "_Z7hotspotPfi"));
    assert_false(rf_ncu_name_matches("hotspot(float *, int)", "hot"));
    assert_false(rf_ncu_name_matches("init_chip(float *, int)", "hotspot"));
}

static void source_page(void **state)
{
    (void)state;
    rf_ncu *n = load_ok(SRC);
    assert_int_equal(n->page, RF_NCU_SOURCE);
    assert_int_equal(n->nsources, 2);
    const rf_ncu_source *s = NULL;
    rf_err err = {0};
    assert_int_equal(rf_ncu_find_source(n, "hotspot", -1, &s, &err), 0);
    assert_int_equal(s->ninsts, 21);
    assert_true(s->insts[0].addr == 0x7f3a12345600ULL);
    assert_string_equal(s->insts[0].text, "MOV R1, c[0x0][0x28]");
    assert_true(s->insts[0].executed == 8192);     /* "8,192" */
    assert_true(s->insts[10].executed == 28672);   /* loop header */
    assert_true(s->insts[20].executed == 0);       /* the trap after EXIT */
    rf_ncu_destroy(n);
}

/* Parse text, expect code and a message containing want. */
static void bad(const char *text, int code, const char *want)
{
    rf_ncu *n = NULL;
    rf_err err = {0};
    int rc = rf_ncu_parse("x.csv", text, strlen(text), &n, &err);
    if (rc != code || !strstr(err.msg, want))
        fail_msg("got %d '%s', want %d '%s'", rc, err.msg, code, want);
    assert_null(n);
}

#define HDR "\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"launch__registers_per_thread\"," \
            "\"launch__shared_mem_per_block_static\",\"lts__t_sector_hit_rate.pct\"\n"
#define UNITS "\"\",\"\",\"\",\"\",\"register/thread\",\"byte/block\",\"%\"\n"

static void errors(void **state)
{
    (void)state;
    bad(HDR UNITS "\"0\",\"k(int)\",\"(2, 1, 1)\",\"(32, 1, 1)\",\"2x6\",\"0\",\"50\"\n",
        RF_ENUMBER, "x.csv:3:39: launch__registers_per_thread: '2x6' is not a number");
    bad(HDR UNITS "\"0\",\"k(int)\",\"(2, 1, 1)\",\"(32, 1, 1)\",\"300\",\"0\",\"50\"\n",
        RF_ERANGE, "x.csv:3:39: launch__registers_per_thread: 300 is not a register count");
    bad(HDR UNITS "\"0\",\"k(int)\",\"(2, 1, 1)\",\"(32, 1, 1)\",\"8\",\"0\",\"120\"\n",
        RF_ERANGE, "x.csv:3:47: lts__t_sector_hit_rate.pct: 120% is outside 0..100");
    bad(HDR UNITS "\"0\",\"k(int)\",\"(2, 1, 1)\",\"(2048, 1, 1)\",\"8\",\"0\",\"50\"\n",
        RF_ERANGE, "x.csv:3:26: block: 2048 is outside [1, 1024]");
    bad(HDR "\"\",\"\",\"\",\"\",\"register/thread\",\"furlong\",\"%\"\n"
            "\"0\",\"k(int)\",\"(2, 1, 1)\",\"(32, 1, 1)\",\"8\",\"0\",\"50\"\n",
        RF_EPARSE, "x.csv:3:43: launch__shared_mem_per_block_static: unit 'furlong' is not");
    bad(HDR UNITS "\"0\",\"k(int)\",\"(2, 1, 1)\"\n", RF_EPARSE,
        "x.csv:3:1: 3 fields where the header has 7");
    bad(HDR UNITS "\"0\",\"k(int)\",\"(2, 1, 1)\",\"(32, 1, 1)\",\"8\",\"0\",\"50\n",
        RF_EPARSE, "x.csv:3:47: unterminated quoted field");
    bad(HDR UNITS "\"0\",\"k\"x,\"(2, 1, 1)\"\n", RF_EPARSE, "x.csv:3:8: text after a closing quote");
    bad("a,b\n1,2\n", RF_EPARSE, "x.csv:1:1: not an ncu raw page");
    bad("", RF_EPARSE, "x.csv:1: empty");
    bad(HDR UNITS, RF_EPARSE, "raw page without a kernel launch row");
    bad("\"Address\",\"Source\",\"Instructions Executed\"\n\"0x20\",\"EXIT\",\"1\"\n"
        "\"0x10\",\"EXIT\",\"1\"\n", RF_EPARSE,
        "x.csv:3:1: Address: addresses must increase (0x10 after 0x20)");
    bad("\"Address\",\"Source\",\"Warp Stall Sampling (All Samples)\"\n", RF_EPARSE,
        "x.csv:1:1: source page without an \"Instructions Executed\" column");
    bad("\"Address\",\"Source\",\"Instructions Executed\"\n\"0xzz\",\"EXIT\",\"1\"\n",
        RF_ENUMBER, "x.csv:2:1: Address: '0xzz' is not an address");
    /* The size cap is checked before the text is read. */
    rf_ncu *n = NULL;
    rf_err err = {0};
    assert_int_equal(rf_ncu_parse("big.csv", "", RF_NCU_MAX_BYTES + 1, &n, &err), RF_ELIMIT);
    assert_non_null(strstr(err.msg, "big.csv: larger than 64 MiB"));
    assert_int_equal(rf_ncu_load("tests/fixtures/ncu/none.csv", &n, &err), RF_EIO);
}

/* CRLF lines, doubled quotes, absent values, ncu's progress lines. */
static void layout(void **state)
{
    (void)state;
    const char *text =
        "==PROF== Connected to process 4711\r\n"
        "\"ID\",\"Kernel Name\",\"launch__grid_dim_x\",\"launch__grid_dim_y\","
        "\"launch__block_size\",\"l1tex__t_sector_hit_rate.pct\","
        "\"launch__shared_mem_per_block_dynamic\"\r\n"
        "\"\",\"\",\"\",\"\",\"\",\"%\",\"Kbyte/block\"\r\n"
        "\"7\",\"say \"\"hi\"\"(int)\",\"1,024\",\"2\",\"128\",\"n/a\",\"1.5\"\r\n";
    rf_ncu *n = NULL;
    rf_err err = {0};
    if (rf_ncu_parse("crlf.csv", text, strlen(text), &n, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(n->nlaunches, 1);
    const rf_ncu_launch *l = &n->launches[0];
    assert_string_equal(l->kernel, "say \"hi\"(int)");
    assert_int_equal(l->line, 4);
    assert_int_equal(l->grid[0], 1024);
    assert_int_equal(l->grid[1], 2);
    assert_int_equal(l->block[0], 128);
    assert_true(l->l1_hit == -1);              /* n/a */
    assert_true(l->l2_hit == -1);              /* not exported */
    assert_int_equal(l->smem_dynamic, 1500);   /* 1.5 Kbyte = 1500 bytes */
    assert_int_equal(l->regs, 0);
    rf_ncu_destroy(n);
}

static char tmpdir[64];

static int make_tmp(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/rfkit_ncu_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int rm_tmp(void **state)
{
    (void)state;
    const char *names[] = {"hotspot.spec", "hotspot.sass", "ptx.spec", "given.spec",
                           "given.sass", "bad.csv", "bad.spec", "bad.sass"};
    char p[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
        unlink(p);
    }
    rmdir(tmpdir);
    return 0;
}

static bool exists(const char *dir, const char *name)
{
    char p[128];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return stat(p, &st) == 0;
}

static int label_block(const rf_kernel *k, const char *label)
{
    for (int b = 0; b < k->func->nblocks; b++)
        if (!strcmp(k->func->blocks[b].label, label))
            return b;
    fail_msg("no block %s", label);
    return -1;
}

/* The spec from both exports, its fields by hand, then simulate. */
static void profile_to_simulate(void **state)
{
    (void)state;
    char args[512], spec[128];
    snprintf(spec, sizeof spec, "%s/hotspot.spec", tmpdir);
    snprintf(args, sizeof args, "profile --ncu " RAW " --ncu " SRC " --kernel hotspot "
             "--gpu fermi-gtx480 -o %s --csv", spec);
    clirun r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "regs", 1) == 26);
    assert_true(clirun_csv_get(r.out, "smem", 1) == 3072);
    assert_true(clirun_csv_get(r.out, "branches_measured", 1) == 3);
    assert_true(fabs(clirun_csv_get(r.out, "occupancy_ncu", 1) - 0.618) < 1e-9);
    /* fermi-gtx480: 26 x 256 = 6656 registers a CTA, 32768 a SM: 4 CTAs,
     * 32 of 48 warps. */
    assert_true(fabs(clirun_csv_get(r.out, "occupancy_rfkit", 1) - 32.0 / 48.0) < 1e-6);
    free(r.out);
    assert_true(exists(tmpdir, "hotspot.sass"));

    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    rf_kernel *k = NULL;
    rf_err err = {0};
    if (rf_kernel_load(spec, &o, &k, &err))
        fail_msg("%s", err.msg);
    assert_string_equal(k->func->name, "hotspot");
    assert_int_equal(k->launch.grid[0], 32);
    assert_int_equal(k->launch.grid[1], 32);
    assert_int_equal(k->launch.block[0], 16);
    assert_int_equal(k->launch.block[1], 16);
    assert_int_equal(k->launch.smem, 3072);     /* dynamic 0 + static 3072 */
    assert_int_equal(k->regs, 26);
    assert_true(k->profile.l1_hit == 0.3125);
    assert_true(k->profile.l2_hit == 0.785);
    assert_int_equal(k->psrc.branches, 3);
    assert_int_equal(k->psrc.from_spec, 3);
    assert_int_equal(k->psrc.defaults, 0);
    /* Blocks: 0 entry, 1 loop preheader, 2 header, 3 compute, 4 latch,
     * 5 store, 6 EXIT, 7 trap. */
    assert_true(k->func->blocks[0].taken_p == 0.125);            /* 1024 / 8192 */
    assert_true(k->func->blocks[label_block(k, "BB2")].taken_p == 0.25);   /* 7168 / 28672 */
    assert_true(k->func->blocks[label_block(k, "BB4")].taken_p == 0.75);   /* 21504 / 28672 */
    double freq[16];
    assert_true(k->func->nblocks <= 16);
    if (rf_dst_block_freq(k->func, k->profile.trip, k->profile.taken, NULL, freq, NULL, &err))
        fail_msg("%s", err.msg);
    /* Per warp: the measured counts over the 8192 warps. */
    const double want[] = {1, 7168.0 / 8192, 28672.0 / 8192, 21504.0 / 8192, 28672.0 / 8192,
                           7168.0 / 8192, 1, 0};
    for (int b = 0; b < 8; b++)
        if (fabs(freq[b] - want[b]) > 1e-9)
            fail_msg("block %d: %g per warp, measured %g", b, freq[b], want[b]);
    rf_kernel_destroy(k);

    snprintf(args, sizeof args, "simulate --gpu fermi-gtx480 --kernel %s --design baseline "
             "--cycles 20000 --csv", spec);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_true(clirun_csv_get(r.out, "ctas_per_sm", 1) == 4);
    assert_true(clirun_csv_get(r.out, "profile_defaults", 1) == 0);
    assert_true(clirun_csv_get(r.out, "ipc", 1) > 0);
    free(r.out);
}

/* --code: a SASS listing matched by offset; a PTX takes launch and caches. */
static void given_code(void **state)
{
    (void)state;
    char args[512], sass[128];
    snprintf(sass, sizeof sass, "%s/hotspot.sass", tmpdir);
    snprintf(args, sizeof args, "profile --ncu " SRC " --ncu " RAW " --kernel hotspot "
             "--code %s -o %s/given.spec", sass, tmpdir);
    clirun r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "branches   3 of 3 conditional branches"));
    free(r.out);
    assert_false(exists(tmpdir, "given.sass"));
    char spec[128];
    snprintf(spec, sizeof spec, "%s/given.spec", tmpdir);
    rf_kernel *k = NULL;
    rf_err err = {0};
    if (rf_kernel_load(spec, NULL, &k, &err))
        fail_msg("%s", err.msg);
    assert_true(k->func->blocks[label_block(k, "BB4")].taken_p == 0.75);
    rf_kernel_destroy(k);

    snprintf(args, sizeof args, "profile --ncu " RAW " --ncu " SRC " --kernel hotspot "
             "--code inputs/kernels/hotspot.ptx -o %s/ptx.spec", tmpdir);
    r = clirun_run(args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "source page not used: the code is PTX"));
    free(r.out);
    snprintf(spec, sizeof spec, "%s/ptx.spec", tmpdir);
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    if (rf_kernel_load(spec, &o, &k, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(k->launch.smem, 0);     /* the PTX declares its 3072 static bytes */
    assert_int_equal(k->smem_static, 3072);
    assert_int_equal(k->regs, 26);
    rf_kernel_destroy(k);
}

static void bad_usage(void **state)
{
    (void)state;
    char args[512];
    clirun_expect_bad("profile --kernel hotspot -o x.spec", "needs --ncu FILE.csv");
    clirun_expect_bad("profile --ncu " RAW " -o x.spec", "needs --kernel K");
    clirun_expect_bad("profile --ncu " RAW " --kernel hotspot", "needs -o FILE.spec");
    clirun_expect_bad("profile --ncu tests/fixtures/ncu/none.csv --kernel hotspot -o x.spec",
                      "tests/fixtures/ncu/none.csv: cannot open");
    clirun_expect_bad("profile --ncu " RAW " --kernel hotspot -o x.spec",
                      "no code for the spec: give --code FILE");
    clirun_expect_bad("profile --ncu " RAW " --kernel hotspot --code tests/fixtures/loops.ptx "
                      "-o x.spec", "no function 'hotspot' among its 12 entries");
    clirun_expect_bad("profile --ncu " SRC " --kernel hotspot -o x.spec",
                      "raw-page (ncu --csv --page raw) or details-page");
    clirun_expect_bad("profile --ncu " TWO " --ncu " SRC " --kernel hotspot -o x.spec",
                      "has 2 launches (IDs 1, 2)");
    clirun_expect_bad("profile --ncu " RAW " --ncu " TWO " --kernel hotspot -o x.spec",
                      "a second launch page export");
    /* A bad export leaves no file behind. */
    snprintf(args, sizeof args, "%s/bad.csv", tmpdir);
    FILE *fp = fopen(args, "w");
    assert_non_null(fp);
    fputs("\"Kernel Name\",\"hotspot(int)\"\n\"Address\",\"Source\",\"Instructions Executed\"\n"
          "\"0x10\",\"EXIT\",\"1\"\n\"0x10\",\"EXIT\",\"1\"\n", fp);
    fclose(fp);
    snprintf(args, sizeof args, "profile --ncu " RAW " --ncu %s/bad.csv --kernel hotspot "
             "-o %s/bad.spec", tmpdir, tmpdir);
    clirun_expect_bad(args, "bad.csv:4:1: Address: addresses must increase");
    assert_false(exists(tmpdir, "bad.spec"));
    assert_false(exists(tmpdir, "bad.sass"));
}

/* A source page that prints each launch's listing twice (Nsight Compute
 * 2025 with -k): launches A, A, B, B are two launches, A and B. */
static void repeated_listings(void **state)
{
    (void)state;
    static const char text[] =
        "\"Kernel Name\",\"k\",\n"
        "\"Address\",\"Source\",\"Instructions Executed\"\n"
        "\"0x100\",\"  EXIT\",\"8\"\n"
        "\"Kernel Name\",\"k\",\n"
        "\"Address\",\"Source\",\"Instructions Executed\"\n"
        "\"0x100\",\"  EXIT\",\"8\"\n"
        "\"Kernel Name\",\"k\",\n"
        "\"Address\",\"Source\",\"Instructions Executed\"\n"
        "\"0x100\",\"  EXIT\",\"16\"\n"
        "\"Kernel Name\",\"k\",\n"
        "\"Address\",\"Source\",\"Instructions Executed\"\n"
        "\"0x100\",\"  EXIT\",\"16\"\n";
    rf_ncu *n = NULL;
    rf_err err = {0};
    if (rf_ncu_parse("s.csv", text, strlen(text), &n, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(n->nsources, 4);
    const rf_ncu_source *src = NULL;
    assert_int_equal(rf_ncu_find_source(n, "k", -1, &src, &err), RF_EUSAGE);
    assert_non_null(strstr(err.msg, "kernel 'k' has 2 source listings"));
    assert_int_equal(rf_ncu_find_source(n, "k", 0, &src, &err), 0);
    assert_true(src->insts[0].executed == 8);
    assert_int_equal(rf_ncu_find_source(n, "k", 1, &src, &err), 0);
    assert_true(src->insts[0].executed == 16);
    assert_int_equal(rf_ncu_find_source(n, "k", 2, &src, &err), RF_ERANGE);
    rf_ncu_destroy(n);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(raw_page),
        cmocka_unit_test(details_page),
        cmocka_unit_test(names),
        cmocka_unit_test(source_page),
        cmocka_unit_test(errors),
        cmocka_unit_test(layout),
        cmocka_unit_test(profile_to_simulate),
        cmocka_unit_test(given_code),
        cmocka_unit_test(bad_usage),
        cmocka_unit_test(repeated_listings),
    };
    return cmocka_run_group_tests(tests, make_tmp, rm_tmp);
}

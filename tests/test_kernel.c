/* test_kernel.c - kernel specs, bare code files and launch overrides. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../analytic/dstcount.h"
#include "../analytic/kchar.h"
#include "../inputs/kernel.h"
#include "../sampler/sim.h"

static rf_kernel *load_ok(const char *path, const rf_kernel_opts *o)
{
    rf_kernel *k = NULL;
    rf_err err = {0};
    if (rf_kernel_load(path, o, &k, &err))
        fail_msg("%s", err.msg);
    return k;
}

static void test_spec(void **state)
{
    (void)state;
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    rf_kernel *k = load_ok("tests/fixtures/small.spec", &o);
    assert_string_equal(k->name, "small");
    assert_string_equal(k->spec_path, "tests/fixtures/small.spec");
    assert_int_equal(k->launch.grid[0], 8);
    assert_int_equal(k->launch.grid[1], 4);
    assert_int_equal(k->launch.grid[2], 1);
    assert_int_equal(k->launch.block[0], 128);
    assert_int_equal(rf_kernel_threads(k), 128);
    assert_int_equal(rf_kernel_ctas(k), 32);
    assert_int_equal(k->launch.smem, 256);
    assert_true(k->profile.trip == 10.0);
    assert_true(k->profile.taken == 0.25);
    assert_true(k->profile.l1_hit == 0.6);    /* default */
    assert_true(k->profile.l2_hit == 0.5);    /* default */
    assert_true(k->func->physical);
    assert_int_equal(k->smem_static, 0);
    assert_true(k->func_owned);
    assert_false(k->source->physical);
    assert_int_equal(k->regs_rfkit, 7);       /* see test_regalloc.c */
    assert_int_equal(k->regs_ptxas, -1);      /* no regs line, ptxas off */
    assert_int_equal(k->regs, 7);
    rf_kernel_destroy(k);
}

static void test_overrides_and_bare(void **state)
{
    (void)state;
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    rf_kernel *k = NULL;
    rf_err err = {0};
    /* A bare code file without a launch is refused with a clear message. */
    assert_int_equal(rf_kernel_load("tests/fixtures/small.ptx", &o, &k, &err),
                     RF_EUSAGE);
    assert_null(k);
    assert_non_null(strstr(err.msg, "--grid"));
    o.grid = "64";
    o.block = "16,16";
    o.regs = "40";
    o.entry = "small";
    k = load_ok("tests/fixtures/small.ptx", &o);
    assert_int_equal(rf_kernel_threads(k), 256);
    assert_int_equal(rf_kernel_ctas(k), 64);
    assert_int_equal(k->regs_ptxas, 40);
    assert_int_equal(k->regs, 40);
    assert_int_equal(k->spec_path[0], '\0');
    rf_kernel_destroy(k);
    o.block = "64,32";   /* 2048 threads */
    assert_int_equal(rf_kernel_load("tests/fixtures/small.ptx", &o, &k, &err),
                     RF_ERANGE);
    o.block = "32";
    o.entry = "nosuch";
    assert_int_equal(rf_kernel_load("tests/fixtures/small.ptx", &o, &k, &err),
                     RF_EUNKNOWN);
}

static void expect_spec_error(const char *body, int code, const char *msg)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/rfkit-spec-%ld.spec", (long)getpid());
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(body, fp);
    fclose(fp);
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    rf_kernel *k = NULL;
    rf_err err = {0};
    int rc = rf_kernel_load(path, &o, &k, &err);
    unlink(path);
    assert_int_equal(rc, code);
    assert_null(k);
    /* message is "PATH:LINE[:COL]: ..." (the column of the key, or of the
     * value when the value is wrong) */
    if (strncmp(err.msg, path, strlen(path)) != 0 ||
        !strstr(err.msg + strlen(path), msg))
        fail_msg("expected '%s' after the path in '%s'", msg, err.msg);
}

static void test_spec_errors(void **state)
{
    (void)state;
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    rf_kernel *k = NULL;
    rf_err err = {0};
    assert_int_equal(rf_kernel_load("tests/fixtures/badkey.spec", &o, &k, &err),
                     RF_EUNKNOWN);
    assert_string_equal(err.msg, "tests/fixtures/badkey.spec:6:1: colour: unknown "
                                 "key in [launch] (grid, block, smem, regs)");
    expect_spec_error("[kernel]\ncode = x.ptx\n[lunch]\n", RF_EUNKNOWN,
                      ":3:1: unknown section [lunch]");
    expect_spec_error("[kernel]\ncode = x.ptx\n[launch]\ngrid = 0\n",
                      RF_ERANGE, ":4:8: grid: 0 is outside [1,");
    expect_spec_error("[kernel]\ncode = x.ptx\n[launch]\ngrid = 1\nblock = 32\n"
                      "[profile]\ntaken = 1.5\n",
                      RF_ERANGE, ":7:9: taken: 1.5 is outside [0, 1]");
    expect_spec_error("[kernel]\ncode = x.ptx\n[launch]\ngrid = 1\nblock = a\n",
                      RF_ENUMBER, ":5:9: block: 'a' is not X[,Y[,Z]]");
    expect_spec_error("code = x.ptx\n", RF_EPARSE, ":1:1: code: key outside a section");
    expect_spec_error("[kernel]\ncode x.ptx\n", RF_EPARSE,
                      ":2:1: expected 'key = value'");
    expect_spec_error("[kernel]\ncode = x.ptx\n[launch]\ngrid = 1\n", RF_EPARSE,
                      "block: [launch] grid and block are required");
    expect_spec_error("[kernel]\nentry = k\n", RF_EPARSE,
                      "code: [kernel] code = FILE is required");
    expect_spec_error("[kernel]\ncode = /nonexistent/x.ptx\n[launch]\ngrid = 1\n"
                      "block = 1\n", RF_EIO, "cannot open");
    /* CUDA's grid limits: Y and Z at most 65535, so the CTA count of the
     * largest grid, (2^31 - 1) x 65535 x 65535 = 9.22e18, fits a long
     * (three times 2^31 - 1 overflowed it; LONG_MAX = 9223372036854775807). */
    expect_spec_error("[kernel]\ncode = x.ptx\n[launch]\ngrid = 2147483647,2147483647,1\n",
                      RF_ERANGE, ":4:8: grid: 2147483647 is outside [1, 65535]");
    expect_spec_error("[kernel]\ncode = x.ptx\n[launch]\ngrid = 1\nblock = 1,1,65\n",
                      RF_ERANGE, ":5:9: block: 65 is outside [1, 64]");
    expect_spec_error("[kernel]\ncode = x.ptx\n[launch]\ngrid = 1\nblock = 32,33\n",
                      RF_ERANGE, ":5:9: block: 1056 threads per block exceed 1024");
    /* Lines of any length: a 3000-character comment, then an error on line
     * 2 (the comment is skipped, not "line too long"). */
    {
        char body[3100];
        memset(body, '#', 3000);
        snprintf(body + 3000, sizeof body - 3000, "\nfoo = 1\n");
        expect_spec_error(body, RF_EPARSE, ":2:1: foo: key outside a section");
    }
    /* A key given twice is an error at the second, naming the first. */
    expect_spec_error("[kernel]\ncode = x.ptx\n[launch]\ngrid = 32\nblock = 256\n"
                      "grid = 64\n", RF_EPARSE, ":6:1: grid: set twice (first at line 4)");
    expect_spec_error("[kernel]\ncode = a.ptx\ncode = b.ptx\n", RF_EPARSE,
                      ":3:1: code: set twice (first at line 2)");
    expect_spec_error("[branches]\nL1 = 0.5\n[profile]\ntrip = 3\n[branches]\nL1 = 0.9\n",
                      RF_EPARSE, ":6:1: L1: set twice (first at line 2)");
    /* The same key in two sections is two keys (no error from the check). */
    expect_spec_error("[kernel]\ncode = x.ptx\n[launch]\ncode = y\n", RF_EUNKNOWN,
                      ":4:1: code: unknown key in [launch]");
    /* A directory is refused when opened, not at the first read. */
    expect_spec_error("[kernel]\ncode = /tmp\n[launch]\ngrid = 1\nblock = 1\n", RF_EIO,
                      ":2: code: /tmp: is a directory, not a file");
}

/* A spec saved by a Windows editor: UTF-8 byte-order mark and CRLF line
 * ends, its code file with a byte-order mark too.  It loads exactly like
 * small.spec (grid 8x4, block 128, smem 256, trip 10, taken 0.25, 6
 * registers). */
static void test_bom_and_crlf(void **state)
{
    (void)state;
    char dir[64], spec[96], ptx[96];
    snprintf(dir, sizeof dir, "/tmp/rfkit-bom-%ld", (long)getpid());
    snprintf(spec, sizeof spec, "%s/w.spec", dir);
    snprintf(ptx, sizeof ptx, "%s/small.ptx", dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    FILE *in = fopen("tests/fixtures/small.ptx", "rb"), *out = fopen(ptx, "wb");
    assert_non_null(in);
    assert_non_null(out);
    fputs("\xEF\xBB\xBF", out);
    int c;
    while ((c = fgetc(in)) != EOF)
        fputc(c, out);
    fclose(in);
    fclose(out);
    out = fopen(spec, "wb");
    assert_non_null(out);
    fputs("\xEF\xBB\xBF[kernel]\r\ncode = small.ptx\r\nentry = small\r\n[launch]\r\n"
          "grid = 8,4\r\nblock = 128\r\nsmem = 256\r\n[profile]\r\ntrip = 10\r\n"
          "taken = 0.25\r\n", out);
    fclose(out);
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    rf_kernel *k = NULL;
    rf_err err = {0};
    int rc = rf_kernel_load(spec, &o, &k, &err);
    unlink(spec);
    unlink(ptx);
    rmdir(dir);
    if (rc)
        fail_msg("%s", err.msg);
    assert_int_equal(rf_kernel_ctas(k), 32);
    assert_int_equal(rf_kernel_threads(k), 128);
    assert_int_equal(k->launch.smem, 256);
    assert_true(k->profile.trip == 10.0);
    assert_true(k->profile.taken == 0.25);
    assert_string_equal(k->source->name, "small");
    assert_int_equal(k->regs, 7);
    rf_kernel_destroy(k);
}

/* [branches] of a spec set the probability of the branches to a label.
 * small.ptx: block 0 ends in "@%p1 bra $L__BB0_4" (skip the loop), block 2
 * is the loop ending in "@%p2 bra $L__BB0_2".  With $L__BB0_4 = 0 and
 * $L__BB0_2 = 0.75 the expected block frequencies are
 *   f0 = 1, f1 = 1 (never skipped), f2 = f1 / (1 - 0.75) = 4, f3 = 1, f4 = 1;
 * the profile alone (trip 10, taken 0.25) would give f1 = 0.75, f2 = 8.25. */
static void test_branch_probabilities(void **state)
{
    (void)state;
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    rf_kernel *k = NULL;
    rf_err err = {0};
    assert_int_equal(rf_kernel_load("tests/fixtures/branches.spec", &o, &k, &err), 0);
    const rf_func *f = k->func;
    assert_int_equal(f->nblocks, 5);
    assert_true(f->blocks[0].has_taken);
    assert_true(f->blocks[0].taken_p == 0.0);
    assert_true(f->blocks[2].has_taken);
    assert_true(f->blocks[2].taken_p == 0.75);
    assert_false(f->blocks[1].has_taken);
    double fq[5], fk[5];
    assert_int_equal(rf_dst_block_freq(f, k->profile.trip, k->profile.taken, NULL, fq, NULL, &err), 0);
    assert_int_equal(rf_kchar_block_freq(f, &k->profile, fk, &err), 0);
    const double want[5] = {1, 1, 4, 1, 1};
    for (int b = 0; b < 5; b++) {
        assert_true(fabs(fq[b] - want[b]) < 1e-9);
        assert_true(fabs(fk[b] - want[b]) < 1e-9);
    }
    rf_kernel_destroy(k);

    /* Every warp skips the loop: each runs blocks 0 and 4 only, so the
     * sampler retires (ninsts(0) + ninsts(4)) x 32 CTAs x 4 warps. */
    assert_int_equal(rf_kernel_load("tests/fixtures/skip.spec", &o, &k, &err), 0);
    rf_gpu gpu;
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &gpu, &err), 0);
    rf_design d;
    rf_design_init(&d);
    rf_sim_opts so;
    rf_sim_opts_init(&so);
    rf_sim_stats st;
    assert_int_equal(rf_sim_run(&gpu, &d, k, &so, &st, &err), 0);
    long per_warp = k->func->blocks[0].ninsts + k->func->blocks[4].ninsts;
    assert_int_equal(st.warp_insts, (uint64_t)(per_warp * 32 * 4));
    rf_kernel_destroy(k);

    char cwd[512], body[1024];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(body, sizeof body, "[kernel]\ncode = %s/tests/fixtures/small.ptx\n[launch]\n"
             "grid = 1\nblock = 32\n[branches]\n$L__BB0_9 = 0.5\n", cwd);
    expect_spec_error(body, RF_EUNKNOWN, ":7: $L__BB0_9: no block of small has this label");
    expect_spec_error("[kernel]\ncode = x.ptx\n[launch]\ngrid = 1\nblock = 32\n"
                      "[branches]\n$L__BB0_2 = 1.5\n",
                      RF_ERANGE, ":7:13: $L__BB0_2: 1.5 is outside [0, 1]");
}

/* With ptxas on PATH the count comes from ptxas -v; without it, rfkit's. */
static void test_ptxas(void **state)
{
    (void)state;
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.grid = "1";
    o.block = "64";
    rf_kernel *k = load_ok("inputs/kernels/bfs.ptx", &o);
    if (k->regs_ptxas > 0) {
        assert_int_equal(k->regs, k->regs_ptxas);
        assert_in_range(k->regs_ptxas, 8, 64);
    } else {
        assert_int_equal(k->regs_ptxas, -1);
        assert_int_equal(k->regs, k->regs_rfkit);
    }
    rf_kernel_destroy(k);
}

/* tests/fixtures/calls.ptx.  Every value read within 8 instructions of a
 * definition interferes with it (the allocator's issue-slot stretch).
 * f alone: %r1 lives over the whole body and each of %r2..%r5 is defined
 * within 8 instructions of the reads of all the others: a 5-clique ->
 * R0, R2..R5 (R1 is the stack pointer) = 6.
 * k alone: %rd1 is a folded parameter, %rd2 (store address) R2:R3, %r1 R0,
 * %r2 R4; %r3 (read at 7) falls in the windows of %r1's and %r2's
 * definitions -> R5, %r4 (read at 8) in those of %r1, %r2, %r3 -> R6: 7.
 * Across the call %rd2 and %r2 stay live (3 words), so k needs
 * max(7, 3 + 6) = 9.  The kernel's code walks f where it is called
 * (inline.h): k's block up to the call (6 instructions: ld.param, cvta,
 * 2 mov, st.param, call), f's 7 with R0..R5 moved above k's 7 registers
 * (13 in all) and its ret a branch back, then the rest of k (ld.param,
 * add, st.global, ret: 4). */
static void test_call_registers(void **state)
{
    (void)state;
    rf_module *m;
    rf_err err = {0};
    if (rf_module_load("tests/fixtures/calls.ptx", &m, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(m->ncalls, 1);
    assert_int_equal(m->calls[0].caller, 1);
    assert_int_equal(m->calls[0].callee, 0);
    assert_int_equal(m->funcs[1].insts[m->calls[0].inst].cls, RF_OC_CALL);
    rf_func *pf, *pk;
    if (rf_regalloc(&m->funcs[0], &pf, &err) || rf_regalloc(&m->funcs[1], &pk, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(pf->nregs, 6);
    assert_int_equal(pk->nregs, 7);
    rf_func_destroy(pf);
    rf_func_destroy(pk);
    rf_module_destroy(m);
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    o.grid = "1";
    o.block = "32";
    rf_kernel *k = load_ok("tests/fixtures/calls.ptx", &o);
    assert_string_equal(k->source->name, "k");
    assert_int_equal(k->func->nregs, 13);
    assert_int_equal(k->func->nblocks, 3);
    assert_int_equal(k->func->blocks[0].ninsts, 6);
    assert_int_equal(k->func->blocks[1].ninsts, 7);
    assert_int_equal(k->func->blocks[2].ninsts, 4);
    assert_string_equal(k->func->blocks[1].label, "BB0.c1");    /* f's block */
    const rf_inst *back = &k->func->insts[k->func->blocks[1].first + 6];
    assert_int_equal(back->cls, RF_OC_BRANCH);
    assert_int_equal(back->target, 2);
    assert_int_equal(k->regs_rfkit, 9);
    assert_int_equal(k->regs, 9);
    rf_kernel_destroy(k);
}

/* SASS carries physical registers: rfkit counts the highest used + 1 and
 * the 2 ptxas reserves from sm_70 on (ampere.sass, sm_86: R5, 5 + 1 + 2 =
 * 8; turing.sass, sm_75: DADD writes the pair R12:R13, 13 + 1 + 2 = 16);
 * the listing's SHI_REGISTERS is ptxas's own count and wins. */
static void test_sass_kernel(void **state)
{
    (void)state;
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.grid = "2";
    o.block = "128";
    rf_kernel *k = load_ok("tests/fixtures/ampere.sass", &o);
    assert_false(k->func_owned);
    assert_ptr_equal(k->func, k->source);
    assert_int_equal(k->regs_rfkit, 8);
    assert_int_equal(k->regs_ptxas, 12);
    assert_int_equal(k->regs, 12);
    rf_kernel_destroy(k);
    k = load_ok("tests/fixtures/turing.sass", &o);
    assert_int_equal(k->regs_rfkit, 16);
    assert_int_equal(k->regs_ptxas, -1);
    assert_int_equal(k->regs, 16);
    rf_kernel_destroy(k);
}

/* The launch parser on its own: limits per dimension, position in the
 * message, and the largest grid's CTA count as a long. */
static void test_parse_dim3(void **state)
{
    (void)state;
    int d[3];
    rf_err err = {0};
    assert_int_equal(rf_launch_parse_dim3("2147483647,65535,65535", true, d, "f", 3, 7, "grid",
                                          &err), RF_OK);
    assert_true((long)d[0] * d[1] * d[2] == 9223090559730712575L);
    assert_int_equal(rf_launch_parse_dim3("16,16", false, d, "f", 3, 7, "block", &err), RF_OK);
    assert_int_equal(d[0] * d[1] * d[2], 256);
    assert_int_equal(rf_launch_parse_dim3("8x8", true, d, "f", 3, 7, "grid", &err), RF_ENUMBER);
    assert_string_equal(err.msg, "f:3:7: grid: '8x8' is not X[,Y[,Z]] of whole numbers");
    assert_int_equal(rf_launch_parse_dim3("1,2,3,4", true, d, "f", 3, 7, "grid", &err),
                     RF_ENUMBER);
    assert_int_equal(rf_launch_parse_dim3("1,,3", true, d, "f", 3, 7, "grid", &err), RF_ENUMBER);
    assert_int_equal(rf_launch_parse_dim3("4,65536", true, d, "f", 3, 7, "grid", &err), RF_ERANGE);
    assert_string_equal(err.msg, "f:3:7: grid: 65536 is outside [1, 65535]");
}

/* The busiest SM's share of a grid dealt round-robin (rf_kernel_spread):
 * grid 100 over 15 SMs gives SM 0 CTAs 0, 15, 30, 45, 60, 75, 90, i.e.
 * ceil(100 / 15) = 7 (SMs 10..14 get 6); 8 x 16 = 128 CTAs over 15 SMs,
 * ceil(128 / 15) = 9, the last 8 x 15 = 120; a grid smaller than the SMs,
 * one CTA; 1 SM (or 0), the whole grid in order. */
static void test_spread(void **state)
{
    (void)state;
    rf_kernel k;
    memset(&k, 0, sizeof k);
    k.launch.grid[0] = 100;
    k.launch.grid[1] = k.launch.grid[2] = 1;
    assert_int_equal(rf_kernel_ctas(&k), 100);   /* sms 0 reads as 1 */
    assert_int_equal(rf_kernel_sms(&k), 1);
    rf_kernel_spread(&k, 15);
    assert_int_equal(rf_kernel_sms(&k), 15);
    assert_int_equal(rf_kernel_ctas(&k), 7);
    assert_int_equal(rf_kernel_grid_ctas(&k), 100);
    static const long want[7] = {0, 15, 30, 45, 60, 75, 90};
    for (int j = 0; j < 7; j++)
        assert_int_equal(rf_kernel_cta_index(&k, j), want[j]);
    k.launch.grid[0] = 8;
    k.launch.grid[1] = 16;
    assert_int_equal(rf_kernel_ctas(&k), 9);
    assert_int_equal(rf_kernel_cta_index(&k, 8), 120);
    k.launch.grid[0] = 4;
    k.launch.grid[1] = 1;
    assert_int_equal(rf_kernel_ctas(&k), 1);
    rf_kernel_spread(&k, 0);
    assert_int_equal(rf_kernel_sms(&k), 1);
    assert_int_equal(rf_kernel_ctas(&k), 4);
    assert_int_equal(rf_kernel_cta_index(&k, 3), 3);
}

static void test_tables(void **state)
{
    (void)state;
    rf_launch l;
    rf_profile p;
    rf_param_defaults(rf_launch_params, rf_launch_nparams, &l);
    rf_param_defaults(rf_profile_params, rf_profile_nparams, &p);
    assert_int_equal(l.smem, 0);
    assert_int_equal(l.regs, 0);
    assert_true(p.trip == 16.0 && p.taken == 0.5 && p.l1_hit == 0.6 &&
                p.l2_hit == 0.5 && p.dram_share == 0.0);
    assert_non_null(rf_param_find(rf_profile_params, rf_profile_nparams,
                                  "dram_share"));
}

/* More [branches] than the 64 a spec once held (libor's SASS has 115
 * conditional branches; rfkit profile wrote 64 and left the rest on
 * defaults).  A listing of 100 forward branches, branch i at 0x20 i + 0x10
 * to .L_i at 0x20 i + 0x30, skipping one instruction; key .L_i gives it
 * i / 100.  A warp runs 1 + 100 x 2 (each branch and the instruction it
 * may skip) + 1 (EXIT) less the skipped ones: 202 - sum i / 100 = 202 -
 * 49.5 = 152.5 instructions. */
static void test_many_branches(void **state)
{
    (void)state;
    enum { N = 100 };
    char sass[96], spec[96];
    snprintf(sass, sizeof sass, "/tmp/rfkit-many-%ld.sass", (long)getpid());
    snprintf(spec, sizeof spec, "/tmp/rfkit-many-%ld.spec", (long)getpid());
    FILE *fp = fopen(sass, "w");
    assert_non_null(fp);
    fprintf(fp, "\tcode for sm_75\n\t\tFunction : k\n/*0000*/ ISETP.GE.AND P0, PT, R0, R1, PT ;\n");
    for (int i = 0; i < N; i++)
        fprintf(fp, "/*%04x*/ @P0 BRA `(.L_%d) ;\n/*%04x*/ IADD3 R2, R2, 0x1, RZ ;\n.L_%d:\n",
                0x20 * i + 0x10, i, 0x20 * i + 0x20, i);
    fprintf(fp, "/*%04x*/ EXIT ;\n", 0x20 * N + 0x10);
    fclose(fp);
    fp = fopen(spec, "w");
    assert_non_null(fp);
    fprintf(fp, "[kernel]\ncode = %s\n[launch]\ngrid = 1\nblock = 32\n[branches]\n", sass);
    for (int i = 0; i < N; i++)
        fprintf(fp, ".L_%d = %g\n", i, i / 100.0);
    fclose(fp);
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    rf_kernel *k = load_ok(spec, &o);
    unlink(sass);
    unlink(spec);
    assert_int_equal(k->psrc.branches, N);
    assert_int_equal(k->psrc.from_spec, N);
    double *freq = malloc((size_t)k->func->nblocks * sizeof *freq), n = 0;
    rf_err err = {0};
    assert_non_null(freq);
    if (rf_kchar_block_freq(k->func, &k->profile, freq, &err))
        fail_msg("%s", err.msg);
    for (int b = 0; b < k->func->nblocks; b++)
        n += freq[b] * k->func->blocks[b].ninsts;
    assert_true(fabs(n - 152.5) < 1e-9);
    free(freq);
    rf_kernel_destroy(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec),
        cmocka_unit_test(test_overrides_and_bare),
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_bom_and_crlf),
        cmocka_unit_test(test_branch_probabilities),
        cmocka_unit_test(test_ptxas),
        cmocka_unit_test(test_call_registers),
        cmocka_unit_test(test_sass_kernel),
        cmocka_unit_test(test_many_branches),
        cmocka_unit_test(test_parse_dim3),
        cmocka_unit_test(test_spread),
        cmocka_unit_test(test_tables),
    };
    return cmocka_run_group_tests_name("kernel", tests, NULL, NULL);
}

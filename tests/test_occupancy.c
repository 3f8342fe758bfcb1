/* test_occupancy.c - occupancy of every design and the storage overheads.
 * Golden values are computed by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../analytic/design.h"
#include "../analytic/occupancy.h"
#include "../analytic/overhead.h"
#include "../inputs/gpu.h"

static rf_gpu preset(const char *name)
{
    rf_gpu g;
    rf_err err;
    assert_int_equal(rf_gpu_preset(name, &g, &err), RF_OK);
    return g;
}

static rf_occ occ(const char *gpu, const rf_design *d, int regs, int threads, int smem)
{
    rf_gpu g = preset(gpu);
    rf_occ_input in = {regs, threads, smem};
    rf_occ o;
    rf_err err;
    rf_err_clear(&err);
    int rc = rf_occ_compute(&g, d, &in, &o, &err);
    if (rc)
        fail_msg("%s regs %d threads %d smem %d: %s", gpu, regs, threads, smem, err.msg);
    return o;
}

static rf_design design(int kind)
{
    rf_design d;
    rf_design_init(&d);
    d.kind = kind;
    return d;
}

/* Seed 003 Table 5: resident CTAs per SM on its Table 1 GPU (32768 registers,
 * 1536 threads, 8 CTAs) for the Table 2 kernels at 0..90% sharing.
 * Example, hotspot (36 regs x 256 threads = 9216 registers, g = 3):
 *   F = 0.5: M = (32768 - 3*9216*0.5) / (0.5*9216) = 18944/4608 = 4.1 -> 4
 *   F = 0.9: M = (32768 - 3*9216*0.9) / (0.1*9216) = 7884.8/921.6 = 8.6,
 *            kept <= 2g = 6, and 1536/256 = 6 threads allow 6.
 * b+tree (508 threads) is padded to 16 warps: 24 x 512 = 12288 registers. */
static void test_table5(void **state)
{
    (void)state;
    static const struct {
        const char *kernel;
        int threads, regs, ctas[6];
    } t5[] = {
        {"backprop", 256, 24, {5, 5, 5, 5, 6, 6}}, {"b+tree", 508, 24, {2, 2, 2, 3, 3, 3}},
        {"hotspot", 256, 36, {3, 3, 3, 4, 4, 6}},  {"LIB", 192, 36, {4, 4, 5, 5, 6, 8}},
        {"MUM", 256, 28, {4, 4, 4, 5, 5, 6}},      {"mri-q", 256, 24, {5, 5, 5, 5, 6, 6}},
        {"sgemm", 128, 48, {5, 5, 5, 5, 6, 8}},    {"stencil", 512, 28, {2, 2, 2, 2, 2, 3}},
    };
    static const double F[6] = {0, 0.1, 0.3, 0.5, 0.7, 0.9};
    for (size_t k = 0; k < sizeof t5 / sizeof t5[0]; k++) {
        for (int j = 0; j < 6; j++) {
            rf_design d = design(RF_DESIGN_SHARING);
            d.sharing = F[j];
            rf_occ o = occ("fermi-c2050", &d, t5[k].regs, t5[k].threads, 0);
            if (o.ctas_per_sm != t5[k].ctas[j])
                fail_msg("%s at %g%% sharing: %d CTAs, Table 5 says %d", t5[k].kernel,
                         100 * F[j], o.ctas_per_sm, t5[k].ctas[j]);
            /* Eq. 1 and 3: S + U = g, U + 2S = CTAs. */
            rf_occ b = occ("fermi-c2050", &(rf_design){.kind = RF_DESIGN_BASELINE},
                           t5[k].regs, t5[k].threads, 0);
            assert_int_equal(o.shared_pairs + o.unshared, b.ctas_per_sm);
            assert_int_equal(o.unshared + 2 * o.shared_pairs, o.ctas_per_sm);
            if (j == 0)
                assert_int_equal(o.ctas_per_sm, b.ctas_per_sm);
        }
    }
}

/* hotspot at 50% sharing: g = 3, M = 4, S = 1, U = 2; at 90%: M = 6 (2g),
 * S = 3, U = 0, and threads bind as well (1536/256 = 6). */
static void test_sharing_details(void **state)
{
    (void)state;
    rf_design d = design(RF_DESIGN_SHARING);
    d.sharing = 0.5;
    rf_occ o = occ("fermi-c2050", &d, 36, 256, 0);
    assert_int_equal(o.sharing_m, 4);
    assert_int_equal(o.shared_pairs, 1);
    assert_int_equal(o.unshared, 2);
    assert_int_equal(o.lim_regs, 3);
    assert_int_equal(o.limiter, RF_LIMIT_REGS);
    assert_int_equal(o.warps_per_sm, 32);
    d.sharing = 0.9;
    o = occ("fermi-c2050", &d, 36, 256, 0);
    assert_int_equal(o.sharing_m, 6);
    assert_int_equal(o.shared_pairs, 3);
    assert_int_equal(o.unshared, 0);
    /* LIB (36 x 192 = 6912, g = 4) at 90%: Eq. 4 gives 4 + 5120/691.2 = 11.4,
     * kept at 2g = 8, which the 8 CTA slots also allow. */
    o = occ("fermi-c2050", &d, 36, 192, 0);
    assert_int_equal(o.sharing_m, 8);
    assert_int_equal(o.ctas_per_sm, 8);
    /* Shared memory binding below g: 20 KB per CTA allows 2 < g = 3. */
    o = occ("fermi-c2050", &d, 36, 256, 20480);
    assert_int_equal(o.ctas_per_sm, 2);
    assert_int_equal(o.limiter, RF_LIMIT_SMEM);
    assert_int_equal(o.shared_pairs, 0);
    assert_int_equal(o.unshared, 2);
}

/* GPGPU-Sim rounds registers per thread to a multiple of 4:
 * 21 -> 24 regs, 24 x 256 = 6144 -> floor(32768/6144) = 5 CTAs
 * (21 x 256 = 5376 would allow 6). */
static void test_sim_granularity(void **state)
{
    (void)state;
    rf_design d = design(RF_DESIGN_BASELINE);
    rf_occ o = occ("fermi-c2050", &d, 21, 256, 0);
    assert_int_equal(o.regs_per_cta, 6144);
    assert_int_equal(o.ctas_per_sm, 5);
    assert_int_equal(o.limiter, RF_LIMIT_REGS);
    assert_int_equal(o.lim_threads, 6);
    /* Shared memory is not rounded in the simulator: 49152/10000 = 4. */
    o = occ("fermi-c2050", &d, 8, 64, 10000);
    assert_int_equal(o.ctas_per_sm, 4);
    assert_int_equal(o.limiter, RF_LIMIT_SMEM);
    /* 8 regs x 64 threads: 32768/256 = 128 warps -> 64 CTAs by registers,
     * 1536/64 = 24 by threads; the 8 CTA slots bind. */
    o = occ("fermi-c2050", &d, 8, 64, 0);
    assert_int_equal(o.ctas_per_sm, 8);
    assert_int_equal(o.limiter, RF_LIMIT_CTAS);
    assert_int_equal(o.warps_per_sm, 16);
}

/* CUDA rules where granularity changes the answer. */
static void test_cuda_granularity(void **state)
{
    (void)state;
    rf_design d = design(RF_DESIGN_BASELINE);
    /* V100, 33 regs, 256 threads: ceil(33*32, 256) = 1280 per warp; 16384
     * per sub-partition / 1280 = 12 warps, x4 = 48 warps -> 48/8 = 6 CTAs
     * (65536 / (33*256) = 7.75 would say 7). */
    rf_occ o = occ("v100", &d, 33, 256, 0);
    assert_int_equal(o.ctas_per_sm, 6);
    assert_int_equal(o.warps_per_sm, 48);
    assert_int_equal(o.limiter, RF_LIMIT_REGS);
    assert_int_equal(o.regs_per_cta, 8 * 1280);
    /* A100, 40 regs, 96 threads: 1280 per warp, 12 warps per partition = 48
     * warps, 3 per CTA -> 16 CTAs (65536/1280 = 51 warps would give 17). */
    o = occ("a100", &d, 40, 96, 0);
    assert_int_equal(o.ctas_per_sm, 16);
    assert_int_equal(o.lim_threads, 21);
    /* V100 shared memory in 256-byte units: 3100 B -> 3328 B, 98304/3328 =
     * 29 CTAs (98304/3100 = 31).  16 regs x 32 threads: registers allow 128. */
    o = occ("v100", &d, 16, 32, 3100);
    assert_int_equal(o.ctas_per_sm, 29);
    assert_int_equal(o.limiter, RF_LIMIT_SMEM);
    /* A100 reserves 1 KB per CTA: 32768 + 1024 = 33792 B, 167936/33792 = 4
     * (5 without the reservation). */
    o = occ("a100", &d, 32, 128, 32768);
    assert_int_equal(o.ctas_per_sm, 4);
    assert_int_equal(o.limiter, RF_LIMIT_SMEM);
    /* H100: 46080 + 1024 = 47104 B, 233472/47104 = 4 (5 without). */
    o = occ("h100", &d, 32, 128, 46080);
    assert_int_equal(o.ctas_per_sm, 4);
    /* Even without shared memory an A100 CTA holds 1 KB: 164 CTAs by smem,
     * so the 32 CTA slots bind (32 regs x 32 threads). */
    o = occ("a100", &d, 32, 32, 0);
    assert_int_equal(o.lim_smem, 164);
    assert_int_equal(o.ctas_per_sm, 32);
    assert_int_equal(o.limiter, RF_LIMIT_CTAS);
    assert_true(o.occupancy == 0.5);
    /* Largest CTA at 64 regs: 1024 threads x 64 = 65536 registers, 1 CTA. */
    o = occ("v100", &d, 64, 1024, 0);
    assert_int_equal(o.ctas_per_sm, 1);
    assert_int_equal(o.warps_per_sm, 32);
}

static void expect_error(const char *gpu, const rf_design *d, int regs, int threads, int smem,
                         int code, const char *field)
{
    rf_gpu g = preset(gpu);
    rf_occ_input in = {regs, threads, smem};
    rf_occ o;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_occ_compute(&g, d, &in, &o, &err), code);
    assert_int_equal(err.code, code);
    if (strncmp(err.msg, field, strlen(field)) != 0)
        fail_msg("message '%s' does not name %s", err.msg, field);
}

static void test_input_errors(void **state)
{
    (void)state;
    rf_design d = design(RF_DESIGN_BASELINE);
    expect_error("fermi-c2050", &d, 64, 256, 0, RF_ELIMIT, "regs");   /* > 63 */
    expect_error("fermi-c2050", &d, 0, 256, 0, RF_ERANGE, "regs");
    expect_error("v100", &d, 32, 2048, 0, RF_ELIMIT, "threads");      /* > 1024 */
    expect_error("v100", &d, 32, 0, 0, RF_ERANGE, "threads");
    expect_error("v100", &d, 32, 256, 98305, RF_ELIMIT, "smem");      /* > 96 KB */
    expect_error("v100", &d, 32, 256, -1, RF_ERANGE, "smem");
    expect_error("fermi-c2050", &d, 32, 256, 49153, RF_ELIMIT, "smem");
    /* 255 regs x 1024 threads: 8192 x 32 warps = 262144 > 65536 per CTA. */
    expect_error("v100", &d, 255, 1024, 0, RF_ELIMIT, "regs");
    /* fermi: 63 regs -> 64 x 1024 threads = 65536 > 32768. */
    expect_error("fermi-c2050", &d, 63, 1024, 0, RF_ELIMIT, "regs");
    rf_design l = design(RF_DESIGN_LTRF);
    l.rf_config = 9;
    expect_error("maxwell-ltrf", &l, 32, 256, 0, RF_ERANGE, "rf_config");
    rf_design f = design(RF_DESIGN_FINEREG);
    f.pcrf_kb = 256;
    expect_error("maxwell-gtx980", &f, 32, 256, 0, RF_ERANGE, "acrf_kb");
    f.pcrf_kb = 0;
    f.acrf_kb = 4;     /* 1024 registers: a 8-warp CTA at 32 regs needs 8192 */
    expect_error("maxwell-gtx980", &f, 32, 256, 0, RF_ELIMIT, "acrf_kb");
}

/* FineReg on maxwell-gtx980 (256 KB RF): ACRF = PCRF = 128 KB.
 * 32 regs x 256 threads: ACRF 32768 regs / 1024 per warp = 32 warps = 4
 * active CTAs.  PCRF 131072/128 = 1024 entries; live ceil(0.553*32) = 18 per
 * warp, 144 per CTA -> 7 pending (1008 entries).  Resident 11. */
static void test_finereg(void **state)
{
    (void)state;
    rf_design d = design(RF_DESIGN_FINEREG);
    rf_occ o = occ("maxwell-gtx980", &d, 32, 256, 0);
    assert_int_equal(o.active_ctas, 4);
    assert_int_equal(o.pcrf_entries, 1024);
    assert_int_equal(o.pcrf_entries_per_cta, 144);
    assert_int_equal(o.pending_ctas, 7);
    assert_int_equal(o.ctas_per_sm, 11);
    assert_int_equal(o.warps_per_sm, 88);
    assert_int_equal(o.active_warps, 32);
    assert_int_equal(o.limiter, RF_LIMIT_REGS);
    assert_true(o.occupancy > 1.37 && o.occupancy < 1.38); /* 88/64 */
    /* Type-S shape, 16 regs x 128 threads: ACRF 32768/512 = 64 warps = 16
     * CTAs, threads 2048/128 = 16 -> 16 active; ceil(0.553*16) = 9 x 4 warps
     * = 36 entries per CTA -> 28 pending; 44 resident. */
    o = occ("maxwell-gtx980", &d, 16, 128, 0);
    assert_int_equal(o.active_ctas, 16);
    assert_int_equal(o.pending_ctas, 28);
    /* With 8 KB shared memory each: 96/8 = 12 CTAs in all; pending CTAs keep
     * their shared memory, so none can be added. */
    o = occ("maxwell-gtx980", &d, 16, 128, 8192);
    assert_int_equal(o.active_ctas, 12);
    assert_int_equal(o.pending_ctas, 0);
    assert_int_equal(o.limiter, RF_LIMIT_SMEM);
    /* No live registers: the 128-CTA tracking limit.  16 regs x 32 threads:
     * 32 active (CTA slots), 96 pending. */
    d.live_frac = 0;
    o = occ("maxwell-gtx980", &d, 16, 32, 0);
    assert_int_equal(o.active_ctas, 32);
    assert_int_equal(o.pending_ctas, 96);
    assert_int_equal(o.limiter, RF_LIMIT_CTAS);
    /* ... and the 512-warp limit: 8 regs x 256 threads, 8 active (threads),
     * 512/8 - 8 = 56 pending. */
    o = occ("maxwell-gtx980", &d, 8, 256, 0);
    assert_int_equal(o.active_ctas, 8);
    assert_int_equal(o.pending_ctas, 56);
    assert_int_equal(o.warps_per_sm, 512);
    assert_int_equal(o.limiter, RF_LIMIT_THREADS);
    /* Explicit sizes: PCRF 64 KB = 512 entries at L = 0.5: 16 x 8 = 128 per
     * CTA for 32 regs x 256 threads -> 4 pending; ACRF 192 KB -> 6 active. */
    d.live_frac = 0.5;
    d.pcrf_kb = 64;
    o = occ("maxwell-gtx980", &d, 32, 256, 0);
    assert_int_equal(o.active_ctas, 6);
    assert_int_equal(o.pending_ctas, 4);
}

/* Virtual Thread, Reg+DRAM and VT+RegMutex on maxwell-gtx980. */
static void test_vt_family(void **state)
{
    (void)state;
    /* VT, 16 regs x 128 threads: 65536/512 = 128 warps = 32 CTAs fill the RF;
     * 16 may issue (2048 threads / 128). */
    rf_design d = design(RF_DESIGN_VT);
    rf_occ o = occ("maxwell-gtx980", &d, 16, 128, 0);
    assert_int_equal(o.ctas_per_sm, 32);
    assert_int_equal(o.active_ctas, 16);
    assert_int_equal(o.pending_ctas, 16);
    assert_int_equal(o.limiter, RF_LIMIT_REGS);
    /* Shared memory fills first: 96 KB / 4 KB = 24. */
    o = occ("maxwell-gtx980", &d, 16, 128, 4096);
    assert_int_equal(o.ctas_per_sm, 24);
    assert_int_equal(o.limiter, RF_LIMIT_SMEM);
    /* Reg+DRAM: by default as many again in DRAM (64), or N given. */
    d.kind = RF_DESIGN_REGDRAM;
    o = occ("maxwell-gtx980", &d, 16, 128, 0);
    assert_int_equal(o.ctas_per_sm, 64);
    assert_int_equal(o.pending_ctas, 48);
    d.dram_ctas = 5;
    o = occ("maxwell-gtx980", &d, 16, 128, 0);
    assert_int_equal(o.ctas_per_sm, 37);
    /* RegMutex, 32 regs x 256 threads, B = 0.5: base 16 regs -> 512 per warp;
     * pool = 8 warps x 16 x 32 = 4096; (65536 - 4096)/512 = 120 warps = 15
     * CTAs, 8 may issue (2048/256). */
    d.kind = RF_DESIGN_REGMUTEX;
    o = occ("maxwell-gtx980", &d, 32, 256, 0);
    assert_int_equal(o.brs_regs, 16);
    assert_int_equal(o.srp_regs, 4096);
    assert_int_equal(o.ctas_per_sm, 15);
    assert_int_equal(o.active_ctas, 8);
    assert_int_equal(o.pending_ctas, 7);
    /* B = 1: no pool, the VT count 65536/8192 = 8. */
    d.brs_frac = 1;
    o = occ("maxwell-gtx980", &d, 32, 256, 0);
    assert_int_equal(o.srp_regs, 0);
    assert_int_equal(o.ctas_per_sm, 8);
}

/* LTRF and ideal on maxwell-ltrf, 64 regs x 256 threads: baseline 65536 /
 * (8 x 2048) = 4 CTAs.  Configuration #6 has 8x capacity, 524288 registers
 * = 32 CTAs by registers, so the 8 CTAs of 2048 threads bind; of their 64
 * warps the active pool holds maxwell-ltrf's 8 (seed 004 Table 3), or 8
 * per scheduler x 4 = 32 with rfkit's preferred pool (active_warps -1). */
static void test_ltrf(void **state)
{
    (void)state;
    rf_design d = design(RF_DESIGN_BASELINE);
    rf_occ o = occ("maxwell-ltrf", &d, 64, 256, 0);
    assert_int_equal(o.ctas_per_sm, 4);
    d.kind = RF_DESIGN_LTRF;
    o = occ("maxwell-ltrf", &d, 64, 256, 0);
    assert_int_equal(o.rf_regs, 524288);
    assert_int_equal(o.lim_regs, 32);
    assert_int_equal(o.ctas_per_sm, 8);
    assert_int_equal(o.limiter, RF_LIMIT_THREADS);
    assert_int_equal(o.active_warps, 8);
    d.active_warps = RF_POOL_PREFERRED;
    o = occ("maxwell-ltrf", &d, 64, 256, 0);
    assert_int_equal(o.active_warps, 32);
    d.active_warps = 0;
    assert_true(o.rf_capacity_x == 8 && o.rf_latency_x == 5.3);
    assert_true(o.rf_area_x == 8 && o.rf_power_x == 1.05);
    d.rf_config = 7; /* DWM: 0.25x area, 0.65x power, 6.3x latency */
    o = occ("maxwell-ltrf", &d, 64, 256, 0);
    assert_true(o.rf_area_x == 0.25 && o.rf_power_x == 0.65 && o.rf_latency_x == 6.3);
    d.rf_config = 1; /* the baseline technology: baseline occupancy */
    o = occ("maxwell-ltrf", &d, 64, 256, 0);
    assert_int_equal(o.ctas_per_sm, 4);
    d.kind = RF_DESIGN_IDEAL;
    o = occ("maxwell-ltrf", &d, 64, 256, 0);
    assert_int_equal(o.ctas_per_sm, 8);
    assert_int_equal(o.active_warps, 64);
    assert_true(o.rf_capacity_x == 8 && o.rf_latency_x == 1);
    /* Bank stealing and HI-RF keep the baseline count. */
    for (int k = RF_DESIGN_STEALING; k <= RF_DESIGN_HIRF; k++) {
        d = design(k);
        o = occ("maxwell-ltrf", &d, 64, 256, 0);
        assert_int_equal(o.ctas_per_sm, 4);
    }
    /* RFC sits on the same main file as LTRF (seed 004 Figure 9): 8x on
     * configuration #6, all warps active; latency_x overrides the latency. */
    d = design(RF_DESIGN_RFC);
    o = occ("maxwell-ltrf", &d, 64, 256, 0);
    assert_int_equal(o.ctas_per_sm, 8);
    assert_int_equal(o.active_warps, 64);
    d.latency_x = 2.5;
    o = occ("maxwell-ltrf", &d, 64, 256, 0);
    assert_true(o.rf_latency_x == 2.5);
}

static double part(const rf_overhead *ov, const char *name)
{
    for (int i = 0; i < ov->nparts; i++)
        if (strcmp(ov->part[i].name, name) == 0)
            return ov->part[i].bits;
    fail_msg("no overhead part '%s'", name);
    return -1;
}

static void test_overheads(void **state)
{
    (void)state;
    rf_overhead ov;
    rf_gpu g = preset("fermi-c2050");
    rf_design d = design(RF_DESIGN_SHARING);
    /* Seed 003 Section 6, T = 8, W = 48:
     * 1 + 8 ceil(log2 9) + 2*48 + 24 ceil(log2 48) = 1 + 32 + 96 + 144 = 273. */
    rf_overhead_compute(&g, &d, &ov);
    assert_true(ov.bits == 273);
    /* T = 32, W = 64: 1 + 32*6 + 128 + 32*6 = 513. */
    g = preset("maxwell-gtx980");
    rf_overhead_compute(&g, &d, &ov);
    assert_true(ov.bits == 513);
    /* FineReg, seed 000 V.F, 128 KB PCRF = 1024 entries, 63 regs/thread. */
    d.kind = RF_DESIGN_FINEREG;
    rf_overhead_compute(&g, &d, &ov);
    assert_true(part(&ov, "CTA status monitor") == 512);       /* 2 x 256 bits */
    assert_true(part(&ov, "live bit-vector cache") == 3072);   /* 32 x 12 B */
    assert_true(part(&ov, "PCRF pointer table") == 2048);      /* 128 x 16 bits = 256 B */
    assert_true(part(&ov, "PCRF tags") == 21504);              /* 21 x 1024 */
    assert_true(part(&ov, "CTA switching logic") == 2.4 * 8192);
    assert_true(ov.bits == 512 + 3072 + 2048 + 21504 + 2.4 * 8192);
    /* 46796.8 bits = 5.71 KB: the seed's "about 5.02 KB" undercounts its
     * own tag figure (see analytic/overhead.c). */
    assert_true(ov.bits / 8192 > 5.0 && ov.bits / 8192 < 5.8);
    /* LTRF, seed 004 Section 4.3 with maxwell-ltrf's pool of 8 warps per
     * SM (the preset's, active_warps 0): 64 x (256*5 + 3 + 256 + 256) =
     * 114880; rfkit's preferred pool, 8 per scheduler = 32 (active_warps
     * -1): 64 x (256*5 + 5 + 512) = 115008. */
    g = preset("maxwell-ltrf");
    d.kind = RF_DESIGN_LTRF;
    d.active_warps = 0;
    rf_overhead_compute(&g, &d, &ov);
    assert_true(ov.bits == 114880);
    d.active_warps = RF_POOL_PREFERRED;
    rf_overhead_compute(&g, &d, &ov);
    assert_true(ov.bits == 115008);
    d.active_warps = 0;
    /* Bank stealing, seed 001 IV.C: 19 bits per bank, 152 for 8 banks. */
    d.kind = RF_DESIGN_STEALING;
    d.banks = 8;
    rf_overhead_compute(&g, &d, &ov);
    assert_true(ov.bits == 152);
    d.banks = 0; /* the GPU's 16 banks */
    rf_overhead_compute(&g, &d, &ov);
    assert_true(ov.bits == 304);
    /* HI-RF on volta-hirf: 256 lines x (1024 + tag 6 + 2); tag = 6 warp
     * bits - 2 sub-core bits + 8 register bits - 6 index bits. */
    g = preset("volta-hirf");
    d.kind = RF_DESIGN_HIRF;
    rf_overhead_compute(&g, &d, &ov);
    assert_true(ov.bits == 256.0 * 1032);
    d.index = RF_RC_FULL; /* fully associative: tag 12 bits */
    rf_overhead_compute(&g, &d, &ov);
    assert_true(ov.bits == 256.0 * (1024 + 12 + 2));
    /* VT and Reg+DRAM: the 2.4 KB switching logic; baseline and ideal: 0. */
    d.kind = RF_DESIGN_VT;
    rf_overhead_compute(&g, &d, &ov);
    assert_true(ov.bits == 2.4 * 8192);
    d.kind = RF_DESIGN_BASELINE;
    rf_overhead_compute(&g, &d, &ov);
    assert_true(ov.bits == 0 && ov.nparts == 0);
    d.kind = RF_DESIGN_IDEAL;
    rf_overhead_compute(&g, &d, &ov);
    assert_true(ov.bits == 0);
    /* The occupancy result carries the same figure. */
    d.kind = RF_DESIGN_SHARING;
    rf_occ o = occ("fermi-c2050", &d, 36, 256, 0);
    assert_true(o.overhead_bits == 273);
    assert_int_equal(rf_overhead_ceil_log2(1), 0);
    assert_int_equal(rf_overhead_ceil_log2(48), 6);
    assert_int_equal(rf_overhead_ceil_log2(64), 6);
}

static void test_design_table(void **state)
{
    (void)state;
    rf_design d;
    rf_err err;
    rf_design_init(&d);
    assert_int_equal(d.kind, RF_DESIGN_BASELINE);
    assert_true(d.sharing == 0.9 && d.live_frac == 0.553);
    assert_int_equal(d.rf_config, 6);
    /* Active pool (rf_design_pool): the design's when set; else the GPU's
     * active_warps_per_sm (maxwell-ltrf: seed 004 Table 3's 8); else, and
     * for active_warps = -1, 8 per warp scheduler (4 x 8 = 32, 2 x 8 = 16). */
    assert_int_equal(d.active_warps, 0);
    rf_gpu g4 = preset("maxwell-gtx980"), g2 = preset("fermi-gtx480");
    rf_gpu lt = preset("maxwell-ltrf");
    assert_int_equal(g4.active_warps_per_sm, 0);
    assert_int_equal(rf_design_pool(&d, &g4), 32);
    assert_int_equal(rf_design_pool(&d, &g2), 16);
    assert_int_equal(rf_design_pool(&d, &lt), 8);
    d.active_warps = RF_POOL_PREFERRED;
    assert_int_equal(rf_design_pool(&d, &lt), 32);
    assert_int_equal(rf_design_pool(&d, &g2), 16);
    d.active_warps = 12;
    assert_int_equal(rf_design_pool(&d, &lt), 12);
    assert_int_equal(rf_design_pool(&d, &g4), 12);
    d.active_warps = 0;
    for (int k = 0; k < RF_DESIGN_COUNT; k++) {
        assert_int_equal(rf_design_set_kind(&d, rf_design_names[k], &err), RF_OK);
        assert_int_equal(d.kind, k);
        assert_string_equal(rf_design_name(k), rf_design_names[k]);
    }
    assert_null(rf_design_names[RF_DESIGN_COUNT]);
    assert_int_equal(rf_design_set_kind(&d, "nope", &err), RF_EUNKNOWN);
    assert_non_null(strstr(err.msg, "unknown design 'nope'"));
    assert_non_null(strstr(err.msg, "regmutex"));
    /* F < 1: the table refuses 1.0. */
    const rf_param *p = rf_param_find(rf_design_params, rf_design_nparams, "sharing");
    assert_non_null(p);
    assert_int_equal(rf_param_parse(p, &d, "1.0", (rf_where){"x", 1}, &err), RF_ERANGE);
    assert_int_equal(rf_param_parse(p, &d, "0.3", (rf_where){"x", 1}, &err), RF_OK);
    assert_true(d.sharing == 0.3);
    assert_null(rf_design_rf_tech(0));
    assert_null(rf_design_rf_tech(8));
    assert_true(rf_design_rf_tech(5)->latency_x == 2.8);
    assert_true(rf_design_ideal_tech()->capacity_x == 8);
}

static void test_limiter_names(void **state)
{
    (void)state;
    assert_string_equal(rf_occ_limiter_name(RF_LIMIT_REGS), "regs");
    assert_string_equal(rf_occ_limiter_name(RF_LIMIT_SMEM), "smem");
    assert_string_equal(rf_occ_limiter_name(RF_LIMIT_THREADS), "threads");
    assert_string_equal(rf_occ_limiter_name(RF_LIMIT_CTAS), "ctas");
    assert_string_equal(rf_occ_limiter_name(RF_LIMIT_GRID), "grid");
    assert_string_equal(rf_occ_limiter_name(99), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table5),          cmocka_unit_test(test_sharing_details),
        cmocka_unit_test(test_sim_granularity), cmocka_unit_test(test_cuda_granularity),
        cmocka_unit_test(test_input_errors),    cmocka_unit_test(test_finereg),
        cmocka_unit_test(test_vt_family),       cmocka_unit_test(test_ltrf),
        cmocka_unit_test(test_overheads),       cmocka_unit_test(test_design_table),
        cmocka_unit_test(test_limiter_names),
    };
    return cmocka_run_group_tests_name("occupancy", tests, NULL, NULL);
}

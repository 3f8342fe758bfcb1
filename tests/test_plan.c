/* test_plan.c - where the calibration's windows sit and how long they run
 * (calibrate/plan.c): positions in the grid, warm-ups, window lengths and
 * the budget, each worked out by hand in the comments.  kmeans on
 * fermi-gtx480 holds 8 CTAs per SM (test_plan_warm.c), hotspot 4; the
 * fermi-gtx480 DRAM latency is 330 cycles, so a sample is at least
 * 2 x 330 = 660 cycles, and under the default budget on a spread grid's
 * share 4 x 330 = 1,320. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/kchar.h"
#include "../analytic/rcindex.h"
#include "../calibrate/plan.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"

typedef struct fix {
    rf_gpu gpu;
    rf_kernel *k;
    rf_ipc_kernel kc;
} fix;

/* spec's kernel on fermi-gtx480, grid (NULL: the spec's) spread over sms
 * SMs (the busiest SM's share; 1: the whole grid). */
static fix *load_run(const char *spec, const char *grid, int sms)
{
    fix *f = calloc(1, sizeof *f);
    assert_non_null(f);
    rf_err err;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    ko.grid = grid;
    assert_int_equal(rf_gpu_load("fermi-gtx480", &f->gpu, NULL, &err), RF_OK);
    assert_int_equal(rf_kernel_load(spec, &ko, &f->k, &err), RF_OK);
    rf_kernel_spread(f->k, sms);
    assert_int_equal(rf_kchar_compute(&f->gpu, f->k, &f->kc, &err), RF_OK);
    return f;
}

static fix *load(const char *grid)
{
    return load_run("inputs/kernels/kmeans.spec", grid, 1);
}

static void unload(fix *f)
{
    rf_kernel_destroy(f->k);
    free(f);
}

static void point_is(const rf_plan_point *p, int kind, int banks, int colls, uint64_t skip,
                     const char *label)
{
    assert_int_equal(p->design.kind, kind);
    assert_int_equal(p->design.banks, banks);
    assert_int_equal(p->design.collectors, colls);
    /* Both stealing switches on (the design defaults; they act only with
     * the stealing design). */
    assert_true(p->design.read_steal);
    assert_true(p->design.write_steal);
    assert_int_equal((int)p->skip_ctas, (int)skip);
    assert_string_equal(p->label, label);
}

/* A given budget of 4,000 cycles on 64 CTAs: four samples of
 * 4000 / 4 = 1000 cycles.  Warm-up: one CTA lifetime, full x 8 / 64
 * (about 1,840 cycles: the model's full run is about 14,700), capped at
 * half a sample: 500; window 1000 - 500 = 500.  Positions: the middles of
 * four strata of 64 CTAs, (j + 1/2) x 64 / 4 = 8, 24, 40, 56.
 * Design points (16 banks and 16 collectors on the GPU): 16 banks, 16 / 4
 * = 4 banks, stealing at 16 / 2 = 8 banks, 16 banks with 16 / 2 = 8
 * collectors.  Cost 4 x 1000 = 4000.
 * Warmed (rf_plan_warm): 4 turnovers of 8 slots = 32 CTAs walked, at most
 * the CTAs before the window: 8, 24, 32, 32; timed warm-up one DRAM
 * latency (330) when below the old warm-up (500): 330; window
 * 1000 - 330 = 670; cost unchanged. */
static void given_budget_four_windows(void **state)
{
    (void)state;
    fix *f = load("64");
    rf_plan pl;
    rf_err err;
    assert_int_equal(rf_plan_make(&f->gpu, f->k, &f->kc, 4000, &pl, &err), RF_OK);
    assert_true(pl.full_cycles * 8 / 64 > 500);
    assert_int_equal(pl.n, 4);
    assert_int_equal(pl.resident, 8);
    assert_int_equal(pl.ndesign, 0);
    assert_float_equal(pl.budget, 4000, 0);
    assert_float_equal(pl.cost, 4000, 0);
    point_is(&pl.pt[0], RF_DESIGN_BASELINE, 16, 0, 8, "baseline banks=16");
    point_is(&pl.pt[1], RF_DESIGN_BASELINE, 4, 0, 24, "baseline banks=4");
    point_is(&pl.pt[2], RF_DESIGN_STEALING, 8, 0, 40, "stealing banks=8");
    point_is(&pl.pt[3], RF_DESIGN_BASELINE, 16, 8, 56, "baseline banks=16 coll=8");
    const uint64_t walked[4] = {8, 24, 32, 32};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(pl.pt[i].warm_ctas, 0);
        assert_int_equal(pl.pt[i].warmup, 500);
        assert_int_equal(pl.pt[i].cycles, 500);
    }
    rf_plan_warm(&f->gpu, &pl);
    assert_float_equal(pl.cost, 4000, 0);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(pl.pt[i].warm_ctas, walked[i]);
        assert_int_equal(pl.pt[i].warmup, 330);
        assert_int_equal(pl.pt[i].cycles, 670);
    }
    unload(f);
}

/* The default budget on the whole kmeans grid (1,024 CTAs):
 * budget = 0.0425 x full; per sample budget / 4.  The CTA lifetime,
 * full x 8 / 1024 = 0.0078 full, exceeds half a sample, 0.0425 / 8 =
 * 0.0053 full, so the warm-up is half a sample: warm = (int)(per / 2),
 * window = (int)per - warm.  Positions: the middles of four strata,
 * (j + 1/2) x 1024 / 4 = 128, 384, 640, 896.
 * Cost 4 (int)per <= budget.  Warmed: 32 CTAs walked before each (all
 * have 32 or more before them); timed warm-up min(330, warm) = 330 (warm
 * is about 980 cycles: full about 185,000). */
static void default_budget_long_grid(void **state)
{
    (void)state;
    fix *f = load("1024");
    rf_plan pl;
    rf_err err;
    assert_int_equal(rf_plan_make(&f->gpu, f->k, &f->kc, 0, &pl, &err), RF_OK);
    assert_float_equal(pl.budget, 0.0425 * pl.full_cycles, 1e-9);
    assert_int_equal(pl.n, 4);
    double per = pl.budget / 4;
    uint64_t warm = (uint64_t)(0.5 * per), win = (uint64_t)per - warm;
    assert_true(warm > 330);
    const uint64_t skip[4] = {128, 384, 640, 896};
    for (int i = 0; i < 4; i++) {
        assert_int_equal((int)pl.pt[i].skip_ctas, (int)skip[i]);
        assert_int_equal(pl.pt[i].warmup, warm);
        assert_int_equal(pl.pt[i].cycles, win);
    }
    assert_float_equal(pl.cost, 4.0 * (double)(uint64_t)per, 0);
    assert_true(pl.cost <= pl.budget);
    rf_plan_warm(&f->gpu, &pl);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(pl.pt[i].warm_ctas, 32);
        assert_int_equal(pl.pt[i].warmup, 330);
        assert_int_equal(pl.pt[i].cycles, (uint64_t)per - 330);
    }
    unload(f);
}

/* Design windows (rf_plan_make_design, finereg) with a given budget of
 * 12,000 cycles on 64 CTAs: 4 + 2 samples of 12000 / 6 = 2000 cycles;
 * warm-up min(lifetime, half a sample) = min(14,700 x 8 / 64 = 1,838,
 * 1000) = 1000, window 2000 - 1000 = 1000; the design's two windows at the
 * level's and the stealing window's positions (CTAs 8 and 40, as above:
 * 12.5% and 62.5% of the grid, labelled to the percent) come last
 * (ndesign 2).  Cost 6 x 2000 = 12000. */
static void design_windows_share_the_budget(void **state)
{
    (void)state;
    fix *f = load("64");
    rf_design dd;
    rf_design_init(&dd);
    dd.kind = RF_DESIGN_FINEREG;
    rf_plan pl;
    rf_err err;
    assert_int_equal(rf_plan_make_design(&f->gpu, f->k, &f->kc, 12000, &dd, &pl, &err), RF_OK);
    assert_int_equal(pl.n, 6);
    assert_int_equal(pl.ndesign, 2);
    assert_true(pl.full_cycles * 8 / 64 > 1000);
    point_is(&pl.pt[0], RF_DESIGN_BASELINE, 16, 0, 8, "baseline banks=16");
    point_is(&pl.pt[1], RF_DESIGN_BASELINE, 4, 0, 24, "baseline banks=4");
    point_is(&pl.pt[2], RF_DESIGN_STEALING, 8, 0, 40, "stealing banks=8");
    point_is(&pl.pt[3], RF_DESIGN_BASELINE, 16, 8, 56, "baseline banks=16 coll=8");
    assert_int_equal(pl.pt[4].design.kind, RF_DESIGN_FINEREG);
    assert_int_equal(pl.pt[5].design.kind, RF_DESIGN_FINEREG);
    assert_int_equal((int)pl.pt[4].skip_ctas, 8);
    assert_int_equal((int)pl.pt[5].skip_ctas, 40);
    assert_string_equal(pl.pt[4].label, "finereg at 12%");
    assert_string_equal(pl.pt[5].label, "finereg at 62%");
    for (int i = 0; i < 6; i++) {
        assert_int_equal(pl.pt[i].warmup, 1000);
        assert_int_equal(pl.pt[i].cycles, 1000);
    }
    assert_float_equal(pl.cost, 12000, 0);
    unload(f);
}

/* A short run: hotspot's default run on fermi-gtx480, the busiest of 15
 * SMs, ceil(1024 / 15) = 69 CTAs (grid indices 0, 15, ..., 1020), 4
 * resident.  The model puts the share at about 40,376 cycles, so the
 * budget is 0.0425 x 40,376 = 1,716.0 cycles; a spread grid's samples are
 * at least four DRAM latencies, 4 x 330 = 1,320 cycles: 1716.0 / 1320 =
 * 1.30, one sample (the level's baseline window) of the whole budget, 1715
 * cycles (the sample's integer part).  Warm-up: one CTA lifetime, 40,376 x
 * 4 / 69 = 2,341 cycles, capped at half a sample: (int)857.99 = 857;
 * window 1715 - 857 = 858.  Position: the middle of one stratum of 69
 * CTAs, 0.5 x 69 = 34.5 -> 34 (not a whole wave: the functional walk
 * starts the window where CTA 34 is dispatched).  Cost 1715 <= 1716.0.
 * Warmed: 4 turnovers of 4 slots = 16 CTAs walked (34 before it), timed
 * warm-up min(330, 857) = 330, window 1715 - 330 = 1385.
 * kmeans' default run (69 CTAs, about 9,604 cycles) has a budget of
 * 0.0425 x 9,604 = 408 cycles, under one sample: no windows. */
static void short_run_gets_short_windows(void **state)
{
    (void)state;
    fix *f = load_run("inputs/kernels/hotspot.spec", NULL, 15);
    rf_plan pl;
    rf_err err;
    assert_int_equal(rf_kernel_ctas(f->k), 69);
    assert_int_equal(rf_plan_make(&f->gpu, f->k, &f->kc, 0, &pl, &err), RF_OK);
    assert_float_equal(pl.full_cycles, 40376, 20);
    assert_float_equal(pl.budget, 0.0425 * pl.full_cycles, 1e-9);
    assert_int_equal(pl.resident, 4);
    assert_int_equal(pl.n, 1);
    point_is(&pl.pt[0], RF_DESIGN_BASELINE, 16, 0, 34, "baseline banks=16");
    assert_int_equal(pl.pt[0].warmup, 857);
    assert_int_equal(pl.pt[0].cycles, 858);
    assert_float_equal(pl.cost, 1715, 0);
    assert_true(pl.cost <= pl.budget);
    rf_plan_warm(&f->gpu, &pl);
    assert_float_equal(pl.cost, 1715, 0);
    assert_int_equal(pl.pt[0].warm_ctas, 16);
    assert_int_equal(pl.pt[0].warmup, 330);
    assert_int_equal(pl.pt[0].cycles, 1385);
    unload(f);

    f = load_run("inputs/kernels/kmeans.spec", NULL, 15);
    assert_int_equal(rf_kernel_ctas(f->k), 69);
    assert_int_equal(rf_plan_make(&f->gpu, f->k, &f->kc, 0, &pl, &err), RF_OK);
    assert_float_equal(pl.full_cycles, 9604, 20);
    assert_true(pl.budget < 660);
    assert_int_equal(pl.n, 0);
    assert_float_equal(pl.cost, 0, 0);
    unload(f);
}

/* Settled samples (calibrate/plan.c): transpose on volta-hirf, the whole
 * grid (1,024 CTAs) on one SM, 8 resident, DRAM latency 400 cycles, seven
 * points (four ordinary, three HI-RF).  Estimated full run about 759,552
 * cycles: budget 0.0425 x 759,552 = 32,281.0; lifetime 759,552 x 8 / 1024
 * = 5,934.0.  Seven samples would be 32,281.0 / 7 = 4,611.6 cycles, windows
 * of 4,611.6 - 400 = 4,211.6 < 5,934.0; a settled sample takes 400 + 2.5
 * x 5,934.0 = 15,235.0 (a warm-up of 1.5 lifetimes and a window of one),
 * and the budget holds floor(2.12) = 2.  Kept: the level's window
 * (baseline, 8 banks) and HI-RF concat at its CTAs; the collector, 2-bank,
 * stealing, fully associative and TEA windows dropped.  One ordinary point: its stratum's
 * middle, 1/2 x 1024 = CTA 512.  A sample 32,281.0 / 2 = 16,140.5 cycles:
 * warm-up 1.5 x 5,934.0 = 8,901.0 capped at half a sample, (int)8,070.2 =
 * 8,070; window (int)16,140.5 - 8,070 = 8,070 (over one lifetime).
 * Warmed: 4 x 8 = 32 CTAs walked; the timed warm-up stays 8,070 (not the
 * 400-cycle fill).  A budget given (32,280 cycles) keeps the seven points,
 * warmed to 400 + ((int)(32,280 / 7) - 400) = 400 + 4,211. */
/* A spec's whole grid on one SM of preset gpu_name, characterised. */
static rf_kernel *whole_grid(const char *gpu_name, const char *spec, rf_gpu *gpu,
                             rf_ipc_kernel *kc)
{
    rf_err err;
    rf_kernel *k = NULL;
    rf_kernel_opts ko;
    memset(&ko, 0, sizeof ko);
    assert_int_equal(rf_gpu_load(gpu_name, gpu, NULL, &err), RF_OK);
    assert_int_equal(rf_kernel_load(spec, &ko, &k, &err), RF_OK);
    rf_kernel_spread(k, 1);
    assert_int_equal(rf_kchar_compute(gpu, k, kc, &err), RF_OK);
    return k;
}

static void settled_samples_for_short_windows(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err;
    rf_ipc_kernel kc;
    rf_kernel *k = whole_grid("volta-hirf", "inputs/validation/transpose.spec", &gpu, &kc);
    rf_plan pl;
    assert_int_equal(rf_plan_make(&gpu, k, &kc, 0, &pl, &err), RF_OK);
    assert_float_equal(pl.full_cycles, 759552, 50);
    assert_int_equal(pl.resident, 8);
    double life = pl.full_cycles * 8 / 1024;
    assert_true(pl.budget / 7 - 400 < life);
    assert_int_equal((int)(pl.budget / (400 + 2.5 * life)), 2);
    assert_int_equal(pl.n, 2);
    assert_float_equal(pl.settle, 1.5 * life, 1e-9);
    assert_int_equal(pl.pt[0].design.kind, RF_DESIGN_BASELINE);
    assert_int_equal(pl.pt[0].design.banks, 8);
    assert_string_equal(pl.pt[0].label, "baseline banks=8");
    assert_int_equal(pl.pt[1].design.kind, RF_DESIGN_HIRF);
    assert_int_equal(pl.pt[1].design.index, RF_RC_CONCAT);
    assert_string_equal(pl.pt[1].label, "hirf index=concat");
    uint64_t per = (uint64_t)(pl.budget / 2), warm = (uint64_t)(pl.budget / 4);
    assert_true(1.5 * life > pl.budget / 4);
    assert_true((double)(per - warm) > life);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pl.pt[i].skip_ctas, 512);
        assert_int_equal(pl.pt[i].warmup, warm);
        assert_int_equal(pl.pt[i].cycles, per - warm);
    }
    assert_float_equal(pl.cost, 2.0 * (double)per, 0);
    rf_plan_warm(&gpu, &pl);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pl.pt[i].warm_ctas, 32);
        assert_int_equal(pl.pt[i].warmup, warm);
        assert_int_equal(pl.pt[i].cycles, per - warm);
    }
    assert_float_equal(pl.cost, 2.0 * (double)per, 0);

    uint64_t given = (uint64_t)pl.budget;
    assert_int_equal(rf_plan_make(&gpu, k, &kc, given, &pl, &err), RF_OK);
    assert_int_equal(pl.n, 7);
    assert_float_equal(pl.settle, 0, 0);
    rf_plan_warm(&gpu, &pl);
    uint64_t seven = (uint64_t)((double)given / 7);
    for (int i = 0; i < 7; i++) {
        assert_int_equal(pl.pt[i].warmup, 400);
        assert_int_equal(pl.pt[i].cycles, seven - 400);
    }
    assert_int_equal(pl.pt[6].design.index, RF_RC_FULL);
    assert_string_equal(pl.pt[6].label, "hirf index=full");
    rf_kernel_destroy(k);
}

/* One settled sample where every window would start from one state
 * (calibrate/plan.c one_state): bscholes's CTAs all run one path with no
 * draw (no loops, every load a DRAM miss), so the run's last 256 CTAs all
 * take the same lone cycles.  fermi-gtx480, the whole grid on one SM: 512
 * CTAs, 8 resident, estimated full run 155,298 cycles, budget 0.0425 x
 * that = 6,600.2; lifetime 155,298 x 8 / 512 = 2,426.5; four points would
 * get windows of 6,600.2 / 4 - 330 = 1,320 < 2,426.5, and one settled
 * sample costs 330 + 2.5 x 2,426.5 = 6,396.3: (int)(6,600.2 / 6,396.3) =
 * 1.  One state: that one sample, the level's window at 50% of the grid
 * (CTA 256), its warm-up 1.5 x 2,426.5 = 3,640 capped at half the sample,
 * (int)3,300.1 = 3,300, and its window 6,600 - 3,300 = 3,300.  A CTA that
 * differs (one lone time moved) leaves the two samples SETTLE_MIN asks
 * for out of reach: the four ordinary points. */
static void one_state_gets_one_settled_sample(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_err err;
    rf_ipc_kernel kc;
    rf_kernel *k = whole_grid("fermi-gtx480", "inputs/validation/bscholes.spec", &gpu, &kc);
    assert_int_equal(kc.nlone, 256);
    rf_plan pl;
    assert_int_equal(rf_plan_make(&gpu, k, &kc, 0, &pl, &err), RF_OK);
    assert_float_equal(pl.full_cycles, 155298, 1);
    assert_int_equal(pl.resident, 8);
    double life = pl.full_cycles * 8 / 512;
    assert_int_equal((int)(pl.budget / (330 + 2.5 * life)), 1);
    assert_int_equal(pl.n, 1);
    assert_float_equal(pl.settle, 1.5 * life, 1e-9);
    assert_string_equal(pl.pt[0].label, "baseline banks=16");
    assert_int_equal(pl.pt[0].skip_ctas, 256);
    assert_int_equal(pl.pt[0].warmup, 3300);
    assert_int_equal(pl.pt[0].cycles, 3300);
    kc.lone[7] += 1.0f;
    assert_int_equal(rf_plan_make(&gpu, k, &kc, 0, &pl, &err), RF_OK);
    assert_int_equal(pl.n, 4);
    assert_float_equal(pl.settle, 0, 0);
    rf_kernel_destroy(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(given_budget_four_windows),
        cmocka_unit_test(default_budget_long_grid),
        cmocka_unit_test(design_windows_share_the_budget),
        cmocka_unit_test(short_run_gets_short_windows),
        cmocka_unit_test(settled_samples_for_short_windows),
        cmocka_unit_test(one_state_gets_one_settled_sample),
    };
    return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}

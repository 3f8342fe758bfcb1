/* test_energy.c - energy and area closed forms (analytic/energy.c,
 * analytic/area.c), values computed by hand from seed 001 III-A, seed 002
 * Tables 1 and 3, seed 004 Table 2. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/area.h"
#include "../analytic/design.h"
#include "../analytic/energy.h"
#include "../inputs/gpu.h"

static rf_rf_org sram(double kb, int banks)
{
    rf_rf_org o;
    memset(&o, 0, sizeof o);
    o.main_bits = kb * 1024 * 8;
    o.banks = banks;
    o.collectors = 16;
    o.config = 1;
    return o;
}

static void table3_access_energies(void **state)
{
    (void)state;
    /* Seed 002 Table 2's file: 256 KB in 8 banks of 4096 x 64 bits, the
     * reference organisation, no bank scaling.
     * Read 0.203 pJ/bit * 1024 = 207.872 pJ; write 0.191 * 1024 = 195.584.
     * Leakage per bank (Table 3): 8 * 248.7 = 1989.6 mW.
     * Crossbar 0.1 * 1024 * sqrt(8/16 * 16/16) = 72.4077 pJ. */
    rf_rf_org o = sram(256, 8);
    rf_energy_rates r;
    rf_energy_rates_of(&o, &r);
    assert_float_equal(r.read_pj, 207.872, 1e-9);
    assert_float_equal(r.write_pj, 195.584, 1e-9);
    assert_float_equal(r.leak_mw, 1989.6, 1e-9);
    assert_float_equal(r.xbar_pj, 102.4 * sqrt(0.5), 1e-9);

    /* NVM: 0.239 * 1024 = 244.736, 0.300 * 1024 = 307.2, 8 * 16.2 = 129.6 mW. */
    o.nvm = true;
    rf_energy_rates_of(&o, &r);
    assert_float_equal(r.read_pj, 244.736, 1e-9);
    assert_float_equal(r.write_pj, 307.2, 1e-9);
    assert_float_equal(r.leak_mw, 129.6, 1e-9);

    /* HI-RF: plus 256 x 1024 bits of SRAM cache = one 32 KB bank's bits,
     * 248.7 mW: 129.6 + 248.7 = 378.3 mW, 19% of the SRAM file's. */
    o.cache_bits = 256 * 1024;
    rf_energy_rates_of(&o, &r);
    assert_float_equal(r.leak_mw, 378.3, 1e-9);
    assert_float_equal(r.cache_read_pj, 207.872, 1e-9);
    assert_float_equal(r.cache_write_pj, 195.584, 1e-9);
}

static void bank_scaling(void **state)
{
    (void)state;
    /* 128 KB on 8 banks: 128 rows of 1024 bits against the reference 256:
     * read 207.872 * (0.85 + 0.15 * 0.5) = 192.2816 pJ; leakage
     * 1989.6 * (0.5 * 0.5 + 0.5 * 8/8) = 1492.2 mW; crossbar 102.4 * sqrt(0.5).
     * 128 KB on 32 banks: 32 rows: read 207.872 * (0.85 + 0.15 * 0.125)
     * = 180.5889 pJ; leakage 1989.6 * (0.25 + 0.5 * 32/8) = 4476.6 mW. */
    rf_rf_org o8 = sram(128, 8), o32 = sram(128, 32);
    rf_energy_rates r8, r32;
    rf_energy_rates_of(&o8, &r8);
    rf_energy_rates_of(&o32, &r32);
    assert_float_equal(r8.read_pj, 207.872 * 0.925, 1e-9);
    assert_float_equal(r8.leak_mw, 1492.2, 1e-9);
    assert_float_equal(r8.xbar_pj, 102.4 * sqrt(0.5), 1e-9);
    assert_float_equal(r32.read_pj, 207.872 * 0.86875, 1e-9);
    assert_float_equal(r32.leak_mw, 4476.6, 1e-9);
    /* Seed 001 Fig. 3: more banks, cheaper array access, costlier transfer
     * and leakage. */
    assert_true(r32.read_pj < r8.read_pj);
    assert_true(r32.xbar_pj > r8.xbar_pj);
    assert_true(r32.leak_mw > r8.leak_mw);
}

static void technology_configs(void **state)
{
    (void)state;
    /* Seed 004 Table 2 #7 (DWM): power 0.65x of #1 for an 8x file; bank
     * scaling from #1's capacity (256 KB on 8 banks: the reference). */
    rf_rf_org o = sram(256 * 8, 8);
    o.config = 7;
    rf_energy_rates r;
    rf_energy_rates_of(&o, &r);
    assert_float_equal(r.read_pj, 207.872 * 0.65, 1e-9);
    assert_float_equal(r.leak_mw, 1989.6 * 0.65, 1e-9);
    assert_non_null(rf_design_rf_tech(1));
    assert_null(rf_design_rf_tech(8));
    assert_float_equal(rf_design_rf_tech(6)->latency_x, 5.3, 0.0);
}

static void energy_sum(void **state)
{
    (void)state;
    /* 1000 reads at 207.872 pJ = 207.872 nJ; 500 writes at 195.584 pJ =
     * 97.792 nJ; 1e6 cycles at 1000 MHz = 1 ms of 1989.6 mW = 1989600 nJ. */
    rf_rf_org o = sram(256, 8);
    rf_energy_rates r;
    rf_energy_rates_of(&o, &r);
    rf_energy_counts c = {1000, 500, 0, 0, 0, 1e6};
    rf_energy e;
    rf_energy_compute(&r, &c, 1000.0, &e);
    assert_float_equal(e.dynamic_nj, 207.872 + 97.792, 1e-9);
    assert_float_equal(e.leakage_nj, 1989600.0, 1e-6);
    assert_float_equal(e.total_nj, 207.872 + 97.792 + 1989600.0, 1e-6);
}

static void leakage_share(void **state)
{
    (void)state;
    /* Seed 002 Section 5.4 / seed 001 Section IV-C: leakage dominates the
     * SRAM file.  One SM at 1132 MHz, IPC 1 with 1.5 operand reads and 0.8
     * writes per instruction: 1.5 * 207.872 + 0.8 * 195.584 = 468.28 pJ
     * per cycle against 1989.6 / 1.132 = 1757.6 pJ: leakage 79%. */
    rf_rf_org o = sram(256, 8);
    rf_energy_rates r;
    rf_energy_rates_of(&o, &r);
    rf_energy_counts c = {1.5e6, 0.8e6, 0, 0, 0, 1e6};
    rf_energy e;
    rf_energy_compute(&r, &c, 1132.0, &e);
    assert_float_equal(e.dynamic_nj, 468.2752e3, 1e-6);
    assert_float_equal(e.leakage_nj, 1989.6e3 / 1.132, 1e-6);
    assert_float_equal(e.leakage_nj / e.total_nj, 0.79, 0.005);
}

static void area_bank_ratios(void **state)
{
    (void)state;
    /* Seed 001: 8 banks 25% smaller than 16, 50% smaller than 32:
     * A(8) : A(16) : A(32) = 0.75 : 1 : 1.5.  A(16) at 128 KB =
     * 2 * 2^20 bits * 0.171 um^2 = 0.358612992 mm^2. */
    rf_area a4, a8, a16, a32;
    rf_rf_org o;
    o = sram(128, 4), rf_area_compute(&o, &a4);
    o = sram(128, 8), rf_area_compute(&o, &a8);
    o = sram(128, 16), rf_area_compute(&o, &a16);
    o = sram(128, 32), rf_area_compute(&o, &a32);
    assert_float_equal(a16.total_mm2, 0.358612992, 1e-12);
    assert_float_equal(a8.total_mm2 / a16.total_mm2, 0.75, 1e-12);
    assert_float_equal(a32.total_mm2 / a16.total_mm2, 1.5, 1e-12);
    assert_float_equal(a4.total_mm2 / a16.total_mm2, 0.625, 1e-12);
    assert_float_equal(a16.array_mm2, a32.array_mm2, 1e-15);
    assert_float_equal(a16.xbar_mm2 / a16.total_mm2, 0.2, 1e-12);
}

static void area_nvm_and_cache(void **state)
{
    (void)state;
    /* Seed 002 Table 1: NVM file 0.499x, HI-RF (NVM + 256 x 1024-bit SRAM
     * cache) 0.945x of the SRAM file, for the 256 KB, 8-bank organisation. */
    rf_rf_org o = sram(256, 8);
    rf_area s, n, h;
    rf_area_compute(&o, &s);
    o.nvm = true;
    rf_area_compute(&o, &n);
    o.cache_bits = 256 * 1024;
    rf_area_compute(&o, &h);
    assert_float_equal(n.total_mm2 / s.total_mm2, 0.499, 1e-12);
    assert_float_equal(h.total_mm2 / s.total_mm2, 0.945, 1e-12);
    /* Seed 004 Table 2 #7: 0.25x area for 8x capacity. */
    rf_rf_org d = sram(256 * 8, 16), b = sram(256, 16);
    d.config = 7;
    rf_area ad, ab;
    rf_area_compute(&d, &ad);
    rf_area_compute(&b, &ab);
    /* 8x bits at area_x / cap_x = 1/32 per bit: array 0.25x of the
     * reference array. */
    assert_float_equal(ad.array_mm2 / ab.array_mm2, 0.25, 1e-12);
}

/* Register-cache storage of seed 004's designs on maxwell-ltrf (warp
 * registers of 32 x 32 = 1024 bits): LTRF partitions interval_regs = 16
 * registers per pool warp: the preset's pool (seed 004 Table 3) of 8:
 * 8 x 16 x 1024 = 131072 bits (16 KB); rfkit's preferred pool (active_warps
 * -1), 8 per scheduler x 4 = 32 warps: 32 x 16 x 1024 = 524288 (64 KB);
 * 24-register intervals at 8: 196608.  RFC keeps the GPU's 128 lines x 1024
 * = 131072 whatever the pool. */
static void area_ltrf_cache(void **state)
{
    (void)state;
    rf_gpu g;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("maxwell-ltrf", &g, &err), 0);
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_LTRF;
    rf_rf_org o;
    assert_int_equal(rf_area_org(&g, &d, NULL, &o, &err), 0);
    assert_float_equal(o.cache_bits, 131072, 0);
    d.active_warps = RF_POOL_PREFERRED;
    assert_int_equal(rf_area_org(&g, &d, NULL, &o, &err), 0);
    assert_float_equal(o.cache_bits, 524288, 0);
    d.active_warps = 8;
    d.interval_regs = 24;
    assert_int_equal(rf_area_org(&g, &d, NULL, &o, &err), 0);
    assert_float_equal(o.cache_bits, 196608, 0);
    d.kind = RF_DESIGN_RFC;
    d.active_warps = RF_POOL_PREFERRED;
    assert_int_equal(rf_area_org(&g, &d, NULL, &o, &err), 0);
    assert_float_equal(o.cache_bits, 131072, 0);
}

static void area_overhead_bits(void **state)
{
    (void)state;
    /* 152 bits (seed 001: 19 bits x 8 banks) at 0.171 um^2 / 0.5. */
    rf_rf_org o = sram(128, 8);
    o.overhead_bits = 152;
    rf_area a;
    rf_area_compute(&o, &a);
    assert_float_equal(a.overhead_mm2, 152 * 0.171e-6 / 0.5, 1e-15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table3_access_energies),
        cmocka_unit_test(bank_scaling),
        cmocka_unit_test(technology_configs),
        cmocka_unit_test(energy_sum),
        cmocka_unit_test(leakage_share),
        cmocka_unit_test(area_bank_ratios),
        cmocka_unit_test(area_nvm_and_cache),
        cmocka_unit_test(area_overhead_bits),
        cmocka_unit_test(area_ltrf_cache),
    };
    return cmocka_run_group_tests_name("energy", tests, NULL, NULL);
}

/* design.c - the design-point parameter table, design names and the main
 * register-file technologies of seed 004 Table 2.
 *
 * Defaults come from the seeds' evaluated design points: 90% register sharing
 * (seed 003 Section 7.1, t = 0.1), a PCRF of half the register file and 55.3%
 * live registers (seed 000 Sections VI.A and III.B), read and write stealing
 * on (seed 001), a 3+3-bit concatenated register-cache index with CAC
 * assignment (seed 002 Section 2.4), LTRF on configuration #6 with the GPU's
 * active pool (maxwell-ltrf: 8 warps) and 16-register intervals (seed 004
 * Sections 5 and Table 3).
 */
#include "design.h"
#include "../inputs/gpu.h"

#include <stdio.h>
#include <string.h>

const char *const rf_design_names[] = {
#define RF_DESIGN_NAME_(id, name, help) name,
    RF_DESIGN_LIST(RF_DESIGN_NAME_)
#undef RF_DESIGN_NAME_
    NULL};

static const char *const sched_choices[] = {"gpu", "lrr", "gto", "two-level", NULL};
static const char *const index_choices[] = {"concat", "tea", "full", NULL};
static const char *const assign_choices[] = {"base", "cac", "best", "worst", "cac-plain", NULL};

#define DI(f, lo, hi, def, unit, help) \
    {#f, RF_PT_INT, offsetof(rf_design, f), lo, hi, def, NULL, unit, help}
#define DD(f, lo, hi, def, unit, help) \
    {#f, RF_PT_DOUBLE, offsetof(rf_design, f), lo, hi, def, NULL, unit, help}
#define DB(f, def, help) \
    {#f, RF_PT_BOOL, offsetof(rf_design, f), 0, 1, def, NULL, NULL, help}
#define DE(f, choices, def, help) \
    {#f, RF_PT_ENUM, offsetof(rf_design, f), 0, 0, def, choices, NULL, help}

const rf_param rf_design_params[] = {
    DD(sharing, 0, 0.999, 0.9, "fraction", "sharing: F = 1 - t, shared fraction of a CTA's registers"),
    DB(owf, 1, "sharing: owner-warp-first scheduling"),
    DB(unroll, 1, "sharing: registers declared in first-use order (seed 003 Sec. 5.2)"),
    DB(dyn, 0, "sharing: dynamic warp execution across the SMs simulated (seed 003 Sec. 5.3)"),
    DD(acrf_kb, 0, 65536, 0, "KB", "finereg: active-CTA register file (0 = register file minus PCRF)"),
    DD(pcrf_kb, 0, 65536, 0, "KB", "finereg: pending-CTA register file (0 = half the register file)"),
    DD(live_frac, 0, 1, 0.553, "fraction", "finereg: live fraction of a stalled CTA's registers"),
    DI(dram_ctas, -1, 65536, -1, "CTAs", "regdram: pending CTAs in DRAM (-1 = as many as the RF holds)"),
    DD(brs_frac, 0, 1, 0.5, "fraction", "regmutex: base register set, fraction of the registers"),
    DI(switch_cycles, 0, 100000, 20, "cycles",
       "vt/regdram/finereg: cycles to switch a CTA's pipeline context (an assumption)"),
    DI(banks, 0, 1024, 0, "banks", "stealing: register-file banks (0 = the GPU's)"),
    DI(collectors, 0, 1024, 0, NULL, "stealing: operand collectors (0 = the GPU's)"),
    DE(scheduler, sched_choices, 0, "warp scheduler (gpu = the GPU's policy)"),
    DB(read_steal, 1, "stealing: read stealing"),
    DB(write_steal, 1, "stealing: write stealing"),
    DE(index, index_choices, 0, "hirf/rfc: register-cache index function"),
    DI(wbits, -1, 16, -1, "bits",
       "hirf/rfc: warp-ID bits of the concatenated index (-1: the index bits rbits leaves)"),
    DI(rbits, 0, 16, 3, "bits", "hirf/rfc: register-ID bits of the concatenated index"),
    DI(rc_entries, 0, 65536, 0, "lines", "hirf/rfc: register-cache lines per sub-core (0 = the GPU's)"),
    DE(assign, assign_choices, 1, "hirf: register assignment policy"),
    DI(rf_config, 1, 7, 6, NULL, "ltrf/rfc: main register file technology #1..#7 (seed 004 Table 2)"),
    DI(active_warps, -1, 1024, 0, "warps",
       "two-level scheduler (ltrf): active-warp pool per SM; 0 = the GPU's "
       "active_warps_per_sm (maxwell-ltrf: the seed's 8, seed 004 Table 3); -1 = rfkit's "
       "preferred 8 per warp scheduler (32 on 4 schedulers: the pool no longer limits "
       "latency hiding)"),
    DI(interval_regs, 1, 256, 16, "registers", "ltrf: registers per register-interval"),
    DB(plus, 0, "ltrf: LTRF+, move only live registers"),
    DD(latency_x, 0, 64, 0, "x", "ltrf/rfc: main register file latency multiplier (0 = rf_config's)"),
};
const size_t rf_design_nparams = sizeof rf_design_params / sizeof rf_design_params[0];

void rf_design_init(rf_design *d)
{
    memset(d, 0, sizeof *d);
    rf_param_defaults(rf_design_params, rf_design_nparams, d);
    d->kind = RF_DESIGN_BASELINE;
}

void rf_design_steal_flags(rf_design *d, int read, int write)
{
    bool some_on = read == 1 || write == 1;
    d->read_steal = some_on ? read == 1 : read != 0;
    d->write_steal = some_on ? write == 1 : write != 0;
}

const char *rf_design_name(int kind)
{
    return kind >= 0 && kind < RF_DESIGN_COUNT ? rf_design_names[kind] : "?";
}

int rf_design_set_kind(rf_design *d, const char *name, rf_err *err)
{
    for (int k = 0; k < RF_DESIGN_COUNT; k++) {
        if (name && strcmp(name, rf_design_names[k]) == 0) {
            d->kind = k;
            return RF_OK;
        }
    }
    char list[300];
    size_t n = 0;
    list[0] = '\0';
    for (int k = 0; k < RF_DESIGN_COUNT && n < sizeof list; k++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", k ? ", " : "",
                              rf_design_names[k]);
    return rf_err_set(err, RF_EUNKNOWN, NULL, 0, 0, "design",
                      "unknown design '%s' (one of %s)", name ? name : "", list);
}

/* Seed 004 Table 2, verbatim. */
static const rf_rf_tech rf_techs[] = {
    {1, "HP SRAM", 1, 1, "crossbar", 1, 1, 1, 1, 1, 1},
    {2, "HP SRAM", 1, 8, "crossbar", 8, 8, 8, 1, 1, 1.25},
    {3, "HP SRAM", 8, 1, "flattened butterfly", 8, 8, 8, 1, 1, 1.5},
    {4, "LSTP SRAM", 1, 8, "crossbar", 8, 8, 3.2, 1, 2.5, 1.6},
    {5, "LSTP SRAM", 8, 1, "flattened butterfly", 8, 8, 3.2, 1, 2.5, 2.8},
    {6, "TFET SRAM", 8, 1, "flattened butterfly", 8, 8, 1.05, 1, 7.6, 5.3},
    {7, "DWM", 8, 1, "flattened butterfly", 8, 0.25, 0.65, 32, 12, 6.3},
};

/* Ideal: #1 cells scaled to 8x capacity (area and power scale as #2/#3 do)
 * with the latency of #1 (seed 004 Section 5, "Ideal"). */
static const rf_rf_tech ideal_tech = {0, "HP SRAM (ideal)", 8, 1, "ideal", 8, 8, 8, 1, 1, 1};

int rf_design_pool(const rf_design *d, const rf_gpu *gpu)
{
    if (d->active_warps > 0)
        return d->active_warps;
    if (d->active_warps != RF_POOL_PREFERRED && gpu->active_warps_per_sm > 0)
        return gpu->active_warps_per_sm;
    return RF_POOL_PER_SCHED * (gpu->schedulers > 0 ? gpu->schedulers : 1);
}

const rf_rf_tech *rf_design_rf_tech(int config)
{
    if (config < 1 || config > (int)(sizeof rf_techs / sizeof rf_techs[0]))
        return NULL;
    return &rf_techs[config - 1];
}

const rf_rf_tech *rf_design_ideal_tech(void)
{
    return &ideal_tech;
}

double rf_design_latency_x(const rf_design *d)
{
    if (d->kind != RF_DESIGN_RFC && d->kind != RF_DESIGN_LTRF)
        return 1.0;
    if (d->latency_x > 0)
        return d->latency_x;
    const rf_rf_tech *t = rf_design_rf_tech(d->rf_config);
    return t ? t->latency_x : 1.0;
}

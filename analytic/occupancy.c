/* occupancy.c - CTAs and warps per SM under each register-file design.
 *
 * Inputs: registers per thread r, threads per CTA n, shared memory per CTA s
 * (bytes); the GPU's resources and allocation rules; the design point.
 * Outputs: resident CTAs and warps per SM, the binding limit, the active /
 * pending split, the design's own figures and its storage overhead (bits).
 *
 * Baseline (CUDA occupancy rules; GPGPU-Sim max_cta for simulator presets):
 *   w   = ceil(n / warp_size)                       warps per CTA
 *   rpw = ceil(r * warp_size, reg_alloc_unit)       registers per warp
 *   regs limit = floor(floor(R / rpw) to a multiple of warp_alloc_gran / w)
 *              (per-CTA granularity: floor(R / ceil(r * w * warp_size, unit)))
 *   smem limit = floor(smem_per_sm / ceil(s + reserved, smem_alloc_unit))
 *   thread limit = floor(min(max_threads / (w * warp_size), max_warps / w))
 *   CTAs = min(regs, smem, threads, CTA slots); the smallest names the limiter
 *   (ties: registers, then shared memory, threads, CTA slots).
 *
 * Register Sharing (seed 003 Section 4.1, Eq. 1-4), F = 1 - t:
 *   g = regs limit, R_tb = w * rpw,
 *   M = floor((R - g R_tb (1 - t)) / (t R_tb)), kept within [g, 2g]
 *   (every shared pair needs S <= g, i.e. U = 2g - M >= 0; F = 0 is M = g),
 *   CTAs = min(M, smem, threads, CTA slots); S = CTAs - g, U = 2g - CTAs
 *   when CTAs > g, else S = 0, U = CTAs.
 *
 * FineReg (seed 000 Sections IV-V): active CTAs are the baseline count with
 *   the ACRF as register file.  A pending CTA keeps its live registers in the
 *   PCRF: w * ceil(L r) entries of one warp register (128 B; each entry also
 *   carries a tag, counted in the overhead), so pending <= floor(E / that);
 *   it also keeps its shared memory, and FineReg tracks at most 128 CTAs and
 *   512 warps.  Resident = active + pending.
 *
 * Virtual Thread (seed 000 Section VI.A): CTAs until the register file or
 *   shared memory is full, ignoring thread and CTA slots; as many as the slots
 *   allow are active, the rest pending.  Reg+DRAM adds N pending CTAs whose
 *   context lives in DRAM (N = the VT count by default: Figure 4 runs twice
 *   the CTAs).  VT+RegMutex: each thread gets a base set of
 *   max(1, ceil(B r)) registers; a shared pool holding one CTA's extended sets
 *   (w warps x (r - base)) guarantees a whole CTA can always proceed (barriers);
 *   CTAs = floor((R - pool) / base set per CTA), then VT as above.
 *
 * RFC and LTRF (seed 004 Table 2 configuration K) and ideal (8x capacity,
 *   1x latency): the baseline count on a main register file K times larger
 *   (latency_x, when set, replaces the configuration's latency); LTRF's
 *   active-warp pool bounds the warps that may issue.
 *
 * Bank stealing and HI-RF keep the baseline count.
 *
 * All counts are per SM; registers are 32-bit; nothing here does I/O.
 */
#include "occupancy.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "overhead.h"

#define NOLIMIT INT_MAX
#define FINEREG_MAX_CTAS 128   /* seed 000 V.F */
#define FINEREG_MAX_WARPS 512

const rf_param rf_occ_input_params[] = {
    {"regs", RF_PT_INT, offsetof(rf_occ_input, regs), 0, 65536, 0, NULL, "registers",
     "registers per thread (0 = a kernel's own count, which needs a kernel)"},
    {"threads", RF_PT_INT, offsetof(rf_occ_input, threads), 1, 65536, 0, NULL, "threads",
     "threads per CTA"},
    {"smem", RF_PT_INT, offsetof(rf_occ_input, smem), 0, 1000000000, 0, NULL, "bytes",
     "shared memory per CTA, static plus dynamic"},
};
const size_t rf_occ_input_nparams = sizeof rf_occ_input_params / sizeof rf_occ_input_params[0];

const char *rf_occ_limiter_name(int limiter)
{
    static const char *const names[] = {"regs", "smem", "threads", "ctas", "grid"};
    return limiter >= 0 && limiter <= RF_LIMIT_GRID ? names[limiter] : "?";
}

static long round_up(long x, long unit)
{
    return unit > 0 ? (x + unit - 1) / unit * unit : x;
}

static int imin(int a, int b)
{
    return a < b ? a : b;
}

/* Registers allocated to `warps` warps at `regs` registers per thread. */
static long alloc_regs(const rf_gpu *gpu, int regs, int warps)
{
    if (gpu->reg_alloc_gran == RF_REG_GRAN_CTA)
        return round_up((long)regs * warps * gpu->warp_size, gpu->reg_alloc_unit);
    return warps * round_up((long)regs * gpu->warp_size, gpu->reg_alloc_unit);
}

/* CTAs that rf_regs registers hold. */
static int ctas_by_regs(const rf_gpu *gpu, long rf_regs, int regs, int warps)
{
    if (regs <= 0)
        return NOLIMIT;
    if (gpu->reg_alloc_gran == RF_REG_GRAN_CTA)
        return (int)(rf_regs / alloc_regs(gpu, regs, warps));
    long rpw = round_up((long)regs * gpu->warp_size, gpu->reg_alloc_unit);
    long w = rf_regs / rpw;
    w -= w % gpu->warp_alloc_gran;
    return (int)(w / warps);
}

typedef struct limits {
    int regs, smem, threads, ctas;
} limits;

static limits base_limits(const rf_gpu *gpu, long rf_regs, const rf_occ_input *in, int warps)
{
    limits l;
    l.regs = ctas_by_regs(gpu, rf_regs, in->regs, warps);
    long smem = (long)in->smem + gpu->smem_reserved_per_cta;
    l.smem = smem > 0 ? (int)(gpu->smem_per_sm / round_up(smem, gpu->smem_alloc_unit)) : NOLIMIT;
    l.threads = imin(gpu->max_threads_per_sm / (warps * gpu->warp_size),
                     gpu->max_warps_per_sm / warps);
    l.ctas = gpu->max_ctas_per_sm;
    return l;
}

/* Smallest of the given limits (NOLIMIT entries skipped by value). */
static int bind(const limits *l, bool use_threads, bool use_ctas, int *limiter)
{
    int v = l->regs;
    *limiter = RF_LIMIT_REGS;
    if (l->smem < v) {
        v = l->smem;
        *limiter = RF_LIMIT_SMEM;
    }
    if (use_threads && l->threads < v) {
        v = l->threads;
        *limiter = RF_LIMIT_THREADS;
    }
    if (use_ctas && l->ctas < v) {
        v = l->ctas;
        *limiter = RF_LIMIT_CTAS;
    }
    return v;
}

void rf_occ_finereg_split(const rf_gpu *gpu, const rf_design *d, double *acrf_bytes,
                          double *pcrf_bytes)
{
    double rf = (double)gpu->regs_per_sm * 4;
    *pcrf_bytes = d->pcrf_kb > 0 ? d->pcrf_kb * 1024 : rf / 2;
    *acrf_bytes = d->acrf_kb > 0 ? d->acrf_kb * 1024 : rf - *pcrf_bytes;
}

static int check_input(const rf_gpu *gpu, const rf_occ_input *in, rf_err *err)
{
    if (in->regs < 1)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "regs",
                          "%d registers per thread; a kernel uses at least 1", in->regs);
    if (in->regs > gpu->max_regs_per_thread)
        return rf_err_set(err, RF_ELIMIT, NULL, 0, 0, "regs",
                          "%d registers per thread exceed the %d that %s allows", in->regs,
                          gpu->max_regs_per_thread, gpu->name);
    if (in->threads < 1)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "threads",
                          "%d threads per CTA; a CTA has at least 1", in->threads);
    if (in->threads > gpu->max_threads_per_cta)
        return rf_err_set(err, RF_ELIMIT, NULL, 0, 0, "threads",
                          "%d threads per CTA exceed the %d that %s allows", in->threads,
                          gpu->max_threads_per_cta, gpu->name);
    if (in->smem < 0)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "smem",
                          "%d bytes of shared memory is negative", in->smem);
    if (in->smem > gpu->max_smem_per_cta)
        return rf_err_set(err, RF_ELIMIT, NULL, 0, 0, "smem",
                          "%d bytes of shared memory per CTA exceed the %d that %s allows",
                          in->smem, gpu->max_smem_per_cta, gpu->name);
    long smem = round_up((long)in->smem + gpu->smem_reserved_per_cta, gpu->smem_alloc_unit);
    if (smem > gpu->smem_per_sm)
        return rf_err_set(err, RF_ELIMIT, NULL, 0, 0, "smem",
                          "%d bytes (%ld allocated) do not fit the %d bytes of an SM of %s",
                          in->smem, smem, gpu->smem_per_sm, gpu->name);
    /* The hardware check of cuda_occupancy.h: registers of a CTA whose warps
     * are rounded up to the register-file sub-partitions. */
    int warps = (in->threads + gpu->warp_size - 1) / gpu->warp_size;
    long cta_regs = alloc_regs(gpu, in->regs, (int)round_up(warps, gpu->warp_alloc_gran));
    if (cta_regs > gpu->max_regs_per_cta)
        return rf_err_set(err, RF_ELIMIT, NULL, 0, 0, "regs",
                          "a CTA of %d threads at %d registers needs %ld registers; %s allows "
                          "%d per CTA",
                          in->threads, in->regs, cta_regs, gpu->name, gpu->max_regs_per_cta);
    if (ctas_by_regs(gpu, gpu->regs_per_sm, in->regs, warps) < 1)
        return rf_err_set(err, RF_ELIMIT, NULL, 0, 0, "regs",
                          "a CTA of %d threads at %d registers does not fit the %d registers "
                          "of an SM of %s",
                          in->threads, in->regs, gpu->regs_per_sm, gpu->name);
    return RF_OK;
}

static void set_limits(rf_occ *o, const limits *l)
{
    o->lim_regs = l->regs == NOLIMIT ? -1 : l->regs;
    o->lim_smem = l->smem == NOLIMIT ? -1 : l->smem;
    o->lim_threads = l->threads;
    o->lim_ctas = l->ctas;
}

/* Register Sharing, seed 003 Eq. 4 kept within [g, 2g]. */
static int sharing_m(double R, double R_tb, int g, double F)
{
    if (F <= 0)
        return g;
    double t = 1 - F;
    double m = (R - g * R_tb * F) / (t * R_tb);
    long M = (long)floor(m + 1e-9);
    if (M < g)
        M = g;
    if (M > 2L * g)
        M = 2L * g;
    return (int)M;
}

static int vt_split(const limits *l, rf_occ *o)
{
    int lim_res;
    int resident = bind(l, false, false, &lim_res);
    int active = imin(resident, imin(l->threads, l->ctas));
    o->limiter = lim_res;
    o->active_ctas = active;
    o->pending_ctas = resident - active;
    return resident;
}

int rf_occ_compute(const rf_gpu *gpu, const rf_design *d, const rf_occ_input *in, rf_occ *o,
                   rf_err *err)
{
    memset(o, 0, sizeof *o);
    int rc = check_input(gpu, in, err);
    if (rc)
        return rc;
    int w = (in->threads + gpu->warp_size - 1) / gpu->warp_size;
    o->warps_per_cta = w;
    o->regs_per_cta = (int)alloc_regs(gpu, in->regs, w);
    o->rf_regs = gpu->regs_per_sm;
    o->rf_capacity_x = o->rf_latency_x = o->rf_area_x = o->rf_power_x = 1;
    limits l = base_limits(gpu, gpu->regs_per_sm, in, w);
    int ctas;

    switch (d->kind) {
    case RF_DESIGN_SHARING: {
        int g = l.regs;
        int M = sharing_m(gpu->regs_per_sm, o->regs_per_cta, g, d->sharing);
        limits ls = l;
        ls.regs = M;
        ctas = bind(&ls, true, true, &o->limiter);
        o->sharing_m = M;
        o->shared_pairs = ctas > g ? ctas - g : 0;
        o->unshared = ctas - 2 * o->shared_pairs;
        o->active_ctas = ctas;
        set_limits(o, &l); /* lim_regs = g, registers without sharing */
        break;
    }
    case RF_DESIGN_FINEREG: {
        double acrf, pcrf;
        rf_occ_finereg_split(gpu, d, &acrf, &pcrf);
        if (acrf < 4)
            return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "acrf_kb",
                              "a PCRF of %g KB leaves no ACRF in the %d KB register file",
                              pcrf / 1024, gpu->regs_per_sm * 4 / 1024);
        o->rf_regs = (int)(acrf / 4);
        limits la = base_limits(gpu, o->rf_regs, in, w);
        int active = bind(&la, true, true, &o->limiter);
        if (active < 1)
            return rf_err_set(err, RF_ELIMIT, NULL, 0, 0, "acrf_kb",
                              "a CTA (%d registers) does not fit an ACRF of %g KB",
                              o->regs_per_cta, acrf / 1024);
        o->pcrf_entries = (int)(pcrf / (gpu->warp_size * 4.0));
        int live = (int)ceil(d->live_frac * in->regs - 1e-9);
        o->pcrf_entries_per_cta = w * live;
        int by_pcrf = o->pcrf_entries_per_cta ? o->pcrf_entries / o->pcrf_entries_per_cta
                                              : NOLIMIT;
        int by_smem = la.smem == NOLIMIT ? NOLIMIT : la.smem - active;
        int track_ctas = FINEREG_MAX_CTAS - active;
        int track_warps = FINEREG_MAX_WARPS / w - active;
        int pending = by_pcrf;
        int lim = RF_LIMIT_REGS;
        if (by_smem < pending) {
            pending = by_smem;
            lim = RF_LIMIT_SMEM;
        }
        if (track_ctas < pending) {
            pending = track_ctas;
            lim = RF_LIMIT_CTAS;
        }
        if (track_warps < pending) {
            pending = track_warps;
            lim = RF_LIMIT_THREADS;
        }
        if (pending < 0)
            pending = 0;
        o->limiter = lim;
        o->active_ctas = active;
        o->pending_ctas = pending;
        ctas = active + pending;
        set_limits(o, &la);
        break;
    }
    case RF_DESIGN_VT:
    case RF_DESIGN_REGDRAM: {
        ctas = vt_split(&l, o);
        if (d->kind == RF_DESIGN_REGDRAM) {
            int n = d->dram_ctas < 0 ? ctas : d->dram_ctas;
            o->pending_ctas += n;
            ctas += n;
        }
        set_limits(o, &l);
        break;
    }
    case RF_DESIGN_REGMUTEX: {
        int base = (int)ceil(d->brs_frac * in->regs - 1e-9);
        if (base < 1)
            base = 1;
        o->brs_regs = base;
        o->srp_regs = base < in->regs ? (int)alloc_regs(gpu, in->regs - base, w) : 0;
        long avail = (long)gpu->regs_per_sm - o->srp_regs;
        limits lm = l;
        lm.regs = avail > 0 ? ctas_by_regs(gpu, avail, base, w) : 0;
        if (lm.regs < 1)
            return rf_err_set(err, RF_ELIMIT, NULL, 0, 0, "brs_frac",
                              "a %d-register pool and one CTA's base sets exceed the %d "
                              "registers of %s",
                              o->srp_regs, gpu->regs_per_sm, gpu->name);
        ctas = vt_split(&lm, o);
        set_limits(o, &lm);
        break;
    }
    case RF_DESIGN_RFC:
    case RF_DESIGN_LTRF:
    case RF_DESIGN_IDEAL: {
        const rf_rf_tech *tech =
            d->kind != RF_DESIGN_IDEAL ? rf_design_rf_tech(d->rf_config) : rf_design_ideal_tech();
        if (!tech)
            return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "rf_config",
                              "%d is not a configuration of seed 004 Table 2 (1..7)",
                              d->rf_config);
        o->rf_capacity_x = tech->capacity_x;
        o->rf_latency_x = d->kind != RF_DESIGN_IDEAL ? rf_design_latency_x(d) : tech->latency_x;
        o->rf_area_x = tech->area_x;
        o->rf_power_x = tech->power_x;
        o->rf_regs = (int)lround(gpu->regs_per_sm * tech->capacity_x);
        limits ll = base_limits(gpu, o->rf_regs, in, w);
        ctas = bind(&ll, true, true, &o->limiter);
        o->active_ctas = ctas;
        set_limits(o, &ll);
        break;
    }
    case RF_DESIGN_HIRF:
        o->rf_area_x = 0.945; /* seed 002 Table 1: hierarchical RF area */
        /* fall through */
    default:
        ctas = bind(&l, true, true, &o->limiter);
        o->active_ctas = ctas;
        set_limits(o, &l);
        break;
    }

    o->ctas_per_sm = ctas;
    o->warps_per_sm = ctas * w;
    o->active_warps = o->active_ctas * w;
    int pool = rf_design_pool(d, gpu);
    if (d->kind == RF_DESIGN_LTRF && o->active_warps > pool)
        o->active_warps = pool;
    o->occupancy = (double)o->warps_per_sm / gpu->max_warps_per_sm;

    rf_overhead ov;
    rf_overhead_compute(gpu, d, &ov);
    o->overhead_bits = ov.bits;
    return RF_OK;
}

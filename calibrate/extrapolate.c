/* extrapolate.c - whole-kernel estimate at one design point.
 *
 * 1. Occupancy of the design (analytic/occupancy.c): resident and active
 *    CTAs per SM.  The occupancy-raising designs (VT, Reg+DRAM, FineReg,
 *    VT+RegMutex, Register Sharing) issue from the effective CTAs of
 *    analytic/switching.c (switch costs, the pending pool, Reg+DRAM's
 *    transfers in the DRAM bytes, RegMutex's pool, a sharing pair as one
 *    place), which also predicts their counters (rf_extrap_sw below).
 * 2. The busiest SM runs N = ceil(CTAs / SMs) CTAs (SMs = the GPU's, or 1 to
 *    mirror the sampler's single-SM full run); analytic/ipc.c sums its
 *    waves (full waves of the active CTAs, then the partial last wave) with
 *    the calibrated parameters, or the defaults when uncalibrated.  When a
 *    calibration measured operand counts, they replace the static ones.
 *    IPC = N I_cta / cycles.  A design of the banked family at the prior
 *    parameters (other banks or collectors, stealing) takes the model's
 *    ratio to the GPU's own file damped (bank_response below).
 *    A calibration also carries `level`: at the
 *    default design, the whole-grid IPC of the CTA population model
 *    (analytic/waves.c, with the fitted scheduler share) over the wave
 *    formula's; calibrated IPCs are multiplied by it.
 * 3. Shrinkage (calibrated only).  The calibration's correction at the
 *    design point, c = log(IPC_cal / IPC_unc) (IPC_unc: the estimate
 *    without a record), is applied as w c:
 *        IPC = IPC_unc exp(w c) = IPC_unc (IPC_cal / IPC_unc)^w,
 *    cycles = instructions / IPC.  w is the record's `shrink`.  Window
 *    calibrations (calibrate/calibrate.c shrink_weight) weigh two
 *    estimates of the log IPC by their error variances: the uncalibrated
 *    model, whose error is taken as a prior of width D on the true
 *    correction, and the calibrated level, measured with noise variance V
 *    (the windows' noise on the level they set together, each window's
 *    noise as the fit takes it, larger when the windows scatter more than
 *    that about the fit; rf_calib_window_noise);
 *        w = D^2 / (D^2 + V)                  (rf_extrap_shrink_prior).
 *    Windows short against a CTA lifetime (a short share of the grid)
 *    have a large V, so much of their correction is given up; four long
 *    windows (V near 0.06^2 / 4 = 0.0009, D = 0.07) keep 84% of it.  Assumption: the correction is
 *    mostly one level over the designs (the windows' noise is on the
 *    level), so one weight serves every design point, HI-RF and the
 *    occupancy designs included.  Records without the weight (older ones,
 *    the full-run fits of calibrate/pffit.c and calibrate/rcfit.c) have
 *    w = 1; the register-cache windows' records weigh their level apart
 *    (level_apart): the level, from the CTA population model, and the
 *    rest of the correction, from the windows' ratios, have noises of
 *    their own, so
 *        IPC = IPC_unc level^wl exp(w c'),  c' = c - ln level,
 *    wl the level's own weight (the record's level_shrink: its prior
 *    width's share against the variance the baseline windows give it,
 *    calibrate/pffit.c) and w = D^2 / (D^2 + N), N the ratios'
 *    noise (calibrate/pffit.c rf_pffit_shrink), with the prior width D.
 *    HI-RF ratio correction (window records with HI-RF windows, after the
 *    shrinkage).  The plan's HI-RF windows run the level window's CTAs with
 *    its warming and seed, so their log ratio to it measures what the
 *    register cache costs with a noise N = RF_EXTRAP_HIRF_RATIO_NOISE well
 *    under a window's own; the fit follows it little (its register-cache
 *    terms held by their priors).  The record keeps, per window index, the
 *    disagreement d of that ratio with the shrunk estimate's at the
 *    window's design (calibrate/calibrate.c hirf_ratio_check), and w_r =
 *    D_r^2 / (D_r^2 + N^2), D_r the estimate's rms error on the ratio (a
 *    normal prior on the true error e; d = e + noise, so w_r d is e's
 *    posterior mean).  A HI-RF design takes the d of its index family,
 *    the concat window's for the concatenated index under any assignment,
 *    the TEA window's for TEA, the fully associative window's for the
 *    fully associative cache (in a record without one, the mean of the
 *    other two, not one alone: its ratio lies between theirs), none when
 *    the plan ran no such window:
 *        IPC = IPC_w exp(w_r d)      (rf_extrap_hirf_ratio),
 *    IPC_w the shrunk estimate.  Assumption: the error on the ratio is the
 *    index family's, shared by its assignments.  Records without w_r (older
 *    ones, other GPUs, the full-run and register-cache fits) have none.
 * 4. Prediction interval (calibrated only).  The relative error variance
 *        v = SIGMA_PRED^2 + L + w^2 g^T C g / IPC_cal^2 + ((1 - w) c)^2
 *    with L the error of the calibrated level, g = d IPC_cal / d theta
 *    over the fitted parameters (forward differences) and C their
 *    covariance (the design response's uncertainty, scaled by the weight
 *    as the correction is), ((1 - w) c)^2 the part of the correction the
 *    shrinkage gave up (the estimate is that far from the calibrated one),
 *    and SIGMA_PRED the calibrated model's error that none of these
 *    explains.  Window calibrations (records with win_bias, win_se):
 *        L = b^2 + se^2,
 *    b the windows' mean relative residual about the fitted model (how far
 *    the fit's level stays from the level the windows read: the priors
 *    keep the rate and the parameters near their defaults) and se its
 *    standard error (the windows' scatter about that mean over sqrt(n)).
 *    Their level is the windows' at the default design, so L is its
 *    whole error, and with the part the shrinkage gave up it is taken at
 *    most the uncalibrated model's own, sigma_u^2 (SIGMA_UNC for the whole
 *    grid on one SM, SIGMA_UNC_SHARE for an SM's share of it; the HI-RF
 *    designs' own, SIGMA_UNC_HIRF and SIGMA_UNC_HIRF_SHARE):
 *        L + ((1 - w) c)^2  ->  min(b^2 + se^2 + ((1 - w) c)^2, sigma_u^2):
 *    windows that read the level that far from the fit are noisy ones (a
 *    short share's few short windows), whose weight w is small, so the
 *    estimate stays near the uncalibrated one and errs as it does.  The
 *    parameters count through the design's IPC relative to the default
 *    design's, IPC0:
 *        g = d IPC_cal / d theta - IPC_cal d ln IPC0 / d theta.
 *    (A parameter the windows leave at its prior, conflict_scale or
 *    coll_base, moves every design's IPC nearly alike; the rate the fit
 *    sets with the windows takes that common part back, so it is no
 *    uncertainty of the estimate beyond L.  At the default design g = 0.)
 *    Other records (register-cache windows, older records): L = s^2 / n,
 *    s the windows' rms residual over n windows; the register-cache
 *    records (calibrate/pffit.c) add level_var, the level's own variance
 *    as their baseline windows measure it, and, with the level weighed
 *    apart, ((1 - wl) ln level)^2 beside the ((1 - w) c')^2 of the rest,
 *    the two together at most sigma_u^2 as above: a level the estimate
 *    takes little of (wl 0: none) leaves the estimate at the uncalibrated
 *    model's level, whose error sigma_u measures, however far the
 *    population model's level lies from it.
 *    Window records with HI-RF windows add the ratio check's level_var
 *    (calibrate/calibrate.c: the estimate's error on the HI-RF-to-baseline
 *    ratio); at a HI-RF design with the ratio correction, that error is
 *    the correction's own instead:
 *        ((1 - w_r) d)^2 + w_r^2 N^2,
 *    the part of d the weight gave up (the estimate is that far from the
 *    windows' ratio) and the windows' noise carried by the part kept
 *    (the error of w_r d about e is (1 - w_r) e - w_r noise; d stands for
 *    e, as c does for the correction above).
 *    95% interval
 *    IPC (1 +- 1.96 sqrt(v)) about the shrunk estimate; cycles =
 *    instructions / IPC at its ends.  A record without samples
 *    (calibrate/plan.c: too short a kernel) gives an uncalibrated
 *    estimate with the uncalibrated model's interval,
 *    IPC (1 +- 1.96 sqrt(sigma_u^2 + level_var)).
 * 5. Area of the design's register file per SM (analytic/area.c).
 * 6. Energy (analytic/energy.c, rf_energy_of_events: the events-to-accesses
 *    mapping `simulate` uses too) of all SMs in use, from the events of the
 *    grid: operand reads and results per instruction (plus a parking write
 *    and a read-back per stolen write), one crossbar transfer per read,
 *    leakage of min(SMs, CTAs) register files over the kernel's cycles.
 *    HI-RF (analytic/rccollide.c): reads hit at 1 - read miss, only the
 *    misses cross the crossbar, every result is a cache write and the
 *    conflicting ones a write-back; rf_rcc_apply adds the NVM write-back
 *    stall and the NVM bank time to the IPC model.
 *    RFC (analytic/prefetch.c): reads hit at the reuse model's rfc_hit,
 *    misses are allocated, results write back at rfc_wb.
 *    LTRF: every operand is in the partition; PREFETCH and activation
 *    refetches are fills, pool exits and dirty evictions at PREFETCHes are
 *    write-backs, and the results that land after the warp left their
 *    register's interval (write race) are main-file writes.
 */
#include "extrapolate.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* SIGMA_UNC: the uncalibrated model's rms relative error on the nine
 * bundled kernels (tuning set of tests/bench_validation.c, fermi-gtx480,
 * whole grid on one SM, 63 design points: 4.44%).  SIGMA_PRED: the
 * calibrated estimate's error beyond the level's, the parameters'
 * covariance and the shrinkage, the least (in steps of 0.001) with which
 * 95% intervals hold at least 95% of the full runs of the nine kernels
 * over calibration seeds 1-4 at --sms 1 (252 points: 96.0%; 0.002 holds
 * 94.4%; the errors are mostly a kernel's bias at unsampled designs, not
 * noise).  SIGMA_UNC_SHARE: the same on the other run kind, the busiest
 * SM's share of a grid spread over the GPU's SMs (the default run, 15 SMs,
 * whose shares hold fewer CTAs of a wave and whose errors are not those of
 * the whole grid), where most estimates have no windows and sigma_u is
 * their whole interval: the least (in steps of 0.001) whose 95% intervals
 * hold at least 95% of the nine's full runs of sampler seeds 1-8, each run
 * estimated with its own draws and its own record (estimate and calibrate
 * --seed S; tests/bench_validation.c RF_BENCH_RUNS): 504 points, 95.2%
 * (0.036 holds 94.8%).  A share of a few CTAs is another run under each
 * seed, and the model's error moves with the run.  SIGMA_UNC_HIRF and
 * SIGMA_UNC_HIRF_SHARE: the same rms for the HI-RF designs, whose model
 * (analytic/rccollide.c) errs apart from the banked file's: the nine on
 * volta-hirf, concat index with the base, CAC and Worst assignments, TEA
 * and fully associative (45 points), whole grid on one SM 5.05%, the
 * busiest SM's share of the default run 5.80% (the baseline on the same
 * runs: 3.98% and 3.94%). */
#define SIGMA_UNC 0.045
#define SIGMA_UNC_SHARE 0.037
#define SIGMA_UNC_HIRF 0.0505
#define SIGMA_UNC_HIRF_SHARE 0.058
#define SIGMA_PRED 0.003
#define Z95 1.959963984540054
#define RF_EXTRAP_BANK_RESPONSE 0.88

double rf_extrap_shrink_weight(const double *c, int m, double s, int n)
{
    double c2 = 0;
    for (int k = 0; k < m; k++)
        c2 += c[k] * c[k] / m;
    double noise = n > 0 ? s * s / n : s * s;
    double d2 = c2 > noise ? c2 - noise : 0.0;
    if (!(d2 + noise > 0))
        return 1.0;     /* no correction and no noise: nothing to shrink */
    return d2 / (d2 + noise);
}

double rf_extrap_shrink_prior(double d, double v)
{
    double d2 = d * d, nv = v > 0 ? v : 0.0;
    if (!(d2 + nv > 0))
        return 1.0;     /* no prior width and no noise: nothing to weigh */
    return d2 / (d2 + nv);
}

double rf_extrap_sigma_unc(const rf_gpu *gpu, const rf_design *d, const rf_shape *shape)
{
    long sms = shape->sms > 0 ? shape->sms : (gpu->sms > 0 ? gpu->sms : 1);
    if (d->kind == RF_DESIGN_HIRF)
        return sms > 1 ? SIGMA_UNC_HIRF_SHARE : SIGMA_UNC_HIRF;
    return sms > 1 ? SIGMA_UNC_SHARE : SIGMA_UNC;
}

double rf_extrap_rel_var_win(double bias, double se, double w, double c, double vfit_rel,
                             double sigma_unc)
{
    double gave = (1.0 - w) * c;
    double level = bias * bias + se * se + gave * gave;
    if (level > sigma_unc * sigma_unc)
        level = sigma_unc * sigma_unc;
    return SIGMA_PRED * SIGMA_PRED + level + w * w * vfit_rel;
}

double rf_extrap_rel_var(double s, int n, double w, double c, double vfit_rel)
{
    double level = n > 0 ? s * s / n : s * s;
    double gave = (1.0 - w) * c;
    return SIGMA_PRED * SIGMA_PRED + level + w * w * vfit_rel + gave * gave;
}

bool rf_extrap_hirf_ratio(const rf_calib *cal, const rf_design *d, double *corr, double *var)
{
    *corr = *var = 0;
    if (!cal || d->kind != RF_DESIGN_HIRF || !(cal->hirf_ratio_w > 0))
        return false;
    double df = 0;
    int n = 0;
    if (d->index >= 0 && d->index < RF_NRCINDEX && cal->hirf_ratio_has[d->index]) {
        df = cal->hirf_ratio_d[d->index];
        n = 1;
    } else if (d->index == RF_RC_FULL) {
        /* A record without a fully associative window: between the
         * others' (not one alone). */
        for (int i = RF_RC_CONCAT; i <= RF_RC_TEA; i++)
            if (cal->hirf_ratio_has[i]) {
                df += cal->hirf_ratio_d[i];
                n++;
            }
        if (n < 2)
            return false;
        df /= n;
    }
    if (n == 0)
        return false;
    double w = cal->hirf_ratio_w < 1 ? cal->hirf_ratio_w : 1.0;
    double gave = (1.0 - w) * df, noise = w * RF_EXTRAP_HIRF_RATIO_NOISE;
    *corr = w * df;
    *var = gave * gave + noise * noise;
    return true;
}

long rf_extrap_ctas_per_sm(const rf_gpu *gpu, long ctas, int sms)
{
    long n = sms > 0 ? sms : (gpu->sms > 0 ? gpu->sms : 1);
    return (ctas + n - 1) / n;
}

int rf_extrap_pool_per_sched(const rf_gpu *gpu, const rf_design *d)
{
    int policy = d->scheduler > 0 ? d->scheduler - 1 : gpu->sched_policy;
    if (policy != RF_SCHED_TWO_LEVEL)
        return 0;
    int sc = gpu->schedulers > 0 ? gpu->schedulers : 1;
    return (rf_design_pool(d, gpu) + sc - 1) / sc;
}

void rf_extrap_machine(const rf_gpu *gpu, const rf_design *d, const rf_occ *occ,
                       rf_ipc_machine *m)
{
    memset(m, 0, sizeof *m);
    double ws = gpu->warp_size > 0 ? gpu->warp_size : 32;
    m->warps = occ->active_warps > 0 ? occ->active_warps : occ->warps_per_sm;
    /* (callers scale by the kernel's active fraction) */
    m->schedulers = gpu->schedulers > 0 ? gpu->schedulers : 1;
    m->issue_width = gpu->issue_width > 0 ? gpu->issue_width : 1;
    m->banks = d->banks > 0 ? d->banks : gpu->rf_banks;
    m->collectors = d->collectors > 0 ? d->collectors : gpu->collectors;
    rf_gpu_coll_split(m->collectors, m->coll_split);
    m->read_steal = d->kind == RF_DESIGN_STEALING && d->read_steal;
    m->write_steal = d->kind == RF_DESIGN_STEALING && d->write_steal;
    /* Pipes as the sampler builds them (sampler/exec.c): one ALU pipe per
     * scheduler, alu_lanes / schedulers wide; one SFU and one LD/ST pipe. */
    int alu_lanes = gpu->alu_lanes > 0 ? gpu->alu_lanes : (int)ws;
    m->alu_pipes = m->schedulers;
    int per_pipe = (alu_lanes + m->alu_pipes - 1) / m->alu_pipes;
    m->alu_ii = ceil(ws / per_pipe);
    m->sfu_ii = ceil(ws / (gpu->sfu_lanes > 0 ? gpu->sfu_lanes : ws));
    m->ldst_ii = ceil(ws / (gpu->ldst_lanes > 0 ? gpu->ldst_lanes : ws));
    m->dram_bytes_per_cycle = gpu->dram_bytes_per_cycle;
    m->rf_latency = occ->rf_latency_x > 0 ? occ->rf_latency_x : 1.0;
    int policy = d->scheduler > 0 ? d->scheduler - 1 : gpu->sched_policy;
    m->oldest_first = policy == RF_SCHED_GTO;
    m->pool = (double)m->schedulers * rf_extrap_pool_per_sched(gpu, d);
}

/* The calibrated parameters and operand counts over k_used (a copy of the
 * kernel figures). */
static void setup_cal(const rf_calib *cal, rf_ipc_kernel *k_used, rf_ipc_params *p_used)
{
    if (cal) {
        *p_used = cal->params;
        if (cal->has_meas && cal->meas_reads > 0) {
            /* Keep the histogram's shape, rescaled to the measured mean. */
            k_used->reads = cal->meas_reads;
            k_used->writes = cal->meas_writes;
        }
        if (cal->meas_live > 0)
            k_used->live_frac = cal->meas_live;   /* the samples' own count */
    } else {
        rf_ipc_params_default(p_used);
    }
}

void rf_extrap_setup(const rf_ipc_kernel *kc, const rf_calib *cal, rf_ipc_kernel *k_used,
                     rf_ipc_params *p_used)
{
    *k_used = *kc;
    setup_cal(cal, k_used, p_used);
}

/* Copy of the kernel figures an estimate may change.  The per-register
 * write counts (k->rcw, 4 KB) are read by HI-RF's model only, so other
 * designs get them marked unknown instead of copied (a copy per design
 * point is a visible share of batch time). */
static void kernel_for(const rf_ipc_kernel *kc, bool need_rcw, rf_ipc_kernel *k)
{
    if (need_rcw) {
        *k = *kc;
        return;
    }
    size_t head = offsetof(rf_ipc_kernel, rcw), tail = head + sizeof kc->rcw;
    memcpy(k, kc, head);
    memcpy((char *)k + tail, (const char *)kc + tail, sizeof *k - tail);
    memset(&k->rcw, 0, offsetof(rf_rcc_writes, stat));
    k->rcw.func = NULL;
}

/* The pool's places that issue: the sampler binds a warp to one
 * scheduler's pool, so where a scheduler's resident warps have ended and
 * wait for their CTAs' slots its places stand empty (analytic/kchar.c,
 * pool balance); the pool limit (analytic/ipc.c) takes W_pool times the
 * kernel's balance at the design's resident CTAs.  Source: bench_ltrf_calib,
 * the nine at 8 active warps, uncalibrated mean |error| 4.10% with it,
 * 7.51% without. */
void rf_extrap_pool_balance(const rf_ipc_kernel *k, const rf_occ *occ, rf_ipc_machine *m)
{
    if (!(m->pool > 0) || m->schedulers < 1)
        return;
    int resident = occ->active_ctas > 0 ? occ->active_ctas : occ->ctas_per_sm;
    m->pool *= rf_ipc_pool_eff(k, m->pool / m->schedulers, resident);
}

/* RFC and LTRF: operands come from the register cache (1-cycle access), the
 * PREFETCH, activation and miss stalls of analytic/prefetch.c join the
 * design terms, and under a two-level scheduler the active pool (design
 * active_warps) bounds the warps that issue (k->active_frac scaled, below).
 * LTRF: only the cache's share of the results (the write race,
 * analytic/prefetch.c) loads the cache's banks, so k->writes is scaled by
 * it, and its bank queue takes ltrf_conflict on top of conflict_scale
 * (design_params, in rf_extrap_estimate).  RFC: only the reads that hit
 * load the cache's banks (a miss reads its main bank straight into the
 * collector, sampler/ltrf.c), so k->reads is scaled by the hit rate; the
 * main banks' own queue is left out (128 banks on #3, #5-#7).  Source:
 * bench_ltrf_calib, the nine, RFC #3's predicted speedup over the
 * baseline at the 32-warp pool, mean -3.84% -> -1.87%. */
/* The register-cache figures of the kernel's code for design d (no
 * parameter enters them). */
static int pf_kernel(const rf_gpu *gpu, const rf_design *d, const rf_func *f,
                     const rf_profile *prof, int wpc, int jobs, rf_pf_kernel *pk, rf_err *err)
{
    if (!f || !prof)
        return rf_err_set(err, RF_EUSAGE, NULL, 0, 0, "design",
                          "%s needs the kernel's code for its register-cache model",
                          rf_design_name(d->kind));
    bool plus = d->kind == RF_DESIGN_LTRF && d->plus;
    int rc = rf_pf_characterise(f, prof, d->interval_regs, plus, pk, err);
    if (rc == 0 && d->kind == RF_DESIGN_RFC)
        rc = rf_pf_rfc_walks(gpu, d, f, prof, wpc, jobs, pk, err);
    if (rc == 0 && d->kind == RF_DESIGN_LTRF)
        rf_pf_cta_warps(pk, wpc);
    return rc < 0 ? rc : RF_OK;
}

void rf_extrap_rfc_warps(double pool, double warps, double busy, double mem, double dram_cap,
                         bool two_level, double *pool_in, double *sharing)
{
    double r = busy + mem > 0 ? busy / (busy + mem) : 1.0;
    if (warps > 0 && dram_cap * busy < fmin(pool, warps * r))
        r = dram_cap * busy / warps;
    double turns = two_level && r > 0 ? pool / r : pool;
    *sharing = fmin(turns, warps);
    *pool_in = two_level ? fmin(pool, warps * r) : 0.0;
}

/* A CTA's start or end in rf_extrap_resident_shares' schedule: its time
 * and the change it brings to the resident count and the issue rate. */
typedef struct res_event {
    double t, rate;
    int dn;
} res_event;

static int res_event_cmp(const void *pa, const void *pb)
{
    const res_event *a = pa, *b = pb;
    return a->t < b->t ? -1 : a->t > b->t ? 1 : a->dn - b->dn;
}

bool rf_extrap_resident_shares(const rf_ipc_kernel *k, long ctas, int slots, double *share)
{
    long known = k->nlone;
    if (k->crit_ctas != ctas || known <= 0 || known > RF_IPC_NLONE || known > ctas || slots < 1)
        return false;
    int ns = slots < known ? slots : (int)known;
    double free_at[RF_IPC_NLONE], mean_ins = 0;
    res_event ev[2 * RF_IPC_NLONE];
    for (long j = 0; j < known; j++)
        mean_ins += k->lone_insts[j] > 0 ? k->lone_insts[j] : 0;
    mean_ins /= (double)known;
    for (int s = 0; s < ns; s++)
        free_at[s] = 0;
    for (long j = 0; j < known; j++) {
        int s = 0;
        for (int q = 1; q < ns; q++)
            if (free_at[q] < free_at[s])
                s = q;
        double lone = k->lone[j] > 0 ? k->lone[j] : 0;
        double ins = k->lone_insts[j] > 0 ? k->lone_insts[j] : mean_ins;
        double rate = lone > 0 ? ins / lone : 0;
        ev[2 * j] = (res_event){free_at[s], rate, 1};
        free_at[s] += lone;
        ev[2 * j + 1] = (res_event){free_at[s], -rate, -1};
    }
    /* Between consecutive events: n CTAs resident, issuing at rate r. */
    qsort(ev, (size_t)(2 * known), sizeof *ev, res_event_cmp);
    for (int n = 0; n <= slots; n++)
        share[n] = 0;
    double total = 0, r = 0, t = 0;
    int n = 0;
    for (long e = 0; e < 2 * known; e++) {
        double dt = ev[e].t - t;
        if (n > 0 && dt > 0) {
            share[n > slots ? slots : n] += r * dt;
            total += r * dt;
        }
        t = ev[e].t;
        n += ev[e].dn;
        r += ev[e].rate;
    }
    double before = (double)(ctas - known) * mean_ins;
    share[slots] += before;
    total += before;
    if (!(total > 0))
        return false;
    for (int q = 0; q <= slots; q++)
        share[q] /= total;
    return true;
}

/* RFC's terms (analytic/prefetch.c) with `warps` resident warps that
 * issue (rf_extrap_rfc_warps; pk->pool_in set under a two-level pool). */
static void rfc_terms_at(const rf_gpu *gpu, const rf_design *d, rf_pf_kernel *pk, double pool,
                         double warps, double busy, double mem, double dcap, bool two_level,
                         const rf_pf_params *pp, rf_pf_terms *t)
{
    double pool_in, sharing;
    rf_extrap_rfc_warps(pool, warps, busy, mem, dcap, two_level, &pool_in, &sharing);
    if (two_level)
        pk->pool_in = pool_in;
    rf_pf_terms_of(gpu, d, pk, sharing, pp, t);
}

/* pf_apply's RFC terms over a run whose lone cycles the estimate knows:
 * the mean of the terms at each resident count, by the share of the
 * instructions issued at it (rf_extrap_resident_shares, whose shares sum
 * to 1), so that the cache's hit rate follows the warps resident as the
 * run's CTAs end.  The terms no count changes (latency, cache writes) are
 * any count's. */
static void rfc_terms_run(const rf_gpu *gpu, const rf_design *d, rf_pf_kernel *pk, double pool,
                          int wpc, double act, const double *share, int slots, double busy,
                          double mem, double dcap, bool two_level, const rf_pf_params *pp,
                          rf_pf_terms *t)
{
    bool first = true;
    for (int n = 1; n <= slots; n++) {
        double w = share[n];
        if (!(w > 0))
            continue;
        rf_pf_terms tn;
        rfc_terms_at(gpu, d, pk, pool, (double)n * wpc * act, busy, mem, dcap, two_level, pp,
                     &tn);
        if (first) {
            *t = tn;
            t->rfc_hit = t->rfc_wb = t->stall_rfc = t->extra_stall = t->extra_hold = 0;
            for (int u = 0; u < 3; u++)
                t->class_hold[u] = 0;
            first = false;
        }
        t->rfc_hit += w * tn.rfc_hit;
        t->rfc_wb += w * tn.rfc_wb;
        t->stall_rfc += w * tn.stall_rfc;
        t->extra_stall += w * tn.extra_stall;
        t->extra_hold += w * tn.extra_hold;
        for (int u = 0; u < 3; u++)
            t->class_hold[u] += w * tn.class_hold[u];
    }
}

static int pf_apply(const rf_gpu *gpu, const rf_design *d, const rf_occ *occ, long ctas,
                    int slots, rf_ipc_kernel *k, const rf_ipc_params *p,
                    rf_ipc_machine *m, const rf_pf_kernel *pk_in, rf_pf_kernel *pk_out,
                    rf_pf_terms *t_out, rf_err *err)
{
    if (d->kind != RF_DESIGN_RFC && d->kind != RF_DESIGN_LTRF) {
        rf_extrap_pool_balance(k, occ, m);
        return RF_OK;
    }
    rf_pf_kernel pk;
    if (pk_in) {
        pk = *pk_in;
    } else {
        int rc = pf_kernel(gpu, d, k->func, k->prof, k->warps_per_cta, 1, &pk, err);
        if (rc < 0)
            return rc;
    }
    int policy = d->scheduler > 0 ? d->scheduler - 1 : gpu->sched_policy;
    if (d->kind == RF_DESIGN_LTRF && d->scheduler == 0)
        policy = RF_SCHED_TWO_LEVEL;        /* as the sampler: LTRF's active pool */
    double pool = policy == RF_SCHED_TWO_LEVEL ? rf_design_pool(d, gpu)
                                               : occ->warps_per_sm;
    /* RFC: the warps that share the cache (rf_extrap_rfc_warps), from the
     * kernel's own cycles per instruction before the cache's stalls, its
     * lone memory stall and its DRAM cap. */
    double act0 = k->active_frac > 0 ? k->active_frac : 1.0;
    double busy0 = 1.0 + p->lat_scale * k->stall_dep + m->extra_stall;
    double dcap = k->dram_bytes > 0 && m->dram_bytes_per_cycle > 0
                      ? m->dram_bytes_per_cycle / k->dram_bytes
                      : INFINITY;
    rf_pf_terms t;
    bool two_level = policy == RF_SCHED_TWO_LEVEL;
    double mem0 = p->mem_scale * k->stall_mem, share[RF_IPC_NLONE + 1];
    int wpc = k->warps_per_cta > 0 ? k->warps_per_cta : 1;
    if (d->kind != RF_DESIGN_RFC)
        rf_pf_terms_of(gpu, d, &pk, pool, &p->pf, &t);
    else if (slots >= 1 && slots <= RF_IPC_NLONE && rf_extrap_resident_shares(k, ctas, slots, share))
        rfc_terms_run(gpu, d, &pk, pool, wpc, act0, share, slots, busy0, mem0, dcap, two_level,
                      &p->pf, &t);
    else
        rfc_terms_at(gpu, d, &pk, pool, (double)slots * wpc * act0, busy0, mem0, dcap,
                     two_level, &p->pf, &t);
    m->rf_latency = 1.0;
    k->writes *= t.cache_writes;        /* LTRF: late results go to the main file */
    if (d->kind == RF_DESIGN_RFC)
        k->reads *= t.rfc_hit;          /* RFC: a read miss skips the cache's banks */
    m->extra_stall += t.extra_stall;
    for (int u = 0; u < 3; u++)
        m->class_hold[u] += t.class_hold[u];
    rf_extrap_pool_balance(k, occ, m);
    if (pk_out)
        *pk_out = pk;
    if (t_out)
        *t_out = t;
    return RF_OK;
}

/* The parameters the IPC model sees for design d: LTRF's register-cache
 * banks queue with conflict_scale x ltrf_conflict (pf_apply), every
 * other design (RFC's cache banks included) with conflict_scale. */
static void design_params(const rf_design *d, const rf_ipc_params *p, rf_ipc_params *q)
{
    *q = *p;
    if (d->kind == RF_DESIGN_LTRF)
        q->conflict.scale *= p->pf.ltrf_conflict;
}

/* The banked file's response (2. above): a design of the banked family
 * (other banks or collectors, stealing) at the prior parameters is taken
 * as the GPU's own file's IPC times the model's ratio to it, damped:
 *     IPC = IPC_0 (IPC_d / IPC_0)^RF_EXTRAP_BANK_RESPONSE.
 * Source: on the nine tuning kernels the closed forms overstate the
 * response to banks, collectors and stealing (tests/bench_validation.c,
 * fermi-gtx480, both run kinds: predicted speedups over the baseline low
 * by 1.1-1.7% on average at 4 banks and at 8 collectors); the exponent is
 * the one whose uncalibrated mean |error| over both run kinds is least.
 * Assumption: the overstatement is a share of the response, the same for
 * every design of the family (the conflict and collector waits the model
 * adds are partly hidden behind other warps' stalls in the sampler).  A
 * record whose windows fitted the response (nfit > 0) keeps its own. */
static void bank_response(const rf_gpu *gpu, const rf_design *d, const rf_ipc_kernel *k,
                          const rf_ipc_machine *m, const rf_ipc_params *pd, long ctas,
                          int resident, double *ipc, double *cycles)
{
    if (d->kind != RF_DESIGN_BASELINE && d->kind != RF_DESIGN_STEALING)
        return;
    rf_ipc_machine m0 = *m;
    m0.banks = gpu->rf_banks;
    m0.collectors = gpu->collectors;
    rf_gpu_coll_split(m0.collectors, m0.coll_split);
    m0.read_steal = m0.write_steal = false;
    if (m0.banks == m->banks && m0.collectors == m->collectors && !m->read_steal
        && !m->write_steal)
        return;
    double ipc0 = 0;
    rf_ipc_kernel_cycles(k, &m0, pd, ctas, resident, &ipc0, NULL);
    if (!(ipc0 > 0) || !(*ipc > 0))
        return;
    double to = ipc0 * pow(*ipc / ipc0, RF_EXTRAP_BANK_RESPONSE);
    *cycles *= *ipc / to;
    *ipc = to;
}

/* The occupancy-raising designs (analytic/switching.c): CTAs per wave, and
 * the kernel's active fraction scaled so that the IPC model issues from
 * the design's effective CTAs.
 *   VT, VT+RegMutex: A = the scheduling limit, the register file's CTAs
 *     resident; Reg+DRAM: the same plus dram_ctas in DRAM (the sampler's
 *     default, half the resident count); FineReg: A from the ACRF, the CTA
 *     slots that the other limits allow with live registers taking no
 *     room (as sampler/sim.c), the PCRF's limit at the kernel's live
 *     registers at its loads.  Switching and the pool's depletion give
 *     the effective CTAs; Reg+DRAM's context transfers join the kernel's
 *     DRAM bytes.
 *   Register Sharing: U + S places (a pair runs its CTAs one after the
 *     other), all issuing.
 *   Others: the active CTAs, all issuing. */
int rf_extrap_sw(const rf_gpu *gpu, const rf_design *d, const rf_occ *occ,
                 const rf_shape *shape, rf_ipc_kernel *k, const rf_ipc_params *p,
                 const rf_ipc_machine *m, rf_sw_input *si, rf_sw_state *st, rf_err *err)
{
    memset(si, 0, sizeof *si);
    memset(st, 0, sizeof *st);
    si->kind = d->kind;
    si->owf = d->owf;
    si->active = occ->active_ctas > 0 ? occ->active_ctas : occ->ctas_per_sm;
    si->resident = occ->ctas_per_sm;
    si->warps_per_cta = k->warps_per_cta;
    si->regs = shape->regs;
    si->warp_size = gpu->warp_size > 0 ? gpu->warp_size : 32;
    si->act = k->active_frac > 0 ? k->active_frac : 1.0;
    si->live = k->live_frac > 0 ? k->live_frac : 1.0;
    si->insts_per_warp = k->insts_per_warp;
    si->mem_stall = p->mem_scale * k->stall_mem;
    si->cpi_lone = 1.0 + p->lat_scale * k->stall_dep + si->mem_stall + m->extra_stall;
    si->mem_waits = k->mem_waits;
    si->mem_latency = k->mem_latency;
    si->switch_cycles = d->switch_cycles;
    si->dram_latency = gpu->dram_latency;
    si->dram_bw = m->dram_bytes_per_cycle;
    switch (d->kind) {
    case RF_DESIGN_SHARING:
        si->shared_pairs = occ->shared_pairs;
        si->unshared = occ->unshared;
        break;
    case RF_DESIGN_REGDRAM:
        si->rf_ctas = occ->ctas_per_sm - (d->dram_ctas < 0 ? occ->ctas_per_sm / 2 : d->dram_ctas);
        break;
    case RF_DESIGN_FINEREG: {
        rf_design dz = *d;
        dz.live_frac = 0;
        rf_occ oz;
        rf_occ_input in = {shape->regs, shape->threads, shape->smem};
        int rc = rf_occ_compute(gpu, &dz, &in, &oz, err);
        if (rc)
            return rc;
        si->resident = oz.ctas_per_sm;
        si->pcrf_entries = occ->pcrf_entries;
        break;
    }
    case RF_DESIGN_REGMUTEX:
        si->chunks = occ->srp_regs > 0 ? occ->warps_per_cta : 0;
        break;
    case RF_DESIGN_VT:
        break;
    default:
        si->resident = si->active;
        break;
    }
    int rc = rf_sw_code_of(k->func, k->prof, &k->swp, d, shape->regs, &si->code, err);
    if (rc < 0)
        return rc;
    rf_sw_apply(si, &p->sw, st);
    if (st->resident > 0)
        k->active_frac = si->act * st->ctas_eff / st->resident;
    k->dram_bytes += st->dram_per_inst;
    return RF_OK;
}

int rf_extrap_pf_kernel(const rf_gpu *gpu, const rf_design *d, const rf_ipc_kernel *kc,
                        const rf_shape *shape, rf_pf_kernel *pk, rf_err *err)
{
    return rf_extrap_pf_code(gpu, d, kc->func, kc->prof, shape, 1, pk, err);
}

int rf_extrap_pf_code(const rf_gpu *gpu, const rf_design *d, const rf_func *f,
                      const rf_profile *prof, const rf_shape *shape, int jobs, rf_pf_kernel *pk,
                      rf_err *err)
{
    memset(pk, 0, sizeof *pk);
    if (d->kind != RF_DESIGN_RFC && d->kind != RF_DESIGN_LTRF)
        return RF_OK;
    int ws = gpu->warp_size > 0 ? gpu->warp_size : 32;
    return pf_kernel(gpu, d, f, prof, (shape->threads + ws - 1) / ws, jobs, pk, err);
}

int rf_extrap_estimate(const rf_gpu *gpu, const rf_design *d, const rf_ipc_kernel *kc,
                       const rf_shape *shape, const rf_calib *cal, rf_estimate *out,
                       rf_err *err)
{
    return rf_extrap_estimate_pk(gpu, d, kc, shape, cal, NULL, out, err);
}

int rf_extrap_estimate_pk(const rf_gpu *gpu, const rf_design *d, const rf_ipc_kernel *kc,
                          const rf_shape *shape, const rf_calib *cal, const rf_pf_kernel *pk_in,
                          rf_estimate *out, rf_err *err)
{
    memset(out, 0, sizeof *out);
    out->ipc_lo = out->ipc_hi = out->cycles_lo = out->cycles_hi = NAN;
    rf_occ_input in = {shape->regs, shape->threads, shape->smem};
    int rc = rf_occ_compute(gpu, d, &in, &out->occ, err);
    if (rc)
        return rc;
    if (shape->ctas <= 0)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "grid", "the grid has no CTAs");
    if ((out->occ.active_ctas > 0 ? out->occ.active_ctas : out->occ.ctas_per_sm) <= 0)
        return rf_err_set(err, RF_ELIMIT, NULL, 0, 0, "regs",
                          "no CTA fits on an SM (%d registers, %d threads, %d bytes shared)",
                          shape->regs, shape->threads, shape->smem);

    rf_ipc_machine m;
    rf_extrap_machine(gpu, d, &out->occ, &m);
    if (m.banks < 1 || m.collectors < 1)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, m.banks < 1 ? "banks" : "collectors",
                          "must be at least 1");
    rf_ipc_kernel k;
    rf_ipc_params p;
    kernel_for(kc, d->kind == RF_DESIGN_HIRF, &k);
    setup_cal(cal, &k, &p);
    int ws = gpu->warp_size > 0 ? gpu->warp_size : 32;
    k.warps_per_cta = (shape->threads + ws - 1) / ws;
    rf_sw_input swi;
    rf_sw_state sws;
    if ((rc = rf_extrap_sw(gpu, d, &out->occ, shape, &k, &p, &m, &swi, &sws, err)) < 0)
        return rc;
    int resident = sws.resident;
    m.switching = sws.resident > swi.active;
    double writes_all = k.writes, reads_all = k.reads, pool0 = m.pool;
    rf_pf_kernel pk;
    rf_pf_terms pt;
    memset(&pk, 0, sizeof pk);
    memset(&pt, 0, sizeof pt);
    /* The CTAs that share a register cache: the resident ones, at most the
     * run's CTAs on the SM (a grid smaller than one wave). */
    long on_sm = rf_extrap_ctas_per_sm(gpu, shape->ctas, shape->sms);
    int slots = (int)(resident < on_sm ? resident : on_sm);
    double run_warps = (double)slots * k.warps_per_cta;
    if ((rc = pf_apply(gpu, d, &out->occ, on_sm, slots, &k, &p, &m, pk_in, &pk, &pt, err)) < 0)
        return rc;
    out->pf = pt;
    out->pool_warps = pool0;
    out->pool_balance = pool0 > 0 ? m.pool / pool0 : 0.0;
    double late = writes_all - k.writes;    /* LTRF: results written to the main file */
    double reads0 = k.reads, writes0 = k.writes;
    rc = rf_rcc_apply(gpu, d, (int)run_warps, &p, &m, &k, &out->rc, err);
    if (rc)
        return rc;

    out->ctas_per_sm = rf_extrap_ctas_per_sm(gpu, shape->ctas, shape->sms);
    double level = cal && cal->level > 0 ? cal->level : 1.0;
    rf_ipc_params pd;
    design_params(d, &p, &pd);
    out->cycles = rf_ipc_kernel_cycles(&k, &m, &pd, out->ctas_per_sm, resident, &out->ipc,
                                       &out->steady);
    if (!(cal && cal->nfit > 0))
        bank_response(gpu, d, &k, &m, &pd, out->ctas_per_sm, resident, &out->ipc, &out->cycles);
    out->cycles /= level;
    out->ipc *= level;
    out->insts = (double)out->ctas_per_sm * k.warps_per_cta * k.insts_per_warp;
    if (!(out->cycles > 0) || !isfinite(out->cycles))
        return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, NULL, "IPC model gave no finite cycles");

    /* A record without samples (a kernel too short to sample within the
     * budget, calibrate/plan.c) holds the defaults: uncalibrated. */
    out->calibrated = cal != NULL && (cal->samples > 0 || cal->nfit > 0);
    if (out->calibrated) {
        double vfit = 0;
        if (cal->nfit > 0) {
            double g[RF_FIT_MAXP];
            /* Window records: the parameters count through the design's
             * IPC relative to the default design's (4. above), IPC0. */
            rf_calib c0 = *cal;
            c0.nfit = 0;
            c0.shrink = 1.0;
            c0.level_apart = false;
            c0.hirf_ratio_w = 0;
            rf_design d0;
            rf_design_init(&d0);
            double ipc0 = 0;
            if (cal->has_win) {
                rf_estimate e0;
                rc = rf_extrap_estimate_pk(gpu, &d0, kc, shape, &c0, NULL, &e0, err);
                if (rc)
                    return rc;
                ipc0 = e0.ipc;
            }
            for (int j = 0; j < cal->nfit; j++) {
                const rf_mparam *mp = &rf_ipc_mparams[cal->fit_idx[j]];
                rf_ipc_params q = p;
                double v = rf_mparam_get(mp, &q);
                double h = 1e-4 * (mp->hi - mp->lo);
                if (v + h > mp->hi)
                    h = -h;
                rf_mparam_put(mp, &q, v + h);
                bool pf_term = (d->kind == RF_DESIGN_RFC || d->kind == RF_DESIGN_LTRF)
                               && (!strncmp(mp->name, "pf_", 3) || !strncmp(mp->name, "rfc_", 4));
                if (pf_term && cal->shrink == 0) {
                    g[j] = 0;   /* weighed by w^2 = 0 below: not worth an estimate */
                    continue;
                }
                if (!strncmp(mp->name, "sw_", 3) || pf_term) {
                    /* The switching terms act before the IPC model
                     * (rf_extrap_sw), the register-cache terms through
                     * its stalls (pf_apply): the whole estimate again
                     * (the code's register-cache figures reused), without
                     * its interval or shrinkage. */
                    rf_calib c2 = *cal;
                    c2.nfit = 0;
                    c2.shrink = 1.0;
                    c2.level_apart = false;
                    c2.hirf_ratio_w = 0;
                    c2.params = q;
                    rf_estimate e2;
                    rc = rf_extrap_estimate_pk(gpu, d, kc, shape, &c2, pf_term ? &pk : pk_in, &e2,
                                               err);
                    if (rc)
                        return rc;
                    g[j] = (e2.ipc - out->ipc) / h;
                } else {
                    rf_ipc_params qd;
                    design_params(d, &q, &qd);
                    double ipc2;
                    rf_ipc_kernel_cycles(&k, &m, &qd, out->ctas_per_sm, resident, &ipc2, NULL);
                    g[j] = (ipc2 * level - out->ipc) / h;
                }
                if (ipc0 > 0) {
                    /* IPC (IPC0(theta) / IPC0) with IPC0 the windows' */
                    rf_estimate e0;
                    c0.params = q;
                    rc = rf_extrap_estimate_pk(gpu, &d0, kc, shape, &c0, NULL, &e0, err);
                    if (rc)
                        return rc;
                    g[j] -= out->ipc * (e0.ipc / ipc0 - 1.0) / h;
                }
            }
            for (int a = 0; a < cal->nfit; a++)
                for (int b = 0; b < cal->nfit; b++)
                    vfit += g[a] * cal->cov[a][b] * g[b];
        }
        /* Shrinkage toward the uncalibrated estimate (3. above); a record
         * whose level has its own weight wl (level_apart) shrinks the level
         * and the rest of the correction apart. */
        double w = cal->shrink >= 0 && cal->shrink <= 1 ? cal->shrink : 1.0;
        bool apart = cal->level_apart && cal->level_shrink >= 0 && cal->level_shrink <= 1;
        double wl = apart ? cal->level_shrink : w;
        double ipc_cal = out->ipc, corr = 0, lcorr = 0;
        if (w < 1 || wl < 1) {
            rf_estimate u;
            rc = rf_extrap_estimate_pk(gpu, d, kc, shape, NULL, pk_in, &u, err);
            if (rc)
                return rc;
            corr = log(ipc_cal / u.ipc);
            if (apart) {
                lcorr = log(level);
                corr -= lcorr;
            }
            out->ipc = u.ipc * exp(w * corr + wl * lcorr);
            out->cycles *= ipc_cal / out->ipc;
        }
        int n = cal->samples > 0 ? cal->samples : 1;
        double vf = vfit / (ipc_cal * ipc_cal);
        double gave_l = (1.0 - wl) * lcorr;
        double su = rf_extrap_sigma_unc(gpu, d, shape);
        double lv = cal->level_var + gave_l * gave_l;
        if (apart && lv > su * su)
            lv = su * su;      /* the level's part, at most sigma_u's (4.) */
        double v = (cal->has_win ? rf_extrap_rel_var_win(cal->win_bias, cal->win_se, w, corr, vf,
                                                         su)
                                 : rf_extrap_rel_var(cal->rms_rel, n, w, corr, vf))
                   + lv;
        /* HI-RF: the windows' ratio correction after the shrinkage (3.);
         * its variance takes the place of the ratio check's level
         * variance (4.). */
        double rcorr, rvar;
        if (rf_extrap_hirf_ratio(cal, d, &rcorr, &rvar)) {
            out->ipc *= exp(rcorr);
            out->cycles /= exp(rcorr);
            v += rvar - cal->level_var;
        }
        double half = Z95 * sqrt(v) * out->ipc;
        out->ipc_lo = out->ipc - half > 0 ? out->ipc - half : 0.0;
        out->ipc_hi = out->ipc + half;
        out->cycles_lo = out->insts / out->ipc_hi;
        out->cycles_hi = out->ipc_lo > 0 ? out->insts / out->ipc_lo : INFINITY;
    } else if (cal) {
        /* A record without samples: the uncalibrated model's own error,
         * and the level's where the record says it. */
        double su = rf_extrap_sigma_unc(gpu, d, shape);
        double half = Z95 * sqrt(su * su + cal->level_var) * out->ipc;
        out->ipc_lo = out->ipc - half > 0 ? out->ipc - half : 0.0;
        out->ipc_hi = out->ipc + half;
        out->cycles_lo = out->insts / out->ipc_hi;
        out->cycles_hi = out->ipc_lo > 0 ? out->insts / out->ipc_lo : INFINITY;
    }
    rf_sw_count(&swi, &sws, out->ctas_per_sm, out->cycles, out->ipc, m.schedulers, m.issue_width,
                &out->occc);

    rf_rf_org org;
    rc = rf_area_org(gpu, d, &out->occ, &org, err);
    if (rc)
        return rc;
    rf_area_compute(&org, &out->area);
    out->area_mm2 = out->area.total_mm2;

    double grid_insts = (double)shape->ctas * k.warps_per_cta * k.insts_per_warp;
    rf_energy_events ev;
    memset(&ev, 0, sizeof ev);
    if (d->kind == RF_DESIGN_HIRF) {
        /* Reads hit the cache but for the misses, which alone cross the
         * crossbar; every result is written into the cache, the conflicting
         * ones evict a pair to the NVM file. */
        ev.reads = grid_insts * reads0;
        ev.cache_hits = ev.reads * (1.0 - out->rc.read_miss);
        ev.xbar = ev.reads - ev.cache_hits;
        ev.writes = grid_insts * writes0;
        ev.writebacks = ev.writes * out->rc.conflict;
    } else if (org.cache_bits > 0) {
        /* RFC and LTRF (analytic/prefetch.c): every operand crosses from
         * the cache's banks or the main file. */
        ev.reads = grid_insts * reads_all;
        ev.xbar = ev.reads;
        ev.writes = grid_insts * writes_all;
        ev.bypass_writes = grid_insts * late;
        if (d->kind == RF_DESIGN_RFC) {
            ev.cache_hits = ev.reads * pt.rfc_hit;
            ev.miss_fills = ev.reads - ev.cache_hits;
            ev.writebacks = ev.writes * pt.rfc_wb;
        } else {
            double ii = pk.insts > 0 ? pk.insts : 1.0;
            ev.cache_hits = ev.reads;
            ev.fills = grid_insts * (pk.pf_regs + pk.act_regs) / ii;
            ev.writebacks = grid_insts * ((pk.act_wb + pk.pf_wb) / ii - pt.pf_wb_late);
        }
    } else {
        /* Bank stealing's parked writes cost a write and a read-back. */
        double stolen = out->steady.stolen_writes * k.writes;
        ev.reads = grid_insts * (k.reads + stolen);
        ev.writes = grid_insts * (k.writes + stolen);
        ev.xbar = grid_insts * k.reads;
    }
    /* The cache's counts on the busiest SM: its share of the grid's. */
    double share = grid_insts > 0 ? out->insts / grid_insts : 0.0;
    if (d->kind == RF_DESIGN_HIRF) {
        out->rcc.rc_hits = share * ev.cache_hits;
        out->rcc.rc_misses = share * (ev.reads - ev.cache_hits);
        out->rcc.rc_writes = share * ev.writes;
        out->rcc.rc_conflicts = share * ev.writebacks;
    } else if (d->kind == RF_DESIGN_RFC) {
        out->rcc.rc_hits = share * ev.cache_hits;
        out->rcc.rc_misses = share * ev.miss_fills;
    } else if (d->kind == RF_DESIGN_LTRF) {
        out->rcc.rc_hits = share * ev.cache_hits;
    }
    /* Leakage of min(SMs, CTAs) register files over the kernel's cycles. */
    long sms = shape->sms > 0 ? shape->sms : (gpu->sms > 0 ? gpu->sms : 1);
    long used = shape->ctas < sms ? shape->ctas : sms;
    ev.cycles = out->cycles;
    rf_energy_of_events(&org, &ev, gpu->clock_mhz, (double)used, &out->energy);
    out->energy_nj = out->energy.total_nj;
    return RF_OK;
}

/* conflict.c - bank conflicts of a single-ported banked register file.
 *
 * Seed 001 (bank stealing), Sections II-B, III-B and IV.  A warp register is
 * 1024 bits; each of the B banks serves one access per cycle; the arbiter
 * gives writes priority over reads.
 *
 * 1. Simultaneous accesses (intra-cycle).  k accesses, each to a uniformly
 *    random bank, out of B banks:
 *      P(no conflict)      = B (B-1) ... (B-k+1) / B^k           (birthday form)
 *      E[distinct banks]   = B (1 - (1 - 1/B)^k)
 *      E[cycles to serve]  = E[max accesses to one bank]
 *                          = sum_{m>=0} (1 - P(max <= m)),
 *      P(max <= m)         = k! / B^k [x^k] (sum_{j<=m} x^j / j!)^B
 *    (the number of ways to put k labelled accesses into B banks with at most
 *    m per bank, over B^k).
 *
 * 2. Queueing over time (inter-read and inter-write conflicts, Section
 *    III-B).  Each bank is a discrete-time single server with unit service
 *    and Poisson-like arrivals: reads at rho_r and writes at rho_w accesses
 *    per bank per cycle, rho = rho_r + rho_w.  With non-preemptive priority
 *    for writes (Cobham's formula, residual service R0 = rho / 2, or
 *    (rho_r + rho_w S_w) / 2 when writes hold a bank S_w cycles, rho_w then
 *    counting bank-cycles: HI-RF's NVM write-backs, analytic/rccollide.c):
 *      W_write = c R0 / (1 - rho_w)
 *      W_read  = c R0 / ((1 - rho_w) (1 - rho))
 *    The inter-read penalty is the wait reads would see among reads alone,
 *      P_rr = c (rho_r / 2) / (1 - rho_r),
 *    and the inter-write penalty is the rest, P_rw = W_read - P_rr.  c is a
 *    free scale (1 = the Poisson form; the sampler's arrivals are burstier).
 *    Finite source: the requesters are the operand collectors, C of them,
 *    so besides the access in service a read finds at most about C / B
 *    reads queued at its bank (each a cycle), whatever the open queue says
 *    near saturation:
 *      W_read <= c (R0 + C / B)
 *    (rf_bank_load.ahead_max = C / B; 0 = open queue).  Measured on the
 *    built-in SM model, volta-hirf (8 collectors, 8 NVM banks, 4-cycle
 *    write-backs), waits per NVM read over 28 runs (7 kernels x concat /
 *    TEA / CAC / Worst): within -4% .. +50% of the open queue up to bank
 *    utilisation 0.39, but sgemm's concatenated index at 0.56 waits 1.64
 *    cycles where the open queue gives 3.04 and the bound 1.84; bench_hirf's
 *    calibrated HI-RF estimates went from 2.03% / 19.7% (mean / worst) to
 *    1.87% / 13.0%, bench_accuracy (SRAM banks) moved by at most 0.15%.
 *    Near saturation the model still waits too long: the calibration
 *    windows with 2 banks on volta-hirf (bank utilisation 0.8-0.9) read
 *    4-10% above it (sgemm, kmeans, sfu, hotspot, libor, spmv), and their
 *    misfit lifts the fitted rate.  A bound of C / 2B halved sgemm's
 *    baseline bias (+4.7% -> +2.3%) but shortened the NVM reads' waits as
 *    well: bench_hirf Table 5 worst 8.39% -> 10.8% (sgemm's HI-RF points).
 *    Bursty writes (rf_bank_load.write_idc, HI-RF only): Kingman's G/G/1
 *    approximation scales the queueing wait by (c_a^2 + c_s^2) / 2, which
 *    is 1/2 for M/D/1; with deterministic service the wait is M/D/1's times
 *    c_a^2.  HI-RF's write-backs are far from Poisson: the code writes its
 *    registers, hence the banks, in a fixed order, so c_a^2 is estimated
 *    by the index of dispersion I of the write-backs one bank receives per
 *    write service, and only the other warps' share 1 - u of them is
 *    charged here (a warp's own are its bank backlog, analytic/rccollide.c:
 *    rf_rcc_wb_dispersion, rf_rcc_own_walk):
 *      W_write <- (1 - u) I W_write,   P_rw <- (1 - u) I P_rw
 *    (reads keep their own Poisson term P_rr).  Measured on the built-in
 *    SM model (sgemm, volta-hirf, 4 waves): waits per write-back / per NVM
 *    read against the open queue at the measured utilisation, concat base
 *    0.58x / 0.54x (I = 0.72: the warp writes the banks in turn), concat
 *    Worst 5.7x / 2.5x (I = 2.14: runs of write-backs to one bank), TEA
 *    1.8x / 2.0x (I = 1.06; c absorbs the common factor).
 *    Kingman's factor on the queued part alone (the residual service of
 *    the write found in service, rho_w S_w / 2, unscaled, as it does not
 *    depend on the arrivals' variability) compresses sgemm's concat
 *    assignments (CAC-plain +7.0% -> +4.1% on bench_hirf's Table 5,
 *    window seeds 1-20, mean signed) but takes Worst's penalty with it
 *    (HI_Worst +6.9% -> +15.4%, worst averaged 8.39% -> 15.4%): what
 *    Worst pays beyond its index is its own backlog per scheduler turn
 *    (analytic/rccollide.c), which the full factor stands in for.
 *
 * 3. Stealing (Section IV-B, IV-C).  Read stealing: each scheduler latches
 *    a candidate warp (the second-best ready one, Fig. 7); when one of the
 *    candidate's operand banks is wanted by another access in the next
 *    cycle, its operands are read a cycle ahead from banks idle now, into a
 *    free collector, and the scheduler issues it next (Fig. 6).  A read that
 *    would have waited is so moved ahead when a ready candidate with a free
 *    collector is at hand (s_c) and its bank was idle in the cycle before
 *    (1 - rho); moved ahead, it waits for nothing, whether it would have
 *    waited behind a read or behind a write.  With write stealing on, the
 *    candidate is at hand more often (a parked write clears its scoreboard
 *    entry at once, so the candidate's operands are ready sooner, and a
 *    waiting second-chance write-back is one more conflict that triggers a
 *    steal), by a factor 1 + k (steal_boost):
 *      a = min(1, s_c (1 - rho) (1 + k [write stealing]))
 *    Measured on the built-in SM model, sgemm at 8 collectors: reads issued
 *    ahead of a conflict (steal overrides) 300k with read stealing alone and
 *    648k with both at 16 banks, 144k and 294k at 32 banks: k = 1.  Without
 *    it the IPC read+write stealing adds over read stealing was 0.3-0.9%
 *    (model) against 5.7-9.9% (built-in model).
 *    Write stealing parks a write that meets a read on its bank in the dead
 *    register Rfree (valid with probability d) of another bank that is idle,
 *    1 - rho^(B-1) (any of the other B - 1 banks will do, Fig. 9); the value
 *    goes back when both banks are idle again, unless a RAW/WAW hazard forces
 *    it first (fraction f), when the read waits after all:
 *      removed_w = d (1 - rho^(B-1)) (1 - f)
 *      W_read'   = (1 - a) (P_rr + P_rw (1 - removed_w))
 *    (The older form here, s_c (1 - rho)^2 on P_rr alone and d (1 - rho)^2
 *    (1 - f) on P_rw, removed about 1% of sgemm's IPC loss where the
 *    built-in SM model gains 4-14%; measured removals there at 16 banks:
 *    14% of P_rr with read stealing, 46% of P_rr and 54% of P_rw with both.)
 *    A write is stolen when a read wants its bank in the same cycle (about
 *    rho_r) and another bank is idle: stolen = rho_r d (1 - rho^(B-1)); each
 *    stolen write costs one extra read and one extra write, in idle banks
 *    (counted for energy, not as bank load).  Defaults: s_c = 0.4, k = 1,
 *    d = 0.5, f = 0.15.  Seed 001's removals on its 8-bank file (58%
 *    inter-read, 88% inter-write at about 25% utilisation) put s_c (1 + k)
 *    near 0.77 and d (1 - f) near 0.88; the built-in SM model removes less
 *    with read stealing alone (12-14% of sgemm's inter-read wait at 16 and 32
 *    banks), and bench_accuracy's six-seed mean / worst error is 1.94% /
 *    7.75% with s_c = 0.6, k = 1 and 1.86% / 7.20% with s_c = 0.4 (0.3:
 *    1.8% / 7.15% but a higher single worst); calibration fits s_c and d.
 *
 * Inputs: utilisations (accesses per bank per cycle), bank count, stealing
 * switches, free parameters.  Outputs: waits in cycles and fractions.
 */
#include "conflict.h"

#include <math.h>


const rf_mparam rf_conflict_mparams[] = {
    {"conflict_scale", offsetof(rf_conflict_params, scale), 0.05, 20.0, 1.0, true, "1",
     "multiplier on the M/D/1 bank queueing waits"},
    {"steal_cand", offsetof(rf_conflict_params, steal_cand), 0.0, 1.0, 0.4, false, "1",
     "chance a candidate warp's read can steal the idle bank a cycle ahead"},
    {"dead_reg", offsetof(rf_conflict_params, dead_reg), 0.0, 1.0, 0.5, false, "1",
     "chance a bank has a dead register free for write stealing"},
    {"forced_frac", offsetof(rf_conflict_params, forced), 0.0, 1.0, 0.15, false, "1",
     "fraction of stolen writes forced back by a RAW/WAW hazard"},
    {"steal_boost", offsetof(rf_conflict_params, steal_boost), 0.0, 4.0, 1.0, false, "1",
     "extra read stealing when write stealing is on, as a share of steal_cand"},
};
const size_t rf_conflict_nmparams = sizeof rf_conflict_mparams / sizeof rf_conflict_mparams[0];

double rf_bank_p_noconflict(int k, int banks)
{
    if (k <= 1)
        return 1.0;
    if (banks <= 0 || k > banks)
        return 0.0;
    double p = 1.0;
    for (int i = 1; i < k; i++)
        p *= (double)(banks - i) / banks;
    return p;
}

double rf_bank_expected_distinct(int k, int banks)
{
    if (k <= 0 || banks <= 0)
        return 0.0;
    return banks * (1.0 - pow(1.0 - 1.0 / banks, k));
}

/* out = a * b truncated to degree k. */
static void poly_mul(const double *a, const double *b, double *out, int k)
{
    for (int i = 0; i <= k; i++) {
        double s = 0.0;
        for (int j = 0; j <= i; j++)
            s += a[j] * b[i - j];
        out[i] = s;
    }
}

/* P(max load <= m) for k accesses over B banks. */
static double p_max_le(int k, int banks, int m)
{
    double base[RF_BANK_MAX_K + 1], acc[RF_BANK_MAX_K + 1], tmp[RF_BANK_MAX_K + 1];
    /* base(x) = sum_{j<=m} (x/B)^j / j!, so that k! [x^k] base^B is the
     * probability directly (the 1/B^k is folded into the coefficients). */
    double c = 1.0;
    for (int j = 0; j <= k; j++) {
        base[j] = j <= m ? c : 0.0;
        c /= (double)banks * (j + 1);
        acc[j] = j == 0 ? 1.0 : 0.0;
    }
    for (int e = banks; e > 0; e >>= 1) {
        if (e & 1) {
            poly_mul(acc, base, tmp, k);
            for (int j = 0; j <= k; j++)
                acc[j] = tmp[j];
        }
        if (e > 1) {
            poly_mul(base, base, tmp, k);
            for (int j = 0; j <= k; j++)
                base[j] = tmp[j];
        }
    }
    double kfact = 1.0;
    for (int j = 2; j <= k; j++)
        kfact *= j;
    double p = acc[k] * kfact;
    return p > 1.0 ? 1.0 : p;
}

double rf_bank_expected_cycles(int k, int banks)
{
    if (k <= 0)
        return 0.0;
    if (banks <= 1)
        return k;
    if (k > RF_BANK_MAX_K)
        k = RF_BANK_MAX_K;
    double e = 0.0;
    for (int m = 0; m < k; m++)
        e += 1.0 - p_max_le(k, banks, m);
    return e;
}

void rf_bank_waits(const rf_bank_load *load, const rf_conflict_params *p,
                   rf_bank_wait *out)
{
    rf_bank_waits_inline(load, p, out);
}

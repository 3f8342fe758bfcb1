/* rccollide.c - closed-form register-cache collisions (seed 002, HI-RF +
 * CAC, Sections 2.3, 3 and 5.3).
 *
 * Setting.  Every result is written into the SRAM register cache of the
 * warp's sub-core; a write that finds its line holding another valid
 * (warp, register) pair evicts it to the NVM register file (a conflict, one
 * write-back).  Reads are served by the cache when the line holds the pair,
 * by the NVM file otherwise.  Lines of a finished CTA's warps are dropped
 * without write-back.
 *
 * Write frequencies.  W resident warps (warp IDs 0..W-1, the sampler's
 * hardware slots) run the same code: pair x = (w, r) is written with
 * probability p_x = c_r / (W sum_r c_r), c_r the expected dynamic writes of
 * register r per thread after renumbering (analytic/dstcount.c weighted by
 * the profile's block frequencies).
 *
 * Direct-mapped cache (concat WxRy, TEA: analytic/rcindex.c).  Under
 * independent interleaving of writes, the write before a write of x to its
 * line l came from x with probability p_x / P_l (P_l = sum of p over the
 * pairs on l), so the probability a write conflicts is
 *     C_ind = 1 - sum_l sum_{x on l} p_x^2 / P_l.
 * Fully associative LRU per sub-core (HI_Full) with E lines: the
 * characteristic-time approximation of LRU under independent references
 * (Che et al.): T solves sum_x (1 - exp(-q_x T)) = E over the sub-core's
 * pairs, q_x = p_x / P_sub; a write misses (evicts) with probability
 *     sum_x q_x exp(-q_x T),
 * and never when the sub-core has at most E pairs.  C_ind is the
 * P_sub-weighted sum over sub-cores.
 *
 * Locality.  Real write streams are bursty (a warp under GTO writes the
 * same few registers back to back), so fewer writes find another pair in
 * their line than independent interleaving says.  One free parameter
 * lambda in [0, 1) (fitted by the calibrator, default 0.3) gives
 *     C = (1 - lambda) C_ind,
 * and reads, most of which follow their producer closely, miss at the same
 * rate: M = C (assumption: reads distributed over pairs like writes).
 *
 * Stall (sampler/regcache.c timing): a write absorbed by the cache is done
 * in the cycle it arrives; a conflicting one completes when the victim's
 * NVM write (L_w cycles, bank held) is done, L_w - 1 cycles later at best,
 * so a warp's own path gains writes/inst x C x (L_w - 1) cycles per
 * instruction.  NVM bank time (L_w per write-back) enters the bank
 * utilisation of the IPC model.
 *
 * Inputs: geometry, per-register writes (any scale), warps, lambda.
 * Outputs: probabilities per write / read.
 */
#include "rccollide.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dstcount.h"

int rf_rcc_writes_of(const rf_func *f, const rf_profile *prof, rf_rcc_writes *out, rf_err *err)
{
    memset(out, 0, sizeof *out);
    out->nregs = f->nregs < RF_MAX_GPR ? f->nregs : RF_MAX_GPR;
    int rc = rf_dst_static(f, out->stat, err);
    if (rc)
        return rc;
    double *freq = calloc((size_t)(f->nblocks > 0 ? f->nblocks : 1), sizeof *freq);
    if (!freq)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    rc = rf_dst_block_freq(f, prof ? prof->trip : 0, prof ? prof->taken : 0.5, NULL, freq,
                           NULL, err);
    if (!rc)
        rc = rf_dst_weighted(f, freq, out->dyn, err);
    free(freq);
    for (int r = 0; r < RF_MAX_GPR; r++)
        if ((out->stat[r] > 0 || out->dyn[r] > 0) && r + 1 > out->nregs)
            out->nregs = r + 1;
    return rc;
}

void rf_rcc_assign_map(const rf_rcc_writes *w, const rf_rc_geom *g, int assign, int *map)
{
    int n = w->nregs;
    switch (assign) {
    case RF_ASSIGN_CAC:
        rf_dst_cac(w->stat, n, map);
        break;
    case RF_ASSIGN_BEST:
        rf_dst_best(w->dyn, n, map);
        break;
    case RF_ASSIGN_WORST:
        rf_dst_worst(w->dyn, n, rf_rc_nsets(g), map);
        break;
    default:
        for (int r = 0; r < n; r++)
            map[r] = r;
        break;
    }
}

void rf_rcc_assigned_writes(const rf_rcc_writes *w, const rf_rc_geom *g, int assign,
                            double out[RF_MAX_GPR])
{
    int map[RF_MAX_GPR];
    memset(out, 0, RF_MAX_GPR * sizeof *out);
    rf_rcc_assign_map(w, g, assign, map);
    rf_dst_permute(w->dyn, w->nregs, map, out);
}

/* LRU miss probability of one sub-core's pairs q[0..n-1] (summing to 1)
 * with e lines: characteristic-time approximation. */
static double lru_miss(const double *q, int n, int e)
{
    if (n <= e)
        return 0.0;
    double lo = 0, hi = 1;
    for (;;) {
        double occ = 0;
        for (int i = 0; i < n; i++)
            occ += 1.0 - exp(-q[i] * hi);
        if (occ >= e || hi > 1e12)
            break;
        hi *= 2;
    }
    for (int it = 0; it < 100; it++) {
        double mid = 0.5 * (lo + hi), occ = 0;
        for (int i = 0; i < n; i++)
            occ += 1.0 - exp(-q[i] * mid);
        if (occ < e)
            lo = mid;
        else
            hi = mid;
    }
    double t = 0.5 * (lo + hi), miss = 0;
    for (int i = 0; i < n; i++)
        miss += q[i] * exp(-q[i] * t);
    return miss;
}

void rf_rcc_rates(const rf_rc_geom *g, const double *writes, int nregs, int warps,
                  double locality, rf_rcc_result *out)
{
    memset(out, 0, sizeof *out);
    double total = 0;
    for (int r = 0; r < nregs; r++)
        total += writes[r] > 0 ? writes[r] : 0;
    if (total <= 0 || warps < 1)
        return;
    int maxw = 1 << g->warp_bits;
    if (warps > maxw)
        warps = maxw;
    int nlines = rf_rc_lines(g);
    double *pl = calloc((size_t)nlines, sizeof *pl);
    double *ql = calloc((size_t)nlines, sizeof *ql);
    if (!pl || !ql) {
        free(pl);
        free(ql);
        return;
    }
    double norm = 1.0 / (total * warps);
    if (g->index == RF_RC_FULL) {
        /* Pairs per sub-core, then LRU per sub-core. */
        int e = rf_rc_ways(g);
        double *q = malloc((size_t)warps * (size_t)nregs * sizeof *q);
        if (q) {
            double acc = 0;
            for (int s = 0; s < nlines; s++) {
                int n = 0;
                double ps = 0;
                for (int w = 0; w < warps; w++) {
                    if (rf_rc_slot_of(g, w, 0).line != s)
                        continue;
                    for (int r = 0; r < nregs; r++)
                        if (writes[r] > 0) {
                            q[n++] = writes[r] * norm;
                            ps += writes[r] * norm;
                        }
                }
                if (ps <= 0)
                    continue;
                out->pairs += n;
                out->lines_used += n < e ? n : e;
                for (int i = 0; i < n; i++)
                    q[i] /= ps;
                acc += ps * lru_miss(q, n, e);
            }
            out->indep = acc;
            free(q);
        }
    } else {
        for (int w = 0; w < warps; w++)
            for (int r = 0; r < nregs; r++) {
                if (writes[r] <= 0)
                    continue;
                double p = writes[r] * norm;
                int l = rf_rc_slot_of(g, w, r).line;
                pl[l] += p;
                ql[l] += p * p;
                out->pairs++;
            }
        double same = 0;
        for (int l = 0; l < nlines; l++)
            if (pl[l] > 0) {
                same += ql[l] / pl[l];
                out->lines_used++;
            }
        out->indep = 1.0 - same;
    }
    free(pl);
    free(ql);
    if (out->indep < 0)
        out->indep = 0;
    if (locality < 0)
        locality = 0;
    if (locality > 1)
        locality = 1;
    out->conflict = (1.0 - locality) * out->indep;
    out->read_miss = out->conflict;
}

double rf_rcc_stall(double writes_per_inst, double conflict, int nvm_write_latency)
{
    int extra = nvm_write_latency > 1 ? nvm_write_latency - 1 : 0;
    return writes_per_inst * conflict * extra;
}

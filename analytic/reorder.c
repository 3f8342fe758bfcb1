/* reorder.c - unrolled and reordered register declarations (seed 003,
 * Register Sharing, Section 5.2, Fig. 7).
 *
 * With sharing, a warp of a shared CTA owns registers RegNo <= R_w t
 * privately (t = 1 - F, F the shared fraction; seed 003 Section 4, Fig. 4
 * step (c)); higher-numbered registers are shared with the paired CTA, and
 * a non-owner warp stalls at its first access to one of them.  Numbering
 * registers by first use ("a register that has been used first in
 * assembly code is declared first") makes the early instructions use the
 * low, private numbers, so a non-owner warp issues more instructions
 * before it stalls.  In Fig. 7 the first instruction's p0 and r124 move
 * from sequence numbers 31 and 35 to 1 and 3.
 *
 * Model.  First use is taken in code order, destinations before sources
 * (the assembly text order of Fig. 7), general registers only (predicates
 * live in their own file here).  The number of private registers is
 * unshared = floor(R_w (1 - F)) (0-based register k is private iff
 * k + 1 <= R_w t).  Reported: the static count of instructions before
 * the first one touching a shared register in code order, and the expected
 * number issued on the way there: the absorbing Markov chain of the CFG
 * (rf_dst_block_freq with the blocks holding a shared access absorbing)
 * gives sum over blocks of f(B) times the instructions of B issued before
 * the first shared access (all of B when it has none).
 *
 * Inputs: physical rf_func, R_w (registers per thread), F, profile.
 * Outputs: permutation map[old] = new; rf_share_reach.
 */
#include "reorder.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dstcount.h"
#include "liveness.h"

int rf_reorder_first_use(const rf_func *f, int nregs, int *map, rf_err *err)
{
    int rc = rf_live_check(f, err);
    if (rc)
        return rc;
    if (nregs < 0 || nregs > RF_MAX_GPR)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "regs", "%d is not in 0..%d", nregs, RF_MAX_GPR);
    for (int r = 0; r < nregs; r++)
        map[r] = -1;
    int next = 0;
    for (int i = 0; i < f->ninsts; i++) {
        const rf_inst *in = &f->insts[i];
        for (int k = 0; k < in->ndefs + in->nuses; k++) {
            int r = k < in->ndefs ? in->defs[k] : in->uses[k - in->ndefs];
            if (r < nregs && map[r] < 0)
                map[r] = next++;
        }
    }
    for (int r = 0; r < nregs; r++)
        if (map[r] < 0)
            map[r] = next++;
    return 0;
}

static bool touches_shared(const rf_inst *in, const int *map, int nregs, int unshared)
{
    for (int k = 0; k < in->ndefs + in->nuses; k++) {
        int r = k < in->ndefs ? in->defs[k] : in->uses[k - in->ndefs];
        if (r >= RF_MAX_GPR)
            continue;
        int n = map && r < nregs ? map[r] : r;
        if (n >= unshared)
            return true;
    }
    return false;
}

int rf_reorder_reach(const rf_func *f, const int *map, int nregs, double sharing,
                     double trip, double taken, rf_share_reach *out, rf_err *err)
{
    memset(out, 0, sizeof *out);
    int rc = rf_live_check(f, err);
    if (rc)
        return rc;
    if (!(sharing >= 0 && sharing <= 1))
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "sharing", "%g is not a fraction in 0..1", sharing);
    if (nregs < 0 || nregs > RF_MAX_GPR)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "regs", "%d is not in 0..%d", nregs, RF_MAX_GPR);
    out->nregs = nregs;
    out->unshared = (int)floor(nregs * (1 - sharing) + 1e-9);
    out->first_pc = -1;
    out->static_before = f->ninsts;
    for (int i = 0; i < f->ninsts; i++)
        if (touches_shared(&f->insts[i], map, nregs, out->unshared)) {
            out->first_pc = i;
            out->static_before = i;
            break;
        }
    int nb = f->nblocks;
    bool *absorb = calloc((size_t)nb, sizeof *absorb);
    int *issued = malloc((size_t)nb * sizeof *issued);
    double *freq = malloc((size_t)nb * sizeof *freq);
    if (!absorb || !issued || !freq) {
        free(absorb), free(issued), free(freq);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory");
    }
    for (int b = 0; b < nb; b++) {
        const rf_block *bb = &f->blocks[b];
        issued[b] = bb->ninsts;
        for (int i = bb->first; i < bb->first + bb->ninsts; i++)
            if (touches_shared(&f->insts[i], map, nregs, out->unshared)) {
                absorb[b] = true;
                issued[b] = i - bb->first;
                break;
            }
    }
    rc = rf_dst_block_freq(f, trip, taken, absorb, freq, NULL, err);
    if (!rc) {
        double e = 0;
        for (int b = 0; b < nb; b++)
            e += freq[b] * issued[b];
        out->expected_before = e;
    }
    free(absorb), free(issued), free(freq);
    return rc;
}

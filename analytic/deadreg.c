/* deadreg.c - dead registers per bank for write stealing (seed 001, bank
 * stealing, Section on write stealing, Fig. 9).
 *
 * Write stealing parks a result that lost bank arbitration in an inactive
 * register Rfree of another bank and writes it back later.  The compiler
 * supplies, with each instruction, a register that is inactive there, one
 * per bank ("a small status table holding the free register ID for each
 * bank ... analyzed with compile-time liveness information"); the seed
 * prefers "a register that is never used if the program is not limited by
 * registers", else "the least used register".
 *
 * Model.  After instruction i, register r of bank b = r mod banks is free
 * when it is allocated (r < alloc), not live after i (not in out(i)) and
 * not written by i.  Among free registers of a bank we pick the one with
 * the fewest static accesses (reads + writes in the code; never-used
 * registers have 0), ties by lowest number, so a parked value is rarely
 * caught by a later access.
 *
 * Inputs: physical rf_func, its liveness, banks, registers allocated.
 * Outputs: Rfree[i][b] (-1 when the whole bank is live), coverage = share
 * of (instruction, bank) pairs with a free register, never-used count.
 */
#include "deadreg.h"

#include <stdlib.h>
#include <string.h>

void rf_dead_free(rf_deadreg *d)
{
    if (!d)
        return;
    free(d->free);
    memset(d, 0, sizeof *d);
}

int rf_dead_compute(const rf_func *f, const rf_live *live, int banks, int alloc,
                    rf_deadreg *out, rf_err *err)
{
    memset(out, 0, sizeof *out);
    int rc = rf_live_check(f, err);
    if (rc)
        return rc;
    if (banks < 1 || banks > 64)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "banks", "%d is not in 1..64", banks);
    if (live->ninsts != f->ninsts)
        return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, f->name, "liveness is for another function");
    if (alloc == 0)
        alloc = f->nregs;
    if (alloc < live->nregs)
        alloc = live->nregs;
    if (alloc > RF_MAX_GPR)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "regs", "%d exceeds %d registers", alloc, RF_MAX_GPR);
    int uses[RF_MAX_GPR] = {0};
    for (int i = 0; i < f->ninsts; i++) {
        const rf_inst *in = &f->insts[i];
        for (int k = 0; k < in->ndefs; k++)
            if (in->defs[k] < RF_MAX_GPR)
                uses[in->defs[k]]++;
        for (int k = 0; k < in->nuses; k++)
            if (in->uses[k] < RF_MAX_GPR)
                uses[in->uses[k]]++;
    }
    /* Candidate order: by access count, then number (insertion sort). */
    int order[RF_MAX_GPR];
    for (int r = 0; r < alloc; r++) {
        int j = r;
        while (j > 0 && uses[order[j - 1]] > uses[r]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = r;
        if (!uses[r])
            out->never_used++;
    }
    out->ninsts = f->ninsts;
    out->banks = banks;
    out->alloc = alloc;
    out->free = malloc((size_t)(f->ninsts ? f->ninsts : 1) * (size_t)banks * sizeof *out->free);
    if (!out->free)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory");
    long found = 0;
    for (int i = 0; i < f->ninsts; i++) {
        rf_regset busy = live->out[i], w;
        uint8_t p;
        rf_inst_writes(&f->insts[i], &w, &p);
        rf_regset_union(&busy, &w);
        int16_t *row = &out->free[(size_t)i * banks];
        for (int b = 0; b < banks; b++)
            row[b] = -1;
        int left = banks;
        for (int k = 0; k < alloc && left; k++) {
            int r = order[k];
            if (row[r % banks] < 0 && !rf_regset_has(&busy, r)) {
                row[r % banks] = (int16_t)r;
                left--;
                found++;
            }
        }
    }
    out->coverage = f->ninsts ? (double)found / ((double)f->ninsts * banks) : 0;
    return 0;
}

int rf_dead_reg(const rf_deadreg *d, int inst, int bank)
{
    return d->free[(size_t)inst * d->banks + bank];
}

/* liveness.c - live registers per instruction (seed 000, FineReg, Section V.A,
 * Fig. 7 and Fig. 9).
 *
 * Model.  A register is live at a PC when some path from that PC reads it
 * before writing it (FineReg Fig. 7: "alive if it is used as the source
 * operand of any following instructions until the register is used again as
 * a destination").  Over the CFG this is the classic backward dataflow
 *     out(B) = union of in(S) over successors S
 *     in(B)  = use(B) + (out(B) - kill(B))
 * iterated to a fixed point (blocks visited in reverse order, so a loop needs
 * about one extra sweep, cf. Fig. 9(b)); then each block is walked backwards
 * to get the per-instruction sets
 *     in(i) = reads(i) + (out(i) - kills(i)).
 * Assumptions: a guarded instruction may not execute, so its definitions do
 * not kill (they are not removed from the live set); its guard predicate is a
 * read.  Diverging branches need no special case: the union over successors
 * covers both sides of a branch (Fig. 9(a)).
 *
 * Inputs: a physical rf_func (R0..R255, P0..P7).
 * Outputs: per instruction the 256-bit GPR sets (and 8-bit predicate sets)
 * live before and after it; live count and live fraction (live / registers
 * allocated per thread) at every PC; max and mean live over static
 * instructions; live registers after each long-latency load (global or local
 * ld: the registers FineReg's PCRF must hold for a warp stalled there).
 */
#include "liveness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bits set in x, in plain C (SWAR: pairs, nibbles, then bytes summed by
 * the multiply): __builtin_popcountll without a popcount instruction in
 * the target calls libgcc's table loop, 9% of calibrate's CPU time on
 * the default run (the switching live profile counts sets per
 * instruction, analytic/switching.c). */
static int popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

int rf_regset_count(const rf_regset *s)
{
    int n = 0;
    for (int k = 0; k < 4; k++)
        n += popcount64(s->w[k]);
    return n;
}

void rf_regset_union(rf_regset *dst, const rf_regset *src)
{
    for (int k = 0; k < 4; k++)
        dst->w[k] |= src->w[k];
}

bool rf_regset_equal(const rf_regset *a, const rf_regset *b)
{
    return !memcmp(a->w, b->w, sizeof a->w);
}

int rf_regset_format(const rf_regset *s, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap)
        buf[0] = '\0';
    for (int r = 0; r < RF_MAX_GPR; r++) {
        if (!rf_regset_has(s, r))
            continue;
        int e = r;
        while (e + 1 < RF_MAX_GPR && rf_regset_has(s, e + 1))
            e++;
        char item[24];
        int n = e == r ? snprintf(item, sizeof item, "%sR%d", len ? " " : "", r)
                       : snprintf(item, sizeof item, "%sR%d-R%d", len ? " " : "", r, e);
        if (len + (size_t)n < cap) {
            memcpy(buf + len, item, (size_t)n + 1);
            len += (size_t)n;
        }
        r = e;
    }
    return (int)len;
}

void rf_regset_hex(const rf_regset *s, char buf[65])
{
    for (int k = 3; k >= 0; k--)
        snprintf(buf + (3 - k) * 16, 17, "%016llx", (unsigned long long)s->w[k]);
}

static void add_operand(int reg, rf_regset *gpr, uint8_t *pred)
{
    if (reg < RF_MAX_GPR)
        rf_regset_add(gpr, reg);
    else
        *pred |= (uint8_t)(1u << (reg - RF_PRED_BASE));
}

void rf_inst_reads(const rf_inst *in, rf_regset *gpr, uint8_t *pred)
{
    memset(gpr, 0, sizeof *gpr);
    *pred = 0;
    for (int k = 0; k < in->nuses; k++)
        add_operand(in->uses[k], gpr, pred);
    if (in->guard >= 0)
        add_operand(in->guard, gpr, pred);
}

void rf_inst_writes(const rf_inst *in, rf_regset *gpr, uint8_t *pred)
{
    memset(gpr, 0, sizeof *gpr);
    *pred = 0;
    for (int k = 0; k < in->ndefs; k++)
        add_operand(in->defs[k], gpr, pred);
}

bool rf_live_long_latency(const rf_inst *in)
{
    return in->cls == RF_OC_LD_GLOBAL || in->cls == RF_OC_LD_LOCAL;
}

static bool operand_ok(int reg)
{
    return (reg >= 0 && reg < RF_MAX_GPR) ||
           (reg >= RF_PRED_BASE && reg < RF_PRED_BASE + RF_MAX_PRED);
}

int rf_live_check(const rf_func *f, rf_err *err)
{
    if (!f->physical)
        return rf_err_set(err, RF_EUNSUPPORTED, NULL, 0, 0, f->name,
                          "register analyses need physical registers (allocate the function first)");
    if (f->nblocks < 1 || f->ninsts < 0)
        return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, f->name, "function has no blocks");
    if (f->nblocks > RF_KIR_MAX_BLOCKS)
        return rf_kir_block_limit(f, NULL, err);
    int next = 0;
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *bb = &f->blocks[b];
        if (bb->first != next || bb->ninsts < 0 || bb->first + bb->ninsts > f->ninsts)
            return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, f->name,
                              "block %d does not follow block %d in the instruction array", b, b - 1);
        next += bb->ninsts;
        if (bb->nsucc < 0 || bb->nsucc > 2)
            return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, f->name,
                              "block %d has %d successors", b, bb->nsucc);
        for (int s = 0; s < bb->nsucc; s++)
            if (bb->succ[s] < 0 || bb->succ[s] >= f->nblocks)
                return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, f->name,
                                  "block %d has successor %d out of range", b, bb->succ[s]);
    }
    if (next != f->ninsts)
        return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, f->name,
                          "blocks cover %d of %d instructions", next, f->ninsts);
    for (int i = 0; i < f->ninsts; i++) {
        const rf_inst *in = &f->insts[i];
        bool ok = in->ndefs <= RF_MAX_DEFS && in->nuses <= RF_MAX_USES &&
                  (in->guard < 0 || (in->guard >= RF_PRED_BASE && in->guard < RF_PRED_BASE + RF_MAX_PRED));
        for (int k = 0; ok && k < in->ndefs; k++)
            ok = operand_ok(in->defs[k]);
        for (int k = 0; ok && k < in->nuses; k++)
            ok = operand_ok(in->uses[k]);
        if (!ok)
            return rf_err_set(err, RF_EINTERNAL, NULL, (int)in->line, 0, f->name,
                              "instruction %d has an operand that is not R0..R255 or P0..P7", i);
    }
    return 0;
}

/* in = reads + (out - kills), kills = writes of an unguarded instruction. */
static void transfer(const rf_inst *in, rf_regset *gpr, uint8_t *pred)
{
    rf_regset r, w;
    uint8_t rp, wp;
    rf_inst_reads(in, &r, &rp);
    if (in->guard < 0) {
        rf_inst_writes(in, &w, &wp);
        for (int k = 0; k < 4; k++)
            gpr->w[k] &= ~w.w[k];
        *pred &= (uint8_t)~wp;
    }
    rf_regset_union(gpr, &r);
    *pred |= rp;
}

void rf_live_free(rf_live *l)
{
    if (!l)
        return;
    free(l->in);
    free(l->out);
    free(l->pred_in);
    free(l->pred_out);
    memset(l, 0, sizeof *l);
}

int rf_live_compute(const rf_func *f, rf_live *l, rf_err *err)
{
    memset(l, 0, sizeof *l);
    int rc = rf_live_check(f, err);
    if (rc)
        return rc;
    int n = f->ninsts, nb = f->nblocks;
    l->ninsts = n;
    l->in = calloc((size_t)(n ? n : 1), sizeof *l->in);
    l->out = calloc((size_t)(n ? n : 1), sizeof *l->out);
    l->pred_in = calloc((size_t)(n ? n : 1), 1);
    l->pred_out = calloc((size_t)(n ? n : 1), 1);
    rf_regset *bin = calloc((size_t)nb, sizeof *bin);
    uint8_t *bpin = calloc((size_t)nb, 1);
    if (!l->in || !l->out || !l->pred_in || !l->pred_out || !bin || !bpin) {
        free(bin);
        free(bpin);
        rf_live_free(l);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory for liveness");
    }

    /* Block-level fixed point: in(B) from out(B) through B's instructions. */
    bool changed = true;
    while (changed) {
        changed = false;
        for (int b = nb - 1; b >= 0; b--) {
            const rf_block *bb = &f->blocks[b];
            rf_regset s = {{0}};
            uint8_t p = 0;
            for (int k = 0; k < bb->nsucc; k++) {
                rf_regset_union(&s, &bin[bb->succ[k]]);
                p |= bpin[bb->succ[k]];
            }
            for (int i = bb->first + bb->ninsts - 1; i >= bb->first; i--)
                transfer(&f->insts[i], &s, &p);
            if (!rf_regset_equal(&s, &bin[b]) || p != bpin[b]) {
                bin[b] = s;
                bpin[b] = p;
                changed = true;
            }
        }
    }

    /* Per-instruction sets. */
    for (int b = 0; b < nb; b++) {
        const rf_block *bb = &f->blocks[b];
        rf_regset s = {{0}};
        uint8_t p = 0;
        for (int k = 0; k < bb->nsucc; k++) {
            rf_regset_union(&s, &bin[bb->succ[k]]);
            p |= bpin[bb->succ[k]];
        }
        for (int i = bb->first + bb->ninsts - 1; i >= bb->first; i--) {
            l->out[i] = s;
            l->pred_out[i] = p;
            transfer(&f->insts[i], &s, &p);
            l->in[i] = s;
            l->pred_in[i] = p;
        }
    }
    free(bin);
    free(bpin);

    /* Summary. */
    int hi = 0;
    for (int i = 0; i < n; i++) {
        const rf_inst *in = &f->insts[i];
        for (int k = 0; k < in->ndefs; k++)
            if (in->defs[k] < RF_MAX_GPR && in->defs[k] + 1 > hi)
                hi = in->defs[k] + 1;
        for (int k = 0; k < in->nuses; k++)
            if (in->uses[k] < RF_MAX_GPR && in->uses[k] + 1 > hi)
                hi = in->uses[k] + 1;
    }
    l->nregs = f->nregs > hi ? f->nregs : hi;
    double sum = 0, sum_load = 0;
    l->max_pc = n ? 0 : -1;
    for (int i = 0; i < n; i++) {
        int ci = rf_regset_count(&l->in[i]), co = rf_regset_count(&l->out[i]);
        sum += ci;
        int c = ci > co ? ci : co;
        if (c > l->max_live) {
            l->max_live = c;
            l->max_pc = i;
        }
        if (rf_live_long_latency(&f->insts[i])) {
            l->nloads++;
            sum_load += co;
            if (co > l->max_live_load)
                l->max_live_load = co;
        }
    }
    l->mean_live = n ? sum / n : 0;
    l->mean_live_load = l->nloads ? sum_load / l->nloads : 0;
    return 0;
}

int rf_live_count(const rf_live *l, int i)
{
    return rf_regset_count(&l->in[i]);
}

double rf_live_frac(const rf_live *l, int i)
{
    return l->nregs ? (double)rf_live_count(l, i) / l->nregs : 0;
}

/* inline.c - called code walked where it is called (inline.h). */
#include "inline.h"
#include "kir_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct builder {
    const rf_module *m;
    const rf_func *const *phys;   /* PTX: each function's allocated code, or NULL */
    rf_inst *in;
    int nin, capin;
    rf_block *bl;
    int nbl, capbl;
    int nregs;             /* general registers of the result */
    int copies;            /* calls copied so far: the labels' ".cN" */
    int *rets;             /* blocks closed by a copied RET, not yet patched */
    int nrets, caprets;
    long active[RF_INLINE_MAX_DEPTH + 1];   /* code being copied: function, entry */
    bool full;             /* past RF_KIR_MAX_BLOCKS */
} builder;

/* RET (SASS) or ret (PTX): back to the caller. */
static bool is_ret(const builder *b, const rf_inst *in)
{
    return in->cls == RF_OC_EXIT && in->opcode >= 0 && in->opcode < b->m->nopnames &&
           strcasecmp(b->m->opnames[in->opcode], "ret") == 0;
}

/* A new output block with block `from` of F's label (+ suffix) and
 * profile. */
static int new_block(builder *b, const rf_func *F, int from, const char *suffix)
{
    if (b->nbl >= RF_KIR_MAX_BLOCKS) {
        b->full = true;
        return -1;
    }
    if (kir_grow((void **)&b->bl, &b->capbl, b->nbl, sizeof *b->bl))
        return -1;
    rf_block *o = &b->bl[b->nbl];
    *o = F->blocks[from];
    char lab[sizeof o->label];
    snprintf(lab, sizeof lab, "%s%s", F->blocks[from].label, suffix);
    memcpy(o->label, lab, sizeof lab);
    o->first = b->nin;
    o->ninsts = 0;
    o->nsucc = 0;
    o->succ[0] = o->succ[1] = -1;
    return b->nbl++;
}

/* The blocks of F from `entry` on: every block when top, else those its
 * edges reach (a subroutine's or a callee's body up to its RETs). */
static void region(const rf_func *F, int entry, bool top, bool *in, int *stack)
{
    int nb = F->nblocks;
    for (int i = 0; i < nb; i++)
        in[i] = top;
    if (top)
        return;
    int sp = 0;
    in[entry] = true;
    stack[sp++] = entry;
    while (sp > 0) {
        const rf_block *bb = &F->blocks[stack[--sp]];
        for (int s = 0; s < bb->nsucc; s++) {
            int v = bb->succ[s];
            if (v >= 0 && v < nb && !in[v]) {
                in[v] = true;
                stack[sp++] = v;
            }
        }
    }
}

/* The code call instruction number `nth` of F (function fi of the module,
 * registers shifted by roff) enters: *body, its *entry block and register
 * shift *boff; false where it stays one instruction (an external or
 * unknown callee, the registers past 255, recursion, the limits). */
static bool callee_of(builder *b, const rf_func *F, int fi, const rf_inst *ci, int nth,
                      int roff, int depth, const rf_func **body, int *entry, int *boff,
                      int *bfi)
{
    if (depth >= RF_INLINE_MAX_DEPTH || b->nin >= RF_INLINE_MAX_INSTS ||
        b->nbl >= RF_KIR_MAX_BLOCKS / 2)
        return false;
    if (F->physical && b->phys == NULL) {
        /* SASS: a subroutine of F's own text. */
        if (ci->target < 0 || ci->target >= F->nblocks)
            return false;
        *body = F;
        *entry = ci->target;
        *boff = roff;
        *bfi = fi;
    } else {
        /* PTX: the module's nth call edge out of fi, to its allocated code,
         * its registers above the caller's. */
        int seen = 0, ce = -1;
        for (int c = 0; c < b->m->ncalls && ce < 0; c++)
            if (b->m->calls[c].caller == fi && seen++ == nth)
                ce = b->m->calls[c].callee;
        if (ce < 0 || !b->phys[ce] || b->phys[ce]->nblocks == 0)
            return false;
        *body = b->phys[ce];
        *entry = 0;
        *boff = roff + F->nregs;
        *bfi = ce;
        if (*boff + (*body)->nregs > 255)
            return false;
    }
    long key = (long)*bfi * RF_KIR_MAX_BLOCKS + *entry;
    for (int d = 0; d < depth; d++)
        if (b->active[d] == key)
            return false;
    b->active[depth] = key;
    return true;
}

static void shift_regs(rf_inst *in, int roff)
{
    if (roff == 0)
        return;
    for (int k = 0; k < in->ndefs; k++)
        if (in->defs[k] < RF_PRED_BASE)
            in->defs[k] = (uint16_t)(in->defs[k] + roff);
    for (int k = 0; k < in->nuses; k++)
        if (in->uses[k] < RF_PRED_BASE)
            in->uses[k] = (uint16_t)(in->uses[k] + roff);
}

/* Emits the region of F (function fi) from `entry` (suffix on its labels,
 * registers shifted by roff), each call in it followed by a copy of what
 * it calls; a copy's RET blocks are left in b->rets for the caller to
 * point at the rest of the calling block. */
static int emit(builder *b, const rf_func *F, int fi, int entry, bool top, int depth,
                const char *suffix, int roff)
{
    int nb = F->nblocks;
    bool *in = malloc((size_t)nb * sizeof *in);
    int *stack = malloc((size_t)nb * sizeof *stack);
    int *map = malloc((size_t)nb * sizeof *map);     /* block -> its first output block */
    int *last = malloc((size_t)nb * sizeof *last);   /* block -> its last output block */
    int rc = RF_ENOMEM;
    if (!in || !stack || !map || !last)
        goto out;
    if (roff + F->nregs > b->nregs)
        b->nregs = roff + F->nregs;
    region(F, entry, top, in, stack);
    /* Calls numbered in F's order (its blocks outside the region too), as
     * the module lists its call edges. */
    int ncall = 0;
    for (int v = 0; v < nb; v++) {
        const rf_block *src = &F->blocks[v];
        if (!in[v]) {
            for (int i = src->first; i < src->first + src->ninsts; i++)
                ncall += F->insts[i].cls == RF_OC_CALL;
            continue;
        }
        int cur = new_block(b, F, v, suffix);
        if (cur < 0)
            goto out;
        map[v] = cur;
        for (int i = src->first; i < src->first + src->ninsts; i++) {
            if (kir_grow((void **)&b->in, &b->capin, b->nin, sizeof *b->in))
                goto out;
            rf_inst *ni = &b->in[b->nin++];
            *ni = F->insts[i];
            shift_regs(ni, roff);
            b->bl[cur].ninsts++;
            const rf_inst *ci = &F->insts[i];
            if (ci->cls != RF_OC_CALL)
                continue;
            const rf_func *body;
            int bentry, boff, bfi;
            if (!callee_of(b, F, fi, ci, ncall++, roff, depth, &body, &bentry, &boff, &bfi)) {
                ni->target = -1;    /* one instruction, entering nothing walked */
                continue;
            }
            /* The call's block falls into the copy; the copy's RETs go to
             * the rest of the block. */
            b->bl[cur].nsucc = 1;
            b->bl[cur].succ[0] = b->nbl;
            b->in[b->nin - 1].target = b->nbl;
            int first_ret = b->nrets;
            char sub[64], rest[64];
            int n = ++b->copies;
            snprintf(sub, sizeof sub, "%s.c%d", suffix, n);
            snprintf(rest, sizeof rest, "%s.r%d", suffix, n);
            rc = emit(b, body, bfi, bentry, false, depth + 1, sub, boff);
            if (rc)
                goto out;
            rc = RF_ENOMEM;
            cur = new_block(b, F, v, rest);
            if (cur < 0)
                goto out;
            for (int r = first_ret; r < b->nrets; r++) {
                rf_block *rb = &b->bl[b->rets[r]];
                rf_inst *ret = &b->in[rb->first + rb->ninsts - 1];
                ret->cls = RF_OC_BRANCH;
                ret->target = cur;
                if (ret->guard >= 0 && rb->nsucc == 1) {
                    rb->nsucc = 2;              /* @P RET: taken returns */
                    rb->succ[1] = cur;
                } else {
                    ret->guard = -1;
                    rb->nsucc = 1;
                    rb->succ[0] = cur;
                }
            }
            b->nrets = first_ret;
        }
        last[v] = cur;
        /* The rest of the block (or all of it) ends as the block did. */
        b->bl[cur].nsucc = src->nsucc;
        if (!top && src->ninsts > 0 && is_ret(b, &F->insts[src->first + src->ninsts - 1])) {
            if (kir_grow((void **)&b->rets, &b->caprets, b->nrets, sizeof *b->rets))
                goto out;
            b->rets[b->nrets++] = cur;
        }
    }
    /* Successors and branch targets within the region. */
    for (int v = 0; v < nb; v++) {
        if (!in[v])
            continue;
        const rf_block *src = &F->blocks[v];
        rf_block *o = &b->bl[last[v]];
        for (int s = 0; s < src->nsucc; s++)
            o->succ[s] = src->succ[s] >= 0 && src->succ[s] < nb ? map[src->succ[s]] : -1;
        if (o->ninsts > 0) {
            rf_inst *li = &b->in[o->first + o->ninsts - 1];
            if (li->cls == RF_OC_BRANCH && li->target >= 0 && li->target < nb)
                li->target = map[li->target];
        }
    }
    rc = RF_OK;
out:
    free(in);
    free(stack);
    free(map);
    free(last);
    return rc;
}

int rf_inline_calls(const rf_module *m, int fi, const rf_func *f,
                    const rf_func *const *phys, rf_func **out, rf_err *err)
{
    *out = NULL;
    bool calls = false;
    for (int i = 0; i < f->ninsts && !calls; i++)
        calls = f->insts[i].cls == RF_OC_CALL &&
                (phys ? true : f->physical && f->insts[i].target >= 0 &&
                                   f->insts[i].target < f->nblocks);
    if (!calls)
        return RF_OK;
    builder b;
    memset(&b, 0, sizeof b);
    b.m = m;
    b.phys = phys;
    int rc = emit(&b, f, fi, 0, true, 0, "", 0);
    if (!rc && b.copies == 0) {
        free(b.in);
        free(b.bl);
        free(b.rets);
        return RF_OK;           /* no call leads anywhere rfkit can walk */
    }
    rf_func *g = rc ? NULL : malloc(sizeof *g);
    if (!g) {
        free(b.in);
        free(b.bl);
        free(b.rets);
        if (b.full)
            return rf_err_set(err, RF_ELIMIT, m->path, 0, 0, f->name,
                              "the code it calls, copied at its calls, makes more than %d "
                              "basic blocks", RF_KIR_MAX_BLOCKS);
        return rf_err_set(err, RF_ENOMEM, m->path, 0, 0, f->name, "out of memory");
    }
    *g = *f;
    g->insts = b.in;
    g->ninsts = b.nin;
    g->blocks = b.bl;
    g->nblocks = b.nbl;
    g->nregs = b.nregs;
    g->regs = NULL;
    free(b.rets);
    *out = g;
    return RF_OK;
}

int rf_inline_subroutines(const rf_module *m, const rf_func *f, rf_func **out, rf_err *err)
{
    *out = NULL;
    if (!f->physical)
        return RF_OK;
    return rf_inline_calls(m, (int)(f - m->funcs), f, NULL, out, err);
}

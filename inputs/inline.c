/* inline.c - SASS subroutines walked where they are called (inline.h). */
#include "inline.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct builder {
    const rf_module *m;
    const rf_func *f;
    rf_inst *in;
    int nin, capin;
    rf_block *bl;
    int nbl, capbl;
    int copies;            /* calls copied so far: the labels' ".cN" */
    int *rets;             /* blocks closed by a copied RET, not yet patched */
    int nrets, caprets;
    int active[RF_INLINE_MAX_DEPTH + 1];   /* subroutine entries being copied */
    bool full;             /* past RF_KIR_MAX_BLOCKS */
} builder;

static bool grow(void **p, int *cap, int n, size_t size)
{
    if (n < *cap)
        return true;
    int nc = *cap ? 2 * *cap : 64;
    void *np = realloc(*p, (size_t)nc * size);
    if (!np)
        return false;
    *p = np;
    *cap = nc;
    return true;
}

static bool is_ret(const builder *b, const rf_inst *in)
{
    return in->cls == RF_OC_EXIT && in->opcode >= 0 && in->opcode < b->m->nopnames &&
           strcmp(b->m->opnames[in->opcode], "RET") == 0;
}

/* A new output block with block `from`'s label (+ suffix) and profile. */
static int new_block(builder *b, int from, const char *suffix)
{
    if (b->nbl >= RF_KIR_MAX_BLOCKS) {
        b->full = true;
        return -1;
    }
    if (!grow((void **)&b->bl, &b->capbl, b->nbl, sizeof *b->bl))
        return -1;
    rf_block *o = &b->bl[b->nbl];
    *o = b->f->blocks[from];
    char lab[sizeof o->label];
    snprintf(lab, sizeof lab, "%s%s", b->f->blocks[from].label, suffix);
    memcpy(o->label, lab, sizeof lab);
    o->first = b->nin;
    o->ninsts = 0;
    o->nsucc = 0;
    o->succ[0] = o->succ[1] = -1;
    return b->nbl++;
}

/* The blocks of f from `entry` on: every block when top, else those its
 * edges reach (a subroutine's body up to its RETs). */
static void region(const rf_func *f, int entry, bool top, bool *in, int *stack)
{
    int nb = f->nblocks;
    for (int i = 0; i < nb; i++)
        in[i] = top;
    if (top)
        return;
    int sp = 0;
    in[entry] = true;
    stack[sp++] = entry;
    while (sp > 0) {
        const rf_block *bb = &f->blocks[stack[--sp]];
        for (int s = 0; s < bb->nsucc; s++) {
            int v = bb->succ[s];
            if (v >= 0 && v < nb && !in[v]) {
                in[v] = true;
                stack[sp++] = v;
            }
        }
    }
}

/* Emits the region of f from `entry` (suffix on its labels), each call in
 * it followed by a copy of its subroutine; a copy's RET blocks are left in
 * b->rets for the caller to point at the rest of the calling block. */
static int emit(builder *b, int entry, bool top, int depth, const char *suffix)
{
    const rf_func *f = b->f;
    int nb = f->nblocks;
    bool *in = malloc((size_t)nb * sizeof *in);
    int *stack = malloc((size_t)nb * sizeof *stack);
    int *map = malloc((size_t)nb * sizeof *map);     /* block -> its first output block */
    int *last = malloc((size_t)nb * sizeof *last);   /* block -> its last output block */
    int rc = RF_ENOMEM;
    if (!in || !stack || !map || !last)
        goto out;
    region(f, entry, top, in, stack);
    for (int v = 0; v < nb; v++) {
        if (!in[v])
            continue;
        int cur = new_block(b, v, suffix);
        if (cur < 0)
            goto out;
        map[v] = cur;
        const rf_block *src = &f->blocks[v];
        for (int i = src->first; i < src->first + src->ninsts; i++) {
            if (!grow((void **)&b->in, &b->capin, b->nin, sizeof *b->in))
                goto out;
            b->in[b->nin++] = f->insts[i];
            b->bl[cur].ninsts++;
            const rf_inst *ci = &f->insts[i];
            if (ci->cls != RF_OC_CALL || ci->target < 0 || ci->target >= nb ||
                depth >= RF_INLINE_MAX_DEPTH || b->nin >= RF_INLINE_MAX_INSTS ||
                b->nbl >= RF_KIR_MAX_BLOCKS / 2)
                continue;
            bool recursive = false;
            for (int d = 0; d < depth; d++)
                recursive |= b->active[d] == ci->target;
            if (recursive)
                continue;
            b->active[depth] = ci->target;
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
            rc = emit(b, ci->target, false, depth + 1, sub);
            if (rc)
                goto out;
            rc = RF_ENOMEM;
            cur = new_block(b, v, rest);
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
        rf_block *o = &b->bl[cur];
        o->nsucc = src->nsucc;
        if (!top && src->ninsts > 0 && is_ret(b, &f->insts[src->first + src->ninsts - 1])) {
            if (!grow((void **)&b->rets, &b->caprets, b->nrets, sizeof *b->rets))
                goto out;
            b->rets[b->nrets++] = cur;
        }
    }
    /* Successors and branch targets within the region. */
    for (int v = 0; v < nb; v++) {
        if (!in[v])
            continue;
        const rf_block *src = &f->blocks[v];
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

int rf_inline_subroutines(const rf_module *m, const rf_func *f, rf_func **out, rf_err *err)
{
    *out = NULL;
    bool calls = false;
    for (int i = 0; f->physical && i < f->ninsts && !calls; i++)
        calls = f->insts[i].cls == RF_OC_CALL && f->insts[i].target >= 0 &&
                f->insts[i].target < f->nblocks;
    if (!calls)
        return RF_OK;
    builder b;
    memset(&b, 0, sizeof b);
    b.m = m;
    b.f = f;
    int rc = emit(&b, 0, true, 0, "");
    rf_func *g = rc ? NULL : malloc(sizeof *g);
    if (!g) {
        free(b.in);
        free(b.bl);
        free(b.rets);
        if (b.full)
            return rf_err_set(err, RF_ELIMIT, m->path, 0, 0, f->name,
                              "its subroutines copied at their calls make more than %d "
                              "basic blocks", RF_KIR_MAX_BLOCKS);
        return rf_err_set(err, RF_ENOMEM, m->path, 0, 0, f->name, "out of memory");
    }
    *g = *f;
    g->insts = b.in;
    g->ninsts = b.nin;
    g->blocks = b.bl;
    g->nblocks = b.nbl;
    g->regs = NULL;
    free(b.rets);
    *out = g;
    return RF_OK;
}

/* dstcount.c - destination counts and conflict-aware register renumbering
 * (seed 002, HI-RF + CAC: Section 3 Best/Worst policies, Section 4
 * Algorithm 1), with profile-weighted counts from expected block
 * frequencies.
 *
 * Destination count of register r: the number of static instructions that
 * write r (seed 002 Section 4: "how frequently registers are used as
 * destination operands"); a 64-bit result written to an aligned pair
 * counts once for each 32-bit half.  Guarded writes count in full.
 *
 * Weighted count: sum over writing instructions of the expected executions
 * of their block per thread, f(B): rf_kchar_freq (analytic/kchar.c), the
 * one block frequency of rfkit, whose edges are those the sampler's warps
 * take (a back edge taken with trip / (trip + 1), a forward branch with
 * `taken`, the spec's [branches] and constant trip counts first, a warp
 * ending at any exit).
 *
 * Loop-weighted count: each destination counts W^n, n = the natural loops
 * enclosing its block, W = 10 for rfkit's CAC (RF_CAC_LOOP_WEIGHT): the
 * static estimate of execution counts graph-colouring allocators use for
 * spill costs.  Seed 002 feeds Algorithm 1 the plain counts (cac-plain) and
 * notes they miss repeated execution; on the bundled kernels the plain
 * counts rank registers written once in a loop body below registers
 * written several times outside it, and Algorithm 1 on them gives more
 * conflicts than rfkit's own allocation on hotspot, libor and spmv
 * (bench_hirf), the loop-weighted counts none (libor 24.6 vs 24.4, plain
 * 31.9 write-backs per 100 writes).
 *
 * CAC (Algorithm 1): sort registers by destination count, descending;
 * the i-th register of the sorted list gets ID i.  With concatenated or
 * TEA indexing, IDs i, i + nsets, i + 2 nsets, ... form a critical set, so
 * the nsets most written registers fall in distinct sets and each set
 * holds registers far apart in write count.  Best is the same ordering
 * driven by measured dynamic write counts; Worst fills critical set 0 with
 * the most written registers, then set 1, ..., grouping similar counts
 * (Section 3, Fig. 4).
 * Aligned tuples: CAC renumbers SASS (Section 4), where a 64-bit operand
 * is an aligned pair R2k:R2k+1 and a 128-bit one an aligned quad.  A block
 * of registers that some instruction writes as one operand (consecutive
 * destinations starting at a multiple of the width) moves as a unit: the
 * units are sorted by the mean count of their members (descending, ties by
 * lowest register, as Algorithm 1's stable sort keeps the original order),
 * and each unit takes the first free block of its width, aligned to it, in
 * the policy's ID order (ascending for CAC and Best; set 0's IDs, then set
 * 1's, ... for Worst).  With single registers only this is exactly
 * "i-th in the sorted list gets ID i" (CAC, Best) and the set-by-set fill
 * (Worst).  Holes left by alignment are filled by later singles; the new
 * IDs may then reach a little past nregs - 1.
 *
 * Inputs: physical rf_func; profile trip (>= 0) and taken (0..1).
 * Outputs: per-block expected executions; per-register counts (writes per
 * thread); permutations map[old] = new of 0..nregs-1.
 */
#include "dstcount.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kchar.h"
#include "liveness.h"

/* Natural loops: header_of[b] = innermost loop (its header block) holding
 * b, or -1; parent[h] = the loop enclosing header h's loop, -1.  Natural
 * loops with different headers are disjoint or nested, so the loop nest is
 * a forest and "b in the loop of h" is a walk up from header_of[b]. */
typedef struct loops {
    int nb;
    int nloops;
    int *header_of;     /* innermost loop (its header block) of each block, -1 */
    int *parent;        /* per header: header of the enclosing loop, -1 */
    int *body_size;     /* per header: blocks in its loop, 0 = not a header */
} loops;

static void loops_free(loops *L)
{
    free(L->header_of);
    free(L->parent);
    free(L->body_size);
}

typedef struct loop_rank {
    int size;           /* body size */
    int i;              /* index into the header list */
} loop_rank;

/* Larger bodies first; ties (disjoint loops) in header-list order. */
static int cmp_body_desc(const void *a, const void *b)
{
    const loop_rank *x = a, *y = b;
    return x->size != y->size ? (x->size < y->size) - (x->size > y->size)
                              : (x->i > y->i) - (x->i < y->i);
}

/* Dominators by the iterative algorithm of Cooper, Harvey and Kennedy ("A
 * simple, fast dominance algorithm", 2001) over the reverse postorder, then
 * h dom u by the dominator tree's DFS intervals; back edges u -> h with h
 * dominating u; each header's loop is what reaches its latches backwards
 * without passing h.  O(blocks x loop depth) time and memory. */
static int loops_find(const rf_func *f, loops *L)
{
    int nb = f->nblocks;
    memset(L, 0, sizeof *L);
    L->nb = nb;
    size_t n = (size_t)nb;
    unsigned char *reach = calloc(n, 1);
    int *stack = malloc(n * sizeof *stack);
    int *edge = malloc(n * sizeof *edge);
    int *rpo = malloc(n * sizeof *rpo);        /* reverse postorder number, -1 */
    int *order = malloc(n * sizeof *order);    /* blocks by rpo */
    int *idom = malloc(n * sizeof *idom);
    int *pstart = calloc(n + 1, sizeof *pstart);
    int *plist = malloc((2 * n + 1) * sizeof *plist);
    int *npred = calloc(n, sizeof *npred);
    int *tin = malloc(n * sizeof *tin), *tout = malloc(n * sizeof *tout);
    int *kstart = calloc(n + 1, sizeof *kstart), *kids = malloc(n * sizeof *kids);
    int *mark = malloc(n * sizeof *mark);
    int *heads = malloc(n * sizeof *heads);
    L->header_of = malloc(n * sizeof *L->header_of);
    L->parent = malloc(n * sizeof *L->parent);
    L->body_size = calloc(n, sizeof *L->body_size);
    int *body = NULL, *bstart = NULL;
    int rc = RF_OK;
    if (!reach || !stack || !edge || !rpo || !order || !idom || !pstart || !plist || !npred
        || !tin || !tout || !kstart || !kids || !mark || !heads || !L->header_of || !L->parent
        || !L->body_size) {
        rc = RF_ENOMEM;
        goto out;
    }
    /* Reachability and postorder from the entry (iterative DFS). */
    int sp = 0, post = 0;
    stack[sp] = 0;
    edge[sp++] = 0;
    reach[0] = 1;
    while (sp) {
        int b = stack[sp - 1];
        int s = edge[sp - 1]++;
        if (s < f->blocks[b].nsucc) {
            int t = f->blocks[b].succ[s];
            if (!reach[t]) {
                reach[t] = 1;
                stack[sp] = t;
                edge[sp++] = 0;
            }
            continue;
        }
        order[post++] = b;
        sp--;
    }
    int nr = post;
    for (int b = 0; b < nb; b++)
        rpo[b] = -1;
    for (int i = 0; i < nr / 2; i++) {
        int t = order[i];
        order[i] = order[nr - 1 - i];
        order[nr - 1 - i] = t;
    }
    for (int i = 0; i < nr; i++)
        rpo[order[i]] = i;
    /* Predecessor lists (reachable edges only). */
    for (int b = 0; b < nb; b++)
        if (reach[b])
            for (int s = 0; s < f->blocks[b].nsucc; s++)
                npred[f->blocks[b].succ[s]]++;
    for (int b = 0; b < nb; b++)
        pstart[b + 1] = pstart[b] + npred[b];
    memset(npred, 0, n * sizeof *npred);
    for (int b = 0; b < nb; b++)
        if (reach[b])
            for (int s = 0; s < f->blocks[b].nsucc; s++) {
                int t = f->blocks[b].succ[s];
                plist[pstart[t] + npred[t]++] = b;
            }
    /* Immediate dominators. */
    for (int b = 0; b < nb; b++)
        idom[b] = -1;
    idom[0] = 0;
    bool changed = true;
    while (changed) {
        changed = false;
        for (int i = 1; i < nr; i++) {
            int b = order[i], nd = -1;
            for (int p = pstart[b]; p < pstart[b + 1]; p++) {
                int q = plist[p];
                if (idom[q] < 0)
                    continue;
                if (nd < 0) {
                    nd = q;
                    continue;
                }
                int x = q, y = nd;
                while (x != y) {
                    while (rpo[x] > rpo[y])
                        x = idom[x];
                    while (rpo[y] > rpo[x])
                        y = idom[y];
                }
                nd = x;
            }
            if (nd >= 0 && idom[b] != nd) {
                idom[b] = nd;
                changed = true;
            }
        }
    }
    /* Dominator tree intervals: h dom u iff tin[h] <= tin[u] && tout[u] <= tout[h]. */
    for (int b = 1; b < nb; b++)
        if (reach[b] && idom[b] >= 0)
            kstart[idom[b] + 1]++;
    for (int b = 0; b < nb; b++)
        kstart[b + 1] += kstart[b];
    memset(npred, 0, n * sizeof *npred);
    for (int b = 1; b < nb; b++)
        if (reach[b] && idom[b] >= 0)
            kids[kstart[idom[b]] + npred[idom[b]]++] = b;
    int clock = 0;
    sp = 0;
    stack[sp] = 0;
    edge[sp++] = kstart[0];
    tin[0] = clock++;
    while (sp) {
        int b = stack[sp - 1];
        if (edge[sp - 1] < kstart[b + 1]) {
            int c = kids[edge[sp - 1]++];
            tin[c] = clock++;
            stack[sp] = c;
            edge[sp++] = kstart[c];
            continue;
        }
        tout[b] = clock++;
        sp--;
    }
    /* Loop bodies, header by header: collect each header's latches first. */
    int nh = 0;
    for (int b = 0; b < nb; b++)
        mark[b] = -1;
    for (int u = 0; u < nb; u++) {
        if (!reach[u])
            continue;
        for (int s = 0; s < f->blocks[u].nsucc; s++) {
            int h = f->blocks[u].succ[s];
            if (tin[h] <= tin[u] && tout[u] <= tout[h] && !L->body_size[h]) {
                L->body_size[h] = 1;
                heads[nh++] = h;
            }
        }
    }
    L->nloops = nh;
    /* Body sizes first (a backward walk per header), then the members. */
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            bstart = malloc(((size_t)nh + 1) * sizeof *bstart);
            body = malloc((total > 0 ? total : 1) * sizeof *body);
            if (!bstart || !body) {
                rc = RF_ENOMEM;
                goto out;
            }
            bstart[0] = 0;
        }
        total = 0;
        for (int i = 0; i < nh; i++) {
            int h = heads[i], size = 1;
            mark[h] = pass * nb + h;
            if (pass == 1)
                body[total] = h;
            sp = 0;
            for (int p = pstart[h]; p < pstart[h + 1]; p++) {
                int u = plist[p];
                if (tin[h] <= tin[u] && tout[u] <= tout[h] && mark[u] != pass * nb + h) {
                    mark[u] = pass * nb + h;
                    stack[sp++] = u;
                }
            }
            while (sp) {
                int x = stack[--sp];
                if (pass == 1)
                    body[total + (size_t)size] = x;
                size++;
                for (int p = pstart[x]; p < pstart[x + 1]; p++) {
                    int y = plist[p];
                    if (mark[y] != pass * nb + h) {
                        mark[y] = pass * nb + h;
                        stack[sp++] = y;
                    }
                }
            }
            L->body_size[h] = size;
            total += (size_t)size;
            if (pass == 1)
                bstart[i + 1] = (int)total;
        }
    }
    /* Outer loops first, so each block ends with its innermost header and
     * each header, before its own loop is laid, sees the enclosing one. */
    loop_rank *byh = malloc(((size_t)nh > 0 ? (size_t)nh : 1) * sizeof *byh);
    if (!byh) {
        rc = RF_ENOMEM;
        goto out;
    }
    for (int i = 0; i < nh; i++)
        byh[i] = (loop_rank){L->body_size[heads[i]], i};
    qsort(byh, (size_t)nh, sizeof *byh, cmp_body_desc);
    for (int b = 0; b < nb; b++) {
        L->header_of[b] = -1;
        L->parent[b] = -1;
    }
    for (int k = 0; k < nh; k++) {
        int i = byh[k].i, h = heads[i];
        L->parent[h] = L->header_of[h];
        for (int j = bstart[i]; j < bstart[i + 1]; j++)
            L->header_of[body[j]] = h;
    }
    free(byh);
out:
    free(stack), free(edge), free(rpo), free(order), free(idom), free(pstart), free(plist);
    free(npred), free(tin), free(tout), free(kstart), free(kids), free(mark), free(heads);
    free(body), free(bstart), free(reach);
    if (rc) {
        loops_free(L);
        memset(L, 0, sizeof *L);
        return rc;
    }
    return 0;
}

int rf_dst_loop_depth(const rf_func *f, int *depth)
{
    loops L;
    if (loops_find(f, &L))
        return 0;
    for (int b = 0; b < f->nblocks; b++) {
        depth[b] = 0;
        for (int x = L.header_of[b]; x >= 0; x = L.parent[x])
            depth[b]++;
    }
    int n = L.nloops;
    loops_free(&L);
    return n;
}

int rf_dst_block_freq(const rf_func *f, double trip, double taken,
                      const bool *absorb, double *freq, double *edge_freq, rf_err *err)
{
    int rc = rf_live_check(f, err);
    if (rc)
        return rc;
    if (!(trip >= 0) || !isfinite(trip))
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "trip", "%g is not a trip count >= 0", trip);
    if (!(taken >= 0 && taken <= 1))
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "taken", "%g is not a probability", taken);
    return rf_kchar_freq(f, trip, taken, absorb, freq, edge_freq, err);
}

int rf_dst_static(const rf_func *f, double count[RF_MAX_GPR], rf_err *err)
{
    return rf_dst_weighted(f, NULL, count, err);
}

int rf_dst_weighted(const rf_func *f, const double *block_freq,
                    double count[RF_MAX_GPR], rf_err *err)
{
    int rc = rf_live_check(f, err);
    if (rc)
        return rc;
    memset(count, 0, RF_MAX_GPR * sizeof *count);
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *bb = &f->blocks[b];
        double w = block_freq ? block_freq[b] : 1.0;
        for (int i = bb->first; i < bb->first + bb->ninsts; i++) {
            const rf_inst *in = &f->insts[i];
            for (int k = 0; k < in->ndefs; k++)
                if (in->defs[k] < RF_MAX_GPR)
                    count[in->defs[k]] += w;
        }
    }
    return 0;
}

int rf_dst_loop_weighted(const rf_func *f, double weight, double count[RF_MAX_GPR],
                         rf_err *err)
{
    size_t nb = (size_t)(f->nblocks > 0 ? f->nblocks : 1);
    int *depth = calloc(nb, sizeof *depth);
    double *w = calloc(nb, sizeof *w);
    if (!depth || !w) {
        free(depth);
        free(w);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    }
    rf_dst_loop_depth(f, depth);
    for (int b = 0; b < f->nblocks; b++)
        w[b] = pow(weight, depth[b]);
    int rc = rf_dst_weighted(f, w, count, err);
    free(depth);
    free(w);
    return rc;
}

int rf_dst_tuples(const rf_func *f, uint8_t width[RF_MAX_GPR])
{
    uint8_t mark[RF_MAX_GPR] = {0};
    for (int i = 0; i < f->ninsts; i++) {
        const rf_inst *in = &f->insts[i];
        int n = in->ndefs;
        for (int k = 0; k + 1 < n;) {
            int r = in->defs[k];
            if (r >= RF_MAX_GPR - 1 || r % 2 || in->defs[k + 1] != r + 1) {
                k++;
                continue;
            }
            int w = 2;
            if (r % 4 == 0 && k + 3 < n && in->defs[k + 2] == r + 2 && in->defs[k + 3] == r + 3)
                w = 4;
            if (mark[r] < w)
                mark[r] = (uint8_t)w;
            k += w;
        }
    }
    int units = 0;
    for (int r = 0; r < RF_MAX_GPR;) {
        int w = mark[r] == 4 ? 4 : mark[r] == 2 ? 2 : 1;
        width[r] = (uint8_t)w;
        for (int k = 1; k < w; k++)
            width[r + k] = 0;
        units++;
        r += w;
    }
    return units;
}

/* Units (aligned tuples or single registers) of 0..nregs-1 sorted by the
 * mean count of their members, descending, ties by lowest register. */
static int sort_units(const double *count, const uint8_t *width, int nregs, int *lead,
                      int *w_of)
{
    int n = 0;
    double key[RF_MAX_GPR];
    for (int r = 0; r < nregs;) {
        int w = width ? width[r] : 1;
        if (w < 1)
            w = 1;
        double sum = 0;
        for (int k = 0; k < w; k++)
            sum += r + k < nregs ? count[r + k] : 0;
        lead[n] = r;
        w_of[n] = w;
        key[n] = sum / w;
        n++;
        r += w;
    }
    /* Insertion sort: stable, n <= 256. */
    for (int i = 1; i < n; i++) {
        int l = lead[i], w = w_of[i], j = i;
        double k = key[i];
        while (j > 0 && key[j - 1] < k) {
            lead[j] = lead[j - 1];
            w_of[j] = w_of[j - 1];
            key[j] = key[j - 1];
            j--;
        }
        lead[j] = l;
        w_of[j] = w;
        key[j] = k;
    }
    return n;
}

/* Place the sorted units: each takes the first free, width-aligned block
 * whose first ID comes earliest in ids[0..nids-1] (a permutation of
 * 0..RF_MAX_GPR-1 giving the policy's order).  Returns the ID span. */
static int place_units(const double *count, const uint8_t *width, int nregs, const int *ids,
                       int nids, int *map)
{
    int lead[RF_MAX_GPR], w_of[RF_MAX_GPR];
    int n = sort_units(count, width, nregs, lead, w_of);
    bool taken[RF_MAX_GPR] = {false};
    int span = 0;
    for (int r = 0; r < nregs; r++)
        map[r] = r;
    for (int u = 0; u < n; u++) {
        int w = w_of[u], at = -1;
        for (int i = 0; i < nids && at < 0; i++) {
            int p = ids[i];
            if (p % w || p + w > RF_MAX_GPR)
                continue;
            bool free_ = true;
            for (int k = 0; k < w; k++)
                free_ = free_ && !taken[p + k];
            if (free_)
                at = p;
        }
        assert(at >= 0);
        for (int k = 0; k < w; k++) {
            taken[at + k] = true;
            if (lead[u] + k < nregs)
                map[lead[u] + k] = at + k;
        }
        if (at + w > span)
            span = at + w;
    }
    return span;
}

int rf_dst_cac_aligned(const double *count, const uint8_t *width, int nregs, int *map)
{
    int ids[RF_MAX_GPR];
    for (int i = 0; i < RF_MAX_GPR; i++)
        ids[i] = i;
    return place_units(count, width, nregs, ids, RF_MAX_GPR, map);
}

int rf_dst_worst_aligned(const double *writes, const uint8_t *width, int nregs, int nsets,
                         int *map)
{
    if (nsets < 1)
        nsets = 1;
    /* Set-major order over the IDs 0..nregs-1 (set 0's IDs first), then
     * the IDs above them for what alignment pushes out. */
    int ids[RF_MAX_GPR], n = 0;
    for (int s = 0; s < nsets; s++)
        for (int id = s; id < nregs; id += nsets)
            ids[n++] = id;
    for (int id = nregs; id < RF_MAX_GPR; id++)
        ids[n++] = id;
    return place_units(writes, width, nregs, ids, n, map);
}

void rf_dst_cac(const double *count, int nregs, int *map)
{
    rf_dst_cac_aligned(count, NULL, nregs, map);
}

void rf_dst_best(const double *writes, int nregs, int *map)
{
    rf_dst_cac_aligned(writes, NULL, nregs, map);
}

void rf_dst_worst(const double *writes, int nregs, int nsets, int *map)
{
    rf_dst_worst_aligned(writes, NULL, nregs, nsets, map);
}

void rf_dst_permute(const double *in, int nregs, const int *map, double *out)
{
    for (int r = 0; r < nregs; r++)
        out[map[r]] = in[r];
}

void rf_dst_rename(rf_func *f, const int *map, int nregs)
{
    for (int i = 0; i < f->ninsts; i++) {
        rf_inst *in = &f->insts[i];
        for (int k = 0; k < in->ndefs; k++)
            if (in->defs[k] < nregs)
                in->defs[k] = (uint16_t)map[in->defs[k]];
        for (int k = 0; k < in->nuses; k++)
            if (in->uses[k] < nregs)
                in->uses[k] = (uint16_t)map[in->uses[k]];
    }
}

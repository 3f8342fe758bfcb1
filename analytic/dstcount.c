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
 * of their block per thread, f(B), from the absorbing Markov chain of the
 * CFG under the profile:
 *     f = e_entry + P^T f,   i.e.  (I - P^T) f = e_entry,
 * solved by LU decomposition (GSL).  Edge probabilities: a conditional
 * branch of block B whose two successors lie on different sides of B's
 * innermost natural loop leaves the loop with probability 1 / (trip + 1)
 * (trip = times a back edge is taken per entry, the spec's meaning, so a
 * loop runs trip + 1 times); any other conditional branch goes to its
 * taken successor with probability `taken`.  Blocks not reachable from
 * the entry run 0 times.  Natural loops come from back
 * edges u -> h with h dominating u (iterative dominator sets).
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

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "liveness.h"

#define MAX_FREQ_BLOCKS 4096

/* Natural loops: loop_of[b] = innermost loop header containing b (or -1),
 * size of each header's loop body. */
typedef struct loops {
    int nb;
    int nloops;
    int *header_of;     /* innermost loop (its header block) of each block, -1 */
    int *body_size;     /* per header: blocks in its loop, 0 = not a header */
    unsigned char *in;  /* nb x nb: in[h * nb + b] = b in loop of header h */
    unsigned char *reach; /* reachable from the entry */
} loops;

static void loops_free(loops *L)
{
    free(L->header_of);
    free(L->body_size);
    free(L->in);
    free(L->reach);
}

static int loops_find(const rf_func *f, loops *L)
{
    int nb = f->nblocks;
    memset(L, 0, sizeof *L);
    L->nb = nb;
    size_t words = ((size_t)nb + 63) / 64;
    uint64_t *dom = calloc((size_t)nb * words, sizeof *dom);
    unsigned char *reach = calloc((size_t)nb, 1);
    int *stack = malloc((size_t)nb * sizeof *stack);
    int *npred = calloc((size_t)nb, sizeof *npred);
    L->header_of = malloc((size_t)nb * sizeof *L->header_of);
    L->body_size = calloc((size_t)nb, sizeof *L->body_size);
    L->in = calloc((size_t)nb * (size_t)nb, 1);
    if (!dom || !reach || !stack || !npred || !L->header_of || !L->body_size || !L->in) {
        free(dom), free(reach), free(stack), free(npred);
        loops_free(L);
        return RF_ENOMEM;
    }
    /* Reachability from the entry. */
    int sp = 0;
    stack[sp++] = 0;
    reach[0] = 1;
    while (sp) {
        int b = stack[--sp];
        for (int s = 0; s < f->blocks[b].nsucc; s++) {
            int t = f->blocks[b].succ[s];
            if (!reach[t]) {
                reach[t] = 1;
                stack[sp++] = t;
            }
        }
    }
    /* Predecessor lists (reachable edges only). */
    int *pstart = calloc((size_t)nb + 1, sizeof *pstart);
    int *plist = malloc((size_t)(2 * nb + 1) * sizeof *plist);
    if (!pstart || !plist) {
        free(pstart), free(plist), free(dom), free(reach), free(stack), free(npred);
        loops_free(L);
        return RF_ENOMEM;
    }
    for (int b = 0; b < nb; b++)
        if (reach[b])
            for (int s = 0; s < f->blocks[b].nsucc; s++)
                npred[f->blocks[b].succ[s]]++;
    for (int b = 0; b < nb; b++)
        pstart[b + 1] = pstart[b] + npred[b];
    memset(npred, 0, (size_t)nb * sizeof *npred);
    for (int b = 0; b < nb; b++)
        if (reach[b])
            for (int s = 0; s < f->blocks[b].nsucc; s++) {
                int t = f->blocks[b].succ[s];
                plist[pstart[t] + npred[t]++] = b;
            }
    /* Dominator sets: dom(entry) = {entry}, dom(b) = {b} + meet of preds. */
    for (int b = 0; b < nb; b++)
        for (size_t k = 0; k < words; k++)
            dom[(size_t)b * words + k] = b == 0 ? 0 : ~(uint64_t)0;
    dom[0] = 1;
    bool changed = true;
    while (changed) {
        changed = false;
        for (int b = 1; b < nb; b++) {
            if (!reach[b])
                continue;
            uint64_t *d = &dom[(size_t)b * words];
            for (size_t k = 0; k < words; k++) {
                uint64_t m = ~(uint64_t)0;
                for (int p = pstart[b]; p < pstart[b + 1]; p++)
                    m &= dom[(size_t)plist[p] * words + k];
                if ((size_t)b / 64 == k)
                    m |= (uint64_t)1 << (b % 64);
                if (m != d[k]) {
                    d[k] = m;
                    changed = true;
                }
            }
        }
    }
    /* Back edges u -> h (h dominates u) and their natural loops. */
    for (int u = 0; u < nb; u++) {
        if (!reach[u])
            continue;
        for (int s = 0; s < f->blocks[u].nsucc; s++) {
            int h = f->blocks[u].succ[s];
            if (!((dom[(size_t)u * words + (size_t)h / 64] >> (h % 64)) & 1u))
                continue;
            unsigned char *body = &L->in[(size_t)h * nb];
            if (!L->body_size[h]) {
                L->nloops++;
                body[h] = 1;
                L->body_size[h] = 1;
            }
            sp = 0;
            if (!body[u]) {
                body[u] = 1;
                L->body_size[h]++;
                stack[sp++] = u;
            }
            while (sp) {
                int x = stack[--sp];
                for (int p = pstart[x]; p < pstart[x + 1]; p++) {
                    int y = plist[p];
                    if (!body[y]) {
                        body[y] = 1;
                        L->body_size[h]++;
                        stack[sp++] = y;
                    }
                }
            }
        }
    }
    for (int b = 0; b < nb; b++) {
        L->header_of[b] = -1;
        for (int h = 0; h < nb; h++)
            if (L->body_size[h] && L->in[(size_t)h * nb + b] &&
                (L->header_of[b] < 0 || L->body_size[h] < L->body_size[L->header_of[b]]))
                L->header_of[b] = h;
    }
    free(pstart), free(plist), free(dom), free(stack), free(npred);
    L->reach = reach;
    return 0;
}

int rf_dst_loop_depth(const rf_func *f, int *depth)
{
    loops L;
    if (loops_find(f, &L))
        return 0;
    for (int b = 0; b < f->nblocks; b++) {
        depth[b] = 0;
        for (int h = 0; h < f->nblocks; h++)
            if (L.body_size[h] && L.in[(size_t)h * f->nblocks + b])
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
    int nb = f->nblocks;
    if (nb > MAX_FREQ_BLOCKS)
        return rf_err_set(err, RF_ELIMIT, NULL, 0, 0, f->name,
                          "%d blocks exceed the %d the frequency solver takes", nb, MAX_FREQ_BLOCKS);
    loops L;
    if (loops_find(f, &L))
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory for loops");

    double *prob = calloc((size_t)nb * 2, sizeof *prob);
    gsl_matrix *A = gsl_matrix_calloc((size_t)nb, (size_t)nb);
    gsl_vector *rhs = gsl_vector_calloc((size_t)nb);
    gsl_vector *x = gsl_vector_alloc((size_t)nb);
    gsl_permutation *perm = gsl_permutation_alloc((size_t)nb);
    if (!prob || !A || !rhs || !x || !perm) {
        rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory for frequencies");
        goto out;
    }
    /* A = I - P^T: A[v][u] -= p(u -> v). */
    double p_exit = 1.0 / (trip + 1.0);
    for (int u = 0; u < nb; u++) {
        gsl_matrix_set(A, (size_t)u, (size_t)u, 1.0);
        const rf_block *bb = &f->blocks[u];
        /* Unreachable code (e.g. the trap loop after EXIT in SASS) runs 0 times. */
        if ((absorb && absorb[u]) || !L.reach[u])
            continue;
        double p[2] = {1.0, 0.0};
        if (bb->nsucc == 2 && bb->has_taken) {
            p[0] = 1 - bb->taken_p;     /* the kernel spec's [branches] */
            p[1] = bb->taken_p;
        } else if (bb->nsucc == 2 && bb->succ[0] != bb->succ[1]) {
            int h = L.header_of[u];
            bool in0 = h >= 0 && L.in[(size_t)h * nb + bb->succ[0]];
            bool in1 = h >= 0 && L.in[(size_t)h * nb + bb->succ[1]];
            if (h >= 0 && in0 != in1) {
                p[0] = in0 ? 1 - p_exit : p_exit;
                p[1] = in1 ? 1 - p_exit : p_exit;
            } else {
                p[0] = 1 - taken;
                p[1] = taken;
            }
        } else if (bb->nsucc == 2) {
            p[0] = 0.5;
            p[1] = 0.5;
        }
        for (int s = 0; s < bb->nsucc; s++) {
            size_t v = (size_t)bb->succ[s];
            prob[2 * u + s] = p[s];
            gsl_matrix_set(A, v, (size_t)u, gsl_matrix_get(A, v, (size_t)u) - p[s]);
        }
    }
    gsl_vector_set(rhs, 0, 1.0);
    int sign;
    gsl_linalg_LU_decomp(A, perm, &sign);
    for (int k = 0; k < nb; k++)
        if (fabs(gsl_matrix_get(A, (size_t)k, (size_t)k)) < 1e-12) {
            rc = rf_err_set(err, RF_EUNSUPPORTED, NULL, 0, 0, f->name,
                            "a loop has no way out, so block frequencies are unbounded");
            goto out;
        }
    gsl_linalg_LU_solve(A, perm, rhs, x);
    for (int b = 0; b < nb; b++) {
        double v = gsl_vector_get(x, (size_t)b);
        if (!isfinite(v)) {
            rc = rf_err_set(err, RF_EUNSUPPORTED, NULL, 0, 0, f->name,
                            "block frequencies are unbounded");
            goto out;
        }
        freq[b] = v < 1e-12 ? 0 : v;
    }
    if (edge_freq)
        for (int b = 0; b < nb; b++)
            for (int s = 0; s < 2; s++)
                edge_freq[2 * b + s] = freq[b] * prob[2 * b + s];
out:
    free(prob);
    gsl_matrix_free(A);
    gsl_vector_free(rhs);
    gsl_vector_free(x);
    gsl_permutation_free(perm);
    loops_free(&L);
    return rc;
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

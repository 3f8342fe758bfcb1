/* intervals.c - LTRF register-interval formation (seed 004 Section 3.3,
 * Algorithms 1 and 2, Fig. 6) and SHRF-style strands (Section 6, [20]).
 *
 * A register-interval is a single-entry subgraph of the CFG whose register
 * working set fits one warp's register-cache partition of N registers
 * (default 16).  A PREFETCH bit vector (256 bits, one per architectural
 * register) at its entry names the working set.
 *
 * Pass 1 (Algorithm 1).  Intervals grow from headers: the entry block
 * first, then, one after another (FIFO work list), every block reached from
 * a finished interval.  A block joins the current interval i when it is
 * not yet assigned and all its predecessors belong to i (single entry), and
 * the interval's registers plus those of the block's first instruction are
 * at most N.  TRAVERSE walks the block's instructions adding the registers
 * each reads or writes; when the set would exceed N the block is cut and
 * the rest becomes the header of a new interval (lines 30-37).  A block
 * calling a function is cut around the call, which becomes its own
 * interval.  Loop headers have a predecessor inside the loop, so they
 * always start an interval.
 * Pass 2 (Algorithm 2).  The same growth over the graph of intervals
 * (edges between distinct intervals; self edges are internal): an interval
 * is absorbed into the next-level interval ii when all its predecessors are
 * in ii and the union of registers stays at most N.  Repeated until no
 * interval merges; each round can fold one level of loop nesting (Fig. 6).
 *
 * Working set rule (an interpretation): the seed's Algorithm 1 tests the
 * union of the predecessors' register lists; we test the union of the
 * whole interval, so the PREFETCH set of every interval fits the N-entry
 * partition on any path ("enough to house both the active registers
 * already in the register-interval and the ones added by the new block").
 * Only general registers count (predicates live in their own file).  An
 * instruction that alone needs more than N registers forms an interval by
 * itself (flagged `over`).
 *
 * Strands (for comparison, LTRF (strand) / SHRF of Section 6): pass 1 only,
 * and additionally a strand ends after a long- or variable-latency
 * operation (global/local load, atomic, barrier) and at a backward branch:
 * no block reached over an edge leaving a block that ends in a backward
 * branch joins a strand, and the instruction after a long-latency
 * operation starts a new strand.
 *
 * Inputs: physical rf_func, N, kind.  Outputs: intervals with entry,
 * static instructions, register count and PREFETCH set, predecessor ids;
 * the interval of each instruction.  Intervals are numbered by the
 * position of their entry (the function entry is interval 0).
 */
#include "intervals.h"

#include <stdlib.h>
#include <string.h>

void rf_iv_opts_default(rf_iv_opts *o)
{
    o->regs = RF_IV_DEFAULT_REGS;
    o->kind = RF_IV_REGISTER;
    o->pass2 = true;
}

typedef struct node {
    int block;
    int start, end;       /* instructions [start, end) */
    int next;             /* next piece of the same block, -1 */
    int iv;               /* interval, -1 = unassigned */
    bool barrier;         /* never joins an existing interval */
    bool call;            /* a call instruction piece */
    int cand;             /* interval whose candidate list holds it, -1 */
    int swept;            /* sweep whose heap holds it, -1 */
} node;

typedef struct former {
    const rf_func *f;
    const rf_iv_opts *o;
    node *nodes;
    int nnodes, cap;
    int *first_node;      /* [nblocks] first piece of each block */
    bool *cut_out;        /* [nblocks] edges out of the block are cut (strands) */
    rf_regset *set;       /* per interval: registers so far */
    int *header;          /* per interval: header node */
    bool *has_call;       /* per interval */
    int niv, ivcap;
    int *queue;
    int qhead, qtail, qcap;
    int *bpstart, *bpred; /* predecessor blocks of each block, ascending, once each */
    int *cand, ncand, candcap;   /* pass 1: the growing interval's candidates */
    int *heap, nheap, heapcap;   /* pass 1: the sweep's pieces still ahead */
    int *memb, nmemb, membcap;   /* pass 1: the growing interval's pieces */
    int sweep;                   /* pass 1: sweeps so far */
} former;

static void inst_regs(const rf_inst *in, rf_regset *s)
{
    rf_regset r, w;
    uint8_t p;
    rf_inst_reads(in, &r, &p);
    rf_inst_writes(in, &w, &p);
    *s = r;
    rf_regset_union(s, &w);
}

static bool long_latency(const rf_inst *in)
{
    return in->cls == RF_OC_LD_GLOBAL || in->cls == RF_OC_LD_LOCAL ||
           in->cls == RF_OC_ATOMIC || in->cls == RF_OC_BARRIER;
}

static int new_node(former *F, int block, int start, int end)
{
    if (F->nnodes == F->cap) {
        int cap = F->cap * 2;
        node *n = realloc(F->nodes, (size_t)cap * sizeof *n);
        if (!n)
            return -1;
        F->nodes = n;
        F->cap = cap;
    }
    node *n = &F->nodes[F->nnodes];
    n->block = block;
    n->start = start;
    n->end = end;
    n->next = -1;
    n->iv = -1;
    n->barrier = false;
    n->call = false;
    n->cand = -1;
    n->swept = -1;
    return F->nnodes++;
}

/* Split node x before instruction at; returns the new (second) piece. */
static int split(former *F, int x, int at)
{
    int y = new_node(F, F->nodes[x].block, at, F->nodes[x].end);
    if (y < 0)
        return -1;
    F->nodes[y].next = F->nodes[x].next;
    F->nodes[x].next = y;
    F->nodes[x].end = at;
    return y;
}

static int new_interval(former *F, int header)
{
    if (F->niv == F->ivcap) {
        int cap = F->ivcap * 2;
        rf_regset *s = realloc(F->set, (size_t)cap * sizeof *s);
        if (s)
            F->set = s;
        int *h = realloc(F->header, (size_t)cap * sizeof *h);
        if (h)
            F->header = h;
        bool *c = realloc(F->has_call, (size_t)cap * sizeof *c);
        if (c)
            F->has_call = c;
        if (!s || !h || !c)
            return -1;
        F->ivcap = cap;
    }
    int i = F->niv++;
    memset(&F->set[i], 0, sizeof F->set[i]);
    F->header[i] = header;
    F->has_call[i] = F->nodes[header].call;
    F->nodes[header].iv = i;
    return i;
}

static int push(former *F, int x)
{
    if (F->qtail == F->qcap) {
        int cap = F->qcap * 2;
        int *q = realloc(F->queue, (size_t)cap * sizeof *q);
        if (!q)
            return -1;
        F->queue = q;
        F->qcap = cap;
    }
    F->queue[F->qtail++] = x;
    return 0;
}

/* Last piece of block b. */
static int last_piece(const former *F, int b)
{
    int x = F->first_node[b];
    while (F->nodes[x].next >= 0)
        x = F->nodes[x].next;
    return x;
}

/* Predecessor pieces of node x: calls fn for each; stops when fn returns
 * false.  Returns the count visited. */
typedef bool (*pred_fn)(const former *F, int pred, int target, void *ctx);
static int for_preds(const former *F, int x, pred_fn fn, void *ctx)
{
    const node *n = &F->nodes[x];
    if (F->first_node[n->block] != x) {
        int p = F->first_node[n->block];
        while (F->nodes[p].next != x)
            p = F->nodes[p].next;
        fn(F, p, x, ctx);
        return 1;
    }
    int count = 0;
    for (int k = F->bpstart[n->block]; k < F->bpstart[n->block + 1]; k++) {
        count++;
        if (!fn(F, last_piece(F, F->bpred[k]), x, ctx))
            return count;
    }
    return count;
}

typedef struct join_ctx {
    int iv;
    bool ok;
} join_ctx;

static bool pred_in_iv(const former *F, int p, int target, void *ctx)
{
    join_ctx *c = ctx;
    (void)target;
    /* An edge out of a block ending in a backward branch ends a strand. */
    bool cut = F->cut_out[F->nodes[p].block] && F->nodes[p].next < 0;
    if (F->nodes[p].iv != c->iv || cut)
        c->ok = false;
    return c->ok;
}

/* TRAVERSE: add x's registers to interval i, cutting x when they overflow. */
static int traverse(former *F, int x, int i)
{
    const rf_func *f = F->f;
    for (int k = F->nodes[x].start; k < F->nodes[x].end; k++) {
        rf_regset r, u = F->set[i];
        inst_regs(&f->insts[k], &r);
        rf_regset_union(&u, &r);
        bool first = k == F->nodes[x].start && F->header[i] == x;
        if (rf_regset_count(&u) > F->o->regs && !first) {
            int y = split(F, x, k);
            if (y < 0 || new_interval(F, y) < 0 || push(F, y) < 0)
                return -1;
            return 0;
        }
        F->set[i] = u;
    }
    return 0;
}

static bool fits_first(const former *F, int h, int i)
{
    const node *n = &F->nodes[h];
    if (n->start == n->end)
        return true;
    rf_regset r, u = F->set[i];
    inst_regs(&F->f->insts[n->start], &r);
    rf_regset_union(&u, &r);
    return rf_regset_count(&u) <= F->o->regs;
}

/* Pieces in layout order. */
static int layout(const former *F, int *order)
{
    int k = 0;
    for (int b = 0; b < F->f->nblocks; b++)
        for (int x = F->first_node[b]; x >= 0; x = F->nodes[x].next)
            order[k++] = x;
    return k;
}

/* Layout order of pieces: by block, then by instruction range (a block's
 * pieces are contiguous; an empty piece, left by a cut at a piece's first
 * instruction, comes before the piece that starts there). */
static bool before(const former *F, int x, int y)
{
    const node *a = &F->nodes[x], *b = &F->nodes[y];
    if (a->block != b->block)
        return a->block < b->block;
    if (a->start != b->start)
        return a->start < b->start;
    return a->end < b->end;
}

static int grow(int **v, int *cap, int need)
{
    if (need <= *cap)
        return 0;
    int c = *cap > 0 ? *cap : 16;
    while (c < need)
        c *= 2;
    int *n = realloc(*v, (size_t)c * sizeof *n);
    if (!n)
        return -1;
    *v = n;
    *cap = c;
    return 0;
}

static int heap_push(former *F, int x)
{
    if (grow(&F->heap, &F->heapcap, F->nheap + 1))
        return -1;
    int k = F->nheap++;
    while (k > 0 && before(F, x, F->heap[(k - 1) / 2])) {
        F->heap[k] = F->heap[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    F->heap[k] = x;
    return 0;
}

static int heap_pop(former *F)
{
    int top = F->heap[0], x = F->heap[--F->nheap], k = 0;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= F->nheap)
            break;
        if (c + 1 < F->nheap && before(F, F->heap[c + 1], F->heap[c]))
            c++;
        if (!before(F, F->heap[c], x))
            break;
        F->heap[k] = F->heap[c];
        k = c;
    }
    if (F->nheap > 0)
        F->heap[k] = x;
    return top;
}

/* Successor pieces of x: the next piece of its block, else the first
 * pieces of the block's successors. */
static int piece_succ(const former *F, int x, int succ[2])
{
    const node *nx = &F->nodes[x];
    if (nx->next >= 0) {
        succ[0] = nx->next;
        return 1;
    }
    const rf_block *bb = &F->f->blocks[nx->block];
    for (int s = 0; s < bb->nsucc; s++)
        succ[s] = F->first_node[bb->succ[s]];
    return bb->nsucc;
}

/* x joined interval i: it is a member, and its unassigned successors are
 * candidates (every piece that can join i follows a member); those after
 * `at` in the layout are still ahead in the current sweep. */
static int joined(former *F, int x, int i, int at)
{
    if (grow(&F->memb, &F->membcap, F->nmemb + 1))
        return -1;
    F->memb[F->nmemb++] = x;
    int succ[2], ns = piece_succ(F, x, succ);
    for (int s = 0; s < ns; s++) {
        int y = succ[s];
        node *ny = &F->nodes[y];
        if (ny->iv >= 0)
            continue;
        if (ny->cand != i) {
            if (grow(&F->cand, &F->candcap, F->ncand + 1))
                return -1;
            ny->cand = i;
            F->cand[F->ncand++] = y;
        }
        if (at >= 0 && ny->swept != F->sweep && before(F, at, y)) {
            ny->swept = F->sweep;
            if (heap_push(F, y))
                return -1;
        }
    }
    return 0;
}

/* Sort piece indices into layout order (bottom-up merge sort). */
static void sort_layout(const former *F, int *v, int n, int *tmp)
{
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                tmp[k++] = before(F, v[b], v[a]) ? v[b++] : v[a++];
            while (a < mid)
                tmp[k++] = v[a++];
            while (b < hi)
                tmp[k++] = v[b++];
        }
        memcpy(v, tmp, (size_t)n * sizeof *v);
    }
}

/* Pass 1 (Algorithm 1): from the queue's headers, grow each interval by
 * sweeps over the pieces in layout order, a piece joining when all its
 * predecessors are in the interval and its first instruction's registers
 * fit, until a sweep adds none.  Only candidates (unassigned successors of
 * members) can join, so a sweep visits them, in layout order, with those a
 * join reveals further on visited in the same sweep, as a sweep over every
 * piece would. */
static int pass1(former *F)
{
    int *order = malloc((size_t)F->cap * sizeof *order);
    int *tmp = NULL;
    if (!order)
        return -1;
    int entry = F->first_node[0];
    if (new_interval(F, entry) < 0 || push(F, entry) < 0)
        goto fail;
    for (;;) {
        while (F->qhead < F->qtail) {
            int x = F->queue[F->qhead++];
            int i = F->nodes[x].iv;
            F->ncand = F->nmemb = 0;
            if (traverse(F, x, i) < 0 || joined(F, x, i, -1) < 0)
                goto fail;
            bool changed = !F->has_call[i];
            while (changed) {
                changed = false;
                F->sweep++;
                F->nheap = 0;
                for (int c = 0; c < F->ncand; c++) {
                    int h = F->cand[c];
                    if (F->nodes[h].iv < 0 && F->nodes[h].swept != F->sweep) {
                        F->nodes[h].swept = F->sweep;
                        if (heap_push(F, h))
                            goto fail;
                    }
                }
                while (F->nheap > 0) {
                    int h = heap_pop(F);
                    node *hn = &F->nodes[h];
                    if (hn->iv >= 0 || hn->barrier || hn->call || h == entry)
                        continue;
                    join_ctx c = {i, true};
                    if (!for_preds(F, h, pred_in_iv, &c) || !c.ok || !fits_first(F, h, i))
                        continue;
                    hn->iv = i;
                    if (traverse(F, h, i) < 0 || joined(F, h, i, h) < 0)
                        goto fail;
                    changed = true;
                }
            }
            /* Successors of the finished interval start new intervals, in
             * the layout order of its pieces. */
            int *t = realloc(tmp, (size_t)(F->nmemb > 0 ? F->nmemb : 1) * sizeof *t);
            if (!t)
                goto fail;
            tmp = t;
            sort_layout(F, F->memb, F->nmemb, tmp);
            for (int k = 0; k < F->nmemb; k++) {
                int y = F->memb[k];
                int succ[2], ns = piece_succ(F, y, succ);
                for (int s = 0; s < ns; s++)
                    if (F->nodes[succ[s]].iv < 0 &&
                        (new_interval(F, succ[s]) < 0 || push(F, succ[s]) < 0))
                        goto fail;
            }
        }
        /* Blocks not reached from the entry start intervals of their own.
         * Every piece but a block's first starts at a distinct instruction,
         * so there are at most nblocks + ninsts pieces (< cap). */
        int n = layout(F, order), k = 0;
        while (k < n && F->nodes[order[k]].iv >= 0)
            k++;
        if (k == n)
            break;
        if (new_interval(F, order[k]) < 0 || push(F, order[k]) < 0)
            goto fail;
    }
    free(order);
    free(tmp);
    return 0;
fail:
    free(order);
    free(tmp);
    return -1;
}

/* Interval graph edges between distinct intervals, as lists: the
 * predecessors of interval b at pred[pstart[b] .. pstart[b + 1]) and the
 * successors of a at succ[sstart[a] .. sstart[a + 1]), each ascending and
 * once. */
typedef struct iv_graph {
    int *pstart, *pred;
    int *sstart, *succ;
} iv_graph;

static void iv_graph_free(iv_graph *g)
{
    free(g->pstart), free(g->pred), free(g->sstart), free(g->succ);
    memset(g, 0, sizeof *g);
}

static int cmp_edge(const void *x, const void *y)
{
    const int *a = x, *b = y;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* CSR of the pairs e[2k], e[2k + 1] (sorted, distinct) keyed by the first. */
static int csr_of(const int *e, int ne, int n, int **start, int **list)
{
    *start = calloc((size_t)n + 1, sizeof **start);
    *list = malloc((size_t)(ne > 0 ? ne : 1) * sizeof **list);
    if (!*start || !*list)
        return -1;
    for (int k = 0; k < ne; k++)
        (*start)[e[2 * k] + 1]++;
    for (int i = 0; i < n; i++)
        (*start)[i + 1] += (*start)[i];
    for (int k = 0; k < ne; k++)
        (*list)[k] = e[2 * k + 1];
    return 0;
}

static int interval_edges(const former *F, iv_graph *g)
{
    int n = F->niv, ne = 0;
    memset(g, 0, sizeof *g);
    int *e = malloc((size_t)(4 * F->nnodes + 2) * sizeof *e);
    if (!e)
        return -1;
    for (int x = 0; x < F->nnodes; x++) {
        const node *nx = &F->nodes[x];
        int succ[2], ns = 0;
        if (nx->next >= 0) {
            succ[ns++] = nx->next;
        } else {
            const rf_block *bb = &F->f->blocks[nx->block];
            for (int s = 0; s < bb->nsucc; s++)
                succ[ns++] = F->first_node[bb->succ[s]];
        }
        for (int s = 0; s < ns; s++) {
            int a = nx->iv, b = F->nodes[succ[s]].iv;
            if (a != b) {
                e[2 * ne] = a;
                e[2 * ne + 1] = b;
                ne++;
            }
        }
    }
    /* Successor lists: sort by (a, b), drop repeats. */
    qsort(e, (size_t)ne, 2 * sizeof *e, cmp_edge);
    int m = 0;
    for (int k = 0; k < ne; k++)
        if (m == 0 || e[2 * k] != e[2 * (m - 1)] || e[2 * k + 1] != e[2 * (m - 1) + 1]) {
            e[2 * m] = e[2 * k];
            e[2 * m + 1] = e[2 * k + 1];
            m++;
        }
    int rc = csr_of(e, m, n, &g->sstart, &g->succ);
    /* Predecessor lists: the same edges by (b, a). */
    for (int k = 0; rc == 0 && k < m; k++) {
        int t = e[2 * k];
        e[2 * k] = e[2 * k + 1];
        e[2 * k + 1] = t;
    }
    if (rc == 0) {
        qsort(e, (size_t)m, 2 * sizeof *e, cmp_edge);
        rc = csr_of(e, m, n, &g->pstart, &g->pred);
    }
    free(e);
    if (rc)
        iv_graph_free(g);
    return rc;
}

/* One round of Algorithm 2; returns the number of merges, -1 on error. */
static int pass2_round(former *F)
{
    int n = F->niv;
    iv_graph g;
    if (interval_edges(F, &g))
        return -1;
    int *next = malloc((size_t)n * sizeof *next);
    int *queue = malloc((size_t)n * sizeof *queue);
    rf_regset *set = malloc((size_t)n * sizeof *set);
    int *header = malloc((size_t)n * sizeof *header);
    bool *call = malloc((size_t)n * sizeof *call);
    if (!next || !queue || !set || !header || !call) {
        iv_graph_free(&g);
        free(next), free(queue), free(set), free(header), free(call);
        return -1;
    }
    for (int i = 0; i < n; i++)
        next[i] = -1;
    int nn = 0, qh = 0, qt = 0;
    next[0] = nn;
    set[nn] = F->set[0];
    header[nn] = F->header[0];
    call[nn++] = F->has_call[0];
    queue[qt++] = 0;
    for (;;) {
        while (qh < qt) {
            int i = queue[qh++];
            int ii = next[i];
            bool changed = !call[ii];
            while (changed) {
                changed = false;
                for (int h = 0; h < n; h++) {
                    if (next[h] >= 0 || F->has_call[h] || F->nodes[F->header[h]].barrier)
                        continue;
                    bool ok = true, any = false;
                    for (int k = g.pstart[h]; k < g.pstart[h + 1] && ok; k++) {
                        any = true;
                        ok = next[g.pred[k]] == ii;
                    }
                    rf_regset u = set[ii];
                    rf_regset_union(&u, &F->set[h]);
                    if (!ok || !any || rf_regset_count(&u) > F->o->regs)
                        continue;
                    next[h] = ii;
                    set[ii] = u;
                    changed = true;
                }
            }
            for (int j = 0; j < n; j++) {
                if (next[j] != ii)
                    continue;
                for (int k = g.sstart[j]; k < g.sstart[j + 1]; k++) {
                    int s = g.succ[k];
                    if (next[s] >= 0)
                        continue;
                    next[s] = nn;
                    set[nn] = F->set[s];
                    header[nn] = F->header[s];
                    call[nn++] = F->has_call[s];
                    queue[qt++] = s;
                }
            }
        }
        int k = 0;
        while (k < n && next[k] >= 0)
            k++;
        if (k == n)
            break;
        next[k] = nn;
        set[nn] = F->set[k];
        header[nn] = F->header[k];
        call[nn++] = F->has_call[k];
        queue[qt++] = k;
    }
    int merged = n - nn;
    if (merged > 0) {
        for (int x = 0; x < F->nnodes; x++)
            F->nodes[x].iv = next[F->nodes[x].iv];
        memcpy(F->set, set, (size_t)nn * sizeof *set);
        memcpy(F->header, header, (size_t)nn * sizeof *header);
        memcpy(F->has_call, call, (size_t)nn * sizeof *call);
        F->niv = nn;
    }
    iv_graph_free(&g);
    free(next), free(queue), free(set), free(header), free(call);
    return merged;
}

void rf_iv_free(rf_intervals *iv)
{
    if (!iv)
        return;
    for (int i = 0; i < iv->n; i++)
        free(iv->iv[i].preds);
    free(iv->iv);
    free(iv->of_inst);
    free(iv->block_in);
    free(iv->block_out);
    free(iv->splits);
    memset(iv, 0, sizeof *iv);
}

static void former_free(former *F)
{
    free(F->nodes);
    free(F->first_node);
    free(F->cut_out);
    free(F->set);
    free(F->header);
    free(F->has_call);
    free(F->queue);
    free(F->bpstart);
    free(F->bpred);
    free(F->cand);
    free(F->heap);
    free(F->memb);
}

/* Build the result, numbering intervals by the layout position of their
 * header piece. */
static int collect(former *F, rf_intervals *out)
{
    const rf_func *f = F->f;
    int n = F->niv;
    int *order = malloc((size_t)F->nnodes * sizeof *order);
    int *rank = malloc((size_t)n * sizeof *rank);
    out->iv = calloc((size_t)n, sizeof *out->iv);
    out->of_inst = malloc((size_t)(f->ninsts ? f->ninsts : 1) * sizeof *out->of_inst);
    out->block_in = malloc((size_t)f->nblocks * sizeof *out->block_in);
    out->block_out = malloc((size_t)f->nblocks * sizeof *out->block_out);
    out->splits = calloc((size_t)f->nblocks, sizeof *out->splits);
    iv_graph g = {0};
    if (!order || !rank || !out->iv || !out->of_inst || !out->block_in || !out->block_out || !out->splits)
        goto fail;
    out->n = n;
    out->ninsts = f->ninsts;
    out->nblocks = f->nblocks;
    int m = layout(F, order), next_id = 0;
    for (int i = 0; i < n; i++)
        rank[i] = -1;
    for (int k = 0; k < m; k++) {
        int i = F->nodes[order[k]].iv;
        if (F->header[i] == order[k])
            rank[i] = next_id++;
    }
    for (int x = 0; x < F->nnodes; x++)
        F->nodes[x].iv = rank[F->nodes[x].iv];
    for (int i = 0; i < n; i++) {
        rf_interval *v = &out->iv[rank[i]];
        const node *h = &F->nodes[F->header[i]];
        v->entry_block = h->block;
        v->entry_inst = h->start;
    }
    for (int k = 0; k < m; k++) {
        const node *x = &F->nodes[order[k]];
        rf_interval *v = &out->iv[x->iv];
        for (int j = x->start; j < x->end; j++) {
            rf_regset r;
            inst_regs(&f->insts[j], &r);
            if (rf_regset_count(&r) > F->o->regs)
                v->over = true;
            rf_regset_union(&v->regs, &r);
            out->of_inst[j] = x->iv;
            v->ninsts++;
        }
        if (F->first_node[x->block] == order[k])
            out->block_in[x->block] = x->iv;
        else if (F->nodes[order[k - 1]].iv != x->iv)
            out->splits[x->block]++;
        if (x->next < 0)
            out->block_out[x->block] = x->iv;
    }
    /* Predecessors from the interval graph (ids already renumbered). */
    F->niv = n;
    if (interval_edges(F, &g))
        goto fail;
    for (int b = 0; b < n; b++) {
        rf_interval *v = &out->iv[b];
        v->nregs = rf_regset_count(&v->regs);
        v->npreds = g.pstart[b + 1] - g.pstart[b];
        v->preds = malloc((size_t)(v->npreds ? v->npreds : 1) * sizeof *v->preds);
        if (!v->preds)
            goto fail;
        for (int k = 0; k < v->npreds; k++)
            v->preds[k] = g.pred[g.pstart[b] + k];
    }
    iv_graph_free(&g);
    free(order);
    free(rank);
    return 0;
fail:
    iv_graph_free(&g);
    free(order);
    free(rank);
    return -1;
}

int rf_iv_form(const rf_func *f, const rf_iv_opts *o, rf_intervals *out, rf_err *err)
{
    memset(out, 0, sizeof *out);
    int rc = rf_live_check(f, err);
    if (rc)
        return rc;
    if (o->regs < 1 || o->regs > RF_MAX_GPR)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "interval_regs",
                          "%d is not in 1..%d", o->regs, RF_MAX_GPR);
    if (o->kind != RF_IV_REGISTER && o->kind != RF_IV_STRAND)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "kind", "unknown interval kind %d", o->kind);
    former F;
    memset(&F, 0, sizeof F);
    F.f = f;
    F.o = o;
    F.cap = f->nblocks + 2 * f->ninsts + 4;
    F.nodes = malloc((size_t)F.cap * sizeof *F.nodes);
    F.first_node = malloc((size_t)f->nblocks * sizeof *F.first_node);
    F.cut_out = calloc((size_t)f->nblocks, sizeof *F.cut_out);
    F.ivcap = 16;
    F.set = malloc((size_t)F.ivcap * sizeof *F.set);
    F.header = malloc((size_t)F.ivcap * sizeof *F.header);
    F.has_call = malloc((size_t)F.ivcap * sizeof *F.has_call);
    F.qcap = 16;
    F.queue = malloc((size_t)F.qcap * sizeof *F.queue);
    if (!F.nodes || !F.first_node || !F.cut_out || !F.set || !F.header || !F.has_call || !F.queue)
        goto nomem;
    /* Predecessor blocks, ascending, each once (for_preds). */
    F.bpstart = calloc((size_t)f->nblocks + 1, sizeof *F.bpstart);
    F.bpred = malloc((size_t)(2 * f->nblocks + 1) * sizeof *F.bpred);
    if (!F.bpstart || !F.bpred)
        goto nomem;
    for (int b = 0; b < f->nblocks; b++)
        for (int k = 0; k < f->blocks[b].nsucc; k++)
            if (k == 0 || f->blocks[b].succ[1] != f->blocks[b].succ[0])
                F.bpstart[f->blocks[b].succ[k] + 1]++;
    for (int b = 0; b < f->nblocks; b++)
        F.bpstart[b + 1] += F.bpstart[b];
    for (int b = 0; b < f->nblocks; b++)
        for (int k = 0; k < f->blocks[b].nsucc; k++)
            if (k == 0 || f->blocks[b].succ[1] != f->blocks[b].succ[0]) {
                int t = f->blocks[b].succ[k];
                F.bpred[F.bpstart[t]++] = b;
            }
    for (int b = f->nblocks; b > 0; b--)
        F.bpstart[b] = F.bpstart[b - 1];
    F.bpstart[0] = 0;
    bool strand = o->kind == RF_IV_STRAND;
    /* Pieces: one per block, cut around calls (and, for strands, after
     * long-latency operations). */
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *bb = &f->blocks[b];
        int x = new_node(&F, b, bb->first, bb->first + bb->ninsts);
        if (x < 0)
            goto nomem;
        F.first_node[b] = x;
        for (int k = bb->first; k < bb->first + bb->ninsts; k++) {
            const rf_inst *in = &f->insts[k];
            if (in->cls == RF_OC_CALL) {
                if (k > F.nodes[x].start) {
                    x = split(&F, x, k);
                    if (x < 0)
                        goto nomem;
                }
                F.nodes[x].call = F.nodes[x].barrier = true;
                if (k + 1 < F.nodes[x].end) {
                    x = split(&F, x, k + 1);
                    if (x < 0)
                        goto nomem;
                    F.nodes[x].barrier = true;
                }
            } else if (strand && long_latency(in) && k + 1 < F.nodes[x].end) {
                x = split(&F, x, k + 1);
                if (x < 0)
                    goto nomem;
                F.nodes[x].barrier = true;
            }
        }
        if (strand && bb->ninsts) {
            const rf_inst *last = &f->insts[bb->first + bb->ninsts - 1];
            if (last->cls == RF_OC_BRANCH &&
                ((last->flags & RF_IF_LOOPBACK) || (last->target >= 0 && last->target <= b)))
                F.cut_out[b] = true;
        }
    }
    if (pass1(&F) < 0)
        goto nomem;
    out->pass1 = F.niv;
    if (o->kind == RF_IV_REGISTER && o->pass2) {
        for (;;) {
            int merged = pass2_round(&F);
            if (merged < 0)
                goto nomem;
            if (!merged)
                break;
            out->pass2_rounds++;
        }
    }
    out->regs = o->regs;
    out->kind = o->kind;
    if (collect(&F, out) < 0) {
        rf_iv_free(out);
        goto nomem;
    }
    former_free(&F);
    return 0;
nomem:
    former_free(&F);
    return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory forming intervals");
}

double rf_iv_mean_len(const rf_intervals *iv)
{
    if (!iv->n)
        return 0;
    double s = 0;
    for (int i = 0; i < iv->n; i++)
        s += iv->iv[i].ninsts;
    return s / iv->n;
}

void rf_iv_dynamic(const rf_func *f, const rf_intervals *iv, const double *block_freq,
                   const double *edge_freq, double *entries, double *insts, double *mean_len)
{
    double e = 1.0, d = 0; /* the kernel start enters interval 0 */
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *bb = &f->blocks[b];
        d += block_freq[b] * bb->ninsts;
        e += block_freq[b] * iv->splits[b];
        for (int s = 0; s < bb->nsucc; s++) {
            int t = bb->succ[s], in = iv->block_in[t];
            bool header = iv->iv[in].entry_block == t && iv->iv[in].entry_inst == f->blocks[t].first;
            if (iv->block_out[b] != in || (iv->kind == RF_IV_STRAND && header))
                e += edge_freq[2 * b + s];
        }
    }
    *entries = e;
    *insts = d;
    *mean_len = e > 0 ? d / e : 0;
}

void rf_iv_live_prefetch(const rf_intervals *iv, const rf_live *live, int *live_at)
{
    for (int i = 0; i < iv->n; i++) {
        const rf_interval *v = &iv->iv[i];
        if (v->ninsts == 0 || v->entry_inst >= live->ninsts) {
            live_at[i] = 0;
            continue;
        }
        rf_regset s = live->in[v->entry_inst];
        for (int k = 0; k < 4; k++)
            s.w[k] &= v->regs.w[k];
        live_at[i] = rf_regset_count(&s);
    }
}

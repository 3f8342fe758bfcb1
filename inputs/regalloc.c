/* regalloc.c - register allocation of a virtual (PTX) function into
 * physical 32-bit registers and predicates, shaped like what ptxas does.
 *
 * Steps.
 * 1. Folding: values ptxas reads straight from the constant bank or encodes
 *    as immediates need no register: a register defined once by an
 *    RF_IF_CONST instruction (kernel parameter, constant-address load,
 *    immediate, %ntid/%nctaid) or by a copy of one (cvta.to.global of a
 *    pointer parameter), unless a memory instruction reads it (addresses
 *    and store data are registers) or it would be the second constant
 *    operand of one instruction.  Fully folded instructions become NOPs.
 * 2. Scheduling, as ptxas does to cover latency: each block is list
 *    scheduled over its register and memory dependences, the ready
 *    instruction with the longest latency-weighted path to the block's end
 *    first (so global loads and the address arithmetic they read go first
 *    and stores last); then each shared load moves up past at most 14
 *    independent instructions.  The physical function keeps that order
 *    (blocks are unchanged).
 * 3. Liveness of virtual registers over the CFG (backward data flow,
 *    live_in = use U (live_out - kill); a guarded definition does not kill)
 *    and an interference graph: a definition interferes with every register
 *    live after it except the source of a plain move (Chaitin), the
 *    registers one instruction defines interfere with each other, and a
 *    definition interferes with the values read by the next 8 instructions
 *    of its block (ptxas interleaves independent chains, so a freed
 *    register is not handed out again at once).
 * 4. Colouring greedily in order of first definition (the order a linear
 *    scan visits intervals), lowest free slot first, preferring a move
 *    partner's colour.  A value of w words (2 for 64-bit, 4 for 128-bit)
 *    takes w consecutive slots starting at a multiple of w.  R1 is the ABI
 *    stack pointer and never allocated (but counted).  Predicates get their
 *    own file of 7 (P0..P6, PT is not allocatable); when more are live at
 *    once the overflow lives in general registers (P2R/R2P style) and P6 is
 *    kept as the scratch for guards read from them.
 *
 * 5. Spilling, when the values do not fit the cap (R0..R254, or a GPU's
 *    per-thread limit with rf_regalloc_cap): colouring is redone below the
 *    reload scratch (R246..R254 under the full file; under a lower cap the
 *    most words one instruction touches, 4 to 9, at the top) in priority
 *    order, (definitions + reads) / instructions live across, highest
 *    first (Chow and Hennessy); values that find no slot live in local
 *    memory (a slot each, added to local_bytes and spill_words) and get a
 *    local load into a scratch register before each instruction reading
 *    them and a local store after each one writing them; nregs is then the
 *    cap.
 *
 * Inputs: a virtual rf_func from the PTX reader.  Output: a physical copy,
 * operands rewritten; nregs = highest general register + 1, npreds =
 * highest predicate + 1.  An IEEE f32 division, reciprocal or square root
 * calls a slow-path subroutine: the kernel needs its registers, and values
 * live across the call sit above them (slow_path_regs).  Other expansions
 * (f64 division, integer division) cannot be told from plain arithmetic in
 * the IR and are not modelled; no rematerialisation beyond folding and
 * reloading constants after a slow-path call.  Registers are budgeted per
 * target (RF_REGALLOC_BUDGET in kir.h): above the budget the load
 * scheduling backs off step by step, ending with an order that frees
 * registers first; a kernel whose first schedule exceeds the budget counts
 * the budget; small counted loops count as ptxas unrolls them
 * (unroll_copy).  The target (rf_regalloc_target's sm) changes two things:
 * from sm_90 on, loop-invariant pointers hold register pairs
 * (LDC_POINTER_SM), and at sm_80 the issue-slot stretch is one shorter
 * (ISSUE_STRETCH_SM80).  Against ptxas -v on 53 kernels
 * (tests/bench_regalloc.c): within 15% on 81% at each of sm_75, sm_80 and
 * sm_90; within 25% on 96%, 100%, 94%; mean |error| 9.0%, 9.0%, 9.2%; the
 * worst -31% (jacobi9 at sm_75; with conv_row and conv2d_3x3 it takes
 * about one register per shared or global load in flight more than this
 * model: ptxas -v gives a float sum of 8 loads written load, add, load,
 * add 22 registers and the same PTX with the loads first 16) and +29%
 * (stencil1d: ptxas hoists fewer of its shared loads than SHARED_WINDOW
 * lets).  Not modelled: ptxas's if-conversion of small branches,
 * rematerialisation beyond constants, ptxas's other loop transformations.
 * RF_ELIMIT only when the interference graph itself is too large.
 */
#include "kir.h"
#include "kir_internal.h"
#include "regalloc.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSLOTS 255      /* R0..R254; R255 is RZ */
#define NPRED 7         /* P0..P6; P7 is PT */
#define RESERVED_SP 1   /* R1 holds the stack pointer in every ABI kernel */
#define SPILL_BASE 246  /* when spilling: R246..R254 are reload scratch */
/* ptxas interleaves independent chains when it schedules, so a register it
 * frees is not handed out again for a few issue slots: a value defined by
 * an instruction interferes with every value read by the next ISSUE_STRETCH
 * instructions of its block.  8 minimises the error against ptxas -v at
 * sm_75 on the measured kernels (tests/bench_regalloc.c). */
#define ISSUE_STRETCH 8
/* ptxas for sm_80 hands a freed register out again one issue slot sooner.
 * Of the 39 kernels of the bench below 32 registers at sm_75 and sm_80,
 * ptxas -v gives 9 fewer registers at sm_80 (reduce 12 -> 10, scan 16 ->
 * 14; histogram, histo_shared, histo_global, histo_vec4, trsv, conv_row
 * and jacobi9 one fewer), 3 more (bfs 18 -> 20, md_lj and devcall +1) and
 * the same on 27.  Under -maxrregcount 32 sm_75 keeps its own count on 7
 * of the 9 (histo_global takes sm_80's 13, histo_vec4 31), so the
 * difference is the target's code, not sm_80's smaller budget.  sm_86
 * and sm_89 take sm_75's counts on reduce, scan, trsv and conv_row, and
 * sm_90 as many as sm_75 or more: they keep ISSUE_STRETCH.  A stretch of 7 at sm_80 minimises the
 * error on the bench (within 15%: 81% against 79% with 8; mean |error|
 * 9.0% against 9.5%); the rungs of the ladder that use ISSUE_STRETCH use
 * it instead. */
#define ISSUE_STRETCH_SM80 7

static int issue_stretch(int sm, int stretch)
{
    return stretch == ISSUE_STRETCH && sm == 80 ? ISSUE_STRETCH_SM80 : stretch;
}

typedef uint64_t word_t;
#define WBITS 64

typedef struct edge {
    int a, b;
} edge;

typedef struct ra {
    const rf_func *f;
    int nv;            /* virtual registers referenced (dense) */
    int *dense;        /* vreg -> dense index or -1 */
    int *vreg;         /* dense -> vreg */
    int nw;            /* words per bitset */
    word_t *in, *out, *use, *def;
    edge *edges;
    int nedges, capedges;
    word_t *pairs;     /* the pairs in edges as a bit matrix (row a, bit b,
                          a < b; pairw words a row), or NULL: sorted */
    int pairw;
    int *adj_start, *adj;
    int *firstdef;     /* dense -> first position defined (or used) */
    int *mate;         /* dense -> move partner or -1 */
    int *color;        /* dense -> first slot / predicate, -1 none */
    bool *in_gpr;      /* dense predicate overflowed to a GPR */
    bool *spill;       /* dense value kept in local memory */
    int *span;         /* dense -> instructions it is live across */
    int *occ;          /* dense -> definitions and reads of it */
    int call_live;     /* most general-register words live across a call */
    int cap;           /* registers allowed per thread (R0..cap-1) */
    int scratch_lo;    /* when spilling: reload scratch is scratch_lo..cap-1 */
    int stretch;       /* issue-slot stretch (instructions) */
    int *floor;        /* dense -> lowest slot it may take: above the
                          registers of a slow-path call it lives across */
    int min_used;      /* registers the slow-path subroutines need */
    bool *remat;       /* dense -> a constant ptxas reloads after a call */
} ra;

static void ra_free(ra *r)
{
    free(r->dense);
    free(r->vreg);
    free(r->in);
    free(r->out);
    free(r->use);
    free(r->def);
    free(r->edges);
    free(r->pairs);
    free(r->adj_start);
    free(r->adj);
    free(r->firstdef);
    free(r->mate);
    free(r->color);
    free(r->in_gpr);
    free(r->spill);
    free(r->span);
    free(r->occ);
    free(r->floor);
    free(r->remat);
}

static void bset(word_t *s, int i) { s[i / WBITS] |= (word_t)1 << (i % WBITS); }
static void bclr(word_t *s, int i) { s[i / WBITS] &= ~((word_t)1 << (i % WBITS)); }
static bool btest(const word_t *s, int i)
{
    return (s[i / WBITS] >> (i % WBITS)) & 1;
}

#define MAX_EDGES (1 << 24)   /* interference pairs kept (128 MiB) */
/* Registers up to which the pairs are also kept as a bit matrix (at most
 * 2 MiB), so that a pair is added once and the list comes out sorted
 * without a sort. */
#define PAIRS_MAX_REGS 4096

static int cmp_edge(const void *x, const void *y);

/* Sort and drop duplicate pairs (loops revisit the same pairs).  With the
 * bit matrix the list has no duplicates, and is laid out again in order. */
static void dedupe_edges(ra *r)
{
    if (r->pairs) {
        int m = 0;
        for (int a = 0; a < r->nv; a++) {
            const word_t *row = r->pairs + (size_t)a * (size_t)r->pairw;
            for (int w = 0; w < r->pairw; w++)
                for (word_t v = row[w]; v; v &= v - 1)
                    r->edges[m++] = (edge){a, w * WBITS + __builtin_ctzll(v)};
        }
        r->nedges = m;
        return;
    }
    if (r->nedges)
        qsort(r->edges, (size_t)r->nedges, sizeof *r->edges, cmp_edge);
    int m = 0;
    for (int i = 0; i < r->nedges; i++)
        if (m == 0 || r->edges[i].a != r->edges[m - 1].a ||
            r->edges[i].b != r->edges[m - 1].b)
            r->edges[m++] = r->edges[i];
    r->nedges = m;
}

static int add_edge(ra *r, int a, int b)
{
    if (a == b)
        return RF_OK;
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    word_t *row = r->pairs ? r->pairs + (size_t)a * (size_t)r->pairw : NULL;
    if (row && btest(row, b))
        return RF_OK;
    if (r->nedges == r->capedges && r->capedges >= (1 << 20)) {
        dedupe_edges(r);
        if (r->nedges > r->capedges / 2 && r->capedges >= MAX_EDGES)
            return RF_ELIMIT;
    }
    if (r->nedges == r->capedges &&
        kir_grow((void **)&r->edges, &r->capedges, r->nedges, sizeof *r->edges))
        return RF_ENOMEM;
    if (row)
        bset(row, b);
    r->edges[r->nedges++] = (edge){a, b};
    return RF_OK;
}

static int cmp_edge(const void *x, const void *y)
{
    const edge *a = x, *b = y;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return (a->b > b->b) - (a->b < b->b);
}

/* Source of a plain register move of the same width, else -1. */
static int move_source(const rf_func *f, const rf_inst *in)
{
    if (!(in->flags & RF_IF_MOVE) || in->ndefs != 1 || in->nuses != 1 ||
        in->guard >= 0)
        return -1;
    if (f->regs[in->defs[0]].words != f->regs[in->uses[0]].words)
        return -1;
    return in->uses[0];
}

static int liveness(ra *r)
{
    const rf_func *f = r->f;
    int nb = f->nblocks, nw = r->nw;
    size_t sz = (size_t)nb * (size_t)nw;
    r->in = calloc(sz ? sz : 1, sizeof *r->in);
    r->out = calloc(sz ? sz : 1, sizeof *r->out);
    r->use = calloc(sz ? sz : 1, sizeof *r->use);
    r->def = calloc(sz ? sz : 1, sizeof *r->def);
    if (!r->in || !r->out || !r->use || !r->def)
        return RF_ENOMEM;
    for (int b = 0; b < nb; b++) {
        word_t *use = r->use + (size_t)b * nw, *def = r->def + (size_t)b * nw;
        const rf_block *bl = &f->blocks[b];
        for (int i = bl->first; i < bl->first + bl->ninsts; i++) {
            const rf_inst *in = &f->insts[i];
            if (in->guard >= 0 && !btest(def, r->dense[in->guard]))
                bset(use, r->dense[in->guard]);
            for (int k = 0; k < in->nuses; k++) {
                int d = r->dense[in->uses[k]];
                if (!btest(def, d))
                    bset(use, d);
            }
            if (in->guard < 0)
                for (int k = 0; k < in->ndefs; k++)
                    bset(def, r->dense[in->defs[k]]);
        }
    }
    bool changed = true;
    while (changed) {
        changed = false;
        for (int b = nb - 1; b >= 0; b--) {
            word_t *in = r->in + (size_t)b * nw, *out = r->out + (size_t)b * nw;
            const word_t *use = r->use + (size_t)b * nw,
                         *def = r->def + (size_t)b * nw;
            const rf_block *bl = &f->blocks[b];
            for (int s = 0; s < bl->nsucc; s++) {
                const word_t *sin = r->in + (size_t)bl->succ[s] * nw;
                for (int w = 0; w < nw; w++)
                    out[w] |= sin[w];
            }
            for (int w = 0; w < nw; w++) {
                word_t v = use[w] | (out[w] & ~def[w]);
                if (v != in[w]) {
                    in[w] = v;
                    changed = true;
                }
            }
        }
    }
    return RF_OK;
}

/* Slow-path subroutines.  ptxas compiles an IEEE f32 division, reciprocal
 * or square root (div.rn, rcp.rn, sqrt.rn: an SFU instruction without
 * RF_IF_APPROX on 32-bit registers) into a Newton sequence with a call to
 * a subroutine, compiled with the kernel, for the operands the sequence
 * cannot handle.  The call clobbers the subroutine's registers R0..R(n-1),
 * so every value live across the instruction is kept above them, and the
 * kernel needs at least n registers.  ptxas -v at sm_75 on
 * y[i] = x[i] / x[i+1] with k more loaded values live across the division
 * (k = 0, 1, 2, 4, 8): 15, 16, 17, 19, 23 registers, i.e. 13 + the address
 * pair + k (8 + k with div.approx); with rcp.rn (k = 0, 2, 8): 15, 17, 23
 * = 13 + 2 + k; with sqrt.rn: 12, 14, 20 = 10 + 2 + k.  A one-operand
 * rcp.rn and sqrt.rn are not told apart in the IR: both take sqrt's 10
 * (rcp's 13 is underestimated).  A division by an immediate has one
 * register operand and counts as one-operand. */
#define SLOWPATH_BINARY 13
#define SLOWPATH_UNARY 10

static int slow_path_regs(const rf_inst *in, const rf_func *f)
{
    if (in->cls != RF_OC_SFU || (in->flags & RF_IF_APPROX) || in->ndefs != 1 ||
        in->nuses < 1 || in->nuses > 2 || f->regs[in->defs[0]].words != 1)
        return 0;
    for (int k = 0; k < in->nuses; k++)
        if (f->regs[in->uses[k]].words != 1)
            return 0;
    return in->nuses == 2 ? SLOWPATH_BINARY : SLOWPATH_UNARY;
}

/* Constants kept in a register (a kernel parameter or a copy of one that
 * a memory instruction reads as its address) are dropped at a slow-path
 * call: ptxas loads them again from the constant bank after it.
 * ptxas -v at sm_75: y = p[0] / p[1] stored to p[2], p a parameter, takes
 * 13 registers (the subroutine's alone); with p + tid.x, which is not a
 * constant, 15.  remat[] marks registers defined once, unguarded, by a
 * constant (RF_IF_CONST) or by a copy of a constant or of a folded one (a
 * copy left with no register operand). */
static void find_remat(ra *r)
{
    const rf_func *f = r->f;
    int *ndef = calloc((size_t)(r->nv ? r->nv : 1), sizeof *ndef);
    if (!ndef)
        return;           /* none marked: the floors stay conservative */
    for (int i = 0; i < f->ninsts; i++)
        for (int k = 0; k < f->insts[i].ndefs; k++)
            ndef[r->dense[f->insts[i].defs[k]]]++;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < f->ninsts; i++) {
            const rf_inst *in = &f->insts[i];
            if (in->ndefs != 1 || in->guard >= 0)
                continue;
            int d = r->dense[in->defs[0]];
            bool c = (in->flags & RF_IF_CONST) && in->nuses == 0;
            if (in->flags & RF_IF_MOVE)
                c = in->nuses == 0 || (in->nuses == 1 && r->remat[r->dense[in->uses[0]]]);
            if (c && ndef[d] == 1 && !r->remat[d]) {
                r->remat[d] = true;
                changed = true;
            }
        }
    }
    free(ndef);
}

static int interference(ra *r)
{
    const rf_func *f = r->f;
    int nw = r->nw;
    r->pairw = (r->nv + WBITS - 1) / WBITS;
    if (r->nv <= PAIRS_MAX_REGS)     /* else (or out of memory) sorted */
        r->pairs = calloc((size_t)r->nv * (size_t)r->pairw + 1, sizeof *r->pairs);
    word_t *live = calloc((size_t)nw ? (size_t)nw : 1, sizeof *live);
    if (!live)
        return RF_ENOMEM;
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *bl = &f->blocks[b];
        memcpy(live, r->out + (size_t)b * nw, (size_t)nw * sizeof *live);
        for (int i = bl->first + bl->ninsts - 1; i >= bl->first; i--) {
            const rf_inst *in = &f->insts[i];
            if (in->cls == RF_OC_CALL) {
                int words = 0;
                for (int x = 0; x < r->nv; x++) {
                    if (!btest(live, x) ||
                        f->regs[r->vreg[x]].words == 0)
                        continue;
                    bool def = false;
                    for (int k = 0; k < in->ndefs; k++)
                        def = def || r->dense[in->defs[k]] == x;
                    if (!def)
                        words += f->regs[r->vreg[x]].words;
                }
                if (words > r->call_live)
                    r->call_live = words;
            }
            for (int w = 0; w < nw; w++)
                for (word_t v = live[w]; v; v &= v - 1)
                    r->span[w * WBITS + __builtin_ctzll(v)]++;
            for (int k = 0; k < in->ndefs; k++)
                r->occ[r->dense[in->defs[k]]]++;
            for (int k = 0; k < in->nuses; k++)
                r->occ[r->dense[in->uses[k]]]++;
            int msrc = move_source(f, in);
            int dmsrc = msrc >= 0 ? r->dense[msrc] : -1;
            int slow = slow_path_regs(in, f);
            if (slow > r->min_used)
                r->min_used = slow;
            for (int w = 0; w < nw && slow > 0; w++)     /* live across it */
                for (word_t v = live[w]; v; v &= v - 1) {
                    int x = w * WBITS + __builtin_ctzll(v);
                    bool def = false;
                    for (int k = 0; k < in->ndefs; k++)
                        def = def || r->dense[in->defs[k]] == x;
                    if (!def && !r->remat[x] && r->floor[x] < slow)
                        r->floor[x] = slow;
                }
            for (int k = 0; k < in->ndefs; k++) {
                int d = r->dense[in->defs[k]];
                for (int w = 0; w < nw; w++) {
                    word_t v = live[w];
                    while (v) {
                        int bit = __builtin_ctzll(v);
                        v &= v - 1;
                        int x = w * WBITS + bit;
                        int rc = x != d && x != dmsrc ? add_edge(r, d, x) : 0;
                        if (rc) {
                            free(live);
                            return rc;
                        }
                    }
                }
                for (int j = i + 1, seen = 0; j < bl->first + bl->ninsts &&
                                              seen < r->stretch; j++) {
                    const rf_inst *nx = &f->insts[j];
                    if (nx->cls == RF_OC_NOP)
                        continue;
                    seen++;
                    for (int u = 0; u < nx->nuses; u++) {
                        int x = r->dense[nx->uses[u]];
                        if (x == d || f->regs[nx->uses[u]].words == 0 ||
                            f->regs[in->defs[k]].words == 0)
                            continue;
                        int rc = add_edge(r, d, x);
                        if (rc) {
                            free(live);
                            return rc;
                        }
                    }
                }
                for (int k2 = k + 1; k2 < in->ndefs; k2++) {
                    int rc = add_edge(r, d, r->dense[in->defs[k2]]);
                    if (rc) {
                        free(live);
                        return rc;
                    }
                }
            }
            if (msrc >= 0) {
                int d = r->dense[in->defs[0]];
                if (r->mate[d] < 0)
                    r->mate[d] = dmsrc;
                if (r->mate[dmsrc] < 0)
                    r->mate[dmsrc] = d;
            }
            if (in->guard < 0)
                for (int k = 0; k < in->ndefs; k++)
                    bclr(live, r->dense[in->defs[k]]);
            if (in->guard >= 0)
                bset(live, r->dense[in->guard]);
            for (int k = 0; k < in->nuses; k++)
                bset(live, r->dense[in->uses[k]]);
        }
    }
    free(live);
    /* Registers live on entry are all defined "at once": they interfere. */
    if (f->nblocks > 0) {
        const word_t *ein = r->in;
        for (int x = 0; x < r->nv; x++) {
            if (!btest(ein, x))
                continue;
            for (int y = x + 1; y < r->nv; y++) {
                int rc = btest(ein, y) ? add_edge(r, x, y) : 0;
                if (rc)
                    return rc;
            }
        }
    }
    dedupe_edges(r);
    free(r->pairs);
    r->pairs = NULL;
    int m = r->nedges;
    r->adj_start = calloc((size_t)r->nv + 1, sizeof *r->adj_start);
    r->adj = malloc(((size_t)m * 2 + 1) * sizeof *r->adj);
    if (!r->adj_start || !r->adj)
        return RF_ENOMEM;
    for (int i = 0; i < m; i++) {
        r->adj_start[r->edges[i].a + 1]++;
        r->adj_start[r->edges[i].b + 1]++;
    }
    for (int v = 0; v < r->nv; v++)
        r->adj_start[v + 1] += r->adj_start[v];
    int *fill = calloc((size_t)r->nv + 1, sizeof *fill);
    if (!fill)
        return RF_ENOMEM;
    for (int i = 0; i < m; i++) {
        int a = r->edges[i].a, b = r->edges[i].b;
        r->adj[r->adj_start[a] + fill[a]++] = b;
        r->adj[r->adj_start[b] + fill[b]++] = a;
    }
    free(fill);
    return RF_OK;
}

/* Words a dense register occupies in the general file. */
static int gpr_words(const ra *r, int d)
{
    int w = r->f->regs[r->vreg[d]].words;
    return w == 0 ? 1 : w;
}

static bool is_pred(const ra *r, int d)
{
    return r->f->regs[r->vreg[d]].words == 0 && !r->in_gpr[d];
}

/* Ascending key, then ascending index. */
static bool key_before(int a, int b, const void *ctx)
{
    const int *key = ctx;
    return key[a] != key[b] ? key[a] < key[b] : a < b;
}

/* Colour the predicates with npred colours; those that do not fit move to
 * the general file.  Then colour the general file.  Returns the number of
 * general slots used, or RF_ELIMIT. */
static int colour(ra *r, const int *order, int npred, int limit, bool may_spill)
{
    bool busy[NSLOTS + 8];
    bool spilled = false;
    for (int d = 0; d < r->nv; d++) {
        r->color[d] = -1;
        r->in_gpr[d] = false;
        r->spill[d] = false;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int oi = 0; oi < r->nv; oi++) {
            int d = order[oi];
            bool pred = r->f->regs[r->vreg[d]].words == 0;
            if (pass == 0 && !pred)
                continue;
            if (pass == 1 && pred && !r->in_gpr[d])
                continue;
            memset(busy, 0, sizeof busy);
            for (int e = r->adj_start[d]; e < r->adj_start[d + 1]; e++) {
                int x = r->adj[e];
                if (r->color[x] < 0)
                    continue;
                if (pass == 0) {
                    if (is_pred(r, x))
                        busy[r->color[x]] = true;
                } else if (!is_pred(r, x)) {
                    int w = gpr_words(r, x);
                    for (int k = 0; k < w && r->color[x] + k < NSLOTS; k++)
                        busy[r->color[x] + k] = true;
                }
            }
            if (pass == 0) {
                int c = -1;
                int mt = r->mate[d];
                if (mt >= 0 && r->color[mt] >= 0 && is_pred(r, mt) &&
                    !busy[r->color[mt]])
                    c = r->color[mt];
                for (int k = 0; c < 0 && k < npred; k++)
                    if (!busy[k])
                        c = k;
                if (c < 0)
                    r->in_gpr[d] = true;
                else
                    r->color[d] = c;
                continue;
            }
            int w = gpr_words(r, d), c = -1;
            int mt = r->mate[d];
            int lo = (r->floor[d] + w - 1) / w * w;
            if (mt >= 0 && r->color[mt] >= 0 && !is_pred(r, mt) &&
                gpr_words(r, mt) == w && r->color[mt] >= lo) {
                int s = r->color[mt];
                bool ok = !(s <= RESERVED_SP && RESERVED_SP < s + w);
                for (int k = 0; k < w; k++)
                    ok = ok && !busy[s + k];
                if (ok)
                    c = s;
            }
            if (c >= 0 && c + w > limit)
                c = -1;
            for (int s = lo; c < 0 && s + w <= limit; s += w) {
                bool ok = !(s <= RESERVED_SP && RESERVED_SP < s + w);
                for (int k = 0; k < w; k++)
                    ok = ok && !busy[s + k];
                if (ok)
                    c = s;
            }
            if (c < 0 && !may_spill)
                return RF_ELIMIT;
            if (c < 0) {          /* spill: lives in local memory */
                r->spill[d] = true;
                spilled = true;
                continue;
            }
            r->color[d] = c;
        }
    }
    int used = 0;
    for (int d = 0; d < r->nv; d++)
        if (!is_pred(r, d) && r->color[d] >= 0 && used < RESERVED_SP + 1)
            used = RESERVED_SP + 1;   /* any register in use: R1 is too */
    for (int d = 0; d < r->nv; d++)
        if (!is_pred(r, d) && r->color[d] >= 0 &&
            r->color[d] + gpr_words(r, d) > used)
            used = r->color[d] + gpr_words(r, d);
    if (used > 0 && used < r->min_used)
        used = r->min_used;
    return spilled ? r->cap : used;
}

static int copy_physical(const rf_func *src, rf_func **out)
{
    rf_func *f = calloc(1, sizeof *f);
    if (!f)
        return RF_ENOMEM;
    *f = *src;
    f->regs = NULL;
    f->insts = malloc((size_t)(src->ninsts ? src->ninsts : 1) * sizeof *f->insts);
    f->blocks = malloc((size_t)(src->nblocks ? src->nblocks : 1) *
                       sizeof *f->blocks);
    if (!f->insts || !f->blocks) {
        rf_func_destroy(f);
        return RF_ENOMEM;
    }
    if (src->ninsts)
        memcpy(f->insts, src->insts, (size_t)src->ninsts * sizeof *f->insts);
    if (src->nblocks)
        memcpy(f->blocks, src->blocks, (size_t)src->nblocks * sizeof *f->blocks);
    *out = f;
    return RF_OK;
}

static void put_words(uint16_t *list, uint8_t *n, int cap, uint8_t *flags,
                      int base, int w)
{
    for (int k = 0; k < w; k++) {
        int reg = base + k;
        bool dup = false;
        for (int j = 0; j < *n; j++)
            dup = dup || list[j] == reg;
        if (dup)
            continue;
        if (*n >= cap) {
            *flags |= RF_IF_TRUNC;
            return;
        }
        list[(*n)++] = (uint16_t)reg;
    }
}

/* A reload register run of w words in R246..R254 not yet taken (mask bit
 * k = R246+k); when the scratch is exhausted the first aligned run is
 * shared (an estimate, never a crash). */
static int scratch_take(unsigned *mask, int w, int lo, int hi)
{
    int first = -1;
    for (int base = lo; base + w <= hi; base++) {
        if (w > 1 && base % w)
            continue;
        if (first < 0)
            first = base;
        unsigned bits = ((1u << w) - 1) << (base - lo);
        if (!(*mask & bits)) {
            *mask |= bits;
            return base;
        }
    }
    return first;
}

typedef struct slot {
    int d, base;
} slot;

static int slot_of(const slot *sl, int n, int d)
{
    for (int i = 0; i < n; i++)
        if (sl[i].d == d)
            return sl[i].base;
    return -1;
}

/* Physical function from a coloured virtual one.  Spilled values get a
 * local-memory slot; each instruction reading one is preceded by a local
 * load into a scratch register, each writing one is followed by a local
 * store (under the same guard).  Spill code reuses the function's own
 * ld/st opcode spellings. */
static int emit_physical(const ra *r, const rf_func *virt, int used,
                         rf_func **out)
{
    const rf_func *v = virt;
    int extra = 0, ldop = -1, stop = -1;
    for (int i = 0; i < v->ninsts; i++) {
        const rf_inst *vi = &v->insts[i];
        if (vi->cls == RF_OC_LD_LOCAL ||
            (ldop < 0 && (vi->cls == RF_OC_LD_GLOBAL ||
                          vi->cls == RF_OC_LD_SHARED ||
                          vi->cls == RF_OC_LD_CONST)))
            ldop = vi->opcode;
        if (vi->cls == RF_OC_ST_LOCAL || (stop < 0 && (vi->cls == RF_OC_ST_GLOBAL ||
                                                      vi->cls == RF_OC_ST_SHARED)))
            stop = vi->opcode;
        for (int k = 0; k < vi->ndefs + vi->nuses; k++) {
            int x = k < vi->ndefs ? vi->defs[k] : vi->uses[k - vi->ndefs];
            extra += r->spill[r->dense[x]];
        }
        if (vi->guard >= 0)
            extra += r->spill[r->dense[vi->guard]];
    }
    rf_func *f = calloc(1, sizeof *f);
    if (!f)
        return RF_ENOMEM;
    *f = *v;
    f->regs = NULL;
    f->physical = true;
    int cap = v->ninsts + extra;
    f->insts = calloc((size_t)(cap ? cap : 1), sizeof *f->insts);
    f->blocks = malloc((size_t)(v->nblocks ? v->nblocks : 1) * sizeof *f->blocks);
    int *offset = calloc((size_t)(r->nv ? r->nv : 1), sizeof *offset);
    if (!f->insts || !f->blocks || !offset) {
        free(offset);
        rf_func_destroy(f);
        return RF_ENOMEM;
    }
    if (v->nblocks)
        memcpy(f->blocks, v->blocks, (size_t)v->nblocks * sizeof *f->blocks);
    long bytes = 0;
    for (int d = 0; d < r->nv; d++) {
        if (!r->spill[d])
            continue;
        int w = gpr_words(r, d);
        bytes = (bytes + 4 * w - 1) / (4 * w) * (4 * w);
        offset[d] = (int)bytes;
        bytes += 4 * w;
    }
    f->spill_words = (int)(bytes / 4);
    long lb = (long)f->local_bytes + bytes;
    f->local_bytes = lb > (1L << 30) ? (1 << 30) : (int)lb;
    int pos = 0, maxpred = -1;
    for (int b = 0; b < v->nblocks; b++) {
        const rf_block *vb = &v->blocks[b];
        f->blocks[b].first = pos;
        for (int i = vb->first; i < vb->first + vb->ninsts; i++) {
            const rf_inst *vi = &v->insts[i];
            slot uses[RF_MAX_USES + 1], defs[RF_MAX_DEFS];
            int nu = 0, nd = 0;
            unsigned umask = 0, dmask = 0;
            /* reloads before the instruction */
            for (int k = -1; k < vi->nuses; k++) {
                int x = k < 0 ? vi->guard : vi->uses[k];
                if (x < 0)
                    continue;
                int d = r->dense[x];
                if (!r->spill[d] || slot_of(uses, nu, d) >= 0)
                    continue;
                int w = gpr_words(r, d), base = scratch_take(&umask, w, r->scratch_lo, r->cap);
                uses[nu++] = (slot){d, base};
                rf_inst *ld = &f->insts[pos++];
                memset(ld, 0, sizeof *ld);
                ld->cls = RF_OC_LD_LOCAL;
                ld->opcode = (int16_t)(ldop >= 0 ? ldop : vi->opcode);
                ld->guard = -1;
                ld->target = -1;
                ld->line = vi->line;
                put_words(ld->defs, &ld->ndefs, RF_MAX_DEFS, &ld->flags, base, w);
                put_words(ld->uses, &ld->nuses, RF_MAX_USES, &ld->flags,
                          RESERVED_SP, 1);
            }
            for (int k = 0; k < vi->ndefs; k++) {
                int d = r->dense[vi->defs[k]];
                if (r->spill[d] && slot_of(defs, nd, d) < 0)
                    defs[nd++] = (slot){d, scratch_take(&dmask, gpr_words(r, d), r->scratch_lo, r->cap)};
            }
            rf_inst *in = &f->insts[pos++];
            *in = *vi;
            in->ndefs = in->nuses = 0;
            for (int k = 0; k < vi->ndefs + vi->nuses; k++) {
                bool isdef = k < vi->ndefs;
                int x = isdef ? vi->defs[k] : vi->uses[k - vi->ndefs];
                int d = r->dense[x], base, w;
                if (is_pred(r, d)) {
                    base = RF_PRED_BASE + r->color[d];
                    w = 1;
                } else {
                    w = gpr_words(r, d);
                    base = r->spill[d] ? slot_of(isdef ? defs : uses,
                                                 isdef ? nd : nu, d)
                                       : r->color[d];
                }
                if (isdef)
                    put_words(in->defs, &in->ndefs, RF_MAX_DEFS, &in->flags,
                              base, w);
                else
                    put_words(in->uses, &in->nuses, RF_MAX_USES, &in->flags,
                              base, w);
            }
            if (vi->guard >= 0) {
                int d = r->dense[vi->guard];
                if (is_pred(r, d)) {
                    in->guard = (int16_t)(RF_PRED_BASE + r->color[d]);
                } else {
                    /* Guard held in a general register: read it, test in P6. */
                    in->guard = RF_PRED_BASE + NPRED - 1;
                    int base = r->spill[d] ? slot_of(uses, nu, d) : r->color[d];
                    put_words(in->uses, &in->nuses, RF_MAX_USES, &in->flags,
                              base, 1);
                }
                if (in->guard - RF_PRED_BASE > maxpred)
                    maxpred = in->guard - RF_PRED_BASE;
            }
            for (int k = 0; k < in->ndefs; k++)
                if (in->defs[k] >= RF_PRED_BASE &&
                    in->defs[k] - RF_PRED_BASE > maxpred)
                    maxpred = in->defs[k] - RF_PRED_BASE;
            for (int k = 0; k < in->nuses; k++)
                if (in->uses[k] >= RF_PRED_BASE &&
                    in->uses[k] - RF_PRED_BASE > maxpred)
                    maxpred = in->uses[k] - RF_PRED_BASE;
            /* stores after it, under the same guard */
            for (int k = 0; k < nd; k++) {
                rf_inst *st = &f->insts[pos++];
                memset(st, 0, sizeof *st);
                st->cls = RF_OC_ST_LOCAL;
                st->opcode = (int16_t)(stop >= 0 ? stop : vi->opcode);
                st->guard = in->guard;
                st->flags = in->flags & RF_IF_GUARD_NEG;
                st->target = -1;
                st->line = vi->line;
                put_words(st->uses, &st->nuses, RF_MAX_USES, &st->flags,
                          RESERVED_SP, 1);
                put_words(st->uses, &st->nuses, RF_MAX_USES, &st->flags,
                          defs[k].base, gpr_words(r, defs[k].d));
            }
        }
        f->blocks[b].ninsts = pos - f->blocks[b].first;
    }
    free(offset);
    f->ninsts = pos;
    f->nregs = used;
    f->npreds = maxpred + 1;
    *out = f;
    return RF_OK;
}

/* Spill priority (Chow and Hennessy's priority colouring): values read and
 * written often for the length of their live range go first; the ones
 * left without a register are those live longest for the fewest uses. */
static bool spill_before(int a, int b, const void *ctx)
{
    const ra *r = ctx;
    long ka = (long)r->occ[a] * (r->span[b] ? r->span[b] : 1);
    long kb = (long)r->occ[b] * (r->span[a] ? r->span[a] : 1);
    if (ka != kb)
        return ka > kb;
    return r->firstdef[a] != r->firstdef[b] ? r->firstdef[a] < r->firstdef[b]
                                            : a < b;
}

/* Reload scratch for a spilling allocation under cap registers: R246..R254
 * under the full file; under a lower cap as many words as one instruction
 * reads or writes, at least 4 (one 128-bit value) and at most 9. */
static int scratch_words(const rf_func *f, int cap)
{
    if (cap >= NSLOTS)
        return NSLOTS - SPILL_BASE;
    int most = 4;
    for (int i = 0; i < f->ninsts; i++) {
        const rf_inst *in = &f->insts[i];
        int rd = 0, wr = 0;
        for (int k = 0; k < in->nuses; k++)
            rd += f->regs[in->uses[k]].words;
        for (int k = 0; k < in->ndefs; k++)
            wr += f->regs[in->defs[k]].words;
        most = rd > most ? rd : most;
        most = wr > most ? wr : most;
    }
    return most > 9 ? 9 : most;
}

static int allocate(const rf_func *virt, int cap, int stretch,
                    rf_func **out, int *call_live, rf_err *err)
{
    ra r;
    memset(&r, 0, sizeof r);
    r.f = virt;
    r.cap = cap;
    r.stretch = stretch;
    r.scratch_lo = cap - scratch_words(virt, cap);
    int rc = RF_ENOMEM;
    r.dense = malloc((size_t)(virt->nregs ? virt->nregs : 1) * sizeof *r.dense);
    if (!r.dense)
        goto fail;
    for (int i = 0; i < virt->nregs; i++)
        r.dense[i] = -1;
    /* Dense numbering of referenced registers in order of first mention. */
    r.vreg = malloc((size_t)(virt->nregs ? virt->nregs : 1) * sizeof *r.vreg);
    r.firstdef = malloc((size_t)(virt->nregs ? virt->nregs : 1) * sizeof *r.firstdef);
    if (!r.vreg || !r.firstdef)
        goto fail;
    for (int i = 0; i < virt->ninsts; i++) {
        const rf_inst *in = &virt->insts[i];
        int regs[RF_MAX_DEFS + RF_MAX_USES + 1], n = 0;
        for (int k = 0; k < in->ndefs; k++)
            regs[n++] = in->defs[k];
        for (int k = 0; k < in->nuses; k++)
            regs[n++] = in->uses[k];
        if (in->guard >= 0)
            regs[n++] = in->guard;
        for (int k = 0; k < n; k++) {
            if (regs[k] >= virt->nregs) {
                rc = rf_err_set(err, RF_EINTERNAL, NULL, (int)in->line, 0,
                                virt->name, "register %d out of range",
                                regs[k]);
                goto out;
            }
            if (r.dense[regs[k]] < 0) {
                r.dense[regs[k]] = r.nv;
                r.firstdef[r.nv] = i;
                r.vreg[r.nv++] = regs[k];
            }
        }
    }
    r.nw = (r.nv + WBITS - 1) / WBITS;
    if (r.nw == 0)
        r.nw = 1;
    r.mate = malloc((size_t)(r.nv ? r.nv : 1) * sizeof *r.mate);
    r.color = malloc((size_t)(r.nv ? r.nv : 1) * sizeof *r.color);
    r.in_gpr = calloc((size_t)(r.nv ? r.nv : 1), sizeof *r.in_gpr);
    r.spill = calloc((size_t)(r.nv ? r.nv : 1), sizeof *r.spill);
    r.span = calloc((size_t)(r.nv ? r.nv : 1), sizeof *r.span);
    r.occ = calloc((size_t)(r.nv ? r.nv : 1), sizeof *r.occ);
    r.floor = calloc((size_t)(r.nv ? r.nv : 1), sizeof *r.floor);
    r.remat = calloc((size_t)(r.nv ? r.nv : 1), sizeof *r.remat);
    if (!r.mate || !r.color || !r.in_gpr || !r.spill || !r.span || !r.occ ||
        !r.floor || !r.remat)
        goto fail;
    find_remat(&r);
    for (int d = 0; d < r.nv; d++)
        r.mate[d] = -1;
    if (liveness(&r))
        goto fail;
    rc = interference(&r);
    if (rc == RF_ELIMIT) {
        rc = rf_err_set(err, RF_ELIMIT, NULL, 0, 0, virt->name,
                        "more than %d interfering register pairs (too many "
                        "values live at once to allocate)", MAX_EDGES);
        goto out;
    }
    if (rc)
        goto fail;
    int *order = malloc((size_t)(r.nv ? r.nv : 1) * sizeof *order);
    if (!order)
        goto fail;
    for (int d = 0; d < r.nv; d++)
        order[d] = d;
    kir_sort_idx(order, r.nv, key_before, r.firstdef);
    int used = colour(&r, order, NPRED, cap, false);
    bool pspill = false;
    for (int d = 0; d < r.nv && used >= 0; d++)
        pspill = pspill || r.in_gpr[d];
    if (used >= 0 && pspill)     /* keep P6 as the scratch for guards */
        used = colour(&r, order, NPRED - 1, cap, false);
    if (used == RF_ELIMIT) {
        /* More than the cap holds: colour in spill-priority order below the
         * reload scratch registers; what does not fit lives in local
         * memory, as ptxas does. */
        kir_sort_idx(order, r.nv, spill_before, &r);
        used = colour(&r, order, NPRED, r.scratch_lo, true);
        pspill = false;
        for (int d = 0; d < r.nv; d++)
            pspill = pspill || r.in_gpr[d];
        if (pspill)
            used = colour(&r, order, NPRED - 1, r.scratch_lo, true);
    }
    free(order);
    rf_func *f;
    rc = emit_physical(&r, virt, used, &f);
    if (rc)
        goto fail;
    if (call_live)
        *call_live = r.call_live;
    *out = f;
    rc = RF_OK;
    goto out;
fail:
    rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, virt->name, "out of memory");
out:
    ra_free(&r);
    return rc;
}

static bool is_mem_class(int cls)
{
    return cls == RF_OC_LD_GLOBAL || cls == RF_OC_ST_GLOBAL ||
           cls == RF_OC_LD_SHARED || cls == RF_OC_ST_SHARED ||
           cls == RF_OC_LD_LOCAL || cls == RF_OC_ST_LOCAL ||
           cls == RF_OC_LD_CONST || cls == RF_OC_ATOMIC || cls == RF_OC_CALL;
}

/* Loop-invariant pointers on sm_90.  Up to sm_80 the address arithmetic
 * (IMAD.WIDE) reads a pointer parameter straight from the constant bank;
 * from sm_90 on ptxas loads it into a register pair (LDC.64) instead, and a
 * loop that reads it keeps the pair for the whole loop, loaded once ahead
 * of it (where nvcc puts the cvta.to.global).  ptxas -v on loops (nounroll)
 * gathering a[j], b[j], ... at j = ix[i + 32k] from 1 to 4 such pointers:
 * 14, 16, 18, 20 registers at sm_80 and 14, 18, 22, 26 at sm_90, i.e. a
 * pair for every pointer but the first (the first takes the place of the
 * register sm_80 needs for IMAD.WIDE's multiplier); this rule gives 14, 19,
 * 24, 25.  Outside loops the pair is dead at the address it becomes and
 * costs little (y[i] = x[i]: 8 at sm_80, 10 at sm_90; guarded by i < n, as
 * in inputs/validation/short_axpy.ptx, 10 at both): not modelled. */
#define LDC_POINTER_SM 90

/* Constants the compiler folds into instruction operands need no register:
 * a register defined once by an RF_IF_CONST instruction (kernel parameter,
 * constant-bank load, immediate, launch size), or a copy of one, that no
 * memory instruction reads (addresses and store data must be registers)
 * and that shares no instruction with another folded constant (one
 * constant-bank operand per instruction).  fold[] is filled per register. */
/* Whether a register is read inside a loop that does not contain pos (its
 * definition): a loop is the blocks from a back edge's target to its
 * source in layout order, as nvcc lays loops out (a body is contiguous,
 * its header first, its latch last). */
static bool read_in_loop(const rf_func *v, int reg, int pos)
{
    for (int l = 0; l < v->nblocks; l++)
        for (int s = 0; s < v->blocks[l].nsucc; s++) {
            int h = v->blocks[l].succ[s];
            if (h > l)
                continue;
            int lo = v->blocks[h].first;
            int hi = v->blocks[l].first + v->blocks[l].ninsts;
            if (pos >= lo && pos < hi)
                continue;
            for (int i = lo; i < hi; i++)
                for (int k = 0; k < v->insts[i].nuses; k++)
                    if (v->insts[i].uses[k] == reg)
                        return true;
        }
    return false;
}

static void find_folded(const rf_func *v, int sm, bool *fold)
{
    int n = v->nregs;
    int *ndef = calloc((size_t)(n ? n : 1), sizeof *ndef);
    int *defi = malloc((size_t)(n ? n : 1) * sizeof *defi);
    bool *bad = calloc((size_t)(n ? n : 1), sizeof *bad);
    if (!ndef || !defi || !bad) {
        free(ndef);
        free(defi);
        free(bad);
        return;      /* nothing folded: allocation stays valid */
    }
    for (int i = 0; i < v->ninsts; i++) {
        const rf_inst *in = &v->insts[i];
        for (int k = 0; k < in->ndefs; k++) {
            ndef[in->defs[k]]++;
            defi[in->defs[k]] = i;
        }
        if (is_mem_class(in->cls))
            for (int k = 0; k < in->nuses; k++)
                bad[in->uses[k]] = true;
        if (in->guard >= 0)
            bad[in->guard] = true;
    }
    for (int r = 0; r < n; r++) {
        const rf_inst *d = ndef[r] == 1 ? &v->insts[defi[r]] : NULL;
        fold[r] = d && !bad[r] && v->regs[r].words > 0 && d->guard < 0 &&
                  (d->flags & RF_IF_CONST) && d->ndefs == 1;
    }
    /* Copies of folded constants (cvta.to.global of a parameter), except,
     * from LDC_POINTER_SM on, a 64-bit copy read inside a loop that does
     * not contain the copy. */
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < v->ninsts; i++) {
            const rf_inst *in = &v->insts[i];
            if (!(in->flags & RF_IF_MOVE) || in->ndefs != 1 || in->nuses != 1 ||
                in->guard >= 0)
                continue;
            int d = in->defs[0], u = in->uses[0];
            bool f = fold[u] && ndef[d] == 1 && !bad[d] &&
                     !(sm >= LDC_POINTER_SM && v->regs[d].words == 2 &&
                       read_in_loop(v, d, i));
            if (f != fold[d] && f) {
                fold[d] = true;
                changed = true;
            }
        }
    }
    /* One folded operand per instruction. */
    for (int i = 0; i < v->ninsts; i++) {
        const rf_inst *in = &v->insts[i];
        int seen = 0;
        for (int k = 0; k < in->nuses; k++)
            if (fold[in->uses[k]] && seen++ > 0)
                fold[in->uses[k]] = false;
    }
    /* A copy whose source lost its fold keeps a register of its own only
     * if it is read by a move chain; sources stay consistent. */
    for (int i = 0; i < v->ninsts; i++) {
        const rf_inst *in = &v->insts[i];
        if ((in->flags & RF_IF_MOVE) && in->ndefs == 1 && in->nuses == 1 &&
            fold[in->defs[0]] && !fold[in->uses[0]] &&
            !(v->insts[defi[in->defs[0]]].flags & RF_IF_CONST))
            fold[in->defs[0]] = false;
    }
    free(ndef);
    free(defi);
    free(bad);
}

static bool is_load(int cls)
{
    return cls == RF_OC_LD_GLOBAL || cls == RF_OC_LD_SHARED ||
           cls == RF_OC_LD_CONST || cls == RF_OC_LD_LOCAL;
}

/* Memory order.  Loads and stores of different state spaces (global,
 * shared, local) never alias; constant and parameter loads alias no store.
 * Atomics, barriers, calls and control transfers order everything. */
static int space_of(int cls)
{
    switch (cls) {
    case RF_OC_LD_GLOBAL: case RF_OC_ST_GLOBAL: return 0;
    case RF_OC_LD_SHARED: case RF_OC_ST_SHARED: return 1;
    case RF_OC_LD_LOCAL: case RF_OC_ST_LOCAL: return 2;
    default: return -1;
    }
}

static bool is_store(int cls)
{
    return cls == RF_OC_ST_GLOBAL || cls == RF_OC_ST_SHARED ||
           cls == RF_OC_ST_LOCAL;
}

static bool is_fence(int cls)
{
    return cls == RF_OC_ATOMIC || cls == RF_OC_BARRIER || cls == RF_OC_CALL ||
           cls == RF_OC_BRANCH || cls == RF_OC_EXIT;
}

/* Instructions a load may not pass: a store to its state space, or a
 * fence. */
static bool blocks_load(int q, int ld)
{
    if (is_fence(q))
        return true;
    return is_store(q) && space_of(q) == space_of(ld);
}

static bool shares(const uint16_t *a, int na, const uint16_t *b, int nb)
{
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (a[i] == b[j])
                return true;
    return false;
}

/* ---- critical-path list scheduling of each block ----
 *
 * ptxas schedules a block as a list scheduler does: among the instructions
 * whose operands are ready it issues the one with the longest
 * latency-weighted path to the end of the block first.  Global loads (the
 * longest latency) and the address arithmetic they read therefore go ahead
 * of the block's other work, the address arithmetic of later loads and
 * stores moves up past a barrier (only memory operations are ordered by
 * it), and stores, which nothing reads, go last.  Model: a
 * dependence graph of the block (register read-after-write,
 * write-after-read and write-after-write, guards as reads; loads after the
 * last fence, i.e. global store, atomic, barrier or call, and non-global
 * loads also after shared and local stores; fences after every earlier
 * load and fence; a call after every earlier instruction and before every
 * later one, its arguments and results passing through the param space),
 * each instruction's height (the longest path to the
 * block's end, a read-after-write edge weighted by the producer's
 * latency_of, an ordering edge by one cycle), then a list schedule taking
 * the ready instruction of greatest height, the earliest on ties (in the
 * ladder's pressure order: the one freeing the most register words,
 * freed_words, then the greatest height).  The block's branch or exit
 * stays last.  Evidence (ptxas -v, sm_75): on
 * inputs/validation/transpose.ptx without its global loads, writing the
 * four transposed values through four addresses takes 20 registers and
 * through one address 14: ptxas computes the store addresses before the
 * stores and keeps them live together, which program order (each address
 * dead at its store) does not; nbody takes 37 (global loads first in
 * program order: 29, this schedule 36) and stencil3d_z 42 (52, now 42). */
typedef struct dag {
    int *from, *to;
    bool *raw;
    int n, cap;
} dag;

static int dag_add(dag *g, int a, int b, bool raw)
{
    if (a < 0 || a == b)
        return RF_OK;
    if (g->n == g->cap) {
        int cap = g->cap ? 2 * g->cap : 256;
        int *f = realloc(g->from, (size_t)cap * sizeof *f);
        if (f)
            g->from = f;
        int *t = realloc(g->to, (size_t)cap * sizeof *t);
        if (t)
            g->to = t;
        bool *w = realloc(g->raw, (size_t)cap * sizeof *w);
        if (w)
            g->raw = w;
        if (!f || !t || !w)
            return RF_ENOMEM;
        g->cap = cap;
    }
    g->from[g->n] = a;
    g->to[g->n] = b;
    g->raw[g->n++] = raw;
    return RF_OK;
}


/* Dependences of the n instructions at in[0..n) into g. */
static int block_deps(const rf_inst *in, int n, int nregs, dag *g, int *last_def,
                      int *rd_head, int *rd_next, int *rd_inst)
{
    int nrd = 0, fence = -1, last_store = -1, nloads = 0, last_call = -1;
    int last_st[3] = {-1, -1, -1};
    int *loads = malloc((size_t)(n ? n : 1) * sizeof *loads);
    if (!loads)
        return RF_ENOMEM;
    int rc = RF_OK;
    for (int i = 0; i < n && !rc; i++) {
        const rf_inst *q = &in[i];
        int rs[RF_MAX_USES + 1], nr = 0;
        for (int k = 0; k < q->nuses; k++)
            rs[nr++] = q->uses[k];
        if (q->guard >= 0)
            rs[nr++] = q->guard;
        for (int k = 0; k < nr && !rc; k++)      /* read after write */
            rc = dag_add(g, last_def[rs[k]], i, true);
        /* A call orders everything: its arguments and results pass through
         * the param space, which the register edges do not see. */
        if (q->cls == RF_OC_CALL) {
            for (int k = last_call + 1; k < i && !rc; k++)
                rc = dag_add(g, k, i, false);
            last_call = i;
        } else if (!rc) {
            rc = dag_add(g, last_call, i, false);
        }
        for (int k = 0; k < q->ndefs && !rc; k++) {
            int r = q->defs[k];
            rc = dag_add(g, last_def[r], i, false);   /* write after write */
            for (int e = rd_head[r]; e >= 0 && !rc; e = rd_next[e])
                rc = dag_add(g, rd_inst[e], i, false); /* write after read */
        }
        int sp = space_of(q->cls);
        if (is_load(q->cls)) {
            rc = rc ? rc : dag_add(g, fence, i, false);
            if (sp >= 0 && !rc)
                rc = dag_add(g, last_st[sp], i, false);
            loads[nloads++] = i;
        } else if (is_store(q->cls) || is_fence(q->cls)) {
            rc = rc ? rc : dag_add(g, fence, i, false);
            rc = rc ? rc : dag_add(g, last_store, i, false);
            for (int k = 0; k < nloads && !rc; k++)
                if (sp < 0 || space_of(in[loads[k]].cls) == sp)
                    rc = dag_add(g, loads[k], i, false);
            if (is_fence(q->cls)) {
                fence = i;
                nloads = 0;
            } else {
                last_st[sp] = last_store = i;
            }
        }
        for (int k = 0; k < q->ndefs; k++) {
            last_def[q->defs[k]] = i;
            rd_head[q->defs[k]] = -1;
        }
        for (int k = 0; k < nr; k++) {
            rd_inst[nrd] = i;
            rd_next[nrd] = rd_head[rs[k]];
            rd_head[rs[k]] = nrd++;
        }
    }
    /* Leave the per-register tables clean for the next block. */
    for (int i = 0; i < n; i++) {
        const rf_inst *q = &in[i];
        for (int k = 0; k < q->ndefs; k++)
            last_def[q->defs[k]] = rd_head[q->defs[k]] = -1;
        for (int k = 0; k < q->nuses; k++)
            rd_head[q->uses[k]] = -1;
        if (q->guard >= 0)
            rd_head[q->guard] = -1;
    }
    (void)nregs;
    free(loads);
    return rc;
}

/* Issue-to-use latencies (cycles) the block scheduler weighs paths with:
 * global and local loads and atomics go to memory (hundreds of cycles on
 * Turing and later: any value from 100 up orders the measured kernels the
 * same); SFU results take about 20, fp64 and wide multiplies about 8,
 * fixed-latency ALU results 4.  Shared loads count as ALU here: their
 * latency is covered by the SHARED_WINDOW move of schedule_loads. */
#define LAT_GLOBAL 400
#define LAT_SFU 20
#define LAT_ALU64 8
#define LAT_ALU 4

static int latency_of(int cls)
{
    switch (cls) {
    case RF_OC_LD_GLOBAL: case RF_OC_LD_LOCAL: case RF_OC_ATOMIC: return LAT_GLOBAL;
    case RF_OC_SFU: return LAT_SFU;
    case RF_OC_ALU64: return LAT_ALU64;
    case RF_OC_ALU: case RF_OC_LD_SHARED: case RF_OC_LD_CONST: return LAT_ALU;
    default: return 1;
    }
}

/* Words of registers an instruction of block b frees (it is the last
 * reader in the block of a value read in no other block and defined once)
 * less the words it defines: the pressure order's priority. */
static int freed_words(const rf_func *f, const rf_inst *in, int b, const int *left,
                       const int *rblock, const int *ndef)
{
    int gain = 0;
    for (int k = 0; k < in->nuses; k++) {
        int r = in->uses[k], times = 0;
        for (int j = 0; j < in->nuses; j++)
            times += in->uses[j] == r;
        bool first = true;
        for (int j = 0; j < k; j++)
            first = first && in->uses[j] != r;
        if (first && left[r] == times && rblock[r] == b && ndef[r] <= 1)
            gain += f->regs[r].words;
    }
    for (int k = 0; k < in->ndefs; k++)
        gain -= f->regs[in->defs[k]].words;
    return gain;
}

static int schedule_block(rf_func *f, bool pressure)
{
    int nr = f->nregs ? f->nregs : 1, maxn = 0;
    for (int b = 0; b < f->nblocks; b++)
        if (f->blocks[b].ninsts > maxn)
            maxn = f->blocks[b].ninsts;
    int *last_def = malloc((size_t)nr * sizeof *last_def);
    int *rd_head = malloc((size_t)nr * sizeof *rd_head);
    size_t m = (size_t)(maxn ? maxn : 1);
    int *rd_next = malloc(m * (RF_MAX_USES + 1) * sizeof *rd_next);
    int *rd_inst = malloc(m * (RF_MAX_USES + 1) * sizeof *rd_inst);
    int *indeg = malloc(m * sizeof *indeg), *order = malloc(m * sizeof *order);
    int *sstart = malloc((m + 1) * sizeof *sstart), *succ = NULL;
    bool *eraw = NULL;

    bool *done = malloc(m * sizeof *done);
    int *height = malloc(m * sizeof *height);
    int *left = calloc((size_t)nr, sizeof *left);
    int *rblock = malloc((size_t)nr * sizeof *rblock);
    int *ndef = calloc((size_t)nr, sizeof *ndef);
    rf_inst *copy = malloc(m * sizeof *copy);
    dag g = {0};
    int rc = RF_ENOMEM;
    if (!last_def || !rd_head || !rd_next || !rd_inst || !indeg || !order ||
        !sstart || !done || !copy || !height || !left || !rblock || !ndef)
        goto out;
    for (int i = 0; i < nr; i++)
        last_def[i] = rd_head[i] = rblock[i] = -1;
    /* For the pressure order: the block that reads each register (-2 when
     * several do) and its definitions in the function. */
    for (int b = 0; b < f->nblocks; b++)
        for (int i = f->blocks[b].first; i < f->blocks[b].first + f->blocks[b].ninsts; i++) {
            const rf_inst *q = &f->insts[i];
            for (int k = 0; k < q->nuses; k++)
                rblock[q->uses[k]] = rblock[q->uses[k]] == -1 || rblock[q->uses[k]] == b
                                         ? b : -2;
            if (q->guard >= 0)
                rblock[q->guard] = -2;
            for (int k = 0; k < q->ndefs; k++)
                ndef[q->defs[k]]++;
        }
    for (int b = 0; b < f->nblocks; b++) {
        rf_inst *in = &f->insts[f->blocks[b].first];
        int n = f->blocks[b].ninsts;
        if (n > 0 && (in[n - 1].cls == RF_OC_BRANCH || in[n - 1].cls == RF_OC_EXIT))
            n--;                       /* the terminator stays last */
        if (n < 2)
            continue;
        g.n = 0;
        rc = block_deps(in, n, nr, &g, last_def, rd_head, rd_next, rd_inst);
        if (rc)
            goto out;
        int *s2 = realloc(succ, (size_t)(g.n ? g.n : 1) * sizeof *succ);
        if (s2)
            succ = s2;
        bool *r2 = realloc(eraw, (size_t)(g.n ? g.n : 1) * sizeof *eraw);
        if (r2)
            eraw = r2;
        if (!s2 || !r2) {
            rc = RF_ENOMEM;
            goto out;
        }

        for (int i = 0; i <= n; i++)
            sstart[i] = 0;
        for (int i = 0; i < n; i++)
            indeg[i] = 0;
        for (int e = 0; e < g.n; e++) {
            sstart[g.from[e] + 1]++;
            indeg[g.to[e]]++;
        }
        for (int i = 0; i < n; i++)
            sstart[i + 1] += sstart[i];
        for (int i = 0; i < n; i++)
            order[i] = sstart[i];           /* fill cursor */
        for (int e = 0; e < g.n; e++) {
            eraw[order[g.from[e]]] = g.raw[e];
            succ[order[g.from[e]]++] = g.to[e];
        }
        for (int i = 0; i < n; i++)
            done[i] = false;
        /* Height: the longest latency-weighted path from an instruction
         * to the end of the block (a read-after-write edge costs the
         * producer's latency, an ordering edge one cycle); edges run
         * forward, so one reverse sweep settles it. */
        for (int i = n - 1; i >= 0; i--) {
            height[i] = latency_of(in[i].cls);
            for (int e = sstart[i]; e < sstart[i + 1]; e++) {
                int h = (eraw[e] ? latency_of(in[i].cls) : 1) + height[succ[e]];
                if (h > height[i])
                    height[i] = h;
            }
        }
        for (int i = 0; i < n; i++)
            for (int k = 0; k < in[i].nuses; k++)
                left[in[i].uses[k]]++;
        for (int k = 0; k < n; k++) {
            int pick = -1;
            /* Folded instructions emit no code: they keep their place. */
            for (int i = 0; i < n && pick < 0; i++)
                if (!done[i] && indeg[i] == 0 && in[i].cls == RF_OC_NOP)
                    pick = i;
            bool nop = pick >= 0;
            int best_gain = 0;
            for (int i = 0; i < n && !nop; i++) {
                if (done[i] || indeg[i] != 0)
                    continue;
                int gain = pressure ? freed_words(f, &in[i], b, left, rblock, ndef) : 0;
                if (pick < 0 || gain > best_gain ||
                    (gain == best_gain && height[i] > height[pick])) {
                    pick = i;
                    best_gain = gain;
                }
            }
            for (int k2 = 0; k2 < in[pick].nuses; k2++)
                left[in[pick].uses[k2]]--;
            assert(pick >= 0);
            done[pick] = true;
            order[k] = pick;
            for (int e = sstart[pick]; e < sstart[pick + 1]; e++)
                indeg[succ[e]]--;
        }
        for (int k = 0; k < n; k++)
            copy[k] = in[order[k]];
        memcpy(in, copy, (size_t)n * sizeof *in);
    }
    rc = RF_OK;
out:
    free(last_def);
    free(rd_head);
    free(rd_next);
    free(rd_inst);
    free(indeg);
    free(order);
    free(sstart);
    free(succ);
    free(eraw);
    free(done);
    free(copy);
    free(height);
    free(left);
    free(rblock);
    free(ndef);

    free(g.from);
    free(g.to);
    free(g.raw);
    return rc;
}

/* Shared-memory latency (tens of cycles) is covered by this many
 * independent instructions: a shared load moves up past at most
 * SHARED_WINDOW instructions (folded NOPs not counted) from where it was,
 * so an unrolled loop of shared loads keeps about that many in flight
 * instead of all of them. */
#define SHARED_WINDOW 14

/* Latency scheduling of shared loads: each moves up ahead of the
 * independent instructions before it, within SHARED_WINDOW, so it issues
 * early and its result stays live longer.  It does not pass another load,
 * an instruction that defines its address or guard, reads or writes its
 * destination, or orders memory (store, atomic, barrier, call, branch).
 * Global loads were placed by schedule_block. */
static void schedule_loads(rf_func *f, int window)
{
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *bl = &f->blocks[b];
        int lo = bl->first, hi = bl->first + bl->ninsts;
        for (int i = lo; i < hi; i++) {
            rf_inst ld = f->insts[i];
            if (ld.cls != RF_OC_LD_SHARED || ld.ndefs == 0)
                continue;
            int p = i, crossed = 0;
            while (p > lo && crossed < window) {
                const rf_inst *q = &f->insts[p - 1];
                if (blocks_load(q->cls, ld.cls) || is_load(q->cls) ||
                    shares(q->defs, q->ndefs, ld.uses, ld.nuses) ||
                    shares(q->uses, q->nuses, ld.defs, ld.ndefs) ||
                    shares(q->defs, q->ndefs, ld.defs, ld.ndefs) ||
                    (ld.guard >= 0 && shares(q->defs, q->ndefs,
                                             (const uint16_t[]){(uint16_t)ld.guard}, 1)) ||
                    (q->guard >= 0 && shares(ld.defs, ld.ndefs,
                                             (const uint16_t[]){(uint16_t)q->guard}, 1)))
                    break;
                crossed += q->cls != RF_OC_NOP;
                p--;
            }
            if (p < i) {
                memmove(&f->insts[p + 1], &f->insts[p],
                        (size_t)(i - p) * sizeof *f->insts);
                f->insts[p] = ld;
            }
        }
    }
}

typedef struct style {
    bool global;       /* critical-path block schedule, else program order */
    int window;        /* shared-load window, 0 = shared loads stay */
    int stretch;       /* issue-slot stretch */
    bool pressure;     /* block schedule frees registers first */
} style;

/* The ladder tried against the register budget, most latency-tolerant
 * first: the critical-path block schedule with shared windows 14 down to 0
 * (stretch 8), the same in program order, then smaller stretches down to
 * none, and last the pressure order: a list schedule that takes first the
 * ready instruction freeing the most register words (the last reader in
 * the block of a value no other block reads, less the words it defines),
 * so that a kernel whose PTX computes many addresses ahead of their loads
 * (many_live: 24 address pairs before the first load) is not held to that
 * order.  ptxas -v: many_live takes 40 registers at sm_80 and sm_90 where
 * program order needs 56; the pressure order 34. */
static const style styles[] = {
    {true, SHARED_WINDOW, ISSUE_STRETCH, false}, {true, 10, 8, false},
    {true, 7, 8, false}, {true, 3, 8, false}, {true, 0, 8, false},
    {false, 14, 8, false}, {false, 10, 8, false}, {false, 7, 8, false},
    {false, 3, 8, false}, {false, 0, 8, false},
    {false, 0, 6, false}, {false, 0, 4, false}, {false, 0, 2, false},
    {false, 0, 0, false},
    {true, 0, 8, true}, {true, 0, 4, true}, {true, 0, 0, true},
};
#define NSTYLES (int)(sizeof styles / sizeof styles[0])

static int regalloc_capped(const rf_func *virt, int cap, int budget, int sm,
                           rf_func **out, int *call_live, rf_err *err);

int rf_regalloc(const rf_func *virt, rf_func **out, rf_err *err)
{
    return regalloc_capped(virt, NSLOTS, RF_REGALLOC_BUDGET, RF_REGALLOC_SM, out,
                           NULL, err);
}

int kir_regalloc(const rf_func *virt, rf_func **out, int *call_live,
                 rf_err *err)
{
    return regalloc_capped(virt, NSLOTS, RF_REGALLOC_BUDGET, RF_REGALLOC_SM, out,
                           call_live, err);
}

int rf_regalloc_cap(const rf_func *virt, int max_regs, int budget,
                    rf_func **out, rf_err *err)
{
    return rf_regalloc_target(virt, max_regs, budget, RF_REGALLOC_SM, out, err);
}

int rf_regalloc_target(const rf_func *virt, int max_regs, int budget, int sm,
                       rf_func **out, rf_err *err)
{
    *out = NULL;
    int cap = max_regs > NSLOTS ? NSLOTS : max_regs;
    if (!virt->physical && cap - scratch_words(virt, cap) < 4)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "max_regs_per_thread",
                          "%d registers per thread leave no room to allocate %s "
                          "with spill reloads (%d scratch registers)",
                          max_regs, virt->name, scratch_words(virt, cap));
    return regalloc_capped(virt, cap, budget, sm, out, NULL, err);
}

static int regalloc_one(const rf_func *virt, int cap, int budget, int sm,
                        rf_func **out, int *call_live, rf_err *err)
{
    *out = NULL;
    if (call_live)
        *call_live = 0;
    if (virt->nblocks > RF_KIR_MAX_BLOCKS)
        return rf_kir_block_limit(virt, NULL, err);
    if (virt->physical) {
        int rc = copy_physical(virt, out);
        return rc ? rf_err_set(err, rc, NULL, 0, 0, virt->name, "out of memory")
                  : RF_OK;
    }
    for (int i = 0; i < virt->ninsts; i++) {
        const rf_inst *in = &virt->insts[i];
        bool ok = in->guard < virt->nregs;
        for (int k = 0; k < in->ndefs; k++)
            ok = ok && in->defs[k] < virt->nregs;
        for (int k = 0; k < in->nuses; k++)
            ok = ok && in->uses[k] < virt->nregs;
        if (!ok)
            return rf_err_set(err, RF_EINTERNAL, NULL, (int)in->line, 0,
                              virt->name, "register out of range");
    }
    /* Allocate a copy without the folded constants. */
    bool *fold = calloc((size_t)(virt->nregs ? virt->nregs : 1), sizeof *fold);
    rf_func tmp = *virt;
    tmp.insts = malloc((size_t)(virt->ninsts ? virt->ninsts : 1) *
                       sizeof *tmp.insts);
    if (!fold || !tmp.insts) {
        free(fold);
        free(tmp.insts);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, virt->name,
                          "out of memory");
    }
    find_folded(virt, sm, fold);
    /* An atomic whose old value is never read needs no destination: ptxas
     * emits the reduction form (RED); ptxas -v at sm_75 gives the same
     * count for tests/fixtures/regalloc/histo.ptx with every such atom
     * written as red (12, 14 and 22 registers). */
    bool *read = calloc((size_t)(virt->nregs ? virt->nregs : 1), sizeof *read);
    if (!read) {
        free(fold);
        free(tmp.insts);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, virt->name,
                          "out of memory");
    }
    for (int i = 0; i < virt->ninsts; i++) {
        const rf_inst *vi = &virt->insts[i];
        for (int k = 0; k < vi->nuses; k++)
            read[vi->uses[k]] = true;
        if (vi->guard >= 0)
            read[vi->guard] = true;
    }
    for (int i = 0; i < virt->ninsts; i++) {
        const rf_inst *vi = &virt->insts[i];
        rf_inst *ti = &tmp.insts[i];
        *ti = *vi;
        ti->ndefs = ti->nuses = 0;
        for (int k = 0; k < vi->ndefs; k++)
            if (!fold[vi->defs[k]] &&
                !(vi->cls == RF_OC_ATOMIC && !read[vi->defs[k]]))
                ti->defs[ti->ndefs++] = vi->defs[k];
        for (int k = 0; k < vi->nuses; k++)
            if (!fold[vi->uses[k]])
                ti->uses[ti->nuses++] = vi->uses[k];
        /* Fully folded definitions disappear from the machine code. */
        if (vi->ndefs > 0 && ti->ndefs == 0 && ti->nuses == 0 &&
            vi->guard < 0 && !is_mem_class(vi->cls == RF_OC_LD_CONST
                                               ? RF_OC_ALU : vi->cls))
            ti->cls = RF_OC_NOP;
        if (ti->cls == RF_OC_NOP)
            ti->flags &= (uint8_t)~(RF_IF_MOVE | RF_IF_CONST);
    }
    free(read);
    rf_inst *orig = malloc((size_t)(virt->ninsts ? virt->ninsts : 1) * sizeof *orig);
    if (!orig) {
        free(tmp.insts);
        free(fold);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, virt->name,
                          "out of memory");
    }
    memcpy(orig, tmp.insts, (size_t)virt->ninsts * sizeof *orig);
    rf_func *best = NULL;
    int rc = RF_OK, best_live = 0;
    bool over = false;          /* the first rung needs more than the budget */
    for (int level = 0; level < NSTYLES; level++) {
        const style *st = &styles[level];
        memcpy(tmp.insts, orig, (size_t)virt->ninsts * sizeof *orig);
        if (st->global && schedule_block(&tmp, st->pressure)) {
            rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, virt->name, "out of memory");
            break;
        }
        if (st->window > 0)
            schedule_loads(&tmp, st->window);
        rf_func *cand = NULL;
        int live = 0;
        rc = allocate(&tmp, cap, issue_stretch(sm, st->stretch), &cand, &live, err);
        if (rc)
            break;
        /* Fewest spills; then, when the most latency-tolerant schedule
         * does not fit the budget, the one with the most registers within
         * it (the ladder is not monotone), or else the fewest registers. */
        bool take = !best || cand->spill_words < best->spill_words;
        if (best && cand->spill_words == best->spill_words) {
            if (best->nregs > budget)
                take = cand->nregs < best->nregs;
            else
                take = cand->nregs <= budget && cand->nregs > best->nregs;
        }
        if (take) {
            rf_func_destroy(best);
            best = cand;
            best_live = live;
        } else {
            rf_func_destroy(cand);
        }
        if (level == 0 && best->spill_words == 0 && best->nregs <= budget)
            break;
        if (level == 0)
            over = true;
    }
    free(orig);
    free(tmp.insts);
    free(fold);
    if (rc) {
        rf_func_destroy(best);
        return rc;
    }
    /* A kernel whose most latency-tolerant schedule needs more than the
     * budget gets the budget: ptxas trims its schedule until it fits and
     * keeps every register the budget allows.  ptxas -v: kmeans, nbody,
     * conv2d_5x5 and mm_naive take exactly 32 at sm_80 and sm_90 (budget
     * 32; the rung of the ladder that fits: 24 to 31), many_live exactly
     * 64 at sm_75 (budget 64, the rung 57); gather_v2 at sm_80 (28
     * against the budget's 32) is the exception on the bench.  The code
     * keeps the rung's numbering, so nregs may exceed its highest
     * register. */
    int fill = budget < cap ? budget : cap;
    if (over && best->spill_words == 0 && best->nregs < fill)
        best->nregs = fill;
    *out = best;
    if (call_live)
        *call_live = best_live;
    return RF_OK;
}

/* ---- ptxas's own loop unrolling ----
 *
 * ptxas unrolls a small counted loop UNROLL_FACTOR times more when the PTX
 * does not forbid it (.pragma "nounroll", which nvcc puts on remainder
 * loops and on #pragma unroll 1), and schedules the unrolled body, so the
 * loads of four iterations are in flight at once.  The loops it unrolls:
 * one block branching back to itself, at most UNROLL_MAX_INSTS
 * instructions, whose exit test reads an induction variable stepped by a
 * constant (redefined in the block from itself alone) against a
 * loop-invariant value.  Evidence, ptxas -v at sm_75 on
 * tests/fixtures/regalloc/matmul.ptx mm_naive (a 22-instruction loop, nvcc
 * already unrolled it 4 times): 49 registers; with .pragma "nounroll" on
 * the loop 26 (what rfkit counts without this model); the body written out
 * 2, 3 and 4 times under the pragma: 33, 41 and 49.  Padding the body with
 * independent instructions, it is still unrolled at 46 instructions and
 * no longer at 54.  None of the other 52 kernels of the bench changes
 * count when every loop gets the pragma: their small loops step by a
 * register (grid-stride loops) or span several blocks, the counted ones
 * are longer.
 * Model: the count is the larger of the allocation of the function as it
 * is and of a copy with each such loop's body (its branch aside) written
 * UNROLL_FACTOR times, registers defined in all but the last copy renamed;
 * the physical code stays the PTX's own loop (the profile's trip counts
 * refer to it), so nregs may exceed its highest register. */
#define UNROLL_FACTOR 4
#define UNROLL_MAX_INSTS 50

static bool defines(const rf_inst *in, int reg)
{
    for (int k = 0; k < in->ndefs; k++)
        if (in->defs[k] == reg)
            return true;
    return false;
}

static bool unrollable(const rf_func *f, int b)
{
    const rf_block *bl = &f->blocks[b];
    if (bl->nounroll || bl->ninsts < 2 || bl->ninsts > UNROLL_MAX_INSTS)
        return false;
    bool self = false;
    for (int s = 0; s < bl->nsucc; s++)
        self = self || bl->succ[s] == b;
    int first = bl->first, last = bl->first + bl->ninsts - 1;
    const rf_inst *br = &f->insts[last];
    if (!self || br->cls != RF_OC_BRANCH || br->guard < 0)
        return false;
    const rf_inst *cmp = NULL;
    for (int i = first; i < last; i++)
        if (defines(&f->insts[i], br->guard))
            cmp = &f->insts[i];
    if (!cmp)
        return false;
    int iv = -1;
    for (int k = 0; k < cmp->nuses; k++) {
        bool variant = false;
        for (int i = first; i < last; i++)
            variant = variant || defines(&f->insts[i], cmp->uses[k]);
        if (!variant)
            continue;
        if (iv >= 0)
            return false;
        iv = cmp->uses[k];
    }
    if (iv < 0)
        return false;
    for (int i = first; i < last; i++) {
        const rf_inst *in = &f->insts[i];
        if (defines(in, iv) &&
            (in->ndefs != 1 || in->nuses != 1 || in->uses[0] != iv || in->guard >= 0))
            return false;
    }
    return true;
}

/* The copy with every unrollable loop written out; *u->insts NULL when
 * there is none.  Returns RF_OK or RF_ENOMEM. */
static int unroll_copy(const rf_func *v, rf_func *u)
{
    memset(u, 0, sizeof *u);
    long ninsts = v->ninsts, nregs = v->nregs;
    for (int b = 0; b < v->nblocks; b++) {
        if (!unrollable(v, b))
            continue;
        const rf_block *bl = &v->blocks[b];
        long body = bl->ninsts - 1, defs = 0;
        for (int i = bl->first; i < bl->first + body; i++)
            defs += v->insts[i].ndefs;
        ninsts += (UNROLL_FACTOR - 1) * body;
        nregs += (UNROLL_FACTOR - 1) * defs;
    }
    if (ninsts == v->ninsts || nregs > UINT16_MAX)
        return RF_OK;            /* nothing to unroll, or no names left */
    *u = *v;
    u->insts = malloc((size_t)ninsts * sizeof *u->insts);
    u->blocks = malloc((size_t)v->nblocks * sizeof *u->blocks);
    u->regs = malloc((size_t)nregs * sizeof *u->regs);
    int *cur = malloc((size_t)(v->nregs ? v->nregs : 1) * sizeof *cur);
    if (!u->insts || !u->blocks || !u->regs || !cur) {
        free(u->insts);
        free(u->blocks);
        free(u->regs);
        free(cur);
        memset(u, 0, sizeof *u);
        return RF_ENOMEM;
    }
    memcpy(u->regs, v->regs, (size_t)v->nregs * sizeof *u->regs);
    int pos = 0, fresh = v->nregs;
    for (int b = 0; b < v->nblocks; b++) {
        const rf_block *bl = &v->blocks[b];
        u->blocks[b] = *bl;
        u->blocks[b].first = pos;
        if (!unrollable(v, b)) {
            memcpy(&u->insts[pos], &v->insts[bl->first],
                   (size_t)bl->ninsts * sizeof *u->insts);
            pos += bl->ninsts;
            continue;
        }
        for (int r = 0; r < v->nregs; r++)
            cur[r] = r;
        int body = bl->ninsts - 1;
        for (int c = 0; c < UNROLL_FACTOR; c++)
            for (int i = bl->first; i < bl->first + body; i++) {
                rf_inst *in = &u->insts[pos++];
                *in = v->insts[i];
                for (int k = 0; k < in->nuses; k++)
                    in->uses[k] = (uint16_t)cur[in->uses[k]];
                if (in->guard >= 0)
                    in->guard = (int16_t)cur[in->guard];
                for (int k = 0; k < in->ndefs; k++) {
                    int d = in->defs[k];
                    if (c < UNROLL_FACTOR - 1) {
                        u->regs[fresh] = v->regs[d];
                        cur[d] = fresh;
                        in->defs[k] = (uint16_t)fresh++;
                    } else {
                        cur[d] = d;
                    }
                }
            }
        u->insts[pos++] = v->insts[bl->first + body];    /* the branch */
        u->blocks[b].ninsts = UNROLL_FACTOR * body + 1;
    }
    free(cur);
    u->ninsts = pos;
    u->nregs = fresh;
    return RF_OK;
}

static int regalloc_capped(const rf_func *virt, int cap, int budget, int sm,
                           rf_func **out, int *call_live, rf_err *err)
{
    int rc = regalloc_one(virt, cap, budget, sm, out, call_live, err);
    if (rc || virt->physical || (*out)->spill_words > 0)
        return rc;
    rf_func u;
    if (unroll_copy(virt, &u)) {
        rf_func_destroy(*out);
        *out = NULL;
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, virt->name, "out of memory");
    }
    if (!u.insts)
        return RF_OK;
    rf_func *pu = NULL;
    rc = regalloc_one(&u, cap, budget, sm, &pu, NULL, err);
    free(u.insts);
    free(u.blocks);
    free(u.regs);
    if (rc) {
        rf_func_destroy(*out);
        *out = NULL;
        return rc;
    }
    /* ptxas unrolls only where the registers allow it without spilling. */
    if (pu->spill_words == 0 && pu->nregs > (*out)->nregs)
        (*out)->nregs = pu->nregs;
    rf_func_destroy(pu);
    return RF_OK;
}

int rf_kernel_fit_regs(rf_kernel *k, const rf_gpu *gpu, rf_err *err)
{
    int cap = gpu->max_regs_per_thread;
    if (k->regs <= cap || k->source->physical)
        return RF_OK;
    rf_func *phys;
    int rc = rf_regalloc_target(k->source, cap, rf_regalloc_budget(gpu),
                                gpu->cc > 0 ? gpu->cc : RF_REGALLOC_SM, &phys, err);
    if (rc)
        return rc;
    /* The branch probabilities rf_kernel_load gave the blocks, by label
     * (the copies of called code keep their block's under their own). */
    kir_map labels = {0};
    for (int o = k->func->nblocks - 1; o >= 0 && !rc; o--)
        if (kir_map_put(&labels, k->func->blocks[o].label, strlen(k->func->blocks[o].label), o))
            rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    for (int b = 0; b < phys->nblocks && !rc; b++) {
        int o = kir_map_get(&labels, phys->blocks[b].label, strlen(phys->blocks[b].label));
        if (o >= 0) {
            phys->blocks[b].has_taken = k->func->blocks[o].has_taken;
            phys->blocks[b].taken_p = k->func->blocks[o].taken_p;
        }
    }
    kir_map_free(&labels);
    if (rc) {
        rf_func_destroy(phys);
        return rc;
    }
    if (k->func_owned)
        rf_func_destroy(k->func);
    k->func = phys;
    k->func_owned = true;
    k->regs_rfkit = phys->nregs;
    k->regs = cap;
    return rf_kernel_flatten(k, cap, err);
}

int rf_regalloc_module_sm(const rf_module *m)
{
    const char *t = m ? m->target : "";
    if (strncmp(t, "sm_", 3) != 0)
        return RF_REGALLOC_SM;
    int sm = 0, n = 0;
    for (t += 3; isdigit((unsigned char)*t) && n < 4; t++, n++)
        sm = sm * 10 + (*t - '0');
    return n >= 2 ? sm : RF_REGALLOC_SM;
}

int rf_regalloc_reserved(int sm)
{
    return sm >= 70 ? 2 : 0;
}

int rf_regalloc_sm_budget(int sm)
{
    int threads = sm == 75 ? 1024 : sm == 86 || sm == 89 ? 1536 : 2048;
    return 65536 / threads;
}

int rf_regalloc_budget(const rf_gpu *gpu)
{
    int t = gpu->max_threads_per_sm > 0 ? gpu->max_threads_per_sm : 1;
    int b = gpu->regs_per_sm / t;
    return b < 1 ? 1 : b;
}

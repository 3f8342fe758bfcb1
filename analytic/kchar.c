/* kchar.c - what a kernel does per warp instruction, for the IPC model.
 *
 * Block frequencies.  The CFG is a Markov chain whose edges are those the
 * sampler's warps take (sampler/warp.c), one rule for every frequency in
 * rfkit (rf_kchar_edge, rf_kchar_freq):
 * - a warp stops at an unguarded exit instruction and at a block without
 *   successors; a guarded exit that ends a block with a successor (SASS's
 *   `@P0 EXIT` bounds check) ends the warp with the profile's `taken`, as
 *   a forward branch whose taken side leaves the kernel, else falls
 *   through (a sampler warp follows one path and draws it the same way);
 * - a conditional branch (guarded, two successors) goes to its target with
 *   the probability the kernel spec's [branches] gives that target or the
 *   code's constant trip count gives the branch (inputs/tripcount.c); else
 *   with trip / (trip + 1) when the target is the same or an earlier block
 *   (a back edge, so taken `trip` times per entry on average, geometric),
 *   else with the profile's `taken`.  A forward branch out of a loop (a
 *   break, a top-tested loop's exit) is a forward branch like any other;
 * - an unguarded branch is always taken; any other block falls through to
 *   the next (the code a call enters is walked as the copy rf_kernel_load
 *   puts after the call, inputs/inline.h).
 * Blocks the entry does not reach run 0 times.  Expected executions f per
 * warp solve
 *     f = e_entry + P^T f        ((I - P^T) f = e_entry, solved over the loop
 *                                 nest: rf_kchar_flow below)
 * Every per-instruction figure below is a mean over the instruction stream
 * weighted by f.  The instructions per warp of a whole kernel
 * (rf_kchar_compute) are instead counted along the paths the sampler's
 * draws of the profile's seed give every warp of the grid, so an estimate
 * and `rfkit simulate --full` with that seed count the same instructions.
 *
 * Mix and operands.  Fractions of memory (global, local, atomic), ALU-pipe
 * (fp64 taking 4 pipe slots), SFU, LD/ST-unit, and unit-less (barrier,
 * exit) instructions; register reads are distinct general registers an
 * instruction uses (predicates live in their own file), writes the distinct
 * general registers it defines; read_k the histogram of reads.  The same
 * unit mix per barrier region (barrier_regions: the code a warp runs
 * between two barriers, an instruction's region reached through the CFG
 * without crossing a barrier), weighted by f, for analytic/ipc.c's
 * region fold.
 *
 * Class runs (head-of-line blocking at the collectors, analytic/ipc.c).
 * Within a block, an instruction continues a run when it has the unit class
 * (ALU, SFU, LD/ST) of the one before and does not wait for it (no register
 * or predicate that one writes among its uses, definitions or guard), so
 * that a greedy scheduler may issue the two in consecutive cycles;
 * run_ge[u][C] is the share of class-u instructions with at least C such
 * predecessors.  rep_share[u] is the share of class-u instructions whose
 * successor waits for them: the scheduler then turns to other warps.
 *
 * Same-bank operands.  With registers interleaved over B banks (bank =
 * (register + warp offset) mod B), two distinct registers of one instruction
 * collide when equal mod B, whatever the warp; the reads then take
 * max_b(count on b) cycles: intra[B] = mean of (that max - 1).
 *
 * Lone-warp stalls.  The warps of a sample of CTAs (8 to RF_KCHAR_MC_CTAS,
 * until the ratios below are known to 0.5%) each follow a random path
 * (the same branch rules; a loop whose body holds a barrier runs the same
 * trip count in every warp of a CTA) alone, issuing in order one instruction per cycle:
 * an instruction starts when its source, destination and guard registers
 * have no write pending; a result is ready 2 + latency cycles after its
 * producer issues (a bank read and the collector before execution; ALU and
 * fp64 alu_latency, SFU sfu_latency, shared and constant smem_latency,
 * global/local loads L1, L2 or DRAM latency drawn with the profile's hit
 * rates, atomics L2 plus DRAM on an L2 miss; stores produce nothing).
 * Readiness carries across blocks.  The wait is charged to global memory
 * (S_mem) or to other producers (S_dep) by the producer that bound it, per
 * instruction; mem_waits counts the waits on global memory per instruction
 * (S_mem / mem_waits is a memory wait's mean length, the span of a CTA's
 * all-stalled episode in analytic/switching.c).  drain: mean cycles from a warp's exit until its last
 * instruction retires (the CTA slot is held until then).

 * Active fraction.  A CTA holds its warp slots until its slowest warp ends,
 * and at each barrier every warp waits for the slowest one, so with random
 * trip counts many resident warps have nothing to issue.  A Monte Carlo walk
 * of the sampled CTAs (counter-based draws, fixed seed: deterministic) with the
 * same branch rules (the walk above) gives each warp's lone time per
 * barrier phase, T_w,p:
 *   active_frac = E[sum_p mean_w T_w,p] / E[sum_p max_w T_w,p]
 * (a warp's time over the CTA's critical time: time, not instructions, since
 * the slowest warp's extra work is usually its slowest code, a memory loop).
 * Every barrier phase counts, however many a CTA has (a CTA set's stored
 * rows fold a warp's phases past MC_MAXPH into one, the sums above do not).
 * The IPC model issues from active_frac x resident warps; analytic/waves.c
 * runs the same CTA samples through time.  Its spread (act_hist): in a
 * phase, j warps issue until the j-th longest T_w,p ends, so the share of
 * the summed phase lengths with j warps issuing is the distribution whose
 * mean is active_frac x warps per CTA (rf_kchar_act_hist, from the stored
 * rows; the IPC model averages over it, analytic/ipc.c).
 * Live fraction: the share of resident warps that have not exited, which
 * is what holds registers (HI-RF's register cache, analytic/rccollide.c):
 * a warp waiting at a barrier still holds its registers, so
 *   live_frac = E[sum_{p<P} max_w T_w,p + mean_w T_w,P] / E[sum_p max_w T_w,p]
 * (P the CTA's last phase).  Against the sampler's mean resident warps over
 * full runs on volta-hirf: hotspot 0.97 (0.88), reduce 1.00 (0.96), sgemm
 * 0.94 (0.94), bfs 0.54 (0.50), spmv 0.48 (0.47), stream 0.38 (0.40), sfu
 * 0.21 (0.23), libor 0.37 (0.39), kmeans 1.00 (0.86).
 *
 * DRAM traffic: warp_size x 4 bytes per 32-bit word (coalesced): loads move
 * their destination words when they miss both caches, stores their data
 * words (operands besides a 64-bit address) and atomics one word when they
 * miss L2; dram_load_bytes counts the loads' and atomics' (a warp waits for
 * them, stores are posted).  dram_lead and dram_trail: the ends of the
 * run's DRAM stream, and dram_none whether a short run has one at all
 * (dram_ends below).
 *
 * Inputs: physical function, profile, GPU latencies.  Outputs: rf_ipc_kernel.
 */
#include "kchar.h"

#include "../common/draw.h"
#include "../common/pool.h"
#include "occupancy.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The characterisation's CTA sample (rf_kchar_func): CTAs 0, 1, ... of
 * the profile's draws (rf_profile.seed: the instance the sampler's run with
 * that seed executes), at least RF_KCHAR_MC_MIN_CTAS, then RF_KCHAR_MC_STEP
 * more at a time until the relative standard errors (over CTAs) of
 * active_frac and cpi_lone are at most RF_KCHAR_MC_REL_SE, at most
 * RF_KCHAR_MC_CTAS: a kernel whose CTAs differ walks them all, one whose
 * CTAs are alike (or whose warps are long enough to average within a CTA)
 * stops early.  For a kernel's run (rf_kchar_compute) the sample is the
 * run's own CTAs, those SM 0 runs (grid CTAs 0, s, 2 s, ... of a grid
 * spread over s SMs), and never more than the run holds: a run of fewer
 * CTAs is described by exactly its CTAs.  A sample cut at RF_KCHAR_MC_CTAS
 * is one draw of the run's CTAs, and the estimate moves with it where the
 * CTAs' paths differ (bfs's whole grid on fermi-gtx480, the same kernel's
 * runs of sampler seeds 1-8: the full runs' IPC 1.1% apart (standard
 * deviation), the estimates' 9.1% at 128 CTAs, 4.4% at 512).
 * RF_KCHAR_MC_CTAS: the least error on the nine tuning kernels' runs of
 * seeds 1-8 (bench_validation RF_BENCH_RUNS, uncalibrated mean over both
 * run kinds, the whole grid and the default run's share: 128 CTAs 2.93 +
 * 2.38%, 256 2.69 + 2.26%, 512 2.50 + 2.25%, 1024 2.37 + 2.25%) with
 * `estimate` inside 10 ms on every bundled kernel (at 512, spmv's and
 * nw_wave's whole grids take 13-15 ms on this project's 2-core machine;
 * at 256, 9-10 ms). */
#define RF_KCHAR_MC_CTAS 256
#define RF_KCHAR_MC_MIN_CTAS 8
#define RF_KCHAR_MC_STEP 8
#define RF_KCHAR_MC_REL_SE 0.005
#define RF_KCHAR_MC_MAX_INSTS 2000000L
double rf_kchar_mem_latency(const rf_gpu *gpu, const rf_profile *prof)
{
    double h1 = prof->l1_hit, h2 = prof->l2_hit;
    return h1 * gpu->l1_latency
         + (1.0 - h1) * (h2 * gpu->l2_latency + (1.0 - h2) * gpu->dram_latency);
}

static bool is_loopback(const rf_func *f, int b)
{
    const rf_block *blk = &f->blocks[b];
    if (blk->nsucc < 2 || blk->ninsts == 0)
        return false;
    const rf_inst *last = &f->insts[blk->first + blk->ninsts - 1];
    return (last->flags & RF_IF_LOOPBACK) || blk->succ[1] <= b;
}

int rf_kchar_edge(const rf_func *f, int b, double trip, double taken, double *p_taken)
{
    const rf_block *blk = &f->blocks[b];
    for (int i = 0; i < blk->ninsts; i++) {
        const rf_inst *in = &f->insts[blk->first + i];
        if (in->cls != RF_OC_EXIT)
            continue;
        if (in->guard >= 0 && blk->nsucc > 0 && i == blk->ninsts - 1) {
            *p_taken = blk->has_taken ? blk->taken_p : taken;
            return RF_KE_EXIT;
        }
        return RF_KE_STOP;
    }
    if (blk->nsucc == 0)
        return RF_KE_STOP;
    if (blk->nsucc == 1 || blk->ninsts == 0)
        return RF_KE_FALL;
    const rf_inst *last = &f->insts[blk->first + blk->ninsts - 1];
    if (last->cls != RF_OC_BRANCH)
        return RF_KE_FALL;
    if (last->guard < 0)
        return RF_KE_JUMP;
    if (blk->has_taken)
        *p_taken = blk->taken_p;
    else if (is_loopback(f, b))
        *p_taken = trip > 0 ? trip / (trip + 1.0) : 0.0;
    else
        *p_taken = taken;
    return RF_KE_DRAW;
}

/* The frequency solve.  Gaussian elimination of (I - P^T) f = e_entry in
 * the order of the CFG's loop nest, over the edges of non-zero probability
 * from the blocks the entry reaches (the others run 0 times):
 * - strongly connected components (Tarjan) in topological order: a block
 *   outside any cycle gets its inflow, and passes f x p down each edge;
 *   a block whose only cycle is its own back edge gets inflow / leave,
 *   leave = the probability of its other edges plus that of stopping there;
 * - a larger component C: its header h is the block of C a depth-first walk
 *   from the entry reaches first (a natural loop's header).  C without h is
 *   solved the same way (recursively) twice over, as one solve with two
 *   right-hand sides: X for C's inflow from outside and y for one departure
 *   from h.  Then esc, the probability of leaving C per visit to h, is h's
 *   edges out of C plus sum_u y_u x (u's edges out of C, or stopping at u),
 *   f_h = (inflow_h + sum_u X_u p(u -> h)) / esc, and f_u = X_u + y_u f_h.
 *   esc is a sum of positive terms rather than 1 - (return probability), so
 *   a long loop's frequency keeps its precision.
 * Each nesting level adds one right-hand side: the work is
 * O(blocks x depth^2), the memory O(blocks x depth).  Exact up to rounding
 * for any CFG, reducible or not; an irreducible component simply nests one
 * level deeper.  esc <= RF_KCHAR_ESC_MIN (1e-12) is a loop that never
 * exits (unbounded frequencies). */
#define RF_KCHAR_ESC_MIN 1e-12
/* Cycles nested deeper than this (each level a component without its
 * header) are refused: no compiled loop nest comes near it. */
#define RF_KCHAR_FLOW_MAX_DEPTH 64

typedef struct flow {
    const rf_func *f;
    const double *prob;      /* [2b + s] */
    int n;
    double *gone;            /* [n] probability of stopping at the block */
    int *pre;                /* [n] depth-first preorder from the entry */
    int *sub;                /* [n] recursion depth whose problem holds it, -1 none */
    double *col[RF_KCHAR_FLOW_MAX_DEPTH + 1]; /* [depth][n] right-hand sides / solutions */
    int *idx, *low, *stk, *cstk, *cedge;     /* [n] Tarjan's state */
    bool *onstk;
    rf_err *err;
} flow;

/* Edge s of block u carries flow. */
static bool flow_edge(const flow *w, int u, int s)
{
    return s < w->f->blocks[u].nsucc && w->prob[2 * u + s] > 0;
}

/* Strongly connected components of the blocks with sub == d (the list S):
 * writes them into comp[] in topological order, starts in cstart[]
 * (ncomp + 1 entries).  Iterative Tarjan (no recursion on the CFG's depth). */
static int flow_scc(flow *w, const int *S, int ns, int d, int *comp, int *cstart)
{
    int counter = 0, sp = 0, ncomp = 0, filled = ns;
    for (int i = 0; i < ns; i++)
        w->idx[S[i]] = -1;
    for (int i = 0; i < ns; i++) {
        if (w->idx[S[i]] >= 0)
            continue;
        int depth = 0;
        w->cstk[depth] = S[i];
        w->cedge[depth] = 0;
        w->idx[S[i]] = w->low[S[i]] = counter++;
        w->stk[sp++] = S[i];
        w->onstk[S[i]] = true;
        while (depth >= 0) {
            int v = w->cstk[depth];
            int s = w->cedge[depth]++;
            if (s < 2) {
                if (!flow_edge(w, v, s))
                    continue;
                int x = w->f->blocks[v].succ[s];
                if (w->sub[x] != d)
                    continue;
                if (w->idx[x] < 0) {
                    depth++;
                    w->cstk[depth] = x;
                    w->cedge[depth] = 0;
                    w->idx[x] = w->low[x] = counter++;
                    w->stk[sp++] = x;
                    w->onstk[x] = true;
                } else if (w->onstk[x] && w->idx[x] < w->low[v]) {
                    w->low[v] = w->idx[x];
                }
                continue;
            }
            /* v is finished: close its component, return to its parent. */
            if (w->low[v] == w->idx[v]) {
                /* Tarjan closes components in reverse topological order:
                 * fill comp[] from the back. */
                int x, top = filled;
                do {
                    x = w->stk[--sp];
                    w->onstk[x] = false;
                    comp[--filled] = x;
                } while (x != v);
                cstart[ncomp++] = top;   /* end of this component, for now */
            }
            depth--;
            if (depth >= 0) {
                int p = w->cstk[depth];
                if (w->low[v] < w->low[p])
                    w->low[p] = w->low[v];
            }
        }
    }
    /* cstart[] holds each component's end, last-closed first after the
     * reversal below; turn it into starts in topological order. */
    for (int i = 0; i < ncomp / 2; i++) {
        int t = cstart[i];
        cstart[i] = cstart[ncomp - 1 - i];
        cstart[ncomp - 1 - i] = t;
    }
    /* Ends in topological order are cstart[0..ncomp-1]; starts follow. */
    for (int i = ncomp; i > 0; i--)
        cstart[i] = cstart[i - 1];
    cstart[0] = 0;
    return ncomp;
}

static int flow_solve(flow *w, const int *S, int ns, int d)
{
    const rf_func *f = w->f;
    int *comp = malloc(sizeof *comp * (size_t)ns);
    int *cstart = malloc(sizeof *cstart * (size_t)(ns + 1));
    if (!comp || !cstart) {
        free(comp);
        free(cstart);
        return rf_err_set(w->err, RF_ENOMEM, f->name, 0, 0, NULL, "block frequencies: out of memory");
    }
    int ncomp = flow_scc(w, S, ns, d, comp, cstart);
    int rc = RF_OK;
    for (int k = 0; k < ncomp && rc == RF_OK; k++) {
        const int *C = comp + cstart[k];
        int nc = cstart[k + 1] - cstart[k];
        if (nc == 1) {
            /* One block; its own back edge is its only cycle. */
            int v = C[0];
            double leave = w->gone[v];
            bool self = false;
            for (int s = 0; s < 2; s++) {
                if (!flow_edge(w, v, s))
                    continue;
                if (f->blocks[v].succ[s] == v)
                    self = true;
                else
                    leave += w->prob[2 * v + s];
            }
            if (self) {
                if (leave <= RF_KCHAR_ESC_MIN) {
                    rc = RF_EUNSUPPORTED;
                    break;
                }
                for (int c = 0; c <= d; c++)
                    w->col[c][v] /= leave;
            }
        } else {
            if (d + 1 > RF_KCHAR_FLOW_MAX_DEPTH) {
                rc = rf_err_set(w->err, RF_ELIMIT, f->name, 0, 0, NULL,
                                "cycles nested deeper than %d levels", RF_KCHAR_FLOW_MAX_DEPTH);
                break;
            }
            if (!w->col[d + 1] && !(w->col[d + 1] = malloc(sizeof(double) * (size_t)w->n))) {
                rc = rf_err_set(w->err, RF_ENOMEM, f->name, 0, 0, NULL,
                                "block frequencies: out of memory");
                break;
            }
            int h = C[0];
            for (int i = 1; i < nc; i++)
                if (w->pre[C[i]] < w->pre[h])
                    h = C[i];
            int *rest = malloc(sizeof *rest * (size_t)nc);
            if (!rest) {
                rc = rf_err_set(w->err, RF_ENOMEM, f->name, 0, 0, NULL,
                                "block frequencies: out of memory");
                break;
            }
            int nr = 0;
            double *y = w->col[d + 1];
            for (int i = 0; i < nc; i++)
                if (C[i] != h) {
                    rest[nr++] = C[i];
                    w->sub[C[i]] = d + 1;
                    y[C[i]] = 0;
                }
            for (int s = 0; s < 2; s++)
                if (flow_edge(w, h, s) && w->sub[f->blocks[h].succ[s]] == d + 1)
                    y[f->blocks[h].succ[s]] += w->prob[2 * h + s];
            rc = flow_solve(w, rest, nr, d + 1);
            if (rc == RF_OK) {
                /* Leaving C per visit to h, and the flow back into h. */
                double esc = w->gone[h];
                for (int s = 0; s < 2; s++)
                    if (flow_edge(w, h, s)) {
                        int x = f->blocks[h].succ[s];
                        if (x != h && w->sub[x] != d + 1)
                            esc += w->prob[2 * h + s];
                    }
                double back[RF_KCHAR_FLOW_MAX_DEPTH + 1] = {0};
                for (int i = 0; i < nr; i++) {
                    int u = rest[i];
                    double out = w->gone[u];
                    for (int s = 0; s < 2; s++) {
                        if (!flow_edge(w, u, s))
                            continue;
                        int x = f->blocks[u].succ[s];
                        double p = w->prob[2 * u + s];
                        if (x == h) {
                            for (int c = 0; c <= d; c++)
                                back[c] += w->col[c][u] * p;
                        } else if (w->sub[x] != d + 1) {
                            out += p;
                        }
                    }
                    esc += y[u] * out;
                }
                if (esc <= RF_KCHAR_ESC_MIN) {
                    rc = RF_EUNSUPPORTED;
                } else {
                    for (int c = 0; c <= d; c++)
                        w->col[c][h] = (w->col[c][h] + back[c]) / esc;
                    for (int i = 0; i < nr; i++)
                        for (int c = 0; c <= d; c++)
                            w->col[c][rest[i]] += y[rest[i]] * w->col[c][h];
                }
            }
            for (int i = 0; i < nr; i++)
                w->sub[rest[i]] = d;
            free(rest);
        }
        if (rc != RF_OK)
            break;
        /* Pass C's flow on to the later components of this problem. */
        for (int i = 0; i < nc; i++)
            w->sub[C[i]] = -2;
        for (int i = 0; i < nc; i++) {
            int u = C[i];
            for (int s = 0; s < 2; s++) {
                if (!flow_edge(w, u, s))
                    continue;
                int x = f->blocks[u].succ[s];
                if (w->sub[x] != d)
                    continue;
                for (int c = 0; c <= d; c++)
                    w->col[c][x] += w->prob[2 * u + s] * w->col[c][u];
            }
        }
        for (int i = 0; i < nc; i++)
            w->sub[C[i]] = d;
    }
    free(comp);
    free(cstart);
    if (rc == RF_EUNSUPPORTED)
        rc = rf_err_set(w->err, RF_EUNSUPPORTED, f->name, 0, 0, "trip",
                        "block frequencies are unbounded (a loop never exits)");
    return rc;
}

int rf_kchar_flow(const rf_func *f, const double *prob, double *freq, rf_err *err)
{
    int n = f->nblocks;
    if (n <= 0)
        return rf_err_set(err, RF_EPARSE, f->name, 0, 0, NULL, "function has no blocks");
    if (n > RF_KIR_MAX_BLOCKS)
        return rf_kir_block_limit(f, NULL, err);
    flow w;
    memset(&w, 0, sizeof w);
    w.f = f;
    w.prob = prob;
    w.n = n;
    w.err = err;
    size_t nn = (size_t)n;
    w.gone = malloc(sizeof *w.gone * nn);
    w.pre = malloc(sizeof *w.pre * nn);
    w.sub = malloc(sizeof *w.sub * nn);
    w.col[0] = freq;
    w.idx = malloc(sizeof *w.idx * nn);
    w.low = malloc(sizeof *w.low * nn);
    w.stk = malloc(sizeof *w.stk * nn);
    w.cstk = malloc(sizeof *w.cstk * nn);
    w.cedge = malloc(sizeof *w.cedge * nn);
    w.onstk = calloc(nn, sizeof *w.onstk);
    int *S = malloc(sizeof *S * nn);
    int rc = RF_OK;
    if (!w.gone || !w.pre || !w.sub || !w.idx || !w.low || !w.stk || !w.cstk || !w.cedge
        || !w.onstk || !S) {
        rc = rf_err_set(err, RF_ENOMEM, f->name, 0, 0, NULL, "block frequencies: out of memory");
        goto out;
    }
    for (int b = 0; b < n; b++) {
        double stay = 0;
        for (int s = 0; s < f->blocks[b].nsucc && s < 2; s++)
            stay += prob[2 * b + s] > 0 ? prob[2 * b + s] : 0;
        /* A block whose edges carry all its flow loses none (sums within
         * rounding of 1 count as 1). */
        w.gone[b] = stay > 1.0 - 1e-15 ? 0.0 : 1.0 - stay;
        w.pre[b] = -1;
        w.sub[b] = -1;
        freq[b] = 0;
    }
    /* Depth-first preorder from the entry along flow edges: the blocks the
     * entry reaches, in S, and the order that picks loop headers. */
    int ns = 0, sp = 0;
    w.cstk[sp] = 0;
    w.cedge[sp++] = 0;
    w.pre[0] = ns;
    S[ns++] = 0;
    while (sp) {
        int v = w.cstk[sp - 1];
        int s = w.cedge[sp - 1]++;
        if (s >= 2) {
            sp--;
            continue;
        }
        if (!flow_edge(&w, v, s))
            continue;
        int x = f->blocks[v].succ[s];
        if (x < 0 || x >= n || w.pre[x] >= 0)
            continue;
        w.pre[x] = ns;
        S[ns++] = x;
        w.cstk[sp] = x;
        w.cedge[sp++] = 0;
    }
    for (int i = 0; i < ns; i++)
        w.sub[S[i]] = 0;
    freq[0] = 1.0;
    rc = flow_solve(&w, S, ns, 0);
    if (rc == RF_OK)
        for (int b = 0; b < n; b++)
            if (!(freq[b] >= 0))
                freq[b] = 0;
out:
    for (int d = 1; d <= RF_KCHAR_FLOW_MAX_DEPTH; d++)
        free(w.col[d]);
    free(w.gone);
    free(w.pre);
    free(w.sub);
    free(w.idx);
    free(w.low);
    free(w.stk);
    free(w.cstk);
    free(w.cedge);
    free(w.onstk);
    free(S);
    return rc;
}

/* The one block frequency.  Both of its users ask the same question, how
 * often a sampler warp runs each block; what they vary is a parameter, not
 * the rule: the register-cache reorder (analytic/reorder.c) cuts the walk
 * at absorbing blocks.  The natural loops of rf_dst_loop_depth (CAC's W^n
 * weights) are a compiler's static estimate without a profile, not a
 * frequency. */
int rf_kchar_freq(const rf_func *f, double trip, double taken, const bool *absorb,
                  double *freq, double *edge_freq, rf_err *err)
{
    int n = f->nblocks;
    if (n <= 0)
        return rf_err_set(err, RF_EPARSE, f->name, 0, 0, NULL, "function has no blocks");
    if (n > RF_KIR_MAX_BLOCKS)
        return rf_kir_block_limit(f, NULL, err);
    double *prob = calloc((size_t)n * 2, sizeof *prob);
    if (!prob)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "block frequencies: out of memory");
    for (int b = 0; b < n; b++) {
        if (absorb && absorb[b])
            continue;
        double p = 0;
        switch (rf_kchar_edge(f, b, trip, taken, &p)) {
        case RF_KE_FALL:
            prob[2 * b] = 1.0;
            break;
        case RF_KE_JUMP:
            prob[2 * b + 1] = 1.0;
            break;
        case RF_KE_DRAW:
            prob[2 * b + 1] = p;
            prob[2 * b] = 1.0 - p;
            break;
        case RF_KE_EXIT:
            prob[2 * b] = 1.0 - p;
            break;
        default:
            break;
        }
    }
    int rc = rf_kchar_flow(f, prob, freq, err);
    if (rc == RF_OK && edge_freq)
        for (int b = 0; b < n; b++)
            for (int s = 0; s < 2; s++)
                edge_freq[2 * b + s] = freq[b] * prob[2 * b + s];
    free(prob);
    return rc;
}

int rf_kchar_block_freq(const rf_func *f, const rf_profile *prof, double *freq,
                        rf_err *err)
{
    return rf_kchar_freq(f, prof->trip, prof->taken, NULL, freq, NULL, err);
}

static double class_latency(const rf_gpu *gpu, const rf_profile *prof, int cls, double mem_lat)
{
    switch (cls) {
    case RF_OC_ALU:
    case RF_OC_ALU64:
        return gpu->alu_latency;
    case RF_OC_SFU:
        return gpu->sfu_latency;
    case RF_OC_LD_SHARED:
    case RF_OC_LD_CONST:
        return gpu->smem_latency;
    case RF_OC_LD_GLOBAL:
    case RF_OC_LD_LOCAL:
        return mem_lat;
    case RF_OC_ATOMIC:
        return gpu->l2_latency + (1.0 - prof->l2_hit) * gpu->dram_latency;
    default:
        return 1.0;
    }
}

static bool is_mem_class(int cls)
{
    return cls == RF_OC_LD_GLOBAL || cls == RF_OC_ST_GLOBAL || cls == RF_OC_LD_LOCAL
        || cls == RF_OC_ST_LOCAL || cls == RF_OC_ATOMIC;
}

/* Distinct general registers an instruction reads; fills regs. */
static int gpr_reads(const rf_inst *in, int *regs)
{
    int n = 0;
    for (int u = 0; u < in->nuses; u++) {
        int r = in->uses[u];
        if (r >= RF_PRED_BASE)
            continue;
        bool dup = false;
        for (int j = 0; j < n; j++)
            dup |= regs[j] == r;
        if (!dup)
            regs[n++] = r;
    }
    return n;
}

int rf_kchar_unit_of(int cls)
{
    switch (cls) {
    case RF_OC_SFU:
        return 1;
    case RF_OC_LD_SHARED: case RF_OC_ST_SHARED: case RF_OC_LD_CONST:
    case RF_OC_LD_GLOBAL: case RF_OC_ST_GLOBAL: case RF_OC_LD_LOCAL:
    case RF_OC_ST_LOCAL: case RF_OC_ATOMIC:
        return 2;
    case RF_OC_BARRIER: case RF_OC_EXIT:
        return -1;
    default:
        return 0;
    }
}

/* Union-find over up[]: the root of x (halving its path), and the join of
 * two sets under the smaller root. */
static int uf_find(int *up, int x)
{
    while (up[x] != x) {
        up[x] = up[up[x]];
        x = up[x];
    }
    return x;
}

static void uf_join(int *up, int a, int b)
{
    a = uf_find(up, a);
    b = uf_find(up, b);
    if (a != b)
        up[a > b ? a : b] = a < b ? a : b;
}

/* Barrier regions: the code a warp runs between two barriers.  Every
 * instruction joins the next one of its block, and a block's last its
 * successors' first, except after a barrier (the barrier belongs to the
 * region it closes); the regions are the connected parts (union-find over
 * instructions, and block entries standing for empty blocks).  reg_of
 * [f->ninsts] gets each instruction's region, 0 .. n - 1 in order of
 * first instruction; returns n, or -1 when out of memory. */
static int barrier_regions(const rf_func *f, int *reg_of)
{
    int n = f->ninsts + f->nblocks;
    int *up = malloc(sizeof *up * (size_t)(n > 0 ? n : 1));
    if (!up)
        return -1;
    for (int x = 0; x < n; x++)
        up[x] = x;
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *blk = &f->blocks[b];
        int entry = f->ninsts + b, last = entry;
        for (int i = 0; i < blk->ninsts; i++) {
            int x = blk->first + i;
            if (last == entry || f->insts[last].cls != RF_OC_BARRIER)
                uf_join(up, last, x);
            last = x;
        }
        if (last != entry && f->insts[last].cls == RF_OC_BARRIER)
            continue;
        for (int s = 0; s < blk->nsucc; s++)
            if (blk->succ[s] >= 0 && blk->succ[s] < f->nblocks)
                uf_join(up, last, f->ninsts + blk->succ[s]);
    }
    int nreg = 0;
    int *id = malloc(sizeof *id * (size_t)(n > 0 ? n : 1));
    if (!id) {
        free(up);
        return -1;
    }
    for (int x = 0; x < n; x++)
        id[x] = -1;
    for (int x = 0; x < f->ninsts; x++) {
        int r = uf_find(up, x);
        if (id[r] < 0)
            id[r] = nreg++;
        reg_of[x] = id[r];
    }
    free(id);
    free(up);
    return nreg;
}

/* A region's executed instructions, cnt[r * RG_N + RG_...]: all of them,
 * ALU ones, ALU pipe slots (fp64 takes 4), SFU, LD/ST, and unit-less
 * (barriers, exits). */
enum { RG_ALL, RG_ALU, RG_ALU_USE, RG_SFU, RG_LDST, RG_NONE, RG_N };

/* The kernel's barrier regions as rf_ipc_kernel.phase, from each region's
 * counts (RG_*): the RF_IPC_NPHASE - 1 largest kept, the rest merged into
 * the last; out->nphase stays 0 when every executed instruction is in one
 * region. */
static void set_phases(const double *cnt, int nreg, double total, rf_ipc_kernel *out)
{
    int order[RF_IPC_NPHASE];
    int nk = 0, used = 0;
    for (int r = 0; r < nreg; r++)
        used += cnt[r * RG_N] > 0;
    if (used < 2 || !(total > 0))
        return;
    /* The largest regions by executed instructions (ties: the earlier). */
    for (int r = 0; r < nreg; r++) {
        if (!(cnt[r * RG_N] > 0))
            continue;
        int pos = nk;
        while (pos > 0 && cnt[order[pos - 1] * RG_N] < cnt[r * RG_N])
            pos--;
        if (pos >= RF_IPC_NPHASE - 1)
            continue;
        int last = nk < RF_IPC_NPHASE - 1 ? nk : RF_IPC_NPHASE - 2;
        for (int j = last; j > pos; j--)
            order[j] = order[j - 1];
        order[pos] = r;
        if (nk < RF_IPC_NPHASE - 1)
            nk++;
    }
    double sum[RF_IPC_NPHASE][RG_N] = {{0}};
    for (int j = 0; j < nk; j++)
        for (int c = 0; c < RG_N; c++)
            sum[j][c] = cnt[order[j] * RG_N + c];
    bool rest = false;
    for (int r = 0; r < nreg; r++) {
        bool kept = false;
        for (int j = 0; j < nk; j++)
            kept |= order[j] == r;
        if (kept || !(cnt[r * RG_N] > 0))
            continue;
        rest = true;
        for (int c = 0; c < RG_N; c++)
            sum[nk][c] += cnt[r * RG_N + c];
    }
    int np = nk + (rest ? 1 : 0);
    for (int j = 0; j < np; j++) {
        double t = sum[j][RG_ALL];
        out->phase[j] = (rf_ipc_mix){t / total, sum[j][RG_ALU] / t, sum[j][RG_ALU_USE] / t,
                                     sum[j][RG_SFU] / t, sum[j][RG_LDST] / t,
                                     sum[j][RG_NONE] / t};
    }
    out->nphase = np;
}

/* True when `in` must wait for `prev`'s results (the scoreboard: a register
 * or predicate `in` reads, writes or is guarded by that `prev` writes). */
static bool reads_result_of(const rf_inst *in, const rf_inst *prev)
{
    for (int d = 0; d < prev->ndefs; d++) {
        int r = prev->defs[d];
        for (int u = 0; u < in->nuses; u++)
            if (in->uses[u] == r)
                return true;
        for (int e = 0; e < in->ndefs; e++)
            if (in->defs[e] == r)
                return true;
        if (in->guard >= 0 && in->guard == r)
            return true;
    }
    return false;
}

/* Distinct general registers an instruction writes. */
static int gpr_writes(const rf_inst *in)
{
    int n = 0;
    for (int d = 0; d < in->ndefs; d++) {
        int r = in->defs[d];
        if (r >= RF_PRED_BASE)
            continue;
        bool dup = false;
        for (int j = 0; j < d; j++)
            dup |= in->defs[j] == r;
        n += !dup;
    }
    return n;
}

/* Phases stored per warp in a CTA set's rows (rf_ctaset.maxph at most):
 * a warp's later phases are summed into its row's last.  The walk itself
 * keeps every phase up to MC_WALKPH (its scratch rows grow to the CTA's
 * phases), so that a CTA's critical time (the sum over phases of the
 * slowest warp's time) counts every barrier: folding phases into one
 * takes the slowest warp's sum, not the sum of each phase's slowest, so
 * the folded phase's times are padded by the difference (the waits at
 * the folded barriers), every warp alike. */
#define MC_MAXPH 64
#define MC_WALKPH 65536
#define NREG (RF_PRED_BASE + RF_MAX_PRED)

/* Counter-based uniform draws in [0,1) from (seed, warp, counter, stream):
 * the draws the sampler uses (common/draw.h), so a
 * walk of warp `gid` takes the very path and cache outcomes the sampler's
 * warp `gid` takes with that seed (common random numbers: a calibration
 * window is modelled with the CTAs it actually ran). */
static double draw(uint64_t seed, uint64_t a, uint64_t b, uint64_t stream)
{
    return rf_draw_uniform(seed, a, b, stream);
}

/* A CTA's loop draws (RF_DRAW_LOOP: one per CTA and loop number, the
 * trips of loops that hold a barrier): every warp of the CTA draws the same
 * ones, so the first warp to draw number q keeps it for the others, up to
 * LOOP_DRAWS_KEPT of them (later numbers are drawn by each warp). */
#define LOOP_DRAWS_KEPT 256

typedef struct loop_draws {
    int n;
    double u[LOOP_DRAWS_KEPT];
} loop_draws;

/* Loop draw q of CTA cta, from ld where it holds it (ld NULL: none). */
static inline __attribute__((always_inline)) double
loop_draw(loop_draws *ld, uint64_t seed, uint64_t cta, uint64_t q)
{
    if (ld && q < (uint64_t)ld->n)
        return ld->u[q];
    double u = draw(seed, cta, q, RF_DRAW_LOOP);
    if (ld && q == (uint64_t)ld->n && ld->n < LOOP_DRAWS_KEPT)
        ld->u[ld->n++] = u;
    return u;
}

void rf_kchar_ctaset_free(rf_ctaset *cs)
{
    if (!cs)
        return;
    if (!cs->view) {
        free(cs->nph);
        free(cs->off);
        free(cs->insts);
        free(cs->time);
        free(cs->mem_cyc);
        free(cs->mem_n);
        free(cs->cta_step);
        free(cs->cta_drain);
        free(cs->cta_crit);
        free(cs->run);
    }
    free(cs);
}

/* A loop back edge whose body (loop head to the branch) holds a barrier is
 * decided once per CTA, as the sampler does (CUDA needs such loops uniform
 * across the CTA): per block, whether its back edge is such a branch. */
static bool *cta_uniform_loops(const rf_func *f)
{
    bool *u = calloc((size_t)(f->nblocks > 0 ? f->nblocks : 1), sizeof *u);
    if (!u)
        return NULL;
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *blk = &f->blocks[b];
        if (blk->nsucc != 2 || blk->ninsts == 0 || !is_loopback(f, b))
            continue;
        int head = blk->succ[1];
        int from = head >= 0 && head < f->nblocks ? f->blocks[head].first : blk->first;
        int to = blk->first + blk->ninsts - 1;
        for (int i = from; i <= to && i >= 0 && i < f->ninsts && !u[b]; i++)
            u[b] = f->insts[i].cls == RF_OC_BARRIER;
    }
    return u;
}

/* A wait longer than this ends a warp's turn at a greedy scheduler: its
 * instructions between two such waits (or its exit) are one turn
 * (rf_ctaset.turn_insts).  Measured against the built-in SM model's runs
 * of one warp at a GTO scheduler (volta-hirf, HI-RF concat, 30,000
 * cycles): sgemm 12.9 instructions per turn here against 16.6-19.7,
 * kmeans 2.6 / 2.9, libor 1.6 / 2.0 (waits over 3 cycles: the same; over
 * 7, 129 / 35 / 7.3). */
#define TURN_SLACK 1.0

/* The walk's program: each instruction's operands and latency rule
 * decoded once per CTA set, so that a warp's step reads one small record.
 * The walk below is that of the model above, step for step. */
enum { WK_FIXED, WK_LOAD, WK_ATOMIC, WK_STORE_MEM };
enum { WE_NONE, WE_BARRIER, WE_EXIT };

typedef struct walk_inst {
    double lat;                  /* cycles, WK_FIXED and WK_STORE_MEM */
    uint8_t kind;                /* WK_* */
    uint8_t end;                 /* WE_*: ends a phase or the warp */
    uint8_t nreg;                /* operands waited on: uses, defs, guard */
    uint8_t ndef;                /* registers written (none for stores) */
    uint8_t pipe;                /* the shared pipe it holds: 1 SFU, 2 LD/ST, else 0 */
    uint16_t reg[RF_MAX_USES + RF_MAX_DEFS + 1];
    uint16_t def[RF_MAX_DEFS];
} walk_inst;

/* A run of fixed-latency instructions and stores (no draw, no barrier, no
 * exit) is a function of the times the registers it reads before writing
 * become ready, relative to the warp's time at its start: walk_warp keeps
 * its past walks in a walk_memo.  A run that reaches its block's end goes
 * on into the next block where the block has that one successor and no
 * draw (a fall-through): the warp takes the same instructions either way. */
typedef struct walk_seg {
    int first, ninsts;           /* its instructions in walk_prog.in */
    int last;                    /* the block it ends in */
    int next;                    /* the next run in that block, or -1 */
    int nlive, ndefs, nstore;    /* registers read before written here, written, stores */
    int mreg;                    /* its live, then written, registers at walk_prog.mreg */
    size_t mat;                  /* its entries' first word in a walk_memo */
    int npipe[3];                /* its instructions by walk_inst.pipe */
    bool loop;                   /* the whole of a block that may branch back to
                                  * itself on a draw (walk_warp's fixed point) */
} walk_seg;

typedef struct walk_block {
    int first, ninsts;
    int nsucc, succ[2];
    int mode;                    /* 0 unconditional, 1 per-warp draw, 2 per-CTA draw */
    double pt;                   /* probability of succ[1] */
    int seg0;                    /* its first memoised run (walk_seg), or -1 */
} walk_block;

typedef struct walk_prog {
    walk_inst *in;
    walk_block *blk;
    uint16_t named[NREG];        /* the registers the program names, nnamed of them */
    int nnamed;
    walk_seg *seg;
    uint16_t *mreg;
    size_t memo_words;           /* a walk_memo's size; 0: no run is memoised */
    float pipe_ii[3];            /* by walk_inst.pipe: the cycles an instruction
                                  * holds its pipe, as the sampler's (sampler/
                                  * sim.c: warp_size / lanes, rounded up) */
    int coll_split[3];           /* the GPU's collectors per class (ALU, SFU,
                                  * LD/ST; rf_gpu_coll_split, zero for one pool) */
} walk_prog;

/* The successor a warp takes from a block of two (walk_block.mode: no
 * draw, its CTA's loop draw *nloop, or its own branch draw *nbr, each
 * counter advanced as it draws). */
static inline __attribute__((always_inline)) int
succ_draw(const walk_block *blk, loop_draws *lds, uint64_t seed, uint64_t cta, uint64_t gid,
          uint64_t *nloop, uint64_t *nbr)
{
    double u;
    if (blk->mode == 0)
        u = -1.0;             /* unconditional: no draw */
    else if (blk->mode == 2)
        u = loop_draw(lds, seed, cta, (*nloop)++);
    else
        u = draw(seed, gid, (*nbr)++, RF_DRAW_BRANCH);
    return u < blk->pt ? blk->succ[1] : blk->succ[0];
}

static void walk_prog_free(walk_prog *w)
{
    free(w->in);
    free(w->blk);
    free(w->seg);
    free(w->mreg);
}

/* The walk's memo: per memoised run, four counters (the way replaced
 * next, the way last hit, lookups, hits) and MEMO_WAYS entries, each the
 * run's walk from one entry state: a valid word (MEMO_VALID, or whether
 * the entry is a fixed point once memo_loop has asked); the key, per register
 * the run reads before writing it, 0 when it is ready by the run's start,
 * else twice the cycles still to wait plus whether a load wrote it (a
 * register ready by then changes no start time, and a later one's wait
 * is a memory or a dependence stall by its writer); then the written
 * registers' ready times, the run's length in cycles, its latest
 * retirement and its shares of the four sums, relative to its start.
 * Exact: every latency of the program is a whole number of cycles
 * (memo_plan memoises nothing otherwise), so every time the walk holds is
 * a whole number, and sums of them do not round whatever their order. */
#define MEMO_WAYS 2
enum { MEMO_EMPTY, MEMO_VALID, MEMO_FIXED, MEMO_NOT_FIXED };
#define MEMO_MIN_INSTS 4
#define MEMO_MAX_LIVE 64
#define MEMO_TRIES 64
#define MEMO_HIT_MIN 2

/* A memo word: the counters, the valid word and the key are whole
 * numbers; the walk's times and sums are kept as the doubles it adds. */
typedef union memo_word {
    int64_t i;
    double d;
} memo_word;

typedef struct walk_memo {
    memo_word *e;
} walk_memo;

static size_t memo_entry_words(const walk_seg *g)
{
    return 1 + (size_t)g->nlive + (size_t)g->ndefs + 6;
}

static bool whole(double x)
{
    return x == floor(x) && fabs(x) < 1e9;
}

/* Whether block b falls through to block b + 1 with no draw: a run that
 * reaches b's end goes on there (walk_seg). */
static bool falls_through(const walk_prog *w, const rf_func *f, int b)
{
    const walk_block *x = &w->blk[b];
    return b + 1 < f->nblocks && x->nsucc == 1 && x->succ[0] == b + 1
        && w->blk[b + 1].first == x->first + x->ninsts;
}

/* Whether the walk may take instruction `in` inside a memoised run. */
static bool memo_inst(const walk_inst *in)
{
    return (in->kind == WK_FIXED || in->kind == WK_STORE_MEM) && in->end == WE_NONE;
}

/* The memoised runs (walk_seg: every run of at least MEMO_MIN_INSTS
 * instructions a walk_seg may hold, reading at most MEMO_MAX_LIVE
 * registers before writing them) and their registers; none unless every
 * latency the walk may take is a whole number of cycles. */
static int memo_plan(const rf_gpu *gpu, const rf_func *f, walk_prog *w)
{
    w->seg = NULL;
    w->mreg = NULL;
    w->memo_words = 0;
    for (int b = 0; b < f->nblocks; b++)
        w->blk[b].seg0 = -1;
    bool ok = whole(gpu->l1_latency) && whole(gpu->l2_latency) && whole(gpu->dram_latency);
    for (int k = 0; k < f->ninsts && ok; k++)
        ok = whole(w->in[k].lat);
    if (!ok || f->ninsts < MEMO_MIN_INSTS)
        return RF_OK;
    /* Registers a run of n instructions may list, at most. */
    const size_t per_inst = RF_MAX_USES + 2 * RF_MAX_DEFS + 1;
    size_t seg_cap = (size_t)(f->ninsts / MEMO_MIN_INSTS + 1) + (size_t)f->nblocks;
    size_t mreg_cap = (size_t)f->ninsts * per_inst;
    w->seg = malloc(sizeof *w->seg * seg_cap);
    w->mreg = malloc(sizeof *w->mreg * mreg_cap);
    uint8_t *seen = calloc(NREG, 1);     /* 1 live, 2 written */
    if (!w->seg || !w->mreg || !seen) {
        free(seen);
        return RF_ENOMEM;
    }
    int nseg = 0, at = 0;
    for (int b = 0; b < f->nblocks; b++) {
        walk_block *x = &w->blk[b];
        int *link = &x->seg0;
        for (int i = 0; i < x->ninsts;) {
            int n = 0, last = b;
            for (const walk_inst *in = &w->in[x->first + i];
                 i + n < x->ninsts && memo_inst(in); in++)
                n++;
            /* Through fall-throughs while the run reaches the block's end
             * (the instructions lie one after another). */
            for (int end = x->ninsts - i; n == end && n > 0 && falls_through(w, f, last);) {
                last++;
                const walk_block *y = &w->blk[last];
                const walk_inst *in = &w->in[y->first];
                int m = 0;
                while (m < y->ninsts && memo_inst(in + m))
                    m++;
                n += m;
                end += y->ninsts;
            }
            if (n < MEMO_MIN_INSTS) {
                i += n > 0 ? n : 1;
                continue;
            }
            if ((size_t)at + (size_t)n * per_inst > mreg_cap) {
                size_t nc = 2 * mreg_cap + (size_t)n * per_inst;
                uint16_t *nm = realloc(w->mreg, sizeof *nm * nc);
                if (!nm) {
                    free(seen);
                    return RF_ENOMEM;
                }
                w->mreg = nm;
                mreg_cap = nc;
            }
            if ((size_t)nseg + 1 > seg_cap) {
                walk_seg *ns = realloc(w->seg, sizeof *ns * 2 * seg_cap);
                if (!ns) {
                    free(seen);
                    return RF_ENOMEM;
                }
                w->seg = ns;
                seg_cap *= 2;
            }
            walk_seg *g = &w->seg[nseg];
            *g = (walk_seg){x->first + i, n, last, -1, 0, 0, 0, at, 0, {0, 0, 0}, false};
            g->loop = i == 0 && last == b && n == x->ninsts && x->nsucc == 2 && x->mode != 0
                   && (x->succ[0] == b || x->succ[1] == b);
            for (int q = 0; q < n; q++) {
                const walk_inst *in = &w->in[g->first + q];
                for (int u = 0; u < in->nreg; u++)
                    if (!seen[in->reg[u]]) {
                        seen[in->reg[u]] = 1;
                        w->mreg[at + g->nlive++] = in->reg[u];
                    }
                for (int d = 0; d < in->ndef; d++)
                    seen[in->def[d]] |= 2;
                g->nstore += in->kind == WK_STORE_MEM;
                g->npipe[in->pipe]++;
            }
            for (int q = 0; q < n; q++) {
                const walk_inst *in = &w->in[g->first + q];
                for (int d = 0; d < in->ndef; d++)
                    if (seen[in->def[d]] & 2) {
                        seen[in->def[d]] &= 1;
                        w->mreg[at + g->nlive + g->ndefs++] = in->def[d];
                    }
            }
            for (int q = 0; q < g->nlive + g->ndefs; q++)
                seen[w->mreg[at + q]] = 0;
            i = last == b ? i + n : x->ninsts;
            if (g->nlive > MEMO_MAX_LIVE)
                continue;
            at += g->nlive + g->ndefs;
            g->mat = w->memo_words;
            w->memo_words += 4 + MEMO_WAYS * memo_entry_words(g);
            *link = nseg;
            link = &g->next;
            nseg++;
        }
    }
    /* A run that ends in a later block goes on to that block's first run
     * after it. */
    for (int s = 0; s < nseg; s++) {
        walk_seg *g = &w->seg[s];
        if (g->first < w->blk[g->last].first) {
            int n = w->blk[g->last].seg0;
            while (n >= 0 && w->seg[n].first < g->first + g->ninsts)
                n = w->seg[n].next;
            g->next = n;
        }
    }
    free(seen);
    return RF_OK;
}

static int walk_prog_make(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof,
                          walk_prog *w)
{
    w->seg = NULL;
    w->mreg = NULL;
    w->memo_words = 0;
    w->in = malloc(sizeof *w->in * (size_t)(f->ninsts > 0 ? f->ninsts : 1));
    w->blk = malloc(sizeof *w->blk * (size_t)(f->nblocks > 0 ? f->nblocks : 1));
    bool *uniform = cta_uniform_loops(f);
    if (!w->in || !w->blk || !uniform) {
        free(uniform);
        walk_prog_free(w);
        return RF_ENOMEM;
    }
    bool seen[NREG] = {false};
    w->nnamed = 0;
    int ws = gpu->warp_size > 0 ? gpu->warp_size : 32;
    w->pipe_ii[0] = 0;
    w->pipe_ii[1] = gpu->sfu_lanes > 0 ? (float)((ws + gpu->sfu_lanes - 1) / gpu->sfu_lanes) : 1;
    w->pipe_ii[2] = gpu->ldst_lanes > 0 ? (float)((ws + gpu->ldst_lanes - 1) / gpu->ldst_lanes) : 1;
    rf_gpu_coll_split(gpu->collectors, w->coll_split);
    for (int k = 0; k < f->ninsts; k++) {
        const rf_inst *in = &f->insts[k];
        walk_inst *x = &w->in[k];
        x->nreg = 0;
        for (int u = 0; u < in->nuses + in->ndefs + (in->guard >= 0); u++) {
            int r = u < in->nuses ? in->uses[u]
                  : u < in->nuses + in->ndefs ? in->defs[u - in->nuses] : in->guard;
            if (r >= 0 && r < NREG) {
                x->reg[x->nreg++] = (uint16_t)r;
                if (!seen[r])
                    w->named[w->nnamed++] = (uint16_t)r;
                seen[r] = true;
            }
        }
        bool store = in->cls == RF_OC_ST_GLOBAL || in->cls == RF_OC_ST_LOCAL
                  || in->cls == RF_OC_ST_SHARED;
        x->ndef = 0;
        for (int d = 0; d < in->ndefs && !store; d++)
            if (in->defs[d] < NREG)
                x->def[x->ndef++] = in->defs[d];
        switch (in->cls) {
        case RF_OC_LD_GLOBAL:
        case RF_OC_LD_LOCAL:
            x->kind = WK_LOAD;
            x->lat = 0;
            break;
        case RF_OC_ATOMIC:
            x->kind = WK_ATOMIC;
            x->lat = 0;
            break;
        case RF_OC_ST_GLOBAL:
        case RF_OC_ST_LOCAL:
            x->kind = WK_STORE_MEM;
            x->lat = 1.0;
            break;
        default:
            x->kind = WK_FIXED;
            x->lat = class_latency(gpu, prof, in->cls, 0);
            break;
        }
        x->end = in->cls == RF_OC_BARRIER ? WE_BARRIER : in->cls == RF_OC_EXIT ? WE_EXIT : WE_NONE;
        int u = rf_kchar_unit_of(in->cls);
        x->pipe = u == 1 || u == 2 ? (uint8_t)u : 0;
    }
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *blk = &f->blocks[b];
        walk_block *x = &w->blk[b];
        x->first = blk->first;
        x->ninsts = blk->ninsts;
        x->nsucc = blk->nsucc;
        x->succ[0] = blk->succ[0];
        x->succ[1] = blk->succ[1];
        x->mode = 0;
        x->pt = 0;
        /* The edge rule of the frequencies: a walk block keeps the
         * successors the warp may take, two only where it draws. */
        switch (rf_kchar_edge(f, b, prof->trip, prof->taken, &x->pt)) {
        case RF_KE_STOP:
            x->nsucc = 0;
            break;
        case RF_KE_FALL:
            x->nsucc = 1;
            break;
        case RF_KE_JUMP:
            x->nsucc = 1;
            x->succ[0] = blk->succ[1];
            break;
        case RF_KE_EXIT:
            /* succ[1] = -1: the drawn side ends the warp. */
            x->nsucc = 2;
            x->succ[1] = -1;
            x->mode = 1;
            w->in[blk->first + blk->ninsts - 1].end = WE_NONE;
            break;
        default:
            x->mode = uniform[b] ? 2 : 1;
            break;
        }
    }
    free(uniform);
    int rc = memo_plan(gpu, f, w);
    if (rc)
        walk_prog_free(w);
    return rc;
}

/* A CTA's scratch rows, one per figure of a warp's phase (R_I its
 * instructions, R_T its lone cycles, R_MC and R_MN the cycles and count of
 * its stalls on loads): warp w's phase p at row[r][w cap + p]; they are
 * stored as rf_ctaset's insts, time, mem_cyc and mem_n (ctaset_rows). */
enum { R_I, R_T, R_MC, R_MN, NROWS };

typedef struct scratch {
    float *row[NROWS];
    float *P;                    /* two per phase: the CTA's warps' SFU and LD/ST
                                  * pipe cycles there */
    int cap, wpc;
} scratch;

/* Zero rows of MC_MAXPH phases for wpc warps; false when out of memory
 * (free it with scratch_free all the same). */
static bool scratch_init(scratch *s, int wpc)
{
    size_t n = (size_t)wpc * MC_MAXPH;
    *s = (scratch){{NULL}, calloc(2 * MC_MAXPH, sizeof *s->P), MC_MAXPH, wpc};
    bool ok = s->P != NULL;
    for (int r = 0; r < NROWS; r++) {
        s->row[r] = calloc(n, sizeof *s->row[r]);
        ok &= s->row[r] != NULL;
    }
    return ok;
}

static void scratch_free(scratch *s)
{
    for (int r = 0; r < NROWS; r++)
        free(s->row[r]);
    free(s->P);
}

/* Doubles the rows (each warp's row moved to the new stride, the new
 * phases zero); false when out of memory (the rows kept). */
static bool scratch_grow(scratch *s)
{
    size_t oc = (size_t)s->cap, nc = 2 * oc, n = (size_t)s->wpc * nc;
    for (int r = 0; r < NROWS; r++) {
        float *nr = realloc(s->row[r], sizeof *nr * n);
        if (!nr)
            return false;
        s->row[r] = nr;
    }
    float *nP = realloc(s->P, sizeof *nP * 2 * nc);
    if (!nP)
        return false;
    s->P = nP;
    memset(s->P + 2 * oc, 0, sizeof *nP * 2 * (nc - oc));
    for (int r = 0; r < NROWS; r++)
        for (size_t w = (size_t)s->wpc; w-- > 0;) {
            memmove(s->row[r] + w * nc, s->row[r] + w * oc, sizeof *s->row[r] * oc);
            memset(s->row[r] + w * nc + oc, 0, sizeof *s->row[r] * (nc - oc));
        }
    s->cap = (int)nc;
    return true;
}

/* rf_ctaset's stored rows in the scratch's order (NULL where a set has
 * none). */
static void ctaset_rows(const rf_ctaset *cs, float *out[NROWS])
{
    out[R_I] = cs->insts;
    out[R_T] = cs->time;
    out[R_MC] = cs->mem_cyc;
    out[R_MN] = cs->mem_n;
}

/* When an instruction of a warp at time t can start: the latest of t and
 * its operands' ready times; *mem whether that latest operand is a load's
 * (the first of equal ones). */
static inline __attribute__((always_inline)) double
operands_ready(const walk_inst *in, const double *ready, const bool *from_mem, double t, bool *mem)
{
    double start = t;
    bool m = false;
    for (int u = 0; u < in->nreg; u++) {
        int r = in->reg[u];
        if (ready[r] > start) {
            start = ready[r];
            m = from_mem[r];
        }
    }
    *mem = m;
    return start;
}

/* A memoised run's entry taken from the warp's time st[0], its sums and
 * length past its written registers at o: the latest retirement st[1],
 * the four sums st[2..5] and the time st[0] after it. */
static inline __attribute__((always_inline)) void memo_adds(const memo_word *o, double st[6])
{
    double t = st[0];
    double lr = t + o[1].d;
    if (lr > st[1])
        st[1] = lr;
    for (int q = 0; q < 4; q++)
        st[2 + q] += o[2 + q].d;
    st[0] = t + o[0].d;
}

/* A memoised run's entry c taken: its written registers' ready times,
 * its latest retirement, sums and length, from the warp's time t. */
static inline __attribute__((always_inline)) void
memo_take(const memo_word *c, int nlive, int ndefs, const uint16_t *defs, double *ready,
          bool *from_mem, double t, double st[6])
{
    const memo_word *o = c + 1 + nlive;
    for (int d = 0; d < ndefs; d++) {
        ready[defs[d]] = t + o[d].d;
        from_mem[defs[d]] = false;
    }
    memo_adds(o + ndefs, st);
}

/* Register r's key word at the warp's time t (the memo's header). */
static inline __attribute__((always_inline)) int64_t
memo_key(const double *ready, const bool *from_mem, int r, double t)
{
    double rel = ready[r] - t;
    return rel > 0 ? (int64_t)rel * 2 + from_mem[r] : 0;
}

/* A memoised run walked as walk_warp walks it, from st[] = the warp's time,
 * its latest retirement and its four sums (memory stalls, dependence
 * stalls, turns, memory waits), which it updates: taken from the
 * memo when its entry state was walked before (returns the entry), else
 * walked and kept there (the next way in turn replaced; returns NULL).
 * The way last hit is compared first, as the key is formed.  A run whose states seldom repeat (fewer
 * than one hit in MEMO_HIT_MIN of its first MEMO_TRIES lookups in this
 * memo) is walked without the memo from then on. */
static inline __attribute__((always_inline)) memo_word *
memo_walk(const walk_prog *w, const walk_seg *g, walk_memo *mm, double *ready, bool *from_mem,
          double st[6])
{
    double t = st[0], *sum = st + 2;
    const uint16_t *live = w->mreg + g->mreg, *defs = live + g->nlive;
    int nlive = g->nlive, ndefs = g->ndefs;
    memo_word *head = mm->e + g->mat, *e = NULL;  /* turn, last hit, lookups, hits */
    int64_t key[MEMO_MAX_LIVE];
    bool use = head[2].i < MEMO_TRIES || head[3].i * MEMO_HIT_MIN >= head[2].i;
    if (use) {
        head[2].i++;
        size_t ew = memo_entry_words(g);
        int i = 0;
        for (int k = 0; k < MEMO_WAYS; k++) {
            int wy = (int)((head[1].i + k) % MEMO_WAYS);
            memo_word *c = head + 4 + (size_t)wy * ew;
            if (c[0].i == MEMO_EMPTY) {
                e = e ? e : c;
                continue;
            }
            int j = 0;
            if (k == 0) {
                while (i < nlive && c[1 + i].i == (key[i] = memo_key(ready, from_mem, live[i], t)))
                    i++;
                j = i;
            } else {
                for (; i < nlive; i++)
                    key[i] = memo_key(ready, from_mem, live[i], t);
                while (j < nlive && c[1 + j].i == key[j])
                    j++;
            }
            if (j < nlive)
                continue;
            head[1].i = wy;
            head[3].i++;
            memo_take(c, nlive, ndefs, defs, ready, from_mem, t, st);
            return c;
        }
        for (; i < nlive; i++)
            key[i] = memo_key(ready, from_mem, live[i], t);
        if (!e) {
            e = head + 4 + (size_t)(head[0].i % MEMO_WAYS) * ew;
            head[0].i++;
        }
    }
    double t0 = t, bmax = t, ds[4] = {0, 0, 0, 0};
    const walk_inst *in = &w->in[g->first];
    for (int i = 0; i < g->ninsts; i++, in++) {
        bool mem;
        double start = operands_ready(in, ready, from_mem, t, &mem);
        if (mem) {
            ds[0] += start - t;
            ds[3] += start > t ? 1.0 : 0.0;
        } else
            ds[1] += start - t;
        if (start - t > TURN_SLACK)
            ds[2] += 1.0;
        double done = start + 2.0 + in->lat;
        for (int d = 0; d < in->ndef; d++) {
            ready[in->def[d]] = done;
            from_mem[in->def[d]] = false;
        }
        bmax = done > bmax ? done : bmax;
        t = start + 1.0;
    }
    for (int q = 0; q < 4; q++)
        sum[q] += ds[q];
    if (bmax > st[1])
        st[1] = bmax;
    st[0] = t;
    if (e) {
        memo_word *o = e + 1 + nlive;
        e[0].i = MEMO_VALID;
        for (int q = 0; q < nlive; q++)
            e[1 + q].i = key[q];
        for (int d = 0; d < ndefs; d++)
            o[d].d = ready[defs[d]] - t0;
        o += ndefs;
        o[0].d = t - t0;
        o[1].d = bmax - t0;
        for (int q = 0; q < 4; q++)
            o[2 + q].d = ds[q];
    }
    return NULL;
}

/* Whether entry c of run g, just taken, is a fixed point: at the warp's
 * time t after it, every register the run reads before writing has the
 * entry's key again, so the run taken again at once takes c again, and
 * so on.  The keys after the run follow from the entry alone (a register
 * it writes is ready the entry's cycles after its start, one it does not
 * write as many cycles before t as its key says, less the run's length,
 * or before t where its key is 0), so memo_loop asks once per entry. */
static bool memo_fixed(const walk_prog *w, const walk_seg *g, const memo_word *c,
                       const double *ready, const bool *from_mem, double t)
{
    const uint16_t *live = w->mreg + g->mreg;
    for (int q = 0; q < g->nlive; q++)
        if (memo_key(ready, from_mem, live[q], t) != c[1 + q].i)
            return false;
    return true;
}

/* An empty memo for prog's blocks (none when it memoises none); false
 * when out of memory. */
static bool memo_init(walk_memo *mm, const walk_prog *prog)
{
    mm->e = prog->memo_words ? calloc(prog->memo_words, sizeof *mm->e) : NULL;
    return !prog->memo_words || mm->e;
}

/* Run g, the whole of block b that may branch back to itself, just taken
 * from memo entry hit (st[] after it, cnt the warp's instructions): where
 * the entry is a fixed point (memo_fixed), while the block's draws keep
 * the warp there every pass takes the same entry, so each adds the
 * entry's sums and length (memo_adds, in the same order) without its
 * lookup, and the written registers' ready times are set once, from the
 * last pass's start.  Returns the passes taken past the first, *drawn the
 * successor drawn; *drawn stays -2 where the entry is no fixed point.
 * Out of line: walk_warp's own loop stays as it is for the runs without
 * one. */
static __attribute__((noinline)) long
memo_loop(const walk_prog *w, const walk_seg *g, walk_memo *mm, memo_word *hit,
          const walk_block *blk, int b, loop_draws *lds, uint64_t seed, uint64_t cta, uint64_t gid,
          uint64_t *nloop, uint64_t *nbr, double *ready, const bool *from_mem, double st[6],
          long cnt, int *drawn)
{
    if (hit[0].i == MEMO_VALID)
        hit[0].i = memo_fixed(w, g, hit, ready, from_mem, st[0]) ? MEMO_FIXED : MEMO_NOT_FIXED;
    if (hit[0].i != MEMO_FIXED)
        return 0;
    memo_word *head = mm->e + g->mat;
    const memo_word *od = hit + 1 + g->nlive;
    double t_last = st[0] - od[g->ndefs].d;
    long more = 0;
    for (;;) {
        *drawn = succ_draw(blk, lds, seed, cta, gid, nloop, nbr);
        if (*drawn != b || cnt + more * g->ninsts >= RF_KCHAR_MC_MAX_INSTS)
            break;
        head[2].i++;
        head[3].i++;
        t_last = st[0];
        memo_adds(od + g->ndefs, st);
        more++;
    }
    const uint16_t *defs = w->mreg + g->mreg + g->nlive;
    for (int d = 0; d < g->ndefs; d++)
        ready[defs[d]] = t_last + od[d].d;
    return more;
}

/* One warp (warp wi of its CTA) alone along a random path; adds its
 * instructions and cycles per phase to its scratch row (grown as it needs,
 * to MC_WALKPH phases; the phases past that go into the last), its stalls
 * to *sm / *sd, its turns and memory waits to *nev / *nmw; returns the
 * drain.  *oom is set when the rows could not grow.  Reads gpu, f, prof
 * and w only: the warp's state is ready[], from_mem[], *sc and the sums it
 * is given.  With a memo (mm, else NULL) the memoised runs are taken from
 * it or kept there, and with its CTA's loop draws (lds, else NULL) the loop
 * draws: the same results either way. */
static double walk_warp(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof,
                        const walk_prog *w, walk_memo *mm, loop_draws *lds, uint64_t seed,
                        uint64_t cta, uint64_t gid, double *ready, bool *from_mem, scratch *sc,
                        int wi, double *sm, double *sd, double *nev, double *nmw, int *nph,
                        double *dram_at, bool *oom)
{
    float *I = sc->row[R_I] + (size_t)wi * sc->cap, *T = sc->row[R_T] + (size_t)wi * sc->cap;
    float *MC = sc->row[R_MC] + (size_t)wi * sc->cap, *MN = sc->row[R_MN] + (size_t)wi * sc->cap;
    float *P = sc->P;
    long pipe[3] = {0, 0, 0};   /* phase ph's instructions by pipe, not yet in P */
    uint64_t nbr = 0, nmem = 0, nloop = 0;
    /* Registers the program never names stay unread. */
    for (int i = 0; i < w->nnamed; i++) {
        ready[w->named[i]] = 0;
        from_mem[w->named[i]] = false;
    }
    double l1 = gpu->l1_latency, l2 = gpu->l2_latency, ld = gpu->dram_latency;
    double h1 = prof->l1_hit, h2 = prof->l2_hit;
    double t = 0, last_retire = 0, t_phase = 0;
    long cnt = 0, in_ph = 0;    /* in_ph: instructions of phase ph not yet in I[ph] */
    /* The sums, kept here and written back at the end (the same additions
     * in the same order). */
    double s_mem = *sm, s_dep = *sd, n_ev = *nev, n_mw = *nmw;
    double mem_ph = s_mem, mw_ph = n_mw;    /* the sums at the phase's start */
    int b = 0, ph = 0;
    bool ended = false;
    while (!ended && b >= 0 && b < f->nblocks && cnt < RF_KCHAR_MC_MAX_INSTS) {
        const walk_block *blk = &w->blk[b];
        /* The block's instructions up to its next memoised run (gi), the
         * run, and so on; a run that ends in a later block goes on there
         * (the warp takes the blocks between without a draw). */
        const walk_inst *in = &w->in[blk->first];
        int gi = mm ? blk->seg0 : -1, i = 0;
        int drawn = -2;     /* the successor a fixed point's passes drew, -2 none */
        for (;;) {
            int stop = gi >= 0 ? w->seg[gi].first - blk->first : blk->ninsts;
            for (; i < stop; i++, in++) {
                bool mem;
                double start = operands_ready(in, ready, from_mem, t, &mem);
                if (mem) {
                    s_mem += start - t;
                    n_mw += start > t ? 1.0 : 0.0;
                } else
                    s_dep += start - t;
                if (start - t > TURN_SLACK)
                    n_ev += 1.0;
                double lat = in->lat;
                bool lmem = false;
                bool to_dram = false;
                if (in->kind == WK_LOAD) {
                    lmem = true;
                    uint64_t m = nmem++;
                    bool hit1 = draw(seed, gid, m, RF_DRAW_L1) < h1;
                    bool hit2 = !hit1 && draw(seed, gid, m, RF_DRAW_L2) < h2;
                    to_dram = !hit1 && !hit2;
                    lat = hit1 ? l1 : hit2 ? l2 : ld;
                } else if (in->kind == WK_ATOMIC) {
                    lmem = true;
                    uint64_t m = nmem++;
                    to_dram = !(draw(seed, gid, m, RF_DRAW_L2) < h2);
                    lat = l2 + (to_dram ? ld : 0);
                } else if (in->kind == WK_STORE_MEM) {
                    nmem++;
                }
                double done = start + 2.0 + lat;
                if (to_dram && dram_at) {
                    if (dram_at[0] < 0)
                        dram_at[0] = start;
                    dram_at[1] = done;
                }
                for (int d = 0; d < in->ndef; d++) {
                    ready[in->def[d]] = done;
                    from_mem[in->def[d]] = lmem;
                }
                if (in->end == WE_NONE && done > last_retire)
                    last_retire = done;
                t = start + 1.0;
                in_ph++;
                cnt++;
                pipe[in->pipe]++;
                if (in->end == WE_BARRIER) {
                    MC[ph] += (float)(s_mem - mem_ph);
                    MN[ph] += (float)(n_mw - mw_ph);
                    mem_ph = s_mem;
                    mw_ph = n_mw;
                    I[ph] += (float)in_ph;
                    P[2 * ph] += (float)pipe[1] * w->pipe_ii[1];
                    P[2 * ph + 1] += (float)pipe[2] * w->pipe_ii[2];
                    in_ph = 0;
                    pipe[1] = pipe[2] = 0;
                    if (ph + 1 >= sc->cap && sc->cap < MC_WALKPH) {
                        if (!scratch_grow(sc))
                            *oom = true;
                        I = sc->row[R_I] + (size_t)wi * sc->cap;
                        T = sc->row[R_T] + (size_t)wi * sc->cap;
                        MC = sc->row[R_MC] + (size_t)wi * sc->cap;
                        MN = sc->row[R_MN] + (size_t)wi * sc->cap;
                        P = sc->P;
                    }
                    if (ph + 1 < sc->cap) {
                        T[ph] += (float)(t - t_phase);
                        t_phase = t;
                        ph++;
                    }
                }
                if (in->end == WE_EXIT) {
                    ended = true;
                    break;
                }
            }
            if (ended || gi < 0)
                break;
            const walk_seg *g = &w->seg[gi];
            if (g->last != b && cnt + g->ninsts >= RF_KCHAR_MC_MAX_INSTS) {
                gi = -1;    /* the cap may fall between its blocks: block by block */
                continue;
            }
            double st[6] = {t, last_retire, s_mem, s_dep, n_ev, n_mw};
            memo_word *hit = memo_walk(w, g, mm, ready, from_mem, st);
            t = st[0];
            last_retire = st[1];
            s_mem = st[2];
            s_dep = st[3];
            n_ev = st[4];
            n_mw = st[5];
            nmem += (uint64_t)g->nstore;
            pipe[1] += g->npipe[1];
            pipe[2] += g->npipe[2];
            in_ph += g->ninsts;
            cnt += g->ninsts;
            if (hit && g->loop) {
                long more = memo_loop(w, g, mm, hit, blk, b, lds, seed, cta, gid, &nloop, &nbr,
                                      ready, from_mem, st, cnt, &drawn);
                if (drawn != -2) {
                    /* The passes at the fixed point taken; the successor
                     * is drawn. */
                    t = st[0];
                    last_retire = st[1];
                    s_mem = st[2];
                    s_dep = st[3];
                    n_ev = st[4];
                    n_mw = st[5];
                    nmem += (uint64_t)(more * g->nstore);
                    pipe[1] += more * g->npipe[1];
                    pipe[2] += more * g->npipe[2];
                    in_ph += more * g->ninsts;
                    cnt += more * g->ninsts;
                    break;
                }
            }
            i += g->ninsts;
            in += g->ninsts;
            if (g->last != b) {
                b = g->last;
                blk = &w->blk[b];
                i = g->first + g->ninsts - blk->first;
            }
            gi = g->next;
        }
        if (ended || blk->nsucc == 0)
            break;
        if (drawn != -2) {
            b = drawn;
        } else if (blk->nsucc == 1) {
            b = blk->succ[0];
        } else {
            b = succ_draw(blk, lds, seed, cta, gid, &nloop, &nbr);
        }
    }
    I[ph] += (float)in_ph;
    T[ph] += (float)(t - t_phase);
    MC[ph] += (float)(s_mem - mem_ph);
    MN[ph] += (float)(n_mw - mw_ph);
    P[2 * ph] += (float)pipe[1] * w->pipe_ii[1];
    P[2 * ph + 1] += (float)pipe[2] * w->pipe_ii[2];
    *sm = s_mem;
    *sd = s_dep;
    *nev = n_ev;
    *nmw = n_mw;
    if (ph + 1 > *nph)
        *nph = ph + 1;
    if (dram_at)
        dram_at[2] = last_retire > t ? last_retire : t;
    return last_retire > t ? last_retire - t : 0.0;
}

/* Relative standard error of the ratio estimate X / Y from n CTAs' (x, y),
 * given the sums of x, y, x^2, x y and y^2 (the delta method:
 * var = n / (n - 1) sum (x - R y)^2 / Y^2). */
static double ratio_rel_se(int n, double X, double Y, double xx, double xy, double yy)
{
    if (n < 2 || !(X > 0) || !(Y > 0))
        return 0.0;
    double R = X / Y;
    double ss = xx - 2.0 * R * xy + R * R * yy;
    if (ss < 0)
        ss = 0;
    return sqrt((double)n / (n - 1) * ss) / Y / R;
}

/* The cycles an instruction holds its operand collector alone (reading
 * its operands, dispatch), for a lone CTA's collector holds (walk_cta),
 * chosen on the nine tuning kernels by tests/bench_lone.c's rms of
 * log(sampler / walk) over the grid's last CTA alone, in steps of 0.25:
 * maxwell-ltrf 2.5 0.037, 2.75 0.026, 3 0.030, volta-hirf 0.053, 0.044,
 * 0.055 (without the holds 0.099 and 0.310); fermi-gtx480's six ALU
 * collectors for two schedulers never bind alone (0.022 at all three). */
#define RF_KCHAR_COLL_HOLD 2.75

/* (a^2 + b^2)^(1/2) of a, b >= 0, as big (1 + (small / big)^2)^(1/2): the
 * larger alone where one dominates, 2^(1/2) of either where they are
 * equal. */
static double norm2(double a, double b)
{
    double big = a > b ? a : b, small = a > b ? b : a;
    if (!(small > 0))
        return big > 0 ? big : 0.0;
    double r = small / big;
    return big * sqrt(1.0 + r * r);
}

/* A barrier phase of a CTA alone on the SM (rf_ctaset.cta_step): its
 * slowest warp's lone time mx and the cycles h its warps together hold the
 * issue or a shared pipe each bound it, and where the two are close each
 * lengthens the other (a warp waits its turn at the pipe, and the pipe
 * waits for warps still on their dependences), so the phase takes their
 * norm (mx^2 + h^2)^(1/2).  This norm and phase_hold's are Euclidean,
 * chosen on the nine tuning kernels by tests/bench_lone.c (fermi-gtx480,
 * rms of log(sampler / walk) over the grid's last CTA alone), the phase's
 * norm p in {1.5, 1.75, 2, 2.5} by the issue and LD/ST norm q in {1.5,
 * 1.75, 2, 2.5, 3, 4, 6, the larger alone}: p = q = 2 0.022, the least;
 * p = 1.75 with the holds apart 0.025. */
static double phase_alone(double mx, double h)
{
    return norm2(mx, h);
}

/* The cycles a phase of a CTA alone is held by the SM's shared resources,
 * from its instructions n (all of them), n_sfu and n_ldst (SFU and LD/ST;
 * the rest ALU) and the pipe holds p_sfu and p_ldst they take.  On a GPU
 * whose collectors are split per class (rf_gpu_coll_split, as the
 * sampler's by default), C_u collectors of class u each held
 * RF_KCHAR_COLL_HOLD cycles an instruction pass at most C_u / hold a
 * cycle, so a class holds the larger of its pipe's cycles and n_u hold /
 * C_u; and a scheduler whose pick finds its class's collectors all held
 * waits with no other warp issuing (head-of-line blocking, analytic/
 * ipc.c), so with a CTA's warps leaving a barrier together the issue side
 * (the issue, or the ALU collectors where they hold longer) and the LD/ST
 * side each lengthen the other: their norm (a^2 + b^2)^(1/2).  The SFU
 * side stays apart (the larger counts).  With one pool of collectors the
 * longest of the issue and the two pipes. */
static double phase_hold(const int split[3], double issue, double n, double n_sfu, double n_ldst,
                         double p_sfu, double p_ldst)
{
    double is = n / issue;
    if (!(split[0] > 0 && split[1] > 0 && split[2] > 0)) {
        double h = p_sfu > p_ldst ? p_sfu : p_ldst;
        return is > h ? is : h;
    }
    double n_alu = n - n_sfu - n_ldst;
    double c_alu = (n_alu > 0 ? n_alu : 0.0) * RF_KCHAR_COLL_HOLD / split[0];
    double c_sfu = n_sfu * RF_KCHAR_COLL_HOLD / split[1];
    double c_ldst = n_ldst * RF_KCHAR_COLL_HOLD / split[2];
    double side = norm2(is > c_alu ? is : c_alu, p_ldst > c_ldst ? p_ldst : c_ldst);
    double sfu = p_sfu > c_sfu ? p_sfu : c_sfu;
    return side > sfu ? side : sfu;
}

/* One CTA's walk (CTA index cta of the grid): its warps walked into the
 * rows of sc (zero on entry), *nph its phases and *used the phases of the
 * rows written, its drain (slowest warp), work (mean warp), critical
 * (slowest warp) and live time summed over its phases, and its time alone
 * into step_out[0] (the phases' norm) and step_out[1] (their larger bound
 * alone); phases past MC_MAXPH folded into the last (*nph then MC_MAXPH).
 * The stalls, turns and memory waits are added to *sm, *sd, *nev, *nmw:
 * the CTA's own sums, from zero, which the caller adds to the run's in CTA
 * order (the same sums however the CTAs are spread over threads).  *oom as
 * walk_warp. */
static void walk_cta(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof,
                     const walk_prog *prog, walk_memo *mm, uint64_t seed, uint64_t cta, int wpc,
                     double *ready, bool *from_mem, scratch *sc, double *sm, double *sd,
                     double *nev, double *nmw, int *nph_out, int *used, double *drain_out,
                     double *cw_out, double *cc_out, double *cl_out, double step_out[2],
                     bool *oom)
{
    int nph = 1;
    double cta_drain = 0, cw = 0, cc = 0, cl = 0, step = 0, step0 = 0;
    /* Warp instructions the SM issues a cycle. */
    double issue = (double)(gpu->schedulers > 0 ? gpu->schedulers : 1)
                 * (gpu->issue_width > 0 ? gpu->issue_width : 1);
    loop_draws ld;
    ld.n = 0;
    for (int w = 0; w < wpc; w++) {
        uint64_t gid = cta * (uint64_t)wpc + (uint64_t)w;
        double d = walk_warp(gpu, f, prof, prog, mm, &ld, seed, cta, gid, ready, from_mem, sc, w,
                             sm, sd, nev, nmw, &nph, NULL, oom);
        cta_drain = d > cta_drain ? d : cta_drain;
    }
    *drain_out = cta_drain;
    *nph_out = nph;
    *used = nph;
    if (*oom)
        return;
    int scap = sc->cap;
    float *I = sc->row[R_I], *T = sc->row[R_T], *P = sc->P;
    /* Every phase: work (mean warp), critical (slowest warp) and live time
     * (header); and alone (rf_ctaset.cta_step), the norm of its slowest
     * warp's lone time and the longer of the cycles its warps together
     * hold the SFU pipe and those they hold the SM's issue and the LD/ST
     * pipe (phase_alone, phase_hold), and the larger of the slowest
     * warp's time and the longest hold, each apart. */
    for (int ph = 0; ph < nph; ph++) {
        double mx = 0, sum = 0, is = 0;
        for (int w = 0; w < wpc; w++) {
            size_t r = (size_t)w * scap + ph;
            double v = T[r];
            sum += v;
            mx = v > mx ? v : mx;
            is += I[r];
        }
        double p0 = P[2 * ph], p1 = P[2 * ph + 1];
        cw += sum / wpc;
        cc += mx;
        cl += ph < nph - 1 ? mx : sum / wpc;
        double n_sfu = prog->pipe_ii[1] > 0 ? p0 / prog->pipe_ii[1] : 0.0;
        double n_ldst = prog->pipe_ii[2] > 0 ? p1 / prog->pipe_ii[2] : 0.0;
        step += phase_alone(mx, phase_hold(prog->coll_split, issue, is, n_sfu, n_ldst, p0, p1));
        is /= issue;
        double held = p0 > p1 ? p0 : p1;
        held = is > held ? is : held;
        step0 += held > mx ? held : mx;
    }
    *cw_out = cw;
    *cc_out = cc;
    *cl_out = cl;
    step_out[0] = step;
    step_out[1] = step0;
    /* The stored rows: phases past MC_MAXPH into the last, each warp's time
     * there padded by the folded barriers' waits (the sum of the folded
     * phases' slowest warp less the slowest warp's sum), so that the rows'
     * critical time is the CTA's. */
    if (nph > MC_MAXPH) {
        double cfold = 0, smax = 0;
        for (int ph = MC_MAXPH - 1; ph < nph; ph++) {
            double mx = 0;
            for (int w = 0; w < wpc; w++)
                mx = T[(size_t)w * scap + ph] > mx ? T[(size_t)w * scap + ph] : mx;
            cfold += mx;
        }
        for (int w = 0; w < wpc; w++) {
            for (int r = 0; r < NROWS; r++) {
                float *wr = sc->row[r] + (size_t)w * scap;
                for (int ph = MC_MAXPH; ph < nph; ph++)
                    wr[MC_MAXPH - 1] += wr[ph];
            }
            float t = T[(size_t)w * scap + MC_MAXPH - 1];
            smax = t > smax ? t : smax;
        }
        for (int w = 0; w < wpc; w++)
            T[(size_t)w * scap + MC_MAXPH - 1] += (float)(cfold - smax);
        *nph_out = MC_MAXPH;
    }
}

/* The threaded walk's CTAs, in blocks of WALK_BLOCK (one pool job each,
 * so that a thread waits and wakes once a block, not once a CTA): CTA
 * nfrom + i walked into slot i % nslot, its own scratch; the fold clears a
 * slot's rows and lets block b + nslot / WALK_BLOCK run once it has taken
 * block b.  At most WALK_BLOCKS_PER_JOB blocks a thread run ahead of the
 * fold.  Every slot's scratch (wpc x MC_MAXPH phases, two floats) is memory
 * touched afresh, so the blocks are short: a few CTAs keep a thread busy
 * for far longer than a wake-up takes. */
#define WALK_BLOCK 8
#define WALK_BLOCKS_PER_JOB 2

typedef struct cta_slot {
    scratch sc;
    double sm, sd, nev, nmw, drain, cw, cc, cl, step[2];
    int nph, used;
} cta_slot;

/* A block group's registers (walk_job.ready, from_mem), each group's
 * starting a cache line of its own: two threads' warps write them at once. */
#define GRP_READY ((NREG * sizeof(double) + 63) / 64 * 64 / sizeof(double))
#define GRP_FROM_MEM ((NREG * sizeof(bool) + 63) / 64 * 64 / sizeof(bool))

typedef struct walk_job {
    const rf_gpu *gpu;
    const rf_func *f;
    const rf_profile *prof;
    const walk_prog *prog;
    uint64_t seed;
    long first_cta, stride;
    int wpc, nfrom, nwalk, nslot;   /* nwalk: CTAs nfrom .. nfrom + nwalk - 1 */
    cta_slot *slot;
    /* [nslot / WALK_BLOCK]: block j's is j's modulo that (no two blocks
     * alike run at once): its memo and its warps' registers (NREG each). */
    walk_memo *memo;
    double *ready;
    bool *from_mem;
} walk_job;

static int walk_job_run(int j, void *ctx)
{
    const walk_job *wj = ctx;
    int end = (j + 1) * WALK_BLOCK < wj->nwalk ? (j + 1) * WALK_BLOCK : wj->nwalk;
    for (int i = j * WALK_BLOCK; i < end; i++) {
        /* Walked on a copy of the slot, written back at the end: the
         * running counts stay off the cache lines of the slots beside it. */
        cta_slot sl = wj->slot[i % wj->nslot];
        bool oom = false;
        size_t grp = (size_t)(j % (wj->nslot / WALK_BLOCK));
        sl.sm = sl.sd = sl.nev = sl.nmw = 0;
        sl.cw = sl.cc = sl.cl = sl.step[0] = sl.step[1] = 0;
        walk_cta(wj->gpu, wj->f, wj->prof, wj->prog, &wj->memo[grp], wj->seed,
                 (uint64_t)((wj->first_cta + wj->nfrom + i) * wj->stride), wj->wpc,
                 wj->ready + grp * GRP_READY, wj->from_mem + grp * GRP_FROM_MEM, &sl.sc, &sl.sm,
                 &sl.sd, &sl.nev, &sl.nmw, &sl.nph, &sl.used, &sl.drain, &sl.cw, &sl.cc, &sl.cl,
                 sl.step, &oom);
        wj->slot[i % wj->nslot] = sl;
        if (oom)
            return RF_ENOMEM;
    }
    return RF_OK;
}

/* When the CTA walk takes threads, judged after its first WALK_PAR_FIRST
 * CTAs at their mean (the fewer CTAs walked alone before the threads
 * start, the more of the walk the threads share; but CTAs that draw their
 * trip counts differ, and the mean of too few misjudges the rest): the
 * threads save a share of the walk of the CTAs
 * left and cost a start (the threads, the slots' pages) and the fold of
 * those CTAs' rows, which the calling thread stores into fresh pages.  The
 * walk takes threads when the instructions left exceed WALK_PAR_INSTS plus
 * WALK_PAR_FLOAT per row float left (insts and time alike).  Measured on
 * the development VM (2 vCPUs that share a core: two walking threads do
 * about 1.3 times the work of one; a first touch of a page 5-12 us): a
 * walked instruction ~4.5 ns, a stored row float ~15 ns, the start ~0.4
 * ms. */
#define WALK_PAR_INSTS 200000.0
#define WALK_PAR_FLOAT 7.0
#define WALK_PAR_FIRST 4

/* The threaded walk of CTAs first .. nctas - 1: its slots, then its pool,
 * the first blocks released.  0 or an error (the slots freed by the
 * caller, wj->nslot of them). */
static int walk_par_start(walk_job *wj, rf_pool *pool, int jobs, int first, int nctas,
                          rf_err *err)
{
    int wpc = wj->wpc;
    int nblocks = (nctas - first + WALK_BLOCK - 1) / WALK_BLOCK;
    int ahead = jobs * WALK_BLOCKS_PER_JOB < nblocks ? jobs * WALK_BLOCKS_PER_JOB : nblocks;
    int nslot = ahead * WALK_BLOCK;
    wj->nfrom = first;
    wj->nwalk = nctas - first;
    wj->slot = calloc((size_t)nslot, sizeof *wj->slot);
    wj->memo = calloc((size_t)ahead, sizeof *wj->memo);
    wj->ready = aligned_alloc(64, sizeof *wj->ready * GRP_READY * (size_t)ahead);
    wj->from_mem = aligned_alloc(64, sizeof *wj->from_mem * GRP_FROM_MEM * (size_t)ahead);
    if (!wj->slot || !wj->memo || !wj->ready || !wj->from_mem)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "kernel characteristics: out of memory");
    wj->nslot = nslot;
    for (int q = 0; q < ahead; q++)
        if (!memo_init(&wj->memo[q], wj->prog))
            return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL,
                              "kernel characteristics: out of memory");
    for (int q = 0; q < nslot; q++) {
        cta_slot *sl = &wj->slot[q];
        if (!scratch_init(&sl->sc, wpc))
            return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL,
                              "kernel characteristics: out of memory");
    }
    int rc = rf_pool_start(pool, jobs, nblocks, walk_job_run, wj, err);
    if (!rc)
        rf_pool_release(pool, ahead);
    return rc;
}

/* The sample's stopping rule (RF_KCHAR_MC_REL_SE, rf_kchar_func) after
 * its n-th CTA of at most nctas, whose shares of the sums (dwork, dcrit,
 * dtt, dti) join the per-CTA moments mom: whether the sample stops there. */
static bool sample_stops(double mom[2][3], int n, int nctas, double work, double crit,
                         double tt, double ti, double dwork, double dcrit, double dtt,
                         double dti, double rel_se)
{
    double x[2] = {dwork, dtt}, y[2] = {dcrit, dti};
    for (int q = 0; q < 2; q++) {
        mom[q][0] += x[q] * x[q];
        mom[q][1] += x[q] * y[q];
        mom[q][2] += y[q] * y[q];
    }
    return n < nctas && n >= RF_KCHAR_MC_MIN_CTAS
        && (n - RF_KCHAR_MC_MIN_CTAS) % RF_KCHAR_MC_STEP == 0
        && ratio_rel_se(n, work, crit, mom[0][0], mom[0][1], mom[0][2]) <= rel_se
        && ratio_rel_se(n, tt, ti, mom[1][0], mom[1][1], mom[1][2]) <= rel_se;
}

/* A walked set's figures from its sums over cs->nctas CTAs of cs->wpc
 * warps: work, critical and live time, instructions and lone cycles,
 * memory and other stall cycles, waits ending a turn, memory waits and
 * drains. */
static void set_figures(rf_ctaset *cs, double work, double crit, double live, double ti,
                        double tt, double sm, double sd, double nev, double nmw, double drain)
{
    cs->active_frac = crit > 0 ? work / crit : 1.0;
    cs->cpi_lone = ti > 0 ? tt / ti : 1.0;
    cs->live_frac = crit > 0 ? live / crit : 1.0;
    cs->s_mem = ti > 0 ? sm / ti : 0.0;
    cs->s_dep = ti > 0 ? sd / ti : 0.0;
    cs->mem_waits = ti > 0 ? nmw / ti : 0.0;
    /* Each warp's exit ends its last turn. */
    double turns = nev + (double)cs->nctas * cs->wpc;
    cs->turn_insts = ti > 0 ? ti / turns : 1.0;
    cs->wait_share = ti > 0 ? nev / ti : 0.0;
    cs->drain = drain / cs->nctas;
}

/* ctaset_walk of CTAs `from` walked from the same first CTA, all of them
 * there: the walk's figures, summed in its order from from's rows, sums and
 * drains (its stopping rule on them too), over a view of from's rows
 * (rf_ctaset.view). */
static int ctaset_prefix(const rf_ctaset *from, int nctas, double rel_se, rf_ctaset **out,
                         rf_err *err)
{
    int wpc = from->wpc;
    double work = 0, crit = 0, live = 0, ti = 0, tt = 0, drain = 0;
    double mom[2][3] = {{0}};
    for (int c = 0; c < nctas; c++) {
        double work0 = work, crit0 = crit, ti0 = ti, tt0 = tt;
        int nph = from->nph[c];
        for (int w = 0; w < wpc; w++) {
            const float *I = rf_ctaset_insts(from, c, w), *T = rf_ctaset_time(from, c, w);
            for (int ph = 0; ph < nph; ph++) {
                ti += I[ph];
                tt += T[ph];
            }
        }
        drain += from->cta_drain[c];
        work += from->cta_crit[3 * c];
        crit += from->cta_crit[3 * c + 1];
        live += from->cta_crit[3 * c + 2];
        if (rel_se > 0
            && sample_stops(mom, c + 1, nctas, work, crit, tt, ti, work - work0, crit - crit0,
                            tt - tt0, ti - ti0, rel_se)) {
            nctas = c + 1;
            break;
        }
    }
    rf_ctaset *cs = calloc(1, sizeof *cs);
    if (!cs)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "kernel characteristics: out of memory");
    *cs = *from;
    cs->view = true;
    cs->nctas = nctas;
    const double *run = from->run + 4 * (size_t)(nctas - 1);
    set_figures(cs, work, crit, live, ti, tt, run[0], run[1], run[2], run[3], drain);
    *out = cs;
    return RF_OK;
}

/* The CTA walk of rf_kchar_ctaset.  With rel_se > 0 it stops early, after
 * RF_KCHAR_MC_MIN_CTAS CTAs or any later multiple of RF_KCHAR_MC_STEP,
 * once the relative standard errors over CTAs of active_frac (work over
 * critical time) and of cpi_lone (lone cycles over instructions) are both
 * at most rel_se; cs->nctas is then the CTAs walked.  With jobs > 1 the
 * CTAs are walked on up to jobs threads (walk_cta into per-CTA slots, in
 * blocks of WALK_BLOCK, see walk_job_run) and folded into the
 * set, the sums and the stopping rule in CTA order as the serial walk does:
 * the same set to the bit; CTAs walked past an early stop are dropped.
 * CTAs that `from` (walked from the same first CTA) holds are taken from
 * it; where it holds all of them the set is ctaset_prefix's view. */
static int ctaset_walk(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof, int wpc,
                       long first_cta, int nctas, long stride, uint64_t seed, double rel_se,
                       const rf_ctaset *from, int jobs, rf_ctaset **out, rf_err *err)
{
    *out = NULL;
    if (f->nblocks > RF_KIR_MAX_BLOCKS)
        return rf_kir_block_limit(f, NULL, err);
    if (wpc < 1)
        wpc = 1;
    if (nctas < 1)
        nctas = 1;
    if (from && from->run && from->cta_crit && from->cta_drain && from->seed == seed
        && from->stride == stride && from->wpc == wpc && from->first_cta == first_cta
        && from->nctas >= nctas)
        return ctaset_prefix(from, nctas, rel_se, out, err);
    rf_ctaset *cs = calloc(1, sizeof *cs);
    double *ready = malloc(sizeof *ready * NREG);
    bool *from_mem = malloc(sizeof *from_mem * NREG);
    walk_prog prog;
    int prc = walk_prog_make(gpu, f, prof, &prog);
    /* A CTA is walked into scratch rows (doubled when a warp has more
     * phases, up to MC_WALKPH), then stored after the CTAs before it, its
     * warps' rows nph long (at most MC_MAXPH).  The rows are allocated for
     * every CTA at MC_MAXPH phases: only the pages the CTAs' rows reach are
     * touched (a fresh page costs more than the address space). */
    int maxph = 1;
    size_t nrows = 0;           /* floats stored */
    scratch sc;
    bool sc_ok = scratch_init(&sc, wpc);
    if (cs) {
        cs->nph = calloc((size_t)nctas, sizeof *cs->nph);
        cs->cta_crit = calloc((size_t)nctas * 3, sizeof *cs->cta_crit);
        cs->cta_drain = calloc((size_t)nctas, sizeof *cs->cta_drain);
        cs->run = calloc((size_t)nctas * 4, sizeof *cs->run);
        cs->off = malloc(sizeof *cs->off * (size_t)nctas);
        float **st[NROWS] = {&cs->insts, &cs->time, &cs->mem_cyc, &cs->mem_n};
        for (int r = 0; r < NROWS; r++)
            *st[r] = malloc(sizeof **st[r] * (size_t)nctas * wpc * MC_MAXPH);
        cs->cta_step = calloc((size_t)nctas * 2, sizeof *cs->cta_step);
    }
    double work = 0, crit = 0, sm = 0, sd = 0, nev = 0, nmw = 0, drain = 0, ti = 0, tt = 0;
    double live = 0;
    int rc = prc;
    rf_pool pool;               /* the threaded walk (par) */
    bool par = false;
    walk_job wj = {gpu, f, prof, &prog, seed, first_cta, stride, wpc, 0, 0, 0, NULL, NULL, NULL,
                   NULL};
    walk_memo memo = {NULL};
    if (!rc && !memo_init(&memo, &prog))
        rc = RF_ENOMEM;
    float *stored[NROWS] = {NULL};
    if (cs)
        ctaset_rows(cs, stored);
    bool rows_ok = true;
    for (int r = 0; r < NROWS; r++)
        rows_ok &= stored[r] != NULL;
    if (!rc && (!cs || !ready || !from_mem || !sc_ok || !cs->nph || !cs->off || !rows_ok
                || !cs->cta_step || !cs->cta_drain || !cs->run || !cs->cta_crit))
        rc = RF_ENOMEM;
    if (rc)
        goto done;
    cs->nctas = nctas;
    cs->wpc = wpc;
    cs->maxph = maxph;
    double mom[2][3] = {{0}};   /* per-CTA moments: active_frac, cpi_lone */
    /* CTAs `from` walked from the same first CTA are taken from it: the
     * same rows, drain and running sums as walking them again. */
    int nfrom = from && from->run && from->seed == seed && from->stride == stride
                    && from->wpc == wpc && from->first_cta == first_cta ? from->nctas : 0;
    if (nfrom > nctas)
        nfrom = nctas;
    /* The threaded walk starts once WALK_PAR_FIRST CTAs are folded (taken
     * from `from` or walked here: trip counts drawn per CTA make one CTA a
     * poor guide), where the CTAs left pay for the threads at the folded
     * CTAs' mean (WALK_PAR_INSTS); wj.nfrom is then its first CTA. */
    int par_at = nfrom > WALK_PAR_FIRST ? nfrom : WALK_PAR_FIRST;
    if (jobs < 2)
        par_at = nctas;
    cta_slot *slot = NULL;
    int nslot = 0;
    for (int c = 0; c < nctas; c++) {
        if (c == par_at && nctas - c > 1
            && ti / c * (nctas - c)
                   >= WALK_PAR_INSTS + WALK_PAR_FLOAT * 2.0 * (double)nrows / c * (nctas - c)) {
            rc = walk_par_start(&wj, &pool, jobs, c, nctas, err);
            if (rc)
                goto done;
            par = true;
            slot = wj.slot;
            nslot = wj.nslot;
        }
        double work0 = work, crit0 = crit, ti0 = ti, tt0 = tt;
        float *row[NROWS], *P;
        int nph;
        double cta_drain;
        double cw = 0, cc = 0, cl = 0;  /* the CTA's work, critical and live time */
        double cst[2] = {0, 0};         /* and its time alone (cta_step) */
        int used;                       /* phases of the rows written */
        int scap = sc.cap;      /* the rows are zero (calloc, then cleared below) */
        if (c < nfrom) {
            memcpy(row, sc.row, sizeof row);
            P = sc.P;
            nph = from->nph[c];
            used = nph;
            float *fr[NROWS];
            ctaset_rows(from, fr);
            for (int r = 0; r < NROWS; r++)
                for (int w = 0; fr[r] && w < wpc; w++)
                    memcpy(row[r] + (size_t)w * scap, fr[r] + from->off[c] + (size_t)w * nph,
                           sizeof *row[r] * (size_t)nph);
            cw = from->cta_crit[3 * c];
            cc = from->cta_crit[3 * c + 1];
            cl = from->cta_crit[3 * c + 2];
            cst[0] = from->cta_step ? from->cta_step[2 * c] : cc;
            cst[1] = from->cta_step ? from->cta_step[2 * c + 1] : cc;
            cta_drain = from->cta_drain[c];
            sm = from->run[4 * c];
            sd = from->run[4 * c + 1];
            nev = from->run[4 * c + 2];
            nmw = from->run[4 * c + 3];
        } else if (par) {
            /* Walked on a thread into its slot: its sums added as the
             * serial walk adds them. */
            int rcw = rf_pool_wait(&pool, (c - wj.nfrom) / WALK_BLOCK);
            cta_slot *sl = &slot[(c - wj.nfrom) % nslot];
            if (rcw) {
                rc = RF_ENOMEM;
                goto done;
            }
            sm += sl->sm;
            sd += sl->sd;
            nev += sl->nev;
            nmw += sl->nmw;
            nph = sl->nph;
            used = sl->used;
            cta_drain = sl->drain;
            cw = sl->cw;
            cc = sl->cc;
            cl = sl->cl;
            cst[0] = sl->step[0];
            cst[1] = sl->step[1];
            scap = sl->sc.cap;
            memcpy(row, sl->sc.row, sizeof row);
            P = sl->sc.P;
        } else {
            bool oom = false;
            double csm = 0, csd = 0, cev = 0, cmw = 0;
            walk_cta(gpu, f, prof, &prog, &memo, seed, (uint64_t)((first_cta + c) * stride), wpc,
                     ready,
                     from_mem, &sc, &csm, &csd, &cev, &cmw, &nph, &used, &cta_drain, &cw, &cc,
                     &cl, cst, &oom);
            sm += csm;
            sd += csd;
            nev += cev;
            nmw += cmw;
            if (oom) {
                rc = RF_ENOMEM;
                goto done;
            }
            scap = sc.cap;
            memcpy(row, sc.row, sizeof row);
            P = sc.P;
        }
        drain += cta_drain;
        cs->cta_drain[c] = cta_drain;
        cs->cta_crit[3 * c] = cw;
        cs->cta_crit[3 * c + 1] = cc;
        cs->cta_crit[3 * c + 2] = cl;
        cs->cta_step[2 * c] = cst[0];
        cs->cta_step[2 * c + 1] = cst[1];
        cs->run[4 * c] = sm;
        cs->run[4 * c + 1] = sd;
        cs->run[4 * c + 2] = nev;
        cs->run[4 * c + 3] = nmw;
        cs->nph[c] = nph;
        maxph = nph > maxph ? nph : maxph;
        cs->maxph = maxph;
        cs->off[c] = nrows;
        for (int w = 0; w < wpc; w++) {
            size_t at = nrows + (size_t)w * nph, rw = (size_t)w * scap;
            for (int ph = 0; ph < nph; ph++) {
                ti += row[R_I][rw + ph];
                tt += row[R_T][rw + ph];
            }
            for (int r = 0; r < NROWS; r++) {
                memcpy(stored[r] + at, row[r] + rw, sizeof *row[r] * (size_t)nph);
                memset(row[r] + rw, 0, sizeof *row[r] * (size_t)used);
            }
        }
        memset(P, 0, sizeof *P * 2 * (size_t)used);
        nrows += (size_t)wpc * nph;
        work += cw;
        crit += cc;
        live += cl;
        /* A block taken: its slots free again for the block nslot on. */
        if (par && c >= wj.nfrom && ((c - wj.nfrom + 1) % WALK_BLOCK == 0 || c + 1 == nctas))
            rf_pool_release(&pool, (c - wj.nfrom) / WALK_BLOCK + 1 + nslot / WALK_BLOCK);
        if (rel_se > 0
            && sample_stops(mom, c + 1, nctas, work, crit, tt, ti, work - work0, crit - crit0,
                            tt - tt0, ti - ti0, rel_se)) {
            nctas = c + 1;
            break;
        }
    }
    cs->nctas = nctas;
    cs->seed = seed;
    cs->first_cta = first_cta;
    cs->stride = stride;
done:
    /* One exit: the scratch always freed, the set handed back or freed. */
    if (par)
        rf_pool_finish(&pool);
    for (int q = 0; q < wj.nslot; q++)
        scratch_free(&wj.slot[q].sc);
    free(wj.slot);
    free(wj.ready);
    free(wj.from_mem);
    for (int q = 0; wj.memo && q < wj.nslot / WALK_BLOCK; q++)
        free(wj.memo[q].e);
    free(wj.memo);
    free(memo.e);
    if (prc == RF_OK)
        walk_prog_free(&prog);
    free(ready);
    free(from_mem);
    scratch_free(&sc);
    if (rc) {
        rf_kchar_ctaset_free(cs);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "kernel characteristics: out of memory");
    }
    set_figures(cs, work, crit, live, ti, tt, sm, sd, nev, nmw, drain);
    *out = cs;
    return RF_OK;
}

int rf_kchar_ctaset(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof, int wpc,
                    long first_cta, int nctas, long stride, uint64_t seed, rf_ctaset **out,
                    rf_err *err)
{
    return ctaset_walk(gpu, f, prof, wpc, first_cta, nctas, stride > 1 ? stride : 1, seed, 0.0,
                       NULL, 1, out, err);
}

/* rf_kchar_ctaset_slice (copy) and rf_kchar_ctaset_view (src's rows in
 * place). */
static int ctaset_subset(const rf_ctaset *src, int first, int nctas, bool copy,
                         rf_ctaset **out, rf_err *err)
{
    *out = NULL;
    if (first < 0 || nctas < 1 || first + nctas > src->nctas)
        return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, NULL,
                          "CTA set slice %d..%d of %d CTAs", first, first + nctas, src->nctas);
    if (!src->cta_drain)
        copy = true;            /* a slice's drains are its own (zeros) */
    /* The slice's rows: src's from its first CTA's to its last's end. */
    size_t from = src->off[first], to = rf_ctaset_end(src, first + nctas - 1);
    rf_ctaset *cs = calloc(1, sizeof *cs);
    if (!cs)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "kernel characteristics: out of memory");
    *cs = *src;
    cs->run = NULL;
    cs->nctas = nctas;
    cs->first_cta = src->first_cta + first;
    if (copy) {
        cs->view = false;
        cs->nph = malloc(sizeof *cs->nph * (size_t)nctas);
        cs->off = malloc(sizeof *cs->off * (size_t)nctas);
        cs->insts = malloc(sizeof *cs->insts * (to - from));
        cs->time = malloc(sizeof *cs->time * (to - from));
        cs->mem_cyc = src->mem_cyc ? malloc(sizeof *cs->mem_cyc * (to - from)) : NULL;
        cs->mem_n = src->mem_n ? malloc(sizeof *cs->mem_n * (to - from)) : NULL;
        cs->cta_step = src->cta_step ? malloc(sizeof *cs->cta_step * (size_t)nctas * 2) : NULL;
        cs->cta_drain = malloc(sizeof *cs->cta_drain * (size_t)nctas);
        cs->cta_crit = src->cta_crit ? malloc(sizeof *cs->cta_crit * 3 * (size_t)nctas) : NULL;
        if (!cs->nph || !cs->off || !cs->insts || !cs->time || !cs->cta_drain
            || (src->cta_crit && !cs->cta_crit) || (src->cta_step && !cs->cta_step)
            || (src->mem_cyc && !cs->mem_cyc) || (src->mem_n && !cs->mem_n)) {
            rf_kchar_ctaset_free(cs);
            return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL,
                              "kernel characteristics: out of memory");
        }
        if (src->cta_crit)
            memcpy(cs->cta_crit, src->cta_crit + 3 * (size_t)first,
                   sizeof *cs->cta_crit * 3 * (size_t)nctas);
        if (src->cta_drain)
            memcpy(cs->cta_drain, src->cta_drain + first, sizeof *cs->cta_drain * (size_t)nctas);
        else
            memset(cs->cta_drain, 0, sizeof *cs->cta_drain * (size_t)nctas);
        memcpy(cs->nph, src->nph + first, sizeof *cs->nph * (size_t)nctas);
        for (int c = 0; c < nctas; c++)
            cs->off[c] = src->off[first + c] - from;
        memcpy(cs->insts, src->insts + from, sizeof *cs->insts * (to - from));
        memcpy(cs->time, src->time + from, sizeof *cs->time * (to - from));
        if (src->mem_cyc)
            memcpy(cs->mem_cyc, src->mem_cyc + from, sizeof *cs->mem_cyc * (to - from));
        if (src->mem_n)
            memcpy(cs->mem_n, src->mem_n + from, sizeof *cs->mem_n * (to - from));
        if (src->cta_step)
            memcpy(cs->cta_step, src->cta_step + 2 * first, sizeof *cs->cta_step * (size_t)nctas * 2);
    } else {
        cs->view = true;
        cs->nph = src->nph + first;
        cs->off = src->off + first;
        cs->cta_crit = src->cta_crit ? src->cta_crit + 3 * (size_t)first : NULL;
        cs->cta_step = src->cta_step ? src->cta_step + 2 * first : NULL;
        cs->cta_drain = src->cta_drain + first;
    }
    /* The ratios over the slice's CTAs, summed as the walk sums them (the
     * work, critical and live times from cta_crit where the walk kept them). */
    double work = 0, crit = 0, live = 0, ti = 0, tt = 0;
    for (int c = 0; c < nctas; c++) {
        const float *I = rf_ctaset_insts(cs, c, 0), *T = rf_ctaset_time(cs, c, 0);
        int nph = cs->nph[c];
        double cw = 0, cc = 0, cl = 0;
        for (int ph = 0; ph < nph; ph++) {
            double mx = 0, sum = 0;
            for (int w = 0; w < cs->wpc; w++) {
                double v = T[(size_t)w * nph + ph];
                sum += v;
                mx = v > mx ? v : mx;
                ti += I[(size_t)w * nph + ph];
                tt += v;
            }
            cw += sum / cs->wpc;
            cc += mx;
            cl += ph < nph - 1 ? mx : sum / cs->wpc;
        }
        if (cs->cta_crit) {
            cw = cs->cta_crit[3 * c];
            cc = cs->cta_crit[3 * c + 1];
            cl = cs->cta_crit[3 * c + 2];
        }
        work += cw;
        crit += cc;
        live += cl;
    }
    cs->active_frac = crit > 0 ? work / crit : 1.0;
    cs->cpi_lone = ti > 0 ? tt / ti : 1.0;
    cs->live_frac = crit > 0 ? live / crit : 1.0;
    *out = cs;
    return RF_OK;
}

int rf_kchar_ctaset_slice(const rf_ctaset *src, int first, int nctas, rf_ctaset **out,
                          rf_err *err)
{
    return ctaset_subset(src, first, nctas, true, out, err);
}

int rf_kchar_ctaset_view(const rf_ctaset *src, int first, int nctas, rf_ctaset **out,
                         rf_err *err)
{
    return ctaset_subset(src, first, nctas, false, out, err);
}

int rf_kchar_ctaset_reuse(const rf_ctaset *const *have, int nhave, const rf_gpu *gpu,
                          const rf_func *f, const rf_profile *prof, int wpc, long first_cta,
                          int nctas, long stride, uint64_t seed, rf_ctaset **out, rf_err *err)
{
    return rf_kchar_ctaset_reuse_jobs(have, nhave, gpu, f, prof, wpc, first_cta, nctas, stride,
                                      seed, 1, out, err);
}

int rf_kchar_ctaset_reuse_jobs(const rf_ctaset *const *have, int nhave, const rf_gpu *gpu,
                               const rf_func *f, const rf_profile *prof, int wpc,
                               long first_cta, int nctas, long stride, uint64_t seed, int jobs,
                               rf_ctaset **out, rf_err *err)
{
    if (stride < 1)
        stride = 1;
    for (int h = 0; h < nhave; h++) {
        const rf_ctaset *src = have[h];
        if (src && src->seed == seed && src->stride == stride && src->wpc == (wpc < 1 ? 1 : wpc)
            && first_cta >= src->first_cta && nctas >= 1
            && first_cta + nctas <= src->first_cta + src->nctas)
            return rf_kchar_ctaset_view(src, (int)(first_cta - src->first_cta), nctas, out, err);
    }
    return ctaset_walk(gpu, f, prof, wpc, first_cta, nctas, stride, seed, 0.0, NULL, jobs, out,
                       err);
}

/* Two-level pool balance (rf_ipc_kernel.pool_eff).  The sampler binds
 * warp slot i to scheduler i mod S (a CTA in slot c holds slots c wpc ..
 * c wpc + wpc - 1), gives each scheduler a pool of p places, and frees a
 * CTA's slots only when all its warps have ended; trip counts are drawn
 * per warp, so one scheduler may hold the long warps of several resident
 * CTAs while the others have ended theirs and wait for those CTAs' slots.
 * The pool's places then stand empty although the SM's issuing warps
 * outnumber them.  A fluid of the resident warps measures it on the
 * sample's CTAs (cycled, in order), with the sampler's pool discipline
 * (sampler/scheduler.c): a place holds its warp until the warp waits on
 * memory, reaches a barrier or ends; the CTA's last warp to reach a
 * barrier releases it and keeps its place; a freed place takes the
 * scheduler's ready warp that left a place longest ago (first in, first
 * out; a warp back from memory keeps the turn of its leaving).  A pool warp
 * issues at one pace, an instruction per unit of time; a warp waiting on
 * memory is neither ready nor in the pool; a warp at a barrier waits for
 * its CTA's others; a CTA whose warps have all ended frees its slot to
 * the next CTA.  Memory waits per barrier phase: the lone walk's stalls on
 * a load there (rf_ctaset.mem_n; a stall of any length sends the sampler's
 * warp out of its place), placed evenly through the phase, each lasting
 * the phase's stall cycles over their number (mem_cyc / mem_n) in
 * instructions of the pace (cycles / (1 + s_dep)).  Over the steady state
 * (after the first 2 n CTAs end, until the last of n + max(6 n, 48)
 * starts, or RF_POOL_EVENTS events):
 *   pool_eff = integral sum_s min(p, a_s) / integral min(S p, sum_s a_s)
 * (a_s: the ready warps of scheduler s).  Assumptions: a warp's memory
 * waits fall evenly in its phase and last as long as a lone warp's (no
 * queue at DRAM); a warp that exits before its CTA's last barrier passes
 * the later ones as empty phases, taking a place for none of its time
 * but waiting its turn in the queue (the sampler's barrier counts only
 * the live warps); a CTA's barrier phases are taken in at most
 * RF_POOL_GROUPS groups of consecutive phases (the barriers between a
 * group's phases are dropped).  Measured on the built-in SM model,
 * maxwell-ltrf, one SM, 8 active warps (p = 2), the sampler's ratio over
 * its whole run, counted per cycle, against the fluid's: nearest 0.709 /
 * 0.71, nbody 0.752 / 0.75, lu_update 0.909 / 0.91, jacobi9 0.995 / 1.00,
 * libor 0.817 / 0.79, sfu 0.729 / 0.78, hotspot 0.897 / 0.95, trsv 0.854
 * / 0.91, kmeans 0.827 / 0.93, bscholes 0.783 / 1.00 (DRAM-bound: its
 * waits queue). */
#define RF_POOL_GROUPS 64
#define RF_POOL_MAXSCHED 16
#define RF_POOL_EVENTS 20000

typedef struct pool_sample {
    int nctas, wpc, ngrp;
    const int *nph;          /* [nctas] groups of each CTA */
    const double *ins;       /* [(cta * wpc + warp) * ngrp + group] instructions */
    const float *nwait;      /* same layout: memory waits */
    const float *wait;       /* same layout: each wait, in instructions of the pace */
} pool_sample;

/* The sample's warp that slot warp w of the `next`-th CTA of the fluid
 * takes: the sample's CTAs are cycled, and each pass after the first
 * turns a CTA's warps by a mixed amount, so that a CTA slot does not meet
 * the same warps on the same schedulers every pass. */
static int pool_warp(long next, int nctas, int wpc, int w)
{
    uint64_t m = (uint64_t)(next / nctas), x = m * 0x9E3779B97F4A7C15ull + (uint64_t)(next % nctas);
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return m == 0 ? w : (int)((w + x % (uint64_t)wpc) % (uint64_t)wpc);
}

enum { PW_EMPTY, PW_READY, PW_WAIT, PW_BAR, PW_END };

/* One warp slot of the fluid (pool_run's ev[slot]: when the warp's run in
 * its place ends, or its memory wait does; INFINITY otherwise). */
typedef struct pool_warp_st {
    int st, ph, row, inpool, left;  /* left: memory waits still ahead in the phase */
    long seq;                       /* queue order: when it last left a place */
    double rem, seg, wait;          /* instructions to its next stop, per segment, a wait */
} pool_warp_st;

/* Warp f starts phase f->ph of its sample row. */
static void pool_phase(const pool_sample *ps, pool_warp_st *f)
{
    size_t at = (size_t)f->row * ps->ngrp + f->ph;
    f->left = (int)ps->nwait[at];
    f->seg = ps->ins[at] / (f->left + 1);
    f->rem = f->seg;
    f->wait = ps->wait[at];
}

/* A binary min-heap of (key, warp) for pool_run: its pending events by
 * time, one entry per warp with a finite ev (a warp's ev is set only from
 * INFINITY, or when its event is taken), and per scheduler its ready warps
 * outside the pool by queue order (a warp enters when it becomes ready
 * outside the pool and leaves only when a place takes it).  No entry is
 * ever stale, and queue orders are distinct. */
typedef struct pool_heap {
    double *t;
    int *w, n;
} pool_heap;

static void pool_heap_push(pool_heap *h, double t, int w)
{
    int i = h->n++;
    while (i > 0 && h->t[(i - 1) / 2] > t) {
        h->t[i] = h->t[(i - 1) / 2];
        h->w[i] = h->w[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->t[i] = t;
    h->w[i] = w;
}

static int pool_heap_pop(pool_heap *h)
{
    int top = h->w[0];
    double t = h->t[--h->n];
    int w = h->w[h->n], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->t[c + 1] < h->t[c])
            c++;
        if (!(h->t[c] < t))
            break;
        h->t[i] = h->t[c];
        h->w[i] = h->w[c];
        i = c;
    }
    h->t[i] = t;
    h->w[i] = w;
    return top;
}

static double pool_run(const pool_sample *ps, int nsched, int per, int n, pool_warp_st *fw,
                       double *ev, pool_heap *h, pool_heap *rq, int *due, int *nbar, int *nend)
{
    int wpc = ps->wpc, nslot = n * wpc;
    long total = n + (6L * n > 48 ? 6L * n : 48), next = 0, done = 0, seq = 0, events = 0;
    long from = 2L * n;
    int ready[RF_POOL_MAXSCHED], held[RF_POOL_MAXSCHED], sum = 0, launch = n;
    for (int s = 0; s < nsched; s++)
        ready[s] = held[s] = 0;
    for (int i = 0; i < nslot; i++) {
        fw[i].st = PW_EMPTY;
        fw[i].inpool = 0;
        ev[i] = INFINITY;
    }
    for (int c = 0; c < n; c++)
        nbar[c] = nend[c] = 0;  /* each CTA slot's warps at a barrier, ended */
    double num = 0, den = 0, t = 0;
    h->n = 0;
    for (int s = 0; s < nsched; s++)
        rq[s].n = 0;
    unsigned fill = (1u << nsched) - 1;
    while (done < total && events < RF_POOL_EVENTS) {
        /* Fill the free CTA slots from the sample. */
        for (int c = 0; c < n && launch > 0; c++) {
            if (fw[c * wpc].st != PW_EMPTY || next >= total)
                continue;
            int src = (int)(next % ps->nctas);
            for (int w = 0; w < wpc; w++) {
                int i = c * wpc + w;
                pool_warp_st *f = &fw[i];
                f->row = src * wpc + pool_warp(next, ps->nctas, wpc, w);
                f->ph = 0;
                pool_phase(ps, f);
                f->st = PW_READY;
                f->inpool = 0;
                f->seq = seq++;
                pool_heap_push(&rq[i % nsched], (double)f->seq, i);
                ready[i % nsched]++;
                sum++;
                fill |= 1u << (i % nsched);
            }
            next++;
            launch--;
        }
        /* Free places take their scheduler's ready warps that left a place
         * longest ago. */
        for (int s = 0; s < nsched; s++) {
            if (!(fill >> s & 1u))
                continue;
            while (held[s] < per && held[s] < ready[s]) {
                int best = pool_heap_pop(&rq[s]);
                fw[best].inpool = 1;
                ev[best] = t + fw[best].rem;
                pool_heap_push(h, ev[best], best);
                held[s]++;
            }
        }
        fill = 0;
        if (h->n == 0)
            break;
        double tn = h->t[0];    /* the least ev */
        double dt = tn > t ? tn - t : 0;
        if (done >= from && next < total) {
            double u = 0;
            for (int s = 0; s < nsched; s++)
                u += ready[s] < per ? ready[s] : per;
            num += u * dt;
            den += (sum < nsched * per ? sum : nsched * per) * dt;
            events++;
        }
        t = tn > t ? tn : t;
        double lim = t + 1e-9 * (1.0 + t);
        /* The warps whose events are due, taken in warp order. */
        int ndue = 0;
        while (h->n > 0 && !(h->t[0] > lim)) {
            int w = pool_heap_pop(h), x = ndue++;
            for (; x > 0 && due[x - 1] > w; x--)
                due[x] = due[x - 1];
            due[x] = w;
        }
        for (int x = 0; x < ndue; x++) {
            int i = due[x];
            pool_warp_st *f = &fw[i];
            int s = i % nsched;
            ev[i] = INFINITY;
            fill |= 1u << s;
            if (f->st == PW_WAIT) {     /* back from memory: ready */
                f->st = PW_READY;
                f->rem = f->seg;
                f->left--;
                pool_heap_push(&rq[s], (double)f->seq, i);
                ready[s]++;
                sum++;
                continue;
            }
            int c = i / wpc;
            if (f->left == 0 && f->ph + 1 < ps->nph[f->row / wpc]) {
                /* The CTA's last warp to reach the barrier releases it and
                 * keeps its place for its next phase; every waiting warp
                 * starts its next phase too. */
                if (nbar[c] + nend[c] == wpc - 1) {
                    f->ph++;
                    pool_phase(ps, f);
                    ev[i] = t + f->rem;
                    pool_heap_push(h, ev[i], i);
                    for (int w = 0; w < wpc; w++) {
                        int q = c * wpc + w;
                        pool_warp_st *g = &fw[q];
                        if (g->st != PW_BAR)
                            continue;
                        g->ph++;
                        pool_phase(ps, g);
                        g->st = PW_READY;
                        nbar[c]--;
                        pool_heap_push(&rq[q % nsched], (double)g->seq, q);
                        ready[q % nsched]++;
                        sum++;
                        fill |= 1u << (q % nsched);
                    }
                    continue;
                }
            }
            f->inpool = 0;
            f->seq = seq++;
            held[s]--;
            ready[s]--;
            sum--;
            if (f->left > 0) {
                f->st = PW_WAIT;
                ev[i] = t + f->wait;
                pool_heap_push(h, ev[i], i);
                continue;
            }
            /* At a barrier others will release (every warp of the CTA
             * takes its phase count, an early exit's later phases empty, so
             * none waits on an ended warp), or at its end. */
            f->st = f->ph + 1 >= ps->nph[f->row / wpc] ? PW_END : PW_BAR;
            if (f->st == PW_BAR)
                nbar[c]++;
            else if (++nend[c] == wpc) {
                done++;
                for (int w = 0; w < wpc; w++)
                    fw[c * wpc + w].st = PW_EMPTY;
                nend[c] = 0;
                launch++;
            }
        }
    }
    return den > 0 ? num / den : 1.0;
}

/* The CTA counts of the table: about half the baseline's resident CTAs n0,
 * n0, midway to the most the GPU holds of the kernel's CTAs, and that
 * most (ascending, each once; 0 past the last). */
static void pool_grid(const rf_gpu *gpu, int wpc, int n0, int grid[RF_IPC_NPOOLN])
{
    int maxw = gpu->max_warps_per_sm > 0 ? gpu->max_warps_per_sm : 64;
    int maxc = gpu->max_ctas_per_sm > 0 ? gpu->max_ctas_per_sm : 32;
    int nmax = maxw / (wpc > 0 ? wpc : 1);
    if (nmax > maxc)
        nmax = maxc;
    if (nmax < 1)
        nmax = 1;
    if (n0 < 1 || n0 > nmax)
        n0 = nmax;
    int want[2] = {n0, nmax}, k = 0;
    memset(grid, 0, sizeof(int) * RF_IPC_NPOOLN);
    for (int i = 0; i < 2 && k < RF_IPC_NPOOLN; i++)
        if (k == 0 || want[i] > grid[k - 1])
            grid[k++] = want[i];
}

/* The sample of pool_run: cs's CTAs with their phases in at most
 * RF_POOL_GROUPS groups and their memory waits (header); ps's arrays in
 * one block, *buf. */
static int pool_sample_of(const rf_ctaset *cs, pool_sample *ps, void **buf)
{
    int wpc = cs->wpc;
    size_t rows = (size_t)cs->nctas * wpc, cells = rows * RF_POOL_GROUPS;
    double *ins = malloc(sizeof *ins * cells + 2 * sizeof(float) * cells
                         + sizeof(int) * (size_t)cs->nctas);
    if (!ins)
        return RF_ENOMEM;
    float *nwait = (float *)(ins + cells), *wait = nwait + cells;
    int *nph = (int *)(wait + cells);
    double busy = 1.0 + cs->s_dep;
    for (int c = 0; c < cs->nctas; c++) {
        int stored = cs->nph[c];
        int g = stored < RF_POOL_GROUPS ? stored : RF_POOL_GROUPS;
        nph[c] = g;
        for (int w = 0; w < wpc; w++)
            for (int q = 0; q < g; q++) {
                double in = 0, mc = 0, mn = 0;
                size_t row = cs->off[c] + (size_t)w * (size_t)stored;
                for (int x = q * stored / g; x < (q + 1) * stored / g; x++) {
                    in += rf_ctaset_insts(cs, c, w)[x];
                    mc += cs->mem_cyc ? cs->mem_cyc[row + x] : 0;
                    mn += cs->mem_n ? cs->mem_n[row + x] : 0;
                }
                size_t at = ((size_t)c * wpc + w) * RF_POOL_GROUPS + q;
                double k = mn < in - 1 ? mn : in > 1 ? in - 1 : 0;
                ins[at] = in;
                nwait[at] = (float)k;
                wait[at] = k > 0 ? (float)(mc / k / busy) : 0.0f;
            }
    }
    *ps = (pool_sample){cs->nctas, wpc, RF_POOL_GROUPS, nph, ins, nwait, wait};
    *buf = ins;
    return RF_OK;
}

/* pool_run on sample ps with its own scratch; 1 where each scheduler's
 * places hold all its warps, -1 when out of memory. */
static double pool_eff_of(const pool_sample *ps, int nsched, int per, int n)
{
    int wpc = ps->wpc;
    if (nsched < 1 || nsched > RF_POOL_MAXSCHED || per < 1 || n < 1 || ps->nctas < 1 || wpc < 1
        || per >= (n * wpc + nsched - 1) / nsched)
        return 1.0;         /* places for every warp of a scheduler: nothing to balance */
    size_t ns = (size_t)n * wpc;
    pool_warp_st *fw = malloc(sizeof *fw * ns);
    double *ev = malloc(sizeof *ev * ns);
    /* The event heap, then one ready queue per scheduler, ns places each. */
    double *keys = malloc(sizeof *keys * ns * (size_t)(nsched + 1));
    int *ws = malloc(sizeof *ws * ns * (size_t)(nsched + 1));
    int *due = malloc(sizeof *due * ns);
    int *counts = malloc(sizeof *counts * 2 * (size_t)n);    /* nbar[n], then nend[n] */
    pool_heap h = {keys, ws, 0}, rq[RF_POOL_MAXSCHED];
    for (int s = 0; keys && ws && s < nsched; s++)
        rq[s] = (pool_heap){keys + ns * (size_t)(s + 1), ws + ns * (size_t)(s + 1), 0};
    double e = fw && ev && keys && ws && due && counts
                   ? pool_run(ps, nsched, per, n, fw, ev, &h, rq, due, counts, counts + n)
                   : -1.0;
    free(fw);
    free(ev);
    free(keys);
    free(ws);
    free(due);
    free(counts);
    return e;
}

double rf_kchar_pool_eff(const rf_ctaset *cs, int nsched, int per, int n)
{
    if (cs->nctas < 1 || cs->wpc < 1)
        return 1.0;
    pool_sample ps;
    void *buf;
    if (pool_sample_of(cs, &ps, &buf) != RF_OK)
        return -1.0;
    double e = pool_eff_of(&ps, nsched, per, n);
    free(buf);
    return e;
}

/* The table of pool_eff_of at 2^i places per scheduler (the rows of
 * `rows`, bit i: the others stay 0) and the CTA counts of pool_grid, one
 * job per entry (each writes its own), on one sample. */
typedef struct pool_job {
    const pool_sample *ps;
    int nsched;
    unsigned rows;
    rf_ipc_kernel *out;
} pool_job;

static int pool_job_run(int e, void *ctx)
{
    pool_job *pj = ctx;
    int i = e / RF_IPC_NPOOLN, j = e % RF_IPC_NPOOLN;
    if (!(pj->out->pool_n[j] > 0) || !(pj->rows >> i & 1u))
        return RF_OK;
    double v = pool_eff_of(pj->ps, pj->nsched, 1 << i, pj->out->pool_n[j]);
    if (v < 0)
        return RF_ENOMEM;
    pj->out->pool_eff[i][j] = (float)v;
    return RF_OK;
}

static int pool_balance(const rf_gpu *gpu, const rf_ctaset *cs, int n0, int jobs,
                        unsigned rows, rf_ipc_kernel *out, rf_err *err)
{
    if (cs->nctas < 1 || cs->wpc < 1)
        return RF_OK;
    pool_grid(gpu, cs->wpc, n0, out->pool_n);
    if (!rows)
        return RF_OK;
    pool_sample ps;
    void *buf;
    if (pool_sample_of(cs, &ps, &buf) != RF_OK)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "pool balance: out of memory");
    pool_job pj = {&ps, gpu->schedulers > 0 ? gpu->schedulers : 1, rows, out};
    int rc = rf_pool_run(jobs, RF_IPC_NPOOLP * RF_IPC_NPOOLN, pool_job_run, &pj, NULL, err);
    free(buf);
    return rc ? rf_err_set(err, rc, NULL, 0, 0, NULL, "pool balance: out of memory") : RF_OK;
}

void rf_kchar_act_hist(const rf_ctaset *cs, double h[RF_IPC_MAXWPC + 1])
{
    memset(h, 0, sizeof *h * (RF_IPC_MAXWPC + 1));
    int wpc = cs->wpc;
    if (wpc < 1 || wpc > RF_IPC_MAXWPC)
        return;
    double t[RF_IPC_MAXWPC], total = 0;
    for (int c = 0; c < cs->nctas; c++) {
        int nph = cs->nph[c];
        const float *T = rf_ctaset_time(cs, c, 0);
        for (int ph = 0; ph < nph; ph++) {
            /* Insertion sort, longest first: wpc <= RF_IPC_MAXWPC. */
            for (int w = 0; w < wpc; w++) {
                double v = T[(size_t)w * nph + ph];
                int i = w;
                for (; i > 0 && t[i - 1] < v; i--)
                    t[i] = t[i - 1];
                t[i] = v;
            }
            for (int j = 1; j <= wpc; j++) {
                double span = t[j - 1] - (j < wpc ? t[j] : 0.0);
                h[j] += span;
                total += span;
            }
        }
    }
    for (int j = 0; j <= RF_IPC_MAXWPC; j++)
        h[j] = total > 0 ? h[j] / total : 0.0;
}

/* The warp instructions of CTAs a walk took: the run's CTAs first ..
 * first + n - 1 (the c-th of the run is grid CTA c stride), ins[c - first]
 * the sum of CTA c's warps'.  Whole numbers: grid_insts_per_warp takes
 * them in place of counting those CTAs' paths again. */
typedef struct cta_counts {
    long first;
    int n;
    double *ins;
} cta_counts;

/* The one of known[0 .. nknown - 1] that holds the run's CTA j, or NULL. */
static const cta_counts *known_of(const cta_counts *known, int nknown, long j)
{
    for (int q = 0; q < nknown; q++)
        if (j >= known[q].first && j < known[q].first + known[q].n)
            return &known[q];
    return NULL;
}

/* *out: the instructions of cs's CTAs (heap; out->n 0 when out of memory). */
static void counts_of(const rf_ctaset *cs, cta_counts *out)
{
    out->first = 0;
    out->n = 0;
    out->ins = malloc(sizeof *out->ins * (size_t)cs->nctas);
    if (!out->ins)
        return;
    out->first = cs->first_cta;
    out->n = cs->nctas;
    for (int c = 0; c < cs->nctas; c++)
        out->ins[c] = rf_ctaset_cta_insts(cs, c);
}

/* rf_kchar_func with the sample drawn from a run of `ctas` CTAs (0: no
 * bound) spread over `stride` SMs (the sample's c-th CTA is grid CTA
 * c stride), the CTAs of the sample that `from` walked taken from it
 * (ctaset_walk); n0 the baseline's resident CTAs for the pool balance
 * (0: unknown); the sample's instructions per CTA into *samp (NULL: not
 * wanted). */
static int kchar_func(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof,
                      int threads_per_cta, long ctas, long stride, const rf_ctaset *from,
                      int jobs, int n0, unsigned pool_rows, cta_counts *samp, rf_ipc_kernel *out,
                      rf_err *err);

/* The ends of the run's DRAM stream (rf_ipc_kernel.dram_lead and
 * dram_trail, for the DRAM drain of rf_ipc_kernel_cycles): the warps of the
 * run's first CTA (grid CTA 0) walked alone with the default draws.  The
 * lead is the earliest issue of an access that goes to DRAM (the address
 * arithmetic and parameter loads before it: the DRAM queue is idle until
 * then); the trail is the mean, over the warps with DRAM accesses, of the
 * time from the last one's data to the warp's last retirement (what a warp
 * still runs once its last load is back).  Both 0 when no walked warp
 * reaches DRAM.  Then, where the first CTA reaches no DRAM and the run
 * (`ctas` CTAs, the c-th grid CTA c stride) is short enough for its every
 * CTA to be known (at most RF_IPC_NLONE), its other CTAs are walked the
 * same way until one does: *none when none does.  The traffic per
 * instruction is the paths' expectation (the block frequencies), which a
 * run of a few CTAs need not draw: a CTA whose warps exit at a bounds
 * check, or whose few loads all hit a cache, has no DRAM access to wait
 * for. */
static int dram_ends(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof, int wpc,
                     long ctas, long stride, double *lead, double *trail, bool *none)
{
    *lead = *trail = 0;
    *none = false;
    walk_prog prog;
    int rc = walk_prog_make(gpu, f, prof, &prog);
    if (rc)
        return rc;
    scratch sc;
    bool sc_ok = scratch_init(&sc, wpc);
    double *ready = malloc(sizeof *ready * NREG);
    bool *from_mem = malloc(sizeof *from_mem * NREG);
    bool oom = !sc_ok || !ready || !from_mem;
    double first = INFINITY, tsum = 0;
    int n = 0, nph = 1;
    bool known = ctas > 0 && ctas <= RF_IPC_NLONE, found = false;
    long walk = known ? ctas : 1;
    for (long c = 0; c < walk && !found && !oom; c++) {
        uint64_t cta = (uint64_t)(c * (stride > 1 ? stride : 1));
        /* The first CTA's every warp (the stream's ends), a later one's
         * up to its first DRAM access. */
        for (int wi = 0; wi < wpc && !oom && (c == 0 || !found); wi++) {
            double at[3] = {-1.0, 0.0, 0.0}, sm = 0, sd = 0, nev = 0, nmw = 0;
            walk_warp(gpu, f, prof, &prog, NULL, NULL, prof->seed, cta,
                      cta * (uint64_t)wpc + (uint64_t)wi, ready, from_mem, &sc, wi, &sm, &sd,
                      &nev, &nmw, &nph, at, &oom);
            if (at[0] >= 0 && c == 0) {
                first = at[0] < first ? at[0] : first;
                tsum += at[2] > at[1] ? at[2] - at[1] : 0.0;
                n++;
            }
            found |= at[0] >= 0;
        }
    }
    *none = known && !found && !oom;
    scratch_free(&sc);
    free(ready);
    free(from_mem);
    walk_prog_free(&prog);
    if (oom)
        return RF_ENOMEM;
    if (n > 0) {
        *lead = first;
        *trail = tsum / n;
    }
    return RF_OK;
}

int rf_kchar_func(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof,
                  int threads_per_cta, rf_ipc_kernel *out, rf_err *err)
{
    return kchar_func(gpu, f, prof, threads_per_cta, 0, 1, NULL, 1, 0, ~0u, NULL, out, err);
}

static int kchar_func(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof,
                      int threads_per_cta, long ctas, long stride, const rf_ctaset *from,
                      int jobs, int n0, unsigned pool_rows, cta_counts *samp, rf_ipc_kernel *out,
                      rf_err *err)
{
    memset(out, 0, sizeof *out);
    out->func = f;              /* valid while the caller's kernel lives */
    out->prof = prof;
    if (!f->physical)
        return rf_err_set(err, RF_EUNSUPPORTED, f->name, 0, 0, NULL,
                          "kernel characteristics need physical registers");
    double *freq = malloc(sizeof *freq * (size_t)(f->nblocks > 0 ? f->nblocks : 1));
    if (!freq) {
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "kernel characteristics: out of memory");
    }
    int rc = rf_kchar_block_freq(f, prof, freq, err);
    if (rc) {
        free(freq);
        return rc;
    }
    rc = rf_sw_liveprof_of(f, freq, &out->swp, err);
    if (rc < 0) {
        free(freq);
        return rc;
    }
    double mem_lat = rf_kchar_mem_latency(gpu, prof);
    double total = 0, mem = 0, sfu = 0, alu = 0, alu_use = 0, ldst = 0, none = 0;
    double reads = 0, writes = 0;
    double word_bytes = 4.0 * (gpu->warp_size > 0 ? gpu->warp_size : 32);
    double dram = 0, dram_ld = 0;
    double kh[RF_IPC_MAXK + 1] = {0};
    double intra[RF_IPC_MAXB + 1] = {0};
    double run[3][RF_IPC_MAXRUN + 1] = {{0}}, ucount[3] = {0}, rep[3] = {0};
    int *reg_of = malloc(sizeof *reg_of * (size_t)(f->ninsts > 0 ? f->ninsts : 1));
    int nreg = reg_of ? barrier_regions(f, reg_of) : -1;
    double *rcnt = nreg > 0 ? calloc((size_t)nreg * RG_N, sizeof *rcnt) : NULL;
    if (!reg_of || nreg < 0 || (nreg > 0 && !rcnt)) {
        free(reg_of);
        free(rcnt);
        free(freq);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "kernel characteristics: out of memory");
    }
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *blk = &f->blocks[b];
        double w = freq[b];
        if (w <= 0 || blk->ninsts == 0)
            continue;
        int run_u = -1, run_len = 0;
        for (int i = 0; i < blk->ninsts; i++) {
            const rf_inst *in = &f->insts[blk->first + i];
            /* Runs of one unit class, each instruction independent of the
             * one before it (it may issue the next cycle). */
            int u = rf_kchar_unit_of(in->cls);
            bool dep = i > 0 && reads_result_of(in, &f->insts[blk->first + i - 1]);
            if (u >= 0 && u == run_u && !dep) {
                run_len++;
            } else {
                run_u = u;
                run_len = 0;
            }
            if (u >= 0) {
                ucount[u] += w;
                if (i + 1 < blk->ninsts && reads_result_of(&f->insts[blk->first + i + 1], in))
                    rep[u] += w;
                for (int c = 0; c <= run_len && c <= RF_IPC_MAXRUN; c++)
                    run[u][c] += w;
            }
            total += w;
            int cls = in->cls;
            mem += is_mem_class(cls) ? w : 0;
            double *rg = &rcnt[reg_of[blk->first + i] * RG_N];
            rg[RG_ALL] += w;
            rg[u == 0 ? RG_ALU : u == 1 ? RG_SFU : u == 2 ? RG_LDST : RG_NONE] += w;
            if (u == 0)
                rg[RG_ALU_USE] += w * (cls == RF_OC_ALU64 ? 4.0 : 1.0);
            int regs[RF_MAX_USES];
            int k = gpr_reads(in, regs);
            int nw = gpr_writes(in);
            switch (cls) {
            case RF_OC_SFU:
                sfu += w;
                break;
            case RF_OC_LD_SHARED: case RF_OC_ST_SHARED: case RF_OC_LD_CONST:
            case RF_OC_LD_GLOBAL: case RF_OC_ST_GLOBAL: case RF_OC_LD_LOCAL:
            case RF_OC_ST_LOCAL: case RF_OC_ATOMIC:
                ldst += w;
                break;
            case RF_OC_BARRIER: case RF_OC_EXIT:
                none += w;
                break;
            default:
                alu += w;
                alu_use += w * (cls == RF_OC_ALU64 ? 4.0 : 1.0);
                break;
            }
            double miss2 = 1.0 - prof->l2_hit;
            if (cls == RF_OC_LD_GLOBAL || cls == RF_OC_LD_LOCAL) {
                double lb = w * word_bytes * (nw > 0 ? nw : 1) * (1.0 - prof->l1_hit) * miss2;
                dram += lb;
                dram_ld += lb;
            } else if (cls == RF_OC_ST_GLOBAL || cls == RF_OC_ST_LOCAL) {
                dram += w * word_bytes * (k > 2 ? k - 2 : 1) * miss2;
            } else if (cls == RF_OC_ATOMIC) {
                dram += w * word_bytes * miss2;
                dram_ld += w * word_bytes * miss2;
            }
            reads += w * k;
            kh[k > RF_IPC_MAXK ? RF_IPC_MAXK : k] += w;
            writes += w * nw;
            if (k > 1)
                for (int nb = 1; nb <= RF_IPC_MAXB; nb++) {
                    int worst = 1;
                    for (int x = 0; x < k; x++) {
                        int c = 0;
                        for (int y = 0; y < k; y++)
                            c += (regs[x] % nb) == (regs[y] % nb);
                        worst = c > worst ? c : worst;
                    }
                    intra[nb] += w * (worst - 1);
                }
        }
    }
    free(freq);
    if (total > 0)
        set_phases(rcnt, nreg, total, out);
    free(reg_of);
    free(rcnt);
    if (total <= 0)
        return rf_err_set(err, RF_EUNSUPPORTED, f->name, 0, 0, NULL, "kernel executes no instructions");
    out->frac_mem = mem / total;
    out->frac_alu = alu / total;
    out->alu_use = alu_use / total;
    out->frac_sfu = sfu / total;
    out->frac_ldst = ldst / total;
    out->frac_none = none / total;
    out->reads = reads / total;
    out->writes = writes / total;
    for (int k = 0; k <= RF_IPC_MAXK; k++)
        out->read_k[k] = kh[k] / total;
    out->no_reads = out->read_k[0];
    for (int nb = 1; nb <= RF_IPC_MAXB; nb++)
        out->intra[nb] = intra[nb] / total;
    for (int u = 0; u < 3; u++)
        for (int c = 0; c <= RF_IPC_MAXRUN; c++)
            out->run_ge[u][c] = ucount[u] > 0 ? run[u][c] / ucount[u] : (c == 0);
    for (int u = 0; u < 3; u++)
        out->rep_share[u] = ucount[u] > 0 ? rep[u] / ucount[u] : 0.0;
    out->intra[0] = out->intra[1];
    int ws_ = gpu->warp_size > 0 ? gpu->warp_size : 32;
    out->warps_per_cta = (threads_per_cta + ws_ - 1) / ws_;
    rf_ctaset *cs;
    int nsample = ctas > 0 && ctas < RF_KCHAR_MC_CTAS ? (int)ctas : RF_KCHAR_MC_CTAS;
    rc = ctaset_walk(gpu, f, prof, out->warps_per_cta, 0, nsample, stride > 1 ? stride : 1,
                     prof->seed, RF_KCHAR_MC_REL_SE, from, jobs, &cs, err);
    if (rc)
        return rc;
    rf_kchar_act_hist(cs, out->act_hist);
    if (samp)
        counts_of(cs, samp);
    if (gpu->sched_policy == RF_SCHED_TWO_LEVEL
        && (rc = pool_balance(gpu, cs, n0, jobs, pool_rows, out, err)) != RF_OK) {
        rf_kchar_ctaset_free(cs);
        return rc;
    }
    out->stall_mem = cs->s_mem;
    out->stall_dep = cs->s_dep;
    out->turn_insts = cs->turn_insts;
    out->wait_share = cs->wait_share;
    out->mem_waits = cs->mem_waits;
    out->drain = cs->drain;
    out->active_frac = cs->active_frac;
    out->live_frac = cs->live_frac;
    rf_kchar_ctaset_free(cs);
    out->mem_latency = mem_lat;
    out->dram_bytes = dram / total;
    out->dram_load_bytes = dram_ld / total;
    out->dram_latency = gpu->dram_latency;
    if (dram_ld > 0 && (rc = dram_ends(gpu, f, prof, out->warps_per_cta, ctas, stride,
                                       &out->dram_lead, &out->dram_trail,
                                       &out->dram_none)) != RF_OK)
        return rf_err_set(err, rc, NULL, 0, 0, NULL, "kernel characteristics: out of memory");
    out->insts_per_warp = total;
    return RF_OK;
}

/* Warp instructions per warp over the kernel's run (the whole grid, or SM
 * 0's share of a grid spread over `stride` SMs: grid CTAs 0, stride, ...),
 * each warp walking its own path with the sampler's random streams of the
 * profile's seed: the instruction count of the very run `rfkit simulate
 * --full --seed S` makes, which can differ from the expectation by several percent when few
 * CTAs draw a long loop.  Counts blocks only (cheap); at most
 * RF_KCHAR_GRID_MAX CTAs. */
#define RF_KCHAR_GRID_MAX 65536

/* The paths of grid_insts_per_warp's CTAs, in blocks of GIPW_BLOCK CTAs
 * (one pool job each, its warps' instructions summed in part[]: whole
 * numbers, so the total does not depend on how the CTAs are split, nor on
 * whether a CTA's count comes from its path or from a walk of it).  The
 * count takes threads from GIPW_PAR_WARPS warps. */
#define GIPW_BLOCK 64
#define GIPW_PAR_WARPS 4096

typedef struct gipw_job {
    const rf_func *f;
    const walk_prog *prog;
    const int *count;
    const bool *ends;
    int wpc;
    long ctas, stride;
    const cta_counts *known;    /* [nknown] CTAs walked already */
    int nknown;
    double *part;
    uint64_t seed;              /* the profile's draws */
} gipw_job;

static int gipw_run(int i, void *ctx)
{
    const gipw_job *g = ctx;
    const rf_func *f = g->f;
    long end = ((long)i + 1) * GIPW_BLOCK < g->ctas ? ((long)i + 1) * GIPW_BLOCK : g->ctas;
    double total = 0;
    for (long j = (long)i * GIPW_BLOCK; j < end; j++) {
        const cta_counts *kn = known_of(g->known, g->nknown, j);
        if (kn) {
            total += kn->ins[j - kn->first];
            continue;
        }
        loop_draws ld;
        ld.n = 0;
        for (int w = 0; w < g->wpc; w++) {
            long c = j * g->stride;
            uint64_t gid = (uint64_t)c * (uint64_t)g->wpc + (uint64_t)w;
            uint64_t nbr = 0, nloop = 0;
            long n = 0;
            int b = 0;
            while (b >= 0 && b < f->nblocks && n < RF_KCHAR_MC_MAX_INSTS) {
                const walk_block *blk = &g->prog->blk[b];
                n += g->count[b];
                if (g->ends[b] || blk->nsucc == 0)
                    break;
                if (blk->nsucc == 1) {
                    b = blk->succ[0];
                    continue;
                }
                b = succ_draw(blk, &ld, g->seed, (uint64_t)c, gid, &nloop, &nbr);
            }
            total += (double)n;
        }
    }
    g->part[i] = total;
    return RF_OK;
}

static int grid_insts_per_warp(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof,
                               int wpc, long ctas, long stride, const cta_counts *known,
                               int nknown, int jobs, double *out)
{
    /* Per block: the walk's branch rule, and the instructions a warp
     * retires there (through the first exit, which ends it). */
    walk_prog prog;
    if (ctas > RF_KCHAR_GRID_MAX)
        ctas = RF_KCHAR_GRID_MAX;
    int nblk = (int)((ctas + GIPW_BLOCK - 1) / GIPW_BLOCK);
    int *count = malloc(sizeof *count * (size_t)(f->nblocks > 0 ? f->nblocks : 1));
    bool *ends = malloc(sizeof *ends * (size_t)(f->nblocks > 0 ? f->nblocks : 1));
    double *part = malloc(sizeof *part * (size_t)(nblk > 0 ? nblk : 1));
    if (!count || !ends || !part || walk_prog_make(gpu, f, prof, &prog) != RF_OK) {
        free(count);
        free(ends);
        free(part);
        return RF_ENOMEM;
    }
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *blk = &f->blocks[b];
        count[b] = blk->ninsts;
        ends[b] = false;
        for (int i = 0; i < blk->ninsts && !ends[b]; i++)
            if (f->insts[blk->first + i].cls == RF_OC_EXIT && prog.blk[b].succ[1] != -1) {
                count[b] = i + 1;
                ends[b] = true;
            }
    }
    gipw_job g = {f, &prog, count, ends, wpc, ctas, stride, known, nknown, part, prof->seed};
    long left = 0;              /* CTAs whose paths are counted */
    for (long j = 0; j < ctas; j++)
        left += !known_of(known, nknown, j);
    rf_pool pool;
    rf_err perr = {0};
    int rc = rf_pool_start(&pool, left * wpc >= GIPW_PAR_WARPS ? jobs : 1, nblk, gipw_run, &g,
                           &perr);
    double total = 0;
    if (rc == RF_OK) {
        rf_pool_release(&pool, nblk);
        for (int i = 0; i < nblk; i++) {
            rf_pool_wait(&pool, i);
            total += part[i];
        }
        rf_pool_finish(&pool);
    }
    walk_prog_free(&prog);
    free(count);
    free(ends);
    free(part);
    if (rc)
        return rc;
    *out = ctas > 0 ? total / ((double)ctas * wpc) : 0.0;
    return RF_OK;
}

/* The run's critical CTAs (rf_ipc_kernel.crit_pos): each of the last
 * RF_KCHAR_CRIT_MAX CTAs of the run walked alone with the sampler's draws
 * of the profile's seed (as grid_insts_per_warp), its lone cycles the sum over its
 * barrier phases of the slowest warp's lone-warp time (or of the phase's
 * pipe or issue cycles, below) plus its own drain (the cycles its last
 * instructions retire after its warps exit: a CTA whose one warp ends on
 * a long-latency result holds its slot that long, its siblings' drains
 * none the shorter); kept
 * are the CTAs longer than every later one (a later, shorter CTA ends
 * first: the bound of rf_ipc_kernel_cycles never comes from it), at most
 * RF_IPC_NCRIT of them, evenly spaced among those when more.  Earlier CTAs
 * are left out: in a run that long they start too early to end it.  The
 * walked CTAs' lone cycles are kept too (rf_ipc_kernel.lone: every CTA of
 * a run of at most RF_KCHAR_CRIT_MAX, the last RF_KCHAR_CRIT_MAX of a
 * longer one), for the CTA fluid of rf_ipc_kernel_cycles, and their
 * instructions into *walked (NULL: not wanted; walked->n 0: none). */
#define RF_KCHAR_CRIT_MAX 256
#define RF_KCHAR_CRIT_CHUNK 64
#define RF_KCHAR_CRIT_NCHUNK (RF_KCHAR_CRIT_MAX / RF_KCHAR_CRIT_CHUNK)

/* The critical walk of a run of `ctas` CTAs on the SM: its last n CTAs,
 * from CTA first on, in chunks of RF_KCHAR_CRIT_CHUNK; lone[j], lone[n +
 * j], lone[2 n + j] and lone[3 n + j] the lone cycles, the instructions,
 * the lone cycles with each phase's larger bound alone (rf_ipc_kernel.lone0)
 * and the drain of the run's CTA first + j (crit_chunk fills a chunk's,
 * crit_finish keeps the records). */
typedef struct crit_walk {
    const rf_gpu *gpu;
    const rf_func *f;
    const rf_profile *prof;
    int wpc;
    long ctas, stride, first, n;
    const rf_ctaset *from;
    double *lone;
} crit_walk;

static int crit_nchunks(const crit_walk *cw)
{
    return (int)((cw->n + RF_KCHAR_CRIT_CHUNK - 1) / RF_KCHAR_CRIT_CHUNK);
}

/* Chunk q of the critical walk, its CTAs from `from` where it walked
 * them (the same rows and drains), else walked on up to jobs threads. */
static int crit_chunk(const crit_walk *cw, int q, int jobs, rf_err *err)
{
    long n = cw->n, c0 = (long)q * RF_KCHAR_CRIT_CHUNK;
    int m = (int)(n - c0 < RF_KCHAR_CRIT_CHUNK ? n - c0 : RF_KCHAR_CRIT_CHUNK);
    double *lone = cw->lone;
    rf_ctaset *cs;
    const rf_ctaset *h[1] = {cw->from};
    int rc = cw->from && cw->from->cta_drain
                 ? rf_kchar_ctaset_reuse_jobs(h, 1, cw->gpu, cw->f, cw->prof, cw->wpc,
                                              cw->first + c0, m, cw->stride, cw->prof->seed,
                                              jobs, &cs, err)
                 : ctaset_walk(cw->gpu, cw->f, cw->prof, cw->wpc, cw->first + c0, m, cw->stride,
                               cw->prof->seed, 0.0, NULL, jobs, &cs, err);
    if (rc)
        return rc;
    for (int c = 0; c < m; c++) {
        double t = 0, t0 = -1;          /* the phases' norm and their larger alone */
        if (cs->cta_step) {
            t = cs->cta_step[2 * c];
            t0 = cs->cta_step[2 * c + 1];
        } else if (cs->cta_crit) {
            t = cs->cta_crit[3 * c + 1];
        } else {
            const float *T = rf_ctaset_time(cs, c, 0);
            int nph = cs->nph[c];
            for (int ph = 0; ph < nph; ph++) {
                double mx = 0;
                for (int w = 0; w < cs->wpc; w++)
                    mx = T[(size_t)w * nph + ph] > mx ? T[(size_t)w * nph + ph] : mx;
                t += mx;
            }
        }
        lone[c0 + c] = t + cs->cta_drain[c];
        lone[n + c0 + c] = rf_ctaset_cta_insts(cs, c);
        lone[2 * n + c0 + c] = (t0 >= 0 ? t0 : t) + cs->cta_drain[c];
        lone[3 * n + c0 + c] = cs->cta_drain[c];
    }
    rf_kchar_ctaset_free(cs);
    return RF_OK;
}

/* The records of the walked chunks into out (crit_pos, crit_cycles, lone),
 * their instructions into *walked (NULL: not wanted). */
static int crit_finish(const crit_walk *cw, cta_counts *walked, rf_ipc_kernel *out, rf_err *err)
{
    out->ncrit = 0;
    out->crit_ctas = 0;
    out->nlone = 0;
    long n = cw->n, first = cw->first;
    if (n < 1)
        return RF_OK;
    const double *lone = cw->lone;
    long *rec = malloc(sizeof *rec * (size_t)n);
    if (!rec)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "kernel characteristics: out of memory");
    /* Longer than every later CTA, found from the end. */
    long nrec = 0;
    double best = -1;
    for (long j = n; j-- > 0;)
        if (lone[j] > best) {
            best = lone[j];
            rec[nrec++] = j;
        }
    int keep = nrec < RF_IPC_NCRIT ? (int)nrec : RF_IPC_NCRIT;
    for (int i = 0; i < keep; i++) {
        /* Increasing position: records were found latest first. */
        long r = keep < nrec ? nrec - 1 - (long)((double)i * (nrec - 1) / (keep - 1))
                             : nrec - 1 - i;
        out->crit_pos[i] = first + rec[r];
        out->crit_cycles[i] = lone[rec[r]];
    }
    out->ncrit = keep;
    out->crit_ctas = cw->ctas;
    if (walked && (walked->ins = malloc(sizeof *walked->ins * (size_t)n)) != NULL) {
        walked->first = first;
        walked->n = (int)n;
        memcpy(walked->ins, lone + n, sizeof *walked->ins * (size_t)n);
    }
    if (n <= RF_IPC_NLONE) {
        for (long j = 0; j < n; j++) {
            out->lone[j] = (float)lone[j];
            out->lone_insts[j] = (float)lone[n + j];
            out->lone0[j] = (float)lone[2 * n + j];
            out->lone_drain[j] = (float)lone[3 * n + j];
        }
        out->nlone = (int)n;
    }
    free(rec);
    return RF_OK;
}

/* compute's walks, jobs of one pool: 0 the sample and the figures of the
 * run's first CTAs (kchar_func into out), 1 .. the critical walk's chunks
 * (into cw.lone), each with its own error. */
typedef struct char_job {
    const rf_gpu *gpu;
    const rf_kernel *k;
    const rf_ctaset *grid;
    int jobs, n0;
    unsigned pool_rows;
    cta_counts *samp;
    rf_ipc_kernel *out;
    crit_walk cw;
    rf_err err[1 + RF_KCHAR_CRIT_NCHUNK];
} char_job;

static int char_job_run(int i, void *ctx)
{
    char_job *cj = ctx;
    const rf_kernel *k = cj->k;
    if (i == 0)
        return kchar_func(cj->gpu, k->func, &k->profile, rf_kernel_threads(k), rf_kernel_ctas(k),
                          rf_kernel_sms(k), cj->grid, cj->jobs, cj->n0, cj->pool_rows, cj->samp,
                          cj->out, &cj->err[0]);
    return crit_chunk(&cj->cw, i - 1, cj->jobs, &cj->err[i]);
}

static int compute(const rf_gpu *gpu, const rf_kernel *k, rf_ipc_kernel *out, rf_ctaset **walked,
                   int jobs, unsigned pool_rows, rf_err *err)
{
    if (walked)
        *walked = NULL;
    if (!k->func)
        return rf_err_set(err, RF_EUNSUPPORTED, k->name, 0, 0, NULL, "kernel has no entry function");
    /* The run's first CTAs, walked once for the sample (among them: it is
     * the run's first CTAs too), the critical CTAs and the calibration.
     * Without a calibration, a run of at most RF_KCHAR_CRIT_MAX CTAs is
     * walked whole too: the critical CTAs are all of it, and the sample
     * takes its CTAs from that walk instead of walking them again (the
     * same rows either way). */
    rf_ctaset *grid = NULL;
    int rc = RF_OK;
    long ctas = rf_kernel_ctas(k);
    int ws = gpu->warp_size > 0 ? gpu->warp_size : 32;
    int wpc = (rf_kernel_threads(k) + ws - 1) / ws;
    if (walked || ctas <= RF_KCHAR_CRIT_MAX) {
        long n = ctas;
        rc = ctaset_walk(gpu, k->func, &k->profile, wpc, 0,
                         n > RF_KCHAR_WALK_CTAS ? RF_KCHAR_WALK_CTAS : n < 1 ? 1 : (int)n,
                         rf_kernel_sms(k) > 1 ? rf_kernel_sms(k) : 1, k->profile.seed, 0.0,
                         NULL, jobs, &grid, err);
        if (rc)
            return rc;
    }
    /* The baseline's resident CTAs, for the pool balance's table. */
    rf_design base;
    rf_design_init(&base);
    rf_occ_input oin = {k->regs, rf_kernel_threads(k), k->smem_static + k->launch.smem};
    rf_occ occ;
    rf_err oerr = {0};
    int n0 = gpu->sched_policy == RF_SCHED_TWO_LEVEL
                     && rf_occ_compute(gpu, &base, &oin, &occ, &oerr) == RF_OK
                 ? occ.ctas_per_sm
                 : 0;
    /* The CTAs the sample and the critical walk take: their instructions
     * are not counted along their paths again.  The sample and the
     * critical walk's chunks are walked side by side. */
    cta_counts known[2] = {{0, 0, NULL}, {0, 0, NULL}};
    long ncrit = ctas < RF_KCHAR_CRIT_MAX ? ctas : RF_KCHAR_CRIT_MAX;
    char_job cj = {gpu, k, grid, jobs, n0, pool_rows, grid ? NULL : &known[0], out,
                   {gpu, k->func, &k->profile, wpc, ctas, rf_kernel_sms(k), ctas - ncrit, ncrit,
                    grid, NULL},
                   {{0}}};
    if (ncrit > 0 && !(cj.cw.lone = malloc(sizeof *cj.cw.lone * (size_t)ncrit * 4))) {
        rf_kchar_ctaset_free(grid);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "kernel characteristics: out of memory");
    }
    int njob = 1 + (ncrit > 0 ? crit_nchunks(&cj.cw) : 0);
    rc = rf_pool_run(jobs, njob, char_job_run, &cj, cj.err, err);
    if (rc == 0)
        rc = crit_finish(&cj.cw, grid ? NULL : &known[1], out, err);
    free(cj.cw.lone);
    /* The run's instructions per warp: counted from the walk where it
     * holds every CTA grid_insts_per_warp counts (the same paths, so the
     * same count), else counted along the paths of the CTAs no walk took. */
    double ipw = 0;
    long counted = ctas > RF_KCHAR_GRID_MAX ? RF_KCHAR_GRID_MAX : ctas;
    if (rc == 0 && grid && grid->nctas == counted && grid->wpc == out->warps_per_cta) {
        double total = 0;
        for (int c = 0; c < grid->nctas; c++)
            total += rf_ctaset_cta_insts(grid, c);
        ipw = total / ((double)counted * grid->wpc);
    } else if (rc == 0 && grid_insts_per_warp(gpu, k->func, &k->profile, out->warps_per_cta,
                                              rf_kernel_ctas(k), rf_kernel_sms(k), known, 2,
                                              jobs, &ipw) != RF_OK) {
        ipw = 0;
    }
    free(known[0].ins);
    free(known[1].ins);
    if (rc == 0 && ipw > 0)
        out->insts_per_warp = ipw;
    if (walked && rc == 0)
        *walked = grid;
    else
        rf_kchar_ctaset_free(grid);
    /* Per-register writes for register-cache collisions (rccollide.c); a
     * kernel they cannot be counted for leaves nregs 0 (uniform writes). */
    if (rc == 0 && rf_rcc_writes_of(k->func, &k->profile, &out->rcw, NULL) != 0)
        out->rcw.nregs = 0;
    else if (rc == 0)
        rf_rcc_writes_timing(&out->rcw, gpu);
    if (rc && walked) {
        rf_kchar_ctaset_free(*walked);
        *walked = NULL;
    }
    return rc;
}

int rf_kchar_compute(const rf_gpu *gpu, const rf_kernel *k, rf_ipc_kernel *out, rf_err *err)
{
    return rf_kchar_compute_walked_jobs(gpu, k, out, NULL, 1, err);
}

int rf_kchar_compute_walked(const rf_gpu *gpu, const rf_kernel *k, rf_ipc_kernel *out,
                            rf_ctaset **walked, rf_err *err)
{
    return rf_kchar_compute_walked_jobs(gpu, k, out, walked, 1, err);
}

int rf_kchar_compute_walked_jobs(const rf_gpu *gpu, const rf_kernel *k, rf_ipc_kernel *out,
                                 rf_ctaset **walked, int jobs, rf_err *err)
{
    return compute(gpu, k, out, walked, jobs, ~0u, err);
}

int rf_kchar_compute_rows(const rf_gpu *gpu, const rf_kernel *k, rf_ipc_kernel *out, int jobs,
                          unsigned pool_rows, rf_err *err)
{
    return compute(gpu, k, out, NULL, jobs, pool_rows, err);
}

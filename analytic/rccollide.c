/* rccollide.c - closed-form register-cache collisions (seed 002, HI-RF +
 * CAC, Sections 2.3, 3 and 5.3).
 *
 * Setting.  Every result is written into the SRAM register cache of the
 * warp's sub-core; a write that finds its line holding another valid
 * (warp, register) pair evicts it to the NVM register file (a conflict, one
 * write-back).  Reads are served by the cache when the line holds the pair,
 * by the NVM file otherwise.  W resident warps (warp IDs 0..W-1, the
 * sampler's hardware slots) run the same code; registers are renumbered by
 * the assignment policy first (CAC: static destination counts; Best and
 * Worst: expected dynamic writes, analytic/dstcount.c).
 *
 * One warp alone (the flow).  For each line the warp's registers share,
 * the distribution of the line's last writer at each block entry solves the
 * linear system of the CFG under the profile (edge flows e(P -> B) and
 * block frequencies f(B) from analytic/dstcount.c):
 *     f(B) x_B = sum_P e(P -> B) y_P + [B = entry] none,
 *     y_P = x_P if P does not write the line, else its last write there,
 * (GSL LU, one solve per line).  Walking each block from x_B gives, per
 * register r, c_r = P(a write of r finds the line last written by another
 * register) and h_r = P(a read of r finds r in its line), weighted by f(B).
 * Write timing (sampler/collector.c, exec.c): a read happens when its
 * instruction issues, a write when the result comes back, 2 + latency
 * cycles later (bank read and collector, then the unit: alu_latency,
 * sfu_latency, smem_latency, the profile's mean memory latency for global
 * and local loads, rf_kchar_mem_latency), so a read finds the line as the
 * writes landed by then left it, in landing order: a read of r right
 * after a load of r' on r's line still hits.  The walk of each block
 * issues its instructions in order, an instruction waiting until its
 * sources, destinations and guard have landed (the scoreboard), and
 * spaced by the collectors of its class: the sampler's C_u collectors of
 * unit class u (ALU, SFU, LD/ST) are each held at least
 * RF_RCC_COLL_HOLD = 2 cycles (issue to dispatch with the operands in the
 * cache), shared by the S schedulers, so a warp issues class u at most
 * every S x 2 / C_u cycles (volta-hirf, 8 collectors split 3 : 4 : 1:
 * ALU 2.7, SFU 2, LD/ST 8); a write still in flight at the block's end
 * lands before the next block (the block's last write to land is the
 * line's writer y_P).  With the nine tuning kernels' sampled per-warp
 * miss rates (reads whose own warp's last landed write on the line is
 * another register) this gives 0.014 mean |error|.
 * This is exact for the sampler's memoryless branches in program order.
 * Without code, the writes are taken independent: c_r = 1 - p_r / P_line,
 * h_r = p_r / P_line.
 *
 * Many warps.  Pair x = (w, r) has write share p_x = writes_r / (W sum
 * writes); line l(x) carries P_l = sum of p over its pairs, of which
 * P_{l,w} come from warp w, s_x = P_{l,w} / P_l.  With locality lambda the
 * line's previous writer is the writing warp itself (warps issue in bursts
 * under GTO); otherwise it is drawn independently among the line's writers:
 *     C = sum_x p_x [ (1 - lambda)(1 - s_x) + (lambda + (1 - lambda) s_x) c_r ]
 *     M = sum_x q_x [ 1 - (lambda_r + (1 - lambda_r) s_x) h_r ]   (q: read shares)
 * lambda = 0 with c_r = 1 - p_r / P_{l,w} is the independent-interleaving
 * rate 1 - sum_l sum_{x on l} p_x^2 / P_l.  C is linear in lambda between
 * `indep` (0) and `intra` (1); the calibrator fits lambda (rc_locality,
 * default 0.5) from sampled conflict rates (rf_rcc_fit_locality); every
 * index function shares the one lambda.  A read follows its producer
 * closely (within the warp's own run of issues), so for reads the chance
 * that the line's last writer is the reading warp is higher than a
 * write's: M takes its own locality lambda_r = RF_RCC_READ_LOCALITY
 * (0.75: the least-squares fit of M to the sampler's read-miss rates on
 * the nine tuning kernels; mean |error| 0.028 there, 0.040 on the
 * validation kernels).
 * Live warps: only warps that have not exited write (the share f =
 * k->live_frac of the resident ones, analytic/kchar.c, or as calibration's
 * baseline windows count them), and which slots they hold is not known, so
 * each other warp's pairs compete for a line with probability f: s =
 * own / (own + f x others); fully associative, the sub-core's LRU holds
 * the pairs of f x warps.
 * Fully associative LRU per sub-core (HI_Full) with E lines: the
 * characteristic-time approximation (Che et al.): T solves
 * sum_x (1 - exp(-q_x T)) = E over the sub-core's pairs (q_x = p_x / P_sub;
 * no eviction when they fit); a pair is in the cache with probability
 * 1 - exp(-q_x T) under independent interleaving, always when its own warp
 * wrote last (lambda); a warp's own registers each get a line (c_r = 0).
 *
 * Stall (sampler/regcache.c timing): a write absorbed by the cache is done
 * in the cycle it arrives; a conflicting one completes when the victim's
 * NVM write (L_w cycles, bank held) is done, L_w - 1 cycles later at best,
 * so a warp's own path gains writes/inst x C x (L_w - 1 + W_write) cycles
 * per instruction (W_write: the write-back's wait for its bank), times a
 * free share sigma (rc_stall, default 1: a dependant does not always wait
 * for the write; the calibrator fits it): rf_ipc_machine.wb_rate, inside
 * the IPC fixed point (analytic/ipc.c).  NVM bank time (a service of L_w
 * cycles per write-back in the queueing of analytic/conflict.c) and read
 * misses enter the bank utilisation of the IPC model (rf_rcc_apply).
 *
 * A warp's own bank backlog.  The sampler puts register r of warp slot w
 * in NVM bank (r + w) mod B, so a warp's misses and the write-backs of its
 * own pairs land on the banks of its registers: with a concatenated index
 * and R >= log2 B register bits every write-back of a line goes to one
 * bank (the line's registers agree mod B), and a policy that gathers the
 * most written registers in one critical set (Worst) gathers the warp's
 * NVM traffic on one or two banks.  Averaged over the warps the load is
 * even (the queueing above), but a warp issuing in a burst queues behind
 * itself: rf_rcc_own_walk follows the code one instruction per cycle with
 * each bank's expected backlog of the warp's own write-backs (L_w cycles
 * each, draining one per cycle); a missing operand read waits for its
 * bank's backlog (writes go first) and the warp with it; an own
 * write-back waits behind the backlog of the victim's bank.  Per
 * instruction, the read waits go on the warp's path and hold its
 * collector; the write-back waits go on the path with the share sigma.
 *
 * The other warps' write-backs in the bank queue.  The queue of
 * analytic/conflict.c takes Poisson arrivals (index of dispersion 1), and
 * charges the write-backs of the other warps only (the warp's own are its
 * backlog above), their share 1 - u at the banks the warp reads
 * (rf_rcc_wb_dispersion: u weights the warp's own write-backs per bank by
 * its missing reads there, against the others' spread evenly, one warp
 * issuing per scheduler).  Turns: a greedy scheduler issues one warp until
 * it waits (turn length n, analytic/kchar.c turn_insts), and during a turn
 * the banks receive the issuing warp's own write-backs at its code's bank
 * shares O_j, rotated by its slot, so over the warps a bank's rate
 * switches turn by turn: a modulated source whose index gains 2 V n over
 * long windows (V = Var / mean of the bank's rate per instruction), of
 * which TURN_SEEN enters the queue.  Kingman's approximation scales the
 * write wait and the reads' wait behind writes by
 *     write_idc = beta (1 - u) (1 + 2 TURN_SEEN V n)
 * (rf_ipc_machine.write_idc, analytic/conflict.c); beta (rc_burst,
 * default 1) is the one free factor, fitted by rfkit calibrate on its
 * HI-RF windows (calibrate/calibrate.c).
 *
 * Inputs: geometry, kernel code and profile (or per-register writes),
 * warps, lambda.  Outputs: probabilities per write / read, waits per
 * instruction.
 */
#include "rccollide.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Turns: the share of the long-run index 2 V n (header) a bank queue of a
 * few write services sees; set on the nine tuning kernels so that the
 * model's Worst indexes match the sampler's write-back arrivals over
 * 32-cycle windows. */
#define TURN_SEEN 0.25

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>

#include "dstcount.h"
#include "ipc.h"
#include "kchar.h"

#define FLOW_MAX_BLOCKS 400

int rf_rcc_writes_of(const rf_func *f, const rf_profile *prof, rf_rcc_writes *out, rf_err *err)
{
    memset(out, 0, sizeof *out);
    out->nregs = f->nregs < RF_MAX_GPR ? f->nregs : RF_MAX_GPR;
    out->func = f;
    if (prof)
        out->prof = *prof;
    else
        out->prof.taken = 0.5;
    int rc = rf_dst_static(f, out->stat, err);
    if (rc)
        return rc;
    rf_dst_tuples(f, out->width);
    rc = rf_dst_loop_weighted(f, RF_CAC_LOOP_WEIGHT, out->stat_loop, err);
    if (rc)
        return rc;
    double *freq = calloc((size_t)(f->nblocks > 0 ? f->nblocks : 1), sizeof *freq);
    if (!freq)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    rc = rf_dst_block_freq(f, out->prof.trip, out->prof.taken, NULL, freq, NULL, err);
    if (!rc)
        rc = rf_dst_weighted(f, freq, out->dyn, err);
    free(freq);
    for (int r = 0; r < RF_MAX_GPR; r++)
        if ((out->stat[r] > 0 || out->dyn[r] > 0) && r + 1 > out->nregs)
            out->nregs = r + 1;
    return rc;
}

void rf_rcc_writes_timing(rf_rcc_writes *w, const rf_gpu *gpu)
{
    int split[3];
    rf_gpu_coll_split(gpu->collectors, split);
    for (int u = 0; u < 3; u++)
        if (split[u] == 0)
            split[u] = gpu->collectors;     /* one pool */
    for (int c = 0; c < RF_OC_COUNT; c++) {
        int u = rf_kchar_unit_of(c);
        double g = u >= 0 && u < 3 && split[u] > 0
                       ? gpu->schedulers * RF_RCC_COLL_HOLD / split[u] : 1.0;
        w->gap[c] = g > 1.0 ? g : 1.0;
        double l;
        switch (c) {
        case RF_OC_ALU:
        case RF_OC_ALU64: l = gpu->alu_latency; break;
        case RF_OC_SFU: l = gpu->sfu_latency; break;
        case RF_OC_LD_SHARED:
        case RF_OC_LD_CONST: l = gpu->smem_latency; break;
        case RF_OC_LD_GLOBAL:
        case RF_OC_LD_LOCAL: l = rf_kchar_mem_latency(gpu, &w->prof); break;
        case RF_OC_ATOMIC:
            l = gpu->l2_latency + (1.0 - w->prof.l2_hit) * gpu->dram_latency;
            break;
        default: l = 1.0; break;
        }
        w->lat[c] = 2.0 + l;
    }
}

static int best_map(const rf_rcc_writes *w, const rf_rc_geom *g, int *map);

static rf_rcc_memo_slot *memo_find(const rf_rcc_memo *m, const rf_rc_geom *g, int assign)
{
    if (!m)
        return NULL;
    for (int i = 0; i < m->nslots; i++) {
        rf_rcc_memo_slot *s = &m->slot[i];
        if (s->used && s->assign == assign && memcmp(&s->geom, g, sizeof *g) == 0)
            return s;
    }
    return NULL;
}

int rf_rcc_assign_map(const rf_rcc_writes *w, const rf_rc_geom *g, int assign, int *map)
{
    int n = w->nregs;
    const rf_rcc_memo_slot *ms = memo_find(w->memo, g, assign);
    if (ms) {
        memcpy(map, ms->map, sizeof ms->map);
        return ms->span;
    }
    for (int r = 0; r < RF_MAX_GPR; r++)
        map[r] = r;
    switch (assign) {
    case RF_ASSIGN_CAC:
        return rf_dst_cac_aligned(w->stat_loop, w->width, n, map);
    case RF_ASSIGN_CAC_PLAIN:
        return rf_dst_cac_aligned(w->stat, w->width, n, map);
    case RF_ASSIGN_BEST:
        return best_map(w, g, map);
    case RF_ASSIGN_WORST:
        return rf_dst_worst_aligned(w->dyn, w->width, n, rf_rc_nsets(g), map);
    default:
        return n;
    }
}

int rf_rcc_memo_init(rf_rcc_memo *m, int nslots, rf_err *err)
{
    memset(m, 0, sizeof *m);
    m->nslots = nslots > 0 ? nslots : 1;
    /* Only the slots' used flags are set: a slot is written whole when it
     * is taken (rf_rcc_memo_get), so the memory of slots never taken is
     * never touched (a calibration without HI-RF designs takes none). */
    m->slot = malloc(sizeof *m->slot * (size_t)m->nslots);
    if (!m->slot)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory for the flow memo");
    for (int i = 0; i < m->nslots; i++)
        m->slot[i].used = false;
    return 0;
}

void rf_rcc_memo_free(rf_rcc_memo *m)
{
    free(m->slot);
    memset(m, 0, sizeof *m);
}

rf_rcc_memo_slot *rf_rcc_memo_get(rf_rcc_writes *w, const rf_rc_geom *g, int assign)
{
    rf_rcc_memo *m = w->memo;
    if (!m || m->nslots < 1)
        return NULL;
    rf_rcc_memo_slot *s = memo_find(m, g, assign);
    if (m->frozen)
        return s && s->flow_ok ? s : NULL;
    if (s)
        return s;
    s = &m->slot[m->next];
    m->next = (m->next + 1) % m->nslots;
    s->used = false;
    s->span = rf_rcc_assign_map(w, g, assign, s->map);
    s->geom = *g;
    s->assign = assign;
    s->flow_ok = false;
    s->used = true;
    return s;
}

int rf_rcc_assigned_writes(const rf_rcc_writes *w, const rf_rc_geom *g, int assign,
                           double out[RF_MAX_GPR])
{
    int map[RF_MAX_GPR];
    memset(out, 0, RF_MAX_GPR * sizeof *out);
    int span = rf_rcc_assign_map(w, g, assign, map);
    rf_dst_permute(w->dyn, w->nregs, map, out);
    return span;
}

/* Line of register r within one warp: warp 0's (the warp bits only move
 * every register of a warp together); fully associative: its own. */
static int own_line(const rf_rc_geom *g, int r)
{
    return g->index == RF_RC_FULL ? r : rf_rc_slot_of(g, 0, r).line;
}

void rf_rcc_flow_indep(const double *writes, int nregs, const rf_rc_geom *g, rf_rcc_flow *out)
{
    memset(out, 0, sizeof *out);
    out->nregs = nregs;
    double pl[RF_MAX_GPR * 2] = {0};
    int line[RF_MAX_GPR];
    int nl = rf_rc_lines(g) * rf_rc_ways(g);
    for (int r = 0; r < nregs; r++) {
        line[r] = own_line(g, r) % (nl < 2 * RF_MAX_GPR ? nl : 2 * RF_MAX_GPR);
        pl[line[r]] += writes[r] > 0 ? writes[r] : 0;
    }
    for (int r = 0; r < nregs; r++) {
        double w = writes[r] > 0 ? writes[r] : 0;
        out->writes[r] = out->reads[r] = w;
        double share = pl[line[r]] > 0 ? w / pl[line[r]] : 0;
        out->c[r] = w > 0 ? 1.0 - share : 0;
        out->h[r] = share;
    }
}

/* Accumulators of the walk. */
typedef struct flow_acc {
    double wc[RF_MAX_GPR], csum[RF_MAX_GPR], rc[RF_MAX_GPR], hsum[RF_MAX_GPR];
} flow_acc;

/* Registers (new IDs) of one line and their slots in its state vector. */
typedef struct line_set {
    int n;                       /* members; slot n = "none written yet" */
    int member[RF_MAX_GPR];
} line_set;

static int slot_in(const line_set *ls, const int *slot_of, int r)
{
    (void)ls;
    return slot_of[r];
}

/* Write times of the flow, per instruction: issue[i] and land[i], cycles
 * from the entry of i's block (see rf_rcc_flow_of). */
typedef struct flow_time {
    double *issue, *land;
} flow_time;

/* A member write of a line inside one block: when it lands, its order in
 * the block (ties), the register (new ID). */
typedef struct line_write {
    double land;
    int order, reg;
} line_write;

static int line_write_cmp(const void *a, const void *b)
{
    const line_write *x = a, *y = b;
    if (x->land != y->land)
        return x->land < y->land ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* Member writes of block b in landing order into lw; returns their count. */
static int block_writes(const rf_func *f, int b, const int *map, const int *in_line,
                        const flow_time *tm, line_write *lw)
{
    const rf_block *bb = &f->blocks[b];
    int n = 0;
    for (int i = bb->first; i < bb->first + bb->ninsts; i++) {
        const rf_inst *in = &f->insts[i];
        for (int k = 0; k < in->ndefs; k++)
            if (in->defs[k] < RF_MAX_GPR && in_line[map[in->defs[k]]]) {
                lw[n].land = tm->land[i];
                lw[n].order = n;
                lw[n++].reg = map[in->defs[k]];
            }
    }
    qsort(lw, (size_t)n, sizeof *lw, line_write_cmp);
    return n;
}

/* The block's last write of the line to land (new ID), or -1. */
static int last_write(const rf_func *f, int b, const int *map, const int *in_line,
                      const flow_time *tm)
{
    const rf_block *bb = &f->blocks[b];
    int last = -1;
    double at = -INFINITY;
    for (int i = bb->first; i < bb->first + bb->ninsts; i++) {
        const rf_inst *in = &f->insts[i];
        for (int k = 0; k < in->ndefs; k++)
            if (in->defs[k] < RF_MAX_GPR && in_line[map[in->defs[k]]] && tm->land[i] >= at) {
                at = tm->land[i];       /* ties: the later in the block, as the sort */
                last = map[in->defs[k]];
            }
    }
    return last;
}

/* A write of r lands on the line: its conflict chance, then the line
 * holds r. */
static void land_write(flow_acc *acc, double fb, double *dist, int k, int none, int slot, int r)
{
    double hit = dist[slot] + dist[none];
    acc->wc[r] += fb;
    acc->csum[r] += fb * (1.0 - (hit < 1 ? hit : 1));
    for (int j = 0; j < k; j++)
        dist[j] = 0;
    dist[slot] = 1;
}

/* Solve the last-writer distributions of one line and walk the blocks. */
static int flow_line(const rf_func *f, const double *freq, const double *ef, const int *map,
                     const flow_time *tm, const line_set *ls, const int *slot_of,
                     line_write *lw, flow_acc *acc)
{
    int nb = f->nblocks, k = ls->n + 1;
    int in_line[RF_MAX_GPR] = {0};
    for (int i = 0; i < ls->n; i++)
        in_line[ls->member[i]] = 1;
    gsl_matrix *A = gsl_matrix_calloc((size_t)nb, (size_t)nb);
    gsl_matrix *R = gsl_matrix_calloc((size_t)nb, (size_t)k);
    gsl_vector *x = gsl_vector_alloc((size_t)nb);
    gsl_permutation *perm = gsl_permutation_alloc((size_t)nb);
    int *last = malloc((size_t)nb * sizeof *last);
    double *X = malloc((size_t)nb * (size_t)k * sizeof *X);
    int rc = 0;
    if (!A || !R || !x || !perm || !last || !X) {
        rc = RF_ENOMEM;
        goto out;
    }
    for (int b = 0; b < nb; b++)
        last[b] = last_write(f, b, map, in_line, tm);
    for (int b = 0; b < nb; b++) {
        if (!(freq[b] > 0)) {
            gsl_matrix_set(A, (size_t)b, (size_t)b, 1.0);
            gsl_matrix_set(R, (size_t)b, (size_t)ls->n, 1.0);
            continue;
        }
        *gsl_matrix_ptr(A, (size_t)b, (size_t)b) += freq[b];
        if (b == 0)
            *gsl_matrix_ptr(R, 0, (size_t)ls->n) += 1.0;
    }
    for (int p = 0; p < nb; p++) {
        const rf_block *bb = &f->blocks[p];
        for (int s = 0; s < bb->nsucc && s < 2; s++) {
            int b = bb->succ[s];
            double e = ef[2 * p + s];
            if (b < 0 || b >= nb || !(e > 0) || !(freq[b] > 0))
                continue;
            if (last[p] < 0)
                *gsl_matrix_ptr(A, (size_t)b, (size_t)p) -= e;
            else
                *gsl_matrix_ptr(R, (size_t)b, (size_t)slot_in(ls, slot_of, last[p])) += e;
        }
    }
    int sign;
    if (gsl_linalg_LU_decomp(A, perm, &sign) != 0) {
        rc = RF_EINTERNAL;
        goto out;
    }
    for (int j = 0; j < k; j++) {
        gsl_vector_view col = gsl_matrix_column(R, (size_t)j);
        if (gsl_linalg_LU_solve(A, perm, &col.vector, x) != 0) {
            rc = RF_EINTERNAL;
            goto out;
        }
        for (int b = 0; b < nb; b++)
            X[(size_t)b * (size_t)k + (size_t)j] = gsl_vector_get(x, (size_t)b);
    }
    double dist[RF_MAX_GPR + 1];
    for (int b = 0; b < nb; b++) {
        if (!(freq[b] > 0))
            continue;
        double fb = freq[b];
        memcpy(dist, &X[(size_t)b * (size_t)k], (size_t)k * sizeof *dist);
        int nw = block_writes(f, b, map, in_line, tm, lw), next = 0;
        const rf_block *bb = &f->blocks[b];
        for (int i = bb->first; i < bb->first + bb->ninsts; i++) {
            for (; next < nw && lw[next].land <= tm->issue[i]; next++)
                land_write(acc, fb, dist, k, ls->n, slot_of[lw[next].reg], lw[next].reg);
            const rf_inst *in = &f->insts[i];
            for (int u = 0; u < in->nuses; u++) {
                int r0 = in->uses[u];
                if (r0 >= RF_MAX_GPR || !in_line[map[r0]])
                    continue;
                bool dup = false;
                for (int v = 0; v < u; v++)
                    dup |= in->uses[v] == in->uses[u];
                if (dup)
                    continue;
                int r = map[r0];
                acc->rc[r] += fb;
                acc->hsum[r] += fb * dist[slot_of[r]];
            }
        }
        for (; next < nw; next++)
            land_write(acc, fb, dist, k, ls->n, slot_of[lw[next].reg], lw[next].reg);
    }
out:
    gsl_matrix_free(A);
    gsl_matrix_free(R);
    gsl_vector_free(x);
    gsl_permutation_free(perm);
    free(last);
    free(X);
    return rc;
}

/* ---- Best: the oracle's choice between two count orderings -----------
 *
 * Section 3's Best orders registers by their dynamic write counts (the
 * post-execution information) so the most written ones spread over the
 * critical sets.  Counts alone do not see the order of the writes: where
 * two registers of one set are written in turn, another ordering can land
 * on a better partition (bfs: Algorithm 1 on the dynamic counts gives 42.8
 * write-backs per 100 writes in the sampler, on CAC's loop-weighted counts
 * 36.3).  An oracle knows the order too, so rfkit's Best takes, of
 * Algorithm 1 on the dynamic counts and on the loop-weighted counts, the
 * one whose code gives fewer expected write-backs (ties: the dynamic one):
 *     WB = sum_l sum_{r on l} [ c_r + w_r (1 - q_r) + q_r c_r ] / 2,
 * each line halfway between its own order (c_r: the flow's conflict
 * chance, w_r c_r write-backs) and independent interleaving (q_r = w_r /
 * sum_l w), the default locality. */
static int flow_map(const rf_func *f, const double *freq, const double *ef, const rf_rc_geom *g,
                    const int *map, const double *lat, const double *gaps, rf_rcc_flow *out,
                    rf_err *err);

static double best_cost(const rf_rcc_flow *fl, const rf_rc_geom *g)
{
    double line_w[2 * RF_MAX_GPR] = {0};
    int nl = rf_rc_lines(g) * rf_rc_ways(g);
    if (nl > 2 * RF_MAX_GPR)
        nl = 2 * RF_MAX_GPR;
    for (int r = 0; r < fl->nregs; r++)
        line_w[own_line(g, r) % nl] += fl->writes[r];
    double total = 0;
    for (int r = 0; r < fl->nregs; r++) {
        double w = fl->writes[r], tot = line_w[own_line(g, r) % nl];
        if (!(w > 0))
            continue;
        double q = w / tot, wb = w * fl->c[r];
        total += 0.5 * (wb + w * (1.0 - q) + q * wb);
    }
    return total;
}

/* Best's map (see above) into map; falls back to Algorithm 1 on the
 * dynamic counts without code or on an error.  Returns the ID span.  Its
 * costs take the writes in program order (no write timing): Best is a
 * compile-time choice, the same map the sampler runs (rf_rcc_assign_map). */
static int best_map(const rf_rcc_writes *w, const rf_rc_geom *g, int *map)
{
    int span = rf_dst_cac_aligned(w->dyn, w->width, w->nregs, map);
    const rf_func *f = w->func;
    if (!f || f->nblocks < 1 || f->nblocks > FLOW_MAX_BLOCKS || g->index == RF_RC_FULL)
        return span;
    int nb = f->nblocks;
    double *freq = calloc((size_t)nb, sizeof *freq);
    double *ef = calloc((size_t)nb * 2, sizeof *ef);
    rf_rcc_flow *fl = malloc(sizeof *fl);
    int alt[RF_MAX_GPR];
    for (int r = 0; r < RF_MAX_GPR; r++)
        alt[r] = r;
    int alt_span = rf_dst_cac_aligned(w->stat_loop, w->width, w->nregs, alt);
    int rc = freq && ef && fl ? rf_dst_block_freq(f, w->prof.trip, w->prof.taken, NULL, freq, ef,
                                                  NULL)
                              : RF_ENOMEM;
    double dyn_cost = 0;
    if (rc == 0 && (rc = flow_map(f, freq, ef, g, map, NULL, NULL, fl, NULL)) == 0)
        dyn_cost = best_cost(fl, g);
    if (rc == 0 && (rc = flow_map(f, freq, ef, g, alt, NULL, NULL, fl, NULL)) == 0 &&
        best_cost(fl, g) < dyn_cost - 1e-12 * dyn_cost) {
        span = alt_span;
        memcpy(map, alt, sizeof alt);
    }
    free(freq);
    free(ef);
    free(fl);
    return span;
}

/* Issue and landing times of every instruction (the header's write
 * timing): each block from its entry with no write pending, in order, an
 * instruction waiting until its sources, destinations and guard have
 * landed and issuing gaps[class] cycles after the one before it (at least
 * one); a result lands lat[class] cycles after its issue.  lat NULL:
 * program order (i issues at i, lands at i + 1/2, before the next
 * instruction's reads). */
static void flow_times(const rf_func *f, const double *lat, const double *gaps, flow_time *tm)
{
    enum { NR = RF_PRED_BASE + RF_MAX_PRED };
    double ready[NR];
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *bb = &f->blocks[b];
        double t = 0;
        for (int r = 0; r < NR; r++)
            ready[r] = 0;
        for (int i = bb->first; i < bb->first + bb->ninsts; i++) {
            const rf_inst *in = &f->insts[i];
            if (!lat) {
                tm->issue[i] = i;
                tm->land[i] = i + 0.5;
                continue;
            }
            double start = t;
            for (int u = 0; u < in->nuses; u++)
                if (in->uses[u] < NR && ready[in->uses[u]] > start)
                    start = ready[in->uses[u]];
            for (int d = 0; d < in->ndefs; d++)
                if (in->defs[d] < NR && ready[in->defs[d]] > start)
                    start = ready[in->defs[d]];
            if (in->guard >= 0 && in->guard < NR && ready[in->guard] > start)
                start = ready[in->guard];
            double l = in->cls < RF_OC_COUNT && lat[in->cls] > 0 ? lat[in->cls] : 1.0;
            tm->issue[i] = start;
            tm->land[i] = start + l;
            for (int d = 0; d < in->ndefs; d++)
                if (in->defs[d] < NR)
                    ready[in->defs[d]] = start + l;
            double gap = in->cls < RF_OC_COUNT && gaps && gaps[in->cls] > 1 ? gaps[in->cls] : 1.0;
            t = start + gap;
        }
    }
}

/* The flow of f renumbered by map (blocks' expected executions freq, edge
 * flows ef), writes landing as flow_times says (lat NULL: in program
 * order). */
static int flow_map(const rf_func *f, const double *freq, const double *ef, const rf_rc_geom *g,
                    const int *map, const double *lat, const double *gaps, rf_rcc_flow *out,
                    rf_err *err)
{
    line_set *ls = malloc(sizeof *ls);
    flow_acc *acc = calloc(1, sizeof *acc);
    size_t ni = (size_t)(f->ninsts > 0 ? f->ninsts : 1);
    flow_time tm = {malloc(ni * sizeof *tm.issue), malloc(ni * sizeof *tm.land)};
    line_write *lw = malloc(ni * RF_MAX_DEFS * sizeof *lw);
    int rc = 0;
    if (!ls || !acc || !tm.issue || !tm.land || !lw) {
        rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory for the flow");
        goto out;
    }
    flow_times(f, lat, gaps, &tm);
    /* Registers present (new IDs) and their lines. */
    bool used[RF_MAX_GPR] = {false};
    for (int i = 0; i < f->ninsts; i++) {
        const rf_inst *in = &f->insts[i];
        for (int d = 0; d < in->ndefs; d++)
            if (in->defs[d] < RF_MAX_GPR)
                used[map[in->defs[d]]] = true;
        for (int u = 0; u < in->nuses; u++)
            if (in->uses[u] < RF_MAX_GPR)
                used[map[in->uses[u]]] = true;
    }
    int line_of[RF_MAX_GPR], slot_of[RF_MAX_GPR];
    bool done[RF_MAX_GPR] = {false};
    for (int r = 0; r < RF_MAX_GPR; r++)
        line_of[r] = used[r] ? own_line(g, r) : -1;
    for (int r = 0; r < RF_MAX_GPR && rc == 0; r++) {
        if (!used[r] || done[r])
            continue;
        ls->n = 0;
        for (int q = r; q < RF_MAX_GPR; q++)
            if (used[q] && !done[q] && line_of[q] == line_of[r]) {
                slot_of[q] = ls->n;
                ls->member[ls->n++] = q;
                done[q] = true;
            }
        rc = flow_line(f, freq, ef, map, &tm, ls, slot_of, lw, acc);
        if (rc)
            rc = rf_err_set(err, rc, NULL, 0, 0, f->name, "register-cache flow: %s",
                            rc == RF_ENOMEM ? "out of memory" : "singular CFG system");
    }
    if (rc == 0) {
        memset(out, 0, sizeof *out);
        out->nregs = 0;
        for (int r = 0; r < RF_MAX_GPR; r++) {
            out->writes[r] = acc->wc[r];
            out->reads[r] = acc->rc[r];
            out->c[r] = acc->wc[r] > 0 ? acc->csum[r] / acc->wc[r] : 0;
            out->h[r] = acc->rc[r] > 0 ? acc->hsum[r] / acc->rc[r] : 0;
            if (used[r])
                out->nregs = r + 1;
        }
    }
out:
    free(ls);
    free(acc);
    free(tm.issue);
    free(tm.land);
    free(lw);
    return rc;
}

int rf_rcc_flow_of(const rf_rcc_writes *w, const rf_rc_geom *g, int assign, rf_rcc_flow *out,
                   rf_err *err)
{
    double wr[RF_MAX_GPR];
    int span = rf_rcc_assigned_writes(w, g, assign, wr);
    const rf_func *f = w->func;
    if (!f || f->nblocks < 1 || f->nblocks > FLOW_MAX_BLOCKS) {
        rf_rcc_flow_indep(wr, span, g, out);
        return 0;
    }
    int map[RF_MAX_GPR];
    rf_rcc_assign_map(w, g, assign, map);
    int nb = f->nblocks;
    double *freq = calloc((size_t)nb, sizeof *freq);
    double *ef = calloc((size_t)nb * 2, sizeof *ef);
    int rc = freq && ef ? rf_dst_block_freq(f, w->prof.trip, w->prof.taken, NULL, freq, ef, err)
                        : rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory for the flow");
    bool timed = false;
    for (int c = 0; c < RF_OC_COUNT; c++)
        timed |= w->lat[c] > 0;
    if (rc == 0)
        rc = flow_map(f, freq, ef, g, map, timed ? w->lat : NULL, w->gap, out, err);
    free(freq);
    free(ef);
    return rc;
}

/* Characteristic time of LRU with e lines over shares q[0..n-1] (sum 1);
 * INFINITY when they fit.  occ(T) = sum (1 - exp(-q T)) rises and is
 * concave, so Newton's steps from inside the bracket [lo, hi] converge
 * fast; a step that leaves the bracket bisects instead.  Stops when the
 * bracket or the step is within 1e-13 of T (about 6 iterations instead
 * of bisection's 45 to the same precision). */
static double lru_time(const double *q, int n, int e)
{
    if (n <= e)
        return INFINITY;
    double lo = 0, hi = 1;
    for (;;) {
        double occ = 0;
        for (int i = 0; i < n; i++)
            occ += 1.0 - exp(-q[i] * hi);
        if (occ >= e || hi > 1e12)
            break;
        lo = hi;
        hi *= 2;
    }
    double t = 0.5 * (lo + hi);
    for (int it = 0; it < 100; it++) {
        double occ = 0, slope = 0;
        for (int i = 0; i < n; i++) {
            double x = exp(-q[i] * t);
            occ += 1.0 - x;
            slope += q[i] * x;
        }
        if (occ < e)
            lo = t;
        else
            hi = t;
        double next = slope > 0 ? t - (occ - e) / slope : 0.5 * (lo + hi);
        if (!(next > lo && next < hi))
            next = 0.5 * (lo + hi);
        if (fabs(next - t) <= 1e-13 * t || hi - lo <= 1e-13 * hi)
            return next;
        t = next;
    }
    return t;
}

/* Per register, averaged over the warps at the locality: the chance a
 * write evicts a pair of its own warp (own) or any pair (any), and the
 * chance a read misses (miss). */
typedef struct reg_rates {
    double own[RF_MAX_GPR], any[RF_MAX_GPR], miss[RF_MAX_GPR], n[RF_MAX_GPR];
} reg_rates;

static void reg_add(reg_rates *rr, int r, double lambda, double in, double c, double h)
{
    if (!rr)
        return;
    const double lr = RF_RCC_READ_LOCALITY;
    rr->own[r] += lambda * c + (1.0 - lambda) * in * c;
    rr->any[r] += lambda * c + (1.0 - lambda) * ((1.0 - in) + in * c);
    rr->miss[r] += lr * (1.0 - h) + (1.0 - lr) * (1.0 - in * h);
    rr->n[r] += 1.0;
}

static void full_rates(const rf_rc_geom *g, const rf_rcc_flow *fl, int warps, double wtot,
                       double rtot, double lambda, rf_rcc_result *out, double *mi,
                       double *ma, reg_rates *rr)
{
    int e = rf_rc_ways(g), nsub = rf_rc_lines(g), nregs = fl->nregs;
    double *q = malloc((size_t)warps * (size_t)(nregs > 0 ? nregs : 1) * sizeof *q);
    int *reg = malloc((size_t)warps * (size_t)(nregs > 0 ? nregs : 1) * sizeof *reg);
    if (!q || !reg) {
        free(q);
        free(reg);
        return;
    }
    for (int s = 0; s < nsub; s++) {
        int n = 0;
        double ps = 0;
        for (int w = 0; w < warps; w++) {
            if (rf_rc_slot_of(g, w, 0).line != s)
                continue;
            for (int r = 0; r < nregs; r++)
                if (fl->writes[r] > 0) {
                    reg[n] = r;
                    q[n++] = fl->writes[r];
                    ps += fl->writes[r];
                }
        }
        if (ps <= 0)
            continue;
        out->pairs += n;
        out->lines_used += n < e ? n : e;
        for (int i = 0; i < n; i++)
            q[i] /= ps;
        double t = lru_time(q, n, e);
        for (int i = 0; i < n; i++) {
            int r = reg[i];
            double in_cache = isinf(t) ? 1.0 : 1.0 - exp(-q[i] * t);
            double p = fl->writes[r] / wtot, rq = rtot > 0 ? fl->reads[r] / rtot : 0;
            out->indep += p * ((1.0 - in_cache) + in_cache * fl->c[r]);
            out->intra += p * fl->c[r];
            reg_add(rr, r, lambda, in_cache, fl->c[r], fl->h[r]);
            mi[0] += rq * (1.0 - in_cache * fl->h[r]);
            ma[0] += rq * (1.0 - fl->h[r]);
        }
    }
    free(q);
    free(reg);
}

static void rates_core(const rf_rc_geom *g, const rf_rcc_flow *fl, int warps, double live,
                       double locality, rf_rcc_result *out, reg_rates *rr)
{
    memset(out, 0, sizeof *out);
    if (rr)
        memset(rr, 0, sizeof *rr);
    int nregs = fl->nregs;
    int maxw = 1 << g->warp_bits;
    if (warps > maxw)
        warps = maxw;
    double wsum = 0, rsum = 0;
    for (int r = 0; r < nregs; r++) {
        wsum += fl->writes[r];
        rsum += fl->reads[r];
    }
    if (wsum <= 0 || warps < 1)
        return;
    double wtot = wsum * warps, rtot = rsum * warps;
    double miss_indep = 0, miss_intra = 0;
    if (locality < 0)
        locality = 0;
    if (locality > 1)
        locality = 1;
    if (!(live > 0 && live < 1))
        live = 1.0;
    if (g->index == RF_RC_FULL) {
        int wl = (int)lround(warps * live);
        wl = wl < 1 ? 1 : wl;
        wtot = wsum * wl;
        rtot = rsum * wl;
        full_rates(g, fl, wl, wtot, rtot, locality, out, &miss_indep, &miss_intra, rr);
    } else {
        int nlines = rf_rc_lines(g);
        double *pl = calloc((size_t)nlines, sizeof *pl);
        double *pw = calloc((size_t)nlines, sizeof *pw);
        if (!pl || !pw) {
            free(pl);
            free(pw);
            return;
        }
        for (int w = 0; w < warps; w++)
            for (int r = 0; r < nregs; r++)
                if (fl->writes[r] > 0) {
                    pl[rf_rc_slot_of(g, w, r).line] += fl->writes[r] / wtot;
                    out->pairs++;
                }
        for (int l = 0; l < nlines; l++)
            out->lines_used += pl[l] > 0;
        for (int w = 0; w < warps; w++) {
            for (int r = 0; r < nregs; r++)
                if (fl->writes[r] > 0)
                    pw[rf_rc_slot_of(g, w, r).line] += fl->writes[r] / wtot;
            for (int r = 0; r < nregs; r++) {
                int l = rf_rc_slot_of(g, w, r).line;
                double others = pl[l] - pw[l];
                double s = pw[l] + live * others > 0 ? pw[l] / (pw[l] + live * others) : 1.0;
                double p = fl->writes[r] / wtot, q = rtot > 0 ? fl->reads[r] / rtot : 0;
                out->indep += p * ((1.0 - s) + s * fl->c[r]);
                out->intra += p * fl->c[r];
                reg_add(rr, r, locality, s, fl->c[r], fl->h[r]);
                miss_indep += q * (1.0 - s * fl->h[r]);
                miss_intra += q * (1.0 - fl->h[r]);
            }
            for (int r = 0; r < nregs; r++)
                pw[rf_rc_slot_of(g, w, r).line] = 0;
        }
        free(pl);
        free(pw);
    }
    out->conflict = (1.0 - locality) * out->indep + locality * out->intra;
    out->miss_indep = miss_indep;
    out->miss_intra = miss_intra;
    out->read_miss = (1.0 - RF_RCC_READ_LOCALITY) * miss_indep + RF_RCC_READ_LOCALITY * miss_intra;
    if (out->conflict < 0)
        out->conflict = 0;
    if (out->read_miss < 0)
        out->read_miss = 0;
    if (rr)
        for (int r = 0; r < RF_MAX_GPR; r++)
            if (rr->n[r] > 0) {
                rr->own[r] /= rr->n[r];
                rr->any[r] /= rr->n[r];
                rr->miss[r] /= rr->n[r];
            }
}

void rf_rcc_rates(const rf_rc_geom *g, const rf_rcc_flow *fl, int warps, double locality,
                  rf_rcc_result *out)
{
    rates_core(g, fl, warps, 1.0, locality, out, NULL);
}

void rf_rcc_rates_live(const rf_rc_geom *g, const rf_rcc_flow *fl, int warps, double live,
                       double locality, rf_rcc_result *out)
{
    rates_core(g, fl, warps, live, locality, out, NULL);
}

/* Banks an own write-back of register r can go to: the victim shares r's
 * line, so it agrees with r on the register bits the line fixes (concat: R
 * bits, TEA: all index bits); with kb of them and banks = 2^lb, kb >= lb
 * pins the bank (r mod banks, spread 1), fewer leave 2^(lb - kb) banks
 * (r + k step) mod banks, k < spread; fully associative: any bank. */
static void wb_spread(const rf_rc_geom *g, int banks, int *spread, int *step)
{
    int kb = g->index == RF_RC_CONCAT ? g->rbits : g->index == RF_RC_TEA ? g->index_bits : 0;
    int lb = 0;
    while ((1 << lb) < banks)
        lb++;
    *spread = (1 << lb) == banks && kb < lb ? 1 << (lb - kb) : (kb >= lb ? 1 : banks);
    *step = banks / *spread;
}

/* Shared set-up of the bank walks: the write-back spread, the assignment's
 * renumbering and the blocks' expected executions (*freq, caller frees;
 * RF_ENOMEM leaves it NULL). */
static int walk_setup(const rf_rcc_writes *w, const rf_rc_geom *g, int assign, int banks,
                      int *spread, int *step, int *map, double **freq, rf_err *err)
{
    const rf_func *f = w->func;
    wb_spread(g, banks, spread, step);
    rf_rcc_assign_map(w, g, assign, map);
    *freq = calloc((size_t)f->nblocks, sizeof **freq);
    if (!*freq)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory for the bank walk");
    return rf_dst_block_freq(f, w->prof.trip, w->prof.taken, NULL, *freq, NULL, err);
}

int rf_rcc_own_walk(const rf_rcc_writes *w, const rf_rc_geom *g, int assign, const double *own,
                    const double *miss, int banks, int service, double *read_stall,
                    double *wb_wait, rf_err *err)
{
    *read_stall = *wb_wait = 0.0;
    const rf_func *f = w->func;
    if (!f || f->nblocks < 1 || banks < 1 || service <= 1)
        return 0;
    if (banks > RF_RCC_MAX_BANKS)
        banks = RF_RCC_MAX_BANKS;
    int spread, step, map[RF_MAX_GPR];
    double *freq = NULL;
    int rc = walk_setup(w, g, assign, banks, &spread, &step, map, &freq, err);
    if (rc == RF_ENOMEM)
        return rc;
    double stall = 0.0, wait = 0.0, insts = 0.0;
    for (int b = 0; b < f->nblocks && rc == 0; b++) {
        if (!(freq[b] > 0))
            continue;
        const rf_block *bb = &f->blocks[b];
        bool self = (bb->nsucc > 0 && bb->succ[0] == b) || (bb->nsucc > 1 && bb->succ[1] == b);
        double backlog[RF_RCC_MAX_BANKS] = {0}, bs = 0.0, bw = 0.0;
        for (int pass = 0; pass < (self ? 2 : 1); pass++) {
            bs = bw = 0.0;
            for (int i = bb->first; i < bb->first + bb->ninsts; i++) {
                const rf_inst *in = &f->insts[i];
                double adv = 1.0;          /* the issue cycle */
                for (int u = 0; u < in->nuses; u++) {
                    int r0 = in->uses[u];
                    bool dup = false;
                    for (int v = 0; v < u; v++)
                        dup |= in->uses[v] == r0;
                    if (r0 >= RF_MAX_GPR || dup)
                        continue;
                    int r = map[r0];
                    double left = backlog[r % banks] - adv;
                    double t = left > 0 ? miss[r] * left : 0.0;
                    bs += t;
                    adv += t;
                }
                for (int j = 0; j < banks; j++)
                    backlog[j] = backlog[j] > adv ? backlog[j] - adv : 0.0;
                for (int d = 0; d < in->ndefs; d++) {
                    if (in->defs[d] >= RF_MAX_GPR)
                        continue;
                    int r = map[in->defs[d]];
                    double o = own[r] / spread;
                    for (int k = 0; k < spread; k++) {
                        int j = (r % banks + k * step) % banks;
                        bw += o * backlog[j];
                        backlog[j] += o * service;
                    }
                }
            }
        }
        stall += freq[b] * bs;
        wait += freq[b] * bw;
        insts += freq[b] * bb->ninsts;
    }
    free(freq);
    if (rc == 0 && insts > 0) {
        *read_stall = stall / insts;
        *wb_wait = wait / insts;
    }
    return rc;
}

int rf_rcc_wb_dispersion(const rf_rcc_writes *w, const rf_rc_geom *g, int assign,
                         const double *own, const double *any, const double *miss, int conc,
                         int banks, double *own_share, double *turn_vr, rf_err *err)
{
    *own_share = 0.0;
    if (turn_vr)
        *turn_vr = 0.0;
    const rf_func *f = w->func;
    if (!f || f->nblocks < 1 || banks < 1)
        return 0;
    if (banks > RF_RCC_MAX_BANKS)
        banks = RF_RCC_MAX_BANKS;
    if (conc < 1)
        conc = 1;
    int spread, step, map[RF_MAX_GPR];
    double *freq = NULL;
    int rc = walk_setup(w, g, assign, banks, &spread, &step, map, &freq, err);
    if (rc == RF_ENOMEM)
        return rc;
    /* Over the whole code: the warp's missing reads M_j and own write-backs
     * O_j on bank j, and its write-backs to other warps' pairs per bank, S
     * (spread evenly). */
    double rd[RF_RCC_MAX_BANKS] = {0}, wo[RF_RCC_MAX_BANKS] = {0}, ws = 0.0, insts = 0.0;
    for (int b = 0; b < f->nblocks && rc == 0; b++) {
        if (!(freq[b] > 0))
            continue;
        const rf_block *bb = &f->blocks[b];
        int ni = bb->ninsts;
        insts += freq[b] * ni;
        for (int i = bb->first; i < bb->first + ni; i++) {
            const rf_inst *in = &f->insts[i];
            for (int u = 0; u < in->nuses && miss; u++)
                if (in->uses[u] < RF_MAX_GPR) {
                    int r = map[in->uses[u]];
                    rd[r % banks] += freq[b] * miss[r];
                }
            for (int d = 0; d < in->ndefs; d++) {
                if (in->defs[d] >= RF_MAX_GPR)
                    continue;
                int r = map[in->defs[d]];
                double x = any[r] - own[r];
                for (int k = 0; k < spread; k++)
                    wo[(r % banks + k * step) % banks] += freq[b] * own[r] / spread;
                ws += x > 0 ? freq[b] * x / banks : 0.0;
            }
        }
    }
    free(freq);
    if (rc)
        return rc;
    /* Own share u = sum_j M_j O_j / sum_j M_j (O_j + S + (conc - 1)(O + S)),
     * O = sum_j O_j / B: the warp's own write-backs among all those at the
     * banks it reads, the other conc - 1 warps issuing at the same rate
     * spreading theirs evenly (the bank of register r of warp slot w is
     * (r + w) mod B, so their busy banks are elsewhere). */
    double ob = 0.0, num = 0.0, den = 0.0;
    for (int j = 0; j < banks; j++)
        ob += wo[j] / banks;
    for (int j = 0; j < banks; j++) {
        num += rd[j] * wo[j];
        den += rd[j] * (wo[j] + ws + (conc - 1) * (ob + ws));
    }
    if (den > 0)
        *own_share = num / den;
    /* Turn variance ratio: over the warps taking turns, the rate of bank
     * j's arrivals per instruction is O_j' + S (the issuing warp's own
     * write-backs, rotated by its slot, and the others' victims spread
     * evenly): Var / mean = sum_j (O_j - O)^2 / B / (O + S) per
     * instruction. */
    if (turn_vr && insts > 0 && ob + ws > 0) {
        double v = 0.0;
        for (int j = 0; j < banks; j++)
            v += (wo[j] - ob) * (wo[j] - ob) / banks;
        *turn_vr = v / insts / (ob + ws);
    }
    return 0;
}

double rf_rcc_fit_locality(const rf_rcc_result *res, const double *meas, int n)
{
    double num = 0, den = 0;
    for (int i = 0; i < n; i++) {
        double d = res[i].intra - res[i].indep;
        num += d * (meas[i] - res[i].indep);
        den += d * d;
    }
    if (den < 1e-12)
        return -1;
    double l = num / den;
    return l < 0 ? 0 : l > 0.95 ? 0.95 : l;
}


int rf_rcc_memo_prepare(rf_rcc_writes *w, const rf_gpu *gpu, const rf_design *d, rf_err *err)
{
    if (d->kind != RF_DESIGN_HIRF || w->nregs < 1 || !w->memo || w->memo->frozen)
        return 0;
    rf_rc_geom g;
    int rc = rf_rc_geom_for(d, gpu, &g, err);
    if (rc)
        return rc;
    rf_rcc_memo_slot *ms = rf_rcc_memo_get(w, &g, d->assign);
    if (ms && !ms->flow_ok) {
        rc = rf_rcc_flow_of(w, &g, d->assign, &ms->flow, err);
        ms->flow_ok = rc == 0;
    }
    return rc;
}

double rf_rcc_stall(double writes_per_inst, double conflict, int nvm_write_latency)
{
    int extra = nvm_write_latency > 1 ? nvm_write_latency - 1 : 0;
    return writes_per_inst * conflict * extra;
}

int rf_rcc_apply(const rf_gpu *gpu, const rf_design *d, int warps,
                 const struct rf_ipc_params *p, struct rf_ipc_machine *m,
                 struct rf_ipc_kernel *k, rf_rcc_result *out, rf_err *err)
{
    rf_rcc_result r;
    memset(&r, 0, sizeof r);
    if (out)
        *out = r;
    if (d->kind != RF_DESIGN_HIRF)
        return 0;
    rf_rc_geom g;
    int rc = rf_rc_geom_for(d, gpu, &g, err);
    if (rc)
        return rc;
    rf_rcc_flow *fl = malloc(sizeof *fl);
    if (!fl)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    /* Without the caller's memo, a one-slot memo for this estimate: the
     * flow and the two walks ask for the renumbering again. */
    rf_rcc_memo *callers = k->rcw.memo, mine = {0};
    rf_rcc_memo_slot *ms = k->rcw.nregs > 0 ? rf_rcc_memo_get(&k->rcw, &g, d->assign) : NULL;
    if (k->rcw.nregs > 0 && !ms) {
        /* No memo, or a frozen one without this flow. */
        rc = rf_rcc_memo_init(&mine, 1, err);
        k->rcw.memo = &mine;
        if (rc == 0)
            ms = rf_rcc_memo_get(&k->rcw, &g, d->assign);
    }
    if (rc == 0 && k->rcw.nregs > 0) {
        if (!ms->flow_ok) {
            rc = rf_rcc_flow_of(&k->rcw, &g, d->assign, &ms->flow, err);
            ms->flow_ok = rc == 0;
        }
        if (rc == 0)
            *fl = ms->flow;
    } else if (rc == 0) {
        double w[16];
        for (int i = 0; i < 16; i++)
            w[i] = 1.0;
        rf_rcc_flow_indep(w, 16, &g, fl);
    }
    reg_rates *rr = rc == 0 ? malloc(sizeof *rr) : NULL;
    if (rc == 0 && !rr)
        rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    int lw = gpu->nvm_write_latency > 1 ? gpu->nvm_write_latency : 1;
    double vr = 0.0;
    if (rc == 0) {
        rates_core(&g, fl, warps, k->live_frac, p->rc_locality, &r, rr);
        if (k->rcw.nregs > 0)
            rc = rf_rcc_own_walk(&k->rcw, &g, d->assign, rr->own, rr->miss, m->banks, lw,
                                 &r.own_read_stall, &r.own_wb_wait, err);
        if (rc == 0 && k->rcw.nregs > 0)
            rc = rf_rcc_wb_dispersion(&k->rcw, &g, d->assign, rr->own, rr->any, rr->miss,
                                      warps < gpu->schedulers ? warps : gpu->schedulers,
                                      m->banks, &r.wb_own_share, &vr, err);
    }
    free(rr);
    free(fl);
    k->rcw.memo = callers;
    rf_rcc_memo_free(&mine);
    if (rc)
        return rc;
    m->wb_rate += k->writes * r.conflict;
    /* The warp's own bank backlog (rf_rcc_own_walk). */
    m->extra_stall += r.own_read_stall + p->rc_stall * r.own_wb_wait;
    m->extra_hold += r.own_read_stall;
    k->reads *= r.read_miss;
    /* Reads reaching the banks per instruction: binomial thinning of the
     * operand-count histogram by the miss rate. */
    double thin[RF_IPC_MAXK + 1] = {0};
    double mr = r.read_miss;
    for (int n = 0; n <= RF_IPC_MAXK; n++) {
        double binom = 1.0;
        for (int j = 0; j <= n; j++) {
            thin[j] += k->read_k[n] * binom * pow(mr, j) * pow(1.0 - mr, n - j);
            binom = binom * (n - j) / (j + 1);
        }
    }
    memcpy(k->read_k, thin, sizeof thin);
    k->writes *= r.conflict * lw;
    m->write_service = lw;
    /* The bank queue charges the other warps' write-backs, Poisson
     * arrivals modulated by the warps' turns (Kingman, analytic/conflict.c):
     * (1 - u) (1 + turns); the warp's own are the walk's.  (Kept above 0.) */
    r.wb_turn = k->turn_insts > 0 ? 2.0 * TURN_SEEN * vr * k->turn_insts : 0.0;
    m->write_idc = (1.0 - r.wb_own_share) * (1.0 + r.wb_turn) * p->rc_burst;
    if (m->write_idc < 1e-6)
        m->write_idc = 1e-6;
    for (int b = 0; b <= RF_IPC_MAXB; b++)
        k->intra[b] *= r.read_miss * r.read_miss;
    if (out)
        *out = r;
    return 0;
}

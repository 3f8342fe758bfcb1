/* prefetch.c - stall terms of register-file caches over a slow main file
 * (seed 004 Sections 3-4 and 6.3), for the IPC model's per-instruction
 * stall interface (analytic/ipc.c: cpi_w = ... + s_x, collector hold + h_x).
 *
 * Main file (as the sampler, sampler/ltrf.c): access latency
 *   L = latency_x x 1 cycle           (Table 2 multiplier over #1's access)
 * on B = rf_banks x banks_x banks (Table 2: 16 for #1, #2, #4; 128 for #3,
 * #5-#7), not pipelined (an access holds its bank L cycles), a warp's
 * register r on bank (r + warp) mod B; and a fill crossbar of
 * g = 4 / rf_banks cycles per register with a traversal of X = 4 cycles
 * (Section 4.2).  A PREFETCH of n > 0 registers, D of them on its busiest
 * bank, holds its warp
 *   T(n) = k_op (D L + X - 1) + k_reg g n   cycles:
 * the busiest bank serves its D registers back to back (the bank conflicts
 * of Section 6.4), the traversal once, and per register its crossbar slot;
 * D is counted on each fetched bit vector (register mod B; the warp's
 * offset moves every register alike).  k_op and k_reg are free (1 gives the
 * unloaded time): they take up the queueing behind other warps' accesses
 * at the main banks and on the shared crossbar, and the overlap with the
 * warp's own stalls.  Defaults k_op 1, k_reg 2: the pool's warps fetch in
 * step over the crossbar's quarter bandwidth, so a register waits about
 * one slot more than it is served (bench_ltrf_calib, the nine, both pools,
 * uncalibrated mean |error| summed: k_reg 1 8.33%, 1.5 7.80%, 2 7.48%, 3
 * 7.78%; k_op 1.25 with k_reg 1.5 reads 7.46%, the same with two
 * constants moved).
 *
 * LTRF.  Per thread, from the register-intervals of size N (Algorithms 1
 * and 2, analytic/intervals.c) and the profile's edge frequencies: the
 * PREFETCH operations P (entries into an interval from another interval,
 * plus the kernel start) that fetch anything, the registers R they fetch
 * (the new interval's bit vector minus the registers of the interval left,
 * which stay cached; LTRF+: only those live at the entry) and their summed
 * depths sum D.  Pool exits A (Section 3.2; pool_exits below): a warp
 * leaves the active pool at the first instruction that needs a pending
 * long-latency result (loads issued back to back leave once) and at a
 * barrier, unless it is the last of its CTA's warps to get there: that one
 * passes at once (sampler/scheduler.c), so (W_cta - 1) / W_cta of the
 * barrier exits happen (rf_pf_cta_warps; LTRF #6 full runs, refetched
 * registers per instruction, sampler / model: nw_wave, 1-warp CTAs, 0.340
 * / 0.323; trsv, 2 warps, 1.972 / 1.978).  It comes back refetching the
 * working set of its interval
 * (LTRF+: the live part): Aa refetches of Ra registers, depths sum Da; none
 * when it resumes at the entry of another interval, whose PREFETCH (in P
 * and R) brings the registers.  Per instruction (I per thread):
 *   s_pf  = (k_op (L sum D  + P (X - 1)) + k_reg g R) / I
 *   s_act = (k_op (L sum Da + Aa (X - 1)) + k_reg g Ra) / I
 * Operands come from the cache's banks: the collector sees the banked
 * file's 1-cycle access.
 *
 * LTRF write race.  A result is written where its register is when it
 * lands: in the warp's partition (the cache's banks) or, when the partition
 * no longer holds it, in the main file (sampler/ltrf.c lt_write).  The
 * partition changes when the warp enters the next interval (the PREFETCH
 * gate switches it as soon as the scheduler looks at the warp after the
 * interval's last instruction issued, i.e. the next cycle) or leaves the
 * pool (barrier, first use of a pending load: the partition is freed).  A
 * result of latency class c (ALU, SFU, shared/constant memory; global and
 * local loads and atomics are taken as always landing in the main file:
 * the warp leaves the pool at their first use) with k instructions of its
 * interval still to issue after it stays in the cache when its register is
 * in the next interval's set too, or when it lands before the k-th of those
 * issues.  With issues as a Poisson stream of one per g cycles, the issues
 * during its 2 + lat_c cycles (operand read and write-back around the
 * pipe's latency) are X ~ Poisson((2 + lat_c) / g) and
 *   P(in time | k) = P(X <= k - 1)        (0 for k = 0),
 * k from the most frequent path (rf_pf_characterise; k >= RF_PF_RACE_K is
 * taken as in time).  The cache's share of the results
 *   w_c = (safe + sum_{c,k} n_{c,k} P(X_c <= k - 1)) / results
 * scales the bank writes of the IPC model (calibrate/extrapolate.c);
 * the rest are main-file writes.  g = 5 cycles (PF_RUN_GAP) is measured:
 * the least-squares fit of w_c to the sampler's cache-bank writes per
 * instruction of sgemm (maxwell-ltrf, LTRF, N = 8 .. 64: 0.17, 0.36, 0.49,
 * 0.60, 0.72, 0.89, 0.98 of the results; model 0.21, 0.39, 0.51, 0.60,
 * 0.69, 0.90, 0.96, rms 0.023).  It is shorter than the pool's mean issue
 * gap (8 warps per scheduler over the scheduler's issue rate, about 17
 * cycles on sgemm) because a warp's issues come in bursts: round robin
 * over the few ready pool warps.  Checks on other kernels at N = 16 (one
 * seed, cache-bank writes per instruction, sampler / model): stream 0.79 /
 * 0.77 (N = 8: 0.24 / 0.26), libor (N = 8) 0.74 / 0.72, hotspot 0.57 /
 * 0.54; memory-bound kernels are underestimated (bfs 0.55 / 0.37, spmv
 * 0.83 / 0.69, reduce 0.60 / 0.52: loads that return before their first
 * use keep the warp in the pool and write the cache), where bank queueing
 * matters little.
 *
 * Cache-bank queueing (LTRF).  The IPC model's bank queue (analytic/
 * conflict.c, M/D/1 with Poisson arrivals times conflict_scale) serves the
 * cache's banks; LTRF's get a further free factor k_q (ltrf_conflict,
 * calibrate/extrapolate.c): the two-level pool's few warps run the same
 * code in step and reach the banks in bursts, so their queue is longer than
 * the Poisson form's (fitted 0.9-2.1 on the bundled kernels, sgemm 2.1),
 * while RFC's cache banks, shared by all resident warps, keep
 * conflict_scale (sgemm RFC #3 at 1.97 IPC against 1.78 with the LTRF
 * factor shared).  Without k_q the fit pushed the queueing into pf_scale,
 * pf_reg and lat_scale (3.4-7.3 on sgemm), which then extrapolated the
 * wrong way with the interval size.
 *
 * RFC.  C = 16 KB of warp registers (gpu rc_entries x subcores, or design
 * rc_entries), fully associative LRU, allocated on read misses and writes,
 * shared by the W warps that take turns in it: under the two-level
 * scheduler the pool's warps and those that replace them while they wait on
 * memory, W_pool / r (r: share of a warp's time not waiting on memory), at
 * most the resident warps times the kernel's active fraction (calibrate/
 * extrapolate.c; the `pool` argument of rf_pf_terms_of).  The sampler
 * shows why the pool alone is not W: trsv's hit rate is 0.32 at pools of
 * both 8 and 32 warps.  Warps interleaving evenly each hold C / W lines, so a
 * read hits when its register was touched (read or written) by the same
 * warp with fewer than C / W other distinct registers since: its own-warp
 * LRU stack distance.  A result touches its line when it is written back,
 * not when its producer issues: meanwhile the warp issues the independent
 * instructions that follow, whose reads are older than the write.  The walk
 * lands a result PF_LAND of the warp's instructions after its producer,
 * or just before the first instruction that reads or rewrites it if that
 * comes sooner (the warp waits for it there), and every pending result
 * before the warp leaves the pool (they complete while it waits).  A
 * global or local load's or an atomic's result lands at once: its warp
 * leaves the pool to wait for it, and the line ages while the warp is out
 * and comes back.  The profile of those distances, reuse[c] = share of
 * reads at distance below c, comes from warp paths walked with the profile's
 * branch probabilities (PF_REUSE_INSTS instructions, fixed seed); first
 * touches never hit.  Then
 *   h = h0 reuse[C / W]                (interpolated; h0 free, 1 by default)
 * Under the two-level scheduler W depends on the reuse: while a warp stays
 * in the pool only the warps in the pool touch the cache beside it (W_pool
 * of them, or fewer where fewer resident warps are not waiting on memory:
 * the pool takes only those; calibrate/extrapolate.c), and
 * the W_pool / r that take turns do so only over a reuse that spans a pool
 * exit (the walk marks a read whose warp left the pool, pool_exits below,
 * since its register's last touch: reuse_span).  So
 *   h = h0 (reuse[C / W_pool] - span[C / W_pool] + span[C / W])
 * with W_pool the pool's warps, or the resident warps not waiting on
 * memory where they are fewer (the pool takes only those; calibrate/
 * extrapolate.c).  Where the kernel's DRAM cap holds the SM below what
 * its warps would issue, most of them queue for DRAM, and Little's law at
 * that cap bounds the rest by the cap times a warp's own cycles per
 * instruction (rf_extrap_rfc_warps): a DRAM-bound kernel's pool is not
 * full, and its few warps keep their registers in the cache (bscholes, #7,
 * the 32-warp pool: 5.5 warps in it, hit rate 0.95 against the sampler's
 * 0.95, 0.42 with the full pool).  The resident warps are those of the
 * run's CTAs still running: where the estimate knows each CTA's lone
 * cycles (a run of a few waves), the terms are the mean over the resident
 * counts the run passes through, weighed by the instructions issued at
 * each (calibrate/extrapolate.c rf_extrap_resident_shares; nbody, 16 CTAs
 * of drawn lengths in one wave, the 32-warp pool: 0.54 against the
 * sampler's 0.56, 0.28 with all 16 CTAs resident throughout).  Hit rates
 * on maxwell-ltrf #7 at rfkit's preferred pool (32 warps; full runs,
 * sampler / model): bfs 0.79 / 0.73, kmeans 0.65 / 0.67, libor 0.63 /
 * 0.64, spmv 0.52 / 0.49, stream 0.59 / 0.60, hotspot 0.60 / 0.64, sgemm
 * 0.21 / 0.24; mean |error| over the nine at both pools 0.046.  Off:
 * reduce 0.80 / 1.00, and on some kernels a warp's short reuses fall
 * inside runs of its own issues, during which fewer warps touch the cache
 * than even interleaving assumes (tri_imbal 0.72 / 0.65).
 * An instruction reading r registers misses at least once with probability
 * 1 - h^r; its operands then come from the main bank, straight into the
 * collector, L - 1 cycles after a bank read would have, so the collector
 * is held
 *   h_rfc = k_rfc (1 - h^r) (L - 1)
 * cycles more.  The collectors are split by unit class (analytic/ipc.c),
 * and the classes read registers of different reuse (a shared-memory
 * load's address is mostly a register just computed), so each class u
 * takes its own h_u and r_u, from the reads of its instructions alone:
 *   h_rfc,u = k_rfc (1 - h_u^r_u) (L - 1)
 * (rf_ipc_machine.class_hold).  The warp itself does not wait for its
 * collectors: it issues its next instructions while the miss is served
 * and stalls only where one of them needs the late result, after the
 * slack its code leaves.  The warp's path therefore takes, per instruction,
 *   s_rfc = k_rfc (1 - h^r) dS_dep
 * with dS_dep the growth of the lone-warp dependency stall S_dep (analytic/
 * kchar.c, the same walk as the IPC model's S_dep, PF_MISS_CTAS CTAs)
 * when every result comes L - 1 cycles late (rf_pf_rfc_walks; a fractional
 * L - 1 mixes the walks at its floor and ceiling, as the sampler dithers).
 * Linear in the miss probability: exact when each wait is bound by one late
 * producer, as the walk charges it.  Waits on global memory are left out:
 * the two-level pool's warps leave the pool for them.  Checked against the
 * sampler (maxwell-ltrf, full runs) by the IPC each kernel loses from 1x to
 * #6's 5.3x: kmeans 1.644 -> 1.361 (sampler), 1.648 -> 1.291 (model).
 * Without the walk (miss_delay 0) the path takes the whole h_rfc, an upper
 * bound.
 * Write-backs (energy): a result whose register is not cached starts a
 * dirty line, written back once when evicted: rfc_wb = 1 - reuse_w[C / W]
 * per result (reuse_w: the same profile over writes).
 * The former h = 0.8 min(1, C / (W l)) (l: live registers per warp) counted
 * the live registers of all pool warps; on maxwell-ltrf #6 it left RFC's
 * uncalibrated IPC 15% low on average (sfu: h 0.32 against the sampler's
 * 0.997 with 13 resident warps).
 *
 * LTRF write-backs (energy): at a pool exit the warp's partition (LTRF+:
 * its live registers) is written back, act_wb registers per thread; at a
 * PREFETCH the registers written in the interval left that the new one does
 * not hold, pf_wb (sampler/ltrf.c lt_pool, lt_gate), less those whose result
 * lost the write race there (pf_wb_late: it went to the main file and left
 * no dirty copy; a register is taken as written once per interval).
 *
 * Inputs: rf_pf_kernel (rf_pf_characterise), rf_design (rf_config,
 * latency_x, plus, interval_regs, rc_entries), rf_gpu (rf_banks, register
 * cache, alu/sfu/smem latencies).  Outputs: rf_pf_terms, cycles per
 * instruction, and LTRF's cache share of the results.
 */
#include "prefetch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/draw.h"
#include "../common/pool.h"
#include "dstcount.h"
#include "intervals.h"
#include "kchar.h"
#include "liveness.h"

#define PF_XBAR_DIV 4.0      /* fill crossbar: 1/4 of the baseline bandwidth */
#define PF_XBAR_LAT 4.0      /* cycles across the narrow crossbar */
#define PF_REUSE_INSTS 16384  /* instructions walked for the RFC reuse profile */
#define PF_REUSE_WALKS 64     /* at most this many warp paths */
#define PF_REUSE_SEED UINT64_C(0x72666372)
/* The warp's own instructions between a result's producer and its write-back
 * in the reuse walk (header, RFC): chosen on the nine tuning kernels by the
 * least sum of bench_ltrf_calib's calibrated mean |IPC error| at both pools
 * over calibration seeds 1-4 (0, landing at issue: 25.45 points; 2: 25.31;
 * 3: 25.07; 4: 25.45); the sampler's hit rates of RFC #7, mean |error| over
 * the nine at both pools, 0.046 at 0 and at 3. */
#define PF_LAND 3
#define PF_PENDING 64         /* results awaiting write-back in the walk (more land at once) */
#define PF_MISS_CTAS 8        /* CTAs of the RFC miss-path walk (the profile's draws) */
#define PF_RUN_GAP 5.0       /* cycles per issue of a warp finishing its interval (write
                                race; measured on sgemm, header) */

/* The cache's share of the results w_c (header, LTRF write race): the
 * results whose register the next interval holds too (wr_safe) plus, per
 * latency class c and instructions left k, those landing before the k-th
 * issue, P(X <= k - 1), X ~ Poisson((2 + lat_c) / g). */
static double in_time(const rf_gpu *gpu, const double race[RF_PF_NLAT][RF_PF_RACE_K])
{
    const double lat[RF_PF_NLAT] = {gpu->alu_latency, gpu->sfu_latency, gpu->smem_latency};
    double in = 0.0;
    for (int c = 0; c < RF_PF_NLAT; c++) {
        /* Issues during the result's 2 + latency cycles: Poisson, mean mu. */
        double mu = (2.0 + (lat[c] > 0 ? lat[c] : 1.0)) / PF_RUN_GAP;
        double term = exp(-mu), cdf = 0.0;      /* cdf = P(X <= k - 1) */
        for (int k = 1; k < RF_PF_RACE_K; k++) {
            cdf += term;
            in += race[c][k] * cdf;
            term *= mu / k;
        }
    }
    return in;
}

static double cache_share(const rf_gpu *gpu, const rf_pf_kernel *pk)
{
    if (!(pk->writes > 0))
        return 1.0;
    return fmin(1.0, (pk->wr_safe + in_time(gpu, pk->wr_race)) / pk->writes);
}

/* Racing results at a PREFETCH (not a pool exit) that land late: per thread. */
static double late_at_prefetch(const rf_gpu *gpu, const rf_pf_kernel *pk)
{
    double all = 0.0;
    for (int c = 0; c < RF_PF_NLAT; c++)
        for (int k = 0; k < RF_PF_RACE_K; k++)
            all += pk->wr_race_pf[c][k];
    return fmax(0.0, all - in_time(gpu, pk->wr_race_pf));
}

const rf_mparam rf_pf_mparams[] = {
    {"pf_scale", offsetof(rf_pf_params, pf_scale), 0.0, 8.0, 1.0, true, "1",
     "LTRF: multiplier on the per-operation part of PREFETCH and activation stalls"},
    {"pf_reg", offsetof(rf_pf_params, pf_reg), 0.0, 16.0, 2.0, true, "1",
     "LTRF: multiplier on the per-register part (crossbar slot, bank queues)"},
    {"rfc_hit", offsetof(rf_pf_params, rfc_hit), 0.0, 2.0, 1.0, true, "1",
     "multiplier on the RFC hit rate of the reuse model (the product capped at 1)"},
    {"rfc_scale", offsetof(rf_pf_params, rfc_scale), 0.0, 8.0, 1.0, true, "1",
     "multiplier on RFC miss stalls"},
    {"ltrf_conflict", offsetof(rf_pf_params, ltrf_conflict), 0.05, 20.0, 1.0, true, "1",
     "LTRF: multiplier on the queueing waits at the register cache's banks"},
};
const size_t rf_pf_nmparams = sizeof rf_pf_mparams / sizeof rf_pf_mparams[0];

void rf_pf_params_default(rf_pf_params *p)
{
    rf_mparam_defaults(rf_pf_mparams, rf_pf_nmparams, p);
}

/* The registers fetched: a \ b, or (a & live) \ b when live != NULL (b
 * may be NULL).  *n gets their count and depth[k] the most of them on one
 * of 2^k banks (bank = register mod 2^k). */
static void fetched(const rf_regset *a, const rf_regset *b, const rf_regset *live, int *n,
                    int depth[RF_PF_NBANKS])
{
    rf_regset s;
    for (int i = 0; i < 4; i++)
        s.w[i] = a->w[i] & (b ? ~b->w[i] : ~UINT64_C(0)) & (live ? live->w[i] : ~UINT64_C(0));
    *n = rf_regset_count(&s);
    for (int k = 0; k < RF_PF_NBANKS; k++) {
        int nb = 1 << k, load[1 << (RF_PF_NBANKS - 1)] = {0}, most = 0;
        for (int r = 0; r < 256; r++)
            if ((s.w[r >> 6] >> (r & 63)) & 1)
                if (++load[r & (nb - 1)] > most)
                    most = load[r & (nb - 1)];
        depth[k] = most;
    }
}

/* Dirty registers leaving the partition when the warp goes from interval
 * `from` to `to`: written in `from`, not in `to`'s set. */
static int dirty_leaving(const rf_intervals *iv, const rf_regset *wset, int from, int to)
{
    int n = 0;
    for (int i = 0; i < 4; i++)
        n += __builtin_popcountll(iv->iv[from].regs.w[i] & wset[from].w[i] & ~iv->iv[to].regs.w[i]);
    return n;
}

/* Add w operations of n registers with bank depths dep to the sums. */
static void add_ops(double w, int n, const int dep[RF_PF_NBANKS], double *ops, double *regs,
                    double depth[RF_PF_NBANKS])
{
    *ops += w;
    *regs += w * n;
    for (int k = 0; k < RF_PF_NBANKS; k++)
        depth[k] += w * dep[k];
}

/* True when every path out of instruction i of block bb enters another
 * register-interval at once: a warp leaving the pool there resumes at that
 * interval's entry, whose PREFETCH brings its registers (sampler/ltrf.c). */
static bool ends_interval(const rf_func *f, const rf_intervals *iv, const rf_block *bb, int i)
{
    int here = iv->of_inst[i];
    if (i + 1 < bb->first + bb->ninsts)
        return iv->of_inst[i + 1] != here;
    if (bb->nsucc == 0)
        return false;
    for (int s = 0; s < bb->nsucc; s++) {
        int t = bb->succ[s];
        if (t < 0 || t >= f->nblocks || f->blocks[t].ninsts == 0 ||
            iv->of_inst[f->blocks[t].first] == here)
            return false;
    }
    return true;
}

/* Result latency class of an instruction for the write race (ALU, SFU,
 * shared/constant), or -1 for results that do not race the interval switch:
 * long-latency loads and atomics (the warp leaves the pool at their first use
 * and the result lands in the main file, sampler/ltrf.c) and instructions
 * with no result. */
static int race_class(const rf_inst *in)
{
    switch (in->cls) {
    case RF_OC_SFU:
        return 1;
    case RF_OC_LD_SHARED:
    case RF_OC_LD_CONST:
        return 2;
    case RF_OC_LD_GLOBAL:
    case RF_OC_LD_LOCAL:
    case RF_OC_ATOMIC:
    case RF_OC_BARRIER:
    case RF_OC_EXIT:
        return -1;
    default:
        return 0;
    }
}

/* The write race of instruction i (block b): *k gets the instructions of
 * its interval the warp issues after i before it leaves the interval (its
 * PREFETCH switches the partition at the next interval's entry) or the pool
 * (a barrier, a pending load's first use: the partition is freed), following
 * the most frequent successor inside the interval; *next the set of the
 * interval entered (NULL at a pool exit: nothing stays).  false when
 * RF_PF_RACE_K or more follow (the result is taken as landing in time). */
static bool race_of(const rf_func *f, const rf_intervals *iv, const uint8_t *exit_at,
                    const double *edge, int b, int i, int *k, const rf_regset **next)
{
    int here = iv->of_inst[i], n = 0;
    int j = i + 1;
    for (int steps = 0; steps < 4 * RF_PF_RACE_K; steps++) {
        const rf_block *bb = &f->blocks[b];
        for (; j < bb->first + bb->ninsts; j++) {
            if (iv->of_inst[j] != here) {
                *k = n;
                *next = &iv->iv[iv->of_inst[j]].regs;
                return true;
            }
            if (exit_at[j] == 1) {          /* leaves before j issues */
                *k = n;
                *next = NULL;
                return true;
            }
            if (++n >= RF_PF_RACE_K)
                return false;
            if (exit_at[j] == 2) {          /* a barrier: leaves after it issues */
                *k = n;
                *next = NULL;
                return true;
            }
        }
        int t = -1;
        double best = -1;
        for (int s = 0; s < bb->nsucc; s++) {
            int u = bb->succ[s];
            if (u >= 0 && u < f->nblocks && f->blocks[u].ninsts > 0 && edge[2 * b + s] > best) {
                best = edge[2 * b + s];
                t = u;
            }
        }
        if (t < 0) {                        /* the warp exits */
            *k = n;
            *next = NULL;
            return true;
        }
        b = t;
        j = f->blocks[t].first;
    }
    return false;
}

static bool long_latency(const rf_inst *in)
{
    return rf_live_long_latency(in) || in->cls == RF_OC_ATOMIC;
}

/* Where warps leave the two-level scheduler's active pool (Section 3.2:
 * "whenever a warp encounters a long latency operation ... it becomes
 * inactive"; as the sampler: when its next instruction needs the result of
 * a pending global/local load or atomic, or waits at a barrier).  Loads
 * issued back to back before the first use take the warp out once.
 * Forward may-analysis of the registers with a pending long-latency result
 * (union at joins): instruction i is an exit when it reads or writes one of
 * them (the warp resumes at i) and clears the set (the warp returns when its
 * data is back; the loads before it are taken as back too); a barrier is an
 * exit resuming after it.  Exit flags only turn on, so the iteration ends.
 * exit_at[i]: 0 none, 1 the warp resumes at i, 2 after i (barrier). */
static int pool_exits(const rf_func *f, uint8_t *exit_at, rf_err *err)
{
    int nb = f->nblocks;
    rf_regset *pin = calloc((size_t)(nb > 0 ? nb : 1), sizeof *pin);
    if (!pin)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "prefetch model: out of memory");
    memset(exit_at, 0, (size_t)f->ninsts);
    bool changed = true;
    for (int round = 0; changed && round < 4 * nb + 8; round++) {
        changed = false;
        for (int b = 0; b < nb; b++) {
            const rf_block *bb = &f->blocks[b];
            rf_regset p = pin[b];
            for (int i = bb->first; i < bb->first + bb->ninsts; i++) {
                const rf_inst *in = &f->insts[i];
                rf_regset r, w;
                uint8_t pr;
                rf_inst_reads(in, &r, &pr);
                rf_inst_writes(in, &w, &pr);
                bool hit = false;
                for (int k = 0; k < 4; k++)
                    hit |= ((r.w[k] | w.w[k]) & p.w[k]) != 0;
                uint8_t e = in->cls == RF_OC_BARRIER ? 2 : hit ? 1 : exit_at[i];
                if (e != exit_at[i] && exit_at[i] == 0) {
                    exit_at[i] = e;
                    changed = true;
                }
                if (exit_at[i])
                    memset(&p, 0, sizeof p);
                for (int k = 0; k < 4; k++)
                    p.w[k] = long_latency(in) ? p.w[k] | w.w[k] : p.w[k] & ~w.w[k];
            }
            for (int s = 0; s < bb->nsucc; s++) {
                int t = bb->succ[s];
                if (t < 0 || t >= nb)
                    continue;
                rf_regset u = pin[t];
                rf_regset_union(&u, &p);
                if (!rf_regset_equal(&u, &pin[t])) {
                    pin[t] = u;
                    changed = true;
                }
            }
        }
    }
    free(pin);
    return 0;
}

/* One warp path's own LRU stack of general registers (reuse_walk), kept
 * as each register's last touch: a register's stack distance is the count
 * of registers touched after it (the stack holds every register the walk
 * touched, at most RF_PF_REUSE: a register set's 4 words of 64). */
typedef struct lru_walk {
    uint32_t last[RF_PF_REUSE]; /* each register's last touch (0: not yet) */
    long ep[RF_PF_REUSE];       /* pool exits before each register's last touch */
    uint32_t clock;             /* touches so far */
    int chunks;                 /* LRU_CHUNK-register chunks that hold a touch */
    long epoch;                 /* pool exits so far */
    int pq[PF_PENDING], npq;    /* results not landed yet, oldest first */
    long pdue[PF_PENDING];      /* the instruction each is due by */
    double *histw, nwrites;     /* the writes' LRU positions (the walk's) */
} lru_walk;

/* Registers counted at once by lru_pos (a fixed count: one vector loop). */
#define LRU_CHUNK 16

/* Register q's stack distance (0: the top), or -1 when not touched yet. */
static int lru_pos(const lru_walk *lw, int q)
{
    uint32_t t = lw->last[q];
    if (t == 0)
        return -1;
    int n = 0;
    for (int c = 0; c < lw->chunks; c++) {
        const uint32_t *l = lw->last + c * LRU_CHUNK;
        for (int x = 0; x < LRU_CHUNK; x++)
            n += l[x] > t;
    }
    return n;
}

/* Move register q to the top of the stack. */
static void lru_top(lru_walk *lw, int q)
{
    lw->last[q] = ++lw->clock;
    lw->ep[q] = lw->epoch;
    if (q / LRU_CHUNK >= lw->chunks)
        lw->chunks = q / LRU_CHUNK + 1;
}

/* Result register g lands: its LRU position counts among the writes', and
 * it moves to the top. */
static void land_one(lru_walk *lw, int g)
{
    int j = lru_pos(lw, g);
    if (j >= 0)
        lw->histw[j] += 1;
    lw->nwrites += 1;
    lru_top(lw, g);
}

/* The pending results due by instruction `now` (every one when now < 0)
 * or read or rewritten by the instruction (r, w) land, oldest first. */
static void land(lru_walk *lw, const rf_regset *r, const rf_regset *w, long now)
{
    for (int e = 0; e < lw->npq;) {
        int g = lw->pq[e];
        bool dep = rf_regset_has(r, g) || rf_regset_has(w, g);
        if (!(now < 0 || dep || lw->pdue[e] <= now)) {
            e++;
            continue;
        }
        land_one(lw, g);
        size_t rest = (size_t)(lw->npq - e - 1);
        memmove(lw->pq + e, lw->pq + e + 1, rest * sizeof *lw->pq);
        memmove(lw->pdue + e, lw->pdue + e + 1, rest * sizeof *lw->pdue);
        lw->npq--;
    }
}

/* RFC reuse (header): warp paths drawn with the block edge probabilities
 * edge / freq (the sampler's branch rules; fixed seed, deterministic), up to
 * PF_REUSE_INSTS instructions in all; every register read records its
 * register's position in the warp's own LRU stack of general registers
 * (a read moves its register to the top at once, a result when it lands:
 * PF_LAND instructions after its producer, before the first instruction
 * that reads or rewrites it, or before the warp leaves the pool, whichever
 * comes first; a long-latency load's or an atomic's before the next
 * instruction).  out->reuse[c] = share of reads at a position below c;
 * first touches never count as hits. */
static void reuse_walk(const rf_func *f, const double *freq, const double *edge,
                       const uint8_t *exit_at, rf_pf_kernel *out)
{
    double hist[RF_PF_REUSE], histw[RF_PF_REUSE], hists[RF_PF_REUSE];
    double hist_u[3][RF_PF_REUSE], hists_u[3][RF_PF_REUSE];
    memset(hist, 0, sizeof hist);
    memset(histw, 0, sizeof histw);
    memset(hists, 0, sizeof hists);
    memset(hist_u, 0, sizeof hist_u);
    memset(hists_u, 0, sizeof hists_u);
    double nreads = 0, nreads_u[3] = {0, 0, 0}, ninsts_u[3] = {0, 0, 0};
    int entry = 0;                          /* the kernel IR's entry block */
    long left = PF_REUSE_INSTS;
    lru_walk lw = {.histw = histw};
    for (uint64_t walk = 0; walk < PF_REUSE_WALKS && left > 0; walk++) {
        memset(lw.last, 0, sizeof lw.last);
        lw.clock = 0;
        lw.chunks = 0;
        lw.npq = 0;
        lw.epoch = 0;
        long n = 0;
        uint64_t step = 0;
        int b = entry;
        while (b >= 0 && b < f->nblocks && left > 0) {
            const rf_block *bb = &f->blocks[b];
            for (int i = bb->first; i < bb->first + bb->ninsts && left > 0; i++, left--, n++) {
                rf_regset r, w;
                uint8_t pr;
                rf_inst_reads(&f->insts[i], &r, &pr);
                rf_inst_writes(&f->insts[i], &w, &pr);
                /* Results land (touch their line) when due, before an
                 * instruction that reads or rewrites them, or all of them
                 * while the warp waits out of the pool. */
                bool out_before = exit_at && exit_at[i] == 1;
                land(&lw, &r, &w, out_before ? -1 : n);
                if (out_before)
                    lw.epoch++;             /* the warp left the pool before i */
                int u = rf_kchar_unit_of(f->insts[i].cls);
                if (u >= 0)
                    ninsts_u[u] += 1;
                for (int word = 0; word < 4; word++)
                    for (uint64_t bits = r.w[word]; bits; bits &= bits - 1) {
                        int q = word * 64 + __builtin_ctzll(bits);
                        int j = lru_pos(&lw, q);
                        if (j >= 0) {
                            bool span = lw.ep[q] != lw.epoch;
                            hist[j] += 1;
                            hists[j] += span;
                            if (u >= 0) {
                                hist_u[u][j] += 1;
                                hists_u[u][j] += span;
                            }
                        }
                        nreads += 1;
                        if (u >= 0)
                            nreads_u[u] += 1;
                    }
                for (int word = 0; word < 4; word++)
                    for (uint64_t bits = r.w[word]; bits; bits &= bits - 1)
                        lru_top(&lw, word * 64 + __builtin_ctzll(bits));
                int cls = f->insts[i].cls;
                long due = cls == RF_OC_LD_GLOBAL || cls == RF_OC_LD_LOCAL || cls == RF_OC_ATOMIC
                               ? n : n + PF_LAND;
                for (int word = 0; word < 4; word++)
                    for (uint64_t bits = w.w[word]; bits; bits &= bits - 1) {
                        int q = word * 64 + __builtin_ctzll(bits);
                        if (lw.npq < PF_PENDING) {
                            lw.pq[lw.npq] = q;
                            lw.pdue[lw.npq++] = due;
                        } else {
                            land_one(&lw, q);
                        }
                    }
                if (exit_at && exit_at[i] == 2) {
                    land(&lw, &r, &w, -1);
                    lw.epoch++;             /* a barrier: the warp leaves after i */
                }
            }
            /* Next block: successor s with probability edge[2b + s] / freq[b]. */
            int next = -1;
            if (bb->nsucc > 0 && freq[b] > 0) {
                double u = rf_draw_uniform(PF_REUSE_SEED, walk, step++, RF_DRAW_BRANCH) * freq[b];
                for (int s = 0; s < bb->nsucc && next < 0; s++) {
                    u -= edge[2 * b + s];
                    if (u < 0 || s == bb->nsucc - 1)
                        next = bb->succ[s];
                }
            }
            b = next;
        }
    }
    double cum = 0, cumw = 0, cums = 0, cum_u[3] = {0, 0, 0}, cums_u[3] = {0, 0, 0};
    out->reuse[0] = out->reuse_w[0] = out->reuse_span[0] = 0;
    for (int u = 0; u < 3; u++) {
        out->reuse_u[u][0] = out->reuse_span_u[u][0] = 0;
        out->reads_u[u] = ninsts_u[u] > 0 ? nreads_u[u] / ninsts_u[u] : 0.0;
    }
    for (int c = 1; c <= RF_PF_REUSE; c++) {
        cum += hist[c - 1];
        cumw += histw[c - 1];
        cums += hists[c - 1];
        out->reuse[c] = nreads > 0 ? cum / nreads : 1.0;
        out->reuse_w[c] = lw.nwrites > 0 ? cumw / lw.nwrites : 1.0;
        out->reuse_span[c] = nreads > 0 ? cums / nreads : 0.0;
        for (int u = 0; u < 3; u++) {
            cum_u[u] += hist_u[u][c - 1];
            cums_u[u] += hists_u[u][c - 1];
            out->reuse_u[u][c] = nreads_u[u] > 0 ? cum_u[u] / nreads_u[u] : 1.0;
            out->reuse_span_u[u][c] = nreads_u[u] > 0 ? cums_u[u] / nreads_u[u] : 0.0;
        }
    }
}

int rf_pf_characterise(const rf_func *f, const rf_profile *prof, int regs, bool plus,
                       rf_pf_kernel *out, rf_err *err)
{
    memset(out, 0, sizeof *out);
    out->regs = regs;
    out->plus = plus;
    int nb = f->nblocks;
    double *freq = malloc(sizeof *freq * (size_t)(nb > 0 ? nb : 1));
    double *edge = malloc(sizeof *edge * (size_t)(2 * (nb > 0 ? nb : 1)));
    if (!freq || !edge) {
        free(freq);
        free(edge);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "prefetch model: out of memory");
    }
    rf_live live;
    rf_intervals iv;
    bool have_live = false, have_iv = false;
    int rc = rf_dst_block_freq(f, prof->trip, prof->taken, NULL, freq, edge, err);
    if (rc == 0 && (rc = rf_live_compute(f, &live, err)) == 0)
        have_live = true;
    rf_iv_opts io;
    rf_iv_opts_default(&io);
    io.regs = regs > 0 ? regs : RF_IV_DEFAULT_REGS;
    if (rc == 0 && (rc = rf_iv_form(f, &io, &iv, err)) == 0)
        have_iv = true;
    uint8_t *exit_at = malloc((size_t)(f->ninsts > 0 ? f->ninsts : 1));
    double *same_in = calloc((size_t)(nb > 0 ? nb : 1), sizeof *same_in);
    if (rc == 0 && (!exit_at || !same_in))
        rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "prefetch model: out of memory");
    if (rc == 0)
        rc = pool_exits(f, exit_at, err);
    rf_regset *wset = NULL;
    if (rc == 0) {
        /* Registers each interval writes (its dirty registers). */
        wset = calloc((size_t)(iv.n > 0 ? iv.n : 1), sizeof *wset);
        if (!wset)
            rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "prefetch model: out of memory");
        for (int i = 0; wset && i < f->ninsts; i++) {
            int j = iv.of_inst[i];
            rf_regset w;
            uint8_t pr;
            if (j < 0 || j >= iv.n)
                continue;
            rf_inst_writes(&f->insts[i], &w, &pr);
            rf_regset_union(&wset[j], &w);
        }
    }
    if (rc == 0) {
        /* Flow into each block from blocks that end in its first interval. */
        for (int b = 0; b < nb; b++)
            for (int s = 0; s < f->blocks[b].nsucc; s++) {
                int t = f->blocks[b].succ[s];
                if (t >= 0 && t < nb && iv.block_out[b] == iv.block_in[t])
                    same_in[t] += edge[2 * b + s];
            }
        double reads = 0, livesum = 0;
        for (int b = 0; b < nb; b++) {
            const rf_block *bb = &f->blocks[b];
            double w = freq[b];
            for (int i = bb->first; i < bb->first + bb->ninsts; i++) {
                const rf_inst *in = &f->insts[i];
                rf_regset r;
                uint8_t pr;
                rf_inst_reads(in, &r, &pr);
                rf_regset wr;
                rf_inst_writes(in, &wr, &pr);
                int nw = rf_regset_count(&wr);
                if (nw > 0) {
                    /* Write race (header): a result stays in the cache when
                     * its register is in the interval the warp is in by then. */
                    out->writes += w * nw;
                    int c = race_class(in), kk;
                    const rf_regset *nx = NULL;
                    if (c < 0)
                        ;                   /* lands in the main file */
                    else if (!race_of(f, &iv, exit_at, edge, b, i, &kk, &nx))
                        out->wr_safe += w * nw;
                    else
                        for (int q = 0; q < 256; q++)
                            if ((wr.w[q >> 6] >> (q & 63)) & 1) {
                                if (nx && ((nx->w[q >> 6] >> (q & 63)) & 1))
                                    out->wr_safe += w;
                                else {
                                    out->wr_race[c][kk] += w;
                                    if (nx)
                                        out->wr_race_pf[c][kk] += w;
                                }
                            }
                }
                out->insts += w;
                reads += w * rf_regset_count(&r);
                livesum += w * rf_regset_count(&live.in[i]);
                if (exit_at[i]) {
                    /* Re-entry refetches the working set of the interval the
                     * warp is in (LTRF+: its live part) unless it resumes at
                     * the entry of another interval, whose PREFETCH does it:
                     * resuming at i (a load's first use) that is the share of
                     * the paths reaching i from inside its interval. */
                    const rf_regset *s = &iv.iv[iv.of_inst[i]].regs;
                    double same = 0;
                    const rf_regset *lv = NULL;
                    if (exit_at[i] == 2) {
                        same = ends_interval(f, &iv, bb, i) ? 0.0 : 1.0;
                        lv = &live.out[i];
                    } else if (i > bb->first) {
                        same = iv.of_inst[i - 1] == iv.of_inst[i] ? 1.0 : 0.0;
                        lv = &live.in[i];
                    } else {
                        same = w > 0 ? fmin(1.0, same_in[b] / w) : 0.0;
                        lv = &live.in[i];
                    }
                    out->act += w;
                    int n, dep[RF_PF_NBANKS];
                    fetched(s, NULL, plus ? lv : NULL, &n, dep);
                    out->act_wb += w * n;
                    if (n > 0 && same > 0)
                        add_ops(w * same, n, dep, &out->act_ops, &out->act_regs, out->act_depth);
                    if (exit_at[i] == 2) {
                        out->bar_act += w;
                        out->bar_wb += w * n;
                        if (n > 0 && same > 0)
                            add_ops(w * same, n, dep, &out->bar_ops, &out->bar_regs,
                                    out->bar_depth);
                    }
                }
            }
            /* Entries from another interval along the block's out-edges. */
            for (int s = 0; s < bb->nsucc; s++) {
                int t = bb->succ[s];
                int from = iv.block_out[b], to = iv.block_in[t];
                if (t < 0 || t >= nb || from == to || f->blocks[t].ninsts == 0)
                    continue;
                int first = f->blocks[t].first, n, dep[RF_PF_NBANKS];
                fetched(&iv.iv[to].regs, &iv.iv[from].regs, plus ? &live.in[first] : NULL, &n,
                        dep);
                if (n > 0)
                    add_ops(edge[2 * b + s], n, dep, &out->pf_ops, &out->pf_regs, out->pf_depth);
                out->pf_wb += edge[2 * b + s] * dirty_leaving(&iv, wset, from, to);
            }
        }
        /* Intervals entered in the middle of a block (splits), and the start. */
        for (int j = 0; j < iv.n; j++) {
            const rf_interval *v = &iv.iv[j];
            if (v->ninsts == 0 || v->entry_inst < 0 || v->entry_inst >= f->ninsts)
                continue;
            const rf_regset *lv = plus ? &live.in[v->entry_inst] : NULL;
            int n = 0, dep[RF_PF_NBANKS];
            double w = 0;
            if (j == 0 && v->entry_inst == f->blocks[v->entry_block].first) {
                fetched(&v->regs, NULL, lv, &n, dep);
                w = 1.0;
            } else if (v->entry_inst != f->blocks[v->entry_block].first) {
                int prev = iv.of_inst[v->entry_inst - 1];
                fetched(&v->regs, prev >= 0 ? &iv.iv[prev].regs : NULL, lv, &n, dep);
                w = freq[v->entry_block];
                if (prev >= 0)
                    out->pf_wb += w * dirty_leaving(&iv, wset, prev, j);
            }
            if (n > 0)
                add_ops(w, n, dep, &out->pf_ops, &out->pf_regs, out->pf_depth);
        }
        double ii = out->insts > 0 ? out->insts : 1.0;
        out->reads = reads / ii;
        out->mean_live = livesum / ii;
        double entries, insts;
        rf_iv_dynamic(f, &iv, freq, edge, &entries, &insts, &out->mean_len);
    }
    free(wset);
    free(exit_at);
    free(same_in);
    if (have_iv)
        rf_iv_free(&iv);
    if (have_live)
        rf_live_free(&live);
    free(freq);
    free(edge);
    return rc;
}

void rf_pf_cta_warps(rf_pf_kernel *pk, int wpc)
{
    double q = wpc > 1 ? 1.0 / wpc : 1.0;   /* the share of arrivals that pass */
    pk->act -= q * pk->bar_act;
    pk->act_regs -= q * pk->bar_regs;
    pk->act_ops -= q * pk->bar_ops;
    pk->act_wb -= q * pk->bar_wb;
    for (int k = 0; k < RF_PF_NBANKS; k++) {
        pk->act_depth[k] -= q * pk->bar_depth[k];
        pk->bar_depth[k] = 0;
    }
    pk->bar_act = pk->bar_regs = pk->bar_ops = pk->bar_wb = 0;
}

/* S_dep of a lone warp (analytic/kchar.c) on CTAs 0 .. PF_MISS_CTAS - 1 with
 * every result latency (ALU, SFU, shared/constant, L1, L2, DRAM) raised by
 * `extra` cycles. */
static int dep_stall(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof, int wpc,
                     int extra, double *s_dep, rf_err *err)
{
    rf_gpu g = *gpu;
    g.alu_latency += extra;
    g.sfu_latency += extra;
    g.smem_latency += extra;
    g.l1_latency += extra;
    g.l2_latency += extra;
    g.dram_latency += extra;
    rf_ctaset *cs = NULL;
    int rc = rf_kchar_ctaset(&g, f, prof, wpc, 0, PF_MISS_CTAS, 1, prof->seed, &cs, err);
    if (rc == 0)
        *s_dep = cs->s_dep;
    rf_kchar_ctaset_free(cs);
    return rc;
}

/* The miss path's walks (rf_pf_rfc_walks): the delay's floor lo and
 * fraction fr, and the extra latencies walked, extra[0] = 0 (the baseline),
 * lo, and lo + 1 where fr > 0; returns their number (0: no delay). */
static int miss_plan(const rf_design *d, rf_pf_kernel *out, double *fr, int extra[3])
{
    double delay = rf_design_latency_x(d) - 1.0;
    out->miss_delay = delay > 0 ? delay : 0.0;
    out->miss_dep = 0.0;
    if (!(delay > 0))
        return 0;
    /* Integer latencies: the fractional delay mixes its floor and ceiling, as
     * the sampler dithers fractional main-file latencies per access. */
    int lo = (int)floor(delay);
    *fr = delay - lo;
    extra[0] = 0;
    extra[1] = lo;
    extra[2] = lo + 1;
    return *fr > 0 ? 3 : 2;
}

/* miss_dep from the walks' stalls s[] (miss_plan's order; s[2] unused
 * without a fraction). */
static void miss_dep_of(rf_pf_kernel *out, double fr, const double s[3])
{
    double ds = (1.0 - fr) * s[1] + (fr > 0 ? fr * s[2] : 0.0) - s[0];
    out->miss_dep = ds > 0 ? ds : 0.0;
}

int rf_pf_reuse(const rf_func *f, const rf_profile *prof, rf_pf_kernel *out, rf_err *err)
{
    int nb = f->nblocks;
    double *freq = malloc(sizeof *freq * (size_t)(nb > 0 ? nb : 1));
    double *edge = malloc(sizeof *edge * (size_t)(2 * (nb > 0 ? nb : 1)));
    int rc = freq && edge ? 0
                          : rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "prefetch model: out of memory");
    uint8_t *exit_at = malloc((size_t)(f->ninsts > 0 ? f->ninsts : 1));
    if (rc == 0 && !exit_at)
        rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "prefetch model: out of memory");
    if (rc == 0)
        rc = rf_dst_block_freq(f, prof->trip, prof->taken, NULL, freq, edge, err);
    if (rc == 0)
        rc = pool_exits(f, exit_at, err);
    if (rc == 0)
        reuse_walk(f, freq, edge, exit_at, out);
    free(exit_at);
    free(freq);
    free(edge);
    return rc;
}

/* rf_pf_rfc_walks' jobs: the miss path's walks (0 .. nmiss - 1), then the
 * reuse walk; each writes its own slot (the reuse walk out's reuse fields,
 * which no miss walk touches). */
typedef struct rfc_job {
    const rf_gpu *gpu;
    const rf_func *f;
    const rf_profile *prof;
    int wpc, nmiss, extra[3];
    double s[3];
    rf_err err[4];
    rf_pf_kernel *out;
} rfc_job;

static int rfc_job_run(int i, void *ctx)
{
    rfc_job *j = ctx;
    if (i < j->nmiss)
        return dep_stall(j->gpu, j->f, j->prof, j->wpc, j->extra[i], &j->s[i], &j->err[i]);
    return rf_pf_reuse(j->f, j->prof, j->out, &j->err[i]);
}

int rf_pf_rfc_walks(const rf_gpu *gpu, const rf_design *d, const rf_func *f,
                    const rf_profile *prof, int wpc, int jobs, rf_pf_kernel *out, rf_err *err)
{
    rfc_job j = {gpu, f, prof, wpc, 0, {0, 0, 0}, {0, 0, 0}, {{0}}, out};
    double fr = 0;
    j.nmiss = miss_plan(d, out, &fr, j.extra);
    int n = j.nmiss + 1;
    for (int i = 0; i < n; i++)
        rf_err_clear(&j.err[i]);
    int rc = rf_pool_run(jobs, n, rfc_job_run, &j, j.err, err);
    if (rc == 0 && j.nmiss > 0)
        miss_dep_of(out, fr, j.s);
    return rc;
}

/* A reuse profile (rf_pf_kernel.reuse) at c / W lines per warp,
 * interpolated between its integer distances. */
static double at_distance(const double *prof, double cw)
{
    if (cw > RF_PF_REUSE)
        cw = RF_PF_REUSE;
    int lo = (int)floor(cw);
    double fr = cw - lo;
    return lo < RF_PF_REUSE ? prof[lo] * (1 - fr) + prof[lo + 1] * fr : prof[RF_PF_REUSE];
}

/* RFC hit rate of reads with reuse profile `all` and its pool-exit part
 * `span` in c lines shared by `pool` warps (header): h = all[c / W], or
 * under a two-level pool of pool_in warps, in-stay reads below c / W_pool
 * plus spanning reads below c / W. */
static double rfc_hit_of(const double *all, const double *span, double c, double pool,
                         double pool_in)
{
    double cw = c / (pool > 1 ? pool : 1);
    if (!(pool_in > 0 && pool_in < pool))
        return at_distance(all, cw);
    double ci = c / pool_in;
    return at_distance(all, ci) - at_distance(span, ci) + at_distance(span, cw);
}

void rf_pf_terms_of(const rf_gpu *gpu, const rf_design *d, const rf_pf_kernel *pk,
                    double pool, const rf_pf_params *p, rf_pf_terms *out)
{
    memset(out, 0, sizeof *out);
    out->latency = rf_design_latency_x(d);
    out->cache_writes = 1.0;
    if (d->kind != RF_DESIGN_RFC && d->kind != RF_DESIGN_LTRF)
        return;
    double banks = gpu->rf_banks > 0 ? gpu->rf_banks : 16;
    double g = PF_XBAR_DIV / banks;
    double L = out->latency;
    double reg = p->pf_reg * g;
    double ii = pk->insts > 0 ? pk->insts : 1.0;
    if (d->kind == RF_DESIGN_LTRF) {
        /* Main banks as the sampler: rf_banks x Table 2's bank multiplier;
         * the depth table of the largest power of two not above it. */
        const rf_rf_tech *tech = rf_design_rf_tech(d->rf_config);
        long mb = lround(banks * (tech ? tech->banks_x : 1.0));
        int kb = 0;
        while (kb + 1 < RF_PF_NBANKS && (1L << (kb + 1)) <= mb)
            kb++;
        /* Sum over operations of T = k_op (D L + X - 1) + k_reg g n. */
        double pf = p->pf_scale * (pk->pf_depth[kb] * L + pk->pf_ops * (PF_XBAR_LAT - 1.0));
        double act = p->pf_scale * (pk->act_depth[kb] * L + pk->act_ops * (PF_XBAR_LAT - 1.0));
        out->t_fetch = pk->pf_ops > 0 ? (pf + reg * pk->pf_regs) / pk->pf_ops : 0.0;
        out->stall_pf = (pf + pk->pf_regs * reg) / ii;
        out->stall_act = (act + pk->act_regs * reg) / ii;
        out->extra_stall = out->stall_pf + out->stall_act;
        out->cache_writes = cache_share(gpu, pk);
        out->pf_wb_late = fmin(pk->pf_wb, late_at_prefetch(gpu, pk)) / ii;
        return;
    }
    int lines = d->rc_entries > 0 ? d->rc_entries : gpu->rc_entries;
    double c = (double)lines * (gpu->subcores > 0 ? gpu->subcores : 1);
    if (c <= 0)
        c = 128;
    out->rfc_hit = fmin(1.0, p->rfc_hit * rfc_hit_of(pk->reuse, pk->reuse_span, c, pool,
                                                      pk->pool_in));
    out->rfc_wb = 1.0 - at_distance(pk->reuse_w, c / (pool > 1 ? pool : 1));
    double miss_any = 1.0 - pow(out->rfc_hit, pk->reads > 0 ? pk->reads : 1.0);
    /* Collector hold h_rfc, per unit class from the class's own reads; the
     * warp's path s_rfc (header), dS_dep scaled to this design's L - 1 when
     * the walk ran at another delay. */
    double hold = p->rfc_scale * (L > 1 ? L - 1 : 0);
    double nread = 0;
    for (int u = 0; u < 3; u++) {
        double hu = fmin(1.0, p->rfc_hit * rfc_hit_of(pk->reuse_u[u], pk->reuse_span_u[u], c,
                                                       pool, pk->pool_in));
        out->class_hold[u] = hold * (1.0 - pow(hu, pk->reads_u[u] > 0 ? pk->reads_u[u] : 1.0));
        nread += pk->reads_u[u];
    }
    out->extra_hold = hold * miss_any;
    out->stall_rfc = pk->miss_delay > 0
                         ? p->rfc_scale * miss_any * pk->miss_dep * (L - 1) / pk->miss_delay
                         : out->extra_hold;
    out->extra_stall = out->stall_rfc;
    if (!(nread > 0))           /* no class profile (reads never walked): one hold */
        for (int u = 0; u < 3; u++)
            out->class_hold[u] = out->extra_hold;
}

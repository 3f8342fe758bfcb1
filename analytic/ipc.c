/* ipc.c - IPC of one SM and whole-kernel cycles.
 *
 * Per-warp time.  A warp issues an instruction, then waits for its operands'
 * producers and for operand collection before its next dependent one:
 *   cpi_w = 1 + a S_dep + m S_mem + r d (W_coll + W_wr) + s_x
 * S_dep, S_mem: the stall a lone warp sees per instruction waiting on ALU /
 * SFU / shared-memory producers and on global memory (static, analytic/
 * kchar.c); a, m: free scales (latency overlap the static walk misses);
 * W_coll: operand-collection wait from bank conflicts (below); W_wr: the
 * wait of the result's bank write (below), on the path because the
 * scoreboard frees a register when its value is written (none where a
 * register cache takes the writes, HI-RF); d: the share of a lone warp's
 * instructions that wait for a register (analytic/kchar.c wait_share), since
 * a producer's delay lengthens the warp's time only where its consumer waits
 * for it (independent successors issue meanwhile); r (rf_path, 1): a scale;
 * s_x: design stall terms (register-cache misses, NVM
 * write-backs, prefetch, CTA switching) supplied by the caller.  HI-RF's
 * NVM write-backs (analytic/rccollide.c) add  sigma n_wb (S_w - 1 + W_write)
 * to cpi_w: n_wb write-backs per instruction, each holding its bank S_w
 * cycles after queueing W_write behind other writes (Cobham, below, with
 * write service S_w), sigma (rc_stall) the share on the warp's path.
 * Their arrivals are not Poisson: the queue's write wait and the reads'
 * wait behind writes are scaled by the other warps' share of the
 * write-backs times their index of dispersion, times the fitted factor
 * rc_burst (m->write_idc, analytic/conflict.c; the warp's own are
 * rf_rcc_own_walk's).
 *
 * Register file (seed 001 Sections II-B, III-B).  At IPC x the banks see
 *   rho_r = x R / B,  rho_w = x Wr / B       (R, Wr: reads, writes per inst)
 * (stolen writes move into idle banks and add no load); analytic/conflict.c
 * turns them into a read wait w_r after stealing.  An instruction reading k
 * registers waits for the slowest of k reads, about H_k w_r (H_k the
 * harmonic number, exact for exponential waits), plus the same-bank
 * serialisation of its own operands (intra[B], static).  (The harmonic
 * number of the distinct banks the k reads fall on instead, E[H_D], was
 * measured: the 2-bank windows on volta-hirf move 2 points toward the
 * sampler, bench_hirf's Table 5 worst averaged 8.39% -> 8.60%.)
 *   W_coll = sum_k P(k) H_k w_r + intra[B]
 * and, operands collected, waits for its execution pipe: each pipe is an
 * M/D/1 server busy ii cycles per instruction at utilisation
 * u = x use ii / pipes, so W_unit = sum_u f_u (u / (1 - u)) ii / (2 pipes);
 * with collectors per class a pipe's queue is the class's other C_u - 1
 * collectors at most (finite source), so W_u <= (C_u - 1) ii_u / pipes_u
 * (with one LD/ST collector nothing ever waits ahead at the LD/ST pipe;
 * measured on the built-in SM model, kmeans at 8 collectors: 0.32
 * blocked scheduler cycles per instruction against the M/D/1 queue's
 * 0.52, 0.31 with the bound).  Where the ALU pipes take a single-width
 * warp instruction every cycle per scheduler (ii / pipes <= 1 / (S iw),
 * Fermi's two 32-lane pipes), the ALU instructions reach them no faster
 * than the schedulers issue them, and a single-width one finds a pipe
 * free: only the extra pipe cycles of the wide ones (fp64, `use` beyond
 * their count) load the queue, u = x (use - f_alu) ii / pipes.  (Measured
 * on the built-in SM model, fermi-gtx480, one SM: mandel's schedulers lose
 * 0.005 cycles per instruction to a busy ALU pipe, where the M/D/1 queue
 * of every ALU instruction gave 0.131.)  For the same reason their cap,
 * pipes / (ii use), joins the issue cap by a hard minimum: the pipes and
 * the schedulers are one stream, and the soft minimum of two equal caps
 * (2^(-1/4) of either at p = 4) would count a loss the pipes do not add.
 * Where the ALU pipes are slower than issue and theirs is the lowest pipe
 * cap (Volta's 16-lane pipes, two cycles a warp instruction), the ALU
 * collectors feed them in tandem: an ALU instruction holds its collector
 * until its pipe takes it (its pipe wait is in the hold, q W_u), so the
 * collectors and the pipes are one stream, and the pipe cap joins the
 * collector caps by a hard minimum, the larger of their two terms in the
 * soft minimum.  (On the built-in SM model, volta-hirf, one SM:
 * bst_search's ALU collectors and pipes cap it at 1.60 and 1.75, and it
 * runs at 1.49, above the soft minimum of the two, 1.39.)
 *   t_coll = c0 - P_0 + (L_rf - 1) + W_coll + q W_unit + h_x + h_u
 *            (collector hold time, P_0 the share of instructions reading no
 *            register; h_x a design's hold on every instruction, h_u on an
 *            instruction of unit class u, its mean over the classes here)
 * q (unit_hold, default 0.5): the collector is held until dispatch, so the
 * pipe wait counts against the collectors; but when a pipe is the
 * bottleneck its queue sits in the collectors without costing throughput
 * beyond the pipe's own cap, so only a share q counts.
 *
 * Throughput caps (warp instructions per cycle):
 *   issue     S * iw                      schedulers times issue width
 *   collect   C / (t_coll (1 - f_none))   Little's law over C collectors
 *                                         (barriers and exits need none);
 *             min_u C_u / (t_u f_u)       with collectors dedicated per class
 *                                         (coll_split: ALU, SFU, LD/ST, as the
 *                                         sampler's default Fermi 6:8:2 split),
 *                                         t_u = c0 + (L_rf - 1) + W_coll
 *                                         + q W_u + h_x + h_u, W_u the class's
 *                                         own pipe wait; each class is a cap
 *   units     min_u pipes_u / (ii_u use_u)  ALU, SFU, LD/ST pipes (ALU pipes
 *                                         that keep up with issue: in the
 *                                         issue cap, min(S iw, their cap))
 *   dram      BW / bytes per instruction  (with latency, below)
 *   latency   N_w / cpi_w                 N_w active warps
 *   pool      S X(P / S, cpi_short)       two-level scheduler: only the P warps
 *                                         of the active pool issue, P / S on
 *                                         each scheduler's port; a warp
 *                                         waiting on memory leaves the pool,
 *                                         so only the short stalls count
 *                                         (cpi_short = cpi_w without a S_mem;
 *                                         P the places that hold a warp of
 *                                         their scheduler, calibrate/
 *                                         extrapolate.c pool balance).  X(k,
 *                                         z): the machine-repairman
 *                                         throughput of k warps that issue
 *                                         for 1 cycle and think z - 1
 *                                         between issues (exponential):
 *                                         X = 1 - 1 / sum_{j=0..k} k! /
 *                                         (k - j)! (z - 1)^-j, linear
 *                                         between whole k.  It holds the
 *                                         scheduler's issue port, so with a
 *                                         pool the issue cap leaves the soft
 *                                         minimum (an ALU cap under it
 *                                         stays).  (sfu, maxwell-ltrf, 2
 *                                         places a scheduler: X(2) 0.509 at
 *                                         cpi_short 3.66, 0.51 counted in
 *                                         the sampler.)
 * IPC is their soft minimum (sum_i v_i^-p)^(-1/p): the p-norm saturates
 * smoothly when two limits are close, as queueing does.  Latency and DRAM
 * enter it as one term, the throughput of a closed network: N_w warps
 * circulate through a delay of cpi_w - s cycles per instruction and the
 * sampler's one first-come-first-served DRAM server of s = 1 / dram cycles
 * per instruction (so that one warp alone still runs at 1 / cpi_w), solved
 * exactly for whole warp counts (mean-value analysis,
 *   R(n) = s (1 + Q(n-1)),  X(n) = n / (cpi_w - s + R(n)),  Q(n) = X(n) R(n),
 * in the machine-repairman form X(n) = (1 - B(n, (cpi_w - s) / s)) / s, B
 * the Erlang loss formula) and linear between them.  The server's queue,
 * not a p-norm, bends the curve, and X reaches BW / bytes once the warps
 * outnumber the knee (cpi_w / s) several times, as the sampler's
 * DRAM-bound runs do.
 * Under a two-level pool the pool is a station of that network too, and
 * the pool's term and the latency's become one: the N_w warps cycle
 * through the pool (a station whose rate with j warps there is
 * S X(min(j, P) / S, cpi_short), the pool term above with the warps it
 * holds), the DRAM server (s) and the rest of their memory waits (a delay
 * of m S_mem - s), solved exactly by the convolution algorithm (Buzen) for
 * whole warp counts and linear between them.  A warp that leaves for
 * memory frees its place for another, so with the resident warps well
 * past the network's knee it runs at its bottleneck's rate, as the
 * sampler's DRAM-bound runs under a pool do (bscholes, maxwell-ltrf, one
 * SM, 8 active warps: 1.734 against 1.750 at 32 places).  The scheduler
 * chain below (issue with its blocked time) keeps the latency term without
 * the pool, whose station holds the issue ports itself.
 *
 * Head-of-line blocking (collectors per class).  A scheduler takes its best
 * ready warp and, when no collector of that instruction's class is free,
 * waits (seed 001 Sec. II-B: "if running out of collectors, the
 * instruction waits"); no other warp issues meanwhile.  Per instruction of
 * class u (share f_u, C_u collectors held t_u^h = t_u + (1 - q) W_u cycles,
 * to dispatch) the scheduler loses
 *   B_u = P_run (t_u^h - C_u)                  its own C_u predecessors of
 *                                              the class went in the last
 *                                              C_u cycles (when t_u^h > C_u)
 *       + (1 - P_run) rho_u^C_u t_u^h / (C_u + 1)  held by other warps, the
 *                                              first of C_u frees in about
 *                                              t_u^h / (C_u + 1)
 *   rho_u = x f_u t_u^h / C_u,
 *   P_run = (1 - r_u) R_u(C_u) + r_u (n_s - C_u) / n_s
 * R_u(C): share of the class's instructions right behind >= C independent
 * ones of the class in the warp's code; r_u: share whose successor waits for
 * them, so that the scheduler turns to its other n_s = N_w / S warps, which
 * (in step, as warps of a loop are) issue the same instruction
 * (analytic/kchar.c).  The schedulers then issue at most
 *   iss = S / (1/iw + sum_u f_u B_u)
 * This cap and the latency and collector caps form a second soft minimum
 * (the scheduler's time); IPC is the smaller of the two.  The pipe caps stay
 * out of it: a pick blocked behind a saturated pipe costs nothing beyond the
 * pipe's own cap.  (Measured on the built-in SM model, sgemm at 16 banks and
 * 8 collectors: 0.43 blocked scheduler cycles per ALU and 0.99 per LD/ST
 * instruction; IPC 1.12 typed against 1.75 with one shared pool.)
 *
 * Barrier regions.  A barrier holds a CTA's warps in one stretch of the
 * code until all of them arrive, so the warps of a kernel with barriers
 * run its regions (the code between barriers, analytic/kchar.c) in step,
 * and the SM is assumed to run one region at a time: its throughput is
 * the time-weighted mean over the regions, each solved at its own unit
 * mix (the other figures, stalls and operand counts, are the kernel's),
 *   1 / IPC = sum_r share_r / IPC_r      (share_r: the region's share of
 *                                         the kernel's instructions),
 * below the IPC of the mean mix when the regions ask different pipes
 * (a region of shared-memory loads behind one of arithmetic).  The
 * reported limits are those of the region that takes the most time.
 * (Measured on the built-in SM model, fermi-gtx480, whole grid on one SM:
 * conv_row's load region (LD/ST 0.07 of its instructions) and tap region
 * (0.47) read 1.274 against the mean mix's 1.478 and the sampler's 1.221.)
 * The DRAM server is not a region's: every CTA's accesses queue at it
 * whatever region the CTA is in, and a CTA that waits there leaves the
 * pipes to the others.  So the regions are solved without it, and the
 * fold's throughput, as each warp's cycle time N_w / IPC, is the delay of
 * the closed network above, with the kernel's s.  (transpose, whose
 * regions' loads and stores keep the server busy between them: the
 * sampler at its DRAM cap, 1.046; folded with the server in each region
 * 0.913, now 1.027.)  Under a
 * two-level scheduler the regions mix instead, and the kernel's mean mix
 * is solved: a warp at a barrier leaves the active pool, which takes in
 * resident warps not at a barrier, of other CTAs in other regions, so the
 * pool issues from several regions at once.  (maxwell-ltrf, the 32-warp
 * pool, full runs against the fold and the mean mix: conv_row 2.768
 * against 2.211 and 2.770, jacobi9 2.257 against 2.003 and 2.125; the
 * same kernels under GTO on the same GPU 2.352 and 1.942, nearer the
 * fold.)
 *
 * Collector hold.  c0 (coll_base) counts a bank read cycle and a dispatch
 * cycle; an instruction that reads no register skips the read, so the
 * fixed hold is c0 - P(no register read) (register-cache hits still take
 * their cycle).
 *
 * Because t_coll and
 * cpi_w grow with x, IPC solves x = F(x) with F decreasing; the root is
 * bracketed by [0, F(0)] and found by the Illinois method.
 *
 * Whole kernel.  One SM runs N CTAs, at most n at a time (occupancy).
 * Waves: floor(N / n) full waves of n CTAs and one partial wave of N mod n;
 * a wave of c CTAs of I_cta instructions takes c I_cta / IPC(c w_cta a)
 * cycles, a the kernel's active fraction (warps of resident CTAs that still
 * have work: the rest wait at barriers or for their CTA's slowest warp),
 * plus a tail t * (insts_per_warp * cpi_w) (t free, default 0).  A CTA's
 * slot stays held for the kernel's drain D after its warps exit (their last
 * loads and atomics return, analytic/kchar.c), issuing nothing, while the
 * other slots' CTAs issue: the sampler's dispatcher refills each slot on
 * its own, so the CTAs of a full wave are out of step and, over a stream
 * of them, c of the n slots hold working CTAs and n - c drain,
 *   c + D IPC(c) / I_cta = n
 * (a slot turns over every n / lambda cycles, lambda = IPC(c) / I_cta
 * CTAs a cycle, and spends D of them draining), and a full wave takes
 * n I_cta / IPC(c).  Where IPC is latency-bound (IPC(c) = c / cpi) this is
 * n I_cta / IPC(n) + D, the drain of every CTA at once; where the SM is
 * throughput-bound at c the drain costs nothing.  IPC(c) is the wave's
 * IPC at n times the steady state's ratio at c CTAs' warps to n's.  The
 * partial wave waits for its own drain: c I_cta / IPC(c w_cta a) + D.
 * (Measured on the built-in SM model, fermi-gtx480, whole grid on one SM:
 * kmeans with an atomic at every warp's end runs at 0.842 of the same
 * kernel without it; this model gives 0.839.)
 *
 * Spread of the issuing warps.  c w_cta a is a mean: a CTA's warps end
 * their phases one by one (trip counts drawn per warp), so the warps that
 * issue range from all of them to the slowest alone, and IPC(W), concave,
 * at the mean W overstates the SM's throughput over them.  Each CTA draws
 * its issuing warps from the distribution h(j) kchar walks (the share of
 * its lone time with j warps issuing, mean w_cta a), independently of the
 * other resident CTAs, so P(W) for c CTAs is h convolved c times.  A
 * state of W warps covers lone time at W / cpi_w(W) per cycle and issues
 * IPC(W), so it lasts W / (cpi_w(W) IPC(W)) times as long as alone, and
 *   IPC(c) = sum_W P(W) W / cpi_w(W)  /  sum_W P(W) W / (cpi_w(W) IPC(W))
 * (the lone-time-weighted states, turned into cycles), solved on a grid
 * of W (every count to 8, then about 25% apart) and linear between.
 * A two-level scheduler's pool (m->pool) enters each state's soft minimum
 * as it enters the mean's: states of fewer warps than the pool run
 * latency-bound, the rest at the pool's limit.
 *
 * Critical CTAs.  A run ends no earlier than any CTA's start plus its lone
 * cycles T_j (the sum over its barrier phases of the norm (mx^2 +
 * h^2)^(1/2) of the slowest warp's lone-warp time mx and the cycles h the
 * CTA's warps together hold the SFU pipe, or the SM's issue and the LD/ST
 * pipe (their own norm, where the collectors are split per class, each
 * class held at least by its collectors), in that phase, plus the drain;
 * analytic/kchar.c phase_alone and phase_hold: where the two are close
 * each lengthens the other), times
 *   g = (1 + a S_dep + m S_mem + s_x) / (1 + S_dep + S_mem),
 * which carries the design's stalls and the fitted scales into the lone
 * times kchar walks at the baseline's latencies.  Where kchar knows the
 * T_j of the run's last CTAs (every CTA of a run of at most RF_IPC_NLONE:
 * the default run's share, short grids; the last RF_IPC_NLONE of a longer
 * one), the run is a fluid of CTAs: the slots take the grid's CTAs in
 * order, as the sampler's dispatcher gives a freed slot the next CTA, and
 * with n CTAs resident each advances through its lone time at the
 * rate 1 / x_j(n),
 *   x_j(n) = max(g max(1, s(n) T'_j / T_j), n I_cta / (IPC(n) mean_j T_j))
 * (IPC(n) the steady state with n CTAs' active warps, spread as above:
 * n CTAs retire n I_cta instructions, mean T_j of lone time each, in
 * n I_cta / IPC(n) cycles; no CTA is faster than alone).  Below that
 * throughput bound the resident CTAs still slow each other (they queue for
 * issue, collectors, pipes and DRAM): s(n) = (W(n) / IPC(n)) / (W(1) /
 * IPC(1)), the steady state's cycles per issuing warp-instruction with n
 * CTAs' issuing warps W(n) over one CTA's, at least 1.  It scales T'_j,
 * the CTA's phases each at the larger of the two bounds alone
 * (rf_ipc_kernel.lone0), not T_j, whose norm holds the CTA's own queueing
 * at its pipes, which s(n) counts again from one CTA on.  An oldest-first
 * scheduler (GTO, rf_ipc_machine.oldest_first) hands issue out by warp
 * age instead: the CTAs in launch order each take at most their pace
 * alone, need_j = I_j / (x(1) T_j) instructions per cycle (I_j its own
 * instructions, x(1) the steady state's stretch of a lone CTA), until
 * IPC(n) is used up, so CTA j advances at v_j = min(need_j, IPC(n) -
 * sum_{older} taken) / (need_j x(1)); the fluid blends the two shares as the population model does
 * (analytic/waves.c), v_j = (1 - s) / x(n) + s v_j, s = gto_share.  A
 * young CTA whose slowest warp waits on DRAM then runs the rest of its
 * path after the older CTAs' work rather than beside it (the sampler,
 * short_poly's 3-CTA share: the last warp, warp 0 of the youngest CTA,
 * exits 150 cycles after every other warp).  In a longer run the CTAs
 * before the known ones take whole and partial waves, t_0 = (N - N_k) /
 * n_res waves of the full occupancy, and the fluid of the last N_k starts
 * there with every slot fresh (the slots' ages at t_0 are not known; over
 * N_k / n_res waves the start's synchrony has worn off before the tail).
 * The run takes the larger of the waves and t_0 plus the fluid's end.
 * With CTAs of very unequal length (trip counts drawn per CTA) the CTAs
 * before a long one are shorter than the mean, so it starts well before
 * wave floor(j / resident), and the last long CTAs run with fewer and
 * fewer others, faster than in a full wave but slower than alone.  The
 * fluid assumes every resident CTA advances; a design that switches CTAs
 * out and back in (rf_ipc_machine.switching: pending CTAs beside the
 * active ones) breaks that, and takes instead the critical CTAs' bound:
 * each known CTA's start wave floor(j / resident) plus its lone cycles
 * g T_j, as runs whose lone times are not known at all.  A known CTA's
 * lone cycles end with its drain (rf_ipc_kernel.lone_drain), which it
 * spends at real time, issuing nothing and out of the count n of CTAs
 * that share IPC(n) and s(n), before its slot takes the next CTA; the
 * mean T_j of the throughput bound is of the lone cycles before it.
 *
 * DRAM drain.  The run's DRAM loads (and atomics), b_ld bytes per
 * instruction, pass one first-come-first-served server of BW bytes per
 * cycle (the SM's share), which is idle until the first of them issues,
 * t_lead into the run; the last returns a DRAM latency L_dram after it is
 * served, and its warp still runs t_trail cycles (both from the lone walk
 * of the run's first CTA, analytic/kchar.c), so a run of I instructions
 * takes at least
 *   t_lead + I b_ld / BW + L_dram + t_trail
 * cycles.  The soft minimum's DRAM cap is a steady-state queue; a run of
 * a wave or two whose warps issue their loads together at the start
 * (short_axpy's 2 CTAs of 8 warps per SM at the default run: the first
 * load 51 cycles in, 4 KB of loads, 242 cycles of service, 330 of
 * latency, then the FMA and store; the sampler's last warp exits at 631)
 * ends on this bound.  A run whose every CTA kchar walked without a DRAM
 * access (k->dram_none: a few CTAs whose warps exit at a bounds check, or
 * whose few loads hit a cache) has no last access to wait for, and no
 * such bound.
 *
 * Known limits (measured on the built-in SM model, fermi-gtx480, one SM):
 * - Scheduler.  The steady state does not depend on the warp scheduler;
 *   the sampler's GTO runs kmeans about 8% below LRR over long windows
 *   (1.06-1.10 against 1.17; GTO turns to the other warps in step at each
 *   load, doubling the LD/ST blocking), while its first few thousand cycles
 *   after a cold start run above both.
 *
 * Later designs plug in through rf_ipc_machine: fewer active warps
 * (Register Sharing, FineReg, LTRF capacity), extra_stall and extra_hold
 * per instruction, rf_latency for slower main files (seed 004 Table 2).
 */
#include "ipc.h"

#include <math.h>
#include <string.h>

/* The machine-repairman throughput X(k, z) of the pool term (header). */
static double repairman(int k, double z)
{
    if (k <= 0)
        return 0.0;
    double rho = z > 1.0 ? 1.0 / (z - 1.0) : 1e9, term = 1.0, sum = 1.0;
    for (int j = 1; j <= k; j++) {
        term *= (double)(k - j + 1) * rho;
        sum += term;
    }
    return 1.0 - 1.0 / sum;
}

/* S X(places / S, cpi_short): the issue rate of `places` pool warps spread
 * over the S schedulers, linear between whole warps a scheduler. */
static double pool_rate(int sc, double places, double cpi_short)
{
    double per = places / sc;
    int lo = (int)per;
    double f = per - lo;
    return sc * ((1.0 - f) * repairman(lo, cpi_short) + f * repairman(lo + 1, cpi_short));
}

/* The pool's limit S X(P / S, cpi_short). */
static double pool_limit(const rf_ipc_machine *m, double cpi_short)
{
    return pool_rate(m->schedulers > 0 ? m->schedulers : 1, m->pool, cpi_short);
}

/* Linear between the table's CTA counts at place index i; 0: unknown. */
static double pool_eff_at(const rf_ipc_kernel *k, int i, int ctas)
{
    if (!(k->pool_n[0] > 0))
        return 0.0;
    if (ctas <= k->pool_n[0])
        return k->pool_eff[i][0];
    int j = 1;
    while (j < RF_IPC_NPOOLN && k->pool_n[j] > 0 && ctas > k->pool_n[j])
        j++;
    if (j >= RF_IPC_NPOOLN || !(k->pool_n[j] > 0))
        return k->pool_eff[i][j - 1];
    double f = (double)(ctas - k->pool_n[j - 1]) / (k->pool_n[j] - k->pool_n[j - 1]);
    return k->pool_eff[i][j - 1] + f * (k->pool_eff[i][j] - k->pool_eff[i][j - 1]);
}

/* Row i below x = log2(per_sched) (clamped to the table) and x's place
 * between rows i and i + 1. */
static int pool_row(double per_sched, double *x_out)
{
    double x = log2(per_sched);
    if (x < 0)
        x = 0;
    if (x > RF_IPC_NPOOLP - 1)
        x = RF_IPC_NPOOLP - 1;
    int i = (int)x;
    if (i > RF_IPC_NPOOLP - 2)
        i = RF_IPC_NPOOLP - 2;
    *x_out = x - i;
    return i;
}

double rf_ipc_pool_eff(const rf_ipc_kernel *k, double per_sched, int ctas)
{
    if (!(per_sched > 0) || ctas < 1)
        return 1.0;
    double f;
    int i = pool_row(per_sched, &f);
    double a = pool_eff_at(k, i, ctas), b = pool_eff_at(k, i + 1, ctas);
    if (!(a > 0) || !(b > 0))
        return a > 0 ? a : b > 0 ? b : 1.0;
    double e = a + f * (b - a);
    return e > 1.0 ? 1.0 : e;
}

unsigned rf_ipc_pool_rows(double per_sched)
{
    if (!(per_sched > 0))
        return 0;
    double f;
    int i = pool_row(per_sched, &f);
    /* At f = 1, a + (b - a) is b exactly: the table's entries are floats,
     * whose difference a double holds exactly. */
    return (f < 1.0 ? 1u << i : 0u) | (f > 0.0 ? 1u << (i + 1) : 0u);
}

const rf_mparam rf_ipc_mparams[] = {
    {"lat_scale", offsetof(rf_ipc_params, lat_scale), 0.05, 8.0, 1.0, true, "1",
     "multiplier on lone-warp dependence stalls (ALU, SFU, shared memory)"},
    {"mem_scale", offsetof(rf_ipc_params, mem_scale), 0.05, 8.0, 1.0, true, "1",
     "multiplier on lone-warp global-memory stalls"},
    {"coll_base", offsetof(rf_ipc_params, coll_base), 1.0, 20.0, 2.0, true, "cycles",
     "cycles an operand collector is held without conflicts (one for the bank read, "
     "one for the crossbar transfer and dispatch)"},
    {"rf_path", offsetof(rf_ipc_params, rf_path), 0.0, 4.0, 1.0, false, "1",
     "multiplier on the waiting instructions' share of the operand-collection and "
     "bank-write waits on a warp's own path"},
    {"smooth", offsetof(rf_ipc_params, smooth), 1.0, 32.0, 4.0, false, "1",
     "exponent of the soft minimum of the IPC limits"},
    {"unit_hold", offsetof(rf_ipc_params, unit_hold), 0.0, 1.0, 0.25, false, "1",
     "share of the execution-pipe wait that holds operand collectors"},
    {"tail", offsetof(rf_ipc_params, tail), 0.0, 4.0, 0.0, false, "1",
     "drain per wave, in lone-warp times of one warp's instructions"},
    {"rc_locality", offsetof(rf_ipc_params, rc_locality), 0.0, 0.95, 0.5, false, "1",
     "HI-RF: chance a cache line's last writer is the writing warp (analytic/rccollide.c)"},
    {"rc_stall", offsetof(rf_ipc_params, rc_stall), 0.0, 4.0, 1.0, false, "1",
     "HI-RF: share of the NVM write-back wait on a warp's own path"},
    {"rc_burst", offsetof(rf_ipc_params, rc_burst), 0.05, 8.0, 1.0, false, "1",
     "HI-RF: multiplier on the write-backs' index of dispersion at the NVM banks"},
    {"gto_share", offsetof(rf_ipc_params, gto_share), 0.0, 1.0, 0.5, true, "1",
     "CTA population model: share of issue slots given oldest CTA first (GTO)"},
    {"conflict_scale", offsetof(rf_ipc_params, conflict.scale), 0.05, 20.0, 1.0, true, "1",
     "multiplier on the M/D/1 bank queueing waits"},
    {"steal_cand", offsetof(rf_ipc_params, conflict.steal_cand), 0.0, 1.0, 0.4, false, "1",
     "chance a candidate warp's read can steal the idle bank a cycle ahead"},
    {"dead_reg", offsetof(rf_ipc_params, conflict.dead_reg), 0.0, 1.0, 0.5, false, "1",
     "chance a bank has a dead register free for write stealing"},
    {"forced_frac", offsetof(rf_ipc_params, conflict.forced), 0.0, 1.0, 0.15, false, "1",
     "fraction of stolen writes forced back by a RAW/WAW hazard"},
    {"steal_boost", offsetof(rf_ipc_params, conflict.steal_boost), 0.0, 4.0, 1.0, false, "1",
     "extra read stealing when write stealing is on, as a share of steal_cand"},
    /* CTA switching (analytic/switching.c). */
    {"sw_sync", offsetof(rf_ipc_params, sw.sync), 0.0, 1.0, 0.75, false, "1",
     "CTA switching: how far a CTA's warps wait on memory together (1 all at once, "
     "0 independently)"},
    {"sw_cost", offsetof(rf_ipc_params, sw.cost_scale), 0.1, 10.0, 1.0, false, "1",
     "CTA switching: multiplier on a switch's cost"},
    /* RFC and LTRF (analytic/prefetch.c; fitted on their own design points). */
    {"pf_scale", offsetof(rf_ipc_params, pf.pf_scale), 0.0, 8.0, 1.0, false, "1",
     "LTRF: multiplier on the per-operation part of PREFETCH and activation stalls"},
    {"pf_reg", offsetof(rf_ipc_params, pf.pf_reg), 0.0, 16.0, 2.0, false, "1",
     "LTRF: multiplier on the per-register part (crossbar slot, bank queues)"},
    {"rfc_hit", offsetof(rf_ipc_params, pf.rfc_hit), 0.0, 2.0, 1.0, false, "1",
     "multiplier on the RFC hit rate of the reuse model (the product capped at 1)"},
    {"rfc_scale", offsetof(rf_ipc_params, pf.rfc_scale), 0.0, 8.0, 1.0, false, "1",
     "multiplier on RFC miss stalls"},
    {"ltrf_conflict", offsetof(rf_ipc_params, pf.ltrf_conflict), 0.05, 20.0, 1.0, false, "1",
     "LTRF: multiplier on the bank queueing waits at the register cache's banks"},
};
const size_t rf_ipc_nmparams = sizeof rf_ipc_mparams / sizeof rf_ipc_mparams[0];

void rf_ipc_params_default(rf_ipc_params *p)
{
    rf_mparam_defaults(rf_ipc_mparams, rf_ipc_nmparams, p);
}

const char *rf_ipc_bound_name(int bound)
{
    static const char *const names[] = {"latency", "issue", "collectors", "units", "dram",
                                         "pool"};
    return bound >= 0 && bound < 6 ? names[bound] : "?";
}

/* fmin(a, b) for a that is not NaN (a running minimum started at INFINITY):
 * b when b < a, else a; inline, where fmin is a library call. */
static inline double min_run(double a, double b)
{
    return b < a ? b : a;
}

/* r^p for r >= 0, fast for integer p (r: the reciprocal of a cap). */
static inline double pow_p(double r, double p, int ip)
{
    if (ip == 4) {
        r *= r;
        return r * r;
    }
    if (ip > 0) {
        double y = 1.0;
        for (int e = ip; e; e >>= 1) {
            if (e & 1)
                y *= r;
            r *= r;
        }
        return y;
    }
    return pow(r, p);
}

/* v^-p, fast for integer p.  The common exponents are spelled out with the
 * same products, in the same order, as the square-and-multiply loop. */
static inline double inv_pow(double v, double p, int ip)
{
    if (ip == 4) {
        double b = 1.0 / v;
        b *= b;
        return b * b;
    }
    if (ip > 0) {
        double r = 1.0, b = 1.0 / v;
        for (int e = ip; e; e >>= 1) {
            if (e & 1)
                r *= b;
            b *= b;
        }
        return r;
    }
    return pow(v, -p);
}

/* v^n for n >= 1 by squaring. */
static inline double pow_int(double v, int n)
{
    double r = (n & 1) ? v : 1.0;
    for (n >>= 1; n; n >>= 1) {
        v *= v;
        if (n & 1)
            r *= v;
    }
    return r;
}

static double root_p(double s, double p, int ip)
{
    if (ip == 1)
        return 1.0 / s;
    if (ip == 2)
        return 1.0 / sqrt(s);
    if (ip == 4)
        return 1.0 / sqrt(sqrt(s));
    return pow(s, -1.0 / p);
}

/* Invariants of one solve. */
typedef struct solve_ctx {
    const rf_ipc_kernel *k;
    rf_ipc_mix mix;     /* the unit mix solved for (the kernel's, or a barrier region's) */
    const rf_ipc_machine *m;
    const rf_ipc_params *p;
    double hk;          /* sum_k P(k) H_k */
    double intra;       /* intra[B] */
    double fixed_hold;  /* c0 + (L_rf - 1) + h_x */
    double fixed_cpi;   /* 1 + a S_dep + m S_mem + s_x */
    double path;        /* r d: the collection wait's share on the warp's path */
    double path_write;  /* 1: a result's bank write is on the path (0: a register cache takes it) */
    double mem_cpi;     /* m S_mem (hidden by the two-level pool's swaps) */
    double caps_sum;    /* sum of v^-p over the x-independent caps (the pipes' apart) */
    double unit_s;      /* v^-p of the pipe cap (0: none) */
    bool tandem;        /* the ALU pipes, slower than issue, are the pipe cap (header) */
    double coll_frac;   /* instructions that take a collector */
    double rd_bank, wr_bank; /* reads, writes per instruction per bank */
    double ahead_max;   /* bank queue bound (analytic/conflict.c): collectors per bank */
    double u_alu, s_alu, u_sfu, u_ldst; /* pipe utilisation per unit IPC, ALU service */
    double wu_cap[3];   /* typed: pipe wait bound (C_u - 1) ii_u / pipes_u per class */
    double p_exp;
    int ip;
    bool typed;         /* collectors split per class (m->coll_split) */
    bool alu_free;      /* the ALU pipes keep up with issue (header) */
    bool blocking;      /* typed: the issue cap carries head-of-line blocking */
    int ncls;           /* typed: classes with instructions, their index u, */
    int cls_u[3], cls_n[3];            /* collectors C_u, */
    double cls_share[3];               /* share of collector users, */
    double cls_n1[3], cls_prun[3];     /* 1 / (C_u + 1), P_run (set_prun), */
    double cls_sn[3];                  /* share / C_u, */
    double cls_hold[3];                /* m->class_hold[u] */
    double inv_sched;   /* 1 / S */
    double inv_iw;      /* 1 / issue width */
    double inv_warps;   /* 1 / warps (set_prun: the pair's second solve has others) */
    double dram_s;      /* cycles of DRAM service per instruction (0: no DRAM cap) */
    double inv_coll;    /* collector users / collectors (one shared pool) */
    double class_sum;   /* f_alu + f_sfu + f_ldst (normalises the classes) */
    double mean_class_hold; /* one shared pool: m->class_hold over the collector users */
} solve_ctx;

/* Utilisation beyond which a pipe's queue no longer grows the collector
 * hold: a saturated pipe is the bottleneck itself (its own cap binds), and
 * the rest of its queue in the collectors costs nothing more. */
#define UNIT_U_MAX 0.9

/* Mean wait at a pipe of utilisation u and service s: (u / (1 - u)) s / 2
 * (u capped at UNIT_U_MAX), for the ALU, SFU and LD/ST pipes at IPC x with
 * utilisations ua, us, ul per unit IPC; one division for the three. */
static void unit_waits(double x, double ua, double sa, double us, double ss, double ul,
                       double sl, double wu[3])
{
    double u[3] = {x * ua, x * us, x * ul}, sv[3] = {sa, ss, sl}, d[3];
    for (int i = 0; i < 3; i++) {
        u[i] = u[i] > 0 ? (u[i] > UNIT_U_MAX ? UNIT_U_MAX : u[i]) : 0.0;
        d[i] = 1.0 - u[i];
    }
    double inv = 1.0 / (d[0] * d[1] * d[2]);
    wu[0] = u[0] * (inv * d[1] * d[2]) * sv[0] / 2.0;
    wu[1] = u[1] * (inv * d[0] * d[2]) * sv[1] / 2.0;
    wu[2] = u[2] * (inv * d[0] * d[1]) * sv[2] / 2.0;
}

/* Latency and DRAM together (header): the throughput of n warps, each
 * cpi cycles per instruction of which s at one DRAM server; a fractional
 * warp count linear between its neighbours.  The network (a delay of
 * z = cpi - s, the server) is the machine-repairman queue, whose mean-value
 * analysis is exact: the server idles with probability B(n, z / s), the
 * Erlang loss formula, so X(n) = (1 - B) / s, and 1 / B follows
 * 1 / B(i) = 1 + (i s / z) / B(i - 1), 1 / B(0) = 1. */
static double dram_closed(double cpi, double n, double s)
{
    double z = cpi > s ? cpi - s : 0.0;
    int whole = (int)n;
    if (!(z > 0))
        return (whole >= 1 ? 1.0 : n) / s;
    double r = s / z, inv = 1.0, prev = 1.0;
    for (int i = 1; i <= whole + 1; i++) {
        prev = inv;
        inv = 1.0 + i * r * inv;
        if (inv > 1e15) {       /* saturated: 1 - B = 1 to double precision */
            if (i <= whole)
                prev = inv;
            break;
        }
    }
    double x = (1.0 - 1.0 / prev) / s, next = (1.0 - 1.0 / inv) / s;
    return x + (n - whole) * (next - x);
}

/* The two-level pool's closed network (header): n warps through the
 * pool (rate S X(min(j, P) / S, cpi_short) with j warps there), the DRAM
 * server (s cycles per instruction) and a delay of z cycles per
 * instruction; the convolution algorithm, each station's sequence scaled
 * by c^j, c the bottleneck's rate, so that none overflows: the pool's
 * prod_i c / mu(i), the delay's (c z)^j / j!, the server's (c s)^j, and
 * X(n) = c G(n - 1) / G(n).  0 past POOL_NET_MAX warps or where (c z) is
 * past POOL_NET_DELAY (there the caller keeps the soft minimum of the two
 * terms). */
#define POOL_NET_MAX 256
#define POOL_NET_DELAY 600.0
static double pool_closed(const rf_ipc_machine *m, double cpi_short, double z, double n, double s)
{
    int whole = (int)n;
    if (whole < 1 || whole + 1 > POOL_NET_MAX)
        return 0.0;
    int sc = m->schedulers > 0 ? m->schedulers : 1;
    double mu[POOL_NET_MAX + 1], full = pool_limit(m, cpi_short);
    for (int j = 1; j <= whole + 1; j++)
        mu[j] = j < m->pool ? pool_rate(sc, j, cpi_short) : full;
    double c = mu[whole + 1];
    if (s > 0 && 1.0 / s < c)
        c = 1.0 / s;
    if (!(c > 0) || !(c * z < POOL_NET_DELAY))
        return 0.0;
    /* g: the pool's sequence, then convolved with the delay's and the
     * server's in place (each output from the inputs at lower indices). */
    double g[POOL_NET_MAX + 1], d[POOL_NET_MAX + 1];
    g[0] = d[0] = 1.0;
    for (int j = 1; j <= whole + 1; j++) {
        g[j] = g[j - 1] * c / mu[j];
        d[j] = d[j - 1] * c * z / j;
    }
    if (z > 0)
        for (int j = whole + 1; j >= 1; j--) {
            double a = 0;
            for (int i = 0; i <= j; i++)
                a += g[i] * d[j - i];
            g[j] = a;
        }
    if (s > 0) {
        double cs = c * s;
        for (int j = 1; j <= whole + 1; j++)
            g[j] += cs * g[j - 1];      /* the server's geometric sequence */
    }
    double x = c * g[whole - 1] / g[whole], next = c * g[whole] / g[whole + 1];
    return x + (n - whole) * (next - x);
}

/* F(x); fills out when non-NULL. */
static double eval(const solve_ctx *c, double x, rf_ipc_result *out)
{
    const rf_ipc_machine *m = c->m;
    rf_bank_load load = {x * c->rd_bank, x * c->wr_bank, m->banks,
                         m->read_steal, m->write_steal, m->write_service, c->ahead_max,
                         m->write_idc};
    rf_bank_wait w;
    rf_bank_waits_inline(&load, &c->p->conflict, &w);
    double coll_wait = c->hk * w.read_wait + c->intra;
    double s_coll;
    /* Pipe waits per instruction of each class (ALU, SFU, LD/ST). */
    double wu[3] = {0.0, 0.0, 0.0};
    if (c->p->unit_hold > 0 || out)
        unit_waits(x, c->u_alu, c->s_alu, c->u_sfu, m->sfu_ii, c->u_ldst, m->ldst_ii, wu);
    if (c->typed)       /* finite source (header): at most C_u - 1 ahead */
        for (int i = 0; i < 3; i++)
            wu[i] = wu[i] < c->wu_cap[i] ? wu[i] : c->wu_cap[i];
    double uw = c->mix.frac_alu * wu[0] + c->mix.frac_sfu * wu[1] + c->mix.frac_ldst * wu[2];
    double t_coll = c->fixed_hold + c->mean_class_hold + coll_wait + c->p->unit_hold * uw;
    double cpi = c->fixed_cpi + c->path * (coll_wait + c->path_write * w.write_wait);
    if (m->wb_rate > 0)             /* NVM write-backs (HI-RF): service and queueing */
        cpi += c->p->rc_stall * m->wb_rate
             * ((m->write_service > 1 ? m->write_service - 1 : 0) + w.write_wait);
    /* The caps enter the soft minimum as v^-p: each is computed as its
     * reciprocal (r = 1/v), which saves a division per cap. */
    double r_lat = cpi * c->inv_warps;
    if (c->dram_s > 0)
        r_lat = 1.0 / dram_closed(cpi, 1.0 / c->inv_warps, c->dram_s);
    double r_col, inv_iss = 0.0;
    if (c->typed) {
        /* Collectors per class: each class's instructions hold its own
         * collectors, C_u / (f_u t_u) with t_u the class's hold time. */
        double cs = 0.0, blocked = 0.0;
        r_col = 0.0;
        for (int j = 0; j < c->ncls; j++) {
            int u = c->cls_u[j];
            double share = c->cls_share[j], cn = c->cls_n[j];
            double tu = c->fixed_hold + c->cls_hold[j] + coll_wait + c->p->unit_hold * wu[u];
            double rcu = tu * c->cls_sn[j];
            r_col = rcu > r_col ? rcu : r_col;
            cs += pow_p(rcu, c->p_exp, c->ip);
            /* Head-of-line blocking (header): held to dispatch t_h; a run
             * of the warp's own C_u predecessors holds them t_h - C_u more,
             * else other warps hold all C_u with chance rho^C_u, the first
             * freeing in about t_h / (C_u + 1). */
            double th = tu + (1.0 - c->p->unit_hold) * wu[u];
            double ru = x * th * c->cls_sn[j];
            ru = ru < 1.0 ? ru : 1.0;
            double rc = pow_int(ru, c->cls_n[j]);
            double prun = c->cls_prun[j], over = th - cn;
            double b = over > 0 ? prun * over + (1.0 - prun) * rc * th * c->cls_n1[j]
                                : rc * th * c->cls_n1[j];
            blocked += share * b;
        }
        /* Issue with the blocked time: S / (1/iw + sum_u f_u B_u), kept
         * as its inverse. */
        if (c->blocking)
            inv_iss = (c->inv_iw + blocked * c->coll_frac) * c->inv_sched;
        s_coll = cs;
    } else {
        r_col = t_coll * c->inv_coll;
        s_coll = pow_p(r_col, c->p_exp, c->ip);
    }
    double s_lat = pow_p(r_lat, c->p_exp, c->ip), s_net = s_lat;
    if (m->pool > 0) {
        /* The pool joins latency and DRAM in one network (header); it
         * holds the issue ports, so the scheduler chain below keeps the
         * latency term without it. */
        double z = c->mem_cpi - c->dram_s;
        double xn = pool_closed(m, cpi - c->mem_cpi, z > 0 ? z : 0.0, 1.0 / c->inv_warps,
                                c->dram_s);
        s_net = xn > 0 ? pow_p(1.0 / xn, c->p_exp, c->ip)
                       : s_lat + pow_p(1.0 / pool_limit(m, cpi - c->mem_cpi), c->p_exp, c->ip);
    }
    double s = c->caps_sum + s_net
             + (c->tandem ? (s_coll > c->unit_s ? s_coll : c->unit_s) : s_coll + c->unit_s);
    if (inv_iss > 0) {
        /* Scheduler chain (header): issue with its blocked time, latency
         * and collectors; IPC is the smaller of the two soft minima, i.e.
         * the larger of the two sums. */
        double s2 = pow_p(inv_iss, c->p_exp, c->ip) + s_lat + s_coll;
        s = s2 > s ? s2 : s;
    }
    double f = root_p(s, c->p_exp, c->ip);
    if (out) {
        out->ipc = f;
        out->cpi_warp = cpi;
        out->t_collect = t_coll;
        out->unit_wait = uw;
        out->rho = load.rho_read + load.rho_write;
        out->read_wait = w.read_wait;
        out->stolen_writes = w.stolen_writes;
        out->lim_latency = m->warps / cpi;
        out->lim_collect = 1.0 / r_col;
        out->lim_pool = m->pool > 0 ? pool_limit(m, cpi - c->mem_cpi) : INFINITY;
    }
    return f;
}

/* One solve: its invariants, the x-independent caps and the Illinois state
 * (so that the two solves of a kernel's waves can run side by side). */
typedef struct solve {
    solve_ctx c;
    double issue, unit, dram;
    bool done;
    double a, fa, bx, fb, x;
    int side, it;
    rf_ipc_result cur;
} solve;

/* P_run per class (header): depends on the warps per scheduler, so it is
 * set again when a solve takes another warp count (steady_pair). */
static void set_prun(solve_ctx *c)
{
    const rf_ipc_kernel *k = c->k;
    double nws = c->m->warps / (c->m->schedulers > 0 ? c->m->schedulers : 1);
    for (int j = 0; j < c->ncls; j++) {
        int u = c->cls_u[j], cn = c->cls_n[j];
        double rep = k->rep_share[u];
        double prun = (1.0 - rep) * (cn <= RF_IPC_MAXRUN ? k->run_ge[u][cn] : 0.0);
        if (nws > cn)
            prun += rep * (nws - cn) / nws;
        c->cls_prun[j] = prun;
    }
}

/* Invariants of a solve (but P_run, set_prun, none depends on m->warps). */
static void solve_setup(const rf_ipc_kernel *k, const rf_ipc_mix *mx, const rf_ipc_machine *m,
                        const rf_ipc_params *p, solve *sv)
{
    solve_ctx c = {.k = k, .mix = *mx, .m = m, .p = p, .p_exp = p->smooth};
    double ps = floor(p->smooth);
    c.ip = (ps == p->smooth && ps <= 64) ? (int)ps : 0;

    /* Harmonic numbers H_1 .. H_8. */
    static const double harmonic[RF_IPC_MAXK + 1] = {
        0.0, 1.0, 1.5, 11.0 / 6.0, 25.0 / 12.0, 137.0 / 60.0, 49.0 / 20.0, 363.0 / 140.0,
        761.0 / 280.0};
    for (int i = 1; i <= RF_IPC_MAXK; i++)
        c.hk += k->read_k[i] * harmonic[i];
    int b = m->banks < 1 ? 1 : (m->banks > RF_IPC_MAXB ? RF_IPC_MAXB : m->banks);
    c.intra = k->intra[b];
    c.fixed_hold = p->coll_base - k->no_reads + (m->rf_latency > 1 ? m->rf_latency - 1 : 0)
                 + m->extra_hold;
    c.fixed_cpi = 1.0 + p->lat_scale * k->stall_dep + p->mem_scale * k->stall_mem + m->extra_stall;
    c.mem_cpi = p->mem_scale * k->stall_mem;
    c.path = p->rf_path * (k->wait_share > 0 ? (k->wait_share < 1 ? k->wait_share : 1.0) : 1.0);
    c.path_write = m->wb_rate > 0 ? 0.0 : 1.0;

    double issue = (double)m->schedulers * m->issue_width;
    int pipes = m->alu_pipes > 0 ? m->alu_pipes : 1;
    double unit = INFINITY, alu_cap = INFINITY;
    if (mx->alu_use > 0 && m->alu_ii > 0)
        alu_cap = pipes / (m->alu_ii * mx->alu_use);
    /* ALU pipes that keep up with issue (header): their cap is the issue
     * cap's, a hard minimum with it, not a soft one, and single-width ALU
     * instructions do not queue at them. */
    c.s_alu = m->alu_pipes > 0 ? m->alu_ii / m->alu_pipes : 0.0;
    c.alu_free = m->alu_pipes > 0 && c.s_alu * issue <= 1.0;
    double other = INFINITY;     /* the SFU and LD/ST pipes' cap */
    if (mx->frac_sfu > 0 && m->sfu_ii > 0)
        other = min_run(other, 1.0 / (m->sfu_ii * mx->frac_sfu));
    if (mx->frac_ldst > 0 && m->ldst_ii > 0)
        other = min_run(other, 1.0 / (m->ldst_ii * mx->frac_ldst));
    c.tandem = !c.alu_free && isfinite(alu_cap) && alu_cap <= other;
    unit = c.alu_free ? other : min_run(other, alu_cap);
    double dram = (k->dram_bytes > 0 && m->dram_bytes_per_cycle > 0)
                ? m->dram_bytes_per_cycle / k->dram_bytes : INFINITY;
    c.coll_frac = 1.0 - mx->frac_none > 0.05 ? 1.0 - mx->frac_none : 0.05;
    c.class_sum = mx->frac_alu + mx->frac_sfu + mx->frac_ldst;
    if (c.class_sum > 0)
        c.mean_class_hold = (mx->frac_alu * m->class_hold[0] + mx->frac_sfu * m->class_hold[1]
                             + mx->frac_ldst * m->class_hold[2]) / c.class_sum;
    c.typed = m->coll_split[0] > 0 && m->coll_split[1] > 0 && m->coll_split[2] > 0
           && c.class_sum > 0;
    if (c.class_sum > 0)
        c.class_sum /= c.coll_frac;     /* f_u / class_sum: share of the collector users */
    if (m->banks > 0) {
        c.rd_bank = k->reads / m->banks;
        c.wr_bank = k->writes / m->banks;
        c.ahead_max = m->collectors > 0 ? (double)m->collectors / m->banks : 0.0;
    }
    c.u_alu = (c.alu_free ? (mx->alu_use > mx->frac_alu ? mx->alu_use - mx->frac_alu : 0.0)
                          : mx->alu_use) * c.s_alu;
    c.u_sfu = mx->frac_sfu * m->sfu_ii;
    c.u_ldst = mx->frac_ldst * m->ldst_ii;
    c.caps_sum = inv_pow(c.alu_free && alu_cap < issue ? alu_cap : issue, c.p_exp, c.ip);
    if (m->pool > 0)        /* the pool's term holds the issue ports (header) */
        c.caps_sum = c.alu_free && alu_cap < issue ? inv_pow(alu_cap, c.p_exp, c.ip) : 0.0;
    c.blocking = c.typed;
    if (c.typed) {
        const double svc[3] = {c.s_alu, m->sfu_ii, m->ldst_ii};
        for (int u = 0; u < 3; u++)
            c.wu_cap[u] = (m->coll_split[u] - 1) * svc[u];
        const double fu[3] = {mx->frac_alu, mx->frac_sfu, mx->frac_ldst};
        for (int u = 0; u < 3; u++)
            if (fu[u] > 0) {
                int j = c.ncls++;
                c.cls_u[j] = u;
                c.cls_n[j] = m->coll_split[u];
                c.cls_share[j] = fu[u] / c.class_sum;
                c.cls_n1[j] = 1.0 / (m->coll_split[u] + 1.0);
                c.cls_sn[j] = c.cls_share[j] / m->coll_split[u];
                c.cls_hold[j] = m->class_hold[u];
            }
        set_prun(&c);
    }
    c.inv_sched = 1.0 / (m->schedulers > 0 ? m->schedulers : 1);
    c.inv_iw = 1.0 / m->issue_width;
    c.inv_warps = 1.0 / m->warps;
    c.inv_coll = c.coll_frac / m->collectors;
    if (isfinite(unit))
        c.unit_s = inv_pow(unit, c.p_exp, c.ip);
    c.dram_s = isfinite(dram) ? 1.0 / dram : 0.0;

    sv->c = c;
    sv->issue = issue;
    sv->unit = min_run(unit, alu_cap);
    sv->dram = dram;
}

/* The first two evaluations; done at once when the machine has no warps,
 * collectors, banks or pipes (out then holds the caps). */
static void solve_begin(solve *sv, rf_ipc_result *out)
{
    const solve_ctx *cp = &sv->c;
    const rf_ipc_machine *m = cp->m;
    double issue = sv->issue, unit = sv->unit, dram = sv->dram;
    if (m->warps <= 0 || m->collectors <= 0 || m->banks <= 0 || m->alu_pipes <= 0) {
        *out = (rf_ipc_result){0};
        out->lim_issue = issue;
        out->lim_unit = unit;
        out->lim_dram = dram;
        sv->done = true;
        sv->it = -1;
        return;
    }
    /* Illinois on g(x) = F(x) - x over [0, F(0)]; the last evaluation's
     * details are kept (its F is within the tolerance of x). */
    sv->a = 0.0;
    sv->fa = eval(cp, 0.0, NULL);
    sv->bx = sv->fa;
    sv->fb = eval(cp, sv->bx, &sv->cur) - sv->bx;
    sv->side = 0;
    sv->it = 0;
    sv->x = sv->bx;
    sv->done = !(sv->fb < -1e-6 * (1.0 + sv->bx));
}

/* One Illinois step (at most 60). */
static void solve_step(solve *sv)
{
    double x = (sv->a * sv->fb - sv->bx * sv->fa) / (sv->fb - sv->fa);
    sv->x = x;
    double fx = eval(&sv->c, x, &sv->cur) - x;
    if (fabs(fx) <= 1e-6 * (1.0 + x) || fabs(sv->bx - sv->a) <= 1e-9) {
        sv->done = true;
        return;
    }
    if ((fx < 0) == (sv->fb < 0)) {
        sv->bx = x;
        sv->fb = fx;
        if (sv->side == -1)
            sv->fa *= 0.5;
        sv->side = -1;
    } else {
        sv->a = x;
        sv->fa = fx;
        if (sv->side == 1)
            sv->fb *= 0.5;
        sv->side = 1;
    }
    if (++sv->it >= 60)
        sv->done = true;
}

static void solve_finish(const solve *sv, rf_ipc_result *out)
{
    if (sv->it < 0)
        return;         /* degenerate machine: out already filled */
    *out = sv->cur;
    out->ipc = sv->x;
    out->lim_issue = sv->issue;
    out->lim_unit = sv->unit;
    out->lim_dram = sv->dram;
    double lims[6] = {out->lim_latency, sv->issue, out->lim_collect, sv->unit, sv->dram,
                      out->lim_pool};
    out->bound = 0;
    for (int i = 1; i < 6; i++)
        if (lims[i] < lims[out->bound])
            out->bound = i;
}

/* The kernel's one unit mix. */
static rf_ipc_mix whole_mix(const rf_ipc_kernel *k)
{
    return (rf_ipc_mix){1.0, k->frac_alu, k->alu_use, k->frac_sfu, k->frac_ldst, k->frac_none};
}

static void steady_mix(const rf_ipc_kernel *k, const rf_ipc_mix *mx, const rf_ipc_machine *m,
                       const rf_ipc_params *p, rf_ipc_result *out)
{
    solve sv;
    solve_setup(k, mx, m, p, &sv);
    solve_begin(&sv, out);
    while (!sv.done)
        solve_step(&sv);
    solve_finish(&sv, out);
}

/* Barrier regions (header): each region's steady state at its own mix
 * without the DRAM server, folded as 1 / IPC = sum_r share_r / IPC_r, then
 * the kernel's DRAM server behind the fold; the other figures are those
 * of the region that takes the most time.  Not under a two-level pool
 * (rf_ipc_steady). */
static void steady_phases(const rf_ipc_kernel *k, const rf_ipc_machine *m,
                          const rf_ipc_params *p, rf_ipc_result *out)
{
    double inv = 0.0, most = -1.0;
    rf_ipc_machine mf = *m;
    bool dram = k->dram_bytes > 0 && m->dram_bytes_per_cycle > 0;
    if (dram)
        mf.dram_bytes_per_cycle = 0;        /* the server comes after the fold */
    for (int i = 0; i < k->nphase && i < RF_IPC_NPHASE; i++) {
        rf_ipc_result r;
        steady_mix(k, &k->phase[i], &mf, p, &r);
        if (!(r.ipc > 0)) {
            *out = r;
            return;
        }
        double t = k->phase[i].share / r.ipc;
        inv += t;
        if (t > most) {
            most = t;
            *out = r;
        }
    }
    out->ipc = inv > 0 ? 1.0 / inv : 0.0;
    if (dram && out->ipc > 0) {
        double s = k->dram_bytes / m->dram_bytes_per_cycle;
        out->ipc = dram_closed(m->warps / out->ipc, m->warps, s);
        out->lim_dram = 1.0 / s;
        double lims[6] = {out->lim_latency, out->lim_issue, out->lim_collect, out->lim_unit,
                          out->lim_dram, out->lim_pool};
        if (out->bound >= 0 && out->bound < 6 && out->lim_dram < lims[out->bound])
            out->bound = 4;     /* the server, now in the fold's limits */
    }
}

void rf_ipc_steady(const rf_ipc_kernel *k, const rf_ipc_machine *m,
                   const rf_ipc_params *p, rf_ipc_result *out)
{
    if (k->nphase >= 2 && !(m->pool > 0)) {
        steady_phases(k, m, p, out);
        return;
    }
    rf_ipc_mix mx = whole_mix(k);
    steady_mix(k, &mx, m, p, out);
}

/* Two independent solves stepped in turn: the same operations as one after
 * the other (so the same results), but the processor overlaps their
 * dependency chains (divisions and square roots).  m2 differs from m1 in
 * warps only, so the second solve's invariants are the first's.  Barrier
 * regions: each machine on its own (steady_phases). */
static void steady_pair(const rf_ipc_kernel *k, const rf_ipc_machine *m1,
                        const rf_ipc_machine *m2, const rf_ipc_params *p,
                        rf_ipc_result *out1, rf_ipc_result *out2)
{
    if (k->nphase >= 2 && !(m1->pool > 0)) {
        steady_phases(k, m1, p, out1);
        steady_phases(k, m2, p, out2);
        return;
    }
    rf_ipc_mix mx = whole_mix(k);
    solve s1, s2;
    solve_setup(k, &mx, m1, p, &s1);
    s2 = s1;
    s2.c.m = m2;
    s2.c.inv_warps = 1.0 / m2->warps;
    set_prun(&s2.c);
    solve_begin(&s1, out1);
    solve_begin(&s2, out2);
    while (!s1.done || !s2.done) {
        if (!s1.done)
            solve_step(&s1);
        if (!s2.done)
            solve_step(&s2);
    }
    solve_finish(&s1, out1);
    solve_finish(&s2, out2);
}

/* Warp counts the spread is solved at (every count up to 8, then about 25%
 * apart; RF_IPC_NSPREAD - 1 the last), linear between them. */
static const int spread_grid[] = {0,  1,  2,  3,  4,  5,  6,   7,   8,   10,  12,  15, 19,
                                  24, 30, 37, 46, 58, 72, 90, 112, 140, 175, 219, 256};

/* The spread of the issuing warps (header): the IPC with n CTAs resident
 * over the distribution of the warps that issue, each CTA drawing its
 * count from k->act_hist independently, scaled so that the mean is
 * n wpc act.  tab caches, for a warp count W on the grid, IPC(W) at
 * tab[2W] and the latency limit W / cpi_w at tab[2W + 1] (< 0: not solved
 * yet; tabn entries).  States under 1e-4 of the time are left out (the
 * ratio renormalises).  Returns -1 where the distribution is unknown or
 * too wide for tab: the mean's steady state then.  A two-level
 * scheduler's pool (m->pool) caps each state's IPC as it caps the
 * mean's. */
static double spread_ipc(const rf_ipc_kernel *k, const rf_ipc_machine *m,
                         const rf_ipc_params *p, int n, int wpc, double act, double *tab,
                         int tabn)
{
    if (n < 1 || wpc < 1 || wpc > RF_IPC_MAXWPC || 2 * n * wpc + 1 >= tabn)
        return -1.0;
    double mh = 0, hs = 0;
    for (int j = 1; j <= wpc; j++) {
        mh += j * k->act_hist[j];
        hs += k->act_hist[j];
    }
    if (!(hs > 0.5) || !(mh > 0))
        return -1.0;
    /* P(W) for n CTAs: the n-fold convolution of the CTA's distribution. */
    double pw[2][RF_IPC_NSPREAD], *cur = pw[0], *nxt = pw[1];
    memset(cur, 0, sizeof pw[0]);
    cur[0] = 1.0;
    for (int c = 0; c < n; c++) {
        memset(nxt, 0, sizeof pw[0]);
        for (int w = 0; w <= c * wpc; w++) {
            if (cur[w] <= 0)
                continue;
            for (int j = 1; j <= wpc; j++)
                nxt[w + j] += cur[w] * k->act_hist[j] / hs;
        }
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    double scale = wpc * act / mh, num = 0, den = 0;
    rf_ipc_machine mw = *m;
    int g = 0;
    for (int w = n; w <= n * wpc; w++) {
        if (cur[w] < 1e-4)
            continue;
        /* W between grid points lo <= W <= hi: linear between them. */
        while (spread_grid[g + 1] < w)
            g++;
        int lo = spread_grid[g], hi = spread_grid[g + 1];
        if (lo == w)
            hi = lo;
        int at[2] = {lo, hi};
        for (int e = 0; e < 2; e++) {
            int v = at[e];
            if (tab[2 * v] >= 0)
                continue;
            rf_ipc_result r;
            mw.warps = v * scale;
            rf_ipc_steady(k, &mw, p, &r);
            tab[2 * v] = r.ipc;
            tab[2 * v + 1] = r.cpi_warp > 0 ? mw.warps / r.cpi_warp : r.ipc;
        }
        double f = hi > lo ? (double)(w - lo) / (hi - lo) : 0.0;
        double ipc = (1 - f) * tab[2 * lo] + f * tab[2 * hi];
        double lat = (1 - f) * tab[2 * lo + 1] + f * tab[2 * hi + 1];
        /* Lone time to cycles: a state of W warps lasts its lone time
         * over its warps' pace, IPC(W) / (W / cpi_w(W)). */
        num += cur[w] * lat;
        den += ipc > 0 ? cur[w] * lat / ipc : 0;
    }
    return den > 0 ? num / den : -1.0;
}

static double kernel_cycles(const rf_ipc_kernel *k, const rf_ipc_machine *m,
                            const rf_ipc_params *p, long ctas, int resident,
                            double *ipc_out, rf_ipc_result *steady);

double rf_ipc_kernel_cycles(const rf_ipc_kernel *k, const rf_ipc_machine *m,
                            const rf_ipc_params *p, long ctas, int resident,
                            double *ipc_out, rf_ipc_result *steady)
{
    rf_ipc_cycles_memo *memo = k->cycles_memo;
    if (!memo)
        return kernel_cycles(k, m, p, ctas, resident, ipc_out, steady);
    rf_ipc_cycles_entry *old = &memo->e[0];
    for (int i = 0; i < RF_IPC_MEMO; i++) {
        rf_ipc_cycles_entry *e = &memo->e[i];
        if (e->used && e->ctas == ctas && e->resident == resident
            && !memcmp(&e->m, m, sizeof *m) && !memcmp(&e->p, p, sizeof *p)
            && !memcmp(&e->k, k, sizeof *k)) {
            e->stamp = ++memo->clock;
            if (ipc_out)
                *ipc_out = e->ipc;
            if (steady)
                *steady = e->steady;
            return e->cycles;
        }
        if (!e->used || (old->used && e->stamp < old->stamp))
            old = e;
    }
    double ipc;
    rf_ipc_result st;
    double cycles = kernel_cycles(k, m, p, ctas, resident, &ipc, &st);
    memcpy(&old->k, k, sizeof *k);
    memcpy(&old->m, m, sizeof *m);
    memcpy(&old->p, p, sizeof *p);
    old->ctas = ctas;
    old->resident = resident;
    old->cycles = cycles;
    old->ipc = ipc;
    old->steady = st;
    old->used = true;
    old->stamp = ++memo->clock;
    if (ipc_out)
        *ipc_out = ipc;
    if (steady)
        *steady = st;
    return cycles;
}

/* One full wave of n CTAs whose slots stay held `hold` cycles after their
 * warps end (header, Whole kernel): c of the n CTAs issue while the others
 * hold their slots, c + hold IPC(c) / i_cta = n, and the wave takes
 * n i_cta / IPC(c).  IPC(c) is the wave's IPC, ipc_n (the issuing warps'
 * spread), times the steady state's ratio at c CTAs' warps to n's, s_n;
 * solved by the Illinois method on [0, n]. */
static double wave_cycles(const rf_ipc_kernel *k, const rf_ipc_machine *m,
                          const rf_ipc_params *p, int n, double w_cta, double i_cta,
                          double hold, double s_n, double ipc_n)
{
    double g_hi = hold * ipc_n / i_cta;     /* g(n); g(c) = c + hold IPC(c) / i_cta - n */
    if (!(g_hi > 1e-12 * n) || !(s_n > 0))
        return n * i_cta / ipc_n + (g_hi > 0 ? hold : 0.0);
    rf_ipc_machine mc = *m;
    double lo = 0, g_lo = -n, hi = n, c = n, ipc_c = ipc_n;
    int side = 0;
    for (int it = 0; it < 60 && hi - lo > 1e-9 * n; it++) {
        c = (lo * g_hi - hi * g_lo) / (g_hi - g_lo);
        rf_ipc_result rc;
        mc.warps = c * w_cta;
        rf_ipc_steady(k, &mc, p, &rc);
        ipc_c = ipc_n * rc.ipc / s_n;
        double gc = c + hold * ipc_c / i_cta - n;
        if (gc == 0)
            break;
        if (gc < 0) {
            lo = c;
            g_lo = gc;
            if (side == -1)
                g_hi /= 2;
            side = -1;
        } else {
            hi = c;
            g_hi = gc;
            if (side == 1)
                g_lo /= 2;
            side = 1;
        }
    }
    return ipc_c > 0 ? n * i_cta / ipc_c : n * i_cta / ipc_n + hold;
}

/* T'_j / T_j of known CTA j (header, CTA fluid): the share of its lone
 * time that s(n) scales; 1 where lone0 is unknown. */
static double own_share(const rf_ipc_kernel *k, long j)
{
    return k->lone[j] > 0 && k->lone0[j] > 0 ? (double)k->lone0[j] / k->lone[j] : 1.0;
}

/* Known CTA j's drain (header, CTA fluid: its slot held at real time after
 * its warps end, issuing nothing), at most its lone cycles, and the lone
 * cycles it works through before it. */
static double lone_drain(const rf_ipc_kernel *k, long j)
{
    double d = k->lone_drain[j] > 0 ? k->lone_drain[j] : 0.0;
    return d < k->lone[j] ? d : (k->lone[j] > 0 ? k->lone[j] : 0.0);
}

static double lone_work(const rf_ipc_kernel *k, long j)
{
    double w = k->lone[j] - lone_drain(k, j);
    return w > 0 ? w : 0.0;
}

/* Slot i of the CTA fluid takes known CTA j: its instructions (i_cta where
 * unknown), its own share, the lone cycles it works through (rem, left of
 * them) and its drain. */
static void fluid_take(const rf_ipc_kernel *k, long j, double i_cta, int i, double *ins,
                       double *osh, double *lone, double *rem, double *drn)
{
    ins[i] = k->lone_insts[j] > 0 ? k->lone_insts[j] : i_cta;
    osh[i] = own_share(k, j);
    lone[i] = rem[i] = lone_work(k, j);
    drn[i] = lone_drain(k, j);
}

static double kernel_cycles(const rf_ipc_kernel *k, const rf_ipc_machine *m,
                            const rf_ipc_params *p, long ctas, int resident,
                            double *ipc_out, rf_ipc_result *steady)
{
    rf_ipc_machine mm = *m;
    double wpc = k->warps_per_cta > 0 ? k->warps_per_cta : 1;
    double i_cta = k->insts_per_warp * wpc;
    if (ctas <= 0 || resident <= 0 || i_cta <= 0) {
        if (ipc_out)
            *ipc_out = 0;
        if (steady)
            *steady = (rf_ipc_result){0};
        return 0;
    }
    long full = ctas / resident;
    long part = ctas % resident;
    double cycles = 0.0;
    rf_ipc_result r;
    double act = k->active_frac > 0 ? k->active_frac : 1.0;
    int first = full > 0 ? resident : (int)part;
    mm.warps = first * wpc * act;
    rf_ipc_result rp;
    rf_ipc_machine mp = mm;
    if (full > 0 && part > 0) {
        mp.warps = part * wpc * act;
        steady_pair(k, &mm, &mp, p, &r, &rp);
    } else {
        rf_ipc_steady(k, &mm, p, &r);
    }
    double s_first = r.ipc;    /* the steady state at the mean, before the spread */
    /* The issuing warps' spread (header), W warps at tab[W]. */
    double tab[2 * RF_IPC_NSPREAD];
    for (int i = 0; i < 2 * RF_IPC_NSPREAD; i++)
        tab[i] = -1.0;
    int iwpc = (int)wpc;
    double sp = spread_ipc(k, &mm, p, first, iwpc, act, tab, 2 * RF_IPC_NSPREAD);
    if (sp >= 0)
        r.ipc = sp;
    if (full > 0 && part > 0 && (sp = spread_ipc(k, &mm, p, (int)part, iwpc, act, tab,
                                                 2 * RF_IPC_NSPREAD)) >= 0)
        rp.ipc = sp;
    if (steady)
        *steady = r;
    double tail = p->tail * k->insts_per_warp * r.cpi_warp;
    double wave = (full > 0 ? wave_cycles(k, &mm, p, first, wpc * act, i_cta, k->drain, s_first,
                                          r.ipc)
                            : first * i_cta / r.ipc + k->drain) + tail;
    if (full > 0) {
        cycles += full * wave;
        if (part > 0) {
            cycles += part * i_cta / rp.ipc + k->drain + p->tail * k->insts_per_warp * rp.cpi_warp;
        }
    } else {
        cycles = wave;
    }
    /* The lone times at the design's per-warp pace (header). */
    double base = 1.0 + k->stall_dep + k->stall_mem;
    double own = 1.0 + p->lat_scale * k->stall_dep + p->mem_scale * k->stall_mem + m->extra_stall;
    double g = base > 0 ? own / base : 1.0;
    long known = k->nlone;
    if (k->crit_ctas == ctas && known > 0 && known <= RF_IPC_NLONE && known <= ctas
        && !m->switching) {
        /* CTA fluid (header): s(n) and the throughput bound for n = 1 ..
         * ns, then the slots advance together from one CTA's end to the
         * next, from t0 on. */
        double t0 = (double)(ctas - known) / resident * wave;
        double mean = 0.0;
        for (long j = 0; j < known; j++)
            mean += lone_work(k, j);
        mean /= (double)known;
        int ns = resident < known ? resident : (int)known;
        double rem[RF_IPC_NLONE], cap[RF_IPC_NLONE + 1], per_w1 = 0;
        double lone[RF_IPC_NLONE], osh[RF_IPC_NLONE], ins[RF_IPC_NLONE], v[RF_IPC_NLONE];
        double drn[RF_IPC_NLONE], dl[RF_IPC_NLONE];    /* drain, drain left (< 0: none) */
        double xv[RF_IPC_NLONE + 1], sn[RF_IPC_NLONE + 1];
        for (int n = 1; n <= ns; n++) {
            double ipc_n = spread_ipc(k, m, p, n, iwpc, act, tab, 2 * RF_IPC_NSPREAD);
            if (ipc_n < 0) {
                rf_ipc_machine mn = *m;
                mn.warps = n * wpc * act;
                rf_ipc_result rn;
                rf_ipc_steady(k, &mn, p, &rn);
                ipc_n = rn.ipc;
            }
            /* s(n): cycles per issuing warp-instruction over one CTA's. */
            double per_w = ipc_n > 0 ? n * wpc * act / ipc_n : 0;
            if (n == 1)
                per_w1 = per_w;
            sn[n] = per_w1 > 0 && per_w > per_w1 ? per_w / per_w1 : 1.0;
            xv[n] = ipc_n > 0 && mean > 0 ? n * i_cta / (ipc_n * mean) : g;
            cap[n] = ipc_n;
        }
        cap[0] = 0;
        sn[0] = 1;
        xv[0] = g;
        double x1 = xv[1] > g ? xv[1] : g;     /* a lone CTA's stretch, s(1) = 1 */
        double share = m->oldest_first ? (p->gto_share < 0 ? 0 : p->gto_share > 1 ? 1 : p->gto_share)
                                       : 0.0;
        long next = 0;
        int nact = ns, ndr = 0;
        int ord[RF_IPC_NLONE];      /* the working slots, oldest CTA first */
        for (int i = 0; i < ns; i++) {
            ord[i] = i;
            fluid_take(k, next++, i_cta, i, ins, osh, lone, rem, drn);
            dl[i] = -1.0;
        }
        double t = 0.0;
        while (nact > 0 || ndr > 0) {
            /* Rates through lone time: the equal share 1 / x(n), blended
             * with the oldest-first share by age (header). */
            double left = cap[nact];
            for (int i = 0; i < ns; i++) {
                if (rem[i] < 0 || dl[i] >= 0) {
                    v[i] = 0.0;
                    continue;
                }
                /* x_j(n) with the CTA's own slowdown bound (header). */
                double b = sn[nact] * osh[i];
                b = g * (b > 1.0 ? b : 1.0);
                v[i] = 1.0 / (xv[nact] > b ? xv[nact] : b);
            }
            if (share > 0) {
                for (int o = 0; o < nact; o++) {
                    int i = ord[o];
                    double need = lone[i] > 0 ? ins[i] / (x1 * lone[i]) : 0;
                    double got = need < left ? need : left;
                    left -= got;
                    double vo = need > 0 ? got / need / x1 : 1.0 / x1;
                    v[i] = (1.0 - share) * v[i] + share * vo;
                }
            }
            double dt = INFINITY;
            for (int i = 0; i < ns; i++) {
                if (dl[i] >= 0 && dl[i] < dt)
                    dt = dl[i];
                else if (dl[i] < 0 && rem[i] >= 0 && v[i] > 0 && rem[i] / v[i] < dt)
                    dt = rem[i] / v[i];
            }
            if (!(dt < INFINITY))
                break;
            t += dt;
            for (int i = 0; i < ns; i++) {
                if (dl[i] >= 0) {
                    dl[i] -= dt;
                    if (dl[i] > 1e-9 * mean)
                        continue;
                    /* Drained: the slot takes the next CTA, the youngest. */
                    dl[i] = -1.0;
                    ndr--;
                    if (next < known) {
                        ord[nact++] = i;
                        fluid_take(k, next++, i_cta, i, ins, osh, lone, rem, drn);
                    } else {
                        rem[i] = -1.0;      /* the slot stays empty */
                    }
                    continue;
                }
                if (rem[i] < 0)
                    continue;
                rem[i] -= v[i] * dt;
                if (rem[i] <= 1e-9 * mean) {
                    /* The slot leaves the age order and drains. */
                    int o = 0;
                    while (ord[o] != i)
                        o++;
                    memmove(ord + o, ord + o + 1, sizeof *ord * (size_t)(nact - 1 - o));
                    nact--;
                    rem[i] = 0.0;
                    dl[i] = drn[i];
                    ndr++;
                }
            }
        }
        if (t0 + t > cycles)
            cycles = t0 + t;
    } else if (k->crit_ctas == ctas) {
        for (int i = 0; i < k->ncrit && i < RF_IPC_NCRIT; i++) {
            double end = (double)(k->crit_pos[i] / resident) * wave + g * k->crit_cycles[i];
            if (end > cycles)
                cycles = end;
        }
    }
    /* DRAM drain (header). */
    if (k->dram_load_bytes > 0 && m->dram_bytes_per_cycle > 0
        && !(k->dram_none && k->crit_ctas == ctas)) {
        double end = k->dram_lead
                   + (double)ctas * i_cta * k->dram_load_bytes / m->dram_bytes_per_cycle
                   + k->dram_latency + k->dram_trail;
        if (end > cycles)
            cycles = end;
    }
    if (ipc_out)
        *ipc_out = ctas * i_cta / cycles;
    return cycles;
}

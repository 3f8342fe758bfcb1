/* kchar.c - what a kernel does per warp instruction, for the IPC model.
 *
 * Block frequencies.  The CFG is a Markov chain: a loop-back branch is taken
 * with probability trip / (trip + 1) (so the back edge is taken `trip` times
 * on average, as the sampler walks it), any other conditional branch with the
 * profile's `taken`, an unconditional one always.  Expected executions f per warp solve
 *     f = e_entry + P^T f        ((I - P^T) f = e_entry, Gaussian elimination)
 * Every per-instruction figure below is a mean over the instruction stream
 * weighted by f.
 *
 * Mix and operands.  Fractions of memory (global, local, atomic), ALU-pipe
 * (fp64 taking 4 pipe slots), SFU, LD/ST-unit, and unit-less (barrier,
 * exit) instructions; register reads are distinct general registers an
 * instruction uses (predicates live in their own file), writes the distinct
 * general registers it defines; read_k the histogram of reads.
 *
 * Same-bank operands.  With registers interleaved over B banks (bank =
 * (register + warp offset) mod B), two distinct registers of one instruction
 * collide when equal mod B, whatever the warp; the reads then take
 * max_b(count on b) cycles: intra[B] = mean of (that max - 1).
 *
 * Lone-warp stalls.  One warp issuing in order, one instruction per cycle:
 * an instruction starts when all its source and destination registers are
 * free (no write pending); a result is ready 2 + latency(class) cycles after
 * its producer issues (a bank read and the collector before execution; ALU
 * and fp64 alu_latency, SFU sfu_latency, shared and constant smem_latency,
 * global/local loads the hit-rate mean
 *     L = h1 L1 + (1 - h1) (h2 L2 + (1 - h2) L_dram),
 * atomics L2 + (1 - h2) L_dram; stores produce nothing).
 * The wait is charged to global memory (S_mem) or to other producers
 * (S_dep) by the producer that bound it.  Register readiness restarts at
 * each block, except that a block that branches to itself is walked twice
 * and its second pass counted (loop-carried dependences of one-block loops).
 *
 * Active fraction.  A CTA holds its warp slots until its slowest warp ends,
 * and at each barrier every warp waits for the slowest one, so with random
 * trip counts many resident warps have nothing to issue.  A Monte Carlo walk
 * of RF_KCHAR_MC_CTAS CTAs (GSL mt19937, fixed seed: deterministic) with the
 * same branch rules gives per-warp instruction counts per barrier phase:
 *   active_frac = E[sum_phase mean_w I_w,phase] / E[sum_phase max_w I_w,phase]
 * (a warp's work over the CTA's critical work).  The IPC model issues from
 * active_frac x resident warps.
 *
 * DRAM traffic: warp_size x 4 bytes per 32-bit word (coalesced): loads move
 * their destination words when they miss both caches, stores their data
 * words (operands besides a 64-bit address) and atomics one word when they
 * miss L2.
 *
 * Inputs: physical function, profile, GPU latencies.  Outputs: rf_ipc_kernel.
 */
#include "kchar.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RF_KCHAR_MC_CTAS 256
#define RF_KCHAR_MC_SEED 12345
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

/* Branch probability of block b's exit edge to succ[1]. */
static double taken_prob(const rf_func *f, int b, const rf_profile *prof)
{
    const rf_block *blk = &f->blocks[b];
    const rf_inst *last = blk->ninsts ? &f->insts[blk->first + blk->ninsts - 1] : NULL;
    double trip = prof->trip > 0 ? prof->trip : 0.0;
    if (is_loopback(f, b))
        return trip / (trip + 1.0);
    if (last && last->guard < 0)
        return 1.0;
    return prof->taken;
}

int rf_kchar_block_freq(const rf_func *f, const rf_profile *prof, double *freq,
                        rf_err *err)
{
    int n = f->nblocks;
    if (n <= 0)
        return rf_err_set(err, RF_EPARSE, f->name, 0, 0, NULL, "function has no blocks");
    double *a = calloc((size_t)n * n, sizeof *a);
    if (!a)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "block frequencies: out of memory");
    /* a = I - P^T, row j: f_j - sum_i P(i->j) f_i = [j == 0]. */
    for (int j = 0; j < n; j++)
        a[(size_t)j * n + j] = 1.0;
    for (int i = 0; i < n; i++) {
        const rf_block *blk = &f->blocks[i];
        if (blk->nsucc == 1) {
            a[(size_t)blk->succ[0] * n + i] -= 1.0;
        } else if (blk->nsucc == 2) {
            double pt = taken_prob(f, i, prof);
            a[(size_t)blk->succ[1] * n + i] -= pt;
            a[(size_t)blk->succ[0] * n + i] -= 1.0 - pt;
        }
    }
    for (int j = 0; j < n; j++)
        freq[j] = j == 0 ? 1.0 : 0.0;
    /* Gaussian elimination with partial pivoting. */
    int rc = RF_OK;
    for (int c = 0; c < n && rc == RF_OK; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[(size_t)r * n + c]) > fabs(a[(size_t)piv * n + c]))
                piv = r;
        if (fabs(a[(size_t)piv * n + c]) < 1e-12) {
            rc = rf_err_set(err, RF_EUNSUPPORTED, f->name, 0, 0, "trip",
                            "block frequencies are unbounded (a loop never exits)");
            break;
        }
        if (piv != c) {
            for (int k = 0; k < n; k++) {
                double t = a[(size_t)c * n + k];
                a[(size_t)c * n + k] = a[(size_t)piv * n + k];
                a[(size_t)piv * n + k] = t;
            }
            double t = freq[c];
            freq[c] = freq[piv];
            freq[piv] = t;
        }
        for (int r = c + 1; r < n; r++) {
            double m = a[(size_t)r * n + c] / a[(size_t)c * n + c];
            if (m == 0.0)
                continue;
            for (int k = c; k < n; k++)
                a[(size_t)r * n + k] -= m * a[(size_t)c * n + k];
            freq[r] -= m * freq[c];
        }
    }
    if (rc == RF_OK)
        for (int r = n - 1; r >= 0; r--) {
            double s = freq[r];
            for (int k = r + 1; k < n; k++)
                s -= a[(size_t)r * n + k] * freq[k];
            freq[r] = s / a[(size_t)r * n + r];
            if (freq[r] < 0)
                freq[r] = 0;
        }
    free(a);
    return rc;
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

typedef struct walk_state {
    double ready[RF_PRED_BASE + RF_MAX_PRED]; /* cycle a register is ready */
    bool from_mem[RF_PRED_BASE + RF_MAX_PRED];
} walk_state;

/* Walk one block as a lone warp from time 0; adds its stalls. */
static void walk_block(const rf_gpu *gpu, const rf_profile *prof, const rf_func *f,
                       const rf_block *blk, double mem_lat, walk_state *ws, double *s_mem,
                       double *s_dep)
{
    double t = 0.0;
    for (int i = 0; i < blk->ninsts; i++) {
        const rf_inst *in = &f->insts[blk->first + i];
        double start = t;
        bool mem = false;
        for (int u = 0; u < in->nuses + in->ndefs; u++) {
            int r = u < in->nuses ? in->uses[u] : in->defs[u - in->nuses];
            if (r < RF_PRED_BASE + RF_MAX_PRED && ws->ready[r] > start) {
                start = ws->ready[r];
                mem = ws->from_mem[r];
            }
        }
        if (in->guard >= 0 && in->guard < RF_PRED_BASE + RF_MAX_PRED && ws->ready[in->guard] > start) {
            start = ws->ready[in->guard];
            mem = ws->from_mem[in->guard];
        }
        if (mem)
            *s_mem += start - t;
        else
            *s_dep += start - t;
        double lat = 2.0 + class_latency(gpu, prof, in->cls, mem_lat);
        bool lmem = in->cls == RF_OC_LD_GLOBAL || in->cls == RF_OC_LD_LOCAL || in->cls == RF_OC_ATOMIC;
        bool store = in->cls == RF_OC_ST_GLOBAL || in->cls == RF_OC_ST_LOCAL
                  || in->cls == RF_OC_ST_SHARED;
        for (int d = 0; d < in->ndefs && !store; d++) {
            int r = in->defs[d];
            if (r < RF_PRED_BASE + RF_MAX_PRED) {
                ws->ready[r] = start + lat;
                ws->from_mem[r] = lmem;
            }
        }
        t = start + 1.0;
    }
    /* Shift readiness so a following pass starts at time 0. */
    for (int r = 0; r < RF_PRED_BASE + RF_MAX_PRED; r++)
        ws->ready[r] = ws->ready[r] > t ? ws->ready[r] - t : 0.0;
}

/* Monte Carlo active fraction (see the header comment). */
static int active_fraction(const rf_func *f, const rf_profile *prof, int wpc, double *out,
                           rf_err *err)
{
    if (wpc <= 1) {
        /* One warp still waits for nobody at barriers. */
        *out = 1.0;
        return RF_OK;
    }
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int maxph = 64;
    double *cnt = calloc((size_t)wpc * maxph, sizeof *cnt);
    if (!rng || !cnt) {
        gsl_rng_free(rng);
        free(cnt);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "kernel characteristics: out of memory");
    }
    gsl_rng_set(rng, RF_KCHAR_MC_SEED);
    double work = 0, crit = 0;
    for (int c = 0; c < RF_KCHAR_MC_CTAS; c++) {
        memset(cnt, 0, sizeof *cnt * (size_t)wpc * maxph);
        int nph = 1;
        for (int w = 0; w < wpc; w++) {
            int b = 0, ph = 0;
            long n = 0;
            while (b >= 0 && b < f->nblocks && n < RF_KCHAR_MC_MAX_INSTS) {
                const rf_block *blk = &f->blocks[b];
                bool ends = false;
                for (int i = 0; i < blk->ninsts; i++) {
                    const rf_inst *in = &f->insts[blk->first + i];
                    cnt[(size_t)w * maxph + ph] += 1.0;
                    n++;
                    if (in->cls == RF_OC_BARRIER && ph + 1 < maxph)
                        ph++;
                    if (in->cls == RF_OC_EXIT)
                        ends = true;
                }
                if (ph + 1 > nph)
                    nph = ph + 1;
                if (ends || blk->nsucc == 0)
                    break;
                if (blk->nsucc == 1)
                    b = blk->succ[0];
                else
                    b = gsl_rng_uniform(rng) < taken_prob(f, b, prof) ? blk->succ[1] : blk->succ[0];
            }
        }
        for (int ph = 0; ph < nph; ph++) {
            double mx = 0, sum = 0;
            for (int w = 0; w < wpc; w++) {
                double v = cnt[(size_t)w * maxph + ph];
                sum += v;
                mx = v > mx ? v : mx;
            }
            work += sum / wpc;
            crit += mx;
        }
    }
    gsl_rng_free(rng);
    free(cnt);
    *out = crit > 0 ? work / crit : 1.0;
    return RF_OK;
}

int rf_kchar_func(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof,
                  int threads_per_cta, rf_ipc_kernel *out, rf_err *err)
{
    memset(out, 0, sizeof *out);
    out->func = f;              /* valid while the caller's kernel lives */
    out->prof = prof;
    if (!f->physical)
        return rf_err_set(err, RF_EUNSUPPORTED, f->name, 0, 0, NULL,
                          "kernel characteristics need physical registers");
    double *freq = malloc(sizeof *freq * (size_t)(f->nblocks > 0 ? f->nblocks : 1));
    walk_state *ws = malloc(sizeof *ws);
    if (!freq || !ws) {
        free(freq);
        free(ws);
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "kernel characteristics: out of memory");
    }
    int rc = rf_kchar_block_freq(f, prof, freq, err);
    if (rc) {
        free(freq);
        free(ws);
        return rc;
    }
    double mem_lat = rf_kchar_mem_latency(gpu, prof);
    double total = 0, mem = 0, sfu = 0, alu = 0, alu_use = 0, ldst = 0, none = 0;
    double reads = 0, writes = 0;
    double word_bytes = 4.0 * (gpu->warp_size > 0 ? gpu->warp_size : 32);
    double dram = 0, s_mem = 0, s_dep = 0;
    double kh[RF_IPC_MAXK + 1] = {0};
    double intra[RF_IPC_MAXB + 1] = {0};
    for (int b = 0; b < f->nblocks; b++) {
        const rf_block *blk = &f->blocks[b];
        double w = freq[b];
        if (w <= 0 || blk->ninsts == 0)
            continue;
        for (int i = 0; i < blk->ninsts; i++) {
            const rf_inst *in = &f->insts[blk->first + i];
            total += w;
            int cls = in->cls;
            mem += is_mem_class(cls) ? w : 0;
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
            if (cls == RF_OC_LD_GLOBAL || cls == RF_OC_LD_LOCAL)
                dram += w * word_bytes * (nw > 0 ? nw : 1) * (1.0 - prof->l1_hit) * miss2;
            else if (cls == RF_OC_ST_GLOBAL || cls == RF_OC_ST_LOCAL)
                dram += w * word_bytes * (k > 2 ? k - 2 : 1) * miss2;
            else if (cls == RF_OC_ATOMIC)
                dram += w * word_bytes * miss2;
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
        double bm = 0, bd = 0;
        memset(ws, 0, sizeof *ws);
        bool self = blk->nsucc > 0 && (blk->succ[0] == b || (blk->nsucc == 2 && blk->succ[1] == b));
        if (self) {
            double m0 = 0, d0 = 0;
            walk_block(gpu, prof, f, blk, mem_lat, ws, &m0, &d0);
        }
        walk_block(gpu, prof, f, blk, mem_lat, ws, &bm, &bd);
        s_mem += w * bm;
        s_dep += w * bd;
    }
    free(freq);
    free(ws);
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
    for (int nb = 1; nb <= RF_IPC_MAXB; nb++)
        out->intra[nb] = intra[nb] / total;
    out->intra[0] = out->intra[1];
    out->stall_mem = s_mem / total;
    out->stall_dep = s_dep / total;
    out->mem_latency = mem_lat;
    out->dram_bytes = dram / total;
    out->insts_per_warp = total;
    int ws_ = gpu->warp_size > 0 ? gpu->warp_size : 32;
    out->warps_per_cta = (threads_per_cta + ws_ - 1) / ws_;
    return active_fraction(f, prof, out->warps_per_cta, &out->active_frac, err);
}

int rf_kchar_compute(const rf_gpu *gpu, const rf_kernel *k, rf_ipc_kernel *out, rf_err *err)
{
    if (!k->func)
        return rf_err_set(err, RF_EUNSUPPORTED, k->name, 0, 0, NULL, "kernel has no entry function");
    int rc = rf_kchar_func(gpu, k->func, &k->profile, rf_kernel_threads(k), out, err);
    /* Per-register writes for register-cache collisions (rccollide.c); a
     * kernel they cannot be counted for leaves nregs 0 (uniform writes). */
    if (rc == 0 && rf_rcc_writes_of(k->func, &k->profile, &out->rcw, NULL) != 0)
        out->rcw.nregs = 0;
    return rc;
}

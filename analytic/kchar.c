/* kchar.c - what a kernel does per warp instruction, for the IPC model.
 *
 * Block frequencies.  The CFG is a Markov chain: a loop-back branch is taken
 * with probability 1 - 1/trip (so a loop runs `trip` times on average), any
 * other conditional branch with the profile's `taken`, an unconditional one
 * always.  Expected executions f per warp solve
 *     f = e_entry + P^T f        ((I - P^T) f = e_entry, Gaussian elimination)
 * Every per-instruction figure below is a mean over the instruction stream
 * weighted by f.
 *
 * Mix and operands.  Fractions of memory (global, local, atomic), SFU, fp64,
 * shared-memory and barrier instructions; register reads are distinct
 * general registers an instruction uses (predicates live in their own file),
 * writes the general registers it defines; read_k the histogram of reads.
 *
 * Same-bank operands.  With registers interleaved over B banks (bank =
 * (register + warp offset) mod B), two distinct registers of one instruction
 * collide when equal mod B, whatever the warp; the reads then take
 * max_b(count on b) cycles: intra[B] = mean of (that max - 1).
 *
 * Lone-warp stalls.  One warp issuing in order, one instruction per cycle:
 * an instruction starts when all its source registers are ready; a result is
 * ready `latency(class)` cycles after its producer starts (ALU alu_latency,
 * fp64 twice that, SFU sfu_latency, shared smem_latency, constant
 * l1_latency, global/local/atomic the hit-rate mean
 *     L = h1 L1 + (1 - h1) (h2 L2 + (1 - h2) L_dram)).
 * The wait is charged to global memory (S_mem) or to other producers
 * (S_dep) by the producer that bound it.  Register readiness restarts at
 * each block, except that a block that branches to itself is walked twice
 * and its second pass counted (loop-carried dependences of one-block loops).
 *
 * DRAM traffic: 128 bytes per global access (a coalesced warp of 32-bit
 * words) that misses both caches (loads) or L2 (stores and atomics).
 *
 * Inputs: physical function, profile, GPU latencies.  Outputs: rf_ipc_kernel.
 */
#include "kchar.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LINE_BYTES 128.0

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
    double trip = prof->trip >= 1.0 ? prof->trip : 1.0;
    for (int i = 0; i < n; i++) {
        const rf_block *blk = &f->blocks[i];
        if (blk->nsucc == 1) {
            a[(size_t)blk->succ[0] * n + i] -= 1.0;
        } else if (blk->nsucc == 2) {
            double pt = prof->taken;
            const rf_inst *last = blk->ninsts ? &f->insts[blk->first + blk->ninsts - 1] : NULL;
            if (is_loopback(f, i))
                pt = 1.0 - 1.0 / trip;
            else if (last && last->guard < 0)
                pt = 1.0;
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

static double class_latency(const rf_gpu *gpu, int cls, double mem_lat)
{
    switch (cls) {
    case RF_OC_ALU:
        return gpu->alu_latency;
    case RF_OC_ALU64:
        return 2.0 * gpu->alu_latency;
    case RF_OC_SFU:
        return gpu->sfu_latency;
    case RF_OC_LD_SHARED:
        return gpu->smem_latency;
    case RF_OC_LD_CONST:
        return gpu->l1_latency;
    case RF_OC_LD_GLOBAL:
    case RF_OC_LD_LOCAL:
    case RF_OC_ATOMIC:
        return mem_lat;
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

typedef struct walk_state {
    double ready[RF_PRED_BASE + RF_MAX_PRED]; /* cycle a register is ready */
    bool from_mem[RF_PRED_BASE + RF_MAX_PRED];
} walk_state;

/* Walk one block as a lone warp from time 0; adds its stalls. */
static void walk_block(const rf_gpu *gpu, const rf_func *f, const rf_block *blk,
                       double mem_lat, walk_state *ws, double *s_mem, double *s_dep)
{
    double t = 0.0;
    for (int i = 0; i < blk->ninsts; i++) {
        const rf_inst *in = &f->insts[blk->first + i];
        double start = t;
        bool mem = false;
        for (int u = 0; u < in->nuses; u++) {
            int r = in->uses[u];
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
        double lat = class_latency(gpu, in->cls, mem_lat);
        bool lmem = in->cls == RF_OC_LD_GLOBAL || in->cls == RF_OC_LD_LOCAL || in->cls == RF_OC_ATOMIC;
        for (int d = 0; d < in->ndefs; d++) {
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

int rf_kchar_func(const rf_gpu *gpu, const rf_func *f, const rf_profile *prof,
                  int threads_per_cta, rf_ipc_kernel *out, rf_err *err)
{
    memset(out, 0, sizeof *out);
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
    double total = 0, mem = 0, sfu = 0, a64 = 0, smem = 0, bar = 0, reads = 0, writes = 0;
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
            sfu += cls == RF_OC_SFU ? w : 0;
            a64 += cls == RF_OC_ALU64 ? w : 0;
            smem += (cls == RF_OC_LD_SHARED || cls == RF_OC_ST_SHARED) ? w : 0;
            bar += cls == RF_OC_BARRIER ? w : 0;
            if (cls == RF_OC_LD_GLOBAL || cls == RF_OC_LD_LOCAL)
                dram += w * LINE_BYTES * (1.0 - prof->l1_hit) * (1.0 - prof->l2_hit);
            else if (is_mem_class(cls))
                dram += w * LINE_BYTES * (1.0 - prof->l2_hit);
            int regs[RF_MAX_USES];
            int k = gpr_reads(in, regs);
            reads += w * k;
            kh[k > RF_IPC_MAXK ? RF_IPC_MAXK : k] += w;
            for (int d = 0; d < in->ndefs; d++)
                writes += in->defs[d] < RF_PRED_BASE ? w : 0;
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
            walk_block(gpu, f, blk, mem_lat, ws, &m0, &d0);
        }
        walk_block(gpu, f, blk, mem_lat, ws, &bm, &bd);
        s_mem += w * bm;
        s_dep += w * bd;
    }
    free(freq);
    free(ws);
    if (total <= 0)
        return rf_err_set(err, RF_EUNSUPPORTED, f->name, 0, 0, NULL, "kernel executes no instructions");
    out->frac_mem = mem / total;
    out->frac_sfu = sfu / total;
    out->frac_alu64 = a64 / total;
    out->frac_smem = smem / total;
    out->frac_bar = bar / total;
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
    return RF_OK;
}

int rf_kchar_compute(const rf_gpu *gpu, const rf_kernel *k, rf_ipc_kernel *out, rf_err *err)
{
    if (!k->func)
        return rf_err_set(err, RF_EUNSUPPORTED, k->name, 0, 0, NULL, "kernel has no entry function");
    return rf_kchar_func(gpu, k->func, &k->profile, rf_kernel_threads(k), out, err);
}

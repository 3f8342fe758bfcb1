/* prefetch.c - stall terms of register-file caches over a slow main file
 * (seed 004 Sections 3-4 and 6.3), for the IPC model's per-instruction
 * stall interface (analytic/ipc.c: cpi_w = ... + s_x, collector hold + h_x).
 *
 * Main file (as the sampler, sampler/ltrf.c): access latency
 *   L = latency_x x 1 cycle           (Table 2 multiplier over #1's access)
 * and a fill crossbar of g = 4 / rf_banks cycles per register with a
 * traversal of X = 4 cycles (Section 4.2).  A PREFETCH of n > 0 registers
 * holds its warp
 *   T(n) = k_op (L + X - 1) + k_reg g n   cycles:
 * the access and the traversal once, and per register its crossbar slot;
 * k_op and k_reg are free (1 gives the unloaded time): they take up the
 * queueing at the main banks (not pipelined: an access holds its bank L
 * cycles) and on the shared crossbar, and the overlap with the warp's own
 * stalls.
 *
 * LTRF.  Per thread, from the register-intervals of size N (Algorithms 1
 * and 2, analytic/intervals.c) and the profile's edge frequencies: the
 * PREFETCH operations P (entries into an interval from another interval,
 * plus the kernel start) that fetch anything and the registers R they fetch
 * (the new interval's bit vector minus the registers of the interval left,
 * which stay cached; LTRF+: only those live at the entry).  Activations A:
 * every long-latency load and barrier takes its warp out of the active pool
 * and back, refetching the working set of its interval (none when the
 * instruction ends its interval: the next interval's PREFETCH, counted in
 * P and R, brings the registers), Ra registers in all
 * (LTRF+: the live ones).  Per instruction (I instructions per thread):
 *   s_pf  = (k_op P (L + X - 1) + k_reg g R) / I
 *   s_act = (k_op A (L + X - 1) + k_reg g Ra) / I
 * Operands come from the cache's banks: the collector sees the banked
 * file's 1-cycle access.
 *
 * RFC.  C = 16 KB of warp registers (gpu rc_entries x subcores, or design
 * rc_entries) shared by the W warps of the active pool, LRU:
 *   h = h0 min(1, C / (W l))          (l: live registers per warp)
 * with h0 free; an instruction reading r registers misses at least once with
 * probability 1 - h^r and then waits L - 1 more cycles than a bank read:
 *   s_rfc = k_rfc (1 - h^r) (L - 1)    on the warp's path and in the collector.
 *
 * Inputs: rf_pf_kernel (rf_pf_characterise), rf_design (rf_config,
 * latency_x, plus, interval_regs, rc_entries), rf_gpu (rf_banks, register
 * cache).  Outputs: rf_pf_terms, cycles per instruction.
 */
#include "prefetch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dstcount.h"
#include "intervals.h"
#include "liveness.h"

#define PF_XBAR_DIV 4.0      /* fill crossbar: 1/4 of the baseline bandwidth */
#define PF_XBAR_LAT 4.0      /* cycles across the narrow crossbar */

const rf_mparam rf_pf_mparams[] = {
    {"pf_scale", offsetof(rf_pf_params, pf_scale), 0.0, 8.0, 1.0, true, "1",
     "LTRF: multiplier on the per-operation part of PREFETCH and activation stalls"},
    {"pf_reg", offsetof(rf_pf_params, pf_reg), 0.0, 16.0, 1.0, true, "1",
     "LTRF: multiplier on the per-register part (crossbar slot, bank queues)"},
    {"rfc_hit", offsetof(rf_pf_params, rfc_hit), 0.0, 1.0, 0.8, true, "1",
     "RFC hit rate when the active warps' live registers fit the cache"},
    {"rfc_scale", offsetof(rf_pf_params, rfc_scale), 0.0, 8.0, 1.0, true, "1",
     "multiplier on RFC miss stalls"},
};
const size_t rf_pf_nmparams = sizeof rf_pf_mparams / sizeof rf_pf_mparams[0];

void rf_pf_params_default(rf_pf_params *p)
{
    rf_mparam_defaults(rf_pf_mparams, rf_pf_nmparams, p);
}

/* |a \ b|, or |(a & live) \ b| when live != NULL. */
static int fetched(const rf_regset *a, const rf_regset *b, const rf_regset *live)
{
    rf_regset s;
    for (int i = 0; i < 4; i++)
        s.w[i] = a->w[i] & (b ? ~b->w[i] : ~UINT64_C(0)) & (live ? live->w[i] : ~UINT64_C(0));
    return rf_regset_count(&s);
}

static int count_and(const rf_regset *a, const rf_regset *live)
{
    return fetched(a, NULL, live);
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
    if (rc == 0) {
        double reads = 0, livesum = 0;
        for (int b = 0; b < nb; b++) {
            const rf_block *bb = &f->blocks[b];
            double w = freq[b];
            for (int i = bb->first; i < bb->first + bb->ninsts; i++) {
                const rf_inst *in = &f->insts[i];
                rf_regset r;
                uint8_t pr;
                rf_inst_reads(in, &r, &pr);
                out->insts += w;
                reads += w * rf_regset_count(&r);
                livesum += w * rf_regset_count(&live.in[i]);
                if (rf_live_long_latency(in) || in->cls == RF_OC_BARRIER) {
                    const rf_regset *s = &iv.iv[iv.of_inst[i]].regs;
                    out->act += w;
                    if (!ends_interval(f, &iv, bb, i))
                        out->act_regs += w * count_and(s, plus ? &live.out[i] : NULL);
                }
            }
            /* Entries from another interval along the block's out-edges. */
            for (int s = 0; s < bb->nsucc; s++) {
                int t = bb->succ[s];
                int from = iv.block_out[b], to = iv.block_in[t];
                if (t < 0 || t >= nb || from == to || f->blocks[t].ninsts == 0)
                    continue;
                int first = f->blocks[t].first;
                int n = fetched(&iv.iv[to].regs, &iv.iv[from].regs, plus ? &live.in[first] : NULL);
                if (n > 0) {
                    out->pf_ops += edge[2 * b + s];
                    out->pf_regs += edge[2 * b + s] * n;
                }
            }
        }
        /* Intervals entered in the middle of a block (splits), and the start. */
        for (int j = 0; j < iv.n; j++) {
            const rf_interval *v = &iv.iv[j];
            if (v->ninsts == 0 || v->entry_inst < 0 || v->entry_inst >= f->ninsts)
                continue;
            const rf_regset *lv = plus ? &live.in[v->entry_inst] : NULL;
            int n = 0;
            double w = 0;
            if (j == 0 && v->entry_inst == f->blocks[v->entry_block].first) {
                n = count_and(&v->regs, lv);
                w = 1.0;
            } else if (v->entry_inst != f->blocks[v->entry_block].first) {
                int prev = iv.of_inst[v->entry_inst - 1];
                n = fetched(&v->regs, prev >= 0 ? &iv.iv[prev].regs : NULL, lv);
                w = freq[v->entry_block];
            }
            if (n > 0) {
                out->pf_ops += w;
                out->pf_regs += w * n;
            }
        }
        double ii = out->insts > 0 ? out->insts : 1.0;
        out->reads = reads / ii;
        out->mean_live = livesum / ii;
        double entries, insts;
        rf_iv_dynamic(f, &iv, freq, edge, &entries, &insts, &out->mean_len);
    }
    if (have_iv)
        rf_iv_free(&iv);
    if (have_live)
        rf_live_free(&live);
    free(freq);
    free(edge);
    return rc;
}

void rf_pf_terms_of(const rf_gpu *gpu, const rf_design *d, const rf_pf_kernel *pk,
                    double pool, const rf_pf_params *p, rf_pf_terms *out)
{
    memset(out, 0, sizeof *out);
    out->latency = rf_design_latency_x(d);
    if (d->kind != RF_DESIGN_RFC && d->kind != RF_DESIGN_LTRF)
        return;
    double banks = gpu->rf_banks > 0 ? gpu->rf_banks : 16;
    double g = PF_XBAR_DIV / banks;
    double L = out->latency;
    double op = p->pf_scale * (L + PF_XBAR_LAT - 1.0);   /* T(n) = op + reg n */
    double reg = p->pf_reg * g;
    double ii = pk->insts > 0 ? pk->insts : 1.0;
    if (d->kind == RF_DESIGN_LTRF) {
        out->t_fetch = pk->pf_ops > 0 ? op + reg * pk->pf_regs / pk->pf_ops : 0.0;
        out->stall_pf = (pk->pf_ops * op + pk->pf_regs * reg) / ii;
        out->stall_act = (pk->act * op + pk->act_regs * reg) / ii;
        out->extra_stall = out->stall_pf + out->stall_act;
        return;
    }
    int lines = d->rc_entries > 0 ? d->rc_entries : gpu->rc_entries;
    double c = (double)lines * (gpu->subcores > 0 ? gpu->subcores : 1);
    if (c <= 0)
        c = 128;
    double need = (pool > 1 ? pool : 1) * (pk->mean_live > 1 ? pk->mean_live : 1);
    out->rfc_hit = p->rfc_hit * fmin(1.0, c / need);
    double miss_any = 1.0 - pow(out->rfc_hit, pk->reads > 0 ? pk->reads : 1.0);
    out->stall_rfc = p->rfc_scale * miss_any * (L > 1 ? L - 1 : 0);
    out->extra_stall = out->stall_rfc;
    out->extra_hold = out->stall_rfc;
}

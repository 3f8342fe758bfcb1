/* cmd_analyze.c - rfkit analyze: static register analyses of a kernel
 * (liveness, destination counts and CAC, register-intervals and strands,
 * first-use reordering, dead registers per bank). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/deadreg.h"
#include "../analytic/dstcount.h"
#include "../analytic/intervals.h"
#include "../analytic/liveness.h"
#include "../analytic/rcindex.h"
#include "../analytic/reorder.h"
#include "../inputs/kernel.h"
#include "../inputs/ptxas.h"
#include "cli.h"
#include "../results/table.h"

#define CELL_MAX 160    /* longest register list shown in a text table */

static const char *const pass_names[] = {
    "summary", "regalloc", "liveness", "dstcount", "cac", "intervals", "strands",
    "reorder", "deadreg", NULL};
enum { P_SUMMARY, P_REGALLOC, P_LIVENESS, P_DSTCOUNT, P_CAC, P_INTERVALS, P_STRANDS,
       P_REORDER, P_DEADREG };

typedef struct analyze_opts {
    int pass;
    int interval_regs;    /* N */
    double sharing;       /* F for --pass reorder */
    int banks;            /* for --pass deadreg */
    int rbits;            /* concat register bits (WxRy) */
    bool csv;
    bool no_pass2;
    bool all_funcs;       /* --entry all: a summary row per function */
    rf_kernel_opts kopts;
} analyze_opts;

static void usage(FILE *out)
{
    fprintf(out,
        "usage: rfkit analyze KERNEL... [--entry NAME|all] [--pass P] [--interval-regs N]\n"
        "                     [--param NAME=V ...] [--csv]\n"
        "\n"
        "Static register analyses of a kernel's entry function after register\n"
        "allocation.  KERNEL is a kernel spec (.spec), PTX (.ptx, allocated by rfkit),\n"
        "SASS text (cuobjdump -sass / nvdisasm) or an nvdisasm -cfg .dot file.\n"
        "Without --pass: one summary row per KERNEL (several may be given), or with\n"
        "--entry all one row per function of each KERNEL (entries and subroutines).\n"
        "\n"
        "passes (one KERNEL):\n"
        "  regalloc    the allocated code: defs and uses per instruction\n"
        "  liveness    live registers at each PC and after long-latency loads\n"
        "              (FineReg, seed 000 V.A)\n"
        "  dstcount    destination counts per register, static and weighted by the\n"
        "              profile (expected writes per thread), critical set of each\n"
        "  cac         CAC (loop-weighted destination counts), CAC-plain (plain\n"
        "              counts), Best / Worst renumbering and critical-set balance\n"
        "              (seed 002 Algorithm 1 and Section 3)\n"
        "  intervals   LTRF register-intervals, one row per interval: id, entry\n"
        "              block, static instructions, registers, predecessor ids, and\n"
        "              the PREFETCH bit vector (seed 004 Algorithms 1 and 2)\n"
        "  strands     the same for SHRF-style strands (end at long-latency\n"
        "              operations and backward branches)\n"
        "  reorder     first-use register numbering and instructions a non-owner\n"
        "              warp issues before its first shared register (seed 003 5.2)\n"
        "  deadreg     a dead register per bank after each instruction (write\n"
        "              stealing, seed 001)\n"
        "\n"
        "options:\n"
        "  --entry NAME         function to analyze (default: the spec's, or the first entry);\n"
        "                       all: every function (summary only)\n"
        "  --pass P             one of the passes above (default: summary)\n"
        "  --interval-regs N    registers per register-interval (default 16)\n"
        "  --no-pass2           register-intervals after Algorithm 1 only\n"
        "  --sharing F          shared fraction of registers for reorder (default 0.5)\n"
        "  --banks B            register banks for deadreg (default 8)\n"
        "  --rbits R            register bits of the concatenated index WxRy (default 3)\n"
        "  --no-ptxas           do not run ptxas -v for the register count\n"
        "  --param NAME=V       integer kernel parameter (PTX name or position,\n"
        "                       repeatable): exact trip counts of loops bounded by it\n"
        "  --csv                CSV: one header line, one row per result\n"
        "\n"
        "summary columns: functions in the file, the row's blocks and those reachable\n"
        "from its entry block, instructions (the code its calls enter copied at each\n"
        "call, as every walk of the kernel runs it), registers (rfkit's\n"
        "allocation and ptxas's), max and mean live registers, mean live after\n"
        "long-latency loads, register-intervals and their mean static and dynamic\n"
        "length (instructions per PREFETCH), strands and their mean length, and for\n"
        "concat W3R3 the largest critical set's share of expected writes and the\n"
        "same-line conflict proxy 1 - sum_s sum_x p_x^2 / P_s, before and after CAC.\n");
}

/* Everything the passes need about one kernel. */
typedef struct analysis {
    rf_kernel *k;
    const rf_func *f;
    int nregs;             /* registers considered: max(allocation, highest used + 1) */
    rf_live live;
    double *freq;          /* expected executions per block */
    double *edge;          /* per edge */
} analysis;

static void analysis_free(analysis *a)
{
    rf_live_free(&a->live);
    free(a->freq);
    free(a->edge);
    rf_kernel_destroy(a->k);
    memset(a, 0, sizeof *a);
}

static int analysis_load(const char *path, const analyze_opts *o, analysis *a, rf_err *err)
{
    memset(a, 0, sizeof *a);
    /* The analyses do not depend on the launch; a bare code file gets a
     * placeholder one (one CTA of one warp) so it loads like a spec. */
    rf_kernel_opts ko = o->kopts;
    size_t n = strlen(path);
    bool spec = (n >= 5 && !strcmp(path + n - 5, ".spec")) || (n >= 4 && !strcmp(path + n - 4, ".ini"));
    if (!spec) {
        ko.grid = "1";
        ko.block = "32";
    }
    int rc = rf_cli_load_kernel(path, &ko, &a->k, err);
    if (rc)
        return rc;
    a->f = a->k->func;
    rc = rf_live_compute(a->f, &a->live, err);
    if (rc)
        goto fail;
    a->nregs = a->live.nregs;
    int nb = a->f->nblocks;
    a->freq = malloc((size_t)nb * sizeof *a->freq);
    a->edge = malloc((size_t)nb * 2 * sizeof *a->edge);
    if (!a->freq || !a->edge) {
        rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
        goto fail;
    }
    rc = rf_dst_block_freq(a->f, a->k->profile.trip, a->k->profile.taken, NULL,
                           a->freq, a->edge, err);
    if (rc)
        goto fail;
    return 0;
fail:
    analysis_free(a);
    return rf_cli_place_kernel(err, &ko, path);
}

static const char *opname(const analysis *a, const rf_inst *in)
{
    const rf_module *m = a->k->mod;
    if (in->opcode >= 0 && in->opcode < m->nopnames)
        return m->opnames[in->opcode];
    return rf_opclass_name(in->cls);
}

static void operands(const uint16_t *regs, int n, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < n && len + 8 < cap; k++) {
        int r = regs[k];
        len += (size_t)snprintf(buf + len, cap - len, "%s%s%d", k ? " " : "",
                                r >= RF_PRED_BASE ? "P" : "R",
                                r >= RF_PRED_BASE ? r - RF_PRED_BASE : r);
    }
}

static void emit(rf_tbl *t, bool csv)
{
    if (csv)
        rf_tbl_csv(t, stdout);
    else
        rf_tbl_print(t, stdout);
}

static int imax(int a, int b)
{
    return a > b ? a : b;
}

static int nomem(rf_err *err)
{
    return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
}

/* --pass regalloc */
static int pass_regalloc(const analysis *a, const analyze_opts *o, rf_err *err)
{
    static const char *const h[] = {"pc", "block", "line", "op", "class", "guard", "defs", "uses"};
    rf_tbl *t = NULL;
    if (!(t = rf_tbl_new(8, h)))
        return nomem(err);
    const rf_func *f = a->f;
    for (int b = 0; b < f->nblocks; b++)
        for (int i = f->blocks[b].first; i < f->blocks[b].first + f->blocks[b].ninsts; i++) {
            const rf_inst *in = &f->insts[i];
            char buf[128];
            if (rf_tbl_row(t)) {
                rf_tbl_free(t);
                return nomem(err);
            }
            rf_tbl_set(t, 0, "%d", i);
            rf_tbl_set(t, 1, "%s", f->blocks[b].label);
            rf_tbl_set(t, 2, "%u", in->line);
            rf_tbl_set(t, 3, "%s", opname(a, in));
            rf_tbl_set(t, 4, "%s", rf_opclass_name(in->cls));
            if (in->guard >= 0)
                rf_tbl_set(t, 5, "%sP%d", (in->flags & RF_IF_GUARD_NEG) ? "!" : "",
                             in->guard - RF_PRED_BASE);
            operands(in->defs, in->ndefs, buf, sizeof buf);
            rf_tbl_set(t, 6, "%s", buf);
            operands(in->uses, in->nuses, buf, sizeof buf);
            rf_tbl_set(t, 7, "%s", buf);
        }
    emit(t, o->csv);
    rf_tbl_free(t);
    if (!o->csv) {
        printf("\n%s: %d registers (rfkit", f->name, a->k->regs_rfkit);
        if (a->k->regs_ptxas >= 0)
            printf("; ptxas %d", a->k->regs_ptxas);
        printf("), %d predicates, %d instructions in %d blocks\n", f->npreds, f->ninsts, f->nblocks);
    }
    return 0;
}

/* --pass liveness */
static int pass_liveness(const analysis *a, const analyze_opts *o, rf_err *err)
{
    static const char *const hc[] = {"pc", "block", "line", "op", "live_in", "live_frac",
                                     "live_out", "long_latency", "live_vec"};
    static const char *const ht[] = {"pc", "block", "line", "op", "live", "frac", "out",
                                     "ld", "live registers"};
    rf_tbl *t = NULL;
    if (!(t = rf_tbl_new(9, o->csv ? hc : ht)))
        return nomem(err);
    const rf_func *f = a->f;
    const rf_live *l = &a->live;
    for (int b = 0; b < f->nblocks; b++)
        for (int i = f->blocks[b].first; i < f->blocks[b].first + f->blocks[b].ninsts; i++) {
            const rf_inst *in = &f->insts[i];
            if (rf_tbl_row(t)) {
                rf_tbl_free(t);
                return nomem(err);
            }
            rf_tbl_set(t, 0, "%d", i);
            rf_tbl_set(t, 1, "%s", f->blocks[b].label);
            rf_tbl_set(t, 2, "%u", in->line);
            rf_tbl_set(t, 3, "%s", opname(a, in));
            rf_tbl_set(t, 4, "%d", rf_live_count(l, i));
            rf_tbl_set(t, 5, "%.3f", rf_live_frac(l, i));
            rf_tbl_set(t, 6, "%d", rf_regset_count(&l->out[i]));
            rf_tbl_set(t, 7, "%d", rf_live_long_latency(in) ? 1 : 0);
            if (o->csv) {
                char hex[65];
                rf_regset_hex(&l->in[i], hex);
                rf_tbl_set(t, 8, "%s", hex);
            } else {
                char list[CELL_MAX + 64];
                int n = rf_regset_format(&l->in[i], list, sizeof list);
                if (n >= CELL_MAX - 1)
                    memcpy(list + CELL_MAX - 5, "...", 4);
                rf_tbl_set(t, 8, "%s", list);
            }
        }
    emit(t, o->csv);
    rf_tbl_free(t);
    if (!o->csv)
        printf("\n%s: %d registers; live max %d (pc %d), mean %.2f (%.1f%%); "
               "%d long-latency loads, live after them max %d, mean %.2f (%.1f%%)\n",
               f->name, l->nregs, l->max_live, l->max_pc, l->mean_live,
               l->nregs ? 100.0 * l->mean_live / l->nregs : 0, l->nloads, l->max_live_load,
               l->mean_live_load, l->nregs ? 100.0 * l->mean_live_load / l->nregs : 0);
    return 0;
}

/* Static and profile-weighted destination counts per register, and the
 * concat W(6-rbits)R(rbits) and TEA index geometries of seed 002. */
static int dst_counts(const analysis *a, const analyze_opts *o, double *st, double *lw,
                      double *wt, rf_rc_geom *cat, rf_rc_geom *tea, rf_err *err)
{
    int rc = rf_dst_static(a->f, st, err);
    if (!rc)
        rc = rf_dst_loop_weighted(a->f, RF_CAC_LOOP_WEIGHT, lw, err);
    if (!rc)
        rc = rf_dst_weighted(a->f, a->freq, wt, err);
    if (!rc)
        rc = rf_rc_geom_init(cat, RF_RC_CONCAT, 64, 4, 64, o->rbits, err);
    if (!rc)
        rf_rc_geom_default(tea, RF_RC_TEA);
    return rc;
}

/* --pass dstcount */
static int pass_dstcount(const analysis *a, const analyze_opts *o, rf_err *err)
{
    double st[RF_MAX_GPR], lw[RF_MAX_GPR], wt[RF_MAX_GPR];
    rf_rc_geom cat, tea;
    int rc = dst_counts(a, o, st, lw, wt, &cat, &tea, err);
    if (rc)
        return rc;
    static const char *const h[] = {"reg", "dst_static", "dst_loop", "dst_weighted", "concat_set",
                                    "tea_set"};
    rf_tbl *t = NULL;
    if (!(t = rf_tbl_new(6, h)))
        return nomem(err);
    for (int r = 0; r < a->nregs; r++) {
        if (rf_tbl_row(t)) {
            rf_tbl_free(t);
            return nomem(err);
        }
        rf_tbl_set(t, 0, "%d", r);
        rf_tbl_set(t, 1, "%g", st[r]);
        rf_tbl_set(t, 2, "%g", lw[r]);
        rf_tbl_set(t, 3, "%.4g", wt[r]);
        rf_tbl_set(t, 4, "%d", rf_rc_set_of(&cat, r));
        rf_tbl_set(t, 5, "%d", rf_rc_set_of(&tea, r));
    }
    emit(t, o->csv);
    rf_tbl_free(t);
    if (!o->csv) {
        double s = 0, w = 0;
        for (int r = 0; r < a->nregs; r++)
            s += st[r], w += wt[r];
        printf("\n%s: %g static destinations, %.4g expected writes per thread "
               "(profile trip %g, taken %g)\n", a->f->name, s, w, a->k->profile.trip,
               a->k->profile.taken);
    }
    return 0;
}

/* --pass cac */
static int pass_cac(const analysis *a, const analyze_opts *o, rf_err *err)
{
    double st[RF_MAX_GPR], lw[RF_MAX_GPR], wt[RF_MAX_GPR];
    rf_rc_geom g[2];
    int rc = dst_counts(a, o, st, lw, wt, &g[0], &g[1], err);
    if (rc)
        return rc;
    /* The renumberings the sampler runs (rf_rcc_assign_map): 64- and
     * 128-bit tuples stay aligned, so the new IDs may span more than n. */
    int n = a->nregs, span = n;
    int cac[RF_MAX_GPR], plain[RF_MAX_GPR], best[RF_MAX_GPR], worst[2][RF_MAX_GPR],
        ident[RF_MAX_GPR];
    uint8_t width[RF_MAX_GPR];
    rf_dst_tuples(a->f, width);
    span = imax(span, rf_dst_cac_aligned(lw, width, n, cac));
    span = imax(span, rf_dst_cac_aligned(st, width, n, plain));
    span = imax(span, rf_dst_cac_aligned(wt, width, n, best));
    for (int x = 0; x < 2; x++)
        span = imax(span, rf_dst_worst_aligned(wt, width, n, rf_rc_nsets(&g[x]), worst[x]));
    for (int r = 0; r < n; r++)
        ident[r] = r;
    static const char *const h[] = {"reg", "dst_static", "dst_loop", "writes", "cac", "cac_plain",
                                    "best", "worst_concat", "worst_tea"};
    rf_tbl *t = NULL;
    if (!(t = rf_tbl_new(9, h)))
        return nomem(err);
    for (int r = 0; r < n; r++) {
        if (rf_tbl_row(t)) {
            rf_tbl_free(t);
            return nomem(err);
        }
        rf_tbl_set(t, 0, "%d", r);
        rf_tbl_set(t, 1, "%g", st[r]);
        rf_tbl_set(t, 2, "%g", lw[r]);
        rf_tbl_set(t, 3, "%.4g", wt[r]);
        rf_tbl_set(t, 4, "%d", cac[r]);
        rf_tbl_set(t, 5, "%d", plain[r]);
        rf_tbl_set(t, 6, "%d", best[r]);
        rf_tbl_set(t, 7, "%d", worst[0][r]);
        rf_tbl_set(t, 8, "%d", worst[1][r]);
    }
    emit(t, o->csv);
    rf_tbl_free(t);
    if (o->csv)
        return 0;
    printf("\ncritical-set balance of expected writes (largest set's share; same-line"
           " conflict proxy of one warp):\n");
    static const char *const pol[] = {"baseline", "CAC", "CAC-plain", "Best", "Worst"};
    for (int x = 0; x < 2; x++) {
        printf("  %s (%d sets):", x ? "TEA" : "concat", rf_rc_nsets(&g[x]));
        const int *maps[5] = {ident, cac, plain, best, worst[x]};
        for (int p = 0; p < 5; p++) {
            double pw[RF_MAX_GPR] = {0};
            rf_dst_permute(wt, n, maps[p], pw);
            rf_rc_balance bal;
            rf_rc_balance_of(&g[x], pw, span, &bal);
            printf("  %s %.3f/%.3f", pol[p], bal.max_share, bal.conflict);
        }
        printf("\n");
    }
    return 0;
}

static void preds_text(const rf_interval *v, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < v->npreds && len + 12 < cap; k++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%d", k ? " " : "", v->preds[k]);
}

/* --pass intervals / strands */
static int pass_intervals(const analysis *a, const analyze_opts *o, int kind, rf_err *err)
{
    rf_iv_opts io;
    rf_iv_opts_default(&io);
    io.regs = o->interval_regs;
    io.kind = kind;
    io.pass2 = !o->no_pass2;
    rf_intervals iv;
    int rc = rf_iv_form(a->f, &io, &iv, err);
    if (rc)
        return rc;
    int *live_at = malloc((size_t)(iv.n ? iv.n : 1) * sizeof *live_at);
    if (!live_at) {
        rf_iv_free(&iv);
        return nomem(err);
    }
    rf_iv_live_prefetch(&iv, &a->live, live_at);
    static const char *const h[] = {"id", "entry_block", "insts", "regs", "preds",
                                    "entry_pc", "live_regs", "prefetch"};
    rf_tbl *t = NULL;
    if (!(t = rf_tbl_new(8, h))) {
        free(live_at);
        rf_iv_free(&iv);
        return nomem(err);
    }
    for (int i = 0; i < iv.n; i++) {
        const rf_interval *v = &iv.iv[i];
        char buf[CELL_MAX], hex[65];
        if (rf_tbl_row(t)) {
            rc = nomem(err);
            break;
        }
        rf_tbl_set(t, 0, "%d", i);
        rf_tbl_set(t, 1, "%s", a->f->blocks[v->entry_block].label);
        rf_tbl_set(t, 2, "%d", v->ninsts);
        rf_tbl_set(t, 3, "%d%s", v->nregs, v->over && !o->csv ? "!" : "");
        preds_text(v, buf, sizeof buf);
        rf_tbl_set(t, 4, "%s", buf);
        rf_tbl_set(t, 5, "%d", v->entry_inst);
        rf_tbl_set(t, 6, "%d", live_at[i]);
        rf_regset_hex(&v->regs, hex);
        rf_tbl_set(t, 7, "%s", hex);
    }
    if (!rc)
        emit(t, o->csv);
    rf_tbl_free(t);
    if (!rc && !o->csv) {
        double entries, insts, len;
        rf_iv_dynamic(a->f, &iv, a->freq, a->edge, &entries, &insts, &len);
        printf("\n%s: %d %s with N = %d registers (%d after pass 1), mean %.2f static "
               "instructions; %.4g PREFETCHes and %.4g instructions per thread, "
               "%.2f instructions per PREFETCH\n",
               a->f->name, iv.n, kind == RF_IV_STRAND ? "strands" : "register-intervals",
               iv.regs, iv.pass1, rf_iv_mean_len(&iv), entries, insts, len);
    }
    free(live_at);
    rf_iv_free(&iv);
    return rc;
}

/* --pass reorder */
static int pass_reorder(const analysis *a, const analyze_opts *o, rf_err *err)
{
    int n = a->nregs, map[RF_MAX_GPR], first[RF_MAX_GPR];
    int rc = rf_reorder_first_use(a->f, n, map, err);
    if (rc)
        return rc;
    for (int r = 0; r < n; r++)
        first[r] = -1;
    for (int i = a->f->ninsts - 1; i >= 0; i--) {
        const rf_inst *in = &a->f->insts[i];
        for (int k = 0; k < in->ndefs + in->nuses; k++) {
            int r = k < in->ndefs ? in->defs[k] : in->uses[k - in->ndefs];
            if (r < n)
                first[r] = i;
        }
    }
    rf_share_reach before, after;
    rc = rf_reorder_reach(a->f, NULL, n, o->sharing, a->k->profile.trip, a->k->profile.taken,
                          &before, err);
    if (!rc)
        rc = rf_reorder_reach(a->f, map, n, o->sharing, a->k->profile.trip,
                              a->k->profile.taken, &after, err);
    if (rc)
        return rc;
    static const char *const h[] = {"reg", "new", "first_pc", "shared_before", "shared_after"};
    rf_tbl *t = NULL;
    if (!(t = rf_tbl_new(5, h)))
        return nomem(err);
    for (int r = 0; r < n; r++) {
        if (rf_tbl_row(t)) {
            rf_tbl_free(t);
            return nomem(err);
        }
        rf_tbl_set(t, 0, "%d", r);
        rf_tbl_set(t, 1, "%d", map[r]);
        rf_tbl_set(t, 2, "%d", first[r]);
        rf_tbl_set(t, 3, "%d", r >= before.unshared);
        rf_tbl_set(t, 4, "%d", map[r] >= after.unshared);
    }
    emit(t, o->csv);
    rf_tbl_free(t);
    if (!o->csv)
        printf("\n%s: sharing F = %g of %d registers: %d private.  Before its first shared\n"
               "register a non-owner warp issues %d instructions in code order (%.4g expected)\n"
               "as numbered, %d (%.4g expected) with first-use numbering.\n",
               a->f->name, o->sharing, n, before.unshared, before.static_before,
               before.expected_before, after.static_before, after.expected_before);
    return 0;
}

/* --pass deadreg */
static int pass_deadreg(const analysis *a, const analyze_opts *o, rf_err *err)
{
    rf_deadreg d;
    int alloc = a->k->regs > a->nregs ? a->k->regs : a->nregs;
    int rc = rf_dead_compute(a->f, &a->live, o->banks, alloc, &d, err);
    if (rc)
        return rc;
    int ncols = 1 + o->banks;
    const char *h[65];
    char names[65][16];
    rf_tbl *t = NULL;
    for (int c = 0; c < ncols; c++) {
        if (c)
            snprintf(names[c], sizeof names[c], "bank%d", c - 1);
        else
            snprintf(names[c], sizeof names[c], "pc");
        h[c] = names[c];
    }
    rc = !(t = rf_tbl_new(ncols, h)) ? nomem(err) : 0;
    for (int i = 0; !rc && i < a->f->ninsts; i++) {
        if (rf_tbl_row(t)) {
            rc = nomem(err);
            break;
        }
        rf_tbl_set(t, 0, "%d", i);
        for (int b = 0; b < o->banks; b++)
            rf_tbl_set(t, b + 1, "%d", rf_dead_reg(&d, i, b));
    }
    if (!rc) {
        emit(t, o->csv);
        if (!o->csv)
            printf("\n%s: %d banks, %d registers allocated (%d never used); a free register "
                   "exists for %.1f%% of (instruction, bank) pairs\n",
                   a->f->name, o->banks, d.alloc, d.never_used, 100 * d.coverage);
    }
    rf_tbl_free(t);
    rf_dead_free(&d);
    return rc;
}

/* Blocks reachable from the entry block over CFG edges. */
static int reachable_blocks(const rf_func *f, rf_err *err)
{
    if (f->nblocks == 0)
        return 0;
    int *stack = malloc((size_t)f->nblocks * sizeof *stack);
    bool *seen = calloc((size_t)f->nblocks, sizeof *seen);
    if (!stack || !seen) {
        free(stack);
        free(seen);
        return nomem(err);
    }
    int ns = 0, n = 0;
    stack[ns++] = 0;
    seen[0] = true;
    while (ns > 0) {
        const rf_block *b = &f->blocks[stack[--ns]];
        n++;
        for (int k = 0; k < b->nsucc; k++)
            if (b->succ[k] >= 0 && b->succ[k] < f->nblocks && !seen[b->succ[k]]) {
                seen[b->succ[k]] = true;
                stack[ns++] = b->succ[k];
            }
    }
    free(stack);
    free(seen);
    return n;
}

/* Summary row of one kernel. */
static int summary_row(rf_tbl *t, const analysis *a, const analyze_opts *o, rf_err *err)
{
    rf_iv_opts io;
    rf_iv_opts_default(&io);
    io.regs = o->interval_regs;
    io.pass2 = !o->no_pass2;
    rf_intervals iv, st;
    int rc = rf_iv_form(a->f, &io, &iv, err);
    if (rc)
        return rc;
    io.kind = RF_IV_STRAND;
    rc = rf_iv_form(a->f, &io, &st, err);
    if (rc) {
        rf_iv_free(&iv);
        return rc;
    }
    double e, d, iv_dyn, st_dyn;
    rf_iv_dynamic(a->f, &iv, a->freq, a->edge, &e, &d, &iv_dyn);
    rf_iv_dynamic(a->f, &st, a->freq, a->edge, &e, &d, &st_dyn);
    double stc[RF_MAX_GPR], wt[RF_MAX_GPR], pw[RF_MAX_GPR];
    rf_rc_geom g;
    int reach = reachable_blocks(a->f, err);
    rc = reach < 0 ? reach : rf_dst_loop_weighted(a->f, RF_CAC_LOOP_WEIGHT, stc, err);
    if (!rc)
        rc = rf_dst_weighted(a->f, a->freq, wt, err);
    if (!rc)
        rc = rf_rc_geom_init(&g, RF_RC_CONCAT, 64, 4, 64, o->rbits, err);
    if (rc || rf_tbl_row(t)) {
        rf_iv_free(&iv);
        rf_iv_free(&st);
        return rc ? rc : nomem(err);
    }
    int n = a->nregs, cac[RF_MAX_GPR];
    uint8_t width[RF_MAX_GPR];
    rf_dst_tuples(a->f, width);
    int span = imax(n, rf_dst_cac_aligned(stc, width, n, cac));
    rf_rc_balance base, opt;
    rf_rc_balance_of(&g, wt, n, &base);
    for (int r = 0; r < span; r++)
        pw[r] = 0;
    rf_dst_permute(wt, n, cac, pw);
    rf_rc_balance_of(&g, pw, span, &opt);
    const rf_kernel *k = a->k;
    int c = 0;
    rf_tbl_set(t, c++, "%s", k->name);
    rf_tbl_set(t, c++, "%s", a->f->name);
    rf_tbl_set(t, c++, "%d", k->mod->nfuncs);
    rf_tbl_set(t, c++, "%d", a->f->nblocks);
    rf_tbl_set(t, c++, "%d", reach);
    rf_tbl_set(t, c++, "%d", a->f->ninsts);
    rf_tbl_set(t, c++, "%d", k->regs_rfkit);
    if (k->regs_ptxas >= 0)
        rf_tbl_set(t, c++, "%d", k->regs_ptxas);
    else
        rf_tbl_set(t, c++, "%s", o->csv ? "" : "-");
    rf_tbl_set(t, c++, "%d", a->live.max_live);
    rf_tbl_set(t, c++, "%.2f", a->live.mean_live);
    rf_tbl_set(t, c++, "%.2f", a->live.mean_live_load);
    rf_tbl_set(t, c++, "%d", iv.n);
    rf_tbl_set(t, c++, "%.2f", rf_iv_mean_len(&iv));
    rf_tbl_set(t, c++, "%.2f", iv_dyn);
    rf_tbl_set(t, c++, "%d", st.n);
    rf_tbl_set(t, c++, "%.2f", rf_iv_mean_len(&st));
    rf_tbl_set(t, c++, "%.2f", st_dyn);
    rf_tbl_set(t, c++, "%.3f", base.max_share);
    rf_tbl_set(t, c++, "%.3f", opt.max_share);
    rf_tbl_set(t, c++, "%.3f", base.conflict);
    rf_tbl_set(t, c++, "%.3f", opt.conflict);
    rf_tbl_set(t, c++, "%d", k->psrc.defaults);
    rf_iv_free(&iv);
    rf_iv_free(&st);
    return 0;
}

/* Summary rows of one KERNEL: its entry, or every function (--entry all;
 * the file is loaded again for each function, so each row is what
 * --entry NAME gives). */
/* Append "KERNEL: <profile line>" of a's kernel to the text *prof. */
static int add_profile(char **prof, size_t *plen, const analysis *a, rf_err *err)
{
    char line[512];
    rf_kernel_profile_line(a->k, line, sizeof line);
    size_t need = strlen(a->k->name) + strlen(line) + 4;
    char *np = realloc(*prof, *plen + need);
    if (!np)
        return nomem(err);
    *prof = np;
    *plen += (size_t)snprintf(np + *plen, need, "%s: %s\n", a->k->name, line);
    return 0;
}

static int summary_rows(rf_tbl *t, const char *path, const analyze_opts *o, char **prof,
                        size_t *plen, rf_err *err)
{
    analysis a;
    int rc = analysis_load(path, o, &a, err);
    if (rc)
        return rc;
    rc = add_profile(prof, plen, &a, err);
    if (rc) {
        analysis_free(&a);
        return rc;
    }
    if (!o->all_funcs) {
        rc = summary_row(t, &a, o, err);
        analysis_free(&a);
        return rc;
    }
    const rf_module *m = a.k->mod;
    int n = m->nfuncs, first = (int)(a.k->source - m->funcs);
    char (*names)[sizeof m->funcs[0].name] = malloc((size_t)n * sizeof *names);
    if (!names) {
        analysis_free(&a);
        return nomem(err);
    }
    for (int i = 0; i < n; i++)
        memcpy(names[i], m->funcs[i].name, sizeof names[i]);
    /* ptxas's counts of every entry from one whole-module compile rather
     * than one compile per entry (cached; only when ptxas is asked). */
    if (m->kind == RF_CODE_PTX && !o->kopts.no_ptxas && a.k->launch.regs == 0 && n > 1) {
        const char **entries = malloc((size_t)n * sizeof *entries);
        int ne = 0;
        for (int i = 0; entries && i < n; i++)
            if (m->funcs[i].is_entry)
                entries[ne++] = names[i];
        if (entries && ne > 1)
            rf_ptxas_prime(m->path, m->target, entries, ne, NULL);
        free(entries);
    }
    for (int i = 0; i < n && !rc; i++) {
        if (i == first) {
            rc = summary_row(t, &a, o, err);
            continue;
        }
        analyze_opts oi = *o;
        oi.kopts.entry = names[i];
        analysis b;
        rc = analysis_load(path, &oi, &b, err);
        if (!rc) {
            rc = summary_row(t, &b, o, err);
            analysis_free(&b);
        }
    }
    analysis_free(&a);
    free(names);
    return rc;
}

static int run_summary(char **paths, int npaths, const analyze_opts *o, rf_err *err)
{
    static const char *const hc[] = {
        "kernel", "entry", "functions", "blocks", "reachable_blocks", "insts", "regs_rfkit",
        "regs_ptxas", "max_live", "mean_live", "live_at_loads", "intervals", "interval_len",
        "interval_dyn_len", "strands", "strand_len", "strand_dyn_len", "cset_share",
        "cset_share_cac", "cset_conflict", "cset_conflict_cac", "profile_defaults"};
    static const char *const ht[] = {
        "kernel", "entry", "funcs", "blocks", "reach", "insts", "regs", "ptxas", "max live",
        "mean live", "at loads", "intervals", "len", "dyn len", "strands", "len", "dyn len",
        "cset", "CAC", "conflict", "CAC", "defaults"};
    rf_tbl *t = NULL;
    if (!(t = rf_tbl_new(22, o->csv ? hc : ht)))
        return nomem(err);
    int rc = 0;
    char *prof = NULL;           /* each kernel's profile line */
    size_t plen = 0;
    for (int p = 0; p < npaths && !rc; p++) {
        rc = summary_rows(t, paths[p], o, &prof, &plen, err);
        if (rc)
            rf_cli_place_kernel(err, &o->kopts, paths[p]);
    }
    if (!rc) {
        emit(t, o->csv);
        if (!o->csv)
            printf("\nfuncs: functions in the file; reach: blocks reachable from the entry block;\n"
                   "live: registers live at a PC (max, mean over instructions, mean after "
                   "global/local loads);\nlen: static instructions per interval (N = %d) or "
                   "strand; dyn len: expected instructions per PREFETCH;\ncset: largest "
                   "critical set's share of expected writes, concat W%dR%d, and conflict: "
                   "same-line\nconflict proxy of one warp, each as numbered and after CAC;\n"
                   "defaults: conditional branches on the profile's trip or taken (no exact count from the\n"
                   "code, no [branches] entry).\n\n"
                   "%s",
                   o->interval_regs, 6 - o->rbits, o->rbits, prof ? prof : "");
    }
    free(prof);
    rf_tbl_free(t);
    return rc;
}

/* --name N with lo <= N <= hi: 1 when consumed, 0 when another option,
 * negative on a bad value. */
static int int_option(int argc, char **argv, int *i, const char *name, long lo, long hi,
                      int *out, rf_err *err)
{
    const char *v;
    int m = rf_cli_value(argc, argv, i, name, &v, err);
    if (m <= 0)
        return m;
    long x;
    int rc = rf_parse_long_in(v, lo, hi, RF_CLI_WHERE, 0, name, &x, err);
    if (rc)
        return rc;
    *out = (int)x;
    return 1;
}

int rf_cmd_analyze(int argc, char **argv)
{
    analyze_opts o;
    memset(&o, 0, sizeof o);
    o.pass = P_SUMMARY;
    o.interval_regs = RF_IV_DEFAULT_REGS;
    o.sharing = 0.5;
    o.banks = 8;
    o.rbits = 3;
    rf_err err;
    rf_err_clear(&err);
    char **paths = calloc((size_t)argc, sizeof *paths);
    int npaths = 0, rc = 0;
    if (!paths) {
        nomem(&err);
        return rf_cli_fail(&err);
    }
    for (int i = 1; i < argc && !rc; i++) {
        const char *v = NULL;
        int m;
        if (rf_cli_flag(argv, i, "help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            free(paths);
            return 0;
        } else if (rf_cli_flag(argv, i, "csv")) {
            o.csv = true;
        } else if (rf_cli_flag(argv, i, "no-pass2")) {
            o.no_pass2 = true;
        } else if (rf_cli_flag(argv, i, "no-ptxas")) {
            o.kopts.no_ptxas = true;
        } else if ((m = rf_cli_param_opt(argc, argv, &i, &o.kopts, &err)) != 0) {
            rc = m < 0 ? m : 0;
        } else if ((m = rf_cli_value(argc, argv, &i, "entry", &v, &err)) != 0) {
            rc = m < 0 ? m : 0;
            o.all_funcs = !rc && !strcmp(v, "all");
            o.kopts.entry = o.all_funcs ? NULL : v;
        } else if ((m = rf_cli_value(argc, argv, &i, "pass", &v, &err)) != 0) {
            rc = m < 0 ? m : 0;
            if (!rc) {
                int k = 0;
                while (pass_names[k] && strcmp(pass_names[k], v))
                    k++;
                if (!pass_names[k])
                    rc = rf_err_set(&err, RF_EUNKNOWN, "command line", 0, 0, "pass",
                                    "unknown pass '%s' (regalloc, liveness, dstcount, cac, "
                                    "intervals, strands, reorder, deadreg)", v);
                o.pass = k;
            }
        } else if ((m = int_option(argc, argv, &i, "interval-regs", 1, RF_MAX_GPR,
                                   &o.interval_regs, &err)) != 0 ||
                   (m = int_option(argc, argv, &i, "banks", 1, 64, &o.banks, &err)) != 0 ||
                   (m = int_option(argc, argv, &i, "rbits", 0, 6, &o.rbits, &err)) != 0) {
            rc = m < 0 ? m : 0;
        } else if ((m = rf_cli_value(argc, argv, &i, "sharing", &v, &err)) != 0) {
            rc = m < 0 ? m : 0;
            if (!rc)
                rc = rf_parse_double_in(v, 0, 1, RF_CLI_WHERE, 0, "sharing", &o.sharing, &err);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            rc = rf_cli_unknown("analyze", argv[i], &err);
        } else if (!argv[i][0]) {
            rc = rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL,
                            "an empty KERNEL file name");
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (!rc && !npaths)
        rc = rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL,
                        "rfkit analyze needs a KERNEL (see rfkit analyze --help)");
    if (!rc && o.pass != P_SUMMARY && o.all_funcs)
        rc = rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "entry",
                        "--entry all gives the summary only; --pass %s takes one function",
                        pass_names[o.pass]);
    if (!rc && o.pass != P_SUMMARY && npaths > 1)
        rc = rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL,
                        "--pass %s takes one KERNEL", pass_names[o.pass]);
    if (!rc && o.pass == P_SUMMARY) {
        rc = run_summary(paths, npaths, &o, &err);
    } else if (!rc) {
        analysis a;
        rc = analysis_load(paths[0], &o, &a, &err);
        if (!rc) {
            switch (o.pass) {
            case P_REGALLOC: rc = pass_regalloc(&a, &o, &err); break;
            case P_LIVENESS: rc = pass_liveness(&a, &o, &err); break;
            case P_DSTCOUNT: rc = pass_dstcount(&a, &o, &err); break;
            case P_CAC: rc = pass_cac(&a, &o, &err); break;
            case P_INTERVALS: rc = pass_intervals(&a, &o, RF_IV_REGISTER, &err); break;
            case P_STRANDS: rc = pass_intervals(&a, &o, RF_IV_STRAND, &err); break;
            case P_REORDER: rc = pass_reorder(&a, &o, &err); break;
            default: rc = pass_deadreg(&a, &o, &err); break;
            }
            if (rc)
                rf_cli_place_kernel(&err, &o.kopts, paths[0]);
            analysis_free(&a);
        }
    }
    free(paths);
    return rc ? rf_cli_fail(&err) : 0;
}

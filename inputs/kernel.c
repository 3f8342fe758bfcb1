/* kernel.c - a kernel as rfkit models it: code + launch + profile, from a
 * kernel spec file or from a bare code file with command-line launch.
 *
 * Spec format (INI; ';' and '#' start comments; unknown sections or keys,
 * and keys set twice, are errors naming file:line):
 *     [kernel]  code = NAME.ptx (relative to the spec), entry = NAME
 *     [launch]  grid = X[,Y[,Z]], block = X[,Y[,Z]], smem = B, regs = N
 *     [profile] trip, taken, l1_hit, l2_hit, dram_share
 *     [branches] LABEL = P: conditional branches to LABEL are taken with
 *               probability P (a loop's back edge: P = trip / (trip + 1));
 *               overrides the profile's trip and taken for those branches
 *               in the sampler and the closed-form models
 *     [params]  NAME = VALUE: integer kernel parameters (the PTX parameter's
 *               name, its position as in nvcc's NAME_param_K, or its name
 *               in the CUDA source K.cu next to K.ptx); --param
 *               NAME=VALUE overrides.  With them, and with constants in the
 *               code, counted PTX loops get their exact trip count and
 *               branches on constants their outcome (tripcount.h); [branches]
 *               still wins where it names a branch
 * A bare code file needs --grid and --block (there is no sensible default
 * for the launch, and occupancy depends on both).
 *
 * Registers: PTX entries are allocated by rf_regalloc (regs_rfkit).  The
 * count used for occupancy is the spec's or --regs when given, else the one
 * `ptxas -v` reports for the entry when ptxas is on PATH (and not disabled;
 * inputs/ptxas.c compiles that entry alone and caches by content) or an nvdisasm
 * listing states (SHI_REGISTERS), else
 * rfkit's (including what the functions it calls need on top of the values
 * live across the call).  SASS and dot code carry physical registers: their
 * count is the highest register used + 1, plus the registers ptxas reserves
 * beyond it (rf_regalloc_reserved).
 */
#include "kernel.h"
#include "kir_internal.h"
#include "../common/digest.h"
#include "inline.h"
#include "ptxas.h"
#include "regalloc.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Launch parameters (scalars; grid and block are parsed as triples). */
const rf_param rf_launch_params[] = {
    {"smem", RF_PT_INT, offsetof(rf_launch, smem), 0, 1 << 30, 0, NULL,
     "bytes", "dynamic shared memory per CTA"},
    {"regs", RF_PT_INT, offsetof(rf_launch, regs), 0, 255, 0, NULL,
     "registers", "registers per thread (0 = ptxas -v or rfkit's allocation)"},
};
const size_t rf_launch_nparams = sizeof rf_launch_params / sizeof rf_launch_params[0];

const rf_param rf_profile_params[] = {
    {"trip", RF_PT_DOUBLE, offsetof(rf_profile, trip), 1, 1e9, 16, NULL,
     "iterations", "mean trip count of loops (backward branches)"},
    {"taken", RF_PT_DOUBLE, offsetof(rf_profile, taken), 0, 1, 0.5, NULL,
     NULL, "probability a forward conditional branch is taken"},
    {"l1_hit", RF_PT_DOUBLE, offsetof(rf_profile, l1_hit), 0, 1, 0.6, NULL,
     NULL, "L1 hit rate of global loads"},
    {"l2_hit", RF_PT_DOUBLE, offsetof(rf_profile, l2_hit), 0, 1, 0.5, NULL,
     NULL, "L2 hit rate of L1 misses"},
    {"dram_share", RF_PT_DOUBLE, offsetof(rf_profile, dram_share), 0, 1, 0,
     NULL, NULL, "fraction of DRAM bandwidth this SM gets (0 = fair share)"},
};
const size_t rf_profile_nparams =
    sizeof rf_profile_params / sizeof rf_profile_params[0];

int rf_kernel_threads(const rf_kernel *k)
{
    return k->launch.block[0] * k->launch.block[1] * k->launch.block[2];
}

void rf_kernel_spread(rf_kernel *k, int sms)
{
    k->sms = sms > 1 ? sms : 1;
}

int rf_kernel_sms(const rf_kernel *k)
{
    return k->sms > 1 ? k->sms : 1;
}

long rf_kernel_grid_ctas(const rf_kernel *k)
{
    return (long)k->launch.grid[0] * k->launch.grid[1] * k->launch.grid[2];
}

long rf_kernel_ctas(const rf_kernel *k)
{
    long s = rf_kernel_sms(k);
    return (rf_kernel_grid_ctas(k) + s - 1) / s;
}

long rf_kernel_cta_index(const rf_kernel *k, long j)
{
    return j * rf_kernel_sms(k);
}

void rf_kernel_destroy(rf_kernel *k)
{
    if (!k)
        return;
    if (k->func_owned)
        rf_func_destroy(k->func);
    rf_module_destroy(k->mod);
    free(k);
}

int rf_launch_parse_dim3(const char *text, bool grid, int out[3], const char *file, int line,
                         int col, const char *field, rf_err *err)
{
    /* CUDA's limits: grid X 2^31 - 1, Y and Z 65535; 1024 threads a block. */
    const long limit[3] = {grid ? 2147483647L : 1024, grid ? 65535 : 1024,
                           grid ? 65535 : 64};
    int v[3] = {1, 1, 1}, n = 0;
    const char *s = text;
    for (;;) {
        char part[32];
        size_t len = strcspn(s, ",");
        if (n >= 3 || len == 0 || len >= sizeof part)
            return rf_err_set(err, RF_ENUMBER, file, line, col, field,
                              "'%s' is not X[,Y[,Z]]", text);
        memcpy(part, s, len);
        part[len] = '\0';
        long x;
        if (rf_parse_long(part, &x))
            return rf_err_set(err, RF_ENUMBER, file, line, col, field,
                              "'%s' is not X[,Y[,Z]] of whole numbers", text);
        if (x < 1 || x > limit[n])
            return rf_err_set(err, RF_ERANGE, file, line, col, field,
                              "%ld is outside [1, %ld]", x, limit[n]);
        v[n++] = (int)x;
        s += len;
        if (*s != ',')
            break;
        s++;
    }
    if (!grid && (long)v[0] * v[1] * v[2] > 1024)
        return rf_err_set(err, RF_ERANGE, file, line, col, field,
                          "%ld threads per block exceed 1024", (long)v[0] * v[1] * v[2]);
    memcpy(out, v, sizeof v);
    return RF_OK;
}

/* One [launch] value (or its command-line override: line and col 0). */
static int set_launch(rf_launch *l, const char *key, const char *val,
                      const char *file, int line, int col, rf_err *err)
{
    rf_where w = {file, line};
    if (strcmp(key, "grid") == 0 || strcmp(key, "block") == 0) {
        bool grid = key[0] == 'g';
        return rf_launch_parse_dim3(val, grid, grid ? l->grid : l->block, file, line, col, key,
                                    err);
    }
    const rf_param *p = rf_param_find(rf_launch_params, rf_launch_nparams, key);
    assert(p);   /* callers pass the keys of the table */
    return rf_param_parse_at(p, l, val, w, col, err);
}

#define SPEC_MAX_BRANCHES 4096

typedef struct spec_branch {
    char label[64];
    double p;                    /* probability the branch is taken */
    int line;
} spec_branch;

/* A key already set in the spec, for "set twice" errors. */
typedef struct spec_seen {
    int sec;
    char key[64];
    int line;
} spec_seen;

typedef struct spec {
    rf_kparam par[RF_KERNEL_MAX_PARAMS];
    int npar;
    char code[512];
    char entry[128];
    int code_line;
    bool have_grid, have_block, have_regs;
    spec_branch br[SPEC_MAX_BRANCHES];
    int nbr;
    spec_seen seen[SPEC_MAX_BRANCHES + RF_KERNEL_MAX_PARAMS + 16];   /* branches, params,
                                                                        the fixed keys */
    int nseen;
} spec;

/* Set kernel parameter name to the integer text val in par[0..*n)
 * (replacing an earlier value of the same name). */
static int add_param(rf_kparam *par, int *n, const char *name, const char *val,
                     const char *file, int line, int col, rf_err *err)
{
    long v;
    if (!*name || strlen(name) >= sizeof par[0].name)
        return rf_err_set(err, RF_ERANGE, file, line, col, "param",
                          "parameter name '%s' empty or too long", name);
    if (rf_parse_long(val, &v))
        return rf_err_set(err, RF_ENUMBER, file, line, col, name,
                          "'%s' is not an integer parameter value", val);
    for (int i = 0; i < *n; i++)
        if (strcmp(par[i].name, name) == 0) {
            par[i].value = v;
            return RF_OK;
        }
    if (*n >= RF_KERNEL_MAX_PARAMS)
        return rf_err_set(err, RF_ELIMIT, file, line, col, name,
                          "more than %d kernel parameters", RF_KERNEL_MAX_PARAMS);
    snprintf(par[*n].name, sizeof par[0].name, "%s", name);
    par[*n].value = v;
    par[*n].line = line;
    (*n)++;
    return RF_OK;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* The spec's lines, each copied to *bufp (grown to the longest). */
static int read_spec_lines(const char *path, const char *text, spec *sp, rf_kernel *k,
                           char **bufp, size_t *capp, rf_err *err)
{
    enum { S_NONE, S_KERNEL, S_LAUNCH, S_PROFILE, S_BRANCHES, S_PARAMS } sec = S_NONE;
    int line = 0;
    const char *s = text;
    while (*s) {
        line++;
        size_t len = strcspn(s, "\n");
        if (len + 1 > *capp) {
            char *nb = realloc(*bufp, len + 1);
            if (!nb)
                return rf_err_set(err, RF_ENOMEM, path, line, 0, NULL, "out of memory");
            *bufp = nb;
            *capp = len + 1;
        }
        char *buf = *bufp;
        memcpy(buf, s, len);
        buf[len] = '\0';
        s += len;
        if (*s == '\n')
            s++;
        buf[strcspn(buf, ";#")] = '\0';
        char *t = trim(buf);
        if (!*t)
            continue;
        int tc = (int)(t - buf) + 1;   /* columns for messages */
        if (*t == '[') {
            char *e = strchr(t, ']');
            if (!e || e[1] != '\0')
                return rf_err_set(err, RF_EPARSE, path, line, tc, NULL,
                                  "malformed section header '%s'", t);
            *e = '\0';
            char *name = trim(t + 1);
            if (strcmp(name, "kernel") == 0)
                sec = S_KERNEL;
            else if (strcmp(name, "launch") == 0)
                sec = S_LAUNCH;
            else if (strcmp(name, "profile") == 0)
                sec = S_PROFILE;
            else if (strcmp(name, "branches") == 0)
                sec = S_BRANCHES;
            else if (strcmp(name, "params") == 0)
                sec = S_PARAMS;
            else
                return rf_err_set(err, RF_EUNKNOWN, path, line, tc, NULL,
                                  "unknown section [%s] (kernel, launch, "
                                  "profile, branches, params)", name);
            continue;
        }
        char *eq = strchr(t, '=');
        if (!eq)
            return rf_err_set(err, RF_EPARSE, path, line, tc, NULL,
                              "expected 'key = value', found '%s'", t);
        *eq = '\0';
        char *key = trim(t), *val = trim(eq + 1);
        int kc = (int)(key - buf) + 1, vc = (int)(val - buf) + 1;
        if (!*key)
            return rf_err_set(err, RF_EPARSE, path, line, tc, NULL,
                              "missing key before '='");
        if (sec != S_NONE && strlen(key) < sizeof sp->seen[0].key) {
            for (int i = 0; i < sp->nseen; i++)
                if (sp->seen[i].sec == (int)sec && strcmp(sp->seen[i].key, key) == 0)
                    return rf_err_set(err, RF_EPARSE, path, line, kc, key,
                                      "set twice (first at line %d)", sp->seen[i].line);
            if (sp->nseen < (int)(sizeof sp->seen / sizeof sp->seen[0])) {
                spec_seen *e = &sp->seen[sp->nseen++];
                e->sec = (int)sec;
                snprintf(e->key, sizeof e->key, "%s", key);
                e->line = line;
            }
        }
        int rc = RF_OK;
        switch (sec) {
        case S_NONE:
            return rf_err_set(err, RF_EPARSE, path, line, kc, key,
                              "key outside a section");
        case S_KERNEL:
            if (strcmp(key, "code") == 0) {
                if (!*val || strlen(val) >= sizeof sp->code)
                    return rf_err_set(err, RF_ERANGE, path, line, vc, key,
                                      "empty or too long");
                snprintf(sp->code, sizeof sp->code, "%s", val);
                sp->code_line = line;
            } else if (strcmp(key, "entry") == 0) {
                if (strlen(val) >= sizeof sp->entry)
                    return rf_err_set(err, RF_ERANGE, path, line, vc, key,
                                      "too long");
                snprintf(sp->entry, sizeof sp->entry, "%s", val);
            } else {
                return rf_err_set(err, RF_EUNKNOWN, path, line, kc, key,
                                  "unknown key in [kernel] (code, entry)");
            }
            break;
        case S_LAUNCH:
            if (strcmp(key, "grid") && strcmp(key, "block") &&
                !rf_param_find(rf_launch_params, rf_launch_nparams, key))
                return rf_err_set(err, RF_EUNKNOWN, path, line, kc, key,
                                  "unknown key in [launch] (grid, block, "
                                  "smem, regs)");
            rc = set_launch(&k->launch, key, val, path, line, vc, err);
            sp->have_grid |= strcmp(key, "grid") == 0;
            sp->have_block |= strcmp(key, "block") == 0;
            sp->have_regs |= strcmp(key, "regs") == 0 && k->launch.regs > 0;
            break;
        case S_PROFILE: {
            rf_where w = {path, line};
            const rf_param *pp = rf_param_find(rf_profile_params, rf_profile_nparams, key);
            if (!pp)
                return rf_err_set(err, RF_EUNKNOWN, path, line, kc, key,
                                  "unknown key in [profile] (trip, taken, "
                                  "l1_hit, l2_hit, dram_share)");
            rc = rf_param_parse_at(pp, &k->profile, val, w, vc, err);
            break;
        }
        case S_BRANCHES: {
            double p;
            if (rf_parse_double(val, &p))
                return rf_err_set(err, RF_ENUMBER, path, line, vc, key,
                                  "'%s' is not a probability", val);
            if (p < 0 || p > 1)
                return rf_err_set(err, RF_ERANGE, path, line, vc, key,
                                  "%g is outside [0, 1]", p);
            if (sp->nbr >= SPEC_MAX_BRANCHES)
                return rf_err_set(err, RF_ELIMIT, path, line, kc, key,
                                  "more than %d branch probabilities", SPEC_MAX_BRANCHES);
            if (strlen(key) >= sizeof sp->br[0].label)
                return rf_err_set(err, RF_ERANGE, path, line, kc, key, "label too long");
            spec_branch *b = &sp->br[sp->nbr++];
            snprintf(b->label, sizeof b->label, "%s", key);
            b->p = p;
            b->line = line;
            break;
        }
        case S_PARAMS:
            rc = add_param(sp->par, &sp->npar, key, val, path, line, vc, err);
            break;
        }
        if (rc)
            return rc;
    }
    if (!sp->code[0])
        return rf_err_set(err, RF_EPARSE, path, 0, 0, "code",
                          "[kernel] code = FILE is required");
    if (!sp->have_grid || !sp->have_block)
        return rf_err_set(err, RF_EPARSE, path, 0, 0,
                          sp->have_grid ? "block" : "grid",
                          "[launch] grid and block are required");
    return RF_OK;
}

static int read_spec(const char *path, const char *text, spec *sp,
                     rf_kernel *k, rf_err *err)
{
    char *buf = NULL;
    size_t cap = 0;
    int rc = read_spec_lines(path, text, sp, k, &buf, &cap, err);
    free(buf);
    return rc;
}

static int block_labelled(const rf_func *f, const char *label)
{
    for (int j = 0; j < f->nblocks; j++)
        if (strcmp(f->blocks[j].label, label) == 0)
            return j;
    return -1;
}

/* Attach the spec's branch probabilities to the conditional branches that
 * jump to the labelled blocks, or with TARGET@SOURCE to the one closing
 * block SOURCE (exit@SOURCE: its guarded exit).  Labels and blocks survive
 * register allocation unchanged.  A later key overrides an earlier one. */
static int apply_branches(rf_kernel *k, const spec *sp, const char *path, bool *by_spec,
                          rf_err *err)
{
    rf_func *f = k->func;
    for (int i = 0; i < sp->nbr; i++) {
        const spec_branch *b = &sp->br[i];
        const char *at = strchr(b->label, '@');
        if (at) {
            /* TARGET@SOURCE: the one branch closing block SOURCE, to block
               TARGET, or its guarded exit when TARGET is "exit". */
            char tl[sizeof b->label];
            snprintf(tl, sizeof tl, "%.*s", (int)(at - b->label), b->label);
            bool is_exit = strcmp(tl, "exit") == 0;
            int src = block_labelled(f, at + 1), to = is_exit ? -1 : block_labelled(f, tl);
            if (src < 0 || (!is_exit && to < 0))
                return rf_err_set(err, RF_EUNKNOWN, path, b->line, 0, b->label,
                                  "no block of %s has the label '%s'", f->name,
                                  src < 0 ? at + 1 : tl);
            bool ok = is_exit ? rf_trip_is_guarded_exit(f, src)
                              : rf_trip_is_cond(f, src) && f->blocks[src].succ[1] == to;
            if (!ok)
                return rf_err_set(err, RF_EUNSUPPORTED, path, b->line, 0, b->label,
                                  is_exit ? "block '%s' does not end with a guarded exit"
                                          : "block '%s' does not end with a conditional "
                                            "branch to it", at + 1);
            f->blocks[src].has_taken = true;
            f->blocks[src].taken_p = b->p;
            by_spec[src] = true;
            continue;
        }
        int target = block_labelled(f, b->label);
        if (target < 0)
            return rf_err_set(err, RF_EUNKNOWN, path, b->line, 0, b->label,
                              "no block of %s has this label", f->name);
        int n = 0;
        for (int j = 0; j < f->nblocks; j++) {
            rf_block *blk = &f->blocks[j];
            const rf_inst *last = blk->ninsts ? &f->insts[blk->first + blk->ninsts - 1] : NULL;
            if (blk->nsucc == 2 && blk->succ[1] == target && last &&
                last->cls == RF_OC_BRANCH && last->guard >= 0) {
                blk->has_taken = true;
                blk->taken_p = b->p;
                by_spec[j] = true;
                n++;
            }
        }
        if (n == 0)
            return rf_err_set(err, RF_EUNSUPPORTED, path, b->line, 0, b->label,
                              "no conditional branch jumps to this label");
    }
    return RF_OK;
}

/* Give every kernel parameter its PTX name: the PTX name itself, its
 * position ("1"), or its name in the CUDA source next to the PTX (K.cu for
 * K.ptx, the __global__ function of the entry's name).  A name none of
 * these knows is an error where it was given. */
/* The entry's parameter names as the PTX declares them (the returned
 * rows 0 .. *np - 1, *np -1 when not found) and as the CUDA source beside
 * it names them (rows RF_TRIP_MAX_PARAMS on, *nc of them, -1 without
 * one); heap (free()), NULL when out of memory. */
static char (*param_names(const rf_kernel *k, const char *code_path, const char *text, int *np,
                          int *nc))[128]
{
    char (*pn)[128] = malloc(2 * RF_TRIP_MAX_PARAMS * sizeof *pn);
    if (!pn)
        return NULL;
    char (*cn)[128] = pn + RF_TRIP_MAX_PARAMS;
    *np = rf_trip_ptx_params(text, k->source->name, pn, RF_TRIP_MAX_PARAMS);
    *nc = -1;
    size_t cl = strlen(code_path);
    if (*np >= 0 && cl > 4 && strcmp(code_path + cl - 4, ".ptx") == 0 && cl < 1024) {
        char cu[1024];
        snprintf(cu, sizeof cu, "%.*s.cu", (int)(cl - 4), code_path);
        char *src = NULL;
        rf_err ignore;
        if (access(cu, R_OK) == 0 && kir_read_file(cu, &src, NULL, &ignore) == 0) {
            char base[128];
            rf_trip_base_name(k->source->name, base, sizeof base);
            *nc = rf_trip_cu_params(src, base, cn, RF_TRIP_MAX_PARAMS);
        }
        free(src);
    }
    return pn;
}

/* The parameters the code's loops and branches read without a value, as
 * --param would name them (the CUDA source's name, else the position),
 * into ps->need. */
static int name_missing(const rf_kernel *k, const char *code_path, const char *text,
                        const rf_trip_missing *miss, rf_profile_src *ps, rf_err *err)
{
    ps->need[0] = '\0';
    if (miss->n == 0)
        return RF_OK;
    int np, nc;
    char (*pn)[128] = param_names(k, code_path, text, &np, &nc);
    if (!pn)
        return rf_err_set(err, RF_ENOMEM, code_path, 0, 0, NULL, "out of memory");
    char (*cn)[128] = pn + RF_TRIP_MAX_PARAMS;
    size_t at = 0;
    for (int i = 0; i < miss->n; i++)
        for (int j = 0; j < np; j++)
            if (strcmp(pn[j], miss->name[i]) == 0) {
                char pos[16];
                snprintf(pos, sizeof pos, "%d", j);
                int w = snprintf(ps->need + at, sizeof ps->need - at, "%s%s", at ? ", " : "",
                                 j < nc ? cn[j] : pos);
                if (w > 0 && (size_t)w < sizeof ps->need - at)
                    at += (size_t)w;
            }
    free(pn);
    return RF_OK;
}

static int name_params(const rf_kernel *k, const char *code_path, const char *text,
                       rf_kparam *par, int npar, const char *spec_path, rf_err *err)
{
    int np, nc;
    char (*pn)[128] = param_names(k, code_path, text, &np, &nc);
    if (!pn)
        return rf_err_set(err, RF_ENOMEM, code_path, 0, 0, NULL, "out of memory");
    char (*cn)[128] = pn + RF_TRIP_MAX_PARAMS;
    int rc = RF_OK;
    for (int i = 0; i < npar && np >= 0 && !rc; i++) {
        rf_kparam *q = &par[i];
        bool known = q->name[strspn(q->name, "0123456789")] == '\0' && atol(q->name) < np &&
                     strlen(q->name) < 9;
        for (int j = 0; j < np && !known; j++)
            known = strcmp(pn[j], q->name) == 0;
        for (int j = 0; j < nc && j < np && !known; j++)
            if (strcmp(cn[j], q->name) == 0) {
                snprintf(q->name, sizeof q->name, "%s", pn[j]);
                known = true;
            }
        if (!known)
            rc = rf_err_set(err, RF_EUNKNOWN, q->line ? spec_path : "command line", q->line, 0,
                            q->name, "no parameter of %s is named so (PTX names %s..%s, "
                            "positions 0..%d%s)", k->source->name, np ? pn[0] : "",
                            np ? pn[np - 1] : "", np - 1,
                            nc > 0 ? ", or their names in the .cu" : "");
    }
    free(pn);
    return rc;
}

/* Branch probabilities from the code (tripcount.h, with the spec's
 * [params] and --param), then the spec's [branches] over them; counts in
 * k->psrc. */
static int apply_profile(rf_kernel *k, const spec *sp, const rf_kernel_opts *opts,
                         const char *code_path, const char *path, rf_err *err)
{
    rf_kparam par[RF_KERNEL_MAX_PARAMS];
    int npar = sp->npar;
    memcpy(par, sp->par, sizeof par);
    /* Each given value is NAME=VALUE, or several joined by ';' (a batch
     * cell). */
    for (int i = 0; i < opts->nparams; i++) {
        for (const char *a = opts->params[i]; *a;) {
            size_t len = strcspn(a, ";");
            const char *eq = memchr(a, '=', len);
            char name[sizeof par[0].name], value[64];
            if (!eq || eq == a || (size_t)(eq - a) >= sizeof name ||
                len - (size_t)(eq - a) - 1 >= sizeof value)
                return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, "param",
                                  "'%.*s' is not NAME=VALUE", (int)len, a);
            snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
            snprintf(value, sizeof value, "%.*s", (int)(len - (size_t)(eq - a) - 1), eq + 1);
            int rc = add_param(par, &npar, name, value, "command line", 0, 0, err);
            if (rc)
                return rc;
            a += len;
            if (*a == ';')
                a++;
        }
    }
    rf_func *f = k->func;
    int nb = f->nblocks;
    uint8_t *code = calloc((size_t)nb + 1, 1);   /* 1 loop, 2 forward, from the code */
    bool *by_spec = calloc((size_t)nb + 1, sizeof *by_spec);
    if (!code || !by_spec) {
        free(code);
        free(by_spec);
        return rf_err_set(err, RF_ENOMEM, path, 0, 0, NULL, "out of memory");
    }
    int rc = RF_OK;
    rf_profile_src need = {0};  /* its need[], kept across the reset below */
    if (!k->source->physical && k->source->nblocks == nb) {
        char *text = NULL;
        rf_trip *t = NULL;
        int nt = 0;
        rf_trip_missing miss = {0};
        rc = kir_read_file(code_path, &text, NULL, err);
        if (!rc && npar)
            rc = name_params(k, code_path, text, par, npar, path, err);
        if (!rc)
            rc = rf_trip_find(k->source, text, par, npar, k->launch.block, k->launch.grid, &t,
                              &nt, &miss, err);
        if (!rc)
            rc = name_missing(k, code_path, text, &miss, &need, err);
        for (int i = 0; i < nt; i++) {
            rf_block *blk = &f->blocks[t[i].block];
            blk->has_taken = true;
            blk->taken_p = t[i].taken_p;
            code[t[i].block] = t[i].loop ? 1 : 2;
        }
        free(t);
        free(text);
    }
    /* [branches] names the blocks of the spec's entry: another function of
     * the file (--entry, analyze --entry all) takes the code's and the
     * profile's probabilities alone. */
    if (!rc && (!sp->entry[0] || strcmp(sp->entry, k->source->name) == 0))
        rc = apply_branches(k, sp, path, by_spec, err);
    rf_profile_src *ps = &k->psrc;
    memset(ps, 0, sizeof *ps);
    memcpy(ps->need, need.need, sizeof ps->need);
    for (int i = 0; i < sp->nseen; i++) {   /* only [profile] has these keys */
        ps->l1_given |= strcmp(sp->seen[i].key, "l1_hit") == 0;
        ps->l2_given |= strcmp(sp->seen[i].key, "l2_hit") == 0;
        ps->trip_given |= strcmp(sp->seen[i].key, "trip") == 0;
        ps->taken_given |= strcmp(sp->seen[i].key, "taken") == 0;
    }
    for (int b = 0; b < nb && !rc; b++) {
        if (!rf_trip_is_drawn(f, b))
            continue;
        bool loop = rf_trip_is_backedge(f, b);
        ps->branches++;
        ps->loops += loop;
        if (by_spec[b]) {
            ps->from_spec++;
            ps->loops_spec += loop;
        } else if (code[b]) {
            ps->loops_code += code[b] == 1;
            ps->fwd_code += code[b] == 2;
        } else {
            ps->defaults++;
            ps->loops_default += loop;
        }
    }
    free(code);
    free(by_spec);
    return rc;
}

void rf_kernel_profile_line(const rf_kernel *k, char *buf, size_t cap)
{
    const rf_profile_src *ps = &k->psrc;
    int fwd = ps->branches - ps->loops, fwd_spec = ps->from_spec - ps->loops_spec;
    char ls[48] = "", fs[48] = "", trip[64] = "", taken[64] = "";
    if (ps->loops_spec)
        snprintf(ls, sizeof ls, ", %d from [branches]", ps->loops_spec);
    if (fwd_spec)
        snprintf(fs, sizeof fs, ", %d from [branches]", fwd_spec);
    /* The rest, where there is any, take the profile's trip and taken:
     * the spec's where its [profile] sets them, else the defaults. */
    if (ps->loops_default > 0 && ps->trip_given)
        snprintf(trip, sizeof trip, ", the spec's trip %g for the rest", k->profile.trip);
    else if (ps->loops_default > 0)
        snprintf(trip, sizeof trip, ", defaults for the rest (trip %g)", k->profile.trip);
    if (ps->defaults - ps->loops_default > 0 && ps->taken_given)
        snprintf(taken, sizeof taken, ", the spec's taken %g for the rest", k->profile.taken);
    else if (ps->defaults - ps->loops_default > 0)
        snprintf(taken, sizeof taken, ", taken default %g for the rest", k->profile.taken);
    snprintf(buf, cap,
             "profile: trip counts exact for %d of %d loops (from code/params)%s%s; %d of %d "
             "forward branches decided by the code%s%s",
             ps->loops_code, ps->loops, ls, trip, ps->fwd_code, fwd, fs, taken);
    size_t n = strlen(buf);
    if (!ps->l1_given && !ps->l2_given)
        snprintf(buf + n, cap - n, "; l1_hit %g, l2_hit %g defaults", k->profile.l1_hit,
                 k->profile.l2_hit);
    else if (!ps->l1_given || !ps->l2_given)
        snprintf(buf + n, cap - n, "; %s %g default", ps->l1_given ? "l2_hit" : "l1_hit",
                 ps->l1_given ? k->profile.l2_hit : k->profile.l1_hit);
    n = strlen(buf);
    if (ps->need[0] && ps->defaults > 0)
        snprintf(buf + n, cap - n, "; branches read parameters given no value: %s (--param "
                 "NAME=V)", ps->need);
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

static bool is_spec_text(const char *path, const char *text)
{
    if (has_suffix(path, ".spec") || has_suffix(path, ".ini"))
        return true;
    /* A code file never has a line that is exactly "[kernel]". */
    const char *p = strstr(text, "[kernel]");
    return p && (p == text || p[-1] == '\n');
}

/* Registers a function needs including the functions it calls: while a
 * callee runs the caller's values stay live, so
 *     need(f) = max(own(f), live_across_call(f) + max over callees need(c)).
 * External callees (vprintf) count 0; recursion is cut at depth 16. */
static int call_need(const rf_module *m, int fi, int *memo, int depth)
{
    if (memo[fi] >= 0)
        return memo[fi];
    rf_func *phys;
    int live = 0;
    if (depth > 16 || kir_regalloc(&m->funcs[fi], &phys, &live, NULL))
        return 0;
    int own = phys->nregs;
    rf_func_destroy(phys);
    int callee_max = 0;
    bool calls = false;
    for (int c = 0; c < m->ncalls; c++) {
        if (m->calls[c].caller != fi)
            continue;
        calls = true;
        int ce = m->calls[c].callee;
        if (ce >= 0 && ce != fi) {
            int n = call_need(m, ce, memo, depth + 1);
            if (n > callee_max)
                callee_max = n;
        }
    }
    int need = own;
    if (calls && live + callee_max > need)
        need = live + callee_max;
    memo[fi] = need;
    return need;
}

/* Marks in reach[] every function fi calls, directly or not. */
static void callees(const rf_module *m, int fi, bool *reach, int depth)
{
    for (int c = 0; c < m->ncalls && depth < RF_INLINE_MAX_DEPTH; c++) {
        int ce = m->calls[c].callee;
        if (m->calls[c].caller == fi && ce >= 0 && !reach[ce]) {
            reach[ce] = true;
            callees(m, ce, reach, depth + 1);
        }
    }
}

int rf_kernel_flatten(rf_kernel *k, int cap, rf_err *err)
{
    const rf_module *m = k->mod;
    int fi = (int)(k->source - m->funcs), n = m->nfuncs, rc = RF_OK;
    rf_func *flat = NULL;
    if (k->source->physical) {
        rc = rf_inline_subroutines(m, k->func, &flat, err);
    } else if (m->ncalls > 0) {
        /* Each PTX function the entry reaches, allocated on its own. */
        bool *reach = calloc((size_t)n, sizeof *reach);
        rf_func **phys = calloc((size_t)n, sizeof *phys);
        if (!reach || !phys) {
            free(reach);
            free(phys);
            return rf_err_set(err, RF_ENOMEM, m->path, 0, 0, NULL, "out of memory");
        }
        callees(m, fi, reach, 0);
        int sm = rf_regalloc_module_sm(m);
        for (int i = 0; i < n && !rc; i++)
            if (reach[i] && i != fi)
                rc = rf_regalloc_target(&m->funcs[i], cap > 0 ? cap : 255,
                                        rf_regalloc_sm_budget(sm), sm, &phys[i], err);
        if (!rc)
            rc = rf_inline_calls(m, fi, k->func, (const rf_func *const *)phys, &flat, err);
        for (int i = 0; i < n; i++)
            rf_func_destroy(phys[i]);
        free(reach);
        free(phys);
    }
    if (rc || !flat)
        return rc;
    if (k->func_owned)
        rf_func_destroy(k->func);
    k->func = flat;
    k->func_owned = true;
    return RF_OK;
}

static int load_code(rf_kernel *k, const char *code_path, const char *entry,
                     const char *spec_path, int spec_line, rf_err *err)
{
    int rc = rf_module_load(code_path, &k->mod, err);
    if (rc == RF_EIO && spec_path && spec_path[0] && err) {
        char msg[RF_ERR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return rf_err_set(err, rc, spec_path, spec_line, 0, "code", "%s", msg);
    }
    if (rc)
        return rc;
    k->source = rf_module_func(k->mod, entry && *entry ? entry : NULL);
    if (!k->source) {
        if (spec_path && spec_path[0])
            return rf_err_set(err, RF_EUNKNOWN, spec_path, spec_line, 0,
                              "entry", "no function '%s' in %s", entry,
                              code_path);
        return rf_err_set(err, RF_EUNKNOWN, code_path, 0, 0, "entry",
                          "no function '%s'", entry ? entry : "");
    }
    if (k->source->physical) {
        k->func = (rf_func *)k->source;
        k->func_owned = false;
        k->regs_rfkit = k->source->nregs + rf_regalloc_reserved(rf_regalloc_module_sm(k->mod));
        if (k->regs_rfkit > 255)
            k->regs_rfkit = 255;
    } else {
        rf_func *phys;
        int sm = rf_regalloc_module_sm(k->mod);
        rc = rf_regalloc_target(k->source, 255, rf_regalloc_sm_budget(sm), sm, &phys, err);
        if (rc)
            return rc;
        k->func = phys;
        k->func_owned = true;
        k->regs_rfkit = phys->nregs;
        if (k->mod->ncalls > 0) {
            int *memo = malloc((size_t)k->mod->nfuncs * sizeof *memo);
            if (!memo)
                return rf_err_set(err, RF_ENOMEM, code_path, 0, 0, NULL,
                                  "out of memory");
            for (int i = 0; i < k->mod->nfuncs; i++)
                memo[i] = -1;
            int fi = (int)(k->source - k->mod->funcs);
            int need = call_need(k->mod, fi, memo, 0);
            free(memo);
            if (need > k->regs_rfkit)
                k->regs_rfkit = need > 255 ? 255 : need;
        }
    }
    k->smem_static = k->source->smem_static;
    return RF_OK;
}

int rf_kernel_load(const char *path, const rf_kernel_opts *opts,
                   rf_kernel **out, rf_err *err)
{
    *out = NULL;
    rf_kernel_opts none;
    memset(&none, 0, sizeof none);
    if (!opts)
        opts = &none;
    rf_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return rf_err_set(err, RF_ENOMEM, path, 0, 0, NULL, "out of memory");
    rf_param_defaults(rf_launch_params, rf_launch_nparams, &k->launch);
    rf_param_defaults(rf_profile_params, rf_profile_nparams, &k->profile);
    k->profile.seed = 1;
    for (int i = 0; i < 3; i++)
        k->launch.grid[i] = k->launch.block[i] = 1;
    k->regs_ptxas = -1;
    k->sms = 1;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(k->name, sizeof k->name, "%.*s", (int)strcspn(base, "."), base);

    char *text = NULL;
    int rc = kir_read_file(path, &text, NULL, err);
    if (rc) {
        free(k);
        return rc;
    }
    spec *sp = calloc(1, sizeof *sp);   /* [branches] make it large */
    if (!sp) {
        free(text);
        free(k);
        return rf_err_set(err, RF_ENOMEM, path, 0, 0, NULL, "out of memory");
    }
    char code_path[1024];
    bool from_spec = is_spec_text(path, text);
    uint64_t spec_digest = RF_DIGEST_INIT;
    if (from_spec) {
        spec_digest = rf_digest(spec_digest, text, strlen(text));
        rc = read_spec(path, text, sp, k, err);
        free(text);
        text = NULL;
        if (rc)
            goto fail;
        snprintf(k->spec_path, sizeof k->spec_path, "%s", path);
        if (sp->code[0] == '/' || !strchr(path, '/'))
            snprintf(code_path, sizeof code_path, "%s", sp->code);
        else
            snprintf(code_path, sizeof code_path, "%.*s/%s",
                     (int)(strrchr(path, '/') - path), path, sp->code);
    } else {
        free(text);
        text = NULL;
        snprintf(code_path, sizeof code_path, "%s", path);
    }
    /* Command-line overrides. */
    const char *cl = "command line";
    if (opts->seed) {
        long seed;
        rc = rf_parse_long_in(opts->seed, 0, LONG_MAX, (rf_where){cl, 0}, 0, "seed", &seed, err);
        if (rc)
            goto fail;
        k->profile.seed = (uint64_t)seed;
    }
    if (opts->grid) {
        rc = set_launch(&k->launch, "grid", opts->grid, cl, 0, 0, err);
        if (rc)
            goto fail;
        sp->have_grid = true;
    }
    if (opts->block) {
        rc = set_launch(&k->launch, "block", opts->block, cl, 0, 0, err);
        if (rc)
            goto fail;
        sp->have_block = true;
    }
    if (opts->smem && (rc = set_launch(&k->launch, "smem", opts->smem, cl, 0, 0,
                                       err)))
        goto fail;
    if (opts->regs) {
        rc = set_launch(&k->launch, "regs", opts->regs, cl, 0, 0, err);
        if (rc)
            goto fail;
        sp->have_regs = k->launch.regs > 0;
    }
    if (!from_spec && (!sp->have_grid || !sp->have_block)) {
        rc = rf_err_set(err, RF_EUSAGE, path, 0, 0,
                        sp->have_grid ? "block" : "grid",
                        "a bare code file needs --grid X[,Y,Z] and --block "
                        "X[,Y,Z] (or write a .spec file)");
        goto fail;
    }
    const char *entry = opts->entry && *opts->entry ? opts->entry : sp->entry;
    rc = load_code(k, code_path, entry, k->spec_path, sp->code_line, err);
    if (rc)
        goto fail;
    rc = apply_profile(k, sp, opts, code_path, path, err);
    if (rc)
        goto fail;
    rc = rf_kernel_flatten(k, 0, err);
    if (rc)
        goto fail;
    if (sp->have_regs) {
        k->regs_ptxas = k->launch.regs;
    } else if (k->source->regs_reported > 0) {
        k->regs_ptxas = k->source->regs_reported;
    } else if (k->mod->kind == RF_CODE_PTX && k->source->is_entry && !opts->no_ptxas) {
        k->regs_ptxas = rf_ptxas_regs(code_path, k->mod->target, k->source->name, NULL,
                                      NULL);
    }
    char code_digest[24];
    snprintf(code_digest, sizeof code_digest, "%016" PRIx64, k->mod->digest);
    k->digest = rf_digest_str(spec_digest, code_digest);
    k->regs = k->regs_ptxas > 0 ? k->regs_ptxas : k->regs_rfkit;
    if (k->regs < 1)
        k->regs = 1;
    free(sp);
    *out = k;
    return RF_OK;
fail:
    free(sp);
    free(text);
    rf_kernel_destroy(k);
    return rc;
}

/* cmd_profile.c - rfkit profile: a kernel spec from Nsight Compute CSV
 * exports (inputs/ncu.h).
 *
 *   rfkit profile --ncu RAW.csv [--ncu SOURCE.csv] --kernel K [--entry E]
 *                 [--launch N] [--code FILE] [--gpu G] -o K.spec [--csv]
 *
 * The raw page gives [launch] (grid, block, registers, shared memory) and
 * [profile] (L1 and L2 hit rates); its achieved occupancy is reported next
 * to rfkit's theoretical one (with --gpu).  A source page with SASS and
 * executed counts gives the [branches] probabilities of the SASS code:
 * without --code its listing is written next to the spec (K.sass) and
 * becomes the spec's code; with --code FILE.sass the counts are matched to
 * FILE's instructions by offset.  PTX code (--code FILE.ptx) takes the
 * launch and cache figures only.  The files appear whole or not at all.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../analytic/occupancy.h"
#include "../common/file.h"
#include "../inputs/ncu.h"
#include "../inputs/tripcount.h"
#include "../results/csvout.h"
#include "cli.h"

/* The spec reader's [branches] capacity (inputs/kernel.c SPEC_MAX_BRANCHES). */
#define PROFILE_MAX_BRANCHES 4096

static void usage(FILE *out)
{
    fprintf(out,
            "usage: rfkit profile --ncu FILE.csv [--ncu FILE.csv] --kernel K [--entry E]\n"
            "                     [--launch N] [--code FILE] [--gpu G] -o K.spec [--csv]\n\n"
            "Write a kernel spec from Nsight Compute CSV exports of one kernel launch:\n"
            "  raw page    (ncu --csv --page raw), or the details page (ncu --csv, one\n"
            "              row per metric): grid, block, registers, shared memory,\n"
            "              L1 and L2 sector hit rates, achieved occupancy (reported)\n"
            "  source page (ncu --csv --page source --print-source sass): executed counts\n"
            "              per SASS instruction, giving every conditional branch's\n"
            "              probability ([branches]) and so each loop's mean trip count;\n"
            "              a guarded exit is keyed exit@BLOCK, and where branches to one\n"
            "              label differ each is keyed LABEL@BLOCK (its own block)\n\n"
            "options:\n"
            "  --ncu FILE    an export (raw, details or source page, told from its\n"
            "                header); twice for both pages; a raw or details page is\n"
            "                required\n"
            "  --kernel K    the kernel: its exported name or base name (hotspot)\n"
            "  --launch N    the N-th launch of K in the export (0 = the first) when\n"
            "                K was profiled more than once\n"
            "  --entry E     entry function name written to the spec (default: K)\n"
            "  --code FILE   the kernel's code (PTX or SASS listing); default: the source\n"
            "                page's SASS, written next to the spec as K.sass\n"
            "  --gpu G       also report rfkit's theoretical occupancy on G\n"
            "  -o FILE       the spec to write\n"
            "  --csv         one header line and one row\n");
}

typedef struct popts {
    const char *ncu[2];
    int nncu;
    const char *kernel, *entry, *code, *gpu, *output, *launch;
    bool csv;
} popts;

static int load_ncu(const char *path, rf_ncu **n, rf_err *err)
{
    int rc = rf_ncu_load(path, n, err);
    if (rc == RF_EIO)
        err->code = rc = RF_EUSAGE;
    return rc;
}

/* Whole file (for the code listing's line offsets). */
static int read_text(const char *path, char **text, rf_err *err)
{
    FILE *fp;
    int rc = rf_file_open(path, &fp, err);
    if (rc)
        return rc == RF_EIO ? (err->code = RF_EUSAGE) : rc;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (len == cap) {
            char *nb = cap < RF_NCU_MAX_BYTES ? realloc(buf, cap * 2 + 1) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    fclose(fp);
    if (!buf)
        return rf_err_set(err, RF_EUSAGE, path, 0, 0, NULL, "cannot read (or larger than "
                          "%zu MiB)", RF_NCU_MAX_BYTES >> 20);
    buf[len] = '\0';
    *text = buf;
    return 0;
}

static bool ident(const char *s)
{
    if (!*s || isdigit((unsigned char)*s))
        return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '$' || *s == '.'))
            return false;
    return true;
}

/* The directory of path ("." when none), into buf. */
static void dir_of(const char *path, char *buf, size_t cap)
{
    const char *sl = strrchr(path, '/');
    if (!sl)
        snprintf(buf, cap, ".");
    else if (sl == path)
        snprintf(buf, cap, "/");
    else
        snprintf(buf, cap, "%.*s", (int)(sl - path), path);
}

/* How the spec names the code file (the spec reader resolves it against
 * the spec's directory): its base name when both sit in one directory,
 * else its absolute path. */
static int code_field(const char *code, const char *spec, char *out, size_t cap, rf_err *err)
{
    char cd[PATH_MAX], sd[PATH_MAX], cwd[PATH_MAX];
    dir_of(code, cd, sizeof cd);
    dir_of(spec, sd, sizeof sd);
    const char *b = strrchr(code, '/');
    if (strcmp(cd, sd) == 0) {
        snprintf(out, cap, "%s", b ? b + 1 : code);
    } else if (code[0] == '/') {
        snprintf(out, cap, "%s", code);
    } else {
        if (!getcwd(cwd, sizeof cwd) || strlen(cwd) + strlen(code) + 2 > cap)
            return rf_err_set(err, RF_EUSAGE, code, 0, 0, "code",
                              "cannot name it from the spec's directory (give an absolute "
                              "path)");
        size_t n = strlen(cwd);
        memcpy(out, cwd, n);
        out[n] = '/';
        memcpy(out + n + 1, code, strlen(code) + 1);
    }
    if (strpbrk(out, ";#"))
        return rf_err_set(err, RF_EUSAGE, code, 0, 0, "code",
                          "a spec cannot name a file with ';' or '#' in its path");
    return 0;
}

typedef struct result {
    const rf_ncu_launch *l;
    const rf_ncu_source *src;
    const char *raw_path;
    char func[128];
    char code[PATH_MAX];         /* as the spec names it */
    char sass_path[PATH_MAX];    /* the listing written, "" none */
    char *sass;                  /* its text */
    size_t sass_len;
    bool code_sass;              /* the code is a SASS listing */
    long smem;                   /* bytes for [launch] smem */
    rf_ncu_branch *br;
    int nbr, ncond;
    const rf_func *f;
    rf_module *m;
    char note[256];
    double occ_rfkit;            /* -1 = not computed */
} result;

static void result_free(result *r)
{
    free(r->sass);
    free(r->br);
    rf_module_destroy(r->m);
}

/* Branch probabilities of the code from the source page. */
static int measure_branches(result *r, const char *code_path, const char *text, rf_err *err)
{
    int rc = r->sass ? rf_sass_parse(code_path, text, &r->m, err)
                     : rf_module_load(code_path, &r->m, err);
    if (rc)
        return rc == RF_EIO ? (err->code = RF_EUSAGE) : rc;
    /* The entry named (--entry, else K); a module of one entry needs no name
     * (a PTX names it mangled, _Z7hotspotPf...). */
    r->f = rf_module_func(r->m, r->func);
    int entries = 0;
    for (int i = 0; i < r->m->nfuncs; i++)
        entries += r->m->funcs[i].is_entry;
    if (!r->f && entries <= 1)
        r->f = rf_module_func(r->m, NULL);
    if (!r->f)
        return rf_err_set(err, RF_EUNKNOWN, code_path, 0, 0, "entry",
                          "no function '%s' among its %d entries: name one with --entry",
                          r->func, entries);
    r->code_sass = r->m->kind != RF_CODE_PTX;
    for (int b = 0; b < r->f->nblocks; b++)
        r->ncond += rf_trip_is_drawn(r->f, b);
    if (!r->src)
        return 0;
    if (!r->code_sass) {
        snprintf(r->note, sizeof r->note, "source page not used: the code is PTX and the "
                 "counts are per SASS instruction");
        return 0;
    }
    return rf_ncu_branch_probs(r->f, text, r->src, &r->br, &r->nbr, err);
}

static int write_spec(const result *r, const popts *o, FILE *out)
{
    const rf_ncu_launch *l = r->l;
    fprintf(out, "# %s: measured with Nsight Compute (rfkit profile)\n", r->func);
    fprintf(out, "#   launch ID %s of %s (line %d)\n", l->id, r->raw_path, l->line);
    if (l->occupancy >= 0)
        fprintf(out, "#   achieved occupancy %.2f%% "
                     "(sm__warps_active.avg.pct_of_peak_sustained_active)\n",
                100 * l->occupancy);
    if (r->src && r->code_sass)
        fprintf(out, "#   branches: %d of %d conditional branches from executed counts "
                     "(%d SASS instructions)\n", r->nbr, r->ncond, r->src->ninsts);
    fprintf(out, "[kernel]\ncode = %s\nentry = %s\n", r->code, r->f ? r->f->name : r->func);
    fprintf(out, "[launch]\ngrid = %d,%d,%d\nblock = %d,%d,%d\n", l->grid[0], l->grid[1],
            l->grid[2], l->block[0], l->block[1], l->block[2]);
    long dyn = l->smem_dynamic > 0 ? l->smem_dynamic : 0;
    long st = l->smem_static > 0 ? l->smem_static : 0;
    if (r->code_sass && st > 0)
        fprintf(out, "smem = %ld             ; dynamic %ld + static %ld bytes (a SASS listing "
                     "declares no shared memory)\n", r->smem, dyn, st);
    else
        fprintf(out, "smem = %ld\n", r->smem);
    if (l->regs > 0)
        fprintf(out, "regs = %d\n", l->regs);
    if (l->l1_hit >= 0 || l->l2_hit >= 0) {
        fprintf(out, "[profile]\n");
        if (l->l1_hit >= 0)
            fprintf(out, "l1_hit = %.6g           ; l1tex__t_sector_hit_rate.pct\n", l->l1_hit);
        if (l->l2_hit >= 0)
            fprintf(out, "l2_hit = %.6g           ; lts__t_sector_hit_rate.pct\n", l->l2_hit);
    }
    if (r->nbr > 0) {
        fprintf(out, "[branches]\n");
        int written = 0, i = 0;
        for (; i < r->nbr && written < PROFILE_MAX_BRANCHES; i++) {
            const rf_ncu_branch *b = &r->br[i];
            if (b->exit) {
                /* A guarded exit is keyed by its own block: exit@LABEL. */
                const char *own = r->f->blocks[b->block].label;
                if (strpbrk(own, ";#=@ ") || strlen(own) >= 64 - 5) {
                    fprintf(out, "; %s: its guarded exit is left on the default\n", own);
                    continue;
                }
                fprintf(out, "; %s: guarded exit taken by %.0f of %.0f warp executions%s\n"
                             "exit@%s = %.12g\n", own, b->taken + 0.0, b->executed,
                        b->clipped ? " (balance outside 0..1: divergence; clipped)" : "",
                        own, b->p + 0.0);
                written++;
                continue;
            }
            const char *label = r->f->blocks[r->f->blocks[b->block].succ[1]].label;
            /* Branches sharing a target label take one probability. */
            bool clash = false, dup = false;
            for (int j = 0; j < r->nbr; j++) {
                if (j == i || r->br[j].exit ||
                    strcmp(label, r->f->blocks[r->f->blocks[r->br[j].block].succ[1]].label) != 0)
                    continue;
                if (fabs(r->br[j].p - b->p) > 1e-9)
                    clash = true;
                else if (j < i)
                    dup = true;
            }
            if (dup && !clash)
                continue;
            /* Where branches to one label differ, each is keyed by its own
               block as well: LABEL@SOURCE. */
            const char *own = r->f->blocks[b->block].label;
            if (strpbrk(label, ";#=@ ") || strpbrk(own, ";#=@ ") ||
                strlen(label) + (clash ? strlen(own) + 1 : 0) >= 64) {
                fprintf(out, "; %s: its branch to %s is left on the default\n", own, label);
                continue;
            }
            fprintf(out, "; %s: taken %.0f of %.0f warp executions", own, b->taken + 0.0,
                    b->executed);
            if (b->loop && b->p < 1)
                fprintf(out, ", back edge: %.6g iterations per entry", 1 / (1 - b->p));
            if (b->clipped)
                fprintf(out, " (balance outside 0..1: divergence; clipped)");
            if (clash)
                fprintf(out, "\n%s@%s = %.12g\n", label, own, b->p + 0.0);
            else
                fprintf(out, "\n%s = %.12g\n", label, b->p + 0.0);
            written++;
        }
        if (i < r->nbr)
            fprintf(out, "; %d more branches left on their defaults (a spec takes %d)\n",
                    r->nbr - i, PROFILE_MAX_BRANCHES);
    }
    return ferror(out) ? RF_EIO : 0;
}

static void print_report(const result *r, const popts *o)
{
    const rf_ncu_launch *l = r->l;
    if (o->csv) {
        rf_csvw w;
        rf_csvw_init(&w, stdout);
        static const char *const cols[] = {"kernel", "launch_id", "grid_x", "grid_y", "grid_z",
                                           "block_x", "block_y", "block_z", "regs",
                                           "smem", "l1_hit", "l2_hit", "occupancy_ncu",
                                           "occupancy_rfkit", "branches_measured",
                                           "branches", "spec"};
        for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
            rf_csvw_field(&w, cols[i]);
        rf_csvw_end(&w);
        rf_csvw_field(&w, r->func);
        rf_csvw_field(&w, l->id);
        for (int i = 0; i < 3; i++)
            rf_csvw_int(&w, l->grid[i]);
        for (int i = 0; i < 3; i++)
            rf_csvw_int(&w, l->block[i]);
        rf_csvw_int(&w, l->regs);
        rf_csvw_int(&w, (int)r->smem);
        double v[3] = {l->l1_hit, l->l2_hit, l->occupancy};
        for (int i = 0; i < 3; i++) {
            if (v[i] >= 0)
                rf_csvw_num(&w, v[i]);
            else
                rf_csvw_field(&w, "");
        }
        if (r->occ_rfkit >= 0)
            rf_csvw_num(&w, r->occ_rfkit);
        else
            rf_csvw_field(&w, "");
        rf_csvw_int(&w, r->nbr);
        rf_csvw_int(&w, r->ncond);
        rf_csvw_field(&w, o->output);
        rf_csvw_end(&w);
        rf_csvw_flush(&w);
        rf_csvw_free(&w);
        return;
    }
    printf("profile %s from Nsight Compute: launch ID %s of %s\n", r->func, l->id, r->raw_path);
    printf("  launch     grid %d,%d,%d  block %d,%d,%d  regs %d  smem %ld bytes\n", l->grid[0],
           l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->regs, r->smem);
    if (l->l1_hit >= 0 || l->l2_hit >= 0)
        printf("  caches     L1 hit %.1f%%, L2 hit %.1f%%\n", 100 * l->l1_hit, 100 * l->l2_hit);
    if (l->occupancy >= 0 || r->occ_rfkit >= 0) {
        printf("  occupancy ");
        if (l->occupancy >= 0)
            printf(" achieved %.1f%% (ncu)", 100 * l->occupancy);
        if (r->occ_rfkit >= 0)
            printf("%s theoretical %.1f%% on %s (rfkit)", l->occupancy >= 0 ? "," : "",
                   100 * r->occ_rfkit, o->gpu);
        printf("\n");
    }
    if (r->src && r->code_sass)
        printf("  branches   %d of %d conditional branches from executed counts\n", r->nbr,
               r->ncond);
    if (r->note[0])
        printf("  note       %s\n", r->note);
    printf("  wrote      %s%s%s\n", o->output, r->sass_path[0] ? " and " : "", r->sass_path);
}

static int run(const popts *o, rf_err *err)
{
    rf_ncu *raw = NULL, *srcp = NULL;
    result r;
    memset(&r, 0, sizeof r);
    r.occ_rfkit = -1;
    int rc = 0, which = -1;
    if (o->launch) {
        long x;
        if (rf_parse_long(o->launch, &x) || x < 0 || x > INT_MAX)
            return rf_err_set(err, RF_ENUMBER, "command line", 0, 0, "launch",
                              "'%s' is not a launch index 0, 1, ...", o->launch);
        which = (int)x;
    }
    for (int i = 0; i < o->nncu && !rc; i++) {
        rf_ncu *n;
        if ((rc = load_ncu(o->ncu[i], &n, err)))
            break;
        rf_ncu **slot = n->page == RF_NCU_SOURCE ? &srcp : &raw;
        if (*slot) {
            rc = rf_err_set(err, RF_EUSAGE, o->ncu[i], 0, 0, NULL,
                            "a second %s page export (give one raw or details page and one "
                            "source page)", n->page == RF_NCU_SOURCE ? "source" : "launch");
            rf_ncu_destroy(n);
            break;
        }
        *slot = n;
    }
    if (!rc && !raw)
        rc = rf_err_set(err, RF_EUSAGE, o->ncu[0], 0, 0, NULL,
                        "the launch comes from a raw-page (ncu --csv --page raw) or details-page "
                        "(ncu --csv) export: give one with --ncu");
    if (!rc)
        rc = rf_ncu_find_launch(raw, o->kernel, which, &r.l, err);
    if (!rc && srcp)
        rc = rf_ncu_find_source(srcp, o->kernel, which, &r.src, err);
    if (rc)
        goto out;
    r.raw_path = raw->path;
    snprintf(r.func, sizeof r.func, "%s", o->entry ? o->entry : ident(o->kernel) ? o->kernel
                                                                                : "kernel");
    char *text = NULL;
    const char *code_path;
    if (o->code) {
        code_path = o->code;
        if (!(rc = code_field(o->code, o->output, r.code, sizeof r.code, err)))
            rc = read_text(o->code, &text, err);
    } else if (r.src) {
        /* The listing goes next to the spec: K.spec -> K.sass. */
        size_t n = strlen(o->output);
        size_t keep = n > 5 && strcmp(o->output + n - 5, ".spec") == 0 ? n - 5 : n;
        snprintf(r.sass_path, sizeof r.sass_path, "%.*s.sass", (int)keep, o->output);
        const char *b = strrchr(r.sass_path, '/');
        snprintf(r.code, sizeof r.code, "%s", b ? b + 1 : r.sass_path);
        code_path = r.sass_path;
        FILE *ms = open_memstream(&r.sass, &r.sass_len);
        int first;
        if (!ms)
            rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
        else if (rf_ncu_write_sass(r.src, r.func, r.l->cc, srcp->path, ms, &first) ||
                 fclose(ms))
            rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
        if (!rc && !(text = strdup(r.sass)))
            rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    } else {
        rc = rf_err_set(err, RF_EUSAGE, "command line", 0, 0, "code",
                        "no code for the spec: give --code FILE (PTX or SASS) or a "
                        "source-page export with SASS");
        code_path = NULL;
    }
    if (!rc)
        rc = measure_branches(&r, code_path, text, err);
    free(text);
    if (rc)
        goto out;
    long dyn = r.l->smem_dynamic > 0 ? r.l->smem_dynamic : 0;
    long st = r.l->smem_static > 0 ? r.l->smem_static : 0;
    r.smem = r.code_sass ? dyn + st : dyn;
    if (o->gpu) {
        rf_gpu g;
        rf_design d;
        rf_occ oc;
        rf_design_init(&d);
        rf_occ_input in = {r.l->regs > 0 ? r.l->regs : r.f->nregs > 0 ? r.f->nregs : 1,
                           r.l->block[0] * r.l->block[1] * r.l->block[2],
                           (int)(r.code_sass ? r.smem : r.smem + r.f->smem_static)};
        if ((rc = rf_cli_load_gpu(o->gpu, &g, err)) || (rc = rf_occ_compute(&g, &d, &in, &oc, err)))
            goto out;
        r.occ_rfkit = oc.occupancy;
    }
    /* Both files complete, or neither. */
    rf_outfile of, os;
    if ((rc = rf_outfile_open(&of, o->output, err)))
        goto out;
    if (r.sass_path[0] && (rc = rf_outfile_open(&os, r.sass_path, err))) {
        rf_outfile_close(&of, 0, NULL);
        goto out;
    }
    int wrc = write_spec(&r, o, of.fp);
    if (!wrc && r.sass_path[0] && fwrite(r.sass, 1, r.sass_len, os.fp) != r.sass_len)
        wrc = RF_EIO;
    if (r.sass_path[0] && (rc = rf_outfile_close(&os, !wrc, wrc ? NULL : err)) != 0) {
        rf_outfile_close(&of, 0, NULL);
        goto out;
    }
    rc = rf_outfile_close(&of, !wrc, wrc ? NULL : err);
    if (!rc && wrc)
        rc = rf_err_set(err, RF_EIO, o->output, 0, 0, NULL, "write error");
    if (rc) {
        if (r.sass_path[0])
            remove(r.sass_path);
        goto out;
    }
    print_report(&r, o);
out:
    result_free(&r);
    rf_ncu_destroy(raw);
    rf_ncu_destroy(srcp);
    return rc;
}

int rf_cmd_profile(int argc, char **argv)
{
    popts o;
    memset(&o, 0, sizeof o);
    rf_err err;
    rf_err_clear(&err);
    int rc = 0;
    for (int i = 1; i < argc && !rc; i++) {
        const char *v = NULL;
        int m;
        const rf_cli_opt opts[] = {{"kernel", &o.kernel}, {"entry", &o.entry},
                                   {"code", &o.code},     {"gpu", &o.gpu},
                                   {"output", &o.output}, {"launch", &o.launch}};
        if (rf_cli_flag(argv, i, "help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (rf_cli_flag(argv, i, "csv")) {
            o.csv = true;
        } else if ((m = rf_cli_value(argc, argv, &i, "ncu", &v, &err)) != 0) {
            rc = m < 0 ? m : 0;
            if (!rc && o.nncu >= 2)
                rc = rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, "ncu",
                                "at most two exports (a raw and a source page)");
            if (!rc)
                o.ncu[o.nncu++] = v;
        } else if ((m = rf_cli_values(argc, argv, &i, opts, sizeof opts / sizeof opts[0],
                                      &err)) != 0) {
            rc = m < 0 ? m : 0;
        } else {
            rc = rf_cli_unknown("profile", argv[i], &err);
        }
    }
    if (!rc && !o.nncu)
        rc = rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL,
                        "rfkit profile needs --ncu FILE.csv (see rfkit profile --help)");
    if (!rc && !o.kernel)
        rc = rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL,
                        "rfkit profile needs --kernel K (see rfkit profile --help)");
    if (!rc && !o.output)
        rc = rf_err_set(&err, RF_EUSAGE, "command line", 0, 0, NULL,
                        "rfkit profile needs -o FILE.spec (see rfkit profile --help)");
    if (!rc)
        rc = run(&o, &err);
    return rc ? rf_cli_fail(&err) : 0;
}

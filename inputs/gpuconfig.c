/* gpuconfig.c - reading a GPU description: a preset name, an INI-style
 * override file, or a GPGPU-Sim gpgpusim.config.
 *
 * INI file: "key = value" lines, keys from rf_gpu_params ('-' and '_' alike),
 * '#' or ';' comments, an optional "[gpu]" section line.  "preset = NAME",
 * when present, must be the first key and sets every field from that preset;
 * without it the file starts from the table defaults (a GPGPU-Sim GTX480-like
 * SM).  Unknown keys and keys set twice are errors naming file:line.
 *
 * gpgpusim.config: "-option value" lines ('#' comments).  The options rfkit
 * models are read (SM count, registers, pipeline threads:warp size, CTAs,
 * shared memory, register banks, operand collectors, schedulers and policy
 * with two_level_active's active warps per scheduler, issue width, core
 * clock); the allocation rules are GPGPU-Sim's (see gpu.c).
 * Every other option is listed once on the notes stream as ignored.
 *
 * A file is a gpgpusim.config when its first setting line starts with '-'.
 */
#include "gpu.h"
#include "gpu_internal.h"
#include "../common/file.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct reader {
    const char *path;
    FILE *f;
    char *buf;
    size_t cap;
    int line;
    size_t total;      /* bytes read */
    int over;          /* reading stopped: 1 a line too long, 2 the file, 3 memory */
} reader;

/* One line with its newline into r->buf, NUL-terminated; its length, or -1
 * at the end of the file or past a limit of file.h (r->over says which):
 * a line holds at most RF_LINE_MAX bytes, the file RF_TEXT_MAX. */
static ssize_t read_line(reader *r)
{
    size_t n = 0;
    int c = EOF;
    while ((c = getc(r->f)) != EOF) {
        if (++r->total > RF_TEXT_MAX) {
            r->over = 2;
            return -1;
        }
        if (n + 2 > r->cap) {
            size_t cap = r->cap ? 2 * r->cap : 256;
            if (cap > RF_LINE_MAX + 2)
                cap = RF_LINE_MAX + 2;
            char *b = realloc(r->buf, cap);
            if (!b) {
                r->over = 3;
                return -1;
            }
            r->buf = b;
            r->cap = cap;
        }
        r->buf[n++] = (char)c;
        if (c == '\n')
            break;
        if (n > RF_LINE_MAX) {
            r->over = 1;
            return -1;
        }
    }
    if (n == 0)
        return -1;
    r->buf[n] = '\0';
    return (ssize_t)n;
}

/* Next line with trailing newline and surrounding blanks removed; NULL at
 * the end of the file or past a limit. */
static char *next_line(reader *r)
{
    ssize_t n = read_line(r);
    if (n < 0) {
        r->line += r->over != 0;   /* the line that went past the limit */
        return NULL;
    }
    r->line++;
    char *s = r->buf;
    size_t bom = r->line == 1 ? rf_file_bom(s, (size_t)n) : 0;
    if (bom) {   /* dropped, so that columns count from the first character */
        n -= (ssize_t)bom;
        memmove(s, s + bom, (size_t)n + 1);
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

static bool is_comment(const char *s)
{
    return *s == '\0' || *s == '#' || *s == ';';
}

/* Cut a trailing " # comment" (a '#' preceded by a blank) and trailing blanks. */
static void cut_comment(char *s)
{
    for (char *p = s; *p; p++)
        if (*p == '#' && p > s && isspace((unsigned char)p[-1])) {
            *p = '\0';
            break;
        }
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
}

static size_t param_index(const char *key)
{
    char norm[128];
    size_t i = 0;
    for (; key[i] && i + 1 < sizeof norm; i++)
        norm[i] = key[i] == '-' ? '_' : key[i];
    norm[i] = '\0';
    const rf_param *p = rf_param_find(rf_gpu_params, rf_gpu_nparams, norm);
    return p ? (size_t)(p - rf_gpu_params) : rf_gpu_nparams;
}

static void set_name(rf_gpu *gpu, const char *path)
{
    snprintf(gpu->name, sizeof gpu->name, "%s", path);
}

static int load_ini(reader *r, char *first, rf_gpu *gpu, int *lines, rf_err *err)
{
    rf_param_defaults(rf_gpu_params, rf_gpu_nparams, gpu);
    bool any = false, named = false;
    for (char *s = first; s; s = next_line(r)) {
        if (is_comment(s))
            continue;
        int sc = (int)(s - r->buf) + 1;   /* columns for messages */
        if (*s == '[') {
            if (strcmp(s, "[gpu]") != 0)
                return rf_err_set(err, RF_EPARSE, r->path, r->line, sc, NULL,
                                  "unknown section '%s' (a GPU file has only [gpu])", s);
            continue;
        }
        char *eq = strchr(s, '=');
        if (!eq)
            return rf_err_set(err, RF_EPARSE, r->path, r->line, sc, NULL,
                              "expected 'key = value', got '%s'", s);
        *eq = '\0';
        char *key = s, *value = eq + 1;
        cut_comment(key);
        while (isspace((unsigned char)*value))
            value++;
        cut_comment(value);
        int vc = (int)(value - r->buf) + 1;
        if (!*key)
            return rf_err_set(err, RF_EPARSE, r->path, r->line, sc, NULL,
                              "missing key before '='");
        rf_where where = {r->path, r->line};
        if (strcmp(key, "preset") == 0) {
            if (any)
                return rf_err_set(err, RF_EPARSE, r->path, r->line, sc, "preset",
                                  "must come before every other key");
            if (rf_gpu_preset(value, gpu, NULL))
                return rf_err_set(err, RF_EUNKNOWN, r->path, r->line, vc, "preset",
                                  "unknown GPU preset '%s' (see rfkit gpus)", value);
            any = true;
            continue;
        }
        size_t i = param_index(key);
        if (i == rf_gpu_nparams)
            return rf_err_set(err, RF_EUNKNOWN, r->path, r->line, sc, key,
                              "unknown parameter (see rfkit gpus --keys)");
        if (lines[i])
            return rf_err_set(err, RF_EPARSE, r->path, r->line, sc, key,
                              "set twice (first at line %d)", lines[i]);
        int rc = rf_param_parse_at(&rf_gpu_params[i], gpu, value, where, vc, err);
        if (rc)
            return rc;
        lines[i] = r->line;
        named |= strcmp(rf_gpu_params[i].name, "name") == 0;
        any = true;
    }
    if (!any)
        return rf_err_set(err, RF_EPARSE, r->path, r->line, 0, NULL,
                          "no settings in GPU file");
    if (!named)
        set_name(gpu, r->path);
    return RF_OK;
}

/* ---- gpgpusim.config ---------------------------------------------------- */

typedef struct sim_opts {
    long clusters, cores;       /* -1 = not given */
    bool regs_per_block, smem_per_block, any_collector;
    long collectors;
    int cluster_line, core_line, collector_line;
    long tl_active;             /* two_level_active:N: N per scheduler, -1 = not given */
    int tl_line;
} sim_opts;

/* The list of ignored options, each once. */
typedef struct namelist {
    char *text;
    size_t len, cap;
    int count;
} namelist;

static int namelist_add(namelist *l, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = l->text; p && (p = strstr(p, name)); p += n)
        if ((p == l->text || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return RF_OK;
    if (l->len + n + 2 > l->cap) {
        size_t cap = (l->cap + n + 2) * 2;
        char *t = realloc(l->text, cap);
        if (!t)
            return RF_ENOMEM;
        l->text = t;
        l->cap = cap;
    }
    if (l->len)
        l->text[l->len++] = ' ';
    memcpy(l->text + l->len, name, n + 1);
    l->len += n;
    l->count++;
    return RF_OK;
}

static int opt_long(const reader *r, const char *opt, const char *value, long *out,
                    rf_err *err)
{
    if (rf_parse_long(value, out))
        return rf_err_set(err, RF_ENUMBER, r->path, r->line, 0, opt,
                          "'%s' is not a whole number", value);
    if (*out < 0 || *out > 1000000000L)
        return rf_err_set(err, RF_ERANGE, r->path, r->line, 0, opt,
                          "%ld is outside [0, 1000000000]", *out);
    return RF_OK;
}

/* Set an int field of gpu and remember where. */
static void set_field(rf_gpu *gpu, int *lines, const char *field, long v, int line)
{
    size_t i = param_index(field);
    assert(i < rf_gpu_nparams && rf_gpu_params[i].type != RF_PT_DOUBLE);
    *(int *)((char *)gpu + rf_gpu_params[i].offset) = (int)v;
    lines[i] = line;
}

static const char *const collector_opts[] = {
    "-gpgpu_operand_collector_num_units_sp",  "-gpgpu_operand_collector_num_units_sfu",
    "-gpgpu_operand_collector_num_units_mem", "-gpgpu_operand_collector_num_units_gen",
    "-gpgpu_operand_collector_num_units_dp",  "-gpgpu_operand_collector_num_units_int",
    "-gpgpu_operand_collector_num_units_tensor_core", NULL};

/* One "-option value" line; returns 1 when the option is not modelled. */
static int sim_option(reader *r, const char *opt, char *value, rf_gpu *gpu,
                      int *lines, sim_opts *so, FILE *notes, rf_err *err)
{
    long v;
    int rc;
    static const struct {
        const char *opt, *field;
    } simple[] = {
        {"-gpgpu_shader_registers", "regs_per_sm"},
        {"-gpgpu_registers_per_block", "max_regs_per_cta"},
        {"-gpgpu_shader_cta", "max_ctas_per_sm"},
        {"-gpgpu_shmem_size", "smem_per_sm"},
        {"-gpgpu_shmem_per_block", "max_smem_per_cta"},
        {"-gpgpu_num_reg_banks", "rf_banks"},
        {"-gpgpu_num_sched_per_core", "schedulers"},
        {"-gpgpu_max_insn_issue_per_warp", "issue_width"},
    };
    for (size_t k = 0; k < sizeof simple / sizeof simple[0]; k++) {
        if (strcmp(opt, simple[k].opt) != 0)
            continue;
        if ((rc = opt_long(r, opt, value, &v, err)))
            return rc;
        set_field(gpu, lines, simple[k].field, v, r->line);
        so->regs_per_block |= strcmp(simple[k].field, "max_regs_per_cta") == 0;
        so->smem_per_block |= strcmp(simple[k].field, "max_smem_per_cta") == 0;
        return 0;
    }
    if (strcmp(opt, "-gpgpu_n_clusters") == 0 || strcmp(opt, "-gpgpu_n_cores_per_cluster") == 0) {
        if ((rc = opt_long(r, opt, value, &v, err)))
            return rc;
        if (strcmp(opt, "-gpgpu_n_clusters") == 0) {
            so->clusters = v;
            so->cluster_line = r->line;
        } else {
            so->cores = v;
            so->core_line = r->line;
        }
        return 0;
    }
    for (size_t k = 0; collector_opts[k]; k++) {
        if (strcmp(opt, collector_opts[k]) != 0)
            continue;
        if ((rc = opt_long(r, opt, value, &v, err)))
            return rc;
        so->collectors += v;
        so->any_collector = true;
        so->collector_line = r->line;
        return 0;
    }
    if (strcmp(opt, "-gpgpu_shader_core_pipeline") == 0) {
        char *colon = strchr(value, ':');
        long t, w;
        if (!colon)
            return rf_err_set(err, RF_EPARSE, r->path, r->line, 0, opt,
                              "expected <threads>:<warp size>, got '%s'", value);
        *colon = '\0';
        if ((rc = opt_long(r, opt, value, &t, err)) || (rc = opt_long(r, opt, colon + 1, &w, err)))
            return rc;
        if (w < 1 || t % w)
            return rf_err_set(err, RF_ERANGE, r->path, r->line, 0, opt,
                              "%ld threads is not a whole number of %ld-thread warps", t, w);
        set_field(gpu, lines, "max_threads_per_sm", t, r->line);
        set_field(gpu, lines, "warp_size", w, r->line);
        set_field(gpu, lines, "max_warps_per_sm", t / w, r->line);
        return 0;
    }
    if (strcmp(opt, "-gpgpu_clock_domains") == 0) {
        char *colon = strchr(value, ':');
        if (colon)
            *colon = '\0';
        double mhz;
        if (rf_parse_double(value, &mhz) || mhz <= 0)
            return rf_err_set(err, RF_ENUMBER, r->path, r->line, 0, opt,
                              "core clock '%s' is not a positive number", value);
        gpu->clock_mhz = mhz;
        lines[param_index("clock_mhz")] = r->line;
        return 0;
    }
    if (strcmp(opt, "-gpgpu_scheduler") == 0) {
        int policy = -1;
        if (strcmp(value, "lrr") == 0)
            policy = RF_SCHED_LRR;
        else if (strcmp(value, "gto") == 0)
            policy = RF_SCHED_GTO;
        else if (strncmp(value, "two_level_active", 16) == 0) {
            /* GPGPU-Sim shader.cc: "two_level_active:N:inner:outer", N active
             * warps per scheduler. */
            policy = RF_SCHED_TWO_LEVEL;
            if (value[16] == ':') {
                char *n = value + 17, *end = strchr(n, ':');
                if (end)
                    *end = '\0';
                long a;
                if ((rc = opt_long(r, opt, n, &a, err)))
                    return rc;
                if (a < 1 || a > 2048)
                    return rf_err_set(err, RF_ERANGE, r->path, r->line, 0, opt,
                                      "two_level_active: %ld active warps per scheduler, "
                                      "expected 1 to 2048", a);
                so->tl_active = a;
                so->tl_line = r->line;
            }
        }
        if (policy < 0) {
            if (notes)
                fprintf(notes, "rfkit: note: %s:%d: scheduler '%s' is not modelled, using %s\n",
                        r->path, r->line, value,
                        rf_gpu_params[param_index("sched_policy")].choices[gpu->sched_policy]);
            return 0;
        }
        set_field(gpu, lines, "sched_policy", policy, r->line);
        return 0;
    }
    return 1;
}

static int load_sim(reader *r, char *first, rf_gpu *gpu, int *lines, FILE *notes,
                    rf_err *err)
{
    rf_param_defaults(rf_gpu_params, rf_gpu_nparams, gpu);
    set_name(gpu, r->path);
    gpu->cc = 0;
    sim_opts so = {.clusters = -1, .cores = -1, .tl_active = -1};
    namelist ignored = {0};
    int rc = RF_OK;
    for (char *s = first; s; s = next_line(r)) {
        if (*s == '\0' || *s == '#')
            continue;
        if (*s != '-') {
            rc = rf_err_set(err, RF_EPARSE, r->path, r->line, 0, NULL,
                            "expected '-option value' in a GPGPU-Sim config, got '%s'", s);
            break;
        }
        char *opt = s, *value = s;
        while (*value && !isspace((unsigned char)*value))
            value++;
        if (*value)
            *value++ = '\0';
        while (isspace((unsigned char)*value))
            value++;
        cut_comment(value);
        if (!*value) {
            rc = rf_err_set(err, RF_EPARSE, r->path, r->line, 0, opt, "missing value");
            break;
        }
        rc = sim_option(r, opt, value, gpu, lines, &so, notes, err);
        if (rc < 0)
            break;
        if (rc == 1 && (rc = namelist_add(&ignored, opt)) < 0) {
            rf_err_set(err, rc, r->path, r->line, 0, NULL, "out of memory");
            break;
        }
        rc = RF_OK;
    }
    if (rc == RF_OK) {
        if (so.clusters >= 0 || so.cores >= 0) {
            long cl = so.clusters >= 0 ? so.clusters : 1, co = so.cores >= 0 ? so.cores : 1;
            set_field(gpu, lines, "sms", cl * co, so.cluster_line ? so.cluster_line : so.core_line);
        }
        if (so.any_collector)
            set_field(gpu, lines, "collectors", so.collectors, so.collector_line);
        if (so.tl_active > 0)   /* per scheduler in GPGPU-Sim, per SM in rfkit */
            set_field(gpu, lines, "active_warps_per_sm", so.tl_active * gpu->schedulers,
                      so.tl_line);
        if (!so.regs_per_block)
            gpu->max_regs_per_cta = gpu->regs_per_sm;
        if (!so.smem_per_block)
            gpu->max_smem_per_cta = gpu->smem_per_sm;
        if (gpu->max_threads_per_cta > gpu->max_threads_per_sm)
            gpu->max_threads_per_cta = gpu->max_threads_per_sm;
        if (ignored.count && notes)
            fprintf(notes, "rfkit: note: %s: %d GPGPU-Sim option%s not modelled, ignored: %s\n",
                    r->path, ignored.count, ignored.count > 1 ? "s" : "", ignored.text);
    }
    free(ignored.text);
    return rc;
}

/* The error of a reading stopped by read_line. */
static int over_limit(const reader *r, rf_err *err)
{
    if (r->over == 1)
        return rf_err_set(err, RF_ELIMIT, r->path, r->line, 0, NULL,
                          "a line longer than %zu bytes: not a GPU file", RF_LINE_MAX);
    if (r->over == 2)
        return rf_err_set(err, RF_ELIMIT, r->path, 0, 0, NULL,
                          "larger than %zu MiB: not a GPU file", RF_TEXT_MAX >> 20);
    return rf_err_set(err, RF_ENOMEM, r->path, r->line, 0, NULL, "out of memory");
}

int rf_gpu_load(const char *name_or_path, rf_gpu *gpu, FILE *notes, rf_err *err)
{
    if (!name_or_path || !*name_or_path)
        return rf_err_set(err, RF_EUSAGE, NULL, 0, 0, "gpu", "no GPU preset or file given");
    if (rf_gpu_preset_source(name_or_path))
        return rf_gpu_preset(name_or_path, gpu, err);
    FILE *f;
    int orc = rf_file_open(name_or_path, &f, err);
    if (orc) {
        if (access(name_or_path, F_OK) == 0 || errno != ENOENT)
            return orc;
        if (!strchr(name_or_path, '/') && !strchr(name_or_path, '.'))
            return rf_gpu_preset(name_or_path, gpu, err);
        return rf_err_set(err, RF_EUNKNOWN, name_or_path, 0, 0, NULL,
                          "no such GPU preset, and cannot open it as a file: %s",
                          strerror(ENOENT));
    }
    reader r = {.path = name_or_path, .f = f};
    int *lines = calloc(rf_gpu_nparams, sizeof *lines);
    if (!lines) {
        fclose(f);
        return rf_err_set(err, RF_ENOMEM, name_or_path, 0, 0, NULL, "out of memory");
    }
    char *first;
    while ((first = next_line(&r)) && is_comment(first))
        ;
    rf_gpu tmp;
    int rc;
    if (r.over)
        rc = over_limit(&r, err);
    else if (ferror(f))
        rc = rf_err_set(err, RF_EIO, name_or_path, r.line, 0, NULL, "read error");
    else if (!first)
        rc = rf_err_set(err, RF_EPARSE, name_or_path, r.line, 0, NULL,
                        "no settings in GPU file");
    else if (*first == '-')
        rc = load_sim(&r, first, &tmp, lines, notes, err);
    else
        rc = load_ini(&r, first, &tmp, lines, err);
    if (r.over)   /* first: what the loader made of the cut-off file is moot */
        rc = over_limit(&r, err);
    else if (rc == RF_OK && ferror(f))
        rc = rf_err_set(err, RF_EIO, name_or_path, r.line, 0, NULL, "read error");
    free(r.buf);
    fclose(f);
    if (rc == RF_OK)
        rc = rf_gpu_check_at(&tmp, lines, err);
    free(lines);
    if (rc == RF_OK)
        *gpu = tmp;
    return rc;
}

/* kir.c - the kernel IR: module and function lifetime, lookup, loading a
 * code file by content, and the helpers the readers share (string map,
 * opcode interning, CFG construction from a linear instruction list).
 *
 * CFG rules (the same for PTX and SASS): a block starts at the first
 * instruction, at every label, and after every branch or exit.  A block
 * ending in an unguarded branch has one successor (the target); a guarded
 * branch has two (succ[0] = fall-through, succ[1] = target); an unguarded
 * exit has none; anything else falls through to the next block.
 */
#include "kir.h"
#include "kir_internal.h"
#include "../common/digest.h"
#include "../common/file.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const opclass_names[RF_OC_COUNT] = {
    "alu", "alu64", "sfu", "ld_global", "st_global", "ld_shared",
    "st_shared", "ld_local", "st_local", "ld_const", "atomic", "branch",
    "barrier", "call", "exit", "nop",
};

const char *rf_opclass_name(int cls)
{
    if (cls < 0 || cls >= RF_OC_COUNT)
        return "?";
    return opclass_names[cls];
}

/* ---------------------------------------------------------------- map */

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

void kir_map_free(kir_map *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static bool key_eq(const char *k, const char *s, size_t n)
{
    return strncmp(k, s, n) == 0 && k[n] == '\0';
}

int kir_map_get(const kir_map *m, const char *key, size_t len)
{
    if (!m->cap)
        return -1;
    size_t mask = m->cap - 1, i = (size_t)hash_bytes(key, len) & mask;
    while (m->keys[i]) {
        if (key_eq(m->keys[i], key, len))
            return m->vals[i];
        i = (i + 1) & mask;
    }
    return -1;
}

static int map_rehash(kir_map *m, size_t ncap)
{
    char **keys = calloc(ncap, sizeof *keys);
    int *vals = calloc(ncap, sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return RF_ENOMEM;
    }
    for (size_t j = 0; j < m->cap; j++) {
        if (!m->keys[j])
            continue;
        size_t i = (size_t)hash_bytes(m->keys[j], strlen(m->keys[j])) &
                   (ncap - 1);
        while (keys[i])
            i = (i + 1) & (ncap - 1);
        keys[i] = m->keys[j];
        vals[i] = m->vals[j];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = ncap;
    return RF_OK;
}

int kir_map_put(kir_map *m, const char *key, size_t len, int val)
{
    if ((m->count + 1) * 2 > m->cap) {
        int rc = map_rehash(m, m->cap ? m->cap * 2 : 64);
        if (rc)
            return rc;
    }
    size_t mask = m->cap - 1, i = (size_t)hash_bytes(key, len) & mask;
    while (m->keys[i]) {
        if (key_eq(m->keys[i], key, len)) {
            m->vals[i] = val;
            return RF_OK;
        }
        i = (i + 1) & mask;
    }
    char *k = malloc(len + 1);
    if (!k)
        return RF_ENOMEM;
    memcpy(k, key, len);
    k[len] = '\0';
    m->keys[i] = k;
    m->vals[i] = val;
    m->count++;
    return RF_OK;
}

/* ------------------------------------------------------------- arrays */

int kir_grow(void **arr, int *cap, int n, size_t elem)
{
    if (n < *cap)
        return RF_OK;
    int ncap = *cap ? *cap * 2 : 16;
    if (ncap < n + 1 || ncap > (1 << 28))
        return RF_ENOMEM;
    void *p = realloc(*arr, (size_t)ncap * elem);
    if (!p)
        return RF_ENOMEM;
    memset((char *)p + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
    *arr = p;
    *cap = ncap;
    return RF_OK;
}

/* ------------------------------------------------------------- module */

rf_module *kir_module_new(const char *path, int kind)
{
    rf_module *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    snprintf(m->path, sizeof m->path, "%s", path ? path : "");
    m->kind = kind;
    return m;
}

/* Room for one more element in an array of n whose capacity is implicit:
 * the least power of two >= n, so an array that only grows by appending
 * is reallocated log n times, not n times (quadratic where realloc
 * copies).  Returns the new capacity to give realloc, or 0 when the array
 * has room already. */
static size_t pow2_grow(int n)
{
    if (n > 0 && (n & (n - 1)) != 0)
        return 0;
    return n ? 2 * (size_t)n : 1;
}

rf_func *kir_module_add_func(rf_module *m)
{
    size_t cap = pow2_grow(m->nfuncs);
    if (cap) {
        rf_func *nf = realloc(m->funcs, cap * sizeof *nf);
        if (!nf)
            return NULL;
        m->funcs = nf;
    }
    rf_func *f = &m->funcs[m->nfuncs++];
    memset(f, 0, sizeof *f);
    return f;
}

int kir_opname(rf_module *m, kir_map *map, const char *name, size_t len)
{
    if (len >= sizeof m->opnames[0])
        len = sizeof m->opnames[0] - 1;
    int v = kir_map_get(map, name, len);
    if (v >= 0)
        return v;
    if (m->nopnames >= KIR_MAX_OPNAMES)
        return m->nopnames - 1;
    size_t cap = pow2_grow(m->nopnames);
    char(*p)[32] = m->opnames;
    if (cap) {
        p = realloc(m->opnames, cap * sizeof *p);
        if (!p)
            return -1;
        m->opnames = p;
    }
    memcpy(p[m->nopnames], name, len);
    p[m->nopnames][len] = '\0';
    if (kir_map_put(map, name, len, m->nopnames))
        return -1;
    return m->nopnames++;
}

void kir_func_free_arrays(rf_func *f)
{
    free(f->insts);
    free(f->blocks);
    free(f->regs);
    f->insts = NULL;
    f->blocks = NULL;
    f->regs = NULL;
}

void rf_func_destroy(rf_func *f)
{
    if (!f)
        return;
    kir_func_free_arrays(f);
    free(f);
}

void rf_module_destroy(rf_module *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nfuncs; i++)
        kir_func_free_arrays(&m->funcs[i]);
    free(m->funcs);
    free(m->opnames);
    free(m->calls);
    free(m);
}

const rf_func *rf_module_func(const rf_module *m, const char *name)
{
    if (!m || m->nfuncs == 0)
        return NULL;
    if (name && *name) {
        /* Names longer than rf_func.name holds were cut when read. */
        size_t cut = sizeof m->funcs[0].name - 1;
        for (int i = 0; i < m->nfuncs; i++)
            if (strcmp(m->funcs[i].name, name) == 0 ||
                (strlen(name) > cut && strncmp(m->funcs[i].name, name, cut) == 0))
                return &m->funcs[i];
        return NULL;
    }
    for (int i = 0; i < m->nfuncs; i++)
        if (m->funcs[i].is_entry)
            return &m->funcs[i];
    return &m->funcs[0];
}

/* ------------------------------------------------------- instructions */

rf_inst *kir_add_inst(rf_func *f, int *cap)
{
    if (kir_grow((void **)&f->insts, cap, f->ninsts, sizeof *f->insts))
        return NULL;
    rf_inst *in = &f->insts[f->ninsts++];
    memset(in, 0, sizeof *in);
    in->guard = -1;
    in->target = -1;
    return in;
}

void kir_add_def(rf_inst *in, int reg)
{
    for (int i = 0; i < in->ndefs; i++)
        if (in->defs[i] == reg)
            return;
    if (in->ndefs >= RF_MAX_DEFS) {
        in->flags |= KIR_IF_TRUNC;
        return;
    }
    in->defs[in->ndefs++] = (uint16_t)reg;
}

void kir_add_use(rf_inst *in, int reg)
{
    for (int i = 0; i < in->nuses; i++)
        if (in->uses[i] == reg)
            return;
    if (in->nuses >= RF_MAX_USES) {
        in->flags |= KIR_IF_TRUNC;
        return;
    }
    in->uses[in->nuses++] = (uint16_t)reg;
}

/* ---------------------------------------------------------------- CFG */

int kir_build_cfg(rf_func *f, const kir_ctl *ctl)
{
    int n = f->ninsts;
    free(f->blocks);
    f->blocks = NULL;
    f->nblocks = 0;
    if (n == 0)
        return RF_OK;
    bool *lead = calloc((size_t)n + 1, sizeof *lead);
    int *bof = malloc(((size_t)n + 1) * sizeof *bof); /* block of inst */
    if (!lead || !bof) {
        free(lead);
        free(bof);
        return RF_ENOMEM;
    }
    lead[0] = true;
    for (int i = 0; i < n; i++) {
        if (ctl[i].leader)
            lead[i] = true;
        if (ctl[i].term != KIR_T_NONE && i + 1 < n)
            lead[i + 1] = true;
        if (ctl[i].term == KIR_T_BRANCH) {
            if (ctl[i].target >= 0 && ctl[i].target < n)
                lead[ctl[i].target] = true;
            if (ctl[i].target2 >= 0 && ctl[i].target2 < n)
                lead[ctl[i].target2] = true;
        }
    }
    int nb = 0;
    for (int i = 0; i < n; i++) {
        if (lead[i])
            nb++;
        bof[i] = nb - 1;
    }
    f->blocks = calloc((size_t)nb, sizeof *f->blocks);
    if (!f->blocks) {
        free(lead);
        free(bof);
        return RF_ENOMEM;
    }
    f->nblocks = nb;
    for (int i = 0; i < n; i++) {
        rf_block *b = &f->blocks[bof[i]];
        if (lead[i]) {
            b->first = i;
            if (ctl[i].label)   /* text before \x01 (a scope suffix) */
                snprintf(b->label, sizeof b->label, "%.*s",
                         (int)strcspn(ctl[i].label, "\x01"), ctl[i].label);
            else
                snprintf(b->label, sizeof b->label, "BB%d", bof[i]);
        }
        b->ninsts++;
    }
    for (int k = 0; k < nb; k++) {
        rf_block *b = &f->blocks[k];
        int last = b->first + b->ninsts - 1;
        const kir_ctl *c = &ctl[last];
        rf_inst *in = &f->insts[last];
        int next = k + 1 < nb ? k + 1 : -1;
        int t1 = c->target >= 0 && c->target < n ? bof[c->target] : -1;
        int t2 = c->target2 >= 0 && c->target2 < n ? bof[c->target2] : -1;
        b->nsucc = 0;
        switch (c->term) {
        case KIR_T_BRANCH:
            if (t1 < 0) {
                /* Target unknown (indirect): treat as falling through. */
                if (next >= 0)
                    b->succ[b->nsucc++] = next;
                break;
            }
            in->target = t1;
            if (t1 <= k)
                in->flags |= RF_IF_LOOPBACK;
            if (t2 >= 0) {
                b->succ[b->nsucc++] = t2;
                if (t1 != t2)
                    b->succ[b->nsucc++] = t1;
            } else if (c->cond && next >= 0) {
                b->succ[b->nsucc++] = next;
                if (t1 != next)
                    b->succ[b->nsucc++] = t1;
            } else {
                b->succ[b->nsucc++] = t1;
            }
            break;
        case KIR_T_EXIT:
            if (c->cond && next >= 0)
                b->succ[b->nsucc++] = next;
            break;
        default:
            if (next >= 0)
                b->succ[b->nsucc++] = next;
            break;
        }
    }
    free(lead);
    free(bof);
    return RF_OK;
}

/* ------------------------------------------------------------ sorting */

void kir_sort_idx(int *idx, int n, bool (*before)(int a, int b, const void *ctx),
                  const void *ctx)
{
    int *tmp = malloc((n > 0 ? (size_t)n : 1) * sizeof *tmp);
    if (!tmp) {
        for (int i = 1; i < n; i++) {
            int v = idx[i], j = i - 1;
            while (j >= 0 && before(v, idx[j], ctx)) {
                idx[j + 1] = idx[j];
                j--;
            }
            idx[j + 1] = v;
        }
        return;
    }
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)   /* the left run wins ties: stable */
                tmp[k++] = before(idx[j], idx[i], ctx) ? idx[j++] : idx[i++];
            while (i < mid)
                tmp[k++] = idx[i++];
            while (j < hi)
                tmp[k++] = idx[j++];
        }
        memcpy(idx, tmp, (size_t)n * sizeof *idx);
    }
    free(tmp);
}

/* ---------------------------------------------------------------- I/O */

/* The whole file, at most RF_TEXT_MAX bytes (common/file.h): a regular file
 * is sized up front, anything else (a pipe, a device) is read until the
 * limit.  A NUL byte stops the reading at once: code is text. */
int kir_read_file(const char *path, char **text, size_t *len, rf_err *err)
{
    FILE *fp;
    int rc = rf_file_open(path, &fp, err);
    if (rc)
        return rc;
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) &&
        (uintmax_t)st.st_size > RF_TEXT_MAX) {
        fclose(fp);
        return rf_err_set(err, RF_ELIMIT, path, 0, 0, NULL,
                          "larger than %zu MiB: not a kernel file", RF_TEXT_MAX >> 20);
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(fp);
        return rf_err_set(err, RF_ENOMEM, path, 0, 0, NULL, "out of memory");
    }
    for (;;) {
        if (n + 1 >= cap) {
            /* A full buffer of RF_TEXT_MAX + 2 bytes holds one byte too many. */
            if (cap >= RF_TEXT_MAX + 2) {
                free(buf);
                fclose(fp);
                return rf_err_set(err, RF_ELIMIT, path, 0, 0, NULL,
                                  "larger than %zu MiB: not a kernel file",
                                  RF_TEXT_MAX >> 20);
            }
            size_t ncap = cap * 2 < RF_TEXT_MAX + 2 ? cap * 2 : RF_TEXT_MAX + 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                fclose(fp);
                return rf_err_set(err, RF_ENOMEM, path, 0, 0, NULL,
                                  "out of memory");
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, fp);
        n += got;
        if (got == 0 || memchr(buf + n - got, '\0', got))
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        return rf_err_set(err, RF_EIO, path, 0, 0, NULL, "read error");
    }
    buf[n] = '\0';
    size_t bom = rf_file_bom(buf, n);
    if (bom) {
        n -= bom;
        memmove(buf, buf + bom, n + 1);
    }
    if (memchr(buf, '\0', n)) {
        int line = 1;
        const char *z = memchr(buf, '\0', n);
        for (const char *p = buf; p < z; p++)
            line += *p == '\n';
        free(buf);
        return rf_err_set(err, RF_EPARSE, path, line, 0, NULL,
                          "NUL byte: not a text file (give PTX, SASS text "
                          "or nvdisasm -cfg output)");
    }
    *text = buf;
    if (len)
        *len = n;
    return RF_OK;
}

/* The reader by content: a Graphviz graph; a listing's banner ("code for
 * sm_XX", "Function : NAME"), which cuobjdump -sass of a cubin follows with
 * ".target sm_XX"; PTX (module directives); text with none of these marks
 * is read as SASS, unless the file's name says PTX (an empty or header-less
 * .ptx is reported as the PTX it claims to be, not as SASS without
 * instructions). */
static int detect_kind(const char *path, const char *text)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    if (strncmp(p, "digraph", 7) == 0 || strstr(text, "\ndigraph"))
        return RF_CODE_DOT;
    if (strstr(text, "code for sm_") || strstr(text, "Function : "))
        return RF_CODE_SASS;
    if (strstr(text, ".version") || strstr(text, ".entry") ||
        strstr(text, ".func") || strstr(text, ".target"))
        return RF_CODE_PTX;
    size_t n = path ? strlen(path) : 0;
    if (n >= 4 && strcmp(path + n - 4, ".ptx") == 0)
        return RF_CODE_PTX;
    return RF_CODE_SASS;
}

int rf_kir_block_limit(const rf_func *f, const char *path, rf_err *err)
{
    int line = 0;
    if (f->nblocks > RF_KIR_MAX_BLOCKS) {
        const rf_block *b = &f->blocks[RF_KIR_MAX_BLOCKS];
        if (b->ninsts > 0 && b->first >= 0 && b->first < f->ninsts)
            line = (int)f->insts[b->first].line;
    }
    return rf_err_set(err, RF_ELIMIT, path, path ? line : 0, 0, NULL,
                      "function %s has %d basic blocks, more than rfkit's limit of %d",
                      f->name, f->nblocks, RF_KIR_MAX_BLOCKS);
}

int rf_module_load(const char *path, rf_module **out, rf_err *err)
{
    char *text = NULL;
    *out = NULL;
    int rc = kir_read_file(path, &text, NULL, err);
    if (rc)
        return rc;
    switch (detect_kind(path, text)) {
    case RF_CODE_DOT:
        rc = rf_dot_parse(path, text, out, err);
        break;
    case RF_CODE_PTX:
        rc = rf_ptx_parse(path, text, out, err);
        break;
    default:
        rc = rf_sass_parse(path, text, out, err);
        break;
    }
    if (rc == RF_OK)
        (*out)->digest = rf_digest(RF_DIGEST_INIT, text, strlen(text));
    free(text);
    for (int i = 0; rc == RF_OK && i < (*out)->nfuncs; i++)
        if ((*out)->funcs[i].nblocks > RF_KIR_MAX_BLOCKS) {
            rc = rf_kir_block_limit(&(*out)->funcs[i], path, err);
            rf_module_destroy(*out);
            *out = NULL;
        }
    return rc;
}

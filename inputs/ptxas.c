/* ptxas.c - `ptxas -v` register counts, one entry at a time, cached by
 * content.  (Interface and cache rules: ptxas.h.)
 *
 * Cache file <dir>/ptxas-<hash>.txt, text:
 *     rfkit-ptxas-cache 1
 *     key <hash> <target> <PTX bytes> <ptxas bytes> <ptxas mtime>
 *     <registers> <entry name>          (one line per entry compiled)
 * <hash> is the 64-bit FNV-1a hash of the PTX text, the target and the
 * ptxas binary's path, size and modification time, so an edited PTX file,
 * another target or another ptxas gives another file; the key line is
 * compared whole before any count is believed.  Entry names are PTX
 * identifiers (no blanks).  Files are replaced atomically (rf_outfile).
 */
#include "ptxas.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/digest.h"
#include "../common/file.h"
#include "kir.h"
#include "kir_internal.h"

/* rf_func.name holds 127 characters; longer PTX names arrive cut. */
#define NAME_CUT ((int)sizeof ((rf_func *)0)->name - 1)

/* Most stderr read from one ptxas run (one block of lines per entry). */
#define PTXAS_OUT_MAX ((size_t)1 << 24)

typedef struct count {
    char *name;
    int regs;
} count;

typedef struct counts {
    count *c;
    int n, cap;
} counts;

static void counts_free(counts *cs)
{
    for (int i = 0; i < cs->n; i++)
        free(cs->c[i].name);
    free(cs->c);
    memset(cs, 0, sizeof *cs);
}

/* Add or replace name's count; 0 or -1 (out of memory). */
static int counts_put(counts *cs, const char *name, size_t len, int regs)
{
    for (int i = 0; i < cs->n; i++)
        if (strlen(cs->c[i].name) == len && memcmp(cs->c[i].name, name, len) == 0) {
            cs->c[i].regs = regs;
            return 0;
        }
    if (kir_grow((void **)&cs->c, &cs->cap, cs->n, sizeof *cs->c))
        return -1;
    char *s = malloc(len + 1);
    if (!s)
        return -1;
    memcpy(s, name, len);
    s[len] = '\0';
    cs->c[cs->n].name = s;
    cs->c[cs->n].regs = regs;
    cs->n++;
    return 0;
}

/* Count of entry (a cut name matches as a prefix), -1 when absent. */
static int counts_get(const counts *cs, const char *entry)
{
    size_t el = strlen(entry);
    bool cut = (int)el >= NAME_CUT;
    for (int i = 0; i < cs->n; i++)
        if (cut ? strncmp(cs->c[i].name, entry, el) == 0
                : strcmp(cs->c[i].name, entry) == 0)
            return cs->c[i].regs;
    return -1;
}

/* ptxas on PATH, without a shell: its path in exe, false when absent. */
static bool find_ptxas(char *exe, size_t cap, struct stat *st)
{
    const char *envpath = getenv("PATH");
    if (!envpath)
        return false;
    for (const char *p = envpath; *p;) {
        size_t n = strcspn(p, ":");
        if (n && n + 7 < cap) {
            snprintf(exe, cap, "%.*s/ptxas", (int)n, p);
            if (access(exe, X_OK) == 0 && stat(exe, st) == 0 && S_ISREG(st->st_mode))
                return true;
        }
        p += n;
        if (*p == ':')
            p++;
    }
    return false;
}

/* Run `ptxas -v -arch=TARGET [-e ENTRY] path -o /dev/null`; its stderr in
 * *out (NUL-terminated, heap).  0 when it exited with status 0. */
static int run_ptxas(const char *exe, const char *path, const char *target,
                     const char *entry, char **out)
{
    *out = NULL;
    int fds[2];
    if (pipe(fds))
        return -1;
    char arch[32];
    snprintf(arch, sizeof arch, "-arch=%s", target);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        int nul = open("/dev/null", O_WRONLY);
        if (nul >= 0)
            dup2(nul, STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        char *const with_e[] = {"ptxas", "-v", arch, "-e", (char *)entry, (char *)path,
                                "-o", "/dev/null", NULL};
        char *const all[] = {"ptxas", "-v", arch, (char *)path, "-o", "/dev/null", NULL};
        execv(exe, entry ? with_e : all);
        _exit(127);
    }
    close(fds[1]);
    size_t cap = 1 << 14, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (buf && n + 1 >= cap && cap < PTXAS_OUT_MAX) {
            char *nb = realloc(buf, cap * 2);
            if (nb) {
                buf = nb;
                cap *= 2;
            }
        }
        char sink[4096];
        bool keep = buf && n + 1 < cap;
        ssize_t got = keep ? read(fds[0], buf + n, cap - 1 - n)
                           : read(fds[0], sink, sizeof sink);
        if (got > 0) {
            if (keep)
                n += (size_t)got;
        } else if (got == 0 || errno != EINTR) {
            break;
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!buf)
        return -1;
    buf[n] = '\0';
    *out = buf;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* First occurrence of the n-byte needle in s[0..len), NULL if none. */
static const char *find_in(const char *s, size_t len, const char *needle, size_t n)
{
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(s + i, needle, n) == 0)
            return s + i;
    return NULL;
}

/* The "Compiling entry function 'NAME'" ... "Used N registers" pairs of
 * ptxas -v output, in order. */
static int parse_output(const char *s, counts *cs)
{
    const char *name = NULL;
    size_t nlen = 0;
    for (const char *line = s; *line;) {
        const char *e = strchr(line, '\n');
        size_t len = e ? (size_t)(e - line) : strlen(line);
        static const char ce[] = "Compiling entry function '";
        const char *q = find_in(line, len, ce, sizeof ce - 1);
        if (q) {
            name = q + sizeof ce - 1;
            const char *end = memchr(name, '\'', len - (size_t)(name - line));
            nlen = end ? (size_t)(end - name) : 0;
            if (!end)
                name = NULL;
        }
        const char *u = find_in(line, len, "Used ", 5);
        int regs;
        if (u && name && sscanf(u, "Used %d registers", &regs) == 1) {
            if (counts_put(cs, name, nlen, regs))
                return -1;
            name = NULL;
        }
        if (!e)
            break;
        line = e + 1;
    }
    return 0;
}

/* The cache folder: dir, else $XDG_CACHE_HOME/rfkit, else
 * $HOME/.cache/rfkit; created when missing.  false: no cache. */
static bool cache_folder(const char *dir, char *out, size_t cap)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    if (dir)
        n = snprintf(out, cap, "%s", dir);
    else if (xdg && xdg[0] == '/')
        n = snprintf(out, cap, "%s/rfkit", xdg);
    else if (home && home[0] == '/')
        n = snprintf(out, cap, "%s/.cache/rfkit", home);
    else
        return false;
    if (n <= 0 || (size_t)n >= cap)
        return false;
    /* mkdir -p, each component private to the user when created here */
    for (char *p = out + 1; ; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            int rc = mkdir(out, 0700);
            *p = c;
            if (rc && errno != EEXIST)
                return false;
            if (!c)
                break;
        }
    }
    struct stat st;
    return stat(out, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Read the cache file's counts when its key line is key; a missing,
 * foreign or malformed file leaves cs empty. */
static void cache_read(const char *file, const char *key, counts *cs)
{
    char *text = NULL;
    if (kir_read_file(file, &text, NULL, NULL))
        return;
    static const char head[] = "rfkit-ptxas-cache 1\n";
    size_t kl = strlen(key);
    const char *p = text;
    bool ok = strncmp(p, head, sizeof head - 1) == 0;
    if (ok) {
        p += sizeof head - 1;
        ok = strncmp(p, key, kl) == 0 && p[kl] == '\n';
        p += ok ? kl + 1 : 0;
    }
    while (ok && *p) {
        const char *e = strchr(p, '\n');
        char *end;
        long regs = strtol(p, &end, 10);
        ok = e && end > p && *end == ' ' && regs >= 0 && regs <= 255 && end + 1 < e;
        for (const char *q = end + 1; ok && q < e; q++)
            ok = *q > ' ' && *q != 0x7f;
        if (ok && counts_put(cs, end + 1, (size_t)(e - end - 1), (int)regs))
            ok = false;
        p = ok ? e + 1 : p;
    }
    if (!ok)
        counts_free(cs);
    free(text);
}

/* Replace the cache file with key and counts; failures leave no file. */
static void cache_write(const char *file, const char *key, const counts *cs)
{
    rf_outfile o;
    if (rf_outfile_open(&o, file, NULL))
        return;
    fprintf(o.fp, "rfkit-ptxas-cache 1\n%s\n", key);
    for (int i = 0; i < cs->n; i++)
        fprintf(o.fp, "%d %s\n", cs->c[i].regs, cs->c[i].name);
    rf_outfile_close(&o, !ferror(o.fp), NULL);
}

/* Where counts for (path, target, this ptxas) are cached: the key line and
 * the file.  false: no cache (none asked for, no folder, unreadable PTX). */
static bool cache_place(const char *path, const char *target, const char *exe,
                        const struct stat *xst, const char *cache_dir, char *key,
                        size_t kcap, char *file, size_t fcap)
{
    char dir[1024];
    char *text = NULL;
    size_t tlen = 0;
    if ((cache_dir && !cache_dir[0]) || !cache_folder(cache_dir, dir, sizeof dir) ||
        kir_read_file(path, &text, &tlen, NULL))
        return false;
    uint64_t h = rf_digest(RF_DIGEST_INIT, text, tlen);
    h = rf_digest_str(h, target);
    h = rf_digest_str(h, exe);
    h = rf_digest(h, &xst->st_size, sizeof xst->st_size);
    h = rf_digest(h, &xst->st_mtime, sizeof xst->st_mtime);
    free(text);
    int k = snprintf(key, kcap, "key %016" PRIx64 " %s %zu %lld %lld", h, target, tlen,
                     (long long)xst->st_size, (long long)xst->st_mtime);
    int f = snprintf(file, fcap, "%s/ptxas-%016" PRIx64 ".txt", dir, h);
    return k > 0 && (size_t)k < kcap && f > 0 && (size_t)f < fcap;
}

/* ptxas on PATH for a usable target ("sm_" and letters or digits). */
static bool usable(const char *path, const char *target, char *exe, size_t cap,
                   struct stat *xst)
{
    return path && target && strncmp(target, "sm_", 3) == 0 &&
           strspn(target + 3, "0123456789abcdefghijklmnopqrstuvwxyz") == strlen(target + 3) &&
           find_ptxas(exe, cap, xst);
}

/* Run ptxas (one entry, or all when entry is NULL) and add what it
 * reports to cs; writes the cache file when file is not NULL.  0 when
 * ptxas ran and reported. */
static int compile(const char *exe, const char *path, const char *target, const char *entry,
                   const char *file, const char *key, counts *cs, counts *got)
{
    char *out;
    int rc = run_ptxas(exe, path, target, entry, &out);
    if (rc == 0 && parse_output(out, got) == 0 && got->n > 0) {
        bool ok = true;
        for (int i = 0; i < got->n && ok; i++)
            ok = counts_put(cs, got->c[i].name, strlen(got->c[i].name), got->c[i].regs) == 0;
        if (ok && file)
            cache_write(file, key, cs);
    } else {
        rc = -1;
    }
    free(out);
    return rc;
}

int rf_ptxas_regs(const char *path, const char *target, const char *entry,
                  const char *cache_dir, rf_ptxas_how *how)
{
    rf_ptxas_how none;
    if (!how)
        how = &none;
    *how = RF_PTXAS_NONE;
    char exe[1024], key[1400], file[1100];
    struct stat xst;
    if (!usable(path, target, exe, sizeof exe, &xst))
        return -1;
    bool named = entry && *entry;
    bool cut = named && (int)strlen(entry) >= NAME_CUT;
    counts cs = {0}, got = {0};
    bool cached = named && cache_place(path, target, exe, &xst, cache_dir, key, sizeof key,
                                       file, sizeof file);
    if (cached) {
        cache_read(file, key, &cs);
        int regs = counts_get(&cs, entry);
        if (regs >= 0) {
            counts_free(&cs);
            *how = RF_PTXAS_CACHED;
            return regs;
        }
    }
    /* Compile the one entry, or the whole module for a cut name or none. */
    int regs = -1;
    if (compile(exe, path, target, named && !cut ? entry : NULL, cached ? file : NULL, key,
                &cs, &got) == 0)
        regs = named ? counts_get(&got, entry) : got.c[0].regs;
    counts_free(&got);
    counts_free(&cs);
    if (regs >= 0)
        *how = RF_PTXAS_RAN;
    return regs;
}

int rf_ptxas_prime(const char *path, const char *target, const char *const *entries, int n,
                   const char *cache_dir)
{
    char exe[1024], key[1400], file[1100];
    struct stat xst;
    if (!usable(path, target, exe, sizeof exe, &xst) ||
        !cache_place(path, target, exe, &xst, cache_dir, key, sizeof key, file, sizeof file))
        return -1;
    counts cs = {0}, got = {0};
    cache_read(file, key, &cs);
    bool all = true;
    for (int i = 0; i < n && all; i++)
        all = counts_get(&cs, entries[i]) >= 0;
    int rc = all ? 0 : compile(exe, path, target, NULL, file, key, &cs, &got);
    int have = 0;
    for (int i = 0; i < n; i++)
        have += counts_get(&cs, entries[i]) >= 0;
    counts_free(&got);
    counts_free(&cs);
    return rc ? -1 : have;
}

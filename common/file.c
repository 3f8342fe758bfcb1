/* file.c - reading and writing files (see file.h). */
#include "file.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

int rf_file_open(const char *path, FILE **fp, rf_err *err)
{
    *fp = fopen(path, "rb");
    if (!*fp)
        return rf_err_set(err, RF_EIO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(*fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(*fp);
        *fp = NULL;
        return rf_err_set(err, RF_EIO, path, 0, 0, NULL, "is a directory, not a file");
    }
    return RF_OK;
}

size_t rf_file_bom(const char *s, size_t n)
{
    return n >= 3 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
                   (unsigned char)s[2] == 0xBF
               ? 3
               : 0;
}

/* ---- bounded CSV records ------------------------------------------------ */

static void feed_field(void *s, size_t len, void *data)
{
    rf_csvfeed *f = data;
    f->field(s, len, f->data);
}

static void feed_row(int term, void *data)
{
    rf_csvfeed *f = data;
    f->row_ended = 1;
    f->row(term, f->data);
}

void rf_csv_feed_init(rf_csvfeed *f, struct csv_parser *p,
                      void (*field)(void *, size_t, void *), void (*row)(int, void *),
                      void *data)
{
    f->parser = p;
    f->field = field;
    f->row = row;
    f->data = data;
    f->pending = 0;
    f->row_ended = 0;
    f->at_start = 1;
}

/* Blanks and line breaks only: what libcsv skips between records. */
static int blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return 0;
    return 1;
}

/* Each piece ends at a line break (CR or LF, libcsv's record terminators)
 * or at the end of s, so a record that ends in a piece ends at its last
 * byte, and the count of the record's bytes is exact: its text and the line
 * breaks inside quotes, not the line break that ends it.  The parser holds
 * at most one piece past the limit, and a piece is at most n bytes. */
int rf_csv_feed(rf_csvfeed *f, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && s[j] != '\n' && s[j] != '\r')
            j++;
        if (j < n)
            j++;
        size_t k = j - i;
        f->row_ended = 0;
        if (csv_parse(f->parser, s + i, k, feed_field, feed_row, f) != k)
            return RF_EPARSE;
        int skipped = f->at_start && blank(s + i, k);
        int brk = s[j - 1] == '\n' || s[j - 1] == '\r';   /* not counted */
        if (!skipped && f->pending + k - (size_t)brk > RF_LINE_MAX)
            return RF_ELIMIT;
        if (f->row_ended || skipped) {
            f->pending = 0;
            f->at_start = 1;
        } else {
            f->pending += k;
            f->at_start = 0;
        }
        i = j;
    }
    return RF_OK;
}

/* ---- signal clean-up of temporary files ---------------------------------
 *
 * The one process-level registry in rfkit (everything else is passed
 * explicitly): the names of the temporary output files that exist now, so
 * that a handler for SIGINT, SIGTERM and SIGHUP can remove them.  The handler
 * only reads slots marked ready, calls unlink (async-signal-safe) and then
 * either re-raises the signal with its default action, so the process dies
 * of it as it would have without the handler, or, once a program has asked
 * for it (rf_file_exit_on_signal), calls _exit(128 + signal number).
 * Slots are claimed and released with lock-free atomics; the owning thread
 * blocks the signals while it creates, renames or removes its file and
 * updates its slot, so a signal sees either the file registered or gone. */

#define TMP_SLOTS 16
enum { SLOT_FREE, SLOT_BUSY, SLOT_READY };
static char tmp_names[TMP_SLOTS][PATH_MAX];
static atomic_int tmp_state[TMP_SLOTS];
static atomic_int handlers_installed;
static atomic_int exit_status_on_signal;   /* rf_file_exit_on_signal was called */
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSIGNALS ((int)(sizeof cleanup_signals / sizeof cleanup_signals[0]))

static void cleanup_on_signal(int sig)
{
    for (int i = 0; i < TMP_SLOTS; i++)
        if (atomic_load(&tmp_state[i]) == SLOT_READY)
            unlink(tmp_names[i]);
    if (atomic_load(&exit_status_on_signal))
        _exit(128 + sig);
    /* SA_RESETHAND restored the default action; the signal is blocked in
     * the handler and is delivered when it returns. */
    raise(sig);
}

/* Install the handler once, for the signals whose action is still the
 * default (a process run under nohup keeps ignoring SIGHUP, and a program
 * with its own handlers keeps them). */
static void install_handlers(void)
{
    int expected = 0;
    if (!atomic_compare_exchange_strong(&handlers_installed, &expected, 1))
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = cleanup_on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NSIGNALS; i++)
        sigaddset(&sa.sa_mask, cleanup_signals[i]);
    for (int i = 0; i < NSIGNALS; i++) {
        struct sigaction old;
        if (sigaction(cleanup_signals[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
            old.sa_handler == SIG_DFL)
            sigaction(cleanup_signals[i], &sa, NULL);
    }
}

void rf_file_exit_on_signal(void)
{
    atomic_store(&exit_status_on_signal, 1);
    install_handlers();
}

static void block_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < NSIGNALS; i++)
        sigaddset(&set, cleanup_signals[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* A slot holding name, or -1 when all are taken or the name is too long
 * (the file is then not removed on a signal; nothing else changes). */
static int register_tmp(const char *name)
{
    size_t n = strlen(name);
    if (n >= PATH_MAX)
        return -1;
    install_handlers();
    for (int i = 0; i < TMP_SLOTS; i++) {
        int expected = SLOT_FREE;
        if (atomic_compare_exchange_strong(&tmp_state[i], &expected, SLOT_BUSY)) {
            memcpy(tmp_names[i], name, n + 1);
            atomic_store(&tmp_state[i], SLOT_READY);
            return i;
        }
    }
    return -1;
}

static void unregister_tmp(int slot)
{
    if (slot >= 0)
        atomic_store(&tmp_state[slot], SLOT_FREE);
}

/* ---- output files ------------------------------------------------------- */

/* The folder part of path with its slash ("dir/"), "" when there is none. */
static size_t dir_len(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) + 1 : 0;
}

/* Follow symbolic links from path to the name finally written: the first
 * name that is not a link (or does not exist yet).  A relative link is
 * read from the folder of the link.  *out is malloc'd. */
static int follow_links(const char *path, char **out, rf_err *err)
{
    char *cur = malloc(strlen(path) + 1);
    char *buf = malloc(PATH_MAX);
    if (!cur || !buf) {
        free(cur);
        free(buf);
        return rf_err_set(err, RF_ENOMEM, path, 0, 0, NULL, "out of memory");
    }
    strcpy(cur, path);
    for (int hop = 0; hop < 40; hop++) {   /* 40: Linux's own bound (ELOOP) */
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) {
            free(buf);
            *out = cur;
            return RF_OK;
        }
        ssize_t n = readlink(cur, buf, PATH_MAX - 1);
        if (n < 0) {
            int e = errno;
            free(cur);
            free(buf);
            return rf_err_set(err, RF_EIO, path, 0, 0, NULL, "cannot follow the link: %s",
                              strerror(e));
        }
        buf[n] = '\0';
        size_t d = buf[0] == '/' ? 0 : dir_len(cur);
        char *next = malloc(d + (size_t)n + 1);
        if (!next) {
            free(cur);
            free(buf);
            return rf_err_set(err, RF_ENOMEM, path, 0, 0, NULL, "out of memory");
        }
        memcpy(next, cur, d);
        memcpy(next + d, buf, (size_t)n + 1);
        free(cur);
        cur = next;
    }
    free(cur);
    free(buf);
    return rf_err_set(err, RF_EIO, path, 0, 0, NULL, "cannot create: %s", strerror(ELOOP));
}

static int open_fail(rf_outfile *o, int code, rf_err *err, const char *fmt, const char *what)
{
    free(o->target);
    o->target = NULL;
    return rf_err_set(err, code, o->path, 0, 0, NULL, fmt, what);
}

int rf_outfile_open(rf_outfile *o, const char *path, rf_err *err)
{
    o->fp = NULL;
    o->tmp = NULL;
    o->target = NULL;
    o->path = path;
    o->slot = -1;
    int rc = follow_links(path, &o->target, err);
    if (rc)
        return rc;
    struct stat st;
    if (stat(o->target, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return open_fail(o, RF_EIO, err, "%s", "is a directory, not a file");
        if (S_ISBLK(st.st_mode))
            return open_fail(o, RF_EIO, err, "%s",
                             "is a block device; results go into a file, a character device "
                             "or a FIFO");
        if (!S_ISREG(st.st_mode)) {
            /* A device, FIFO or socket: written straight, never replaced.
             * Opening a FIFO waits for its reader, as any writer does. */
            int fd = open(o->target, O_WRONLY | O_NOCTTY);
            if (fd < 0)
                return open_fail(o, RF_EIO, err, "cannot open: %s", strerror(errno));
            if (!(o->fp = fdopen(fd, "w"))) {
                int e = errno;
                close(fd);
                return open_fail(o, RF_EIO, err, "cannot open: %s", strerror(e));
            }
            return RF_OK;
        }
    } else if (errno != ENOENT) {
        return open_fail(o, RF_EIO, err, "cannot create: %s", strerror(errno));
    }
    /* The mode fopen gives a new file.  umask cannot be read without being
     * set: it is set back at once, before any worker thread of a command
     * exists. */
    mode_t mask = umask(022);
    umask(mask);
    mode_t mode = 0666 & ~mask;

    static const char name[] = ".rfkitXXXXXX";
    size_t d = dir_len(o->target);
    if (!(o->tmp = malloc(d + sizeof name)))
        return open_fail(o, RF_ENOMEM, err, "%s", "out of memory");
    memcpy(o->tmp, o->target, d);
    memcpy(o->tmp + d, name, sizeof name);
    sigset_t old;
    block_signals(&old);
    int fd = mkstemp(o->tmp);
    int e = errno;
    if (fd >= 0)
        o->slot = register_tmp(o->tmp);
    restore_signals(&old);
    if (fd >= 0 && fchmod(fd, mode) == 0 && (o->fp = fdopen(fd, "w")) != NULL)
        return RF_OK;
    if (fd >= 0) {
        e = errno;
        block_signals(&old);
        close(fd);
        unlink(o->tmp);
        unregister_tmp(o->slot);
        o->slot = -1;
        restore_signals(&old);
    }
    free(o->tmp);
    o->tmp = NULL;
    return open_fail(o, RF_EIO, err, "cannot create: %s", strerror(e));
}

int rf_outfile_close(rf_outfile *o, int keep, rf_err *err)
{
    int e = 0;
    if (fflush(o->fp) != 0)
        e = errno;
    if (!e && ferror(o->fp))
        e = EIO;   /* an earlier write failed and its reason is gone */
    /* A device or FIFO has nothing to sync (fsync gives EINVAL there). */
    if (!e && o->tmp && fsync(fileno(o->fp)) != 0)
        e = errno;
    if (fclose(o->fp) != 0 && !e)
        e = errno;
    int rc = RF_OK;
    if (keep && e)
        rc = rf_err_set(err, RF_EIO, o->path, 0, 0, NULL, "cannot write: %s", strerror(e));
    if (o->tmp) {
        sigset_t old;
        block_signals(&old);
        if (keep && !rc && rename(o->tmp, o->target) != 0)
            rc = rf_err_set(err, RF_EIO, o->path, 0, 0, NULL, "cannot create: %s",
                            strerror(errno));
        if (!keep || rc)
            unlink(o->tmp);
        unregister_tmp(o->slot);
        restore_signals(&old);
    }
    free(o->tmp);
    free(o->target);
    o->tmp = NULL;
    o->target = NULL;
    o->fp = NULL;
    o->slot = -1;
    return rc;
}

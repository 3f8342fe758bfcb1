/* test_output.c - outputs that never clobber, readers that never run away
 * (issue 19, defects 1, 2, 4 and 9).
 *
 * Outputs (common/file.c rf_outfile, batch -o, calibrate -o): a character
 * device stays a device and /dev/full fails with the system's reason, a FIFO
 * is written into, a symbolic link is followed and stays a link, a legal
 * 250-character name works, and a temporary file does not outlive SIGTERM
 * or SIGINT.  Readers: /dev/zero given to each reader stops with an error
 * naming it, within a memory bound (the peak RSS of a child process that
 * runs the reader), and the limits of common/file.h hold to the byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <csv.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../calibrate/record.h"
#include "../common/file.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/kir.h"
#include "../results/batch.h"
#include "support/clirun.h"

/* A reader given /dev/zero must stop well below this peak RSS (KiB).  The
 * unbounded readers reached 1.5-3.4 GB; rfkit itself needs a few MB, and
 * the largest buffer a reader may hold is RF_TEXT_MAX (64 MiB) of code.
 * Under AddressSanitizer freed blocks stay resident in its quarantine
 * (256 MB by default). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RF_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(RF_TEST_ASAN)
#define RSS_BOUND_KB ((160L + 256) * 1024)
#else
#define RSS_BOUND_KB (160L * 1024)
#endif

/* ---- helpers ------------------------------------------------------------ */

static void make_dir(char *dir, size_t cap, const char *tag)
{
    snprintf(dir, cap, "/tmp/rfkit-%s-%ld-XXXXXX", tag, (long)getpid());
    assert_non_null(mkdtemp(dir));
}

/* Entries of dir other than . and .., and how many start with ".rfkit". */
static int entries(const char *dir, int *temps)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    if (temps)
        *temps = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        n++;
        if (temps && !strncmp(e->d_name, ".rfkit", 6))
            (*temps)++;
    }
    closedir(d);
    return n;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The whole of a file (NUL-terminated; free it). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t cap = 4096, n = 0, got;
    char *s = malloc(cap);
    assert_non_null(s);
    while ((got = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            s = realloc(s, cap *= 2);
            assert_non_null(s);
        }
    }
    fclose(f);
    s[n] = '\0';
    return s;
}

/* A FIFO read to its end by a thread. */
typedef struct fifo_reader {
    const char *path;
    char buf[8192];
    size_t n;
} fifo_reader;

static void *read_fifo(void *arg)
{
    fifo_reader *r = arg;
    int fd = open(r->path, O_RDONLY);
    if (fd < 0)
        return NULL;
    ssize_t got;
    while (r->n < sizeof r->buf - 1 &&
           (got = read(fd, r->buf + r->n, sizeof r->buf - 1 - r->n)) > 0)
        r->n += (size_t)got;
    r->buf[r->n] = '\0';
    close(fd);
    return NULL;
}

static const char batch_input[] = "gpu,kernel,design,banks\n"
                                  "fermi-gtx480,inputs/kernels/hotspot.spec,baseline,16\n";

/* ---- rf_outfile ----------------------------------------------------------- */

static void dev_null_stays_a_device(void **state)
{
    (void)state;
    struct stat before, after;
    assert_int_equal(stat("/dev/null", &before), 0);
    rf_outfile o;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_outfile_open(&o, "/dev/null", &err), RF_OK);
    assert_null(o.tmp);                       /* written straight */
    fputs("a,b\n1,2\n", o.fp);
    assert_int_equal(rf_outfile_close(&o, 1, &err), RF_OK);
    assert_int_equal(stat("/dev/null", &after), 0);
    assert_true(S_ISCHR(after.st_mode));
    assert_true(after.st_rdev == before.st_rdev);
}

/* 8 KiB overflow stdio's buffer, so the failure may come at a write or at
 * the final flush: either way close reports the reason. */
static void dev_full_fails_with_the_reason(void **state)
{
    (void)state;
    rf_outfile o;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_outfile_open(&o, "/dev/full", &err), RF_OK);
    for (int i = 0; i < 1024; i++)
        fputs("a,b,c,d\n", o.fp);
    assert_int_equal(rf_outfile_close(&o, 1, &err), RF_EIO);
    assert_string_equal(err.msg, "/dev/full: cannot write: No space left on device");
    struct stat st;
    assert_int_equal(stat("/dev/full", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
}

static void fifo_is_written_into(void **state)
{
    (void)state;
    char dir[96], fifo[128];
    make_dir(dir, sizeof dir, "fifo");
    snprintf(fifo, sizeof fifo, "%s/out.csv", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    fifo_reader r = {fifo, {0}, 0};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, read_fifo, &r), 0);
    rf_outfile o;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_outfile_open(&o, fifo, &err), RF_OK);   /* waits for the reader */
    assert_null(o.tmp);
    fputs("a,b\n1,2\n", o.fp);
    assert_int_equal(rf_outfile_close(&o, 1, &err), RF_OK);
    pthread_join(t, NULL);
    assert_string_equal(r.buf, "a,b\n1,2\n");
    struct stat st;
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    assert_int_equal(entries(dir, NULL), 1);
    unlink(fifo);
    rmdir(dir);
}

/* A relative link to a file not there yet, a link to that link, then the
 * same again over the now existing file: the links stay links and the
 * target gets the content, atomically (no temporary left beside it). */
static void symlink_is_followed(void **state)
{
    (void)state;
    char dir[96], link1[128], link2[128], target[128];
    make_dir(dir, sizeof dir, "link");
    snprintf(link1, sizeof link1, "%s/link.csv", dir);
    snprintf(link2, sizeof link2, "%s/link2.csv", dir);
    snprintf(target, sizeof target, "%s/sub/real.csv", dir);
    char sub[128];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    assert_int_equal(symlink("sub/real.csv", link1), 0);
    assert_int_equal(symlink("link.csv", link2), 0);
    rf_outfile o;
    rf_err err;
    rf_err_clear(&err);
    for (int round = 0; round < 2; round++) {
        assert_int_equal(rf_outfile_open(&o, link2, &err), RF_OK);
        assert_non_null(o.tmp);
        assert_string_equal(o.target, target);   /* "dir/" + "sub/real.csv" */
        fprintf(o.fp, "round %d\n", round);
        assert_int_equal(rf_outfile_close(&o, 1, &err), RF_OK);
        struct stat st;
        assert_int_equal(lstat(link1, &st), 0);
        assert_true(S_ISLNK(st.st_mode));
        assert_int_equal(lstat(link2, &st), 0);
        assert_true(S_ISLNK(st.st_mode));
        char *text = slurp(target);
        assert_string_equal(text, round ? "round 1\n" : "round 0\n");
        free(text);
        int temps;
        assert_int_equal(entries(dir, &temps), 3);   /* link.csv, link2.csv, sub */
        assert_int_equal(entries(sub, &temps), 1);
        assert_int_equal(temps, 0);
    }
    /* A link to a device is followed to the device. */
    unlink(link1);
    assert_int_equal(symlink("/dev/null", link1), 0);
    assert_int_equal(rf_outfile_open(&o, link2, &err), RF_OK);
    assert_null(o.tmp);
    assert_int_equal(rf_outfile_close(&o, 1, &err), RF_OK);
    struct stat st;
    assert_int_equal(lstat(link1, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    unlink(link1);
    unlink(link2);
    unlink(target);
    rmdir(sub);
    rmdir(dir);
}

/* NAME_MAX is 255: a 250-character name plus ".tmpPID.N" did not fit. */
static void long_name_works(void **state)
{
    (void)state;
    char dir[96], path[400];
    make_dir(dir, sizeof dir, "long");
    int n = snprintf(path, sizeof path, "%s/", dir);
    memset(path + n, 'x', 246);
    memcpy(path + n + 246, ".csv", 5);
    assert_int_equal(strlen(path + n), 250);
    rf_outfile o;
    rf_err err;
    rf_err_clear(&err);
    mode_t mask = umask(027);
    assert_int_equal(rf_outfile_open(&o, path, &err), RF_OK);
    /* The temporary is DIR/.rfkitXXXXXX, shorter than the final name. */
    assert_int_equal(strlen(o.tmp), strlen(dir) + strlen("/.rfkitXXXXXX"));
    fputs("a\n", o.fp);
    assert_int_equal(rf_outfile_close(&o, 1, &err), RF_OK);
    umask(mask);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);   /* 0666 & ~027, not mkstemp's 0600 */
    assert_int_equal(st.st_size, 2);
    assert_int_equal(entries(dir, NULL), 1);
    unlink(path);
    rmdir(dir);
}

/* A child with a temporary output open dies of SIGTERM or SIGINT as it
 * would without the handler (a shell reports 143 or 130), and the
 * temporary is gone; after rf_file_exit_on_signal it exits with
 * 128 + the signal's number instead (SIGTERM 15: 143, SIGINT 2: 130),
 * the temporary gone as well. */
static void signal_removes_the_temporary(void **state)
{
    (void)state;
    static const int sigs[] = {SIGTERM, SIGINT, SIGTERM, SIGINT};
    for (int i = 0; i < 4; i++) {
        int exits = i >= 2;   /* the child calls rf_file_exit_on_signal */
        char dir[96], path[128];
        make_dir(dir, sizeof dir, "sig");
        snprintf(path, sizeof path, "%s/out.csv", dir);
        int ready[2];
        assert_int_equal(pipe(ready), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(ready[0]);
            if (exits)
                rf_file_exit_on_signal();
            rf_outfile o;
            rf_err err;
            if (rf_outfile_open(&o, path, &err) != RF_OK)
                _exit(3);
            fputs("partial\n", o.fp);
            fflush(o.fp);
            if (write(ready[1], "r", 1) != 1)
                _exit(4);
            for (;;)
                pause();
        }
        close(ready[1]);
        char c;
        assert_int_equal(read(ready[0], &c, 1), 1);
        close(ready[0]);
        int temps;
        assert_int_equal(entries(dir, &temps), 1);
        assert_int_equal(temps, 1);
        assert_int_equal(kill(pid, sigs[i]), 0);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        if (exits) {
            assert_true(WIFEXITED(st));
            assert_int_equal(WEXITSTATUS(st), i == 2 ? 143 : 130);
        } else {
            assert_true(WIFSIGNALED(st));
            assert_int_equal(WTERMSIG(st), sigs[i]);
        }
        assert_int_equal(entries(dir, NULL), 0);
        rmdir(dir);
    }
}

/* ---- calibration records into devices and links ------------------------- */

static void record_into_devices(void **state)
{
    (void)state;
    rf_calib c;
    rf_calib_init(&c, "fermi-gtx480", "hotspot");
    rf_err err;
    rf_err_clear(&err);
    /* /dev/zero would be read as a record forever; it is written instead. */
    assert_int_equal(rf_record_save("/dev/zero", &c, &err), RF_OK);
    assert_int_equal(rf_record_save("/dev/null", &c, &err), RF_OK);
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_int_equal(rf_record_save("/dev/full", &c, &err), RF_EIO);
    assert_string_equal(err.msg, "/dev/full: cannot write: No space left on device");

    char dir[96], link[128], target[128];
    make_dir(dir, sizeof dir, "rec");
    snprintf(link, sizeof link, "%s/calib.csv", dir);
    snprintf(target, sizeof target, "%s/real.csv", dir);
    assert_int_equal(symlink("real.csv", link), 0);
    c.level = 1.5;
    assert_int_equal(rf_record_save(link, &c, &err), RF_OK);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    rf_calib back;
    assert_int_equal(rf_record_load(target, "fermi-gtx480", "hotspot", &back, &err), RF_OK);
    assert_float_equal(back.level, 1.5, 0);
    unlink(link);
    unlink(target);
    rmdir(dir);
}

/* ---- readers on /dev/zero, in a child whose peak RSS is measured --------- */

typedef int (*reader_fn)(const char *path, rf_err *err);

static int read_code(const char *path, rf_err *err)
{
    rf_module *m = NULL;
    int rc = rf_module_load(path, &m, err);
    if (m)
        rf_module_destroy(m);
    return rc;
}

static int read_spec(const char *path, rf_err *err)
{
    rf_kernel *k = NULL;
    int rc = rf_kernel_load(path, NULL, &k, err);
    if (k)
        rf_kernel_destroy(k);
    return rc;
}

static int read_gpu(const char *path, rf_err *err)
{
    rf_gpu g;
    return rf_gpu_load(path, &g, NULL, err);
}

static int read_record(const char *path, rf_err *err)
{
    rf_calib c;
    return rf_record_load(path, "fermi-gtx480", "hotspot", &c, err);
}

static int read_batch(const char *path, rf_err *err)
{
    FILE *in = fopen(path, "rb");
    FILE *out = fopen("/dev/null", "w");
    if (!in || !out)
        return RF_EIO;
    rf_batch_opts opts = {2, 0, NULL, NULL};
    rf_batch_stats st;
    int rc = rf_batch_run(in, path, out, &opts, &st, err);
    fclose(in);
    fclose(out);
    return rc;
}

typedef struct child_result {
    int rc;
    long rss_kb;    /* the child's peak resident set */
    char msg[RF_ERR_MSG_MAX];
} child_result;

static child_result run_reader(reader_fn fn, const char *path)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        child_result r;
        memset(&r, 0, sizeof r);
        rf_err err;
        rf_err_clear(&err);
        r.rc = fn(path, &err);
        snprintf(r.msg, sizeof r.msg, "%s", err.msg);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        r.rss_kb = ru.ru_maxrss;
        _exit(write(p[1], &r, sizeof r) == (ssize_t)sizeof r ? 0 : 1);
    }
    close(p[1]);
    child_result r;
    memset(&r, 0, sizeof r);
    size_t got = 0;
    ssize_t n;
    while (got < sizeof r && (n = read(p[0], (char *)&r + got, sizeof r - got)) > 0)
        got += (size_t)n;
    close(p[0]);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_int_equal(got, sizeof r);
    return r;
}

static void expect_stop(reader_fn fn, int code, const char *want)
{
    child_result r = run_reader(fn, "/dev/zero");
    if (r.rc != code || !strstr(r.msg, want) || r.rss_kb > RSS_BOUND_KB)
        fail_msg("/dev/zero: rc %d (want %d), peak RSS %ld KiB (bound %ld), message '%s' "
                 "(want '%s')", r.rc, code, r.rss_kb, RSS_BOUND_KB, r.msg, want);
}

static void dev_zero_stops_every_reader(void **state)
{
    (void)state;
    /* Code and specs: the first NUL byte ends the reading. */
    expect_stop(read_code, RF_EPARSE, "/dev/zero:1: NUL byte: not a text file");
    expect_stop(read_spec, RF_EPARSE, "/dev/zero:1: NUL byte: not a text file");
    /* Line- and record-based readers: RF_LINE_MAX. */
    expect_stop(read_gpu, RF_ELIMIT, "/dev/zero:1: a line longer than 65536 bytes");
    expect_stop(read_record, RF_ELIMIT, "/dev/zero:1: a row longer than 65536 bytes");
    expect_stop(read_batch, RF_ELIMIT, "/dev/zero:1: a record longer than 65536 bytes");
}

/* ---- limits to the byte ------------------------------------------------- */

/* A writer thread feeding a pipe with a byte until the reader closes it. */
typedef struct pipe_feeder {
    int fd;
    char byte;
    size_t limit;        /* stop after this many bytes (the reader may not close) */
    size_t written;
} pipe_feeder;

static void *feed_pipe(void *arg)
{
    pipe_feeder *f = arg;
    char buf[65536];
    memset(buf, f->byte, sizeof buf);
    while (f->written < f->limit) {
        size_t want = f->limit - f->written < sizeof buf ? f->limit - f->written : sizeof buf;
        ssize_t n = write(f->fd, buf, want);
        if (n <= 0)
            break;
        f->written += (size_t)n;
    }
    close(f->fd);
    return NULL;
}

/* A stream of text code without NULs: the reader stops after RF_TEXT_MAX
 * bytes, having taken at most one more pipe buffer's worth. */
static void code_stream_stops_at_the_text_limit(void **state)
{
    (void)state;
    signal(SIGPIPE, SIG_IGN);   /* the writer sees EPIPE once the reader stops */
    int p[2];
    assert_int_equal(pipe(p), 0);
    pipe_feeder f = {p[1], ' ', 2 * RF_TEXT_MAX, 0};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, feed_pipe, &f), 0);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", p[0]);
    rf_module *m = NULL;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_module_load(path, &m, &err), RF_ELIMIT);
    close(p[0]);
    pthread_join(t, NULL);
    assert_null(m);
    assert_non_null(strstr(err.msg, ": larger than 64 MiB: not a kernel file"));
    assert_true(f.written > RF_TEXT_MAX);
    assert_true(f.written <= RF_TEXT_MAX + 2 * 65536 + (1u << 20));   /* + pipe buffers */
    signal(SIGPIPE, SIG_DFL);
}

/* A GPU file line of RF_LINE_MAX bytes is read (and then refused as a
 * setting); one byte more is the limit. */
static void gpu_line_limit_to_the_byte(void **state)
{
    (void)state;
    char dir[96], path[128];
    make_dir(dir, sizeof dir, "gpu");
    snprintf(path, sizeof path, "%s/g.ini", dir);
    char *line = malloc(RF_LINE_MAX + 3);
    assert_non_null(line);
    for (int extra = 0; extra < 2; extra++) {
        size_t n = RF_LINE_MAX + (size_t)extra;
        memset(line, 'k', n);
        memcpy(line + n, "\n", 2);
        write_text(path, line);
        rf_gpu g;
        rf_err err;
        rf_err_clear(&err);
        int rc = rf_gpu_load(path, &g, NULL, &err);
        if (extra) {
            assert_int_equal(rc, RF_ELIMIT);
            assert_non_null(strstr(err.msg, "g.ini:1: a line longer than 65536 bytes"));
        } else {
            assert_int_equal(rc, RF_EPARSE);   /* "expected 'key = value'" */
        }
    }
    free(line);
    unlink(path);
    rmdir(dir);
}

typedef struct counts {
    long fields, rows;
    size_t longest;
} counts;

static void count_field(void *s, size_t len, void *data)
{
    counts *c = data;
    (void)s;
    c->fields++;
    if (len > c->longest)
        c->longest = len;
}

static void count_row(int term, void *data)
{
    (void)term;
    ((counts *)data)->rows++;
}

/* Feed text in pieces of `step` bytes; the rf_csv_feed result. */
static int feed_all(const char *text, size_t n, size_t step, counts *c)
{
    struct csv_parser p;
    assert_int_equal(csv_init(&p, CSV_APPEND_NULL), 0);
    rf_csvfeed f;
    rf_csv_feed_init(&f, &p, count_field, count_row, c);
    int rc = RF_OK;
    for (size_t i = 0; i < n && rc == RF_OK; i += step)
        rc = rf_csv_feed(&f, text + i, n - i < step ? n - i : step);
    if (rc == RF_OK)
        csv_fini(&p, count_field, count_row, c);
    csv_free(&p);
    return rc;
}

/* A record of exactly RF_LINE_MAX bytes passes, whatever the pieces it
 * arrives in, with a quoted line break inside counted and the CRLF ending
 * it not; one byte more fails.  Blank lines between records do not count. */
static void csv_record_limit_to_the_byte(void **state)
{
    (void)state;
    size_t cap = 3 * RF_LINE_MAX;
    char *text = malloc(cap);
    assert_non_null(text);
    static const size_t steps[] = {1, 7, 4096, 65536, 1u << 20};
    for (int extra = 0; extra < 2; extra++) {
        /* "a,b\r\n", then RF_LINE_MAX / 2 times " \n\n" (blank lines),
         * then a record: '"' + (RF_LINE_MAX - 4 + extra) x's with a '\n'
         * in the middle + '"' + ",z" = RF_LINE_MAX + extra bytes, then
         * "\r\n". */
        size_t n = 0;
        memcpy(text + n, "a,b\r\n", 5);
        n += 5;
        for (size_t i = 0; i < RF_LINE_MAX / 2; i++) {
            memcpy(text + n, " \n\n", 3);
            n += 3;
        }
        size_t body = RF_LINE_MAX - 4 + (size_t)extra, start = n;
        text[n++] = '"';
        memset(text + n, 'x', body);
        text[n + body / 2] = '\n';
        n += body;
        memcpy(text + n, "\",z\r\n", 5);
        n += 5;
        assert_int_equal(n - start - 2, RF_LINE_MAX + (size_t)extra);
        for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
            counts c = {0, 0, 0};
            int rc = feed_all(text, n, steps[s], &c);
            if (extra) {
                assert_int_equal(rc, RF_ELIMIT);
            } else {
                assert_int_equal(rc, RF_OK);
                assert_int_equal(c.rows, 2);
                assert_int_equal(c.fields, 4);
                assert_int_equal(c.longest, body);
            }
        }
    }
    free(text);
}

/* ---- the command line ----------------------------------------------------- */

typedef struct cli_result {
    int status;      /* exit status, or 128 + signal */
    long rss_kb;     /* peak RSS of rfkit alone */
    char out[4096];  /* stdout and stderr */
} cli_result;

/* Run rfkit with argv (argv[0] is replaced by the binary) in a grandchild;
 * the child in between reaps it and reports its peak RSS. */
static cli_result run_cli(const char *const *args)
{
    char *argv[16];
    int argc = 0;
    argv[argc++] = (char *)clirun_binary();
    for (int i = 0; args[i] && argc < 15; i++)
        argv[argc++] = (char *)args[i];
    argv[argc] = NULL;
    int outp[2], rep[2];
    assert_int_equal(pipe(outp), 0);
    assert_int_equal(pipe(rep), 0);
    pid_t mid = fork();
    assert_true(mid >= 0);
    if (mid == 0) {
        close(outp[0]);
        close(rep[0]);
        pid_t pid = fork();
        if (pid == 0) {
            dup2(outp[1], 1);
            dup2(outp[1], 2);
            close(outp[1]);
            execv(argv[0], argv);
            _exit(127);
        }
        close(outp[1]);
        int st = 0;
        waitpid(pid, &st, 0);
        struct rusage ru;
        getrusage(RUSAGE_CHILDREN, &ru);
        long rep_v[2] = {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), ru.ru_maxrss};
        _exit(write(rep[1], rep_v, sizeof rep_v) == (ssize_t)sizeof rep_v ? 0 : 1);
    }
    close(outp[1]);
    close(rep[1]);
    cli_result r;
    memset(&r, 0, sizeof r);
    size_t got = 0;
    ssize_t n;
    while ((n = read(outp[0], r.out + got, sizeof r.out - 1 - got)) > 0)
        got += (size_t)n;
    close(outp[0]);
    long rep_v[2] = {-1, -1};
    assert_int_equal(read(rep[0], rep_v, sizeof rep_v), (ssize_t)sizeof rep_v);
    close(rep[0]);
    int st;
    assert_int_equal(waitpid(mid, &st, 0), mid);
    r.status = (int)rep_v[0];
    r.rss_kb = rep_v[1];
    return r;
}

static void cli_dev_zero_readers(void **state)
{
    (void)state;
    static const char *const cases[][12] = {
        {"estimate", "--gpu", "fermi-gtx480", "--kernel", "inputs/kernels/hotspot.spec",
         "--design", "baseline", "--calib", "/dev/zero", NULL},
        {"batch", "/dev/zero", NULL},
        {"occupancy", "--gpu", "/dev/zero", "--regs", "32", "--threads", "256", NULL},
        {"analyze", "/dev/zero", NULL},
        {"estimate", "--gpu", "fermi-gtx480", "--kernel", "/dev/zero", "--design", "baseline",
         NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result r = run_cli(cases[i]);
        if (r.status != 2 || strncmp(r.out, "rfkit: /dev/zero:", 17) != 0 ||
            strchr(r.out, '\n') != r.out + strlen(r.out) - 1 || r.rss_kb > RSS_BOUND_KB)
            fail_msg("rfkit %s ... /dev/zero: exit %d, peak RSS %ld KiB, output '%s'",
                     cases[i][0], r.status, r.rss_kb, r.out);
    }
}

static void cli_batch_into_devices(void **state)
{
    (void)state;
    char dir[96], in[128];
    make_dir(dir, sizeof dir, "clidev");
    snprintf(in, sizeof in, "%s/in.csv", dir);
    write_text(in, batch_input);
    struct stat before, after;
    assert_int_equal(stat("/dev/null", &before), 0);
    cli_result r = run_cli((const char *const[]){"batch", in, "-o", "/dev/null", NULL});
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    assert_int_equal(stat("/dev/null", &after), 0);
    assert_true(S_ISCHR(after.st_mode) && after.st_rdev == before.st_rdev);

    r = run_cli((const char *const[]){"batch", in, "-o", "/dev/full", NULL});
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "rfkit: /dev/full: cannot write the output: No space left on "
                               "device\n");
    assert_int_equal(stat("/dev/full", &after), 0);
    assert_true(S_ISCHR(after.st_mode));
    unlink(in);
    rmdir(dir);
}

static void cli_batch_into_fifo_link_and_long_name(void **state)
{
    (void)state;
    char dir[96], in[128], fifo[128], link[128], target[128], longname[400];
    make_dir(dir, sizeof dir, "cliout");
    snprintf(in, sizeof in, "%s/in.csv", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(link, sizeof link, "%s/link.csv", dir);
    snprintf(target, sizeof target, "%s/real.csv", dir);
    write_text(in, batch_input);

    assert_int_equal(mkfifo(fifo, 0600), 0);
    fifo_reader fr = {fifo, {0}, 0};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, read_fifo, &fr), 0);
    cli_result r = run_cli((const char *const[]){"batch", in, "-o", fifo, NULL});
    pthread_join(t, NULL);
    assert_int_equal(r.status, 0);
    assert_int_equal(strncmp(fr.buf, "gpu,kernel,design,banks,", 24), 0);
    assert_non_null(strstr(fr.buf, "\nfermi-gtx480,inputs/kernels/hotspot.spec,baseline,16,"));
    struct stat st;
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));

    assert_int_equal(symlink("real.csv", link), 0);
    r = run_cli((const char *const[]){"batch", in, "-o", link, NULL});
    assert_int_equal(r.status, 0);
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    char *text = slurp(target);
    assert_string_equal(text, fr.buf);   /* the same rows as into the FIFO */
    free(text);

    int n = snprintf(longname, sizeof longname, "%s/", dir);
    memset(longname + n, 'y', 246);
    memcpy(longname + n + 246, ".csv", 5);
    r = run_cli((const char *const[]){"batch", in, "-o", longname, NULL});
    assert_int_equal(r.status, 0);
    text = slurp(longname);
    assert_string_equal(text, fr.buf);
    free(text);
    int temps;
    assert_int_equal(entries(dir, &temps), 5);   /* in, fifo, link, real, long */
    assert_int_equal(temps, 0);

    unlink(longname);
    unlink(link);
    unlink(target);
    unlink(fifo);
    unlink(in);
    rmdir(dir);
}

/* batch -o reading its input from a pipe kept open: the temporary exists,
 * SIGTERM (then SIGINT) ends rfkit with exit status 143 (130), and the
 * temporary is gone. */
static void cli_batch_signal_cleanup(void **state)
{
    (void)state;
    static const int sigs[] = {SIGTERM, SIGINT};
    for (int i = 0; i < 2; i++) {
        char dir[96], out[128];
        make_dir(dir, sizeof dir, "clisig");
        snprintf(out, sizeof out, "%s/out.csv", dir);
        int in[2];
        assert_int_equal(pipe(in), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            signal(SIGINT, SIG_DFL);   /* as a foreground command has them */
            signal(SIGTERM, SIG_DFL);
            dup2(in[0], 0);
            close(in[0]);
            close(in[1]);
            int devnull = open("/dev/null", O_WRONLY);
            dup2(devnull, 2);
            execl(clirun_binary(), clirun_binary(), "batch", "-", "-o", out, "--jobs", "2",
                  (char *)NULL);
            _exit(127);
        }
        close(in[0]);
        assert_int_equal(write(in[1], batch_input, strlen(batch_input)),
                         (ssize_t)strlen(batch_input));
        int temps = 0;
        for (int tries = 0; tries < 2000 && !temps; tries++) {   /* at most 2 s */
            entries(dir, &temps);
            if (!temps)
                nanosleep(&(struct timespec){0, 1000000}, NULL);
        }
        assert_int_equal(temps, 1);
        assert_int_equal(kill(pid, sigs[i]), 0);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        close(in[1]);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 128 + sigs[i]);   /* 143, 130 */
        assert_int_equal(entries(dir, NULL), 0);
        rmdir(dir);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    /* As a foreground command has them, also when the tests run from a
     * background job (where SIGINT arrives ignored). */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dev_null_stays_a_device),
        cmocka_unit_test(dev_full_fails_with_the_reason),
        cmocka_unit_test(fifo_is_written_into),
        cmocka_unit_test(symlink_is_followed),
        cmocka_unit_test(long_name_works),
        cmocka_unit_test(signal_removes_the_temporary),
        cmocka_unit_test(record_into_devices),
        cmocka_unit_test(dev_zero_stops_every_reader),
        cmocka_unit_test(code_stream_stops_at_the_text_limit),
        cmocka_unit_test(gpu_line_limit_to_the_byte),
        cmocka_unit_test(csv_record_limit_to_the_byte),
        cmocka_unit_test(cli_dev_zero_readers),
        cmocka_unit_test(cli_batch_into_devices),
        cmocka_unit_test(cli_batch_into_fifo_link_and_long_name),
        cmocka_unit_test(cli_batch_signal_cleanup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

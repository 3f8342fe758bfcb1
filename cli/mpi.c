/* mpi.c - batch and calibrate over MPI ranks (see mpi.h).
 *
 * batch: rank 0 holds the whole input and the outputs of its own chunks,
 * and takes the other ranks' outputs one chunk at a time; a rank holds its
 * chunks and their outputs.  Each chunk is a batch run of its own (the
 * header and the chunk's rows), told where its rows sit in the file so
 * that line numbers in the error column stay those of the whole file
 * (rf_batch_drive.line_offset: the physical lines between the header and
 * the chunk's first row, counted by rank 0 and sent with the rows).
 *
 * Every rank takes part in every exchange whatever happened before it, so
 * that a failure on one rank (a bad header, an unwritable output) ends the
 * job with rank 0's message instead of a hang. */
#include "mpi.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/file.h"
#include "../results/shard.h"
#include "progress.h"

#ifdef RF_HAVE_MPI
#include <mpi.h>
#endif

/* Started by an MPI launcher: Open MPI's mpirun, MPICH's Hydra, PMI-1/2 or
 * PMIx (srun --mpi=pmi2|pmix). */
static int launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
                                       "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return 1;
    return 0;
}

void rf_mpi_reexec(char **argv)
{
#ifndef RF_HAVE_MPI
    /* RFKIT_MPI_EXEC: set for the program exec'd, so that a binary
     * without MPI in rfkit-mpi's place runs alone instead of again. */
    if (!launched() || getenv("RFKIT_MPI_EXEC"))
        return;
    /* rfkit-mpi beside this binary (the Makefile builds it where mpicc
     * was found); without it, this process runs alone (rf_mpi_begin). */
    char self[PATH_MAX], path[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return;
    slash[1] = '\0';
    snprintf(path, sizeof path, "%srfkit-mpi", self);
    if (access(path, X_OK) != 0 || setenv("RFKIT_MPI_EXEC", "1", 1) != 0)
        return;
    execv(path, argv);          /* returns only where it failed */
    unsetenv("RFKIT_MPI_EXEC");
#else
    (void)argv;
#endif
}

int rf_mpi_begin(rf_mpi *m, rf_err *err)
{
    m->rank = 0;
    m->size = 1;
    m->local_size = 1;
    m->active = 0;
    if (!launched())
        return RF_OK;
#ifdef RF_HAVE_MPI
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
        return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, NULL, "MPI_Init failed");
    m->active = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->size);
    MPI_Comm local;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) ==
        MPI_SUCCESS) {
        MPI_Comm_size(local, &m->local_size);
        MPI_Comm_free(&local);
    }
#else
    (void)err;
    fprintf(stderr, "rfkit: note: no rfkit-mpi beside this rfkit (MPI was not found when it was "
                    "built): every process the launcher started runs the whole command\n");
#endif
    return RF_OK;
}

void rf_mpi_end(rf_mpi *m)
{
#ifdef RF_HAVE_MPI
    if (m->active)
        MPI_Finalize();
#endif
    m->active = 0;
}

#ifdef RF_HAVE_MPI

/* Waiting.  A blocking MPI call spins on its CPU until the message comes
 * (Open MPI polls), and a rank waiting for another's block would take the
 * core that rank needs wherever ranks share cores.  Every exchange is
 * therefore non-blocking and waited for by testing it every millisecond,
 * sleeping in between: at most a millisecond of latency per message. */
static int wait_req(MPI_Request *rq)
{
    struct timespec ms = {0, 1000000L};
    for (;;) {
        int done = 0;
        int rc = MPI_Test(rq, &done, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS || done)
            return rc;
        nanosleep(&ms, NULL);
    }
}

static int send_wait(const void *p, int n, MPI_Datatype t, int to, int tag)
{
    MPI_Request rq;
    int rc = MPI_Isend(p, n, t, to, tag, MPI_COMM_WORLD, &rq);
    return rc != MPI_SUCCESS ? rc : wait_req(&rq);
}

static int recv_wait(void *p, int n, MPI_Datatype t, int from, int tag)
{
    MPI_Request rq;
    int rc = MPI_Irecv(p, n, t, from, tag, MPI_COMM_WORLD, &rq);
    return rc != MPI_SUCCESS ? rc : wait_req(&rq);
}

static int bcast_wait(int *v)
{
    MPI_Request rq;
    int rc = MPI_Ibcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    return rc != MPI_SUCCESS ? rc : wait_req(&rq);
}

int rf_mpi_status(const rf_mpi *m, int status)
{
    if (m->active && m->size > 1)
        bcast_wait(&status);
    return status;
}

enum { TAG_META = 1, TAG_HEAD, TAG_ROWS, TAG_OUT, TAG_ITEM };

/* The whole of fp into *buf (*n bytes). */
static int read_all(FILE *fp, const char *name, char **buf, size_t *n, rf_err *err)
{
    size_t cap = 1 << 16, len = 0;
    char *b = malloc(cap);
    if (!b)
        return rf_err_set(err, RF_ENOMEM, name, 0, 0, NULL, "out of memory");
    size_t got;
    while ((got = fread(b + len, 1, cap - len, fp)) > 0) {
        len += got;
        if (len == cap) {
            char *nb = cap < (SIZE_MAX >> 1) ? realloc(b, cap * 2) : NULL;
            if (!nb) {
                free(b);
                return rf_err_set(err, RF_ENOMEM, name, 0, 0, NULL, "out of memory");
            }
            b = nb;
            cap *= 2;
        }
    }
    if (ferror(fp)) {
        free(b);
        return rf_err_set(err, RF_EIO, name, 0, 0, NULL, "read error");
    }
    *buf = b;
    *n = len;
    return RF_OK;
}

/* The split every rank derives from the row count and the job size:
 * chunks of `chunk` rows, about eight per rank (at least 1024 rows, so that
 * a chunk's work outweighs loading and characterising its kernels again,
 * a few milliseconds each), chunk j on rank j mod size.  Rows of one kernel
 * cost alike but kernels differ several-fold (26 us a row on average for
 * the bundled kernels, 10 to 76 us by kernel), so interleaved chunks
 * balance the ranks where one contiguous block per rank would not. */
typedef struct plan {
    long nrows, chunk, nchunks;
    int size;
} plan;

static void plan_make(plan *p, long nrows, int size)
{
    long per = (nrows + 8L * size - 1) / (8L * size);
    p->nrows = nrows;
    p->chunk = per < 1024 ? 1024 : per;
    p->nchunks = (nrows + p->chunk - 1) / p->chunk;
    p->size = size;
}

static long plan_count(const plan *p, int rank)
{
    return p->nchunks > rank ? (p->nchunks - rank + p->size - 1) / p->size : 0;
}

/* Rows [*lo, *hi) of chunk j. */
static void plan_rows(const plan *p, long j, long *lo, long *hi)
{
    *lo = j * p->chunk;
    *hi = *lo + p->chunk < p->nrows ? *lo + p->chunk : p->nrows;
}

/* Rank 0 to a rank, before the work: the plan, then (when the rank has the
 * memory) the header, the byte counts of its chunks and their rows. */
typedef struct work_meta {
    long nrows;              /* -1: nothing to do (the input has no rows) */
    long head;               /* bytes of the header */
    long rows;               /* bytes of the rank's rows, all chunks */
} work_meta;

/* A rank to rank 0, after the work. */
typedef struct work_done {
    int rc;                  /* the first failure, in chunk order */
    long fail_chunk;
    rf_err err;
    long rows, errors;
} work_done;

/* Progress of a rank's chunks: rows of the chunks done before, plus the
 * current chunk's. */
typedef struct chunk_progress {
    rf_progress *pg;
    long base;
} chunk_progress;

static void on_rows(long done, void *arg)
{
    chunk_progress *cp = arg;
    rf_progress_update(cp->pg, cp->base + done);
}

/* Estimate one text (a header and rows lo.. of the input) into a
 * malloc'ed output. */
static void run_block(const char *text, size_t n, long loff, const char *in_name,
                      const rf_batch_opts *opts, chunk_progress *cp, work_done *d, char **out,
                      size_t *out_len)
{
    memset(d, 0, sizeof *d);
    *out = NULL;
    *out_len = 0;
    FILE *in = fmemopen((void *)text, n, "r");
    FILE *o = open_memstream(out, out_len);
    if (!in || !o) {
        d->rc = rf_err_set(&d->err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
    } else {
        rf_batch_drive dr = {.line_offset = loff,
                             .progress = cp && cp->pg && cp->pg->f ? on_rows : NULL,
                             .progress_arg = cp};
        rf_batch_stats st;
        d->rc = rf_batch_run_drive(in, in_name, o, opts, &dr, &st, &d->err);
        d->rows = st.rows;
        d->errors = st.errors;
    }
    if (in)
        fclose(in);
    if (o && fclose(o) != 0 && !d->rc)
        d->rc = rf_err_set(&d->err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
    if (!o || d->rc) {
        free(*out);
        *out = NULL;
        *out_len = 0;
    }
}

/* Run this rank's chunks (rows of chunk k at ptr[k], len[k] bytes, after
 * the header) into one buffer, the outputs of the chunks back to back
 * (out_len[k] bytes each), each without the header but chunk 0's.  Stops at
 * the first chunk that fails (d->rc, d->fail_chunk). */
static void run_chunks(const plan *p, int rank, const char *head, size_t head_len,
                       const char *const *ptr, const long *len, const long *loff,
                       const char *in_name,
                       const rf_batch_opts *opts, rf_progress *pg, work_done *d, char **out,
                       size_t *out_size, long *out_len)
{
    memset(d, 0, sizeof *d);
    long k_n = plan_count(p, rank), most = 0;
    for (long k = 0; k < k_n; k++)
        most = len[k] > most ? len[k] : most;
    char *text = malloc(head_len + (size_t)most + 1);
    *out = NULL;
    *out_size = 0;
    FILE *o = open_memstream(out, out_size);
    if (!text || !o) {
        d->rc = rf_err_set(&d->err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
        d->fail_chunk = rank;
    }
    if (text)
        memcpy(text, head, head_len);
    chunk_progress cp = {pg, 0};
    for (long k = 0; !d->rc && k < k_n; k++) {
        long j = rank + k * p->size, lo, hi;
        plan_rows(p, j, &lo, &hi);
        memcpy(text + head_len, ptr[k], (size_t)len[k]);
        work_done cd;
        char *cout;
        size_t clen;
        (void)lo;
        run_block(text, head_len + (size_t)len[k], loff[k], in_name, opts, &cp, &cd, &cout,
                  &clen);
        size_t skip = 0;
        if (!cd.rc && j > 0) {   /* the output's header: the same in every chunk */
            rf_shard_index oix;
            cd.rc = rf_shard_index_build(cout, clen, 0, in_name, &oix, &cd.err);
            skip = oix.header_end;
            rf_shard_index_free(&oix);
        }
        if (!cd.rc && clen > skip && fwrite(cout + skip, 1, clen - skip, o) != clen - skip)
            cd.rc = rf_err_set(&cd.err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
        free(cout);
        if (cd.rc) {
            d->rc = cd.rc;
            d->err = cd.err;
            d->fail_chunk = j;
            break;
        }
        out_len[k] = (long)(clen - skip);
        d->rows += cd.rows;
        d->errors += cd.errors;
        cp.base += hi - lo;
    }
    if (o && fclose(o) != 0 && !d->rc) {
        d->rc = rf_err_set(&d->err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
        d->fail_chunk = rank;
    }
    if (!o) {
        free(*out);
        *out = NULL;
    }
    free(text);
}

static int send_bytes(const char *p, long n, int to, int tag)
{
    return send_wait(p, (int)n, MPI_CHAR, to, tag);
}

static int recv_bytes(char *p, long n, int from, int tag)
{
    return recv_wait(p, (int)n, MPI_CHAR, from, tag);
}

static int send_longs(const long *p, long n, int to, int tag)
{
    return n > 0 ? send_wait(p, (int)n, MPI_LONG, to, tag) : MPI_SUCCESS;
}

static int recv_longs(long *p, long n, int from, int tag)
{
    return n > 0 ? recv_wait(p, (int)n, MPI_LONG, from, tag) : MPI_SUCCESS;
}

/* Rank 0's side: read, split, send, run its chunks, gather, write. */
static int batch_root(const rf_mpi *m, const char *in_path, const char *in_name,
                      const char *out_path, const rf_batch_opts *opts, FILE *progress,
                      rf_batch_stats *st, rf_err *err)
{
    char *text = NULL;
    size_t n = 0;
    rf_shard_index ix;
    memset(&ix, 0, sizeof ix);
    rf_outfile of;
    int have_of = 0;
    FILE *in = stdin;
    int rc = RF_OK;
    if (strcmp(in_path, "-") != 0 && rf_file_open(in_path, &in, err)) {
        err->code = RF_EUSAGE;   /* an unreadable input is bad input */
        rc = RF_EUSAGE;
    }
    if (!rc) {
        rc = read_all(in, in_name, &text, &n, err);
        if (in != stdin)
            fclose(in);
    }
    if (!rc)
        rc = rf_shard_index_build(text, n, -1, in_name, &ix, err);
    if (!rc && n > INT_MAX)
        rc = rf_err_set(err, RF_ELIMIT, in_name, 0, 0, NULL,
                        "%zu bytes: an MPI batch input is at most %d bytes (split the file)", n,
                        INT_MAX);
    if (!rc && out_path) {
        rc = rf_outfile_open(&of, out_path, err);
        have_of = !rc;
    }
    int go = rc;
    bcast_wait(&go);
    if (go) {
        free(text);
        rf_shard_index_free(&ix);
        return rc;
    }

    /* Without rows (or without a header) rank 0 runs the whole text alone. */
    int whole = ix.header_end == 0 || ix.nrows == 0;
    plan p;
    plan_make(&p, whole ? 0 : ix.nrows, m->size);
    long kmax = plan_count(&p, 0);
    const char **ptr = calloc((size_t)kmax + 1, sizeof *ptr);
    long *len = calloc((size_t)kmax + 1, sizeof *len);
    long *all_len = calloc((size_t)p.nchunks + 1, sizeof *all_len);   /* outputs, chunk j */
    long *all_loff = calloc((size_t)p.nchunks + 1, sizeof *all_loff);  /* line offsets */
    long *loff = calloc((size_t)kmax + 1, sizeof *loff);
    if (!ptr || !len || !all_len || !all_loff || !loff)   /* a few words a chunk */
        whole = 1;
    /* Physical lines between the header and each chunk's first row: the
     * chunks are contiguous and in order, so one pass counts them all. */
    if (!whole) {
        size_t at = ix.header_end;
        long lines = 0;
        for (long j = 0; j < p.nchunks; j++) {
            long lo, hi;
            size_t from, to;
            plan_rows(&p, j, &lo, &hi);
            rf_shard_bytes(&ix, lo, hi, &from, &to);
            for (; at < from; at++)
                lines += text[at] == '\n';
            all_loff[j] = lines;
        }
    }
    for (int r = 1; r < m->size; r++) {
        work_meta wm = {whole ? -1 : ix.nrows, (long)ix.header_end, 0};
        long k_n = whole ? 0 : plan_count(&p, r);
        for (long k = 0; k < k_n; k++) {
            long lo, hi;
            size_t from, to;
            plan_rows(&p, r + k * m->size, &lo, &hi);
            rf_shard_bytes(&ix, lo, hi, &from, &to);
            ptr[k] = text + from;
            len[k] = (long)(to - from);
            loff[k] = all_loff[r + k * m->size];
            wm.rows += len[k];
        }
        send_wait(&wm, (int)sizeof wm, MPI_BYTE, r, TAG_META);
        int ready;   /* the rank has the memory for its rows */
        recv_wait(&ready, 1, MPI_INT, r, TAG_META);
        if (ready && !whole) {
            send_bytes(text, wm.head, r, TAG_HEAD);
            send_longs(len, k_n, r, TAG_ROWS);
            send_longs(loff, k_n, r, TAG_ROWS);
            for (long k = 0; k < k_n; k++)
                send_bytes(ptr[k], len[k], r, TAG_ROWS);
        }
    }

    /* Rank 0's own chunks. */
    rf_progress pg;
    work_done d0;
    char *out0 = NULL;
    size_t out0_size = 0;
    long *out0_len = calloc((size_t)kmax + 1, sizeof *out0_len);
    if (whole) {
        rf_progress_start(&pg, progress, "batch", "rows", ix.nrows);
        chunk_progress cp = {&pg, 0};
        run_block(text, n, 0, in_name, opts, &cp, &d0, &out0, &out0_size);
        d0.fail_chunk = 0;
    } else {
        long mine = 0;
        for (long k = 0; k < kmax; k++) {
            long lo, hi;
            size_t from, to;
            plan_rows(&p, k * m->size, &lo, &hi);
            rf_shard_bytes(&ix, lo, hi, &from, &to);
            ptr[k] = text + from;
            len[k] = (long)(to - from);
            loff[k] = all_loff[k * m->size];
            mine += hi - lo;
        }
        rf_progress_start(&pg, progress, "batch (rank 0's rows)", "rows", mine);
        if (out0_len)
            run_chunks(&p, 0, text, ix.header_end, ptr, len, loff, in_name, opts, &pg, &d0, &out0,
                       &out0_size, out0_len);
        else
            d0.rc = rf_err_set(&d0.err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
    }
    rf_progress_end(&pg);
    free(text);
    free(ptr);
    free(len);
    rf_shard_index_free(&ix);

    /* The first failure in chunk order is the one a single process meets. */
    rc = d0.rc;
    long fail = d0.rc ? d0.fail_chunk : -1;
    if (rc)
        *err = d0.err;
    st->rows = d0.rows;
    st->errors = d0.errors;
    /* A rank that succeeded sends the sizes of its chunks' outputs. */
    long bigmost = 0;
    for (int r = 1; r < m->size; r++) {
        work_done d;
        recv_wait(&d, (int)sizeof d, MPI_BYTE, r, TAG_META);
        if (d.rc && (fail < 0 || d.fail_chunk < fail)) {
            rc = d.rc;
            fail = d.fail_chunk;
            *err = d.err;
        }
        st->rows += d.rows;
        st->errors += d.errors;
        long k_n = whole ? 0 : plan_count(&p, r);
        if (!d.rc && k_n > 0) {
            long *l = malloc((size_t)k_n * sizeof *l);   /* the rank's order, then by chunk */
            /* Without l the message is still taken (all_len has room for it). */
            recv_longs(l ? l : all_len, k_n, r, TAG_ROWS);
            for (long k = 0; l && k < k_n; k++) {
                all_len[r + k * m->size] = l[k];
                bigmost = l[k] > bigmost ? l[k] : bigmost;
            }
            if (!l && !rc)
                rc = rf_err_set(err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
            free(l);
        }
    }
    char *buf = !rc && !whole ? malloc((size_t)bigmost + 1) : NULL;
    if (!rc && !whole && !buf)
        rc = rf_err_set(err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
    int want = !rc && !whole;
    for (int r = 1; r < m->size; r++)
        send_wait(&want, 1, MPI_INT, r, TAG_META);
    FILE *out = have_of ? of.fp : stdout;
    if (!rc && whole && out0_size && fwrite(out0, 1, out0_size, out) != out0_size)
        rc = rf_err_set(err, RF_EIO, out_path, 0, 0, NULL, "cannot write: %s", strerror(errno));
    if (want) {
        size_t off0 = 0;
        for (long j = 0; j < p.nchunks; j++) {
            int owner = (int)(j % m->size);
            const char *src = buf;
            size_t sz;
            if (owner == 0) {
                src = out0 + off0;
                sz = (size_t)out0_len[j / m->size];
                off0 += sz;
            } else {
                sz = (size_t)all_len[j];
                recv_bytes(buf, (long)sz, owner, TAG_OUT);
            }
            if (!rc && sz && fwrite(src, 1, sz, out) != sz)
                rc = rf_err_set(err, RF_EIO, out_path, 0, 0, NULL, "cannot write: %s",
                                strerror(errno));
        }
    }
    free(buf);
    free(all_len);
    free(all_loff);
    free(loff);
    free(out0);
    free(out0_len);
    if (have_of) {
        int crc = rf_outfile_close(&of, !rc, rc ? NULL : err);
        if (!rc)
            rc = crc;
    } else if (fflush(stdout) != 0 && !rc) {
        rc = rf_err_set(err, RF_EIO, NULL, 0, 0, NULL, "cannot write the output: %s",
                        strerror(errno));
    }
    return rc;
}

/* Another rank's side: receive its chunks, run them, send the outputs. */
static int batch_peer(const rf_mpi *m, const char *in_name, const rf_batch_opts *opts)
{
    int go;
    bcast_wait(&go);
    if (go)
        return go;
    work_meta wm;
    recv_wait(&wm, (int)sizeof wm, MPI_BYTE, 0, TAG_META);
    plan p;
    plan_make(&p, wm.nrows > 0 ? wm.nrows : 0, m->size);
    long k_n = wm.nrows > 0 ? plan_count(&p, m->rank) : 0;
    char *head = malloc((size_t)wm.head + 1), *rows = malloc((size_t)wm.rows + 1);
    long *len = malloc(((size_t)k_n + 1) * sizeof *len);
    long *loff = malloc(((size_t)k_n + 1) * sizeof *loff);
    long *out_len = malloc(((size_t)k_n + 1) * sizeof *out_len);
    const char **ptr = malloc(((size_t)k_n + 1) * sizeof *ptr);
    int ready = head && rows && len && loff && out_len && ptr;
    send_wait(&ready, 1, MPI_INT, 0, TAG_META);
    work_done d;
    memset(&d, 0, sizeof d);
    char *out = NULL;
    size_t out_size = 0;
    if (!ready) {
        d.rc = rf_err_set(&d.err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
        d.fail_chunk = m->rank;
    } else if (wm.nrows > 0) {
        recv_bytes(head, wm.head, 0, TAG_HEAD);
        recv_longs(len, k_n, 0, TAG_ROWS);
        recv_longs(loff, k_n, 0, TAG_ROWS);
        long off = 0;
        for (long k = 0; k < k_n; k++) {
            recv_bytes(rows + off, len[k], 0, TAG_ROWS);
            ptr[k] = rows + off;
            off += len[k];
        }
        run_chunks(&p, m->rank, head, (size_t)wm.head, ptr, len, loff, in_name, opts, NULL, &d, &out,
                   &out_size, out_len);
    }
    free(head);
    free(rows);
    free(len);
    free(loff);
    free(ptr);
    send_wait(&d, (int)sizeof d, MPI_BYTE, 0, TAG_META);
    if (!d.rc)
        send_longs(out_len, k_n, 0, TAG_ROWS);
    int want;
    recv_wait(&want, 1, MPI_INT, 0, TAG_META);
    if (want) {
        size_t off = 0;
        for (long k = 0; k < k_n; k++) {
            send_bytes(out + off, out_len[k], 0, TAG_OUT);
            off += (size_t)out_len[k];
        }
    }
    free(out);
    free(out_len);
    return d.rc;
}

int rf_mpi_batch(const rf_mpi *m, const char *in_path, const char *in_name,
                 const char *out_path, const rf_batch_opts *opts, FILE *progress,
                 rf_batch_stats *st, rf_err *err)
{
    memset(st, 0, sizeof *st);
    if (m->rank == 0)
        return batch_root(m, in_path, in_name, out_path, opts, progress, st, err);
    int rc = batch_peer(m, in_name, opts);
    if (rc)
        rf_err_set(err, rc, NULL, 0, 0, NULL, "reported by rank 0");
    return rc;
}

int rf_mpi_agree(const rf_mpi *m, int ok)
{
    if (m->size <= 1)
        return ok;
    MPI_Request rq;
    if (MPI_Iallreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &rq) !=
            MPI_SUCCESS ||
        wait_req(&rq) != MPI_SUCCESS)
        return 0;
    return ok;
}

int rf_mpi_gather_items(const rf_mpi *m, void *items, size_t item_size, int n, int ok,
                        rf_err *err)
{
    if (m->size <= 1)
        return ok ? RF_OK : rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    int all = ok && item_size <= INT_MAX;
    MPI_Request rq;
    if (MPI_Iallreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &rq) !=
            MPI_SUCCESS ||
        wait_req(&rq) != MPI_SUCCESS)
        return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, NULL, "MPI transfer failed");
    if (!all)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    for (int i = 0; i < n; i++) {
        int owner = i % m->size;
        char *it = (char *)items + (size_t)i * item_size;
        int mrc = MPI_SUCCESS;
        if (owner == 0)
            continue;
        if (m->rank == owner)
            mrc = send_wait(it, (int)item_size, MPI_BYTE, 0, TAG_ITEM);
        else if (m->rank == 0)
            mrc = recv_wait(it, (int)item_size, MPI_BYTE, owner, TAG_ITEM);
        if (mrc != MPI_SUCCESS)
            return rf_err_set(err, RF_EINTERNAL, NULL, 0, 0, NULL, "MPI transfer failed");
    }
    return RF_OK;
}

#else /* !RF_HAVE_MPI: one process, rank 0 of 1. */

int rf_mpi_status(const rf_mpi *m, int status)
{
    (void)m;
    return status;
}

int rf_mpi_batch(const rf_mpi *m, const char *in_path, const char *in_name,
                 const char *out_path, const rf_batch_opts *opts, FILE *progress,
                 rf_batch_stats *st, rf_err *err)
{
    (void)m, (void)in_path, (void)out_path, (void)opts, (void)progress, (void)st;
    return rf_err_set(err, RF_EINTERNAL, in_name, 0, 0, NULL, "rfkit was built without MPI");
}

int rf_mpi_agree(const rf_mpi *m, int ok)
{
    (void)m;
    return ok;
}

int rf_mpi_gather_items(const rf_mpi *m, void *items, size_t item_size, int n, int ok,
                        rf_err *err)
{
    (void)m, (void)items, (void)item_size, (void)n;
    /* One rank holds every item already. */
    return ok ? RF_OK : rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
}

#endif

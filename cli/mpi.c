/* mpi.c - batch and calibrate over MPI ranks (see mpi.h).
 *
 * batch: rank 0 holds the whole input and, one block at a time, the
 * outputs of the other ranks; a rank holds its block and its output.  The
 * split is by rows (contiguous blocks, sizes within one row), not by cost:
 * rows of one kernel cost alike, and a block of neighbouring rows keeps
 * the kernels a rank characterises few.  Line numbers in the error column
 * stay those of the whole file (rf_batch_drive.row_offset).
 *
 * Every rank takes part in every exchange whatever happened before it, so
 * that a failure on one rank (a bad header, an unwritable output) ends the
 * job with rank 0's message instead of a hang. */
#include "mpi.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
    fprintf(stderr, "rfkit: note: built without MPI: every process the launcher started runs "
                    "the whole command\n");
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

int rf_mpi_status(const rf_mpi *m, int status)
{
    if (m->active && m->size > 1)
        MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
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

/* What a rank tells rank 0 about its block. */
typedef struct block_meta {
    long lo, hi;             /* rows */
    long head, rows;         /* bytes of the header and of the rows sent */
} block_meta;

typedef struct block_done {
    int rc;
    long rows, errors;
    long out_len;
    rf_err err;
} block_done;

static void on_rows(long done, void *arg)
{
    rf_progress_update(arg, done);
}

/* Estimate one block: text[0, n) is a header and rows lo.. of the input. */
static void run_block(const char *text, size_t n, long lo, const char *in_name,
                      const rf_batch_opts *opts, rf_progress *pg, block_done *d, char **out,
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
        rf_batch_drive dr = {lo, pg ? on_rows : NULL, pg};
        rf_batch_stats st;
        d->rc = rf_batch_run_drive(in, in_name, o, opts, &dr, &st, &d->err);
        d->rows = st.rows;
        d->errors = st.errors;
    }
    if (in)
        fclose(in);
    if (o && fclose(o) != 0 && !d->rc)
        d->rc = rf_err_set(&d->err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
    if (!o) {
        free(*out);
        *out = NULL;
    }
    d->out_len = (long)*out_len;
}

static int send_bytes(const char *p, long n, int to, int tag)
{
    return MPI_Send(p, (int)n, MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

static int recv_bytes(char *p, long n, int from, int tag)
{
    return MPI_Recv(p, (int)n, MPI_CHAR, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Rank 0's side: read, split, send, run its block, gather, write. */
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
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (go) {
        free(text);
        rf_shard_index_free(&ix);
        return rc;
    }

    /* Blocks: without a header row, rank 0 runs the whole text (and reports
     * it); the others get nothing to do. */
    int whole = ix.header_end == 0;
    for (int r = 1; r < m->size; r++) {
        block_meta bm = {0, 0, 0, 0};
        size_t from = 0, to = 0;
        if (!whole) {
            rf_shard_range(ix.nrows, r, m->size, &bm.lo, &bm.hi);
            rf_shard_bytes(&ix, bm.lo, bm.hi, &from, &to);
            bm.head = (long)ix.header_end;
            bm.rows = (long)(to - from);
        }
        MPI_Send(&bm, (int)sizeof bm, MPI_BYTE, r, TAG_META, MPI_COMM_WORLD);
        int ready;   /* the rank has the memory for its block */
        MPI_Recv(&ready, 1, MPI_INT, r, TAG_META, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (ready && bm.head)
            send_bytes(text, bm.head, r, TAG_HEAD);
        if (ready && bm.rows)
            send_bytes(text + from, bm.rows, r, TAG_ROWS);
    }

    /* Rank 0's own block, as one text: its rows follow the header. */
    long lo = 0, hi = ix.nrows;
    size_t len = n;
    if (!whole) {
        size_t from, to;
        rf_shard_range(ix.nrows, 0, m->size, &lo, &hi);
        rf_shard_bytes(&ix, lo, hi, &from, &to);
        len = to;     /* rows of block 0 start right after the header */
    }
    rf_progress pg;
    rf_progress_start(&pg, progress, "batch (rank 0's block)", "rows", hi - lo);
    block_done d0;
    char *out0;
    size_t out0_len;
    run_block(text, len, 0, in_name, opts, progress ? &pg : NULL, &d0, &out0, &out0_len);
    rf_progress_end(&pg);
    free(text);
    rf_shard_index_free(&ix);

    FILE *out = have_of ? of.fp : stdout;
    rc = d0.rc;
    if (rc)
        *err = d0.err;
    st->rows = d0.rows;
    st->errors = d0.errors;
    size_t head_len = 0;
    if (!rc) {
        rf_shard_index oix;   /* the output's header: the same on every rank */
        rc = rf_shard_index_build(out0, out0_len, 0, "output", &oix, err);
        head_len = oix.header_end;
        rf_shard_index_free(&oix);
    }
    if (!rc && out0_len && fwrite(out0, 1, out0_len, out) != out0_len)
        rc = rf_err_set(err, RF_EIO, out_path, 0, 0, NULL, "cannot write: %s", strerror(errno));
    for (int r = 1; r < m->size; r++) {
        block_done d;
        MPI_Recv(&d, (int)sizeof d, MPI_BYTE, r, TAG_META, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        char *buf = d.out_len > 0 ? malloc((size_t)d.out_len) : NULL;
        int ok = d.out_len <= 0 || buf != NULL;
        int want = ok && !rc && !d.rc;
        MPI_Send(&want, 1, MPI_INT, r, TAG_META, MPI_COMM_WORLD);
        if (!ok && !rc)
            rc = rf_err_set(err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
        if (d.rc && !rc) {
            rc = d.rc;
            *err = d.err;
        }
        if (want && d.out_len > 0) {
            recv_bytes(buf, d.out_len, r, TAG_OUT);
            size_t body = (size_t)d.out_len - head_len;
            if ((size_t)d.out_len < head_len || memcmp(buf, out0, head_len) != 0)
                rc = rf_err_set(err, RF_EINTERNAL, in_name, 0, 0, NULL,
                                "rank %d wrote another header", r);
            else if (body && fwrite(buf + head_len, 1, body, out) != body)
                rc = rf_err_set(err, RF_EIO, out_path, 0, 0, NULL, "cannot write: %s",
                                strerror(errno));
            st->rows += d.rows;
            st->errors += d.errors;
        }
        free(buf);
    }
    free(out0);
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

/* Another rank's side: receive a block, run it, send the output. */
static int batch_peer(const char *in_name, const rf_batch_opts *opts)
{
    int go;
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (go)
        return go;
    block_meta bm;
    MPI_Recv(&bm, (int)sizeof bm, MPI_BYTE, 0, TAG_META, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    block_done d;
    memset(&d, 0, sizeof d);
    char *text = malloc((size_t)(bm.head + bm.rows) + 1);
    char *out = NULL;
    size_t out_len = 0;
    int ready = text != NULL;
    MPI_Send(&ready, 1, MPI_INT, 0, TAG_META, MPI_COMM_WORLD);
    if (!text) {
        d.rc = rf_err_set(&d.err, RF_ENOMEM, in_name, 0, 0, NULL, "out of memory");
    } else {
        if (bm.head)
            recv_bytes(text, bm.head, 0, TAG_HEAD);
        if (bm.rows)
            recv_bytes(text + bm.head, bm.rows, 0, TAG_ROWS);
        if (bm.head)
            run_block(text, (size_t)(bm.head + bm.rows), bm.lo, in_name, opts, NULL, &d, &out,
                      &out_len);
        free(text);
    }
    MPI_Send(&d, (int)sizeof d, MPI_BYTE, 0, TAG_META, MPI_COMM_WORLD);
    int want;
    MPI_Recv(&want, 1, MPI_INT, 0, TAG_META, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (want && d.out_len > 0)
        send_bytes(out, d.out_len, 0, TAG_OUT);
    free(out);
    return d.rc;
}

int rf_mpi_batch(const rf_mpi *m, const char *in_path, const char *in_name,
                 const char *out_path, const rf_batch_opts *opts, FILE *progress,
                 rf_batch_stats *st, rf_err *err)
{
    memset(st, 0, sizeof *st);
    if (m->rank == 0)
        return batch_root(m, in_path, in_name, out_path, opts, progress, st, err);
    int rc = batch_peer(in_name, opts);
    if (rc)
        rf_err_set(err, rc, NULL, 0, 0, NULL, "reported by rank 0");
    return rc;
}

int rf_mpi_gather_items(const rf_mpi *m, void *items, size_t item_size, int n, int ok,
                        rf_err *err)
{
    if (m->size <= 1)
        return ok ? RF_OK : rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    int all = ok && item_size <= INT_MAX;
    MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all)
        return rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
    for (int i = 0; i < n; i++) {
        int owner = i % m->size;
        char *it = (char *)items + (size_t)i * item_size;
        int mrc = MPI_SUCCESS;
        if (owner == 0)
            continue;
        if (m->rank == owner)
            mrc = MPI_Send(it, (int)item_size, MPI_BYTE, 0, TAG_ITEM, MPI_COMM_WORLD);
        else if (m->rank == 0)
            mrc = MPI_Recv(it, (int)item_size, MPI_BYTE, owner, TAG_ITEM, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE);
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

int rf_mpi_gather_items(const rf_mpi *m, void *items, size_t item_size, int n, int ok,
                        rf_err *err)
{
    (void)m, (void)items, (void)item_size, (void)n;
    /* One rank holds every item already. */
    return ok ? RF_OK : rf_err_set(err, RF_ENOMEM, NULL, 0, 0, NULL, "out of memory");
}

#endif

/* shard.h - a batch input split into shards of whole rows, for running a
 * batch over several processes (cli/mpi.c) and joining their outputs.
 *
 * A CSV text is indexed by its records as libcsv reads them (the parser
 * batch uses, so the two agree on quoted line breaks, CR, CRLF and blank
 * lines): the header is the first record, each data row the bytes from the
 * end of the record before it to the end of its own.  A shard is the header
 * followed by a contiguous block of rows; a batch run of a shard, told how
 * many physical lines lie between the header and its first row
 * (rf_batch_drive.line_offset), writes the rows it
 * would write in a run of the whole input, with the same line numbers in
 * their error messages.  The outputs of the shards in order, each after the
 * first without its header, are then the output of the whole input.
 */
#ifndef RF_SHARD_H
#define RF_SHARD_H

#include <stddef.h>
#include <stdio.h>

#include "../common/error.h"

typedef struct rf_shard_index {
    size_t header_end;   /* bytes of the header record (byte-order mark, blank
                          * lines and line break included) */
    long nrows;          /* data rows */
    size_t *row_end;     /* row i is [i ? row_end[i-1] : header_end, row_end[i]) */
} rf_shard_index;

/* Index the n bytes at buf, stopping after max_rows data rows (< 0: all).
 * An input without a header gives header_end 0 and no rows (the batch run
 * of that text reports it).  0, or RF_ENOMEM / RF_EPARSE with err naming
 * name. */
int rf_shard_index_build(const char *buf, size_t n, long max_rows, const char *name,
                         rf_shard_index *ix, rf_err *err);
void rf_shard_index_free(rf_shard_index *ix);

/* Rows [*lo, *hi) of part `part` of `parts`: contiguous blocks whose sizes
 * differ by at most one row, the larger ones first. */
void rf_shard_range(long nrows, int part, int parts, long *lo, long *hi);

/* Byte range [*from, *to) of rows [lo, hi) in the indexed text. */
void rf_shard_bytes(const rf_shard_index *ix, long lo, long hi, size_t *from, size_t *to);

/* Data rows of the CSV text read from fp to its end (the header not
 * counted): the total a progress line shows.  -1 when it cannot be read. */
long rf_shard_count_rows(FILE *fp);

#endif /* RF_SHARD_H */

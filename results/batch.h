/* batch.h - estimate a CSV of design points.
 *
 * Input: a header row, then one design point per row.  The columns are the
 * options of `rfkit estimate` (inputs/point.h: gpu (required), kernel,
 * design, calib, entry, grid, block, smem, regs, sms; threads and ctas are
 * other names for block and grid), parsed as estimate parses them, and
 * every design parameter (banks, collectors, ...).  Empty cells mean "not
 * given".  A row with a kernel is estimated as `rfkit estimate` would with
 * those options; rows naming the same kernel file, entry and launch (grid,
 * block, smem, regs) share one loaded kernel and its characteristics.  A
 * row without a kernel gets the occupancy and area of its regs, block and
 * smem.  Output: the input columns of each row, then
 * the result columns (RF_BATCH_RESULT_COLUMNS) and `error`, one row per input
 * row in input order; a row with a bad value gets its message in `error` and
 * empty results, and the rows around it are computed as usual.
 *
 * Rows are parsed by libcsv in a stream of fixed-size chunks; with jobs > 1
 * worker threads estimate chunks while one thread writes finished chunks in
 * order, so memory stays bounded by (2 jobs + 2) chunks whatever the input
 * size.  Each worker caches the GPUs, kernels (with their static
 * characteristics per SM count) and calibrations it has loaded, keyed by
 * name (kernels by file, entry and launch; characteristics and records
 * also by the SMs the grid is spread over, whose busiest SM's share a row
 * describes, as estimate's).
 */
#ifndef RF_BATCH_H
#define RF_BATCH_H

#include <stdio.h>

#include "../analytic/switching.h"
#include "../calibrate/extrapolate.h"
#include "../common/error.h"

/* The result columns, in output order: the estimate's figures, the
 * occupancy-raising designs' counters (analytic/switching.h), the register
 * cache's (calibrate/extrapolate.h), then `calibrated` and `error`; one
 * list, written out as a string (RF_BATCH_RESULT_COLUMNS) and as the
 * writer's array (results/batch.c). */
#define RF_BATCH_HEAD_COLUMNS(X)                                                \
    X(ctas_per_sm, 0) X(warps_per_sm, 0) X(occupancy, 0) X(ipc, 0) X(ipc_lo, 0)  \
    X(ipc_hi, 0) X(cycles, 0) X(energy_nj, 0) X(area_mm2, 0)
#define RF_BATCH_COLUMN_TEXT_(col, field) #col ","
#define RF_BATCH_RESULT_COLUMNS                                                 \
    RF_BATCH_HEAD_COLUMNS(RF_BATCH_COLUMN_TEXT_)                                \
    RF_SW_COUNTER_COLUMNS(RF_BATCH_COLUMN_TEXT_)                                \
    RF_RC_COUNTER_COLUMNS(RF_BATCH_COLUMN_TEXT_) "calibrated,error"

typedef struct rf_batch_opts {
    int jobs;              /* worker threads; <= 1 runs in the calling thread */
    size_t chunk_rows;     /* rows per chunk; 0 = 4096 */
    const char *calib;     /* calibration file for rows without a calib cell, or NULL */
    FILE *notes;           /* notes about GPU files (ignored options), or NULL */
} rf_batch_opts;

typedef struct rf_batch_stats {
    long rows;             /* data rows */
    long errors;           /* rows with an error */
} rf_batch_stats;

/* Read CSV from in (in_name for messages), write results to out.  Returns 0
 * (row errors are in the output), RF_EPARSE / RF_EUNKNOWN for a bad header
 * or malformed CSV, RF_EIO / RF_ENOMEM for failures. */
int rf_batch_run(FILE *in, const char *in_name, FILE *out, const rf_batch_opts *opts,
                 rf_batch_stats *stats, rf_err *err);

/* What a driver of rf_batch_run may add: the place of a shard in its file
 * and a progress report. */
typedef struct rf_batch_drive {
    long line_offset;      /* physical lines between the header and the first row
                            * read, when the input is a shard of a larger file
                            * (results/shard.h): line numbers in messages are
                            * those of the whole file */
    void (*progress)(long rows_done, void *arg); /* after each chunk written, or NULL */
    void *progress_arg;
    /* Called once the header is read and accepted, with its column names,
     * before the output's header is written and before any row runs; a
     * negative return (err filled) stops the run with that code.  NULL:
     * none.  (rfkit batch --plot checks its column names here.) */
    int (*header)(const char *const *names, int n, void *arg, rf_err *err);
    void *header_arg;
} rf_batch_drive;

/* rf_batch_run with drive (NULL: none). */
int rf_batch_run_drive(FILE *in, const char *in_name, FILE *out, const rf_batch_opts *opts,
                       const rf_batch_drive *drive, rf_batch_stats *stats, rf_err *err);

#endif /* RF_BATCH_H */

/* batchplot.h - `rfkit batch IN.csv -o OUT.csv --plot X,Y[,GROUP]`: a chart
 * of two columns of a batch output, drawn by results/plot.h.
 *
 * X and Y name columns of the output: the input's columns as its header
 * spells them (banks, design, kernel, ...) or result columns (ipc,
 * energy_nj, area_mm2, ...; RF_BATCH_RESULT_COLUMNS).  GROUP, when given,
 * names a third column whose distinct values are the series.  The names are
 * checked against the input's header before any row runs.
 *
 * The chart is drawn from OUT once it is complete, so a run over MPI ranks
 * draws it as one process does (rank 0, from the file it wrote).  Its files
 * lie next to OUT, named after OUT less its last extension (STEM):
 * DIR/STEM.dat, DIR/STEM.gp, and DIR/STEM.png when gnuplot ran.
 *
 * Rows charted: every row whose `error` cell is empty, whose Y is a number
 * and whose X (and GROUP) is not empty; the others are left out and counted.
 *
 * Style.  With GROUP: one line per group value over a numeric X (IPC
 * against banks per design), or points in the group's colour when a group
 * holds two rows with the same X (several kernels: a line through them
 * would zigzag).  Without GROUP: a scatter of the rows with
 * their Pareto front marked, the points no other point beats on both a
 * lower X and a higher Y (energy_nj,ipc: less energy, more IPC; an X where
 * higher is better needs its Y negated by hand).  A text X (design,
 * kernel) is a category: clustered bars, one bar per series.
 */
#ifndef RF_BATCHPLOT_H
#define RF_BATCHPLOT_H

#include "../common/error.h"

typedef struct rf_batchplot {
    char *x, *y, *group;   /* column names; group NULL when not given */
    char *dir;             /* OUT's folder ("." when OUT names none) */
    char *stem;            /* OUT's file name less its last extension */
} rf_batchplot;

typedef struct rf_batchplot_result {
    int points;            /* rows charted */
    int left_out;          /* rows with an error or without a value to chart */
    int drawn;             /* DIR/STEM.png written by gnuplot */
    char why[512];         /* not drawn: the reason and the command that draws it */
} rf_batchplot_result;

/* Parse spec ("X,Y" or "X,Y,GROUP") for the output file out_path.
 * RF_EUSAGE naming the command line's field "plot" when the spec is not two
 * or three non-empty names, when OUT's name gives no usable stem (letters,
 * digits, '_', '-', '.'), when OUT ends in .dat, .gp or .png (the chart's
 * files would replace it), or when OUT exists and is not a regular file
 * (the chart is read back from it); RF_ENOMEM.  *bp is freed on failure. */
int rf_batchplot_init(rf_batchplot *bp, const char *spec, const char *out_path, rf_err *err);
void rf_batchplot_free(rf_batchplot *bp);

/* Are X, Y and GROUP columns of the output of an input whose header is
 * names[0..n)?  0, or RF_EUSAGE naming the first that is not, with the
 * output's columns listed. */
int rf_batchplot_check(const rf_batchplot *bp, const char *const *names, int n, rf_err *err);

/* rf_batchplot_check against the header of the CSV file in_path (for runs
 * that do not parse the input themselves first).  0, the check's code, or
 * RF_EIO / RF_EPARSE / RF_ELIMIT naming in_path. */
int rf_batchplot_check_file(const rf_batchplot *bp, const char *in_path, rf_err *err);

/* Read the batch output out_path and write the chart (results/plot.h).
 * With no row to chart nothing is written and res->points is 0.  0, or
 * RF_EIO / RF_EPARSE / RF_ELIMIT / RF_ENOMEM with err filled. */
int rf_batchplot_draw(const rf_batchplot *bp, const char *out_path, rf_batchplot_result *res,
                      rf_err *err);

#endif /* RF_BATCHPLOT_H */

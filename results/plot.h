/* plot.h - charts drawn by gnuplot, driven from C: rfkit writes a data file
 * and a script, then runs `gnuplot` when it is on the PATH (Debian
 * gnuplot-nox, pngcairo terminal).  Without gnuplot the data and the script
 * stay, and the caller tells the user the command that draws them.
 *
 * Files, for a plot with stem S in folder DIR:
 *     DIR/S.dat   one block per series (group), blocks separated by two
 *                 blank lines, each line "x y" (x quoted when categorical)
 *     DIR/S.gp    the gnuplot script; `gnuplot S.gp` run in DIR draws S.png
 *     DIR/S.png   the chart (only when gnuplot ran)
 *
 * x values are text: when every x parses as a number the axis is numeric
 * (lines or points, optional log scale), otherwise x is a category and the
 * chart is clustered bars, categories in first-seen order.  Series are the
 * distinct group values in first-seen order (one series when group is NULL).
 */
#ifndef RF_PLOT_H
#define RF_PLOT_H

#include <stdbool.h>

#include "../common/error.h"

typedef enum rf_plot_style {
    RF_PLOT_LINES,     /* numeric x: lines with points */
    RF_PLOT_POINTS,    /* numeric x: points only (scatter) */
    RF_PLOT_BARS       /* categorical x: clustered bars (forced for text x) */
} rf_plot_style;

typedef struct rf_plot {
    const char *stem;      /* file stem, [A-Za-z0-9_.-] only */
    const char *title;
    const char *xlabel, *ylabel;
    rf_plot_style style;
    bool logx;             /* log2 x axis (banks 4..32) */
    bool pareto;           /* mark the Pareto front: lowest x, highest y */
    bool has_ref;          /* draw a horizontal reference line at ref_y */
    double ref_y;          /* e.g. 1.0 for "IPC / baseline" */
} rf_plot;

/* n points: x[i] (text), y[i], group[i] (text; group may be NULL).
 * Writes DIR/stem.dat and DIR/stem.gp atomically; runs gnuplot when found
 * and sets *drawn (1: DIR/stem.png written, 0: gnuplot absent or failed,
 * with a one-line reason in why[0..why_cap)).  RF_EIO / RF_ENOMEM with err
 * filled when the files cannot be written. */
int rf_plot_write(const char *dir, const rf_plot *p, int n, const char *const *x,
                  const double *y, const char *const *group, int *drawn, char *why,
                  size_t why_cap, rf_err *err);

/* 1 when a gnuplot with the pngcairo terminal is on the PATH. */
int rf_plot_available(void);

#endif /* RF_PLOT_H */

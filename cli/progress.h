/* progress.h - the progress line of long commands (batch, calibrate,
 * reproduce, simulate): on a terminal, one line on stderr rewritten in
 * place,
 *     "batch: 12288/200000 rows (6%), 5321 rows/s, ETA 35s"
 *     "simulate: 812/4096 CTAs (19%), 1377 CTAs/s, ETA 2s"
 * with a rate and an estimated time left: the rate is that of the whole
 * run so far, the ETA the units left at that rate.
 * Piped or redirected, commands stay quiet: rf_progress_stream gives NULL
 * and every call below does nothing. */
#ifndef RF_PROGRESS_H
#define RF_PROGRESS_H

#include <stdio.h>

typedef struct rf_progress {
    FILE *f;              /* NULL: quiet */
    const char *what;     /* "batch" */
    const char *unit;     /* "rows" */
    long total;           /* units in all; <= 0 when unknown (no percentage, no ETA) */
    double t0;            /* seconds (monotonic clock) at the start */
    double last;          /* when the line was last drawn */
    double every;         /* seconds between drawings at least (0.2; 0: every update) */
    int shown;            /* a line is on the terminal */
} rf_progress;

/* stderr when it is a terminal, else NULL. */
FILE *rf_progress_stream(void);

void rf_progress_start(rf_progress *p, FILE *f, const char *what, const char *unit, long total);

/* done units so far; drawn at most once per `every` seconds, and at the end. */
void rf_progress_update(rf_progress *p, long done);

/* End the line (a line break after the last drawing). */
void rf_progress_end(rf_progress *p);

#endif /* RF_PROGRESS_H */

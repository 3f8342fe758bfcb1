/* progress.c - the progress line of long commands (see progress.h). */
#include "progress.h"

#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

FILE *rf_progress_stream(void)
{
    return isatty(STDERR_FILENO) ? stderr : NULL;
}

void rf_progress_start(rf_progress *p, FILE *f, const char *what, const char *unit, long total)
{
    p->f = f;
    p->what = what;
    p->unit = unit;
    p->total = total;
    p->t0 = now_s();
    p->last = -1.0;
    p->every = 0.2;
    p->shown = 0;
}

/* "1h02m", "3m05s", "42s". */
static void fmt_time(char *buf, size_t n, double s)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60)
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, n, "%lds", t);
}

void rf_progress_update(rf_progress *p, long done)
{
    if (!p->f)
        return;
    double t = now_s();
    int final = p->total > 0 && done >= p->total;
    if (!final && p->last >= 0 && t - p->last < p->every)
        return;
    p->last = t;
    double el = t - p->t0;
    double rate = el > 0 ? (double)done / el : 0.0;
    char eta[32] = "";
    if (p->total > 0 && rate > 0) {
        char left[24];
        fmt_time(left, sizeof left, final ? el : (double)(p->total - done) / rate);
        snprintf(eta, sizeof eta, ", %s %s", final ? "took" : "ETA", left);
    }
    if (p->total > 0)
        fprintf(p->f, "\r%s: %ld/%ld %s (%d%%), %.4g %s/s%s   ", p->what, done, p->total, p->unit,
                (int)(100.0 * (double)done / (double)p->total), rate, p->unit, eta);
    else
        fprintf(p->f, "\r%s: %ld %s, %.4g %s/s   ", p->what, done, p->unit, rate, p->unit);
    fflush(p->f);
    p->shown = 1;
}

void rf_progress_end(rf_progress *p)
{
    if (p->f && p->shown) {
        fputc('\n', p->f);
        fflush(p->f);
    }
    p->shown = 0;
}

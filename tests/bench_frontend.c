/* bench_frontend.c - speed of the kernel front end: PTX parsing plus
 * register allocation of every bundled kernel, and the SASS and dot
 * readers on the fixtures.  Prints instructions per second. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../inputs/kir.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int bench(const char *pattern, int reps, bool alloc)
{
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0) {
        printf("%-28s no files\n", pattern);
        return 0;
    }
    long insts = 0;
    double t0 = now();
    for (int r = 0; r < reps; r++) {
        for (size_t i = 0; i < g.gl_pathc; i++) {
            rf_module *m;
            rf_err err = {0};
            if (rf_module_load(g.gl_pathv[i], &m, &err)) {
                fprintf(stderr, "%s\n", err.msg);
                globfree(&g);
                return 1;
            }
            for (int f = 0; f < m->nfuncs; f++) {
                insts += m->funcs[f].ninsts;
                rf_func *p;
                if (alloc && !m->funcs[f].physical &&
                    rf_regalloc(&m->funcs[f], &p, &err) == 0)
                    rf_func_destroy(p);
            }
            rf_module_destroy(m);
        }
    }
    double dt = now() - t0;
    printf("%-28s %3zu files x %3d  %8ld insts  %7.3f s  %10.0f insts/s\n",
           pattern, g.gl_pathc, reps, insts, dt, dt > 0 ? (double)insts / dt : 0.0);
    globfree(&g);
    return 0;
}

int main(void)
{
    int rc = 0;
    rc |= bench("inputs/kernels/*.ptx", 20, false);
    rc |= bench("inputs/kernels/*.ptx", 20, true);
    rc |= bench("tests/fixtures/*.sass", 200, false);
    rc |= bench("tests/fixtures/*.dot", 200, false);
    return rc;
}

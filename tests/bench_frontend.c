/* bench_frontend.c - speed of the kernel front end: PTX parsing plus
 * register allocation of every bundled kernel, and the SASS and dot
 * readers on the fixtures (instructions per second); then a PTX module of
 * 213 generated entries analysed end to end (`rfkit analyze`, one entry)
 * with ptxas's count compiled for the whole module (as rfkit once did),
 * for the one entry, and from the cache. */
#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../inputs/kir.h"
#include "../inputs/ptxas.h"
#include "support/ptxgen.h"

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

/* Seconds `rfkit ARGS` takes, output dropped; -1 when it fails. */
static double time_rfkit(const char *rfkit, const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s > /dev/null", rfkit, args);
    double t0 = now();
    int st = system(cmd);
    double dt = now() - t0;
    return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? dt : -1;
}

/* The 213-entry module: the ptxas -v call took 1.2 s on one of
 * 213 entries for a 0.07 s analysis. */
static int bench_many_entries(const char *rfkit)
{
    char dir[] = "/tmp/rfkit_bench_XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char ptx[128], cache[128], args[512], cmd[256];
    snprintf(ptx, sizeof ptx, "%s/many.ptx", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    char *text = rf_test_ptx_entries(213);
    int rc = !text || rf_test_write_file(ptx, text) ? 1 : 0;
    free(text);
    rf_ptxas_how how;
    double t0 = now();
    int whole = rc ? -1 : rf_ptxas_regs(ptx, "sm_75", NULL, "", &how);
    double t_whole = now() - t0;
    t0 = now();
    int one = rc ? -1 : rf_ptxas_regs(ptx, "sm_75", "k100", "", &how);
    double t_one = now() - t0;
    if (whole < 0) {
        printf("213-entry PTX: no ptxas on PATH; only rfkit's own analysis timed\n");
    } else {
        printf("213-entry PTX: ptxas -v whole module %.3f s, -e k100 %.3f s (k100: %d "
               "registers)\n", t_whole, t_one, one);
    }
    /* End to end, one entry: rfkit alone, then with ptxas cold and warm. */
    snprintf(args, sizeof args, "analyze %s --entry k100 --no-ptxas --csv", ptx);
    double t_none = rc ? -1 : time_rfkit(rfkit, args);
    snprintf(args, sizeof args, "analyze %s --entry k100 --csv", ptx);
    setenv("XDG_CACHE_HOME", cache, 1);
    double t_cold = rc ? -1 : time_rfkit(rfkit, args);
    double t_warm = rc ? -1 : time_rfkit(rfkit, args);
    printf("rfkit analyze (entry k100): no ptxas %.3f s, ptxas cold %.3f s, cached %.3f s "
           "(target < 0.2 s)\n", t_none, t_cold, t_warm);
    if (t_none < 0 || t_cold < 0 || t_warm < 0)
        rc = 1;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}

int main(int argc, char **argv)
{
    (void)argc;
    /* argv[0] = BUILD/tests/bench_frontend -> BUILD/rfkit */
    char rfkit[512];
    snprintf(rfkit, sizeof rfkit, "%s", argv[0]);
    char *slash = strrchr(rfkit, '/');
    if (slash)
        *slash = '\0';
    slash = strrchr(rfkit, '/');
    if (slash)
        snprintf(slash, sizeof rfkit - (size_t)(slash - rfkit), "/rfkit");
    else
        snprintf(rfkit, sizeof rfkit, "build/rfkit");
    int rc = 0;
    rc |= bench("inputs/kernels/*.ptx", 20, false);
    rc |= bench("inputs/kernels/*.ptx", 20, true);
    rc |= bench("tests/fixtures/*.sass", 200, false);
    rc |= bench("tests/fixtures/*.dot", 200, false);
    rc |= bench_many_entries(rfkit);
    return rc;
}

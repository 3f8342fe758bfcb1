/* benchrun.c - full sampler runs, their cache and order statistics for the
 * accuracy benches (benchrun.h). */
#include "benchrun.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../sampler/sim.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int benchrun_specs(const char *dir, char **names, int max)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len <= 5 || strcmp(e->d_name + len - 5, ".spec") != 0)
            continue;
        names[n] = malloc(len - 4);
        if (!names[n])
            break;
        memcpy(names[n], e->d_name, len - 5);
        names[n][len - 5] = '\0';
        n++;
    }
    closedir(dp);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    return n;
}

double benchrun_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double benchrun_proc_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double benchrun_wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

extern char **environ;

double benchrun_cmd_ms(char *const argv[], int reps)
{
    double best = -1;
    for (int r = 0; r < reps; r++) {
        posix_spawn_file_actions_t fa;
        if (posix_spawn_file_actions_init(&fa))
            return -1;
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        pid_t pid;
        double t0 = benchrun_wall_s();
        int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        int st = 0;
        if (rc || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
            return -1;
        double ms = 1e3 * (benchrun_wall_s() - t0);
        best = best < 0 || ms < best ? ms : best;
    }
    return best;
}

typedef struct pool {
    benchrun_point *pts;
    int n;
    int next;
    pthread_mutex_t mu;
} pool;

static void *runner(void *arg)
{
    pool *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        int i = w->next++;
        pthread_mutex_unlock(&w->mu);
        if (i >= w->n)
            return NULL;
        benchrun_point *p = &w->pts[i];
        if (p->ipc > 0)
            continue;
        rf_sim_opts o;
        rf_sim_opts_init(&o);
        o.sms = 1;
        o.seed = p->k->profile.seed;     /* the run the kernel names */
        rf_sim_stats st;
        rf_err err;
        double t0 = benchrun_cpu_s();
        p->rc = rf_sim_run(p->gpu, &p->d, p->k, &o, &st, &err);
        p->cpu_s = benchrun_cpu_s() - t0;
        if (p->rc) {
            fprintf(stderr, "bench: %s: %s\n", p->key, err.msg);
            continue;
        }
        p->ipc = st.ipc;
        p->cycles = st.cycles;
        if (p->stats)
            *p->stats = st;
    }
}

void benchrun_full(benchrun_point *pts, int n, int nthreads)
{
    if (nthreads <= 0) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = ncpu > 0 ? (int)ncpu : 2;
    }
    if (nthreads > 64)
        nthreads = 64;
    pool w = {pts, n, 0, PTHREAD_MUTEX_INITIALIZER};
    pthread_t th[64];
    int started = 0;
    for (int t = 0; t < nthreads; t++)
        if (pthread_create(&th[started], NULL, runner, &w) == 0)
            started++;
    if (started == 0)
        runner(&w);
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
}

void benchrun_key_run(benchrun_point *p, uint64_t run)
{
    size_t len = strlen(p->key);
    if (run != 1 && len < sizeof p->key)
        snprintf(p->key + len, sizeof p->key - len, "|seed=%llu", (unsigned long long)run);
}

double benchrun_retime(const benchrun_point *p)
{
    benchrun_point q = *p;
    q.ipc = 0;
    q.stats = NULL;
    benchrun_full(&q, 1, 1);
    return q.rc ? -1.0 : q.cpu_s;
}

/* Splits a cache line at its last three '|' (the key holds '|' itself):
 * ends the key with '\0' and returns the numbers, or false when the line
 * has fewer than three. */
static bool cache_split(char *line, double *ipc, unsigned long long *cyc, double *cpu)
{
    char *bar[3] = {NULL, NULL, NULL};
    for (char *c = line; *c; c++)
        if (*c == '|')
            bar[0] = bar[1], bar[1] = bar[2], bar[2] = c;
    if (!bar[0])
        return false;
    *bar[0] = '\0';
    *ipc = strtod(bar[0] + 1, NULL);
    *cyc = strtoull(bar[1] + 1, NULL, 10);
    *cpu = strtod(bar[2] + 1, NULL);
    return true;
}

int benchrun_cache_load(const char *path, benchrun_point *pts, int n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int found = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        double ipc, cpu;
        unsigned long long cyc;
        if (!cache_split(line, &ipc, &cyc, &cpu) || !(ipc > 0))
            continue;
        for (int i = 0; i < n; i++)
            if (!strcmp(pts[i].key, line)) {
                pts[i].ipc = ipc;
                pts[i].cycles = cyc;
                pts[i].cpu_s = cpu;
                pts[i].rc = 0;
                found++;
            }
    }
    fclose(f);
    return found;
}

static bool has_key(const benchrun_point *pts, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(pts[i].key, key))
            return true;
    return false;
}

int benchrun_cache_save(const char *path, const benchrun_point *pts, int n)
{
    /* Lines of points not in pts (a run limited to some kernels) stay; the
     * file is replaced whole through a temporary beside it. */
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return -1;
    FILE *out = fopen(tmp, "w");
    if (!out)
        return -1;
    FILE *in = fopen(path, "r");
    char line[512];
    while (in && fgets(line, sizeof line, in)) {
        double ipc, cpu;
        unsigned long long cyc;
        if (cache_split(line, &ipc, &cyc, &cpu) && ipc > 0 && !has_key(pts, n, line))
            fprintf(out, "%s|%.9g|%llu|%.6f\n", line, ipc, cyc, cpu);
    }
    if (in)
        fclose(in);
    for (int i = 0; i < n; i++)
        if (!pts[i].rc && pts[i].ipc > 0)
            fprintf(out, "%s|%.9g|%llu|%.6f\n", pts[i].key, pts[i].ipc,
                    (unsigned long long)pts[i].cycles, pts[i].cpu_s);
    if (fclose(out) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double benchrun_median(double *x, int n)
{
    if (n <= 0)
        return 0;
    qsort(x, (size_t)n, sizeof *x, cmp_dbl);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

bool benchrun_listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && !strncmp(p, name, n))
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

/* bench_sim.c - the sampler on the bundled kernels: seed 001's bank study
 * and the sampler's speed.
 *
 * Table 1 (seed 001 Fig. 2, Fig. 11(a), Fig. 12): full runs of every bundled
 * kernel on fermi-gtx480 (128 KB register file), straight register files of
 * 4/8/16/32 banks and 8-bank files with read stealing, write stealing and
 * both; IPC normalised to the straight 16-bank file, geometric mean over the
 * kernels.  Table 2: bank utilisation (Fig. 5: straight 16 banks), conflict
 * penalty cycles per operand read (Fig. 4, Fig. 13: inter-read and
 * inter-write, straight 8 vs stealing 8) and the write-back breakdown of the
 * stealing 8-bank file (Fig. 14).
 * Speed: simulated warp instructions per second of one core (each run is one
 * thread), peak memory (ru_maxrss), and with RF_HAVE_PAPI host instructions
 * and cycles per simulated warp instruction.
 *
 * usage: bench_sim [--gpu G] [--cycles N] [--alu-lanes N] [--alu-latency N]
 *                  [KERNEL.spec ...]
 *   (default: every inputs/kernels/ *.spec, full runs; --cycles N measures
 *   windows of N cycles instead, for a quick look; --alu-lanes/--alu-latency
 *   override the GPU's ALU figures for a what-if, e.g. 64 and 4 for
 *   GPGPU-Sim 3.x's Fermi: two SP units each taking a warp per cycle, ADD
 *   latency 4).
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#ifdef RF_HAVE_PAPI
#include <papi.h>
#endif

#include "../analytic/design.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../sampler/sim.h"

typedef struct config {
    const char *name;
    int kind, banks;
    bool rs, ws;
} config;

static const config configs[] = {
    {"str4", RF_DESIGN_BASELINE, 4, false, false},
    {"str8", RF_DESIGN_BASELINE, 8, false, false},
    {"str16", RF_DESIGN_BASELINE, 16, false, false},
    {"str32", RF_DESIGN_BASELINE, 32, false, false},
    {"8+rd", RF_DESIGN_STEALING, 8, true, false},
    {"8+wr", RF_DESIGN_STEALING, 8, false, true},
    {"8+rd+wr", RF_DESIGN_STEALING, 8, true, true},
};
#define NCONF (sizeof configs / sizeof configs[0])
#define REF 2           /* straight 16 banks */
#define STEAL8 6
#define STR8 1

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *gpu_name = "fermi-gtx480";
    uint64_t window = 0;
    int alu_lanes = 0, alu_latency = 0;
    char *specs[64];
    int nspec = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--gpu") && i + 1 < argc)
            gpu_name = argv[++i];
        else if (!strcmp(argv[i], "--cycles") && i + 1 < argc)
            window = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--alu-lanes") && i + 1 < argc)
            alu_lanes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--alu-latency") && i + 1 < argc)
            alu_latency = atoi(argv[++i]);
        else if (nspec < 64)
            specs[nspec++] = strdup(argv[i]);
    }
    if (nspec == 0) {
        DIR *dir = opendir("inputs/kernels");
        if (!dir) {
            fprintf(stderr, "bench_sim: run from the repository root (inputs/kernels)\n");
            return 1;
        }
        struct dirent *e;
        while ((e = readdir(dir)) && nspec < 64) {
            size_t n = strlen(e->d_name);
            if (n > 5 && !strcmp(e->d_name + n - 5, ".spec")) {
                char path[512];
                snprintf(path, sizeof path, "inputs/kernels/%s", e->d_name);
                specs[nspec++] = strdup(path);
            }
        }
        closedir(dir);
        qsort(specs, (size_t)nspec, sizeof specs[0], cmp_str);
    }

    rf_err err = {0};
    rf_gpu gpu;
    if (rf_gpu_load(gpu_name, &gpu, NULL, &err) < 0) {
        fprintf(stderr, "bench_sim: %s\n", err.msg);
        return 1;
    }
    if (alu_lanes > 0)
        gpu.alu_lanes = alu_lanes;
    if (alu_latency > 0)
        gpu.alu_latency = alu_latency;

#ifdef RF_HAVE_PAPI
    int papi_set = PAPI_NULL;
    bool papi = PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT &&
                PAPI_create_eventset(&papi_set) == PAPI_OK &&
                PAPI_add_event(papi_set, PAPI_TOT_INS) == PAPI_OK &&
                PAPI_add_event(papi_set, PAPI_TOT_CYC) == PAPI_OK &&
                PAPI_start(papi_set) == PAPI_OK;
    if (!papi)
        printf("PAPI: counters not available here\n");
#endif

    printf("sampler on %s (ALU %d lanes, latency %d), %s; IPC (warp instructions per cycle "
           "per SM) normalised to the straight 16-bank file\n\n", gpu.name, gpu.alu_lanes,
           gpu.alu_latency, window ? "windows" : "full runs of every CTA");
    printf("%-9s", "kernel");
    for (size_t c = 0; c < NCONF; c++)
        printf(" %8s", configs[c].name);
    printf(" %8s\n", "IPC16");

    double logsum[NCONF] = {0};
    int nk = 0;
    double secs = 0, insts = 0;
    rf_sim_stats tab2[64][3];
    char names[64][128];
    for (int s = 0; s < nspec; s++) {
        rf_kernel *k = NULL;
        rf_kernel_opts ko;
        memset(&ko, 0, sizeof ko);
        ko.no_ptxas = true;
        if (rf_kernel_load(specs[s], &ko, &k, &err) < 0) {
            printf("%-9s skipped: %s\n", specs[s], err.msg);
            continue;
        }
        rf_sim_stats st[NCONF];
        bool ok = true;
        for (size_t c = 0; c < NCONF && ok; c++) {
            rf_design d;
            rf_design_init(&d);
            d.kind = configs[c].kind;
            d.banks = configs[c].banks;
            d.read_steal = configs[c].rs;
            d.write_steal = configs[c].ws;
            rf_sim_opts o;
            rf_sim_opts_init(&o);
            o.cycles = window;
            double t0 = now_s();
            if (rf_sim_run(&gpu, &d, k, &o, &st[c], &err) < 0) {
                printf("%-9s skipped: %s\n", k->name, err.msg);
                ok = false;
                break;
            }
            secs += now_s() - t0;
            insts += (double)st[c].warp_insts;
        }
        if (ok) {
            printf("%-9s", k->name);
            for (size_t c = 0; c < NCONF; c++) {
                double r = st[c].ipc / st[REF].ipc;
                logsum[c] += log(r);
                printf(" %8.3f", r);
            }
            printf(" %8.3f\n", st[REF].ipc);
            snprintf(names[nk], sizeof names[nk], "%s", k->name);
            tab2[nk][0] = st[REF];
            tab2[nk][1] = st[STR8];
            tab2[nk][2] = st[STEAL8];
            nk++;
        }
        rf_kernel_destroy(k);
    }
    if (nk > 0) {
        printf("%-9s", "geomean");
        for (size_t c = 0; c < NCONF; c++)
            printf(" %8.3f", exp(logsum[c] / nk));
        printf("\n\n");

        printf("%-9s %7s %7s | %7s %7s %7s %7s | %7s %7s %7s %7s\n", "kernel", "util16",
               "util8s", "ird8", "iwr8", "ird8s", "iwr8s", "wb.norm", "wb.1cyc", "wb.later",
               "wb.forc");
        double u16 = 0, u8 = 0;
        for (int i = 0; i < nk; i++) {
            const rf_sim_stats *a = &tab2[i][0], *b = &tab2[i][1], *c = &tab2[i][2];
            double wb = (double)(c->wb_normal + c->wb_stolen_fast + c->wb_stolen_late +
                                 c->wb_forced);
            if (wb <= 0)
                wb = 1;
            printf("%-9s %7.3f %7.3f | %7.3f %7.3f %7.3f %7.3f | %7.3f %7.3f %7.3f %7.3f\n",
                   names[i], a->bank_util, c->bank_util, b->inter_read_penalty,
                   b->inter_write_penalty, c->inter_read_penalty, c->inter_write_penalty,
                   c->wb_normal / wb, c->wb_stolen_fast / wb, c->wb_stolen_late / wb,
                   c->wb_forced / wb);
            u16 += a->bank_util;
            u8 += c->bank_util;
        }
        printf("%-9s %7.3f %7.3f   (util: straight 16 banks, stealing 8 banks; ird/iwr: inter-read/"
               "inter-write penalty, cycles per operand read)\n\n", "mean", u16 / nk, u8 / nk);
    }

    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("speed: %.0f simulated warp instructions in %.2f s = %.2f million warp-insts/s "
           "per core; peak memory %ld KB\n", insts, secs, secs > 0 ? insts / secs / 1e6 : 0,
           ru.ru_maxrss);
#ifdef RF_HAVE_PAPI
    if (papi) {
        long long v[2] = {0, 0};
        if (PAPI_stop(papi_set, v) == PAPI_OK && insts > 0)
            printf("PAPI: %.0f host instructions and %.0f host cycles per simulated warp "
                   "instruction (host IPC %.2f)\n", v[0] / insts, v[1] / insts,
                   v[1] > 0 ? (double)v[0] / v[1] : 0);
    }
#endif
    for (int s = 0; s < nspec; s++)
        free(specs[s]);
    return 0;
}

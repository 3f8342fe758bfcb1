/* bench_energy.c - estimate's register-file energy against the sampler's
 * on the nine tuning kernels (inputs/kernels/) and the validation set
 * (inputs/validation/).
 *
 * Design points: baseline and stealing on fermi-gtx480 (seed 001), hirf on
 * volta-hirf (seed 002), rfc and ltrf on maxwell-ltrf (seed 004), each at
 * its defaults.  The sampler runs the whole grid on one SM (seed 1) and
 * reports rf_energy_nj from its own access counts (sampler/sim.c); the
 * uncalibrated estimate describes the same machine (rf_shape.sms = 1, as
 * `estimate --sms 1`).  Both price accesses with analytic/energy.c through
 * rf_energy_of_events, so a difference is a difference of counts or
 * cycles, not of energies per access.
 *
 * Columns per design and set:
 *   E mean/worst   |E_est - E_sim| / E_sim, total register-file energy;
 *   dyn mean/worst the same for the dynamic (access) energy alone;
 *   IPC mean       |IPC_est - IPC_sim| / IPC_sim (leakage follows cycles);
 *   main, cache, xbar   mean signed (est - sim) / sim dynamic energy of
 *                  each structure's accesses: which count the closed form
 *                  gets wrong;
 *   leak share     the sampler's leakage over its total energy.
 * Calibrated: the same columns for the fermi-gtx480 designs (baseline,
 * stealing) with each kernel calibrated once on fermi-gtx480 (rf_calib_run,
 * seed 1, the default budget, as bench_validation): the calibrated cycles
 * carry the leakage.  "all" then takes the calibrated figure where a record
 * applies and the uncalibrated one elsewhere (hirf, rfc, ltrf: their
 * calibrations are design-specific plans, not run here).
 * RF_BENCH_VERBOSE=1 prints every point; RF_BENCH_KERNELS=a,b limits the
 * kernels; RF_BENCH_ENERGYCACHE=FILE keeps the full runs' figures in FILE
 * (delete it when the sampler, the energy model or a kernel changes).
 * Full runs go to all cores.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analytic/kchar.h"
#include "../calibrate/calibrate.h"
#include "../calibrate/extrapolate.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "support/benchrun.h"

#define NDES 5
#define NGPU 3
#define MAXK 64

static const char *const gpu_names[NGPU] = {"fermi-gtx480", "volta-hirf", "maxwell-ltrf"};
static const struct {
    const char *label;
    int gpu;
    int kind;
} des[NDES] = {{"baseline", 0, RF_DESIGN_BASELINE},
               {"stealing", 0, RF_DESIGN_STEALING},
               {"hirf", 1, RF_DESIGN_HIRF},
               {"rfc", 2, RF_DESIGN_RFC},
               {"ltrf", 2, RF_DESIGN_LTRF}};

typedef struct kjob {
    int set;
    char *name;
    rf_kernel *k;
    rf_ipc_kernel kc[NGPU];
    benchrun_point pts[NDES];
    rf_sim_stats st[NDES];
    rf_calib cal;            /* fermi-gtx480 (gpu 0) record */
    bool have_cal;
} kjob;

typedef struct score {
    int n;
    double e_sum, e_max, d_sum, d_max, ipc_sum, main_sum, cache_sum, xbar_sum, leak_sum;
} score;

/* Cache lines: key|ipc|cycles|warp_insts|energy|dynamic|leakage|main|cache|xbar. */
static void cache_load(const char *path, kjob *jobs, int nk)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *bar = strchr(line, '|');
        for (int i = 0; bar && i < 2; i++)
            bar = strchr(bar + 1, '|');
        if (!bar)
            continue;
        *bar = '\0';
        rf_sim_stats st;
        memset(&st, 0, sizeof st);
        unsigned long long cyc, wi;
        if (sscanf(bar + 1, "%lf|%llu|%llu|%lf|%lf|%lf|%lf|%lf|%lf", &st.ipc, &cyc, &wi,
                   &st.rf_energy_nj, &st.rf_dynamic_nj, &st.rf_leakage_nj, &st.rf_main_nj,
                   &st.rf_cache_nj, &st.rf_xbar_nj) != 9 || !(st.ipc > 0))
            continue;
        st.cycles = cyc;
        st.warp_insts = wi;
        for (int i = 0; i < nk; i++)
            for (int j = 0; j < NDES; j++)
                if (!strcmp(jobs[i].pts[j].key, line)) {
                    jobs[i].st[j] = st;
                    jobs[i].pts[j].ipc = st.ipc;
                    jobs[i].pts[j].cycles = st.cycles;
                }
    }
    fclose(f);
}

static void cache_save(const char *path, const kjob *jobs, int nk)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_energy: %s: cannot write the cache\n", path);
        return;
    }
    for (int i = 0; i < nk; i++)
        for (int j = 0; j < NDES; j++) {
            const rf_sim_stats *s = &jobs[i].st[j];
            if (jobs[i].pts[j].rc || !(s->ipc > 0))
                continue;
            fprintf(f, "%s|%.9g|%llu|%llu|%.9g|%.9g|%.9g|%.9g|%.9g|%.9g\n", jobs[i].pts[j].key,
                    s->ipc, (unsigned long long)s->cycles, (unsigned long long)s->warp_insts,
                    s->rf_energy_nj, s->rf_dynamic_nj, s->rf_leakage_nj, s->rf_main_nj,
                    s->rf_cache_nj, s->rf_xbar_nj);
        }
    fclose(f);
}

/* Score design j of kj, with calibration record cal or uncalibrated (NULL). */
static void score_point(const kjob *kj, int j, const rf_gpu *gpu, const rf_calib *cal, score *sc)
{
    const rf_sim_stats *s = &kj->st[j];
    if (kj->pts[j].rc || !(s->ipc > 0) || !(s->rf_energy_nj > 0))
        return;
    rf_shape sh = {kj->k->regs, rf_kernel_threads(kj->k), kj->k->smem_static + kj->k->launch.smem,
                   rf_kernel_ctas(kj->k), 1};
    rf_estimate e;
    rf_err err;
    if (rf_extrap_estimate(gpu, &kj->pts[j].d, &kj->kc[des[j].gpu], &sh, cal, &e, &err)) {
        fprintf(stderr, "bench_energy: %s: %s\n", kj->pts[j].key, err.msg);
        return;
    }
    double ee = fabs(e.energy.total_nj - s->rf_energy_nj) / s->rf_energy_nj;
    double de = fabs(e.energy.dynamic_nj - s->rf_dynamic_nj) / s->rf_dynamic_nj;
    double ie = fabs(e.ipc - s->ipc) / s->ipc;
    double dm = (e.energy.main_nj - s->rf_main_nj) / s->rf_dynamic_nj;
    double dc = (e.energy.cache_nj - s->rf_cache_nj) / s->rf_dynamic_nj;
    double dx = (e.energy.xbar_nj - s->rf_xbar_nj) / s->rf_dynamic_nj;
    sc->n++;
    sc->e_sum += ee, sc->e_max = fmax(sc->e_max, ee);
    sc->d_sum += de, sc->d_max = fmax(sc->d_max, de);
    sc->ipc_sum += ie;
    sc->main_sum += dm, sc->cache_sum += dc, sc->xbar_sum += dx;
    sc->leak_sum += s->rf_leakage_nj / s->rf_energy_nj;
    if (getenv("RF_BENCH_VERBOSE"))
        printf("    %-10s %-14s %-8s%s E %+7.2f%% dyn %+7.2f%% ipc %+7.2f%% | main %+7.2f%% "
               "cache %+7.2f%% xbar %+7.2f%%  (sim E %.4g nJ, dyn %.4g)\n",
               kj->set ? "validation" : "tuning", kj->name, des[j].label, cal ? " cal" : "",
               100 * (e.energy.total_nj / s->rf_energy_nj - 1),
               100 * (e.energy.dynamic_nj / s->rf_dynamic_nj - 1), 100 * (e.ipc / s->ipc - 1),
               100 * dm, 100 * dc, 100 * dx, s->rf_energy_nj, s->rf_dynamic_nj);
}

int main(void)
{
    const char *dirs[2] = {"inputs/kernels", "inputs/validation"};
    const char *set_names[2] = {"tuning", "validation"};
    const char *only = getenv("RF_BENCH_KERNELS");
    rf_gpu gpus[NGPU];
    rf_err err;
    for (int g = 0; g < NGPU; g++)
        if (rf_gpu_load(gpu_names[g], &gpus[g], NULL, &err)) {
            fprintf(stderr, "bench_energy: %s: %s\n", gpu_names[g], err.msg);
            return 1;
        }
    kjob *jobs = calloc(2 * MAXK, sizeof *jobs);
    if (!jobs)
        return 1;
    int nk = 0;
    for (int s = 0; s < 2; s++) {
        char *names[MAXK];
        int n = benchrun_specs(dirs[s], names, MAXK);
        if (n < 0) {
            fprintf(stderr, "bench_energy: %s: cannot list the folder\n", dirs[s]);
            return 1;
        }
        for (int i = 0; i < n; i++) {
            if (only && !benchrun_listed(only, names[i])) {
                free(names[i]);
                continue;
            }
            kjob *kj = &jobs[nk];
            char path[512];
            snprintf(path, sizeof path, "%s/%s.spec", dirs[s], names[i]);
            rf_kernel_opts ko;
            memset(&ko, 0, sizeof ko);
            kj->set = s;
            kj->name = names[i];
            if (rf_kernel_load(path, &ko, &kj->k, &err)) {
                fprintf(stderr, "bench_energy: %s: %s\n", path, err.msg);
                return 1;
            }
            for (int g = 0; g < NGPU; g++)
                if (rf_kchar_compute(&gpus[g], kj->k, &kj->kc[g], &err)) {
                    fprintf(stderr, "bench_energy: %s on %s: %s\n", path, gpu_names[g], err.msg);
                    return 1;
                }
            for (int j = 0; j < NDES; j++) {
                benchrun_point *p = &kj->pts[j];
                p->gpu = &gpus[des[j].gpu];
                p->k = kj->k;
                rf_design_init(&p->d);
                p->d.kind = des[j].kind;
                p->stats = &kj->st[j];
                snprintf(p->key, sizeof p->key, "%s|%s|%s", set_names[s], names[i], des[j].label);
            }
            nk++;
        }
    }

    const char *cache = getenv("RF_BENCH_ENERGYCACHE");
    if (cache)
        cache_load(cache, jobs, nk);
    benchrun_point *all = calloc((size_t)nk * NDES + 1, sizeof *all);
    if (!all)
        return 1;
    for (int i = 0; i < nk; i++)
        memcpy(&all[i * NDES], jobs[i].pts, sizeof jobs[i].pts);
    benchrun_full(all, nk * NDES, 0);
    for (int i = 0; i < nk; i++)
        memcpy(jobs[i].pts, &all[i * NDES], sizeof jobs[i].pts);
    free(all);
    if (cache)
        cache_save(cache, jobs, nk);

    /* One fermi-gtx480 calibration per kernel (the baseline and stealing points). */
    rf_calib_report *rep = malloc(sizeof *rep);
    if (!rep)
        return 1;
    for (int i = 0; i < nk; i++) {
        rf_calib_opts co = {0, 1, NULL, false, NULL, 1};
        jobs[i].have_cal = rf_calib_run(&gpus[0], gpu_names[0], jobs[i].k, &jobs[i].kc[0], &co,
                                        &jobs[i].cal, rep, &err) == 0;
        if (!jobs[i].have_cal)
            fprintf(stderr, "bench_energy: calibrate %s: %s\n", jobs[i].name, err.msg);
    }
    free(rep);

    score sc[2][NDES], scc[2][NDES];
    memset(sc, 0, sizeof sc);
    memset(scc, 0, sizeof scc);
    for (int i = 0; i < nk; i++)
        for (int j = 0; j < NDES; j++) {
            score_point(&jobs[i], j, &gpus[des[j].gpu], NULL, &sc[jobs[i].set][j]);
            if (des[j].gpu == 0 && jobs[i].have_cal)
                score_point(&jobs[i], j, &gpus[0], &jobs[i].cal, &scc[jobs[i].set][j]);
        }

    printf("energy: uncalibrated estimate (--sms 1) vs the sampler's full run, register-file "
           "energy of the whole kernel\n");
    printf("  %-10s %-9s %3s %15s %15s %8s %8s %8s %8s %6s\n", "set", "design", "n",
           "E mean / worst", "dyn mean/worst", "IPC mean", "main", "cache", "xbar", "leak");
    for (int s = 0; s < 2; s++) {
        double all_sum = 0;
        int all_n = 0;
        for (int j = 0; j < NDES; j++) {
            const score *c = &sc[s][j];
            int n = c->n > 0 ? c->n : 1;
            printf("  %-10s %-9s %3d %6.2f%% %6.2f%% %6.2f%% %6.2f%% %7.2f%% %+7.2f%% %+7.2f%% "
                   "%+7.2f%% %5.1f%%\n",
                   set_names[s], des[j].label, c->n, 100 * c->e_sum / n, 100 * c->e_max,
                   100 * c->d_sum / n, 100 * c->d_max, 100 * c->ipc_sum / n,
                   100 * c->main_sum / n, 100 * c->cache_sum / n, 100 * c->xbar_sum / n,
                   100 * c->leak_sum / n);
            all_sum += c->e_sum;
            all_n += c->n;
        }
        printf("  %-10s %-9s %3d %6.2f%%\n", set_names[s], "all", all_n,
               all_n ? 100 * all_sum / all_n : 0);
    }
    printf("energy: calibrated estimate (fermi-gtx480 record, rf_calib_run seed 1), same "
           "columns\n");
    for (int s = 0; s < 2; s++) {
        double all_sum = 0;
        int all_n = 0;
        for (int j = 0; j < NDES; j++) {
            const score *c = des[j].gpu == 0 ? &scc[s][j] : &sc[s][j];
            int n = c->n > 0 ? c->n : 1;
            all_sum += c->e_sum;
            all_n += c->n;
            if (des[j].gpu != 0)
                continue;
            printf("  %-10s %-9s %3d %6.2f%% %6.2f%% %6.2f%% %6.2f%% %7.2f%% %+7.2f%% %+7.2f%% "
                   "%+7.2f%% %5.1f%%\n",
                   set_names[s], des[j].label, c->n, 100 * c->e_sum / n, 100 * c->e_max,
                   100 * c->d_sum / n, 100 * c->d_max, 100 * c->ipc_sum / n,
                   100 * c->main_sum / n, 100 * c->cache_sum / n, 100 * c->xbar_sum / n,
                   100 * c->leak_sum / n);
        }
        printf("  %-10s %-9s %3d %6.2f%%   (calibrated baseline and stealing, uncalibrated "
               "hirf, rfc, ltrf)\n", set_names[s], "all", all_n,
               all_n ? 100 * all_sum / all_n : 0);
    }
    printf("target (issue 25): energy estimate against the sampler's energy, mean <= 5%%\n");
    for (int i = 0; i < nk; i++) {
        rf_kernel_destroy(jobs[i].k);
        free(jobs[i].name);
    }
    free(jobs);
    return 0;
}

/* bench_occupancy.c - how fast the occupancy models evaluate: every design
 * over a sweep of kernel shapes on every preset.  Prints figures; asserts
 * nothing about time. */
#include <stdio.h>
#include <time.h>

#include "../analytic/design.h"
#include "../analytic/occupancy.h"
#include "../inputs/gpu.h"

int main(void)
{
    static const int threads[] = {32, 64, 96, 128, 192, 256, 384, 512, 768, 1024};
    long evals = 0, ok = 0;
    double checksum = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int rep = 0; rep < 20; rep++) {
        for (int p = 0; rf_gpu_preset_names[p]; p++) {
            rf_gpu g;
            rf_err err;
            if (rf_gpu_preset(rf_gpu_preset_names[p], &g, &err))
                return 1;
            for (int k = 0; k < RF_DESIGN_COUNT; k++) {
                rf_design d;
                rf_design_init(&d);
                d.kind = k;
                for (int r = 8; r <= 64; r += 4)
                    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
                        for (int s = 0; s <= 16384; s += 4096) {
                            rf_occ_input in = {r, threads[t], s};
                            rf_occ o;
                            evals++;
                            if (rf_occ_compute(&g, &d, &in, &o, &err) == 0) {
                                ok++;
                                checksum += o.warps_per_sm;
                            }
                        }
            }
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("occupancy: %ld evaluations (%ld valid shapes) in %.3f s = %.0f ns each "
           "(checksum %.0f)\n",
           evals, ok, sec, 1e9 * sec / (double)evals, checksum);
    return 0;
}

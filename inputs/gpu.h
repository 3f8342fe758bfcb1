/* gpu.h - the GPU description every model takes by const pointer.
 *
 * An rf_gpu holds one SM's resources and the occupancy rules of its compute
 * capability, plus the pipeline figures the sampler needs.  Values come from
 * a bundled preset (inputs/gpu.c, each with its source), optionally overridden
 * by an INI-style file, or from a GPGPU-Sim gpgpusim.config.  The parameter
 * table rf_gpu_params[] (one line per field) drives all of those readers, the
 * --help text and the dump of the effective configuration.
 */
#ifndef RF_GPU_H
#define RF_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../common/error.h"
#include "../common/param.h"

/* How registers are rounded up per CTA. */
typedef enum rf_reg_gran {
    RF_REG_GRAN_WARP = 0, /* per warp: ceil(regs*warp_size, unit) (Fermi+, and
                           * GPGPU-Sim: 4-register rounding = unit 4*warp_size) */
    RF_REG_GRAN_CTA = 1   /* per CTA: ceil(regs*warps*warp_size, unit) (Tesla) */
} rf_reg_gran;

typedef enum rf_sched_policy {
    RF_SCHED_LRR = 0,
    RF_SCHED_GTO = 1,
    RF_SCHED_TWO_LEVEL = 2
} rf_sched_policy;

typedef struct rf_gpu {
    char name[RF_PARAM_STR_MAX];   /* preset name or file */
    int cc;                        /* compute capability *10 (70 = 7.0); 0 = sim config */
    int sms;                       /* SMs on the chip */
    int warp_size;                 /* threads */
    double clock_mhz;              /* core clock, MHz */

    /* Registers (32-bit each). */
    int regs_per_sm;               /* registers in one SM's register file */
    int max_regs_per_thread;
    int max_regs_per_cta;
    int reg_alloc_unit;            /* registers; allocation rounding unit */
    int reg_alloc_gran;            /* rf_reg_gran */
    int warp_alloc_gran;           /* warps; register-limited warps per SM are
                                    * rounded down to a multiple of this (the
                                    * RF sub-partitions: 4 on cc 7.0+, 1 in sims) */

    /* Scheduling limits. */
    int max_threads_per_sm;
    int max_warps_per_sm;
    int max_ctas_per_sm;
    int max_threads_per_cta;

    /* Shared memory. */
    int smem_per_sm;               /* bytes usable by CTAs */
    int max_smem_per_cta;          /* bytes */
    int smem_alloc_unit;           /* bytes; allocation rounding unit */
    int smem_reserved_per_cta;     /* bytes the driver reserves per CTA */

    /* Register file organisation and pipeline (sampler). */
    int rf_banks;                  /* single-ported banks per SM */
    int collectors;                /* operand collector units per SM */
    int schedulers;                /* warp schedulers per SM */
    int issue_width;               /* instructions per scheduler per cycle */
    int sched_policy;              /* rf_sched_policy */
    int active_warps_per_sm;       /* warps; the two-level scheduler's active pool
                                    * per SM (0 = rfkit's default, RF_POOL_PER_SCHED
                                    * per scheduler; analytic/design.h rf_design_pool) */
    int alu_lanes;                 /* ALU throughput: threads per cycle per SM */
    int sfu_lanes;                 /* SFU throughput: threads per cycle per SM */
    int ldst_lanes;                /* LD/ST throughput: threads per cycle */
    int alu_latency;               /* cycles */
    int sfu_latency;               /* cycles */
    int smem_latency;              /* cycles */
    int l1_latency;                /* cycles */
    int l2_latency;                /* cycles */
    int dram_latency;              /* cycles */
    double dram_bytes_per_cycle;   /* DRAM bandwidth share of one SM, bytes/cycle */

    /* Register caches (HI-RF, RFC, LTRF). */
    int subcores;                  /* sub-cores (register-cache partitions) per SM */
    int rc_entries;                /* register-cache lines per sub-core */
    int rc_line_bits;              /* bits per line (one warp register = 1024) */
    int nvm_read_latency;          /* cycles */
    int nvm_write_latency;         /* cycles */
} rf_gpu;

extern const rf_param rf_gpu_params[];
extern const size_t rf_gpu_nparams;

/* Names of the bundled presets, NULL-terminated. */
extern const char *const rf_gpu_preset_names[];

/* Fill *gpu from a preset name, or from a file (INI override of a preset,
 * whose "preset = NAME" key picks the base, or a gpgpusim.config).  Options
 * rfkit does not model are reported once on `notes` (may be NULL), never fatal.
 * Returns 0 or a negative code with err naming file:line:field. */
int rf_gpu_load(const char *name_or_path, rf_gpu *gpu, FILE *notes, rf_err *err);

/* Fill *gpu from a preset; RF_EUNKNOWN when there is no such preset. */
int rf_gpu_preset(const char *name, rf_gpu *gpu, rf_err *err);

/* One-line description of the preset's source (seed table, CC rules). */
const char *rf_gpu_preset_source(const char *name);

/* Internal consistency (e.g. warps*warp_size vs threads). */
int rf_gpu_check(const rf_gpu *gpu, rf_err *err);

/* n operand collectors split over ALU, SFU and LD/ST instructions, as
 * GPGPU-Sim's Fermi does (6 SP : 8 SFU : 2 MEM of 16; the sampler's
 * default typed collectors); all 0 when n < 3: one shared pool. */
void rf_gpu_coll_split(int n, int split[3]);

#endif /* RF_GPU_H */

/* gpu.c - the GPU parameter table, the bundled presets and their checks.
 *
 * Two kinds of preset:
 *  - simulator presets (cc = 0) reproduce the GPGPU-Sim configurations of the
 *    seed papers.  GPGPU-Sim (shader.cc, max_cta) rounds registers per thread
 *    up to a multiple of 4 and pads a CTA to whole warps, i.e. it allocates
 *    ceil(regs*32, 128) registers per warp (RF_REG_GRAN_WARP, unit 4*warp_size),
 *    does not round shared memory (unit 1 byte, nothing reserved) and has no
 *    register sub-partitions (warp_alloc_gran 1).  With that rule seed 003
 *    Table 5 comes out exactly (tests/test_occupancy.c).
 *  - real parts follow the CUDA occupancy rules of their compute capability
 *    (cuda_occupancy.h and the CUDA C Programming Guide, "Technical
 *    Specifications per Compute Capability"): registers are allocated per warp
 *    in units of 256, register-limited warps are rounded down to a multiple of
 *    the 4 register-file sub-partitions, at most 255 registers per thread,
 *    shared memory is allocated in units of 256 bytes (cc 7.x) or 128 bytes
 *    (cc 8.x, 9.x) and the driver reserves 1 KB per CTA from cc 8.0 on.
 *
 * Pipeline figures (latencies, lanes, bandwidth) are inputs of the sampler;
 * where a seed gives none they are approximate published figures, noted as
 * such, and calibration absorbs their error.
 */
#include "gpu.h"
#include "gpu_internal.h"

#include <stdio.h>
#include <string.h>

static const char *const gran_names[] = {"warp", "cta", NULL};
static const char *const sched_names[] = {"lrr", "gto", "two-level", NULL};

#define GI(field, lo, hi, def, unit, help) \
    {#field, RF_PT_INT, offsetof(rf_gpu, field), lo, hi, def, NULL, unit, help}
#define GD(field, lo, hi, def, unit, help) \
    {#field, RF_PT_DOUBLE, offsetof(rf_gpu, field), lo, hi, def, NULL, unit, help}
#define GE(field, choices, def, help) \
    {#field, RF_PT_ENUM, offsetof(rf_gpu, field), 0, 0, def, choices, NULL, help}

/* Defaults are a GPGPU-Sim GTX480-like SM; an INI file without "preset ="
 * starts from them. */
const rf_param rf_gpu_params[] = {
    {"name", RF_PT_STRING, offsetof(rf_gpu, name), 0, 0, 0, NULL, NULL, "preset name or file"},
    GI(cc, 0, 120, 0, NULL, "compute capability x10 (70 = 7.0); 0 = simulator rules"),
    GI(sms, 1, 1024, 15, NULL, "SMs on the chip"),
    GI(warp_size, 1, 64, 32, "threads", "threads per warp"),
    GD(clock_mhz, 1, 10000, 700, "MHz", "core clock"),
    GI(regs_per_sm, 1, 10000000, 32768, "registers", "32-bit registers per SM"),
    GI(max_regs_per_thread, 1, 4096, 63, "registers", "most registers one thread may use"),
    GI(max_regs_per_cta, 1, 10000000, 32768, "registers", "most registers one CTA may hold"),
    GI(reg_alloc_unit, 1, 65536, 128, "registers", "register allocation rounding unit"),
    GE(reg_alloc_gran, gran_names, 0, "register allocation granularity"),
    GI(warp_alloc_gran, 1, 64, 1, "warps", "register-limited warps per SM are a multiple of this"),
    GI(max_threads_per_sm, 1, 65536, 1536, "threads", "resident threads per SM"),
    GI(max_warps_per_sm, 1, 2048, 48, "warps", "resident warps per SM"),
    GI(max_ctas_per_sm, 1, 1024, 8, "CTAs", "resident CTAs per SM"),
    GI(max_threads_per_cta, 1, 65536, 1024, "threads", "threads per CTA"),
    GI(smem_per_sm, 0, 1000000000, 49152, "bytes", "shared memory per SM usable by CTAs"),
    GI(max_smem_per_cta, 0, 1000000000, 49152, "bytes", "shared memory one CTA may use"),
    GI(smem_alloc_unit, 1, 1000000, 1, "bytes", "shared memory allocation rounding unit"),
    GI(smem_reserved_per_cta, 0, 1000000, 0, "bytes", "shared memory the driver reserves per CTA"),
    GI(rf_banks, 1, 1024, 16, "banks", "single-ported register-file banks per SM"),
    GI(collectors, 1, 1024, 16, NULL, "operand collector units per SM"),
    GI(schedulers, 1, 64, 2, NULL, "warp schedulers per SM"),
    GI(issue_width, 1, 8, 1, "instructions", "instructions per scheduler per cycle"),
    GE(sched_policy, sched_names, 1, "warp scheduling policy"),
    GI(active_warps_per_sm, 0, 2048, 0, "warps",
       "two-level scheduler: active-warp pool per SM (0 = 8 per warp scheduler)"),
    GI(alu_lanes, 1, 4096, 32, "threads/cycle", "ALU throughput per SM"),
    GI(sfu_lanes, 1, 4096, 4, "threads/cycle", "SFU throughput per SM"),
    GI(ldst_lanes, 1, 4096, 16, "threads/cycle", "load/store throughput per SM"),
    GI(alu_latency, 1, 1000, 11, "cycles", "dependent ALU instruction latency"),
    GI(sfu_latency, 1, 1000, 20, "cycles", "SFU latency"),
    GI(smem_latency, 1, 10000, 24, "cycles", "shared memory latency"),
    GI(l1_latency, 1, 10000, 32, "cycles", "L1 hit latency"),
    GI(l2_latency, 1, 10000, 180, "cycles", "L2 hit latency"),
    GI(dram_latency, 1, 100000, 330, "cycles", "DRAM latency (unloaded)"),
    GD(dram_bytes_per_cycle, 0.001, 4096, 16.9, "bytes/cycle", "DRAM bandwidth share of one SM"),
    GI(subcores, 1, 64, 1, NULL, "sub-cores (register-cache partitions) per SM"),
    GI(rc_entries, 1, 65536, 128, "lines", "register-cache lines per sub-core"),
    GI(rc_line_bits, 1, 65536, 1024, "bits", "bits per register-cache line"),
    GI(nvm_read_latency, 1, 1000, 1, "cycles", "main register file read latency"),
    GI(nvm_write_latency, 1, 1000, 1, "cycles", "main register file write latency"),
};
const size_t rf_gpu_nparams = sizeof rf_gpu_params / sizeof rf_gpu_params[0];

typedef struct preset {
    const char *source;
    rf_gpu gpu;
} preset;

/* Shared pieces of the presets. */
#define SIM_ALLOC                                                          \
    /* GPGPU-Sim max_cta(): (regs+3)&~3 per thread, CTA padded to warps */ \
    .reg_alloc_unit = 128, .reg_alloc_gran = RF_REG_GRAN_WARP,             \
    .warp_alloc_gran = 1, .smem_alloc_unit = 1, .smem_reserved_per_cta = 0
#define CUDA_ALLOC(smem_unit, smem_reserved)                               \
    /* cuda_occupancy.h: 256-register units per warp, 4 sub-partitions */  \
    .max_regs_per_thread = 255, .max_regs_per_cta = 65536,                 \
    .reg_alloc_unit = 256, .reg_alloc_gran = RF_REG_GRAN_WARP,             \
    .warp_alloc_gran = 4, .smem_alloc_unit = smem_unit,                    \
    .smem_reserved_per_cta = smem_reserved
/* A main RF of SRAM: 1-cycle read and write (seed 002 Table 3, SRAM). */
#define SRAM_RF .nvm_read_latency = 1, .nvm_write_latency = 1
/* A 16 KB register cache per SM, the RFC/LTRF size of seed 004 Section 5. */
#define RC_16KB(subs) .subcores = subs, .rc_entries = 128 / (subs), .rc_line_bits = 1024

static const preset presets[] = {
    {"seed 003 Table 1 (GPGPU-Sim Tesla C2050: 14 SMs, 32768 regs, 1536 threads, "
     "8 CTAs, 48 KB smem, 2 LRR schedulers)",
     {.name = "fermi-c2050", .cc = 0, .sms = 14, .warp_size = 32,
      .clock_mhz = 575,                 /* C2050 core clock (shader 1150) */
      .regs_per_sm = 32768, .max_regs_per_thread = 63, /* Fermi ISA */
      .max_regs_per_cta = 32768, SIM_ALLOC,
      .max_threads_per_sm = 1536, .max_warps_per_sm = 48,
      .max_ctas_per_sm = 8, .max_threads_per_cta = 1024,
      .smem_per_sm = 49152, .max_smem_per_cta = 49152,
      .rf_banks = 16,                   /* GPGPU-Sim Fermi -gpgpu_num_reg_banks */
      .collectors = 16,                 /* GPGPU-Sim Fermi: 6 SP + 8 SFU + 2 MEM units */
      .schedulers = 2, .issue_width = 1, .sched_policy = RF_SCHED_LRR,
      .alu_lanes = 32, .sfu_lanes = 4, .ldst_lanes = 16, /* Fermi SM */
      .alu_latency = 11,                /* ~22 shader cycles (CUDA guide, cc 2.x) */
      .sfu_latency = 20, .smem_latency = 24, .l1_latency = 32, /* approximate */
      .l2_latency = 180, .dram_latency = 330, /* approximate GPGPU-Sim round trips */
      .dram_bytes_per_cycle = 17.9,     /* 144 GB/s / (14 SMs x 575 MHz) */
      RC_16KB(1), SRAM_RF}},
    {"seed 001 Section V.B (GPGPU-Sim GTX480: 15 SMs, 128 KB RF per SM, 32 lanes, "
     "2 GTO schedulers, 16 banks)",
     {.name = "fermi-gtx480", .cc = 0, .sms = 15, .warp_size = 32,
      .clock_mhz = 700,                 /* GPGPU-Sim GTX480 core clock domain */
      .regs_per_sm = 32768, .max_regs_per_thread = 63,
      .max_regs_per_cta = 32768, SIM_ALLOC,
      .max_threads_per_sm = 1536, .max_warps_per_sm = 48,
      .max_ctas_per_sm = 8, .max_threads_per_cta = 1024,
      .smem_per_sm = 49152, .max_smem_per_cta = 49152,
      .rf_banks = 16,                   /* seed 001: straight 16-bank baseline */
      .collectors = 16,                 /* GPGPU-Sim Fermi: 6 SP + 8 SFU + 2 MEM units */
      .schedulers = 2,                  /* seed 001: two warp instructions at a time */
      .issue_width = 1, .sched_policy = RF_SCHED_GTO, /* seed 001 Section IV: GTO */
      /* GPGPU-Sim v3.2 GTX480 as seed 001 ran it: two SP pipelines each
       * taking a warp per cycle ("at most two warp instructions at a
       * time"), integer/FP32 add latency 4 (-ptx_opcode_latency_int). */
      .alu_lanes = 64, .sfu_lanes = 4, .ldst_lanes = 16,
      .alu_latency = 4, .sfu_latency = 20, .smem_latency = 24, .l1_latency = 32,
      .l2_latency = 180, .dram_latency = 330, /* approximate, as fermi-c2050 */
      .dram_bytes_per_cycle = 16.9,     /* 177.4 GB/s / (15 SMs x 700 MHz) */
      RC_16KB(1), SRAM_RF}},
    {"seed 000 Table I (GPGPU-Sim GTX 980-like: 16 SMs, 1126 MHz, 256 KB RF, 96 KB smem, "
     "64 warps, 32 CTAs, 4 GTO schedulers)",
     {.name = "maxwell-gtx980", .cc = 0, .sms = 16, .warp_size = 32, .clock_mhz = 1126,
      .regs_per_sm = 65536,
      .max_regs_per_thread = 63,        /* seed 000 V.D: 6-bit index, 63 registers */
      .max_regs_per_cta = 65536, SIM_ALLOC,
      .max_threads_per_sm = 2048, .max_warps_per_sm = 64,
      .max_ctas_per_sm = 32, .max_threads_per_cta = 1024,
      .smem_per_sm = 98304, .max_smem_per_cta = 49152, /* Maxwell: 48 KB per CTA */
      .rf_banks = 16,                   /* seed 004 Table 2: 256 KB RF, 16 banks */
      .collectors = 16,                 /* seed 004 Figure 5 */
      .schedulers = 4, .issue_width = 1, .sched_policy = RF_SCHED_GTO,
      .alu_lanes = 128, .sfu_lanes = 32, .ldst_lanes = 32, /* Maxwell SM */
      .alu_latency = 6, .sfu_latency = 13, .smem_latency = 28, /* approximate */
      .l1_latency = 82, .l2_latency = 200, .dram_latency = 350,
      .dram_bytes_per_cycle = 19.57,    /* 352.5 GB/s / (16 SMs x 1126 MHz) */
      RC_16KB(1), SRAM_RF}},
    {"seed 004 Table 3 (GPGPU-Sim Maxwell-like: 24 SMs, 1137 MHz, 256 KB RF, 16 KB RF "
     "cache, 64 KB smem, two-level scheduler, 8 active warps)",
     {.name = "maxwell-ltrf", .cc = 0, .sms = 24, .warp_size = 32, .clock_mhz = 1137,
      .regs_per_sm = 65536, .max_regs_per_thread = 255,
      .max_regs_per_cta = 65536, SIM_ALLOC,
      .max_threads_per_sm = 2048, .max_warps_per_sm = 64,
      .max_ctas_per_sm = 32, .max_threads_per_cta = 1024,
      .smem_per_sm = 65536, .max_smem_per_cta = 49152,
      .rf_banks = 16,                   /* seed 004 Table 2: 1x = 16 banks */
      .collectors = 16,                 /* seed 004 Figure 5 */
      .schedulers = 4, .issue_width = 1, .sched_policy = RF_SCHED_TWO_LEVEL,
      .active_warps_per_sm = 8,         /* seed 004 Table 3: 8 active warps per SM */
      .alu_lanes = 128, .sfu_lanes = 32, .ldst_lanes = 32,
      .alu_latency = 6, .sfu_latency = 13, .smem_latency = 28,
      .l1_latency = 82, .l2_latency = 200, .dram_latency = 350, /* approximate */
      .dram_bytes_per_cycle = 12.66,    /* 8 MCs x 2 x32 GDDR5 at 2700 MHz DDR =
                                         * 345.6 GB/s / (24 SMs x 1137 MHz) */
      .subcores = 1, .rc_entries = 128, /* 16 KB = 128 warp registers */
      .rc_line_bits = 1024, SRAM_RF}},
    {"seed 002 Table 2 (GPGPU-Sim 4.0 Volta-like HI-RF: 80 SMs, 2048 threads, 4 GTO "
     "schedulers, 256 x 1024-bit SRAM cache entries, 8 NVM banks, NVM write 4 cycles)",
     {.name = "volta-hirf", .cc = 0, .sms = 80, .warp_size = 32,
      .clock_mhz = 1132,                /* GPGPU-Sim QV100 core clock */
      .regs_per_sm = 65536,
      .max_regs_per_thread = 255,       /* seed 002 2.4: 8-bit register IDs */
      .max_regs_per_cta = 65536, SIM_ALLOC,
      .max_threads_per_sm = 2048, .max_warps_per_sm = 64,
      .max_ctas_per_sm = 32, .max_threads_per_cta = 1024,
      .smem_per_sm = 98304, .max_smem_per_cta = 98304, /* Volta */
      .rf_banks = 8,                    /* seed 002 Table 2: 8 NVM banks */
      .collectors = 8,                  /* 2 per sub-core, approximate */
      .schedulers = 4, .issue_width = 1, .sched_policy = RF_SCHED_GTO,
      .alu_lanes = 64, .sfu_lanes = 16, .ldst_lanes = 32, /* Volta SM */
      .alu_latency = 4, .sfu_latency = 18, .smem_latency = 19, /* Volta microbenchmarks, */
      .l1_latency = 28, .l2_latency = 193, .dram_latency = 400, /* approximate */
      .dram_bytes_per_cycle = 9.94,     /* 900 GB/s / (80 SMs x 1132 MHz) */
      .subcores = 4, .rc_entries = 64,  /* 256 entries over 4 sub-cores (6-bit index) */
      .rc_line_bits = 1024,
      .nvm_read_latency = 1, .nvm_write_latency = 4}}, /* seed 002 Table 3, NVM */
    {"CUDA compute capability 7.0 rules (Tesla V100 SXM2: 80 SMs, 64K regs, 96 KB smem, "
     "2048 threads, 64 warps, 32 CTAs)",
     {.name = "v100", .cc = 70, .sms = 80, .warp_size = 32, .clock_mhz = 1530,
      .regs_per_sm = 65536, CUDA_ALLOC(256, 0),
      .max_threads_per_sm = 2048, .max_warps_per_sm = 64,
      .max_ctas_per_sm = 32, .max_threads_per_cta = 1024,
      .smem_per_sm = 98304, .max_smem_per_cta = 98304, /* 96 KB carve-out, opt-in */
      .rf_banks = 8,                    /* 2 banks per sub-core (Volta microbenchmarks) */
      .collectors = 8,                  /* approximate */
      .schedulers = 4, .issue_width = 1,
      .sched_policy = RF_SCHED_GTO,     /* policy unpublished; GTO as in GPGPU-Sim */
      .alu_lanes = 64, .sfu_lanes = 16, .ldst_lanes = 32,
      .alu_latency = 4,                 /* CUDA guide: about 4 cycles on 7.x */
      .sfu_latency = 18, .smem_latency = 19, .l1_latency = 28, /* approximate */
      .l2_latency = 193, .dram_latency = 400,
      .dram_bytes_per_cycle = 7.35,     /* 900 GB/s / (80 SMs x 1530 MHz) */
      RC_16KB(4), SRAM_RF}},
    {"CUDA compute capability 8.0 rules (A100: 108 SMs, 64K regs, 164 KB smem, 1 KB "
     "reserved per CTA, 2048 threads, 64 warps, 32 CTAs)",
     {.name = "a100", .cc = 80, .sms = 108, .warp_size = 32, .clock_mhz = 1410,
      .regs_per_sm = 65536, CUDA_ALLOC(128, 1024),
      .max_threads_per_sm = 2048, .max_warps_per_sm = 64,
      .max_ctas_per_sm = 32, .max_threads_per_cta = 1024,
      .smem_per_sm = 167936, .max_smem_per_cta = 166912, /* 164 KB / 163 KB opt-in */
      .rf_banks = 8, .collectors = 8,   /* as v100, approximate */
      .schedulers = 4, .issue_width = 1, .sched_policy = RF_SCHED_GTO,
      .alu_lanes = 64, .sfu_lanes = 16, .ldst_lanes = 32,
      .alu_latency = 4, .sfu_latency = 18, .smem_latency = 23, /* approximate */
      .l1_latency = 33, .l2_latency = 200, .dram_latency = 470,
      .dram_bytes_per_cycle = 10.21,    /* 1555 GB/s / (108 SMs x 1410 MHz) */
      RC_16KB(4), SRAM_RF}},
    {"CUDA compute capability 9.0 rules (H100 SXM5: 132 SMs, 64K regs, 228 KB smem, "
     "1 KB reserved per CTA, 2048 threads, 64 warps, 32 CTAs)",
     {.name = "h100", .cc = 90, .sms = 132, .warp_size = 32, .clock_mhz = 1980,
      .regs_per_sm = 65536, CUDA_ALLOC(128, 1024),
      .max_threads_per_sm = 2048, .max_warps_per_sm = 64,
      .max_ctas_per_sm = 32, .max_threads_per_cta = 1024,
      .smem_per_sm = 233472, .max_smem_per_cta = 232448, /* 228 KB / 227 KB opt-in */
      .rf_banks = 8, .collectors = 8,   /* as v100, approximate */
      .schedulers = 4, .issue_width = 1, .sched_policy = RF_SCHED_GTO,
      .alu_lanes = 128, .sfu_lanes = 16, .ldst_lanes = 32,
      .alu_latency = 4, .sfu_latency = 18, .smem_latency = 23, /* approximate */
      .l1_latency = 33, .l2_latency = 260, .dram_latency = 480,
      .dram_bytes_per_cycle = 12.82,    /* 3350 GB/s / (132 SMs x 1980 MHz) */
      RC_16KB(4), SRAM_RF}},
};
#define NPRESETS (sizeof presets / sizeof presets[0])

const char *const rf_gpu_preset_names[] = {
    "fermi-c2050", "fermi-gtx480", "maxwell-gtx980", "maxwell-ltrf",
    "volta-hirf",  "v100",         "a100",           "h100",          NULL};

static const preset *find_preset(const char *name)
{
    for (size_t i = 0; i < NPRESETS; i++)
        if (strcmp(presets[i].gpu.name, name) == 0)
            return &presets[i];
    return NULL;
}

static void preset_list(char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; rf_gpu_preset_names[i] && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? ", " : "",
                              rf_gpu_preset_names[i]);
}

int rf_gpu_preset(const char *name, rf_gpu *gpu, rf_err *err)
{
    const preset *p = find_preset(name ? name : "");
    if (!p) {
        char list[256];
        preset_list(list, sizeof list);
        return rf_err_set(err, RF_EUNKNOWN, NULL, 0, 0, "gpu",
                          "unknown GPU preset '%s' (presets: %s; or a file)",
                          name ? name : "", list);
    }
    *gpu = p->gpu;
    return RF_OK;
}

const char *rf_gpu_preset_source(const char *name)
{
    const preset *p = find_preset(name ? name : "");
    return p ? p->source : NULL;
}

static int round_up(int x, int unit)
{
    return (x + unit - 1) / unit * unit;
}

/* Report a consistency error at the line where `field` was set, when known. */
static int bad(rf_err *err, const rf_gpu *gpu, const int *lines,
               const char *field, const char *fmt, int a, int b)
{
    int line = 0;
    if (lines) {
        const rf_param *p = rf_param_find(rf_gpu_params, rf_gpu_nparams, field);
        if (p)
            line = lines[p - rf_gpu_params];
    }
    char msg[200];
    snprintf(msg, sizeof msg, fmt, a, b);
    return rf_err_set(err, RF_ERANGE, gpu->name, line, 0, field, "%s", msg);
}

int rf_gpu_check_at(const rf_gpu *gpu, const int *lines, rf_err *err)
{
    /* Bounds of single fields first: a struct filled by hand skips the table. */
    for (size_t i = 0; i < rf_gpu_nparams; i++) {
        const rf_param *p = &rf_gpu_params[i];
        if (p->type != RF_PT_INT && p->type != RF_PT_DOUBLE)
            continue;
        double v = rf_param_value(p, gpu);
        if (v < p->min || v > p->max) {
            int line = lines ? lines[i] : 0;
            return rf_err_set(err, RF_ERANGE, gpu->name, line, 0, p->name,
                              "%g is outside [%g, %g]", v, p->min, p->max);
        }
    }
    if (gpu->max_warps_per_sm * gpu->warp_size != gpu->max_threads_per_sm)
        return bad(err, gpu, lines, "max_warps_per_sm",
                   "%d warps do not make max_threads_per_sm / warp_size (%d)",
                   gpu->max_warps_per_sm, gpu->max_threads_per_sm / gpu->warp_size);
    if (gpu->max_threads_per_cta > gpu->max_threads_per_sm)
        return bad(err, gpu, lines, "max_threads_per_cta",
                   "%d threads per CTA exceed the %d threads per SM",
                   gpu->max_threads_per_cta, gpu->max_threads_per_sm);
    if (gpu->max_smem_per_cta > gpu->smem_per_sm)
        return bad(err, gpu, lines, "max_smem_per_cta",
                   "%d bytes per CTA exceed the %d bytes per SM",
                   gpu->max_smem_per_cta, gpu->smem_per_sm);
    if (gpu->max_regs_per_cta > gpu->regs_per_sm)
        return bad(err, gpu, lines, "max_regs_per_cta",
                   "%d registers per CTA exceed the %d per SM",
                   gpu->max_regs_per_cta, gpu->regs_per_sm);
    long warp_regs = round_up(gpu->max_regs_per_thread * gpu->warp_size, gpu->reg_alloc_unit);
    if (warp_regs > gpu->regs_per_sm)
        return bad(err, gpu, lines, "max_regs_per_thread",
                   "one warp at %d registers per thread does not fit %d registers",
                   gpu->max_regs_per_thread, gpu->regs_per_sm);
    if (gpu->active_warps_per_sm > gpu->max_warps_per_sm)
        return bad(err, gpu, lines, "active_warps_per_sm",
                   "an active pool of %d warps exceeds the %d warps per SM",
                   gpu->active_warps_per_sm, gpu->max_warps_per_sm);
    if (gpu->max_warps_per_sm % gpu->warp_alloc_gran)
        return bad(err, gpu, lines, "warp_alloc_gran",
                   "%d does not divide max_warps_per_sm (%d)", gpu->warp_alloc_gran,
                   gpu->max_warps_per_sm);
    return RF_OK;
}

int rf_gpu_check(const rf_gpu *gpu, rf_err *err)
{
    return rf_gpu_check_at(gpu, NULL, err);
}

void rf_gpu_coll_split(int n, int split[3])
{
    split[0] = split[1] = split[2] = 0;
    if (n < 3)
        return;
    int alu = (n * 6 + 8) / 16, mem = (n * 2 + 8) / 16;
    if (alu < 1)
        alu = 1;
    if (mem < 1)
        mem = 1;
    int sfu = n - alu - mem;
    if (sfu < 1) {
        sfu = 1;
        alu = n - sfu - mem;
    }
    split[0] = alu;
    split[1] = sfu;
    split[2] = mem;
}

/* sim.h - the sampler: a cycle-level model of one SM running one kernel.
 *
 * rf_sim_run() dispatches the CTAs of the kernel's run (its grid, or SM 0's
 * round-robin share of a grid spread over several SMs: inputs/kernel.h
 * rf_kernel_spread) wave by wave onto one SM (or opts->sms SMs sharing one
 * DRAM queue; the chip's other SMs are accounted for by the per-SM
 * bandwidth share), steps the pipeline stages in reverse
 * order each cycle, and fills rf_sim_stats.  Deterministic: the same inputs
 * and seed give the same stats, byte for byte.
 *
 * Designs: baseline and stealing (read_steal, write_steal of rf_design;
 * seed 001) are modelled in full, and so are HI-RF (seed 002: register cache
 * over NVM banks, sampler/regcache.c) and Register Sharing (seed 003: warp-
 * pair locks, owner-warp-first, unrolled declarations and dynamic warp
 * execution, sampler/sharing.c).  Every other design without its own
 * organisation runs on the banked register file with its own occupancy
 * (rf_occ_compute's active CTAs), through the register-file organisation
 * hook in sampler/sim_internal.h.
 *
 * Windows: stats cover cycles [warmup, warmup + cycles) exactly (cycles = 0:
 * to the end of the grid); skip_ctas starts the grid at that CTA.  Cost is
 * proportional to simulated cycles plus a setup of one liveness pass.
 * Block by block: sampler/dispatcher.c, warp.c, scoreboard.c, scheduler.c,
 * collector.c, bank.c, stealing.c, exec.c, memory.c, sim.c.
 */
#ifndef RF_SIM_H
#define RF_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../analytic/design.h"
#include "../common/error.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"

/* Simulated cycles between two progress reports at most (rf_sim_opts). */
#define RF_SIM_PROGRESS_CYCLES ((uint64_t)1 << 16)

/* Register-to-bank mapping of the banked register file. */
typedef enum rf_bank_map {
    RF_BANK_MAP_SWIZZLE = 0,  /* bank = (reg + warp) mod banks (GPGPU-Sim style) */
    RF_BANK_MAP_MODULO = 1    /* bank = reg mod banks, same for every warp */
} rf_bank_map;

typedef struct rf_sim_opts {
    uint64_t seed;
    uint64_t warmup;          /* cycles simulated before the window (not counted) */
    uint64_t cycles;          /* window length in cycles; 0 = run the whole grid */
    uint64_t skip_ctas;       /* start the run as if this many CTAs had completed */
    uint64_t watchdog;        /* cycles without a retired instruction => RF_EWATCHDOG */
    /* Progress report, or NULL: called when the run starts (cycle 0), then
     * at the first cycle stepped past every RF_SIM_PROGRESS_CYCLES more
     * simulated cycles (idle stretches are jumped over), and once
     * when the grid or the window has ended (not after an error).  cycle
     * is the simulated cycle, ctas_done the CTAs completed so far of
     * ctas_total, the grid's CTAs less skip_ctas.  The sampler prints
     * nothing itself; the caller draws (cli/progress.h). */
    void (*progress)(uint64_t cycle, long ctas_done, long ctas_total, void *arg);
    void *progress_arg;
    int sms;                  /* SMs simulated side by side sharing DRAM bandwidth (>= 1) */
    int bank_map;             /* rf_bank_map */
    int ctas_per_sm;          /* resident CTAs per SM; 0 = from rf_occ_compute */
    int active_warps;         /* two-level scheduler: active pool per scheduler; 0 = the
                                 design's active_warps (per SM) split among the
                                 schedulers, or 8 */
    int xbar_ports;           /* operands one collector receives per cycle (crossbar
                                 output ports; GPGPU-Sim: 1); 0 = no limit (default,
                                 seed 001 Sec. II-B: operands arrive concurrently) */
    bool typed_collectors;    /* collectors dedicated per unit class in GPGPU-Sim Fermi's
                                 proportions 6 ALU : 8 SFU : 2 LD/ST (default; seed 001
                                 Sec. II-B: "collectors dedicated to the execution
                                 units"), else one shared pool */
    bool no_skip;             /* step every cycle instead of skipping idle stretches (same results) */
    uint64_t warm_ctas;       /* functional warming (0 = off, the default): the grid
                                 starts this many CTAs before skip_ctas (not before
                                 CTA 0) and runs untimed, every warp one instruction
                                 per step, finished CTAs replaced by the next, until
                                 CTA skip_ctas is dispatched; cycle 0 starts from the
                                 mix of CTA ages this leaves (sampler/dispatcher.c) */
} rf_sim_opts;

void rf_sim_opts_init(rf_sim_opts *o);

typedef struct rf_sim_stats {
    uint64_t cycles;              /* cycles in the window */
    uint64_t warp_insts;          /* warp instructions retired in the window */
    double ipc;                   /* warp_insts / cycles / SMs simulated */
    uint64_t ctas_done;
    double mean_resident_warps;   /* per cycle */

    /* Stall breakdown: unused issue slots (scheduler-cycles x issue width), by cause. */
    uint64_t stall_no_warp;       /* no warp with an instruction (none resident, barrier, exited) */
    uint64_t stall_scoreboard;    /* waiting on a short-latency result */
    uint64_t stall_collector;     /* no free operand collector */
    uint64_t stall_bank;          /* collectors full while operands lose bank arbitration,
                                     or a result waits for its bank write */
    uint64_t stall_memory;        /* waiting on long-latency memory */
    uint64_t stall_rc;            /* register-cache miss / NVM write-back / prefetch (0: no
                                     register cache modelled yet) */

    /* Register file. */
    uint64_t bank_reads, bank_writes; /* accesses, including write stealing's extra
                                         temporary write and read */
    uint64_t read_conflict_cycles;  /* extra cycles reads waited for a bank */
    uint64_t write_conflict_cycles; /* extra cycles writes waited for a bank */
    uint64_t xbar_transfers;        /* operands moved bank -> collector */
    uint64_t collector_fills;       /* operands written into collectors (instructions x operands) */
    double bank_util;             /* mean fraction of banks busy per cycle */
    uint64_t inter_read_cycles;     /* read-cycles lost to a read of another instruction */
    uint64_t inter_write_cycles;    /* read-cycles lost to a write (seed 001 Sec. III-B) */
    uint64_t intra_cycles;          /* read-cycles lost to an operand of the same instruction */
    double inter_read_penalty;      /* inter_read_cycles per operand read, cycles */
    double inter_write_penalty;     /* inter_write_cycles per operand read, cycles */
    uint64_t operand_reads;         /* register operands read for instructions (no stealing extras) */

    /* Bank stealing (seed 001). */
    uint64_t stolen_reads;        /* operands read ahead for the candidate warp */
    /* Write-back breakdown (seed 001 Fig. 14); the four add up to the
     * register results written. */
    uint64_t wb_normal;           /* written at their normal time, no conflict */
    uint64_t wb_stolen_fast;      /* parked, temporary read back the very next cycle */
    uint64_t wb_stolen_late;      /* parked, written back later without a stall */
    uint64_t wb_forced;           /* stalled a read: write-back forced by a RAW/WAW hazard,
                                     or a conflicting write with no bank to park in */
    uint64_t stolen_writes;       /* writes parked in a dead register (Rfree) */
    uint64_t steal_overrides;     /* scheduler overridden to issue the candidate warp */

    /* Register caches (seed 002, 004). */
    uint64_t rc_hits, rc_misses, rc_conflicts; /* reads hit / missed; writes that evicted a line */
    uint64_t rc_writes;           /* writes into the register cache */
    uint64_t nvm_reads, nvm_writes;
    uint64_t prefetches, prefetch_regs;
    uint64_t nvm_stall_cycles;
    /* RFC and LTRF (seed 004, sampler/ltrf.c). */
    uint64_t activations;         /* warps entering the active pool with a refetch */
    uint64_t refetch_regs;        /* registers fetched at activations */
    uint64_t writeback_regs;      /* registers written back to the main file
                                     (pool exits, interval changes, RFC evictions) */
    uint64_t main_reads, main_writes; /* main register file accesses behind a cache */
    uint64_t prefetch_stall_cycles;   /* warp-cycles held by PREFETCH and activation */

    /* Occupancy and Register Sharing (seed 003, sampler/sharing.c). */
    double resident_ctas_mean;    /* CTAs resident per SM, per cycle */
    double active_ctas_mean;      /* ... of which active (not pending or switching in) */
    uint64_t stall_lock;          /* sched-cycles whose only ready warps waited for shared
                                     registers or the dynamic-execution rule */
    uint64_t lock_acquires;       /* warp-pair locks taken */
    uint64_t lock_wait_cycles;    /* warp-cycles from a refused lock to the warp's issue */
    double nonowner_mem_issue_prob; /* dynamic warp execution: mean probability of issuing a
                                       non-owner memory instruction on SMs 1.. (0: off,
                                       or one SM) */
    /* CTA switching: Virtual Thread, Reg+DRAM, FineReg (seed 000, sampler/ctaswitch.c). */
    uint64_t cta_switches;        /* CTAs switched in */
    uint64_t switch_cycles;       /* their switch costs, cycles */
    uint64_t switch_dram_bytes;   /* Reg+DRAM: context bytes moved to and from DRAM */
    uint64_t pcrf_full_stalls;    /* FineReg: cycles a stalled CTA could not move for lack of
                                     PCRF space while a CTA waited to run */
    uint64_t srp_stall_cycles;    /* VT+RegMutex: issue slots whose only ready warps waited
                                     for the shared register pool (sched-cycles) */
    uint64_t srp_acquires;        /* pool chunks taken */

    /* Instruction mix (warp instructions). */
    uint64_t insts_by_class[16];
    uint64_t mem_insts;           /* global/local loads and stores */
    uint64_t dram_bytes;          /* bytes moved to/from DRAM */
    uint64_t skipped_cycles;      /* cycles jumped over while every warp waited (event skipping) */

    /* Register-file energy of the window (analytic/energy.c, the model
     * `estimate` prices with): the counters above mapped to structure
     * accesses by rf_energy_counts_of, leakage of the simulated SMs'
     * register files over the window's cycles.  nJ, all simulated SMs. */
    double rf_energy_nj;          /* rf_dynamic_nj + rf_leakage_nj */
    double rf_dynamic_nj;         /* rf_main_nj + rf_cache_nj + rf_xbar_nj */
    double rf_leakage_nj;
    double rf_main_nj;            /* main-file reads and writes (NVM for HI-RF) */
    double rf_cache_nj;           /* register-cache reads and writes */
    double rf_xbar_nj;            /* crossbar transfers */

    /* Whole-run invariant counters (not windowed), for tests. */
    uint64_t chk_issued;          /* warp instructions issued */
    uint64_t chk_retired;         /* warp instructions retired */
    uint64_t chk_bank_overuse;    /* bank-cycles with more than one access granted (must be 0) */
    int ctas_per_sm;              /* resident CTAs per SM used */
    int banks, collectors, sched_policy; /* resolved organisation */
} rf_sim_stats;

/* The counters written to CSV by the simulate command, in column order:
 * name and a getter returning the value as a double. */
typedef struct rf_sim_column {
    const char *name;
    const char *unit;
    double (*get)(const rf_sim_stats *st);
} rf_sim_column;

extern const rf_sim_column rf_sim_columns[];
extern const size_t rf_sim_ncolumns;

int rf_sim_run(const rf_gpu *gpu, const rf_design *d, const rf_kernel *k,
               const rf_sim_opts *opts, rf_sim_stats *st, rf_err *err);

#endif /* RF_SIM_H */

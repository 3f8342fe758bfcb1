/* kernel.h - a kernel as rfkit models it: code + launch + profile.
 *
 * Loaded from a kernel spec file (INI: [kernel] code/entry, [launch]
 * grid/block/smem/regs, [profile] trip/taken/l1_hit/l2_hit/..., [branches]
 * LABEL = P, [params] NAME = VALUE), or from a
 * bare .ptx / SASS / .dot file with the launch given by rf_kernel_opts (grid
 * and block are required then) and the default profile.  Unknown sections
 * and keys are errors naming file:line.  The entry function is
 * register-allocated when its code is PTX; the register count used for
 * occupancy is ptxas's when known (spec "regs" or --regs, `ptxas -v` when on
 * PATH, or an nvdisasm listing's SHI_REGISTERS), else rfkit's own (which
 * covers the functions the entry calls).
 */
#ifndef RF_KERNEL_H
#define RF_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/error.h"
#include "../common/param.h"
#include "kir.h"
#include "tripcount.h"

typedef struct rf_launch {
    int grid[3];                 /* CTAs */
    int block[3];                /* threads */
    int smem;                    /* bytes of dynamic shared memory per CTA */
    int regs;                    /* registers per thread; 0 = from code */
} rf_launch;

typedef struct rf_profile {
    double trip;                 /* mean trip count of loops (backward branches) */
    double taken;                /* probability a forward conditional branch is taken */
    double l1_hit;               /* L1 hit rate of global loads */
    double l2_hit;               /* L2 hit rate of L1 misses */
    double dram_share;           /* fraction of DRAM bandwidth this SM gets (0 = fair share) */
    uint64_t seed;               /* the draws' seed: which instance of the branches, loop
                                    trips and cache hits the closed forms' walk takes, as
                                    the sampler's run with this seed does (loaded: 1, the
                                    sampler's default; estimate --seed) */
} rf_profile;

/* smem and regs; grid and block are X[,Y[,Z]] triples read by the spec
 * reader and rf_kernel_opts (rf_launch_parse_dim3). */
extern const rf_param rf_launch_params[];
extern const size_t rf_launch_nparams;
extern const rf_param rf_profile_params[];  /* trip, taken, l1_hit, l2_hit, dram_share */
extern const size_t rf_profile_nparams;

/* Parse a grid (grid true: X up to 2^31 - 1, Y and Z up to 65535, CUDA's
 * limits, so the CTA count fits a long) or a block (each part up to 1024,
 * Z up to 64, at most 1024 threads) written "X[,Y[,Z]]" into out[3];
 * errors name file:line:col: field. */
int rf_launch_parse_dim3(const char *text, bool grid, int out[3], const char *file, int line,
                         int col, const char *field, rf_err *err);

/* Kernel parameters a spec's [params] section or --param may give. */
#define RF_KERNEL_MAX_PARAMS 32

/* Command-line overrides for loading; zero/NULL fields mean "not given". */
typedef struct rf_kernel_opts {
    const char *entry;
    const char *params[RF_KERNEL_MAX_PARAMS];   /* "NAME=VALUE" (--param), over [params] */
    int nparams;
    const char *grid;            /* "X[,Y[,Z]]" */
    const char *block;
    const char *smem;
    const char *regs;
    const char *seed;            /* the profile's draws (rf_profile.seed; NULL: 1) */
    bool no_ptxas;               /* do not run ptxas -v even when on PATH */
} rf_kernel_opts;

/* Where the entry's branch probabilities come from (rf_kernel_load):
 * the code (counted loops and branches on constants, tripcount.h), the
 * spec's [branches], or the profile's trip and taken for the rest. */
typedef struct rf_profile_src {
    int branches;                /* conditional branches */
    int loops;                   /* of them, loop back edges */
    int loops_code;              /* back edges with an exact trip count from the code */
    int fwd_code;                /* forward branches decided by constants */
    int from_spec;               /* branches the spec's [branches] gives */
    int loops_spec;              /* of them, back edges */
    int defaults;                /* branches on the profile's trip or taken */
    int loops_default;           /* of them, back edges (on the profile's trip) */
    bool l1_given, l2_given;     /* l1_hit / l2_hit set by the spec (else defaults) */
    bool trip_given, taken_given; /* trip / taken set by the spec's [profile] */
    char need[160];              /* parameters the code's loops and branches read without
                                    a value, as --param names them ("n, steps"), or "" */
} rf_profile_src;

typedef struct rf_kernel {
    char name[128];              /* spec or code file base name */
    char spec_path[512];         /* "" when loaded from bare code */
    rf_module *mod;              /* parsed code */
    const rf_func *source;       /* entry function as parsed (in mod) */
    rf_func *func;               /* entry, physical registers (owned when allocated) */
    bool func_owned;
    rf_launch launch;
    rf_profile profile;
    rf_profile_src psrc;
    int regs_rfkit;              /* registers per thread from rfkit's allocation */
    int regs_ptxas;              /* from ptxas -v or the spec, -1 = unknown */
    int regs;                    /* the count used for occupancy */
    int smem_static;             /* bytes of static shared memory per CTA */
    uint64_t digest;             /* rf_digest of the spec's text and the code's text:
                                  * what a calibration record is tied to */
    int sms;                     /* SMs the grid is spread over (rf_kernel_spread); the
                                  * kernel's run is then SM 0's share of it.  1 (as
                                  * loaded; 0 reads as 1): the whole grid */
} rf_kernel;

int rf_kernel_load(const char *path, const rf_kernel_opts *opts,
                   rf_kernel **out, rf_err *err);
void rf_kernel_destroy(rf_kernel *k);

/* k->func with the code its calls enter copied at each call (inline.h):
 * SASS subroutines, and PTX device functions allocated on their own
 * (capped at cap registers per thread, 255 when 0).  rf_kernel_load does
 * this; rf_kernel_fit_regs again after allocating anew.  0 or a negative
 * rf_err code. */
int rf_kernel_flatten(rf_kernel *k, int cap, rf_err *err);

/* "profile: trip counts exact for N of M loops (from code/params), ...":
 * which parts of the kernel's profile are defaults, one line, no newline. */
void rf_kernel_profile_line(const rf_kernel *k, char *buf, size_t cap);

/* Threads per CTA. */
int rf_kernel_threads(const rf_kernel *k);

/* The busiest SM's share of the grid.  A GPU of S SMs deals the grid's CTAs
 * round-robin, CTA c to SM c mod S (the hardware's first wave; later CTAs
 * go where a slot frees, which for CTAs of equal length keeps this deal;
 * a static split, so that one SM can be simulated alone).  SM 0 then runs ceil(grid / S) CTAs, the most
 * any SM runs, with grid indices 0, S, 2S, ...; it takes the rest of the
 * chip's load only through its DRAM bandwidth share (gpu.h
 * dram_bytes_per_cycle).  rf_kernel_spread(k, S) makes k's run that share
 * (S <= 1: the whole grid on one SM); the sampler (rf_sim_run), calibration
 * and the CTA walks (rf_kchar_ctaset) then run the share's CTAs, the j-th
 * with the paths and draws of grid CTA rf_kernel_cta_index(k, j).
 * rf_kernel_ctas counts the CTAs of k's run (the share), rf_kernel_grid_ctas
 * the whole grid's. */
void rf_kernel_spread(rf_kernel *k, int sms);
long rf_kernel_ctas(const rf_kernel *k);
long rf_kernel_grid_ctas(const rf_kernel *k);
long rf_kernel_cta_index(const rf_kernel *k, long j);
/* SMs k's grid is spread over (1: the whole grid on one SM). */
int rf_kernel_sms(const rf_kernel *k);

#endif /* RF_KERNEL_H */

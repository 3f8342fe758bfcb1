/* ncu.h - Nsight Compute CSV exports: what a measured kernel launch tells
 * rfkit's kernel spec.
 *
 * Two pages of `ncu --csv` are read (the kind is told from the content):
 *
 *   raw page (`ncu --csv --page raw`): a header row of column names ("ID",
 *   "Kernel Name", "Grid Size", "Block Size", ... then metric names), a
 *   row of units (empty under the fixed columns), then one row per kernel
 *   launch.  Used: launch__grid_dim_{x,y,z} and launch__block_dim_{x,y,z}
 *   (else the "Grid Size" / "Block Size" columns written "(X, Y, Z)", else
 *   launch__grid_size / launch__block_size as one dimension),
 *   launch__registers_per_thread, launch__shared_mem_per_block_dynamic and
 *   _static (scaled by their unit: byte, Kbyte = 1000 bytes, Mbyte, KiB,
 *   MiB), l1tex__t_sector_hit_rate.pct and lts__t_sector_hit_rate.pct (L1
 *   and L2 sector hit rates, "%"), sm__warps_active.avg.pct_of_peak_
 *   sustained_active (achieved occupancy, "%"), and the "CC" column
 *   (compute capability, e.g. "8.6").
 *
 *   details page (`ncu --csv`, the default): the same figures from rows of
 *   "ID","Kernel Name",...,"Grid Size","Block Size",...,"Metric Name",
 *   "Metric Unit","Metric Value", one row per metric and launch; a metric
 *   is named as above (--print-metric-name name) or by its section label
 *   ("Registers Per Thread", "Dynamic Shared Memory Per Block", "Static
 *   Shared Memory Per Block", "L1/TEX Hit Rate", "L2 Hit Rate", "Achieved
 *   Occupancy").  It gives launches like the raw page.
 *
 *   source page (`ncu --csv --page source --print-source sass`): per kernel
 *   a row "Kernel Name",NAME, then a header row with "Address", "Source"
 *   and "Instructions Executed" (or inst_executed), then one row per SASS
 *   instruction: its address (absolute, hex), its text, and how many warp
 *   instructions executed it.
 *
 * Numbers may carry thousands separators ("1,024"); "n/a", "-" and empty
 * cells mean "not measured".  Fields are RFC 4180 CSV (quotes doubled
 * inside quoted fields, CRLF or LF).  Files are capped at 64 MiB and a row
 * at 65536 fields.  Errors name file:line:column and the column.
 */
#ifndef RF_NCU_H
#define RF_NCU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../common/error.h"
#include "kir.h"

#define RF_NCU_MAX_BYTES ((size_t)64 << 20)
#define RF_NCU_MAX_FIELDS 65536

/* One kernel launch of the raw page. */
typedef struct rf_ncu_launch {
    char *kernel;                /* "Kernel Name" as exported (owned) */
    char id[32];                 /* "ID" */
    int line;                    /* row's line in the file */
    int grid[3];                 /* CTAs */
    int block[3];                /* threads */
    int regs;                    /* registers per thread, 0 = not exported */
    long smem_dynamic;           /* bytes per CTA, -1 = not exported */
    long smem_static;            /* bytes per CTA, -1 = not exported */
    double l1_hit, l2_hit;       /* sector hit rates 0..1, -1 = not exported */
    double occupancy;            /* achieved, 0..1, -1 = not exported */
    int cc;                      /* compute capability * 10 (86), 0 = unknown */
} rf_ncu_launch;

/* One SASS instruction of the source page. */
typedef struct rf_ncu_inst {
    unsigned long long addr;
    char *text;                  /* the instruction, trimmed */
    double executed;             /* warp instructions executed */
    int line;
} rf_ncu_inst;

/* One kernel of the source page. */
typedef struct rf_ncu_source {
    char kernel[512];            /* "" when the export names none */
    int line;                    /* line of its header row */
    rf_ncu_inst *insts;
    int ninsts;
} rf_ncu_source;

typedef enum rf_ncu_page { RF_NCU_RAW, RF_NCU_SOURCE, RF_NCU_DETAILS } rf_ncu_page;

typedef struct rf_ncu {
    char path[512];
    int page;                    /* rf_ncu_page */
    rf_ncu_launch *launches;     /* raw or details page */
    int nlaunches;
    rf_ncu_source *sources;      /* source page */
    int nsources;
} rf_ncu;

/* Read a file (at most RF_NCU_MAX_BYTES) or parse text of len bytes. */
int rf_ncu_load(const char *path, rf_ncu **out, rf_err *err);
int rf_ncu_parse(const char *path, const char *text, size_t len, rf_ncu **out, rf_err *err);
void rf_ncu_destroy(rf_ncu *n);

/* Does the exported kernel name match `name`: the whole name, or the
 * function's base name (the identifier before its template arguments and
 * parameter list, without return type or namespace)? */
int rf_ncu_name_matches(const char *exported, const char *name);

/* The launch of `kernel` (the which-th launch that matches, 0-based; -1 =
 * there must be exactly one), or the source-page kernel alike.  0, or
 * RF_EUNKNOWN / RF_EUSAGE naming the file and the candidates. */
int rf_ncu_find_launch(const rf_ncu *n, const char *kernel, int which,
                       const rf_ncu_launch **out, rf_err *err);
int rf_ncu_find_source(const rf_ncu *n, const char *kernel, int which,
                       const rf_ncu_source **out, rf_err *err);

/* Write the source page's instructions as a SASS listing rfkit reads
 * (cuobjdump layout: "code for sm_CC" when cc > 0, "Function : func",
 * one "/(*)OFFSET(*)/ INSTRUCTION ;" line each, offsets from the first
 * address; absolute branch targets inside the kernel become offsets).
 * Instruction i is on line *first_line + i.  0 or RF_EIO. */
int rf_ncu_write_sass(const rf_ncu_source *src, const char *func, int cc, const char *origin,
                      FILE *out, int *first_line);

/* A conditional branch's measured probability. */
typedef struct rf_ncu_branch {
    int block;                   /* block the branch closes */
    double executed;             /* warp executions of the branch */
    double taken;                /* of them, taken (from the flow balance) */
    double p;                    /* taken / executed, clipped to 0..1 */
    bool loop;                   /* a back edge */
    bool exit;                   /* a guarded exit (taken: the warp ends) */
    bool clipped;                /* the balance fell outside 0..1 (divergence) */
} rf_ncu_branch;

/* Branch probabilities of physical function f (SASS listed in code_text,
 * whose lines carry "/(*)OFFSET(*)/") from the source page's counts.
 * A block's executions are those of its last instruction (matched by
 * offset from the kernel's first address; a warp split by divergence
 * issues the reconvergence point at a block's start once per part); every
 * edge out of an unconditional block carries its executions; each
 * conditional block b (a guarded exit included, whose taken edge leaves
 * the kernel) has one unknown, its taken count t_b (not taken: E_b - t_b).
 * Flow balance at each block v other than the entry, E_v = sum of the
 * flows into v, is solved for the unknowns one at a time wherever a
 * balance has just one left (which covers loops and if/else nests of
 * structured code); branches left
 * unsolved, or never executed, are not reported.  *out (heap) gets *n
 * entries.  0, RF_EUNSUPPORTED when no instruction matches, RF_ENOMEM. */
int rf_ncu_branch_probs(const rf_func *f, const char *code_text, const rf_ncu_source *src,
                        rf_ncu_branch **out, int *n, rf_err *err);

#endif /* RF_NCU_H */

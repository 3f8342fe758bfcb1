/* overhead.c - storage each register-file design adds, bits per SM.
 *
 * Register Sharing (seed 003 Section 6), T CTAs and W warps per SM:
 *     1 + T ceil(log2(T+1)) + 2W + floor(W/2) ceil(log2 W)
 *   (sharing-mode bit, sharer CTA id per CTA, shared and owner bits per warp,
 *   a lock per warp pair); 273 bits with T = 8, W = 48 (seed 003 Table 1).
 *
 * FineReg (seed 000 Section V.F), sized for C = 128 tracked CTAs:
 *   CTA status monitor   2 fields x 2 bits x C                       (512)
 *   live bit-vector cache 32 entries x (32-bit PC + R-bit vector)     (3,072)
 *   PCRF pointer table   C x (ceil(log2 E) pointer + ceil(log2 R) count) (2,048)
 *   PCRF tags            E x (ceil(log2 E) next + ceil(log2 Wc) warp + ceil(log2 R) reg) (21,504)
 *   CTA switching logic  2.4 KB, taken from Virtual Thread            (19,661)
 *   with R = architectural registers per thread (a power of two covering
 *   max_regs_per_thread: 64 for 63), E = PCRF entries (128 KB / 128 B = 1,024)
 *   and Wc = warps per CTA (32).  The seed counts 21 tag bits (10 + 5 + 6, the
 *   valid and end bits left out) and we follow it.  Its parts add up to
 *   46,797 bits = 5.71 KB; the seed's quoted total, "about 5.02 KB", is lower
 *   because it gives the tags as 2.15 KB (21 x 1,024 bits is 2.63 KB).
 *
 * Virtual Thread and Reg+DRAM (seed 000 Section VI.A): the 2.4 KB CTA
 *   switching logic.  VT+RegMutex adds, by our estimate (the seed gives no
 *   figure), a free-section bit per warp and a per-warp "holds a section" bit
 *   plus section index: W (2 + ceil(log2 W)).
 *
 * Bank stealing (seed 001 Section IV.C): a status table of 19 bits per bank
 *   (two valid bits, 7-bit free register, 10-bit destination); 152 for 8 banks.
 *
 * HI-RF and RFC register caches (seeds 002, 004): the cache itself, per line
 *   line_bits + tag + valid + dirty, with tag = warp-ID bits + register-ID bits
 *   minus the sub-core-select bits and the index bits of a direct-mapped cache
 *   (none for a fully associative one).
 *
 * LTRF (seed 004 Section 4.3): one warp control block per warp,
 *     W x (R x (ceil(log2 I) + 1) + ceil(log2 A) + 2R)
 *   with I registers per interval (bank number + valid), A active warps
 *   (warp-offset) and the working-set and liveness vectors; 114,880 bits for
 *   W = 64, R = 256, I = 16, A = 8.
 *
 * Baseline and ideal add nothing.
 */
#include "overhead.h"

#include <string.h>

#include "occupancy.h"

#define FINEREG_CTAS 128            /* seed 000 V.F: up to 128 CTAs */
#define FINEREG_CACHE_ENTRIES 32    /* live bit-vector cache entries */
#define FINEREG_PC_BITS 32
#define VT_SWITCH_BITS (2.4 * 1024 * 8) /* 2.4 KB of CTA switching logic */
#define STEAL_BITS_PER_BANK 19

int rf_overhead_ceil_log2(long n)
{
    int b = 0;
    while ((1L << b) < n)
        b++;
    return b;
}

/* Architectural registers per thread: a power of two covering the limit. */
static long arch_regs(const rf_gpu *gpu)
{
    return 1L << rf_overhead_ceil_log2(gpu->max_regs_per_thread);
}

static void add(rf_overhead *o, const char *name, double bits)
{
    if (o->nparts < RF_OVERHEAD_MAX_PARTS) {
        o->part[o->nparts].name = name;
        o->part[o->nparts].bits = bits;
        o->nparts++;
    }
    o->bits += bits;
}

static void register_cache(const rf_gpu *gpu, const rf_design *d, rf_overhead *o)
{
    long per_sub = d->rc_entries > 0 ? d->rc_entries : gpu->rc_entries;
    long lines = per_sub * gpu->subcores;
    int tag = rf_overhead_ceil_log2(gpu->max_warps_per_sm) + rf_overhead_ceil_log2(arch_regs(gpu));
    tag -= rf_overhead_ceil_log2(gpu->subcores);
    if (d->index != RF_RC_FULL)
        tag -= rf_overhead_ceil_log2(per_sub);
    if (tag < 0)
        tag = 0;
    add(o, "register-cache data", (double)lines * gpu->rc_line_bits);
    add(o, "register-cache tag, valid, dirty", (double)lines * (tag + 2));
}

void rf_overhead_compute(const rf_gpu *gpu, const rf_design *d, rf_overhead *o)
{
    memset(o, 0, sizeof *o);
    long T = gpu->max_ctas_per_sm, W = gpu->max_warps_per_sm, R = arch_regs(gpu);
    switch (d->kind) {
    case RF_DESIGN_SHARING:
        add(o, "sharing-mode bit", 1);
        add(o, "sharer CTA ids", (double)T * rf_overhead_ceil_log2(T + 1));
        add(o, "shared and owner bits", 2.0 * W);
        add(o, "warp-pair locks", (double)(W / 2) * rf_overhead_ceil_log2(W));
        break;
    case RF_DESIGN_FINEREG: {
        double acrf, pcrf;
        rf_occ_finereg_split(gpu, d, &acrf, &pcrf);
        long E = (long)(pcrf / (gpu->warp_size * 4.0));
        int ptr = rf_overhead_ceil_log2(E), idx = rf_overhead_ceil_log2(R);
        int warp = rf_overhead_ceil_log2(gpu->max_threads_per_cta / gpu->warp_size);
        add(o, "CTA status monitor", 2.0 * 2 * FINEREG_CTAS);
        add(o, "live bit-vector cache", (double)FINEREG_CACHE_ENTRIES * (FINEREG_PC_BITS + R));
        add(o, "PCRF pointer table", (double)FINEREG_CTAS * (ptr + idx));
        add(o, "PCRF tags", (double)E * (ptr + warp + idx));
        add(o, "CTA switching logic", VT_SWITCH_BITS);
        break;
    }
    case RF_DESIGN_VT:
    case RF_DESIGN_REGDRAM:
        add(o, "CTA switching logic", VT_SWITCH_BITS);
        break;
    case RF_DESIGN_REGMUTEX:
        add(o, "CTA switching logic", VT_SWITCH_BITS);
        add(o, "pool sections and warp locks", (double)W * (2 + rf_overhead_ceil_log2(W)));
        break;
    case RF_DESIGN_STEALING:
        add(o, "bank status table",
            (double)STEAL_BITS_PER_BANK * (d->banks > 0 ? d->banks : gpu->rf_banks));
        break;
    case RF_DESIGN_HIRF:
    case RF_DESIGN_RFC:
        register_cache(gpu, d, o);
        break;
    case RF_DESIGN_LTRF:
        add(o, "warp control blocks",
            (double)W * (R * (rf_overhead_ceil_log2(d->interval_regs) + 1) +
                         rf_overhead_ceil_log2(rf_design_pool(d, gpu)) + 2 * R));
        break;
    default:
        break;
    }
}

/* memory.c - memory latency: L1/L2 hit rates from the profile, DRAM queue.
 *
 * Model: each global or local load of a warp hits L1 with probability
 * l1_hit, else L2 with probability l2_hit, else goes to DRAM (decided by a
 * counter-based hash of seed, warp and its dynamic memory-instruction
 * number: deterministic and independent of timing).  Latencies are the
 * GPU's l1/l2/dram_latency.  DRAM is one first-come-first-served server of
 * B bytes/cycle shared by the simulated SMs:
 *   start = max(now, free_at);  free_at = start + bytes/B;
 *   ready = free_at + dram_latency.
 * A coalesced warp access moves warp_size * 4 bytes per 32-bit word.
 * B = dram_bytes_per_cycle (one SM's share) times the SMs simulated, or when
 * the profile gives dram_share > 0, that fraction of the chip's bandwidth
 * (dram_bytes_per_cycle * sms of the GPU).  Stores are posted (the warp does
 * not wait) and use DRAM bandwidth when they miss L2; atomics are performed
 * at L2 (l2_latency, plus DRAM on an L2 miss).  Shared memory and constant
 * loads take smem_latency.
 */
#include "../common/draw.h"
#include "sim_internal.h"

static uint64_t dram(sim_ctx *x, uint32_t bytes)
{
    if (x->dram.bytes_per_cycle <= 0)
        return (uint64_t)(x->gpu->dram_latency > 0 ? x->gpu->dram_latency : 1);
    double now = (double)x->now;
    double start = x->dram.free_at > now ? x->dram.free_at : now;
    x->dram.free_at = start + bytes / x->dram.bytes_per_cycle;
    double ready = x->dram.free_at + x->gpu->dram_latency;
    uint64_t lat = (uint64_t)(ready - now + 0.999999);
    return lat > 0 ? lat : 1;
}

uint64_t sim_mem_dram(sim_ctx *x, sim_sm *sm, uint32_t bytes)
{
    sm->c.dram_bytes += bytes;
    return dram(x, bytes);
}

uint64_t sim_mem_latency(sim_ctx *x, sim_sm *sm, sim_warp *w, const sim_inst *in, bool *longlat)
{
    *longlat = false;
    if (in->mem == SIM_M_SHARED || in->mem == SIM_M_CONST || in->mem == SIM_M_NONE)
        return (uint64_t)in->latency;
    uint64_t n = w->nmem++;
    double u1 = rf_draw_uniform(x->o->seed, w->gid, n, RF_DRAW_L1);
    double u2 = rf_draw_uniform(x->o->seed, w->gid, n, RF_DRAW_L2);
    switch (in->mem) {
    case SIM_M_STORE:
        if (u2 >= x->l2_hit) {
            sm->c.dram_bytes += in->bytes;
            (void)dram(x, in->bytes);
        }
        return (uint64_t)in->latency;
    case SIM_M_ATOMIC:
        *longlat = true;
        if (u2 < x->l2_hit)
            return (uint64_t)x->gpu->l2_latency;
        sm->c.dram_bytes += in->bytes;
        return (uint64_t)x->gpu->l2_latency + dram(x, in->bytes);
    default:
        *longlat = true;
        if (u1 < x->l1_hit)
            return (uint64_t)(x->gpu->l1_latency > 0 ? x->gpu->l1_latency : 1);
        if (u2 < x->l2_hit)
            return (uint64_t)(x->gpu->l2_latency > 0 ? x->gpu->l2_latency : 1);
        sm->c.dram_bytes += in->bytes;
        return dram(x, in->bytes);
    }
}

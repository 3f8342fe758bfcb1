/* draw.h - counter-based uniform draws shared by the sampler and the
 * closed-form kernel walks.
 *
 * A draw is a pure function of (seed, a, b, stream): splitmix64 applied in
 * cascade, top 53 bits scaled to [0, 1).  Warp paths and cache outcomes are
 * then independent of timing and of which other warps run, and the
 * analytic kernel walks (analytic/kchar.c) replay exactly the paths the
 * sampler's warps take for the same seed (common random numbers).  The
 * streams keep the kinds of decision apart.
 */
#ifndef RF_DRAW_H
#define RF_DRAW_H

#include <stdint.h>

enum rf_draw_stream {
    RF_DRAW_BRANCH = 1,  /* (warp, dynamic branch number): forward branch / loop exit */
    RF_DRAW_L1 = 2,      /* (warp, memory instruction number): L1 hit */
    RF_DRAW_L2 = 3,      /* (warp, memory instruction number): L2 hit */
    RF_DRAW_LOOP = 4     /* (CTA, loop number): trip of a loop holding a barrier */
};

static inline uint64_t rf_draw_mix64(uint64_t z)
{
    z += UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static inline double rf_draw_uniform(uint64_t seed, uint64_t a, uint64_t b, uint64_t stream)
{
    uint64_t h = rf_draw_mix64(seed ^ rf_draw_mix64(a ^ rf_draw_mix64(b ^ rf_draw_mix64(stream))));
    return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

#endif /* RF_DRAW_H */

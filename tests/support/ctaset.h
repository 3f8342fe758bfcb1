/* ctaset.h - hand-built CTA sets for the tests of the models that run
 * them (analytic/waves.c, the pool balance of analytic/kchar.c). */
#ifndef RF_TEST_CTASET_H
#define RF_TEST_CTASET_H

#include "../../analytic/kchar.h"

/* nctas identical CTAs of 2 warps and nph (1 or 2) barrier phases, warp
 * w's phase p taking t[w][p] lone cycles and as many instructions
 * (cpi_lone = 1), with no memory stalls.  Free with rf_kchar_ctaset_free. */
rf_ctaset *ctaset_two_warps(int nctas, int nph, const float t[2][2]);

#endif

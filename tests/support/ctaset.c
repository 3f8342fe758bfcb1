/* ctaset.c - hand-built CTA sets (ctaset.h). */
#include "ctaset.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

rf_ctaset *ctaset_two_warps(int nctas, int nph, const float t[2][2])
{
    rf_ctaset *cs = calloc(1, sizeof *cs);
    assert_non_null(cs);
    cs->nctas = nctas;
    cs->wpc = 2;
    cs->maxph = 2;
    cs->nph = calloc((size_t)nctas, sizeof *cs->nph);
    cs->off = calloc((size_t)nctas, sizeof *cs->off);
    cs->insts = calloc((size_t)nctas * 2 * (size_t)nph, sizeof *cs->insts);
    cs->time = calloc((size_t)nctas * 2 * (size_t)nph, sizeof *cs->time);
    cs->mem_cyc = calloc((size_t)nctas * 2 * (size_t)nph, sizeof *cs->mem_cyc);
    cs->mem_n = calloc((size_t)nctas * 2 * (size_t)nph, sizeof *cs->mem_n);
    assert_true(cs->nph && cs->off && cs->insts && cs->time && cs->mem_cyc && cs->mem_n);
    for (int c = 0; c < nctas; c++) {
        cs->nph[c] = nph;
        cs->off[c] = (size_t)c * 2 * (size_t)nph;
        for (int w = 0; w < 2; w++)
            for (int p = 0; p < nph; p++) {
                cs->time[cs->off[c] + (size_t)w * nph + p] = t[w][p];
                cs->insts[cs->off[c] + (size_t)w * nph + p] = t[w][p];
            }
    }
    cs->cpi_lone = 1.0;
    return cs;
}

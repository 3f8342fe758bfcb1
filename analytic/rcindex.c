/* rcindex.c - register-cache index functions (seed 002, HI-RF + CAC,
 * Section 2.4 and Fig. 3) and critical sets (Section 3).
 *
 * Setting.  An SM runs up to 2^warp_bits warps (64: a 6-bit warp ID); the
 * subcore_bits LSBs of the warp ID pick one of the sub-cores (2 bits: 4
 * sub-cores), each with its own direct-mapped register cache of
 * 2^index_bits lines (256 entries / 4 = 64 lines: 6 index bits).  Register
 * IDs have 8 bits (R0..R255).  Let w = warp >> subcore_bits (the 4 MSBs).
 *
 * Concatenating scheme WxRy (x + y = index_bits):
 *     index = (w mod 2^x) << y  |  reg mod 2^y
 * Seed example (W3R3): warp 011100, register 00010110: w = 0111, its three
 * low bits 111, the register's three low bits 110, index 111110.
 *
 * Thread-context-aware scheme (TEA): the w bits (t = min(warp_bits -
 * subcore_bits, index_bits - 2) of them: 4 in the seed) are bit-reversed
 * and XORed into the t MSBs of the register's index_bits LSBs:
 *     index = (reg mod 2^index_bits) XOR (reverse_t(w mod 2^t) << (index_bits - t))
 * Seed example: w = 0111 reversed 1110; register LSBs 010110; top four
 * 0101 XOR 1110 = 1011; index 101110.
 *
 * Fully associative (HI_Full): one set per sub-core; the tag is the pair.
 *
 * Line = sub-core * 2^index_bits + index; the tag holds the bits of
 * (w, reg) not implied by the line, so pairs sharing a line have distinct
 * tags: concat tag = (w >> x) : (reg >> y), TEA tag = w : (reg >> index_bits).
 *
 * Critical sets (Section 3): registers whose IDs share the LSBs that enter
 * the index unmodified: y bits for concat (8 sets for W3R3; with 27
 * registers the set of 001 is {1, 9, 17, 25}), the index_bits - t low bits
 * for TEA (2 bits, 4 sets).  Writes of one warp to registers of one set
 * compete for the same line.
 *
 * Generalisation (an assumption beyond the seed): other cache sizes keep
 * the same rules with index_bits = log2(lines per sub-core); TEA then
 * XORs t = min(available warp bits, index_bits - 2) warp bits.
 */
#include "rcindex.h"

#include <string.h>

static int log2_exact(long v)
{
    if (v < 1 || (v & (v - 1)))
        return -1;
    int b = 0;
    while ((1L << b) < v)
        b++;
    return b;
}

int rf_rc_geom_init(rf_rc_geom *g, int index, int lines, int subcores,
                    int max_warps, int rbits, rf_err *err)
{
    memset(g, 0, sizeof *g);
    int wb = 0;
    while (wb <= 10 && (1 << wb) < max_warps)
        wb++;
    int sb = log2_exact(subcores), ib = log2_exact(lines);
    if (index < RF_RC_CONCAT || index > RF_RC_FULL)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "index", "unknown index function %d", index);
    if (max_warps < 1 || wb > 10)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "max_warps_per_sm",
                          "%d is not in 1..1024", max_warps);
    if (sb < 0 || sb > wb)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "subcores",
                          "%d is not a power of two up to the warps per SM", subcores);
    if (ib < 0 || ib > RF_RC_REG_BITS + wb - sb)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "rc_entries",
                          "%d lines per sub-core is not a power of two up to 2^%d",
                          lines, RF_RC_REG_BITS + wb - sb);
    g->index = index;
    g->warp_bits = wb;
    g->subcore_bits = sb;
    g->index_bits = ib;
    int avail = wb - sb;
    switch (index) {
    case RF_RC_CONCAT:
        if (rbits < 0 || rbits > RF_RC_REG_BITS || rbits > g->index_bits ||
            g->index_bits - rbits > avail)
            return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "rbits",
                              "R%d does not fit a %d-bit index with %d warp-ID bits",
                              rbits, g->index_bits, avail);
        g->rbits = rbits;
        g->wbits = g->index_bits - rbits;
        g->crit_bits = rbits;
        g->tag_bits = (avail - g->wbits) + (RF_RC_REG_BITS - rbits);
        break;
    case RF_RC_TEA:
        if (g->index_bits > RF_RC_REG_BITS)
            return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "rc_entries",
                              "TEA needs at most %d index bits per sub-core", RF_RC_REG_BITS);
        g->tea_wbits = g->index_bits - 2 < avail ? g->index_bits - 2 : avail;
        if (g->tea_wbits < 0)
            g->tea_wbits = 0;
        g->crit_bits = g->index_bits - g->tea_wbits;
        g->tag_bits = avail + (RF_RC_REG_BITS - g->index_bits);
        break;
    default: /* RF_RC_FULL */
        g->crit_bits = 0;
        g->tag_bits = avail + RF_RC_REG_BITS;
        break;
    }
    return 0;
}

void rf_rc_geom_default(rf_rc_geom *g, int index)
{
    int rc = rf_rc_geom_init(g, index, 64, 4, 64, 3, NULL);
    (void)rc;
}

int rf_rc_geom_for(const rf_design *d, const rf_gpu *gpu, rf_rc_geom *g, rf_err *err)
{
    int lines = d->rc_entries > 0 ? d->rc_entries : gpu->rc_entries;
    int subcores = gpu->subcores > 0 ? gpu->subcores : 1;
    int rc = rf_rc_geom_init(g, d->index, lines, subcores, gpu->max_warps_per_sm, d->rbits, err);
    if (!rc && d->index == RF_RC_CONCAT && d->wbits >= 0 && d->wbits != g->wbits)
        return rf_err_set(err, RF_ERANGE, NULL, 0, 0, "wbits",
                          "W%dR%d does not make the %d-bit index of %d lines (use W%dR%d)",
                          d->wbits, d->rbits, g->index_bits, lines, g->wbits, g->rbits);
    return rc;
}

static unsigned reverse_bits(unsigned v, int n)
{
    unsigned r = 0;
    for (int k = 0; k < n; k++)
        r |= ((v >> k) & 1u) << (n - 1 - k);
    return r;
}

int rf_rc_local_index(const rf_rc_geom *g, int warp, int reg)
{
    unsigned w = (unsigned)warp >> g->subcore_bits;
    unsigned r = (unsigned)reg;
    switch (g->index) {
    case RF_RC_CONCAT:
        return (int)(((w & ((1u << g->wbits) - 1)) << g->rbits) | (r & ((1u << g->rbits) - 1)));
    case RF_RC_TEA: {
        unsigned t = (unsigned)g->tea_wbits;
        unsigned rev = reverse_bits(w & ((1u << t) - 1), (int)t);
        return (int)((r & ((1u << g->index_bits) - 1)) ^ (rev << (g->index_bits - (int)t)));
    }
    default:
        return 0;
    }
}

rf_rc_slot rf_rc_slot_of(const rf_rc_geom *g, int warp, int reg)
{
    rf_rc_slot s;
    unsigned sub = (unsigned)warp & ((1u << g->subcore_bits) - 1);
    unsigned w = (unsigned)warp >> g->subcore_bits;
    unsigned r = (unsigned)reg;
    switch (g->index) {
    case RF_RC_CONCAT:
        s.line = (int)(sub << g->index_bits) + rf_rc_local_index(g, warp, reg);
        s.tag = ((w >> g->wbits) << (RF_RC_REG_BITS - g->rbits)) | (r >> g->rbits);
        break;
    case RF_RC_TEA:
        s.line = (int)(sub << g->index_bits) + rf_rc_local_index(g, warp, reg);
        s.tag = (w << (RF_RC_REG_BITS - g->index_bits)) | (r >> g->index_bits);
        break;
    default:
        s.line = (int)sub;
        s.tag = (w << RF_RC_REG_BITS) | r;
        break;
    }
    return s;
}

int rf_rc_lines(const rf_rc_geom *g)
{
    return g->index == RF_RC_FULL ? 1 << g->subcore_bits
                                  : 1 << (g->subcore_bits + g->index_bits);
}

int rf_rc_ways(const rf_rc_geom *g)
{
    return g->index == RF_RC_FULL ? 1 << g->index_bits : 1;
}

int rf_rc_nsets(const rf_rc_geom *g)
{
    return 1 << g->crit_bits;
}

int rf_rc_set_of(const rf_rc_geom *g, int reg)
{
    return reg & ((1 << g->crit_bits) - 1);
}

int rf_rc_set_members(const rf_rc_geom *g, int s, int nregs, int *members)
{
    int n = 0;
    for (int r = s; r < nregs; r += rf_rc_nsets(g))
        members[n++] = r;
    return n;
}

void rf_rc_balance_of(const rf_rc_geom *g, const double *writes, int nregs, rf_rc_balance *out)
{
    memset(out, 0, sizeof *out);
    out->nsets = rf_rc_nsets(g);
    double total = 0;
    for (int r = 0; r < nregs; r++)
        total += writes[r];
    if (total <= 0)
        return;
    double same = 0;
    for (int s = 0; s < out->nsets; s++) {
        double ps = 0, sq = 0;
        for (int r = s; r < nregs; r += out->nsets) {
            double p = writes[r] / total;
            ps += p;
            sq += p * p;
        }
        if (ps > 0) {
            out->used_sets++;
            same += sq / ps;
            if (ps > out->max_share)
                out->max_share = ps;
        }
    }
    out->conflict = 1 - same;
    if (out->conflict < 0)
        out->conflict = 0;
}

/* test_rcindex.c - register-cache index functions and critical sets
 * (seed 002 Section 2.4 and Section 3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/rcindex.h"
#include "support/kirbuild.h"

/* Section 2.4: warp 011100, register 00010110.
 * Concat W3R3: warp bits 2..4 = 111, register LSBs 110 -> 111110 (62).
 * TEA: warp MSBs 0111 reversed 1110, XOR into the top four of the
 * register's six LSBs 010110: 0101 ^ 1110 = 1011 -> 101110 (46). */
static void test_seed_examples(void **state)
{
    (void)state;
    rf_rc_geom cat, tea;
    rf_rc_geom_default(&cat, RF_RC_CONCAT);
    rf_rc_geom_default(&tea, RF_RC_TEA);
    assert_int_equal(cat.index_bits, 6);
    assert_int_equal(cat.wbits, 3);
    assert_int_equal(cat.rbits, 3);
    assert_int_equal(rf_rc_local_index(&cat, 0x1c, 0x16), 0x3e);
    assert_int_equal(rf_rc_local_index(&tea, 0x1c, 0x16), 0x2e);
    /* Warp 011100 is on sub-core 00, so the line is the local index. */
    assert_int_equal(rf_rc_slot_of(&cat, 0x1c, 0x16).line, 62);
    assert_int_equal(rf_rc_slot_of(&tea, 0x1c, 0x16).line, 46);
    /* Warp 011101 is on sub-core 01: line 64 + index. */
    assert_int_equal(rf_rc_slot_of(&cat, 0x1d, 0x16).line, 64 + 62);
    /* Concat tag: warp MSB above the 3 used bits (0) and register bits
     * 7..3 = 00010 -> 2. */
    assert_int_equal(rf_rc_slot_of(&cat, 0x1c, 0x16).tag, 2);
}

/* Section 5.5 variants on the same pair (warp 011100: w = 0111;
 * register 00010110):
 *   W4R2: w's four bits 0111, register LSBs 10 -> 011110 (30);
 *   W2R4: w's two low bits 11, register LSBs 0110 -> 110110 (54).
 * Critical sets: 4 (W4R2) and 16 (W2R4). */
static void test_concat_variants(void **state)
{
    (void)state;
    rf_rc_geom g;
    rf_err err = {0};
    assert_int_equal(rf_rc_geom_init(&g, RF_RC_CONCAT, 64, 4, 64, 2, &err), 0);
    assert_int_equal(g.wbits, 4);
    assert_int_equal(rf_rc_local_index(&g, 0x1c, 0x16), 30);
    assert_int_equal(rf_rc_nsets(&g), 4);
    assert_int_equal(rf_rc_geom_init(&g, RF_RC_CONCAT, 64, 4, 64, 4, &err), 0);
    assert_int_equal(g.wbits, 2);
    assert_int_equal(rf_rc_local_index(&g, 0x1c, 0x16), 54);
    assert_int_equal(rf_rc_nsets(&g), 16);
}

/* Section 3: 27 registers, concat (three register LSBs): the set of 001 is
 * {1, 9, 17, 25}; 27 = 3*8 + 3 so sets 0..2 have four members, 3..7 three. */
static void test_critical_set_27(void **state)
{
    (void)state;
    rf_rc_geom g;
    rf_rc_geom_default(&g, RF_RC_CONCAT);
    assert_int_equal(rf_rc_nsets(&g), 8);
    int m[32];
    assert_int_equal(rf_rc_set_members(&g, 1, 27, m), 4);
    assert_int_equal(m[0], 1);
    assert_int_equal(m[1], 9);
    assert_int_equal(m[2], 17);
    assert_int_equal(m[3], 25);
    assert_int_equal(rf_rc_set_of(&g, 25), 1);
    assert_int_equal(rf_rc_set_members(&g, 2, 27, m), 4);
    assert_int_equal(rf_rc_set_members(&g, 3, 27, m), 3);
    /* TEA keeps two register LSBs unmodified: four sets. */
    rf_rc_geom t;
    rf_rc_geom_default(&t, RF_RC_TEA);
    assert_int_equal(t.tea_wbits, 4);
    assert_int_equal(rf_rc_nsets(&t), 4);
    assert_int_equal(rf_rc_set_of(&t, 0x16), 2);
    /* W4R2 and W2R4 (Fig. 9): 4 and 16 critical sets. */
    rf_rc_geom w4, w2;
    assert_int_equal(rf_rc_geom_init(&w4, RF_RC_CONCAT, 64, 4, 64, 2, NULL), 0);
    assert_int_equal(rf_rc_geom_init(&w2, RF_RC_CONCAT, 64, 4, 64, 4, NULL), 0);
    assert_int_equal(rf_rc_nsets(&w4), 4);
    assert_int_equal(rf_rc_nsets(&w2), 16);
}

/* Every (warp, register) pair of an SM gets a distinct (line, tag), and the
 * line x tag space is exactly covered: 64 warps x 256 registers = 16384 =
 * lines * 2^tag_bits for each scheme (concat 256 x 2^6, TEA 256 x 2^6,
 * full 4 x 2^12). */
static void test_slots_are_unique(void **state)
{
    (void)state;
    for (int idx = RF_RC_CONCAT; idx <= RF_RC_FULL; idx++) {
        rf_rc_geom g;
        rf_rc_geom_default(&g, idx);
        long space = (long)rf_rc_lines(&g) << g.tag_bits;
        assert_int_equal(space, 64 * 256);
        unsigned char *seen = calloc((size_t)space, 1);
        for (int w = 0; w < 64; w++)
            for (int r = 0; r < 256; r++) {
                rf_rc_slot s = rf_rc_slot_of(&g, w, r);
                assert_in_range(s.line, 0, rf_rc_lines(&g) - 1);
                assert_in_range(s.tag, 0, (1u << g.tag_bits) - 1);
                long k = ((long)s.line << g.tag_bits) | s.tag;
                assert_int_equal(seen[k], 0);
                seen[k] = 1;
            }
        free(seen);
    }
    rf_rc_geom f;
    rf_rc_geom_default(&f, RF_RC_FULL);
    assert_int_equal(rf_rc_ways(&f), 64);
    assert_int_equal(rf_rc_nsets(&f), 1);
}

/* Two registers of one set, writes 3 and 1 (shares .75, .25), 16
 * registers, concat: same-line probability .75^2 + .25^2 = .625, so the
 * conflict proxy is .375; the set holds all writes (max share 1).  Moving
 * the second register to another set gives 0 conflicts, max share .75. */
static void test_balance(void **state)
{
    (void)state;
    rf_rc_geom g;
    rf_rc_geom_default(&g, RF_RC_CONCAT);
    double wr[16] = {0};
    wr[0] = 3;
    wr[8] = 1;
    rf_rc_balance b;
    rf_rc_balance_of(&g, wr, 16, &b);
    assert_int_equal(b.nsets, 8);
    assert_int_equal(b.used_sets, 1);
    assert_near(b.max_share, 1.0, 1e-12);
    assert_near(b.conflict, 0.375, 1e-12);
    wr[8] = 0;
    wr[1] = 1;
    rf_rc_balance_of(&g, wr, 16, &b);
    assert_int_equal(b.used_sets, 2);
    assert_near(b.max_share, 0.75, 1e-12);
    assert_near(b.conflict, 0.0, 1e-12);
}

static void test_bad_geometry(void **state)
{
    (void)state;
    rf_rc_geom g;
    rf_err err;
    /* W?R7: a 6-bit index cannot take 7 register bits. */
    assert_int_equal(rf_rc_geom_init(&g, RF_RC_CONCAT, 64, 4, 64, 7, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, "rbits"));
    assert_int_equal(rf_rc_geom_init(&g, RF_RC_TEA, 50, 4, 64, 3, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, "rc_entries"));
    /* 512 entries (128 lines per sub-core): 7 index bits, TEA XORs 4 warp
     * bits, 3 register LSBs stay. */
    assert_int_equal(rf_rc_geom_init(&g, RF_RC_TEA, 128, 4, 64, 3, &err), 0);
    assert_int_equal(g.crit_bits, 3);
    /* From a design and the volta-hirf preset (64 lines x 4 sub-cores,
     * 64 warps): W3R3 fits, W4R3 does not. */
    rf_design d;
    rf_gpu gpu;
    rf_design_init(&d);
    assert_int_equal(rf_gpu_preset("volta-hirf", &gpu, &err), 0);
    d.index = RF_RC_CONCAT;
    assert_int_equal(rf_rc_geom_for(&d, &gpu, &g, &err), 0);
    assert_int_equal(g.index_bits, 6);
    assert_int_equal(rf_rc_lines(&g), 256);
    d.wbits = 4;
    assert_int_equal(rf_rc_geom_for(&d, &gpu, &g, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, "wbits"));
    d.index = RF_RC_TEA;
    assert_int_equal(rf_rc_geom_for(&d, &gpu, &g, &err), 0);
    assert_int_equal(rf_rc_nsets(&g), 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_examples),
        cmocka_unit_test(test_concat_variants),
        cmocka_unit_test(test_critical_set_27),
        cmocka_unit_test(test_slots_are_unique),
        cmocka_unit_test(test_balance),
        cmocka_unit_test(test_bad_geometry),
    };
    return cmocka_run_group_tests_name("rcindex", tests, NULL, NULL);
}

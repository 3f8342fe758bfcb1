/* test_sass.c - SASS listing reader (cuobjdump -sass and nvdisasm text):
 * register pairs and quads, guards, branch targets, older generations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../inputs/kir.h"

#define P(n) (RF_PRED_BASE + (n))

static const rf_func *load(const char *path, rf_module **m)
{
    rf_err err = {0};
    if (rf_module_load(path, m, &err))
        fail_msg("%s", err.msg);
    assert_int_equal((*m)->kind, RF_CODE_SASS);
    const rf_func *f = rf_module_func(*m, NULL);
    assert_non_null(f);
    assert_true(f->physical);
    assert_null(f->regs);
    return f;
}

static void regs_are(const uint16_t *list, int n, const int *want, int nw)
{
    assert_int_equal(n, nw);
    for (int i = 0; i < nw; i++)
        assert_int_equal(list[i], want[i]);
}
#define DEFS(in, ...) do { static const int w_[] = {__VA_ARGS__}; \
    regs_are((in)->defs, (in)->ndefs, w_, (int)(sizeof w_ / sizeof w_[0])); } while (0)
#define USES(in, ...) do { static const int w_[] = {__VA_ARGS__}; \
    regs_are((in)->uses, (in)->nuses, w_, (int)(sizeof w_ / sizeof w_[0])); } while (0)

/* tests/fixtures/turing.sass (cuobjdump -sass, sm_75).  Index = address /
 * 0x10.  Blocks: 0..5 (@P0 EXIT falls through), 6..15 (@!P1 BRA 0x120),
 * 16..17 (BRA 0x130), 18, 19..20 (EXIT), 21 (BRA to itself), 22 (NOP). */
static void test_turing(void **state)
{
    (void)state;
    rf_module *m;
    const rf_func *f = load("tests/fixtures/turing.sass", &m);
    assert_string_equal(f->name, "_Z5saxpyifPfS_");
    assert_string_equal(m->target, "sm_75");
    assert_int_equal(f->ninsts, 23);
    assert_int_equal(f->nregs, 14);       /* R13 is the highest */
    assert_int_equal(f->npreds, 2);
    assert_int_equal(f->unknown_ops, 0);
    assert_string_equal(m->opnames[f->insts[0].opcode], "IMAD");
    DEFS(&f->insts[0], 1);                 /* IMAD.MOV.U32 R1, RZ, RZ, c[..] */
    assert_int_equal(f->insts[0].nuses, 0);
    DEFS(&f->insts[4], P(0));              /* ISETP.GE.AND P0, PT, R0, c, PT */
    USES(&f->insts[4], 0);
    assert_int_equal(f->insts[5].guard, P(0));
    assert_int_equal(f->insts[5].cls, RF_OC_EXIT);
    DEFS(&f->insts[7], 2, 3);              /* IMAD.WIDE: pair */
    USES(&f->insts[7], 0, 5);
    assert_int_equal(f->insts[7].cls, RF_OC_ALU64);
    DEFS(&f->insts[9], 6, 7);              /* LDG.E.64 R6, [R2] (.E: R2:R3) */
    USES(&f->insts[9], 2, 3);
    DEFS(&f->insts[10], 8, 9, 10, 11);     /* LDG.E.128 R8, [R4.64] */
    USES(&f->insts[10], 4, 5);
    DEFS(&f->insts[12], 12, 13);           /* DADD R12, R8, R10 */
    USES(&f->insts[12], 8, 9, 10, 11);
    assert_int_equal(f->insts[13].ndefs, 0);
    USES(&f->insts[13], 2, 3, 6, 7);       /* STG.E.64 [R2.64], R6 */
    USES(&f->insts[16], 4, 5, 8, 9, 10, 11); /* STG.E.128 [R4.64+0x10], R8 */
    USES(&f->insts[18], 0, 12);            /* STS [R0+-0x4], R12 */
    assert_int_equal(f->insts[18].cls, RF_OC_ST_SHARED);
    const rf_inst *br = &f->insts[15];     /* @!P1 BRA 0x120 */
    assert_int_equal(br->guard, P(1));
    assert_true(br->flags & RF_IF_GUARD_NEG);
    assert_int_equal(br->cls, RF_OC_BRANCH);
    assert_int_equal(f->insts[19].cls, RF_OC_BARRIER);
    assert_int_equal(f->nblocks, 7);
    static const int first[7] = {0, 6, 16, 18, 19, 21, 22};
    static const int nsucc[7] = {1, 2, 1, 1, 0, 1, 0};
    for (int b = 0; b < 7; b++) {
        assert_int_equal(f->blocks[b].first, first[b]);
        assert_int_equal(f->blocks[b].nsucc, nsucc[b]);
    }
    assert_int_equal(f->blocks[1].succ[0], 2);
    assert_int_equal(f->blocks[1].succ[1], 3);
    assert_int_equal(br->target, 3);
    assert_int_equal(f->blocks[2].succ[0], 4);
    assert_int_equal(f->blocks[5].succ[0], 5);
    assert_true(f->insts[21].flags & RF_IF_LOOPBACK);
    rf_module_destroy(m);
}

/* tests/fixtures/maxwell.sass: ISCADD/IADD.X with .CC, LD.E/ST.E with
 * 64-bit addresses, SSY/SYNC reconvergence, dual-issue braces. */
static void test_maxwell(void **state)
{
    (void)state;
    rf_module *m;
    const rf_func *f = load("tests/fixtures/maxwell.sass", &m);
    assert_string_equal(m->target, "sm_52");
    assert_int_equal(f->ninsts, 15);
    assert_int_equal(f->unknown_ops, 0);
    DEFS(&f->insts[2], 2);                 /* ISCADD R2.CC, R0, c, 0x2 */
    USES(&f->insts[2], 0);
    DEFS(&f->insts[4], 4);                 /* LD.E R4, [R2] */
    USES(&f->insts[4], 2, 3);
    USES(&f->insts[12], 2, 3, 4);          /* ST.E [R2], R4 */
    assert_int_equal(f->nblocks, 5);
    /* Both SYNCs go to the SSY target 0x88 (block 3). */
    assert_int_equal(f->blocks[1].nsucc, 1);
    assert_int_equal(f->blocks[1].succ[0], 3);
    assert_int_equal(f->blocks[2].succ[0], 3);
    assert_int_equal(f->blocks[0].succ[1], 2);
    assert_int_equal(f->insts[10].line, 18);   /* inside the braces */
    rf_module_destroy(m);
}

/* tests/fixtures/ampere.sass (nvdisasm): labels, `(.L_x_N) targets,
 * desc[UR][R.64] addresses, BSSY/BSYNC, uniform registers. */
static void test_ampere(void **state)
{
    (void)state;
    rf_module *m;
    const rf_func *f = load("tests/fixtures/ampere.sass", &m);
    assert_string_equal(f->name, "_Z4loopPfi");
    assert_true(f->is_entry);
    assert_string_equal(m->target, "sm_86");
    assert_int_equal(f->ninsts, 18);
    assert_int_equal(f->nblocks, 6);
    assert_string_equal(f->blocks[2].label, ".L_x_0");
    assert_int_equal(f->blocks[2].first, 9);
    assert_int_equal(f->blocks[2].succ[0], 3);
    assert_int_equal(f->blocks[2].succ[1], 2);
    assert_int_equal(f->blocks[0].succ[1], 3);   /* @P0 BRA .L_x_2 */
    assert_int_equal(f->insts[2].nuses + f->insts[2].ndefs, 0); /* ULDC UR4 */
    USES(&f->insts[9], 2, 3);                    /* desc[UR4][R2.64] */
    assert_int_equal(f->insts[4].cls, RF_OC_NOP); /* BSSY */
    assert_int_equal(f->nregs, 6);
    assert_int_equal(f->regs_reported, 12);      /* SHI_REGISTERS=12 */
    assert_string_equal(f->blocks[0].label, "_Z4loopPfi");
    rf_module_destroy(m);
}

static void expect_error(const char *text, int code, const char *msg)
{
    rf_module *m = NULL;
    rf_err err = {0};
    assert_int_equal(rf_sass_parse("t.sass", text, &m, &err), code);
    assert_null(m);
    if (!strstr(err.msg, msg))
        fail_msg("expected '%s' in '%s'", msg, err.msg);
}

static void test_malformed_and_unknown(void **state)
{
    (void)state;
    expect_error("  /*0000*/  IADD3 R300, R1, R2, RZ ;\n", RF_EPARSE,
                 "t.sass:1:19: bad register 'R300'");
    /* Six or more digits were once read as "not a register" and dropped. */
    expect_error("  /*0000*/  IADD3 R1, R2, R999999999999, RZ ;\n", RF_EPARSE,
                 "t.sass:1:27: bad register 'R999999999999'");
    expect_error("  /*0000*/  IADD3 R1000000.64, R2, RZ, RZ ;\n", RF_EPARSE,
                 "t.sass:1:19: bad register 'R1000000.64'");
    expect_error("\n  /*0000*/  BRA 0x40 ;\n", RF_EPARSE,
                 "t.sass:2:13: branch target 0x40 is not an instruction address");
    expect_error("  /*0000*/  @Q0 EXIT ;\n", RF_EPARSE,
                 "t.sass:1:13: bad guard predicate 'Q0'");
    expect_error("  /*0000*/  BRA `(.L_x_9) ;\n", RF_EPARSE,
                 "undefined label '.L_x_9'");
    expect_error("  /*0000*/  LDG.E R2, [R4.64 ;\n", RF_EPARSE,
                 "t.sass:1:13: unbalanced brackets");
    expect_error("just some text\n", RF_EPARSE, "no SASS instructions");
    expect_error("\tFunction : a\n", RF_EPARSE, "t.sass: no SASS instructions found");
    /* A header without code is no function (it was one with no blocks). */
    {
        rf_module *e = NULL;
        rf_err eerr = {0};
        assert_int_equal(rf_sass_parse("e.sass", "\tFunction : a\n\tFunction : b\n"
                                                 "  /*0000*/  EXIT ;\n", &e, &eerr), RF_OK);
        assert_int_equal(e->nfuncs, 1);
        assert_string_equal(e->funcs[0].name, "b");
        assert_null(rf_module_func(e, "a"));
        assert_int_equal(e->funcs[0].ninsts, 1);
        assert_int_equal(e->funcs[0].nblocks, 1);
        rf_module_destroy(e);
    }
    /* An unknown opcode is classed by its name and counted, never fatal. */
    rf_module *m;
    rf_err err = {0};
    int rc = rf_sass_parse("u.sass",
                           "/*0000*/ FROB.F64 R2, R4, R6 ;\n"
                           "/*0010*/ LDZZ R8, [R2] ;\n"
                           "/*0020*/ @!PT LDS RZ, [RZ] ;\n"
                           "/*0030*/ EXIT ;\n", &m, &err);
    if (rc)
        fail_msg("%s", err.msg);
    const rf_func *f = &m->funcs[0];
    assert_string_equal(f->name, "u");
    assert_int_equal(f->unknown_ops, 2);
    assert_int_equal(f->insts[0].cls, RF_OC_ALU64);
    assert_true(f->insts[0].flags & RF_IF_UNKNOWN);
    assert_int_equal(f->insts[1].cls, RF_OC_LD_GLOBAL);
    assert_int_equal(f->insts[2].cls, RF_OC_NOP);    /* @!PT never runs */
    assert_int_equal(f->insts[2].nuses + f->insts[2].ndefs, 0);
    rf_module_destroy(m);
}

/* Blackwell-era listings carry scheduling annotations after the operands
 * and load parameters with LDC/LDCU. */
static void test_annotations(void **state)
{
    (void)state;
    static const char text[] =
        "        /*0000*/                   LDC R1, c[0x0][0x37c] ;\n"
        "        /*0010*/                   S2R R0, SR_TID.X ;\n"
        "        /*0020*/                   LDCU.64 UR4, c[0x0][0x358] ;\n"
        "        /*0030*/                   LDC.64 R2, c[0x0][0x380] ;\n"
        "        /*0040*/                   IADD3 R1, PT, PT, R1, -0x100, RZ      "
        "&req={0}         ?WAIT2_END_GROUP;  /* 0xffffff0001017810 */\n"
        "        /*0050*/                   LDG.E.CONSTANT R12, desc[UR4][R2.64]   "
        "&req={0} &wr=0x2 ?trans4;           /* 0x00000006040c7981 */\n"
        "        /*0060*/                   EXIT ;\n";
    rf_module *m;
    rf_err err = {0};
    if (rf_sass_parse("bw.sass", text, &m, &err))
        fail_msg("%s", err.msg);
    const rf_func *f = &m->funcs[0];
    assert_int_equal(f->ninsts, 7);
    assert_int_equal(f->unknown_ops, 0);
    assert_int_equal(f->insts[2].cls, RF_OC_LD_CONST);
    assert_int_equal(f->insts[2].ndefs, 0);      /* uniform register */
    DEFS(&f->insts[3], 2, 3);                    /* LDC.64 */
    DEFS(&f->insts[4], 1);                       /* PT carry-outs are sinks */
    USES(&f->insts[4], 1);
    DEFS(&f->insts[5], 12);
    USES(&f->insts[5], 2, 3);
    rf_module_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turing),
        cmocka_unit_test(test_maxwell),
        cmocka_unit_test(test_ampere),
        cmocka_unit_test(test_malformed_and_unknown),
        cmocka_unit_test(test_annotations),
    };
    return cmocka_run_group_tests_name("sass", tests, NULL, NULL);
}

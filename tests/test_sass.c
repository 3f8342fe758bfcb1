/* test_sass.c - SASS listing reader (cuobjdump -sass and nvdisasm text):
 * register pairs and quads, guards, branch targets, older generations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../analytic/intervals.h"
#include "../analytic/kchar.h"
#include "../inputs/inline.h"
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

/* Edges of f and the blocks reachable from its entry block. */
static int count_edges(const rf_func *f)
{
    int n = 0;
    for (int b = 0; b < f->nblocks; b++)
        n += f->blocks[b].nsucc;
    return n;
}

static int count_reachable(const rf_func *f)
{
    int seen[64] = {0}, stack[64], ns = 0, n = 0;
    assert_true(f->nblocks <= 64);
    stack[ns++] = 0;
    seen[0] = 1;
    while (ns) {
        const rf_block *b = &f->blocks[stack[--ns]];
        n++;
        for (int k = 0; k < b->nsucc; k++)
            if (!seen[b->succ[k]]) {
                seen[b->succ[k]] = 1;
                stack[ns++] = b->succ[k];
            }
    }
    return n;
}

/* Register-intervals (N = 16, pass 2) after pass 1 and at the end, and
 * strands. */
static void interval_counts(const rf_func *f, int pass1, int final, int strands)
{
    rf_iv_opts o;
    rf_iv_opts_default(&o);
    rf_intervals iv;
    rf_err err = {0};
    if (rf_iv_form(f, &o, &iv, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(iv.pass1, pass1);
    assert_int_equal(iv.n, final);
    rf_iv_free(&iv);
    o.kind = RF_IV_STRAND;
    if (rf_iv_form(f, &o, &iv, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(iv.n, strands);
    rf_iv_free(&iv);
}

static void succs_are(const rf_func *f, int b, int n, int s0, int s1)
{
    assert_int_equal(f->blocks[b].nsucc, n);
    if (n > 0)
        assert_int_equal(f->blocks[b].succ[0], s0);
    if (n > 1)
        assert_int_equal(f->blocks[b].succ[1], s1);
}

/* tests/fixtures/kepler_ssy.sass (cuobjdump -sass layout, sm_35): the
 * reconvergence stack.  Pops print no target; each goes where the stack
 * entry of its kind says. */
static void check_kepler(const rf_module *m)
{
    assert_int_equal(m->nfuncs, 2);
    /* clampsum: 0..7 end in @P0 BRA 0x60 (SSY 0x68 at 6); 8..9 FADD, NOP.S;
     * 10 FADD.S (the Kepler sync bit on an ALU op); 11..12 ST, EXIT;
     * 13 BRA to itself.  Both pops go to the SSY target 0x68 (block 3):
     * edges 0->1, 0->2, 1->3, 2->3, 4->4 = 5, blocks 0..3 reachable.
     * Read as plain instructions the NOP.S fell into block 2. */
    const rf_func *f = &m->funcs[0];
    assert_string_equal(f->name, "_Z8clampsumPf");
    assert_int_equal(f->ninsts, 14);
    assert_int_equal(f->nblocks, 5);
    succs_are(f, 0, 2, 1, 2);
    succs_are(f, 1, 1, 3, 0);
    succs_are(f, 2, 1, 3, 0);
    succs_are(f, 3, 0, 0, 0);
    succs_are(f, 4, 1, 4, 0);
    assert_int_equal(count_edges(f), 5);
    assert_int_equal(count_reachable(f), 4);
    assert_int_equal(f->insts[9].cls, RF_OC_BRANCH);   /* NOP.S */
    assert_int_equal(f->insts[10].cls, RF_OC_ALU);     /* FADD.S still adds */
    DEFS(&f->insts[10], 4);
    assert_int_equal(f->insts[10].target, 3);
    /* R0..R4 fit N = 16: pass 1 grows one interval over blocks 0..3 (every
     * predecessor inside), block 4 is unreached: 2, pass 2 cannot merge a
     * predecessor-less interval: 2.  Strands also end after LD.E (inst 4):
     * {0..4}, {5..12}, {13} = 3. */
    interval_counts(f, 2, 2, 3);

    /* findkey: PBK 0xc8, a loop at 0x48 that pushes PCNT 0xa0 each
     * iteration, @P1 CONT, @!P2 BRK, CONT, the back edge @P0 BRA 0x48 and a
     * BRK after it.  Blocks: 0 (0..5, @P0 BRA to the store), 1 (PBK),
     * 2 (7..12, @P1 CONT), 3 (13..15, @!P2 BRK), 4 (CONT), 5 (17..19 at
     * the continue point, back edge), 6 (BRK), 7 (21..24 store, EXIT),
     * 8 (BRA to itself).  CONTs go to 0xa0 (block 5) through the PCNT
     * entry; the BRK inside the PCNT entry skips it to the PBK target
     * 0xc8 (block 7). */
    f = &m->funcs[1];
    assert_string_equal(f->name, "_Z7findkeyPKiiiPi");
    assert_int_equal(f->ninsts, 26);
    assert_int_equal(f->nblocks, 9);
    succs_are(f, 0, 2, 1, 7);
    succs_are(f, 1, 1, 2, 0);
    succs_are(f, 2, 2, 3, 5);
    succs_are(f, 3, 2, 4, 7);
    succs_are(f, 4, 1, 5, 0);
    succs_are(f, 5, 2, 6, 2);
    succs_are(f, 6, 1, 7, 0);
    succs_are(f, 7, 0, 0, 0);
    succs_are(f, 8, 1, 8, 0);
    assert_int_equal(count_edges(f), 12);
    assert_int_equal(count_reachable(f), 8);
    /* Pass 1: {0, 1}; its successors start {7} and {2}; {2} takes 3, 4, 5
     * and 6 (all their predecessors inside); block 8 unreached: 4.  Pass
     * 2 folds {2..6} into {0, 1} (its only outside predecessor), then {7}
     * (predecessors {0, 1} and {2..6}, now one): 2.  Strands: {0..6},
     * {7..10} (ends after LD.E), {11..19} (3, 4, 5 join; the back edge
     * cuts 5 -> 6), {20}, {21..24}, {25} = 6. */
    interval_counts(f, 4, 2, 6);
}

static void test_kepler_stack(void **state)
{
    (void)state;
    rf_module *m;
    load("tests/fixtures/kepler_ssy.sass", &m);
    assert_string_equal(m->target, "sm_35");
    check_kepler(m);
    rf_module_destroy(m);
}

/* tests/fixtures/longcall.sass (nvdisasm layout, sm_60): a CAL to the
 * 68-character `$kernel$__cuda_sm20_div_f64_slowpath_v2` subroutine and a
 * __device__ global's address built from 32@lo(gsum) / 32@hi(gsum). */
static void check_longcall(const rf_module *m)
{
    static const char sub[] =
        "$_Z21normalise_rows_by_meanPdPKdS1_i$__cuda_sm20_div_f64_slowpath_v2";
    assert_int_equal(strlen(sub), 68);
    assert_int_equal(m->nfuncs, 2);
    const rf_func *f = &m->funcs[0];
    assert_string_equal(f->name, "_Z21normalise_rows_by_meanPdPKdS1_i");
    assert_true(f->is_entry);
    assert_int_equal(f->ninsts, 34);
    assert_int_equal(f->unknown_ops, 0);
    assert_int_equal(f->insts[25].cls, RF_OC_CALL);
    DEFS(&f->insts[28], 4);                      /* MOV32I R4, 32@lo(gsum) */
    assert_int_equal(f->insts[28].nuses, 0);
    DEFS(&f->insts[29], 5);                      /* MOV32I R5, 32@hi(gsum) */
    assert_int_equal(f->insts[29].nuses, 0);
    USES(&f->insts[31], 4, 5, 8, 9);             /* RED.E.ADD.F64 [R4], R8 */
    /* Blocks: 0 (0..20, @!P0 BRA .L_1), 1 (21..25, argument moves and
     * the CAL), 2 (.L_1: 26..32, EXIT), 3 (BRA to itself).  Edges 0->1,
     * 0->2, 1->2, 3->3 = 4; blocks 0..2 reachable. */
    assert_int_equal(f->nblocks, 4);
    succs_are(f, 0, 2, 1, 2);
    succs_are(f, 1, 1, 2, 0);
    succs_are(f, 2, 0, 0, 0);
    assert_int_equal(count_edges(f), 4);
    assert_int_equal(count_reachable(f), 3);
    assert_int_equal(f->nregs, 16);
    /* R0..R13 in block 0 and R14, R15 in block 1 fill N = 16 exactly.
     * Pass 1: {0, 1 up to the CAL}, {CAL} (calls are intervals of their
     * own), {2} (one predecessor is the call), {3} unreached = 4; pass 2
     * merges nothing into or across a call: 4.  Strands end after each
     * LDG (8, 9) and the RED (31): {0..8}, {9}, {10..24}, {CAL}, {26..31},
     * {32}, {33} = 7. */
    interval_counts(f, 4, 4, 7);

    f = &m->funcs[1];
    assert_string_equal(f->name, sub);
    assert_false(f->is_entry);
    assert_int_equal(f->ninsts, 8);
    /* 0..1 (@P0 BRA .L_3), 2..4 RET, 5..6 .L_3 RET, 7 BRA to itself. */
    assert_int_equal(f->nblocks, 4);
    succs_are(f, 0, 2, 1, 2);
    assert_int_equal(count_edges(f), 3);
    assert_int_equal(count_reachable(f), 3);
    /* One interval over blocks 0..2, block 3 alone; strands the same. */
    interval_counts(f, 2, 2, 2);
}

static void test_long_names_relocations(void **state)
{
    (void)state;
    rf_module *m;
    load("tests/fixtures/longcall.sass", &m);
    check_longcall(m);
    assert_int_equal(m->funcs[0].regs_reported, 16);
    assert_non_null(rf_module_func(m, "$_Z21normalise_rows_by_meanPdPKdS1_i$__cuda_sm20"
                                      "_div_f64_slowpath_v2"));
    rf_module_destroy(m);
}

/* Labels longer than any old fixed buffer, relocation forms inside
 * constant-bank addresses and with @srel, nested SSY regions. */
static void test_labels_relocs_nesting(void **state)
{
    (void)state;
    char label[301], text[2048];
    memset(label, 'x', sizeof label - 1);
    memcpy(label, ".L_", 3);
    label[sizeof label - 1] = '\0';
    snprintf(text, sizeof text,
             "/*0000*/ MOV R20, 32@lo((_Z3fooi + .L_x_0@srel)) ;\n"
             "/*0010*/ MOV R21, 32@hi((_Z3fooi + .L_x_0@srel)) ;\n"
             "/*0020*/ LDC R2, c[0x3][R20+32@lo(table)] ;\n"
             "/*0030*/ MOV R3, c[0x3][32@hi(table)] ;\n"
             "/*0040*/ BRA `(%s) ;\n"
             "%s:\n"
             "/*0050*/ EXIT ;\n", label, label);
    rf_module *m;
    rf_err err = {0};
    if (rf_sass_parse("r.sass", text, &m, &err))
        fail_msg("%s", err.msg);
    const rf_func *f = &m->funcs[0];
    DEFS(&f->insts[0], 20);
    assert_int_equal(f->insts[0].nuses, 0);
    DEFS(&f->insts[2], 2);
    USES(&f->insts[2], 20);
    DEFS(&f->insts[3], 3);
    assert_int_equal(f->insts[3].nuses, 0);
    assert_int_equal(f->nblocks, 2);
    assert_int_equal(f->insts[4].target, 1);
    rf_module_destroy(m);

    /* Nested SSY (Maxwell): the inner SYNC reconverges at 0x50, the outer
     * one after it at 0x60; a SYNC that only remembered the latest SSY
     * sent both to 0x50.  Blocks: 0 (0..3), 1 (SYNC to 0x50), 2 (0x40
     * SYNC from the @P1 BRA), 3 (0x50 SYNC, outer), 4 (EXIT). */
    static const char nested[] =
        "/*0000*/ SSY 0x60 ;\n"
        "/*0008*/ SSY 0x50 ;\n"
        "/*0010*/ ISETP.NE.AND P1, PT, R0, RZ, PT ;\n"
        "/*0018*/ @P1 BRA 0x40 ;\n"
        "/*0020*/ SYNC ;\n"
        "/*0040*/ SYNC ;\n"
        "/*0050*/ SYNC ;\n"
        "/*0060*/ EXIT ;\n";
    if (rf_sass_parse("n.sass", nested, &m, &err))
        fail_msg("%s", err.msg);
    f = &m->funcs[0];
    assert_int_equal(f->nblocks, 5);
    succs_are(f, 0, 2, 1, 2);
    succs_are(f, 1, 1, 3, 0);
    succs_are(f, 2, 1, 3, 0);
    succs_are(f, 3, 1, 4, 0);
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
    expect_error("/*0000*/ MOV R4, c[0x3][32@lo(sym] ;\n", RF_EPARSE,
                 "t.sass:1:30: unbalanced '(' in relocation");
    expect_error("/*0000*/ MOV R4, c[0x3][R2@] ;\n", RF_EPARSE,
                 "t.sass:1:27: unexpected '@' in operand");
    expect_error("/*0000*/ SYNC (*\"TARGET= .L_1 \"* ;\n", RF_EPARSE,
                 "t.sass:1:15: unterminated '(*' annotation");
    expect_error("/*0000*/ SSY `(.L_9) ;\n/*0008*/ EXIT ;\n", RF_EPARSE,
                 "t.sass:1:10: undefined label '.L_9'");
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

/* A subroutine called twice (rf_inline_subroutines): each call's block is
 * split after the CALL, a copy of the subroutine follows, its RET goes to
 * the rest of the block.  Listing: entry block 0 (MOV, CALL, IADD, CALL,
 * EXIT: 5 instructions), subroutine at 0x50 with a loop: FADD, @P0 BRA
 * 0x50 (block 1), then RET (block 2).  Inlined: [0: MOV CALL] [1 .c1: FADD
 * BRA] [2 .c1: RET] [3 .r1: IADD CALL] [4 .c2: FADD BRA] [5 .c2: RET]
 * [6 .r2: EXIT] and the original subroutine blocks 7, 8 unreached.  With
 * the back edge taken 0.75 (4 runs per entry), a warp runs
 * 2 + 2 (2 x 4 + 1) + 2 + 1 = 23 instructions; the walk without the
 * subroutine ran 5. */
static void test_inline_subroutines(void **state)
{
    (void)state;
    static const char text[] =
        "\tFunction : k\n"
        "/*0000*/ MOV R6, 0x20 ;\n"
        "/*0010*/ CALL.REL.NOINC 0x50 ;\n"
        "/*0020*/ IADD3 R1, R1, 0x1, RZ ;\n"
        "/*0030*/ CALL.REL.NOINC 0x50 ;\n"
        "/*0040*/ EXIT ;\n"
        "/*0050*/ FADD R2, R2, 1 ;\n"
        "/*0060*/ @P0 BRA 0x50 ;\n"
        "/*0070*/ RET.REL.NODEC R6 0x0 ;\n";
    rf_module *m;
    rf_err err = {0};
    if (rf_sass_parse("c.sass", text, &m, &err))
        fail_msg("%s", err.msg);
    const rf_func *f = &m->funcs[0];
    assert_int_equal(f->nblocks, 3);
    assert_int_equal(f->insts[1].target, 1);
    assert_int_equal(f->insts[3].target, 1);
    rf_func *g = NULL;
    if (rf_inline_subroutines(m, f, &g, &err))
        fail_msg("%s", err.msg);
    assert_non_null(g);
    assert_int_equal(g->nblocks, 9);
    static const int ninsts[] = {2, 2, 1, 2, 2, 1, 1, 2, 1};
    static const int succ0[] = {1, 2, 3, 4, 5, 6, -1, 8, -1};
    for (int b = 0; b < 9; b++) {
        assert_int_equal(g->blocks[b].ninsts, ninsts[b]);
        assert_int_equal(g->blocks[b].nsucc > 0 ? g->blocks[b].succ[0] : -1, succ0[b]);
    }
    assert_string_equal(g->blocks[1].label, "BB1.c1");
    assert_string_equal(g->blocks[3].label, "k.r1");
    assert_int_equal(g->blocks[1].succ[1], 1);      /* the copy's loop */
    assert_int_equal(g->blocks[4].succ[1], 4);
    assert_int_equal(g->insts[g->blocks[2].first].cls, RF_OC_BRANCH);   /* RET -> .r1 */
    assert_int_equal(g->insts[g->blocks[2].first].target, 3);
    g->blocks[1].has_taken = g->blocks[4].has_taken = true;
    g->blocks[1].taken_p = g->blocks[4].taken_p = 0.75;
    rf_profile prof = {16, 0.5, 0, 0, 0, 1};
    double freq[9], n = 0;
    if (rf_kchar_block_freq(g, &prof, freq, &err))
        fail_msg("%s", err.msg);
    for (int b = 0; b < 9; b++)
        n += freq[b] * g->blocks[b].ninsts;
    assert_true(fabs(n - 23.0) < 1e-9);
    rf_func_destroy(g);
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
        cmocka_unit_test(test_kepler_stack),
        cmocka_unit_test(test_long_names_relocations),
        cmocka_unit_test(test_labels_relocs_nesting),
        cmocka_unit_test(test_inline_subroutines),
    };
    return cmocka_run_group_tests_name("sass", tests, NULL, NULL);
}

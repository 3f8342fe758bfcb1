/* test_regalloc.c - register allocation of virtual (PTX) functions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/kir.h"
#include "../inputs/regalloc.h"
#include "support/clirun.h"

static rf_func *alloc_first(const char *path, rf_module **m)
{
    rf_err err = {0};
    if (rf_module_load(path, m, &err))
        fail_msg("%s", err.msg);
    rf_func *p = NULL;
    if (rf_regalloc(rf_module_func(*m, NULL), &p, &err))
        fail_msg("%s", err.msg);
    assert_true(p->physical);
    assert_null(p->regs);
    return p;
}

/* tests/fixtures/small.ptx, by hand.  Kernel parameters are read from the
 * constant bank (%rd1, %r1 and the cvta copy %rd2 fold into operands and
 * take no register; their instructions become NOPs); R1 is the stack
 * pointer.  Live sets after each instruction of the rest:
 *   2 r2 | 3 r2 p1 | 6 rd3 | 7 rd4 | 8 rd4 f5 | 9 rd4 f5 f1 f2
 *   10 rd4 f5 f3 | 11 rd4 f5 f3 | 12 rd4 f5 f3 p2 | 14 -
 * Issue-slot stretch (ISSUE_STRETCH = 8): a value defined at i also
 * interferes with the values read by the next 8 instructions of its block.
 * The only new pairs: 9 defines f1 and f2, 11 reads f3 -> f1-f3, f2-f3.
 * No global load changes place (block 2 starts with its load).
 * Colouring in order of first definition, lowest free aligned slot that is
 * not R1: r2 R0, rd3 R2:R3, rd4 R2:R3 (rd3 dies where rd4 is born), f5 R0,
 * f1 R4, f2 R5, f3 R6 (R4 and R5 are busy in the window); p1 and p2 never
 * overlap: both P0.
 * => R0, R2..R6 = 7 registers, 1 predicate. */
static void test_small_count(void **state)
{
    (void)state;
    rf_module *m;
    rf_func *p = alloc_first("tests/fixtures/small.ptx", &m);
    assert_int_equal(p->nregs, 7);
    assert_int_equal(p->npreds, 1);
    assert_int_equal(p->ninsts, 17);
    assert_int_equal(p->nblocks, 5);
    assert_int_equal(p->insts[0].cls, RF_OC_NOP);     /* ld.param folded */
    assert_int_equal(p->insts[5].cls, RF_OC_NOP);     /* cvta folded */
    /* 9: ld.global.v2.f32 {%f1, %f2}, [%rd4+8] -> defs R4, R5; uses R2:R3 */
    const rf_inst *ld = &p->insts[9];
    assert_int_equal(ld->ndefs, 2);
    assert_int_equal(ld->defs[0], 4);
    assert_int_equal(ld->defs[1], 5);
    assert_int_equal(ld->nuses, 2);
    assert_int_equal(ld->uses[0], 2);
    assert_int_equal(ld->uses[1], 3);
    /* 14: st.global.v2.f32 [%rd4], {%f5, %f3} -> R2, R3, R0, R6 */
    const rf_inst *st = &p->insts[14];
    assert_int_equal(st->nuses, 4);
    assert_int_equal(st->uses[0], 2);
    assert_int_equal(st->uses[1], 3);
    assert_int_equal(st->uses[2], 0);
    assert_int_equal(st->uses[3], 6);
    /* 3: setp reads %r2 (R0) against the folded parameter */
    assert_int_equal(p->insts[3].nuses, 1);
    assert_int_equal(p->insts[3].uses[0], 0);
    /* 4: @%p1 bra -> guard P0 */
    assert_int_equal(p->insts[4].guard, RF_PRED_BASE + 0);
    assert_int_equal(p->insts[3].defs[0], RF_PRED_BASE + 0);
    rf_func_destroy(p);
    rf_module_destroy(m);
}

/* Operands are valid physical registers: in range, never R1, 64-bit values
 * in aligned pairs, the registers one instruction defines distinct. */
static void test_pairs_and_ranges(void **state)
{
    (void)state;
    rf_module *m;
    rf_func *p = alloc_first("tests/fixtures/features.ptx", &m);
    const rf_func *v = rf_module_func(m, NULL);
    for (int i = 0; i < p->ninsts; i++) {
        const rf_inst *pi = &p->insts[i];
        for (int k = 0; k < pi->ndefs + pi->nuses; k++) {
            int r = k < pi->ndefs ? pi->defs[k] : pi->uses[k - pi->ndefs];
            if (r >= RF_PRED_BASE) {
                assert_in_range(r, RF_PRED_BASE, RF_PRED_BASE + 6);
            } else {
                assert_in_range(r, 0, p->nregs - 1);
                assert_int_not_equal(r, 1);
            }
        }
        for (int k = 0; k < pi->ndefs; k++)
            for (int j = k + 1; j < pi->ndefs; j++)
                assert_int_not_equal(pi->defs[k], pi->defs[j]);
        /* the virtual instruction on the same source line */
        for (int j = 0; j < v->ninsts; j++) {
            const rf_inst *vi = &v->insts[j];
            if (vi->line != pi->line || vi->ndefs == 0 || pi->ndefs == 0)
                continue;
            if (v->regs[vi->defs[0]].words == 2)
                assert_int_equal(pi->defs[0] % 2, 0);
            if (vi->ndefs == 4 && v->regs[vi->defs[0]].words == 1)
                assert_int_equal(pi->ndefs, 4);   /* ld.shared.v4 */
        }
    }
    /* Global loads are scheduled early within their block: the order of
     * instructions changes, the blocks do not. */
    for (int b = 0; b < p->nblocks; b++) {
        assert_int_equal(p->blocks[b].first, v->blocks[b].first);
        assert_int_equal(p->blocks[b].ninsts, v->blocks[b].ninsts);
    }
    rf_func_destroy(p);
    rf_module_destroy(m);
}

/* Bundled kernels: rfkit's count within 1.5x of ptxas's either way (the
 * spec records ptxas -v), so occupancy estimates stay meaningful. */
static void test_bundled_vs_ptxas(void **state)
{
    (void)state;
    static const char *const names[] = {"bfs", "hotspot", "kmeans", "libor",
                                        "reduce", "sfu", "sgemm", "spmv",
                                        "stream"};
    int checked = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[128];
        snprintf(path, sizeof path, "inputs/kernels/%s.spec", names[i]);
        FILE *fp = fopen(path, "r");
        if (!fp)
            continue;
        fclose(fp);
        rf_kernel_opts o;
        memset(&o, 0, sizeof o);
        o.no_ptxas = true;
        rf_kernel *k;
        rf_err err = {0};
        if (rf_kernel_load(path, &o, &k, &err))
            fail_msg("%s", err.msg);
        assert_true(k->regs_ptxas > 0);
        assert_true(2 * k->regs_ptxas <= 3 * k->regs_rfkit);
        assert_true(2 * k->regs_rfkit <= 3 * k->regs_ptxas);
        rf_kernel_destroy(k);
        checked++;
    }
    assert_true(checked >= 4);
}

/* More than seven predicates live at once: the overflow goes to general
 * registers and guards read through P6. */
static void test_predicate_overflow(void **state)
{
    (void)state;
    char text[4096];
    int n = snprintf(text, sizeof text,
                     ".version 7.0\n.target sm_75\n.entry k()\n{\n"
                     "\t.reg .pred %%p<10>;\n\t.reg .b32 %%r<12>;\n"
                     "\tmov.u32 %%r0, %%tid.x;\n");
    for (int i = 0; i < 10; i++)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "\tsetp.eq.u32 %%p%d, %%r0, %d;\n", i, i);
    for (int i = 0; i < 10; i++)
        n += snprintf(text + n, sizeof text - (size_t)n,
                      "\t@%%p%d add.u32 %%r0, %%r0, 1;\n", i);
    snprintf(text + n, sizeof text - (size_t)n, "\tret;\n}\n");
    rf_module *m;
    rf_err err = {0};
    if (rf_ptx_parse("p.ptx", text, &m, &err))
        fail_msg("%s", err.msg);
    rf_func *p;
    if (rf_regalloc(&m->funcs[0], &p, &err))
        fail_msg("%s", err.msg);
    /* 10 predicates live together: 6 in P0..P5, 4 in general registers,
     * plus %r0 => R0, R2..R5 (R1 is the stack pointer) = 6 registers; P6 is
     * the guard scratch. */
    assert_int_equal(p->npreds, 7);
    assert_int_equal(p->nregs, 6);
    for (int i = 0; i < p->ninsts; i++)
        if (p->insts[i].guard >= 0)
            assert_in_range(p->insts[i].guard, RF_PRED_BASE, RF_PRED_BASE + 6);
    rf_func_destroy(p);
    rf_module_destroy(m);
}

/* A kernel of `chain` + 12 virtual registers: 8 loaded values live across
 * a chain of adds (each register live for one add), then summed. */
static char *chain_kernel(int chain)
{
    size_t cap = 48 * (size_t)chain + 2048;
    char *text = malloc(cap);
    if (!text)
        return NULL;
    int n = snprintf(text, cap,
                     ".version 7.0\n.target sm_75\n.entry k(.param .u64 p)\n{\n"
                     "\t.reg .f32 %%f<10>;\n\t.reg .b32 %%r<%d>;\n\t.reg .b64 %%rd<3>;\n"
                     "\tld.param.u64 %%rd1, [p];\n\tcvta.to.global.u64 %%rd2, %%rd1;\n",
                     chain + 2);
    for (int i = 0; i < 8; i++)
        n += snprintf(text + n, cap - (size_t)n, "\tld.global.f32 %%f%d, [%%rd2+%d];\n", i, 4 * i);
    n += snprintf(text + n, cap - (size_t)n, "\tmov.u32 %%r0, %%tid.x;\n");
    for (int j = 0; j < chain; j++)
        n += snprintf(text + n, cap - (size_t)n, "\tadd.u32 %%r%d, %%r%d, 1;\n", j + 1, j);
    n += snprintf(text + n, cap - (size_t)n, "\tst.global.u32 [%%rd2], %%r%d;\n", chain);
    n += snprintf(text + n, cap - (size_t)n, "\tadd.f32 %%f8, %%f0, %%f1;\n");
    for (int i = 2; i < 8; i++)
        n += snprintf(text + n, cap - (size_t)n, "\tadd.f32 %%f8, %%f8, %%f%d;\n", i);
    snprintf(text + n, cap - (size_t)n, "\tst.global.f32 [%%rd2+4], %%f8;\n\tret;\n}\n");
    return text;
}

/* The interference pairs are kept as a bit matrix up to 4096 virtual
 * registers and as a sorted list past that: a chain of 100 adds and one of
 * 5,000 (5,012 registers) allocate alike.  Live across the chain: the 8
 * loaded values and the 64-bit address (2 words).  A chain register,
 * written by add j, interferes with the values the next ISSUE_STRETCH (8)
 * instructions read: adds j+1 .. j+8 read it and the 7 registers after it,
 * so 8 consecutive chain registers take 8 registers.  18 words in R0,
 * R2..R18 (R1 the stack pointer): 19 registers. */
static void test_pairs_past_the_matrix(void **state)
{
    (void)state;
    int nregs[2];
    const int chain[2] = {100, 5000};
    for (int v = 0; v < 2; v++) {
        char *text = chain_kernel(chain[v]);
        assert_non_null(text);
        rf_module *m;
        rf_err err = {0};
        if (rf_ptx_parse("c.ptx", text, &m, &err))
            fail_msg("%s", err.msg);
        rf_func *p;
        if (rf_regalloc(&m->funcs[0], &p, &err))
            fail_msg("%s", err.msg);
        assert_int_equal(p->spill_words, 0);
        nregs[v] = p->nregs;
        rf_func_destroy(p);
        rf_module_destroy(m);
        free(text);
    }
    assert_int_equal(nregs[0], nregs[1]);
    assert_int_equal(nregs[0], 19);
}

/* 300 loaded values live at once do not fit 255 registers: the overflow is
 * spilled to local memory with reloads into R246..R254 before each use and
 * stores after each definition.  The loads end their block (a branch to
 * the next label), so all 300 are live at its end whatever the block
 * schedule. */
static void test_spilling(void **state)
{
    (void)state;
    enum { N = 300 };
    size_t cap = 64 * N + 1024;
    char *text = malloc(cap);
    assert_non_null(text);
    int n = snprintf(text, cap,
                     ".version 7.0\n.target sm_75\n.entry k(.param .u64 p)\n{\n"
                     "\t.reg .f32 %%f<%d>;\n\t.reg .b64 %%rd<3>;\n"
                     "\tld.param.u64 %%rd1, [p];\n"
                     "\tcvta.to.global.u64 %%rd2, %%rd1;\n", 2 * N + 2);
    for (int i = 0; i < N; i++)
        n += snprintf(text + n, cap - (size_t)n,
                      "\tld.global.f32 %%f%d, [%%rd2+%d];\n", i, 4 * i);
    n += snprintf(text + n, cap - (size_t)n, "\tbra.uni $L1;\n$L1:\n");
    n += snprintf(text + n, cap - (size_t)n, "\tmov.f32 %%f%d, 0f00000000;\n", N);
    for (int i = 0; i < N; i++)
        n += snprintf(text + n, cap - (size_t)n,
                      "\tadd.f32 %%f%d, %%f%d, %%f%d;\n", N + 1 + i, N + i, i);
    snprintf(text + n, cap - (size_t)n,
             "\tst.global.f32 [%%rd2], %%f%d;\n\tret;\n}\n", 2 * N);
    rf_module *m;
    rf_err err = {0};
    if (rf_ptx_parse("spill.ptx", text, &m, &err))
        fail_msg("%s", err.msg);
    free(text);
    rf_func *p;
    if (rf_regalloc(&m->funcs[0], &p, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(p->nregs, 255);
    int lds = 0, sts = 0;
    for (int i = 0; i < p->ninsts; i++) {
        const rf_inst *in = &p->insts[i];
        lds += in->cls == RF_OC_LD_LOCAL;
        sts += in->cls == RF_OC_ST_LOCAL;
        for (int k = 0; k < in->ndefs; k++) {
            assert_in_range(in->defs[k], 0, 254);
            assert_int_not_equal(in->defs[k], 1);
        }
        for (int k = 0; k < in->nuses; k++)
            assert_in_range(in->uses[k], 0, 254);
        if (in->cls == RF_OC_LD_LOCAL || in->cls == RF_OC_ST_LOCAL)
            assert_int_equal(in->uses[0], 1);       /* [R1 + slot] */
    }
    /* at least 300 + 2 - 245 values spill (R0..R245 without R1 hold 245
     * words); each is stored once and
     * reloaded once */
    assert_true(sts >= N + 2 - 245);
    assert_int_equal(lds, sts);
    assert_int_equal(p->ninsts, m->funcs[0].ninsts + lds + sts);
    assert_true(p->local_bytes >= 4 * sts);
    int covered = 0;
    for (int b = 0; b < p->nblocks; b++) {
        assert_int_equal(p->blocks[b].first, covered);
        covered += p->blocks[b].ninsts;
    }
    assert_int_equal(covered, p->ninsts);
    rf_func_destroy(p);
    rf_module_destroy(m);
}

static rf_func *alloc_text(const char *text, rf_module **m)
{
    rf_err err = {0};
    if (rf_ptx_parse("d.ptx", text, m, &err))
        fail_msg("%s", err.msg);
    rf_func *p;
    if (rf_regalloc(&(*m)->funcs[0], &p, &err))
        fail_msg("%s", err.msg);
    return p;
}

/* An IEEE f32 division calls a slow-path subroutine that clobbers R0..R12,
 * so the kernel needs 13 registers and whatever is live across the division
 * (other than constants, reloaded after the call) sits above R12.  By hand:
 * %rd1 folds; order after scheduling (the folded ld.param keeps its place,
 * then by height: cvta 4+400+20+1, ld f1 and ld f2 400+20+1, div 20+1,
 * st 1): (NOP), cvta, ld f1, ld f2, div, st, ret.  %rd2 is a copy of a
 * parameter: no floor.  Colouring: rd2 R2:R3, f1 R0, f2 R4, f3 R5 (f1 and
 * f2 meet f3 through the stretch) = 6 registers, raised to the
 * subroutine's 13 (ptxas -v at sm_75 also says 13).
 * The second kernel adds tid.x to the address (rd2 is defined twice: no
 * constant) and a third load read after the division: rd2 and f10 are
 * live across it.  Order: (NOP), mov r1, mul.wide rd3, cvta rd2, add rd2,
 * ld f1, ld f2, ld f10, div, add, st.  Colouring in order of first
 * definition: r1 R0, rd3 R2:R3, rd2 from R13 on, aligned: R14:R15, f1 R4,
 * f2 R5, f10 R13, f3 R6 -> 16 registers (ptxas -v at sm_75: 16). */
static void test_division_slow_path(void **state)
{
    (void)state;
    const char *text =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry d(.param .u64 p)\n{\n"
        "\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<3>;\n"
        "\tld.param.u64 %rd1, [p];\n"
        "\tcvta.to.global.u64 %rd2, %rd1;\n"
        "\tld.global.f32 %f1, [%rd2];\n"
        "\tld.global.f32 %f2, [%rd2+4];\n"
        "\tdiv.rn.f32 %f3, %f1, %f2;\n"
        "\tst.global.f32 [%rd2+8], %f3;\n"
        "\tret;\n}\n";
    rf_module *m;
    rf_func *p = alloc_text(text, &m);
    assert_int_equal(p->nregs, 13);
    const rf_inst *div = &p->insts[4];
    assert_int_equal(div->cls, RF_OC_SFU);
    assert_int_equal(div->ndefs, 1);
    assert_int_equal(div->defs[0], 5);
    assert_int_equal(div->nuses, 2);
    assert_int_equal(div->uses[0], 0);
    assert_int_equal(div->uses[1], 4);
    assert_int_equal(p->insts[0].cls, RF_OC_NOP);         /* ld.param */
    assert_int_equal(p->insts[2].cls, RF_OC_LD_GLOBAL);   /* loads next */
    assert_int_equal(p->insts[3].cls, RF_OC_LD_GLOBAL);
    rf_func_destroy(p);
    rf_module_destroy(m);

    const char *live =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry d(.param .u64 p)\n{\n"
        "\t.reg .f32 %f<12>;\n\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<2>;\n"
        "\tld.param.u64 %rd1, [p];\n"
        "\tcvta.to.global.u64 %rd2, %rd1;\n"
        "\tmov.u32 %r1, %tid.x;\n"
        "\tmul.wide.u32 %rd3, %r1, 4;\n"
        "\tadd.s64 %rd2, %rd2, %rd3;\n"
        "\tld.global.f32 %f1, [%rd2];\n"
        "\tld.global.f32 %f2, [%rd2+4];\n"
        "\tld.global.f32 %f10, [%rd2+8];\n"
        "\tdiv.rn.f32 %f3, %f1, %f2;\n"
        "\tadd.f32 %f3, %f3, %f10;\n"
        "\tst.global.f32 [%rd2], %f3;\n"
        "\tret;\n}\n";
    p = alloc_text(live, &m);
    assert_int_equal(p->nregs, 16);
    div = &p->insts[8];
    assert_int_equal(div->cls, RF_OC_SFU);
    assert_int_equal(div->defs[0], 6);
    const rf_inst *add = &p->insts[9];
    assert_int_equal(add->nuses, 2);
    assert_int_equal(add->uses[1], 13);                    /* f10 */
    const rf_inst *st = &p->insts[10];
    assert_int_equal(st->cls, RF_OC_ST_GLOBAL);
    assert_int_equal(st->uses[0], 14);                     /* rd2 */
    assert_int_equal(st->uses[1], 15);
    rf_func_destroy(p);
    rf_module_destroy(m);

    /* div.approx: no slow path, the first kernel's own 6 registers. */
    char approx[512];
    const char *rn = strstr(text, "div.rn.f32");
    assert_non_null(rn);
    snprintf(approx, sizeof approx, "%.*sdiv.approx.f32%s", (int)(rn - text), text,
             rn + strlen("div.rn.f32"));
    p = alloc_text(approx, &m);
    assert_int_equal(p->nregs, 6);
    rf_func_destroy(p);
    rf_module_destroy(m);
}


/* ptxas unrolls a small counted loop 4 times unless .pragma "nounroll"
 * forbids it; the count is then that of the body written out 4 times with
 * fresh names in all but the last copy (the second kernel below, which
 * carries the pragma so it is not unrolled again), while the physical code
 * keeps the PTX's loop.  ptxas -v at sm_75: 10, 6 (with the pragma) and 10.
 * With the pragma, by hand: %rd1 folds; %r1 and %rd2 are redefined in the
 * loop, so they take registers: r1 R0 (R1 is the stack pointer), rd2
 * R2:R3, f1 R4, f2 R5; in the loop at most r1, rd2, f1 and f2 are live:
 * 6 registers. */
static void test_unroll(void **state)
{
    (void)state;
    const char *loop =
        ".version 7.0\n"
        ".target sm_75\n"
        ".address_size 64\n"
        ".visible .entry u(.param .u64 p, .param .u32 n)\n"
        "{\n"
        "\t.reg .pred %p<9>;\n"
        "\t.reg .f32 %f<9>;\n"
        "\t.reg .b32 %r<9>;\n"
        "\t.reg .b64 %rd<9>;\n"
        "\tld.param.u64 %rd1, [p];\n"
        "\tld.param.u32 %r1, [n];\n"
        "\tcvta.to.global.u64 %rd2, %rd1;\n"
        "\tmov.f32 %f1, 0f00000000;\n"
        "$L:\n"
        "\tld.global.f32 %f2, [%rd2];\n"
        "\tadd.f32 %f1, %f1, %f2;\n"
        "\tadd.s64 %rd2, %rd2, 4;\n"
        "\tadd.s32 %r1, %r1, -1;\n"
        "\tsetp.ne.s32 %p1, %r1, 0;\n"
        "\t@%p1 bra $L;\n"
        "\tst.global.f32 [%rd2], %f1;\n"
        "\tret;\n"
        "}\n";
    const char *written =
        ".version 7.0\n"
        ".target sm_75\n"
        ".address_size 64\n"
        ".visible .entry u(.param .u64 p, .param .u32 n)\n"
        "{\n"
        "\t.reg .pred %p<9>;\n"
        "\t.reg .f32 %f<9>;\n"
        "\t.reg .b32 %r<9>;\n"
        "\t.reg .b64 %rd<9>;\n"
        "\tld.param.u64 %rd1, [p];\n"
        "\tld.param.u32 %r1, [n];\n"
        "\tcvta.to.global.u64 %rd2, %rd1;\n"
        "\tmov.f32 %f1, 0f00000000;\n"
        "$L:\n"
        "\t.pragma \"nounroll\";\n"
        "\tld.global.f32 \t%f3, [%rd2];\n"
        "\tadd.f32 \t%f4, %f1, %f3;\n"
        "\tadd.s64 \t%rd3, %rd2, 4;\n"
        "\tadd.s32 \t%r2, %r1, -1;\n"
        "\tsetp.ne.s32 \t%p2, %r2, 0;\n"
        "\tld.global.f32 \t%f5, [%rd3];\n"
        "\tadd.f32 \t%f6, %f4, %f5;\n"
        "\tadd.s64 \t%rd4, %rd3, 4;\n"
        "\tadd.s32 \t%r3, %r2, -1;\n"
        "\tsetp.ne.s32 \t%p3, %r3, 0;\n"
        "\tld.global.f32 \t%f7, [%rd4];\n"
        "\tadd.f32 \t%f8, %f6, %f7;\n"
        "\tadd.s64 \t%rd5, %rd4, 4;\n"
        "\tadd.s32 \t%r4, %r3, -1;\n"
        "\tsetp.ne.s32 \t%p4, %r4, 0;\n"
        "\tld.global.f32 \t%f2, [%rd5];\n"
        "\tadd.f32 \t%f1, %f8, %f2;\n"
        "\tadd.s64 \t%rd2, %rd5, 4;\n"
        "\tadd.s32 \t%r1, %r4, -1;\n"
        "\tsetp.ne.s32 \t%p1, %r1, 0;\n"
        "\t@%p1 bra $L;\n"
        "\tst.global.f32 [%rd2], %f1;\n"
        "\tret;\n"
        "}\n";
    char pragma[1024];
    const char *lab = strstr(loop, "$L:\n");
    assert_non_null(lab);
    snprintf(pragma, sizeof pragma, "%.*s\t.pragma \"nounroll\";\n%s",
             (int)(lab + 4 - loop), loop, lab + 4);
    rf_module *m;
    rf_func *p = alloc_text(pragma, &m);
    assert_true(m->funcs[0].blocks[1].nounroll);
    assert_false(m->funcs[0].blocks[0].nounroll);
    assert_int_equal(p->nregs, 6);
    rf_func_destroy(p);
    rf_module_destroy(m);

    p = alloc_text(written, &m);
    int unrolled = p->nregs;
    rf_func_destroy(p);
    rf_module_destroy(m);
    assert_true(unrolled > 6);

    p = alloc_text(loop, &m);
    assert_false(m->funcs[0].blocks[1].nounroll);
    assert_int_equal(p->nregs, unrolled);
    assert_int_equal(p->ninsts, m->funcs[0].ninsts);
    assert_int_equal(p->blocks[1].ninsts, 6);      /* the loop as written */
    rf_func_destroy(p);

    /* Under a budget of 8 the unrolled loop's first schedule (its count
     * above, more than 8) does not fit, a later rung does (program order
     * needs no more than the loop as written, 6): the count is the budget,
     * 8, though the code's registers stay below R6. */
    rf_err err = {0};
    if (rf_regalloc_cap(&m->funcs[0], 255, 8, &p, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(p->nregs, 8);
    for (int i = 0; i < p->ninsts; i++)
        for (int k = 0; k < p->insts[i].ndefs; k++)
            if (p->insts[i].defs[k] < RF_PRED_BASE)
                assert_in_range(p->insts[i].defs[k], 0, 5);
    rf_func_destroy(p);
    rf_module_destroy(m);
}

/* An atomic whose old value is never read is a reduction (RED): no
 * destination register.  By hand: %rd1 folds, %rd2 (read as an address)
 * R2:R3; the atomic's old value %r1 is unread, so the kernel holds only
 * R0 (unused), R1 (stack pointer) and R2:R3 = 4 registers.  Reading the old
 * value back (stored after the atomic) gives it a register: R0, still 4. */
static void test_atomic_reduction(void **state)
{
    (void)state;
    const char *red =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry a(.param .u64 p)\n{\n"
        "\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
        "\tld.param.u64 %rd1, [p];\n"
        "\tcvta.to.global.u64 %rd2, %rd1;\n"
        "\tatom.global.add.u32 %r1, [%rd2], 1;\n"
        "\tret;\n}\n";
    rf_module *m;
    rf_func *p = alloc_text(red, &m);
    assert_int_equal(p->insts[2].cls, RF_OC_ATOMIC);
    assert_int_equal(p->insts[2].ndefs, 0);
    assert_int_equal(p->insts[2].nuses, 2);
    assert_int_equal(p->nregs, 4);
    rf_func_destroy(p);
    rf_module_destroy(m);

    const char *used =
        ".version 7.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry a(.param .u64 p)\n{\n"
        "\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
        "\tld.param.u64 %rd1, [p];\n"
        "\tcvta.to.global.u64 %rd2, %rd1;\n"
        "\tatom.global.add.u32 %r1, [%rd2], 1;\n"
        "\tst.global.u32 [%rd2+4], %r1;\n"
        "\tret;\n}\n";
    p = alloc_text(used, &m);
    assert_int_equal(p->insts[2].cls, RF_OC_ATOMIC);
    assert_int_equal(p->insts[2].ndefs, 1);
    assert_int_equal(p->insts[2].defs[0], 0);
    assert_int_equal(p->nregs, 4);
    rf_func_destroy(p);
    rf_module_destroy(m);
}

/* Register budgets: registers per SM / threads per SM. */
static void test_budget(void **state)
{
    (void)state;
    rf_gpu g;
    rf_err err = {0};
    if (rf_gpu_preset("fermi-gtx480", &g, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(rf_regalloc_budget(&g), 32768 / 1536);   /* 21 */
    if (rf_gpu_preset("a100", &g, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(rf_regalloc_budget(&g), 65536 / 2048);   /* 32 */
}

/* tests/fixtures/regalloc/over63.ptx under Fermi's 63 registers, by hand.
 * %rd1 and %rd2 (parameters) fold; %rd3 and %rd4 (their cvta copies) are
 * addresses and stay.  Schedule: cvta %rd3 and the 70 loads go first (the
 * loads and their slice), then the NOPs, cvta %rd4 and the 70 stores
 * (fences, after every load): positions 0 cvta rd3, 1..70 loads of f0..f69,
 * 73 cvta rd4, 74..143 stores of f69..f0, 144 ret.
 * Without a cap: the f's are a 70-clique, rd3 interferes with f0..f68 and
 * rd4 with all f's: rd3 R2:R3, f0 R0, f1..f68 R4..R71, f69 R2 (rd3 is dead),
 * rd4 R72:R73 -> 74 registers.
 * Cap 63: reload scratch = the most words one instruction touches (a store
 * reads rd4 and one f: 3), at least 4 -> R59..R62; colouring below R59.
 * Spill priority = (defs + reads) / instructions live across:
 *   rd3, rd4: 71 / 70;  f_i: 2 / (142 - 2i)  (live after i+1 .. 142-i).
 * Order rd3, rd4, f69, f68, ..., f0.  rd3 R2:R3; rd4 R2:R3 (rd3 is dead
 * before rd4 is born); f69 R0 (it meets rd4, not rd3); f68..f14 R4..R58
 * (f_k in R(72 - k)); f13..f0 find no register: 14 spilled words, each
 * stored once after its load and reloaded once before its store:
 * 145 + 28 instructions, 14 * 4 = 56 bytes of local memory, 63 registers. */
static void test_cap_spills(void **state)
{
    (void)state;
    rf_module *m;
    rf_err err = {0};
    if (rf_module_load("tests/fixtures/regalloc/over63.ptx", &m, &err))
        fail_msg("%s", err.msg);
    const rf_func *v = rf_module_func(m, NULL);
    rf_func *p;
    if (rf_regalloc(v, &p, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(p->nregs, 74);
    assert_int_equal(p->spill_words, 0);
    rf_func_destroy(p);
    if (rf_regalloc_cap(v, 63, RF_REGALLOC_BUDGET, &p, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(v->ninsts, 145);
    assert_int_equal(p->nregs, 63);
    assert_int_equal(p->spill_words, 14);
    assert_int_equal(p->local_bytes, 56);
    assert_int_equal(p->ninsts, 145 + 28);
    int lds = 0, sts = 0;
    for (int i = 0; i < p->ninsts; i++) {
        const rf_inst *in = &p->insts[i];
        lds += in->cls == RF_OC_LD_LOCAL;
        sts += in->cls == RF_OC_ST_LOCAL;
        for (int k = 0; k < in->ndefs; k++)
            assert_in_range(in->defs[k], 0, 62);
        for (int k = 0; k < in->nuses; k++)
            assert_in_range(in->uses[k], 0, 62);
    }
    assert_int_equal(lds, 14);
    assert_int_equal(sts, 14);
    rf_func_destroy(p);
    /* 7 registers leave 3, fewer than 4, beside 4 reload scratch registers. */
    assert_int_equal(rf_regalloc_cap(v, 7, RF_REGALLOC_BUDGET, &p, &err), RF_ERANGE);
    assert_null(p);
    assert_non_null(strstr(err.msg, "max_regs_per_thread"));
    rf_module_destroy(m);
}

/* The kernel on fermi-gtx480 (63 per thread) is fitted with the spills
 * above; on v100 (255) it is left alone. */
static void test_kernel_fit(void **state)
{
    (void)state;
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    rf_kernel *k;
    rf_err err = {0};
    rf_gpu fermi, volta;
    if (rf_kernel_load("tests/fixtures/regalloc/over63.spec", &o, &k, &err) ||
        rf_gpu_preset("fermi-gtx480", &fermi, &err) || rf_gpu_preset("v100", &volta, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(k->regs, 74);
    assert_int_equal(rf_kernel_fit_regs(k, &volta, &err), 0);
    assert_int_equal(k->regs, 74);
    assert_int_equal(k->func->spill_words, 0);
    assert_int_equal(rf_kernel_fit_regs(k, &fermi, &err), 0);
    assert_int_equal(k->regs, 63);
    assert_int_equal(k->func->nregs, 63);
    assert_int_equal(k->func->spill_words, 14);
    rf_kernel_destroy(k);
}

/* End to end: simulate and estimate on fermi-gtx480 run the kernel with its
 * spills (refused before) and report them. */
static void test_cli_spilled_regs(void **state)
{
    (void)state;
    clirun a = clirun_run("simulate --gpu fermi-gtx480 --kernel "
                          "tests/fixtures/regalloc/over63.spec --cycles 5000 --csv");
    assert_int_equal(a.status, 0);
    assert_true(clirun_csv_get(a.out, "spilled_regs", 1) == 14);
    assert_true(clirun_csv_get(a.out, "cycles", 1) == 5000);
    free(a.out);
    a = clirun_run("simulate --gpu fermi-gtx480 --kernel "
                   "tests/fixtures/regalloc/over63.spec --cycles 5000");
    assert_int_equal(a.status, 0);
    assert_non_null(strstr(a.out, "registers capped at 63 (the GPU's limit): 14 spilled"));
    free(a.out);
    a = clirun_run("estimate --gpu fermi-gtx480 --kernel "
                   "tests/fixtures/regalloc/over63.spec --csv");
    assert_int_equal(a.status, 0);
    assert_true(clirun_csv_get(a.out, "spilled_regs", 1) == 14);
    free(a.out);
    a = clirun_run("estimate --gpu v100 --kernel tests/fixtures/small.spec --csv");
    assert_int_equal(a.status, 0);
    assert_true(clirun_csv_get(a.out, "spilled_regs", 1) == 0);
    free(a.out);
}

/* tests/fixtures/ldc_loop.ptx, by hand, for sm_80 and sm_90 (budget 32).
 * Lines: 18 ld.param %rd1, 19 ld.param %r1, 20 cvta %rd2 = %rd1, 21 %r2 =
 * %tid.x, 22 %f1 = 0; loop: 26 %rd3 = mul.wide %r2, 27 %rd4 = %rd2 +
 * %rd3, 28 ld %f2 [%rd4], 29 %f1 += %f2, 30 %r2 += 32, 31 setp, 32 bra;
 * 34 st [%rd4], %f1.  Live across the loop: %r2, %f1, %r1 (folded) and
 * %rd2.
 * sm_80: %rd2 is a copy of a parameter read only by address arithmetic:
 * folded, its cvta a NOP.  Colouring in first-definition order: %r2 R0,
 * %f1 R2 (R1 is the stack pointer), %rd3 R4:R5, %rd4 R6:R7 (%rd3's
 * definition interferes with the values read by the next 8 instructions,
 * %rd4 among them), %f2 R3 => 8 registers.
 * sm_90 (LDC_POINTER_SM): %rd2 is read inside the loop and defined outside
 * it, so it holds a pair: %rd2 R2:R3 (the lowest aligned pair without
 * R1), %r2 R0, %f1 R4, %rd3 R6:R7, %rd4 R8:R9, %f2 R5 => 10 registers;
 * nothing in the loop writes R2:R3.  ptxas: 8 and 12. */
static void test_ldc_pointer_sm90(void **state)
{
    (void)state;
    rf_module *m;
    rf_err err = {0};
    if (rf_module_load("tests/fixtures/ldc_loop.ptx", &m, &err))
        fail_msg("%s", err.msg);
    rf_func *p;
    if (rf_regalloc_target(&m->funcs[0], 255, 32, 80, &p, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(p->nregs, 8);
    for (int i = 0; i < p->ninsts; i++)
        if (p->insts[i].line == 20)
            assert_int_equal(p->insts[i].cls, RF_OC_NOP);
    rf_func_destroy(p);

    if (rf_regalloc_target(&m->funcs[0], 255, 32, 90, &p, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(p->nregs, 10);
    int seen = 0;
    for (int i = 0; i < p->ninsts; i++) {
        const rf_inst *in = &p->insts[i];
        if (in->line == 20) {             /* the cvta: LDC.64 into R2:R3 */
            seen++;
            assert_int_equal(in->ndefs, 2);
            assert_int_equal(in->defs[0], 2);
            assert_int_equal(in->defs[1], 3);
        }
        if (in->line == 27) {             /* %rd4 = R2:R3 + R6:R7 -> R8:R9 */
            seen++;
            assert_int_equal(in->nuses, 4);
            assert_int_equal(in->uses[0], 2);
            assert_int_equal(in->uses[1], 3);
            assert_int_equal(in->uses[2], 6);
            assert_int_equal(in->defs[0], 8);
        }
        if (i >= p->blocks[1].first && i < p->blocks[1].first + p->blocks[1].ninsts)
            for (int k = 0; k < in->ndefs; k++)
                assert_true(in->defs[k] != 2 && in->defs[k] != 3);
    }
    assert_int_equal(seen, 2);
    rf_func_destroy(p);
    rf_module_destroy(m);
}

/* tests/fixtures/stretch_chain.ptx, by hand: the issue-slot stretch at
 * sm_75 (ISSUE_STRETCH, 8) and sm_80 (ISSUE_STRETCH_SM80, 7).  The block
 * scheduler keeps the chain in order and puts the store address's
 * mul.wide (line 29) after line 26; positions: 2 %r1 (line 17), 3..11
 * %r2..%r10 (lines 18..26), 12 %rd3, 13 %r11, 14 %r12, 15 %rd4, 16 the
 * store.  %r1 is live from 2 to 14; each %rk from its definition to the
 * next position.  A value defined at p also interferes with the values
 * read at p+1..p+S.
 * S = 8: %r1 R0; %r2..%r8 R2..R8; %r9 (read at 11, within %r2's window
 * 4..11) R9; %r10 (read at 13) R2; %rd3 (read at 15; %r6..%r10 and %r1
 * busy) R4:R5; %r11 R3; %r12 R0 (%r1 dies where it is born); %rd4 (read at
 * 16: R2..R5 and R7..R9 busy through the windows of %r7..%r11 and %rd3)
 * R10:R11 => 12 registers.
 * S = 7: %r2..%r8 R2..R8; %r9 (read at 11, past %r2's window 4..10) R2;
 * %r10 R3; %rd3 R4:R5; %r11 (R2, R3, R6..R8 busy) R9; %r12 R0; %rd4
 * (%r7's window 9..15 no longer reaches 16) R6:R7 => 10 registers.
 * ptxas: 8 at both. */
static void test_stretch_sm80(void **state)
{
    (void)state;
    rf_module *m;
    rf_err err = {0};
    if (rf_module_load("tests/fixtures/stretch_chain.ptx", &m, &err))
        fail_msg("%s", err.msg);
    const int sm[2] = {75, 80}, budget[2] = {64, 32};
    const int nregs[2] = {12, 10}, r9[2] = {9, 2}, rd4[2] = {10, 6};
    for (int t = 0; t < 2; t++) {
        rf_func *p;
        if (rf_regalloc_target(&m->funcs[0], 255, budget[t], sm[t], &p, &err))
            fail_msg("%s", err.msg);
        assert_int_equal(p->nregs, nregs[t]);
        int seen = 0;
        for (int i = 0; i < p->ninsts; i++) {
            const rf_inst *in = &p->insts[i];
            if (in->line == 25) {                  /* %r9 */
                seen++;
                assert_int_equal(in->defs[0], r9[t]);
            }
            if (in->line == 30) {                  /* %rd4 */
                seen++;
                assert_int_equal(in->ndefs, 2);
                assert_int_equal(in->defs[0], rd4[t]);
            }
        }
        assert_int_equal(seen, 2);
        rf_func_destroy(p);
    }
    rf_module_destroy(m);
}

/* A module's target picks the allocation rules and budget at load.
 * rf_regalloc_module_sm: ".target sm_90a" -> 90, "sm_100" -> 100, no "sm_"
 * -> RF_REGALLOC_SM (75).  rf_regalloc_sm_budget = 65536 registers /
 * threads per SM: sm_75 1,024 -> 64; sm_86 1,536 -> 42 (65536 / 1536 =
 * 42.7); sm_80, sm_90 2,048 -> 32.  ldc_loop.ptx loaded with its target
 * rewritten to sm_80 and sm_90 takes the counts of test_ldc_pointer_sm90
 * (budget 32 there as here): 8 and 10 registers. */
static void test_module_target(void **state)
{
    (void)state;
    rf_module m = {0};
    strcpy(m.target, "sm_90a");
    assert_int_equal(rf_regalloc_module_sm(&m), 90);
    strcpy(m.target, "sm_100");
    assert_int_equal(rf_regalloc_module_sm(&m), 100);
    strcpy(m.target, "");
    assert_int_equal(rf_regalloc_module_sm(&m), RF_REGALLOC_SM);
    assert_int_equal(rf_regalloc_sm_budget(75), 64);
    assert_int_equal(rf_regalloc_sm_budget(86), 42);
    assert_int_equal(rf_regalloc_sm_budget(80), 32);
    assert_int_equal(rf_regalloc_sm_budget(90), 32);

    FILE *f = fopen("tests/fixtures/ldc_loop.ptx", "rb");
    assert_non_null(f);
    char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *t = strstr(text, ".target sm_75");
    assert_non_null(t);
    const char *targets[] = {"80", "90"};
    const int regs[] = {8, 10};
    for (int i = 0; i < 2; i++) {
        memcpy(t + strlen(".target sm_"), targets[i], 2);
        char path[64];
        snprintf(path, sizeof path, "/tmp/rfkit-test-target-%ld.ptx", (long)getpid());
        FILE *o = fopen(path, "wb");
        assert_non_null(o);
        fputs(text, o);
        fclose(o);
        rf_kernel_opts ko = {.no_ptxas = true, .grid = "1", .block = "128"};
        rf_kernel *k;
        rf_err err = {0};
        int rc = rf_kernel_load(path, &ko, &k, &err);
        remove(path);
        if (rc)
            fail_msg("%s", err.msg);
        assert_int_equal(k->regs_rfkit, regs[i]);
        rf_kernel_destroy(k);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_count),
        cmocka_unit_test(test_pairs_and_ranges),
        cmocka_unit_test(test_bundled_vs_ptxas),
        cmocka_unit_test(test_predicate_overflow),
        cmocka_unit_test(test_spilling),
        cmocka_unit_test(test_pairs_past_the_matrix),
        cmocka_unit_test(test_division_slow_path),
        cmocka_unit_test(test_unroll),
        cmocka_unit_test(test_atomic_reduction),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_ldc_pointer_sm90),
        cmocka_unit_test(test_module_target),
        cmocka_unit_test(test_stretch_sm80),
        cmocka_unit_test(test_cap_spills),
        cmocka_unit_test(test_kernel_fit),
        cmocka_unit_test(test_cli_spilled_regs),
    };
    return cmocka_run_group_tests_name("regalloc", tests, NULL, NULL);
}

/* test_regalloc.c - register allocation of virtual (PTX) functions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../inputs/kernel.h"
#include "../inputs/kir.h"

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

/* tests/fixtures/small.ptx, by hand (live sets after each instruction):
 *   0 rd1 | 1 rd1 r1 | 2 rd1 r1 r2 | 3 rd1 r2 p1 | 5 r2 rd2 | 6 rd2 rd3
 *   7 rd4 | 8 rd4 f5 | 9 rd4 f5 f1 f2 | 10 rd4 f5 f3 | 11 rd4 f5 f3
 *   12 rd4 f5 f3 p2 | 14 -
 * Widest point: instruction 9, rd4 (pair) + f5 + f1 + f2 = 5 words.
 * Colouring in order of first definition, lowest aligned slot:
 *   rd1 R0:R1, r1 R2, r2 R3, rd2 R0:R1 (rd1 died), rd3 R2:R3, rd4 R0:R1,
 *   f5 R2, f1 R3, f2 R4, f3 R3; p1 and p2 never overlap: both P0.
 * => 5 registers, 1 predicate. */
static void test_small_count(void **state)
{
    (void)state;
    rf_module *m;
    rf_func *p = alloc_first("tests/fixtures/small.ptx", &m);
    assert_int_equal(p->nregs, 5);
    assert_int_equal(p->npreds, 1);
    assert_int_equal(p->ninsts, 17);
    assert_int_equal(p->nblocks, 5);
    /* 9: ld.global.v2.f32 {%f1, %f2}, [%rd4+8] -> defs R3, R4; uses R0:R1 */
    const rf_inst *ld = &p->insts[9];
    assert_int_equal(ld->ndefs, 2);
    assert_int_equal(ld->defs[0], 3);
    assert_int_equal(ld->defs[1], 4);
    assert_int_equal(ld->nuses, 2);
    assert_int_equal(ld->uses[0], 0);
    assert_int_equal(ld->uses[1], 1);
    /* 14: st.global.v2.f32 [%rd4], {%f5, %f3} -> R0, R1, R2, R3 */
    const rf_inst *st = &p->insts[14];
    assert_int_equal(st->nuses, 4);
    assert_int_equal(st->uses[0], 0);
    assert_int_equal(st->uses[1], 1);
    assert_int_equal(st->uses[2], 2);
    assert_int_equal(st->uses[3], 3);
    /* 4: @%p1 bra -> guard P0 */
    assert_int_equal(p->insts[4].guard, RF_PRED_BASE + 0);
    assert_int_equal(p->insts[3].defs[0], RF_PRED_BASE + 0);
    rf_func_destroy(p);
    rf_module_destroy(m);
}

/* 64-bit values sit in aligned pairs; a ld.v4 defines four distinct
 * registers; every operand is a valid physical register. */
static void test_pairs_and_ranges(void **state)
{
    (void)state;
    rf_module *m;
    rf_func *p = alloc_first("tests/fixtures/features.ptx", &m);
    const rf_func *v = rf_module_func(m, NULL);
    for (int i = 0; i < p->ninsts; i++) {
        const rf_inst *pi = &p->insts[i], *vi = &v->insts[i];
        int words = 0;
        for (int k = 0; k < vi->ndefs; k++) {
            int w = v->regs[vi->defs[k]].words;
            words += w ? w : 1;
        }
        assert_int_equal(pi->ndefs, words);
        for (int k = 0; k < pi->ndefs; k++) {
            if (pi->defs[k] >= RF_PRED_BASE)
                assert_in_range(pi->defs[k], RF_PRED_BASE, RF_PRED_BASE + 6);
            else
                assert_in_range(pi->defs[k], 0, p->nregs - 1);
            for (int j = k + 1; j < pi->ndefs; j++)
                assert_int_not_equal(pi->defs[k], pi->defs[j]);
        }
        /* first def of a 64-bit register is even */
        if (vi->ndefs && v->regs[vi->defs[0]].words == 2)
            assert_int_equal(pi->defs[0] % 2, 0);
    }
    rf_func_destroy(p);
    rf_module_destroy(m);
}

/* Bundled kernels: rfkit's count within a factor of two of ptxas's (the
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
        assert_true(k->regs_rfkit * 2 >= k->regs_ptxas);
        assert_true(k->regs_rfkit <= 2 * k->regs_ptxas);
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
     * plus %r0 => 5 general registers; P6 is the guard scratch. */
    assert_int_equal(p->npreds, 7);
    assert_int_equal(p->nregs, 5);
    for (int i = 0; i < p->ninsts; i++)
        if (p->insts[i].guard >= 0)
            assert_in_range(p->insts[i].guard, RF_PRED_BASE, RF_PRED_BASE + 6);
    rf_func_destroy(p);
    rf_module_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_count),
        cmocka_unit_test(test_pairs_and_ranges),
        cmocka_unit_test(test_bundled_vs_ptxas),
        cmocka_unit_test(test_predicate_overflow),
    };
    return cmocka_run_group_tests_name("regalloc", tests, NULL, NULL);
}

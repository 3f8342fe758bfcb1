/* test_ptx.c - PTX reader: bundled kernels, a hand-checked CFG, vector
 * operands, predicates, compiler-emitted constructs, malformed input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../inputs/kir.h"

static const rf_func *load(const char *path, rf_module **m, const char *fn)
{
    rf_err err = {0};
    int rc = rf_module_load(path, m, &err);
    if (rc)
        fail_msg("%s", err.msg);
    const rf_func *f = rf_module_func(*m, fn);
    assert_non_null(f);
    return f;
}

static int vreg(const rf_func *f, const char *name)
{
    for (int i = 0; i < f->nregs; i++)
        if (strcmp(f->regs[i].name, name) == 0)
            return i;
    fail_msg("no register %s", name);
    return -1;
}

static bool has(const uint16_t *list, int n, int r)
{
    for (int i = 0; i < n; i++)
        if (list[i] == r)
            return true;
    return false;
}

static void test_bundled_kernels(void **state)
{
    (void)state;
    glob_t g;
    int n = 0;
    if (glob("inputs/kernels/*.ptx", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++) {
            rf_module *m;
            rf_err err = {0};
            int rc = rf_module_load(g.gl_pathv[i], &m, &err);
            if (rc)
                fail_msg("%s", err.msg);
            assert_int_equal(m->kind, RF_CODE_PTX);
            const rf_func *f = rf_module_func(m, NULL);
            assert_non_null(f);
            assert_true(f->is_entry);
            assert_true(f->ninsts > 10);
            assert_true(f->nblocks >= 1);
            assert_int_equal(f->unknown_ops, 0);
            /* Every block is non-empty, blocks tile the instructions, and
             * edges point at blocks. */
            int covered = 0;
            for (int b = 0; b < f->nblocks; b++) {
                assert_int_equal(f->blocks[b].first, covered);
                assert_true(f->blocks[b].ninsts > 0);
                covered += f->blocks[b].ninsts;
                for (int s = 0; s < f->blocks[b].nsucc; s++)
                    assert_in_range(f->blocks[b].succ[s], 0, f->nblocks - 1);
            }
            assert_int_equal(covered, f->ninsts);
            rf_module_destroy(m);
            n++;
        }
        globfree(&g);
    }
    /* The bundled set has (at least) bfs, hotspot, kmeans, libor. */
    assert_true(n >= 4);
}

/* tests/fixtures/small.ptx: instruction numbers are in its comments.
 * Blocks: B0 = 0..4 (guarded branch to B4), B1 = 5..8, B2 = 9..13 (loop,
 * guarded branch back to itself), B3 = 14..15, B4 = 16 (ret). */
static void test_small_cfg(void **state)
{
    (void)state;
    rf_module *m;
    const rf_func *f = load("tests/fixtures/small.ptx", &m, "small");
    assert_string_equal(m->target, "sm_70");
    assert_int_equal(m->ptx_major, 7);
    assert_int_equal(m->ptx_minor, 0);
    assert_int_equal(f->ninsts, 17);
    assert_int_equal(f->nparams, 2);
    assert_int_equal(f->nblocks, 5);
    static const int first[5] = {0, 5, 9, 14, 16};
    static const int nsucc[5] = {2, 1, 2, 1, 0};
    for (int b = 0; b < 5; b++) {
        assert_int_equal(f->blocks[b].first, first[b]);
        assert_int_equal(f->blocks[b].nsucc, nsucc[b]);
    }
    assert_int_equal(f->blocks[0].succ[0], 1);   /* fall-through */
    assert_int_equal(f->blocks[0].succ[1], 4);   /* taken */
    assert_int_equal(f->blocks[1].succ[0], 2);
    assert_int_equal(f->blocks[2].succ[0], 3);
    assert_int_equal(f->blocks[2].succ[1], 2);
    assert_int_equal(f->blocks[3].succ[0], 4);
    assert_string_equal(f->blocks[2].label, "$L__BB0_2");
    assert_string_equal(f->blocks[4].label, "$L__BB0_4");

    /* 4: @%p1 bra $L__BB0_4 */
    const rf_inst *br = &f->insts[4];
    assert_int_equal(br->cls, RF_OC_BRANCH);
    assert_int_equal(br->guard, vreg(f, "%p1"));
    assert_int_equal(br->target, 4);
    assert_false(br->flags & RF_IF_LOOPBACK);
    assert_true(f->insts[13].flags & RF_IF_LOOPBACK);
    assert_int_equal(f->insts[13].target, 2);
    /* 0: kernel parameter load comes from the constant bank */
    assert_int_equal(f->insts[0].cls, RF_OC_LD_CONST);
    /* 3: setp defines %p1 from %r2, %r1 */
    assert_int_equal(f->insts[3].ndefs, 1);
    assert_int_equal(f->insts[3].defs[0], vreg(f, "%p1"));
    assert_int_equal(f->insts[3].nuses, 2);
    assert_int_equal(f->regs[vreg(f, "%p1")].words, 0);
    assert_int_equal(f->regs[vreg(f, "%rd4")].words, 2);
    /* 6: mul.wide is on the wide pipe */
    assert_int_equal(f->insts[6].cls, RF_OC_ALU64);
    /* 9: ld.global.v2.f32 {%f1, %f2}, [%rd4+8] */
    const rf_inst *ld = &f->insts[9];
    assert_int_equal(ld->cls, RF_OC_LD_GLOBAL);
    assert_int_equal(ld->ndefs, 2);
    assert_int_equal(ld->defs[0], vreg(f, "%f1"));
    assert_int_equal(ld->defs[1], vreg(f, "%f2"));
    assert_int_equal(ld->nuses, 1);
    assert_int_equal(ld->uses[0], vreg(f, "%rd4"));
    /* 14: st.global.v2.f32 [%rd4], {%f5, %f3}: no defs, three uses */
    const rf_inst *st = &f->insts[14];
    assert_int_equal(st->cls, RF_OC_ST_GLOBAL);
    assert_int_equal(st->ndefs, 0);
    assert_int_equal(st->nuses, 3);
    assert_true(has(st->uses, st->nuses, vreg(f, "%rd4")));
    assert_true(has(st->uses, st->nuses, vreg(f, "%f5")));
    assert_true(has(st->uses, st->nuses, vreg(f, "%f3")));
    assert_int_equal(f->insts[15].cls, RF_OC_BARRIER);
    assert_int_equal(f->insts[16].cls, RF_OC_EXIT);
    assert_string_equal(m->opnames[f->insts[12].opcode], "setp");
    assert_int_equal(f->insts[12].line, 32);
    rf_module_destroy(m);
}

/* tests/fixtures/features.ptx: constructs from real compiler output. */
static void test_features(void **state)
{
    (void)state;
    rf_module *m;
    const rf_func *f = load("tests/fixtures/features.ptx", &m, NULL);
    assert_string_equal(f->name, "features");
    assert_int_equal(m->nfuncs, 2);
    assert_string_equal(m->target, "sm_52");
    assert_false(rf_module_func(m, "helper")->is_entry);
    assert_int_equal(f->nparams, 2);
    assert_int_equal(f->local_bytes, 32);
    assert_int_equal(f->smem_static, 512);   /* demoted tile; dyn[] is 0 */
    assert_int_equal(f->unknown_ops, 1);     /* frobnicate */
    int unknown = 0, calls = 0, atomics = 0, barriers = 0;
    for (int i = 0; i < f->ninsts; i++) {
        const rf_inst *in = &f->insts[i];
        const char *op = m->opnames[in->opcode];
        if (in->flags & RF_IF_UNKNOWN) {
            unknown++;
            assert_string_equal(op, "frobnicate");
            assert_int_equal(in->cls, RF_OC_ALU);
            assert_int_equal(in->ndefs, 1);
        }
        calls += in->cls == RF_OC_CALL;
        atomics += in->cls == RF_OC_ATOMIC;
        barriers += in->cls == RF_OC_BARRIER;
    }
    assert_int_equal(unknown, 1);
    assert_int_equal(calls, 1);
    assert_int_equal(atomics, 3);      /* atom.global, atom.shared, red */
    assert_int_equal(barriers, 1);     /* barrier.sync */
    /* Instruction-level checks by their position in the body. */
    assert_int_equal(f->insts[3].cls, RF_OC_LD_CONST);   /* ld.param.v2 */
    assert_int_equal(f->insts[3].ndefs, 2);
    assert_int_equal(f->insts[9].cls, RF_OC_ST_LOCAL);   /* st.u32 [%SP] */
    assert_int_equal(f->insts[10].cls, RF_OC_LD_LOCAL);  /* ld.u32 [%SP] */
    assert_int_equal(f->insts[12].cls, RF_OC_LD_GLOBAL); /* ld.global.nc */
    assert_int_equal(f->insts[13].cls, RF_OC_LD_CONST);  /* ld.const.f64 */
    assert_int_equal(f->insts[14].cls, RF_OC_ALU64);     /* add.rn.f64 */
    assert_int_equal(f->insts[21].cls, RF_OC_LD_SHARED); /* ld.volatile.shared */
    assert_int_equal(f->insts[22].ndefs, 4);             /* ld.shared.v4 */
    assert_int_equal(f->insts[22].nuses, 0);             /* [sym+16] */
    assert_int_equal(f->insts[29].nuses, 2);             /* atom.shared.cas */
    /* shfl.sync.down.b32 %r13|%p1: two defs */
    assert_int_equal(f->insts[30].ndefs, 2);
    assert_int_equal(f->insts[30].defs[1], vreg(f, "%p1"));
    /* call-sequence parameter moves are ALU, not constant loads */
    assert_int_equal(f->insts[36].cls, RF_OC_ALU);
    /* @%p2 bra.uni: uniform guarded branch; brx.idx has two targets */
    assert_true(f->insts[38].flags & RF_IF_UNIFORM);
    assert_int_equal(f->insts[38].guard, vreg(f, "%p2"));
    assert_int_equal(f->nblocks, 4);
    assert_int_equal(f->blocks[1].nsucc, 2);
    assert_int_equal(f->blocks[3].nsucc, 0);
    /* 41: st.global.v4.f32 [%rd4], {4 regs} */
    assert_int_equal(f->insts[41].nuses, 5);
    /* 43: mad.wide.s32 */
    assert_int_equal(f->insts[43].cls, RF_OC_ALU64);
    assert_int_equal(f->regs[vreg(f, "%rs1")].words, 1);
    assert_int_equal(f->regs[vreg(f, "%fd2")].words, 2);
    rf_module_destroy(m);
}

static void expect_error(const char *text, const char *msg)
{
    rf_module *m = NULL;
    rf_err err = {0};
    int rc = rf_ptx_parse("t.ptx", text, &m, &err);
    assert_int_equal(rc, RF_EPARSE);
    assert_null(m);
    if (!strstr(err.msg, msg))
        fail_msg("expected '%s' in '%s'", msg, err.msg);
}

#define HEAD ".version 7.0\n.target sm_75\n.address_size 64\n"

static void test_malformed(void **state)
{
    (void)state;
    rf_module *m;
    rf_err err = {0};
    assert_int_equal(rf_module_load("tests/fixtures/malformed_reg.ptx", &m, &err),
                     RF_EPARSE);
    assert_string_equal(err.msg, "tests/fixtures/malformed_reg.ptx:8:21: "
                                 "undeclared register '%r9'");
    expect_error(HEAD ".entry k()\n{\n\tbra $NOWHERE;\n}\n",
                 "t.ptx:6:6: undefined label '$NOWHERE'");
    expect_error(HEAD ".entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1 0;\n}\n",
                 "t.ptx:7:14: expected ',' or ';', found '0'");
    expect_error(HEAD ".entry k()\n{\n\tret;\n", "t.ptx:7:1: function 'k' not closed");
    expect_error(HEAD ".entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
                      "\tld.global.u32 %r1, [%rd1;\n}\n",
                 "t.ptx:8:21: missing ']'");
    expect_error(HEAD ".entry k()\n{\n\t.reg .b32 %r<2>;\n\t@%r1 ret;\n}\n",
                 "t.ptx:7:3: guard '%r1' is not a predicate");
    expect_error(HEAD ".entry k()\n{\n\t/* open\n}\n", "t.ptx:6:2: unterminated comment");
    expect_error(HEAD ".bogus 1\n", "t.ptx:4:1: unknown directive '.bogus'");
    expect_error(HEAD, "t.ptx: no .entry or .func with a body");
    expect_error(HEAD ".entry k()\n{\n\t.reg .b33 %r<2>;\n}\n",
                 "t.ptx:6:7: unknown register type '.b33'");
    expect_error(HEAD ".entry k()\n{\nL: ret;\nL: ret;\n}\n",
                 "t.ptx:7:1: label 'L' defined twice");
    /* Two bodies of one function: --entry k would silently pick the first.
     * A prototype before the body stays fine. */
    expect_error(HEAD ".entry k()\n{\nret;\n}\n.entry k()\n{\nret;\n}\n",
                 "t.ptx:8:8: function 'k' has a second body");
    expect_error(HEAD ".func f()\n{\nret;\n}\n.func f()\n{\nret;\n}\n",
                 "t.ptx:8:7: function 'f' has a second body");
    m = NULL;
    assert_int_equal(rf_ptx_parse("t.ptx", HEAD ".func f();\n.entry k()\n{\ncall f, ();\nret;\n}\n"
                                           ".func f()\n{\nret;\n}\n", &m, &err), RF_OK);
    assert_int_equal(m->nfuncs, 2);
    rf_module_destroy(m);
}

/* Older hand-written PTX: no %r<N> ranges, registers without '%', labels
 * without '$', no .address_size, ex2/rcp and a branch to the end. */
static void test_old_style(void **state)
{
    (void)state;
    static const char text[] =
        ".version 1.4\n.target sm_13\n"
        ".entry old (.param .u32 n)\n{\n"
        "  .reg .u32 a, b;\n  .reg .f32 x;\n  .reg .pred p;\n"
        "  ld.param.u32 a, [n];\n"
        "loop:\n"
        "  sub.u32 a, a, 1;\n"
        "  cvt.rn.f32.u32 x, a;\n"
        "  ex2.approx.f32 x, x;\n"
        "  rcp.approx.f32 x, x;\n"
        "  setp.ne.u32 p, a, 0;\n"
        "  @p bra loop;\n"
        "  @!p bra done;\n"
        "  mov.u32 b, a;\n"
        "done:\n"
        "}\n";
    rf_module *m;
    rf_err err = {0};
    int rc = rf_ptx_parse("old.ptx", text, &m, &err);
    if (rc)
        fail_msg("%s", err.msg);
    const rf_func *f = &m->funcs[0];
    assert_int_equal(f->nregs, 4);
    assert_int_equal(f->insts[3].cls, RF_OC_SFU);
    assert_int_equal(f->insts[4].cls, RF_OC_SFU);
    assert_true(f->insts[7].flags & RF_IF_GUARD_NEG);
    /* the label at the end gets an implicit return block */
    assert_int_equal(f->insts[f->ninsts - 1].cls, RF_OC_EXIT);
    assert_int_equal(f->nblocks, 5);
    assert_int_equal(f->blocks[4].nsucc, 0);
    rf_module_destroy(m);
}

/* Inlined asm blocks repeat their labels in separate { } scopes; a branch
 * resolves to the innermost scope holding the label. */
static void test_scoped_labels(void **state)
{
    (void)state;
    static const char text[] =
        HEAD ".entry k()\n{\n"
        "\t.reg .b32 %r<3>;\n"
        "\tmov.u32 %r1, %tid.x;\n"                      /* 0 */
        "\t{ .reg .pred p;\n"
        "\tsetp.eq.u32 p, %r1, 0;\n"                    /* 1 */
        "\t@p bra L1;\n"                                /* 2 */
        "\tadd.u32 %r1, %r1, 1;\n"                      /* 3 */
        "\tL1: }\n"
        "\t{ .reg .pred p;\n"
        "\tsetp.eq.u32 p, %r1, 5;\n"                    /* 4 */
        "\t@p bra L1;\n"                                /* 5 */
        "\t@!p bra DONE;\n"                             /* 6 */
        "\tadd.u32 %r1, %r1, 2;\n"                      /* 7 */
        "\tL1: }\n"
        "DONE:\n"
        "\tret;\n"                                      /* 8 */
        "}\n";
    rf_module *m;
    rf_err err = {0};
    if (rf_ptx_parse("s.ptx", text, &m, &err))
        fail_msg("%s", err.msg);
    const rf_func *f = &m->funcs[0];
    assert_int_equal(f->ninsts, 9);
    /* first L1 is instruction 4, the second L1 and DONE are instruction 8 */
    assert_int_equal(f->blocks[f->insts[2].target].first, 4);
    assert_int_equal(f->blocks[f->insts[5].target].first, 8);
    assert_int_equal(f->blocks[f->insts[6].target].first, 8);
    assert_string_equal(f->blocks[f->insts[2].target].label, "L1");
    rf_module_destroy(m);
    expect_error(HEAD ".entry k()\n{\n{ L: ret; }\n{ bra L; }\n}\n",
                 "t.ptx:7:7: undefined label 'L'");
}

/* tests/fixtures/oldnvcc.ptx: Open64-era nvcc output. */
static void test_old_nvcc(void **state)
{
    (void)state;
    rf_module *m;
    const rf_func *f = load("tests/fixtures/oldnvcc.ptx", &m, "_Z5scaleiPf");
    assert_string_equal(m->target, "sm_13");
    assert_int_equal(m->ptx_major, 1);
    assert_int_equal(m->ptx_minor, 4);
    assert_int_equal(f->nparams, 2);
    assert_int_equal(f->unknown_ops, 0);
    assert_int_equal(f->smem_static, 0);       /* extern __smem[] */
    assert_int_equal(f->ninsts, 34);           /* no implicit return */
    assert_int_equal(f->nblocks, 6);
    static const int nsucc[6] = {2, 2, 1, 1, 1, 0};
    for (int b = 0; b < 6; b++)
        assert_int_equal(f->blocks[b].nsucc, nsucc[b]);
    assert_int_equal(f->blocks[0].succ[1], 5);
    assert_string_equal(f->blocks[5].label, "$Lt_0_1026");
    assert_int_equal(f->blocks[2].succ[0], 4);   /* bra.uni */
    assert_int_equal(f->insts[29].flags & RF_IF_UNIFORM, RF_IF_UNIFORM);
    assert_int_equal(f->insts[30].cls, RF_OC_LD_SHARED);
    assert_int_equal(f->insts[13].cls, RF_OC_ALU64);  /* mul.lo.u64 */
    assert_int_equal(f->insts[33].cls, RF_OC_EXIT);
    rf_module_destroy(m);
}

/* The reader's per-instruction, per-variable and per-function arrays grow
 * geometrically; what matters here is that everything appended across many
 * growth steps is still there and right: 20 .shared and 20 .global module
 * variables (only the .shared ones count toward the entry's shared memory),
 * 20 .func bodies, 3000 straight-line instructions, then a brx.idx whose two
 * targets (kept in a second target array) are resolved at the end. */
static void test_growth(void **state)
{
    (void)state;
    enum { NVAR = 20, NFUNC = 20, NADD = 3000 };
    size_t cap = 64 * 1024 + NADD * 32, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
#define PUT(...) (n += (size_t)snprintf(text + n, cap - n, __VA_ARGS__))
    PUT(HEAD);
    for (int i = 0; i < NVAR; i++)
        PUT(".shared .align 4 .b8 s%d[16];\n.global .align 4 .b8 g%d[8];\n", i, i);
    for (int i = 0; i < NFUNC; i++)
        PUT(".func f%d()\n{\n\tret;\n}\n", i);
    PUT(".entry k()\n{\n\t.reg .b32 %%r<4>;\n\t.reg .b64 %%rd<3>;\n");
    for (int i = 0; i < NVAR; i++)
        PUT("\tmov.u64 %%rd1, s%d;\n\tmov.u64 %%rd2, g%d;\n", i, i);
    for (int i = 0; i < NFUNC; i++)
        PUT("\tcall f%d, ();\n", i);
    PUT("\tmov.u32 %%r1, %%tid.x;\n");
    for (int i = 0; i < NADD; i++)
        PUT("\tadd.s32 %%r1, %%r1, 1;\n");
    PUT("\tts: .branchtargets $L_a, $L_b;\n\tand.b32 %%r2, %%r1, 1;\n\tbrx.idx %%r2, ts;\n"
        "$L_a:\n\tadd.s32 %%r1, %%r1, 2;\n$L_b:\n\tret;\n}\n");
#undef PUT
    assert_true(n < cap);
    rf_module *m = NULL;
    rf_err err = {0};
    if (rf_ptx_parse("grow.ptx", text, &m, &err))
        fail_msg("%s", err.msg);
    free(text);
    assert_int_equal(m->nfuncs, NFUNC + 1);
    for (int i = 0; i < NFUNC; i++) {
        char name[16];
        snprintf(name, sizeof name, "f%d", i);
        assert_string_equal(m->funcs[i].name, name);
        assert_int_equal(m->funcs[i].ninsts, 1);
    }
    const rf_func *f = rf_module_func(m, "k");
    assert_non_null(f);
    /* 40 movs + 20 calls + 1 mov + 3000 adds + and + brx + add + ret */
    assert_int_equal(f->ninsts, 2 * NVAR + NFUNC + 1 + NADD + 4);
    /* 20 .shared variables of 16 bytes; the .global ones take none */
    assert_int_equal(f->smem_static, NVAR * 16);
    assert_int_equal(m->smem_module, NVAR * 16);
    /* The brx block's successors are $L_a (the add) and $L_b (the ret). */
    int brx = f->ninsts - 3, a = -1, b = -1, from = -1;
    for (int i = 0; i < f->nblocks; i++) {
        if (!strcmp(f->blocks[i].label, "$L_a"))
            a = i;
        if (!strcmp(f->blocks[i].label, "$L_b"))
            b = i;
        if (f->blocks[i].first <= brx)
            from = i;
    }
    assert_true(a >= 0 && b >= 0 && from >= 0);
    assert_int_equal(f->blocks[a].first, f->ninsts - 2);
    assert_int_equal(f->blocks[b].first, f->ninsts - 1);
    assert_int_equal(f->blocks[from].nsucc, 2);
    assert_true((f->blocks[from].succ[0] == a && f->blocks[from].succ[1] == b) ||
                (f->blocks[from].succ[0] == b && f->blocks[from].succ[1] == a));
    rf_module_destroy(m);
}

/* An empty .ptx (or one of comments only) is read as the PTX it claims to
 * be, not as SASS without instructions. */
static void test_empty_ptx(void **state)
{
    (void)state;
    char dir[] = "/tmp/rfkit-test-ptxXXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/e.ptx", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("// nothing here\n", fp);
    fclose(fp);
    rf_module *m = NULL;
    rf_err err = {0};
    assert_int_equal(rf_module_load(path, &m, &err), RF_EPARSE);
    unlink(path);
    rmdir(dir);
    assert_null(m);
    char want[128];
    snprintf(want, sizeof want, "%s: empty PTX: no .entry or .func with a body, no instructions",
             path);
    assert_string_equal(err.msg, want);
    expect_error(HEAD, "t.ptx: no .entry or .func with a body: no instructions in the PTX");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bundled_kernels),
        cmocka_unit_test(test_small_cfg),
        cmocka_unit_test(test_features),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_old_style),
        cmocka_unit_test(test_scoped_labels),
        cmocka_unit_test(test_old_nvcc),
        cmocka_unit_test(test_growth),
        cmocka_unit_test(test_empty_ptx),
    };
    return cmocka_run_group_tests_name("ptx", tests, NULL, NULL);
}

/* test_dot.c - nvdisasm -cfg (Graphviz) reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "../inputs/kir.h"

/* tests/fixtures/ampere.dot is the CFG nvdisasm draws for
 * tests/fixtures/ampere.sass; the loop branch's text lost its target, which
 * the exit0 edge supplies.  The IR must equal the listing's. */
static void test_same_as_listing(void **state)
{
    (void)state;
    rf_module *d, *s;
    rf_err err = {0};
    if (rf_module_load("tests/fixtures/ampere.dot", &d, &err))
        fail_msg("%s", err.msg);
    if (rf_module_load("tests/fixtures/ampere.sass", &s, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(d->kind, RF_CODE_DOT);
    const rf_func *fd = rf_module_func(d, NULL), *fs = rf_module_func(s, NULL);
    assert_string_equal(fd->name, "_Z4loopPfi");
    assert_true(fd->physical);
    assert_int_equal(fd->ninsts, fs->ninsts);
    assert_int_equal(fd->nblocks, fs->nblocks);
    assert_int_equal(fd->nregs, fs->nregs);
    assert_int_equal(fd->npreds, fs->npreds);
    for (int b = 0; b < fd->nblocks; b++) {
        assert_int_equal(fd->blocks[b].first, fs->blocks[b].first);
        assert_int_equal(fd->blocks[b].nsucc, fs->blocks[b].nsucc);
        for (int k = 0; k < fd->blocks[b].nsucc; k++)
            assert_int_equal(fd->blocks[b].succ[k], fs->blocks[b].succ[k]);
    }
    for (int i = 0; i < fd->ninsts; i++) {
        const rf_inst *a = &fd->insts[i], *b = &fs->insts[i];
        assert_int_equal(a->cls, b->cls);
        assert_int_equal(a->ndefs, b->ndefs);
        assert_int_equal(a->nuses, b->nuses);
        assert_int_equal(a->guard, b->guard);
        assert_int_equal(a->target, b->target);
        assert_memory_equal(a->uses, b->uses, a->nuses * sizeof a->uses[0]);
        assert_memory_equal(a->defs, b->defs, a->ndefs * sizeof a->defs[0]);
    }
    /* the loop block: .L_x_0 branches to itself */
    assert_string_equal(fd->blocks[2].label, ".L_x_0");
    assert_int_equal(fd->insts[14].target, 2);
    assert_true(fd->insts[14].flags & RF_IF_LOOPBACK);
    rf_module_destroy(d);
    rf_module_destroy(s);
}

/* Older nvdisasm: "0158:" address prefixes, several branches in one node,
 * dual-issue braces, SYNC with a (*"TARGET= ..."*) annotation, a node
 * without clusters that names its function with .text. */
static void test_old_format(void **state)
{
    (void)state;
    static const char text[] =
        "digraph f {\n"
        "node [fontname=\"Courier\",fontsize=10,shape=Mrecord];\n"
        "\"vecAdd\"\n"
        "[label=\"{<entry>  .global   vecAdd\\l.text.vecAdd:\\l"
        "0008:\\ \\ \\ MOV\\ R1,\\ c\\[0x0\\]\\[0x20\\]\\ ;\\l"
        "0010:\\ \\ \\ ISETP.NE.AND\\ P0,\\ PT,\\ R1,\\ RZ,\\ PT\\ ;\\l"
        "0018:\\ \\ \\ SSY\\ `(.L_4)\\ ;\\l"
        "0028:\\ \\{\\ MOV32I\\ R10,\\ 0x1\\ ;\\l"
        "/*0030*/\\ \\ \\ @!P0\\ SYNC\\ \\ (*\\\"TARGET=\\ .L_4\\ \\\"*)\\}\\l"
        "0038:\\ \\ \\ @P0\\ BRA\\ `(.L_1)\\ ;\\l"
        "0048:\\ \\ \\ MOV32I\\ R10,\\ 0x2\\ ;\\l"
        "0050:\\ \\ \\ SYNC\\ \\ (*\\\"TARGET=\\ .L_4\\ \\\"*);\\l}\"]\n"
        "\".L_1\" [label=\"{<entry>.L_1:\\l0058:\\ \\ \\ MOV32I\\ R10,\\ 0x3\\ ;\\l"
        "0068:\\ \\ \\ SYNC\\ \\ (*\\\"TARGET=\\ .L_4\\ \\\"*);\\l}\"]\n"
        "\".L_4\" [label=\"{<entry>.L_4:\\l0070:\\ \\ \\ EXIT\\ ;\\l}\"]\n"
        "\"vecAdd\":exit0:e -> \".L_4\":entry:n [style=solid];\n"
        "\"vecAdd\":exit1:e -> \".L_1\":entry:n [style=solid];\n"
        "\"vecAdd\":exit2:e -> \".L_4\":entry:n [style=solid];\n"
        "\".L_1\":exit0:e -> \".L_4\":entry:n [style=solid];\n"
        "}\n";
    rf_module *m;
    rf_err err = {0};
    if (rf_dot_parse("old.dot", text, &m, &err))
        fail_msg("%s", err.msg);
    const rf_func *f = &m->funcs[0];
    assert_string_equal(f->name, "vecAdd");
    assert_int_equal(f->ninsts, 11);
    /* blocks: 0..4 (@!P0 SYNC), 5 (@P0 BRA), 6..7 (SYNC), 8..9 .L_1, 10 .L_4 */
    assert_int_equal(f->nblocks, 5);
    assert_int_equal(f->blocks[0].ninsts, 5);
    assert_int_equal(f->blocks[0].succ[0], 1);
    assert_int_equal(f->blocks[0].succ[1], 4);   /* SYNC to .L_4 */
    assert_int_equal(f->blocks[1].succ[1], 3);   /* BRA to .L_1 */
    assert_int_equal(f->blocks[2].succ[0], 4);
    assert_int_equal(f->blocks[3].succ[0], 4);
    assert_int_equal(f->blocks[4].nsucc, 0);
    rf_module_destroy(m);
}

/* Every function of the graph equals the listing's: instructions, blocks
 * and edges. */
static void same_module(const char *dot_path, const char *sass_path)
{
    rf_module *d, *s;
    rf_err err = {0};
    if (rf_module_load(dot_path, &d, &err))
        fail_msg("%s", err.msg);
    if (rf_module_load(sass_path, &s, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(d->kind, RF_CODE_DOT);
    assert_int_equal(d->nfuncs, s->nfuncs);
    for (int k = 0; k < d->nfuncs; k++) {
        const rf_func *fd = &d->funcs[k], *fs = &s->funcs[k];
        assert_string_equal(fd->name, fs->name);
        assert_int_equal(fd->is_entry, fs->is_entry);
        assert_int_equal(fd->ninsts, fs->ninsts);
        assert_int_equal(fd->nblocks, fs->nblocks);
        assert_int_equal(fd->nregs, fs->nregs);
        for (int b = 0; b < fd->nblocks; b++) {
            assert_int_equal(fd->blocks[b].first, fs->blocks[b].first);
            assert_int_equal(fd->blocks[b].nsucc, fs->blocks[b].nsucc);
            for (int e = 0; e < fd->blocks[b].nsucc; e++)
                assert_int_equal(fd->blocks[b].succ[e], fs->blocks[b].succ[e]);
        }
        for (int i = 0; i < fd->ninsts; i++) {
            const rf_inst *a = &fd->insts[i], *b = &fs->insts[i];
            assert_int_equal(a->cls, b->cls);
            assert_int_equal(a->target, b->target);
            assert_int_equal(a->ndefs, b->ndefs);
            assert_int_equal(a->nuses, b->nuses);
            assert_memory_equal(a->uses, b->uses, a->nuses * sizeof a->uses[0]);
            assert_memory_equal(a->defs, b->defs, a->ndefs * sizeof a->defs[0]);
        }
    }
    rf_module_destroy(d);
    rf_module_destroy(s);
}

/* tests/fixtures/kepler_ssy.dot draws kepler_ssy.sass (whose block, edge
 * and interval counts test_sass checks by hand).  In clampsum the NOP.S
 * node has no port and no annotation: its plain edge goes to .L_2 (block
 * 3), not to the next node .L_1; the FADD.S names .L_2 in its annotation.
 * In findkey the @P1 CONT is annotated, @!P2 BRK has an exit0 edge and the
 * bare CONT and BRK take their plain edges. */
static void test_kepler_graph(void **state)
{
    (void)state;
    same_module("tests/fixtures/kepler_ssy.dot", "tests/fixtures/kepler_ssy.sass");
    rf_module *m;
    rf_err err = {0};
    if (rf_module_load("tests/fixtures/kepler_ssy.dot", &m, &err))
        fail_msg("%s", err.msg);
    const rf_func *f = &m->funcs[0];
    assert_string_equal(f->blocks[1].label, ".L_neg");
    assert_int_equal(f->blocks[1].nsucc, 1);
    assert_int_equal(f->blocks[1].succ[0], 3);
    assert_string_equal(f->blocks[3].label, ".L_2");
    rf_module_destroy(m);
}

/* tests/fixtures/longcall.dot draws longcall.sass: a cluster named by the
 * 68-character subroutine, node names and CAL targets as long. */
static void test_long_names_graph(void **state)
{
    (void)state;
    same_module("tests/fixtures/longcall.dot", "tests/fixtures/longcall.sass");
}

/* A pop with no annotation and no stack entry in the text (its SSY lies in
 * a part of the graph not given) goes where its edge goes; the edge to the
 * next node is the fall-through of a guarded pop, not its target. */
static void test_pop_from_edge(void **state)
{
    (void)state;
    static const char text[] =
        "digraph f {\n"
        "\"k\" [label=\"{<entry>.text.k:\\l/*0008*/\\ ISETP.NE.AND\\ P0,\\ PT,\\ R0,\\ RZ,\\ PT\\ ;\\l"
        "/*0010*/\\ @P0\\ SYNC\\ ;\\l}\"]\n"
        "\"a\" [label=\"{<entry>/*0018*/\\ IADD32I\\ R0,\\ R0,\\ 0x1\\ ;\\l}\"]\n"
        "\"b\" [label=\"{<entry>/*0028*/\\ EXIT\\ ;\\l}\"]\n"
        "\"k\":s -> \"a\":entry:n;\n"
        "\"k\":s -> \"b\":entry:n;\n"
        "\"a\":s -> \"b\":entry:n;\n"
        "}\n";
    rf_module *m;
    rf_err err = {0};
    if (rf_dot_parse("p.dot", text, &m, &err))
        fail_msg("%s", err.msg);
    const rf_func *f = &m->funcs[0];
    assert_int_equal(f->nblocks, 3);
    assert_int_equal(f->blocks[0].nsucc, 2);
    assert_int_equal(f->blocks[0].succ[0], 1);   /* not taken: on to "a" */
    assert_int_equal(f->blocks[0].succ[1], 2);   /* SYNC to "b" */
    assert_int_equal(f->insts[1].target, 2);
    rf_module_destroy(m);
}

static void expect_error(const char *text, const char *msg)
{
    rf_module *m = NULL;
    rf_err err = {0};
    assert_int_equal(rf_dot_parse("t.dot", text, &m, &err), RF_EPARSE);
    assert_null(m);
    if (!strstr(err.msg, msg))
        fail_msg("expected '%s' in '%s'", msg, err.msg);
}

static void test_malformed(void **state)
{
    (void)state;
    expect_error("digraph f {\n \"a\" [label=\"{x}\"\n", "t.dot:2:6: unterminated '['");
    expect_error("graph", "t.dot:1:6: expected '{'");
    expect_error("digraph f {\n \"a\" [label=\"x\n", "t.dot:2:13: unterminated string");
    expect_error("digraph f {\n \"a\" [label=\"{/*0000*/\\ EXIT\\ ;\\l}\"];\n"
                 " \"a\" -> \"b\";\n}\n",
                 "t.dot:3:2: edge to undefined node 'b'");
    expect_error("digraph f {\n}\n", "graph has no nodes");
    expect_error("digraph f {\n \"a\" [label=\"{/*0000*/\\ BRA\\ `(.L_9)\\ ;\\l}\"]\n}\n",
                 "undefined label '.L_9'");
    expect_error("strict digraph f {\n \"a\" @ \n}\n", "t.dot:2:6: unexpected character '@'");
    /* Errors in a node's code point at the instruction's own line and
     * column in the file, escapes counted: on line 3 the label's quote is
     * at column 13, its second instruction (address 0010) at 41, IADD3 at
     * 51 and R300 at 58 (each "\ " is two characters); an unbalanced
     * relocation on the fourth line of a label split over lines is
     * reported where its instruction starts, after the address 0008. */
    expect_error("digraph f {\n node [shape=record];\n \"a\" [label=\"{<entry>"
                 "/*0000*/\\ EXIT\\ ;\\l/*0010*/\\ IADD3\\ R300,\\ R1\\ ;\\l}\"]\n}\n",
                 "t.dot:3:58: bad register 'R300'");
    expect_error("digraph f {\n \"a\" [label=\"{<entry>\n/*0000*/ NOP ;\\l\n"
                 "/*0008*/ MOV32I R4, 32@lo(x ;\\l}\"]\n}\n",
                 "t.dot:4:10: unbalanced brackets");
    /* Nodes without code made a function with no blocks, which the
     * analyses then refused as an internal error (exit 1). */
    expect_error("digraph f {\n a [label=\"x\"];\n a -> a;\n}\n",
                 "t.dot:1:1: graph holds no SASS instructions");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_as_listing),
        cmocka_unit_test(test_old_format),
        cmocka_unit_test(test_kepler_graph),
        cmocka_unit_test(test_long_names_graph),
        cmocka_unit_test(test_pop_from_edge),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests_name("dot", tests, NULL, NULL);
}

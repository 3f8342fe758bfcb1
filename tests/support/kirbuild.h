/* kirbuild.h - compact construction of physical rf_func fixtures for tests.
 *
 *     kb_builder b;
 *     kb_begin(&b, "loop");
 *     int B0 = kb_block(&b, "B0");
 *     kb_i(&b, "alu r0 = ");            class, defs, '=', uses
 *     kb_i(&b, "@p0 ldg r2 r3 = r0");   guard @pN or @!pN first
 *     int B1 = kb_block(&b, "B1");
 *     kb_i(&b, "@!p1 bra");
 *     kb_succ(&b, B0, B1, -1);          fall-through / taken successors
 *     rf_func *f = kb_finish(&b);       NULL on a bad fixture (message on stderr)
 *     ...
 *     kb_free(f);
 *
 * Classes: alu alu64 sfu ldg stg lds sts ldl stl ldc atom bra bar call exit nop.
 * Operands: rN (general register N) and pN (predicate N).  A branch's target
 * is its block's taken successor; RF_IF_LOOPBACK is set when the target is
 * the same or an earlier block.  nregs = highest register + 1 unless
 * kb_nregs() sets it.
 */
#ifndef KIRBUILD_H
#define KIRBUILD_H

#include "../../inputs/kir.h"

/* Initial capacities; the arrays grow as blocks and instructions are added. */
#define KB_MAX_INSTS 512
#define KB_MAX_BLOCKS 64

typedef struct kb_builder {
    rf_func *f;
    int icap, bcap;      /* allocated instructions and blocks */
    int nregs;           /* explicit register count, 0 = from operands */
    int bad;             /* a construction error was reported */
} kb_builder;

void kb_begin(kb_builder *b, const char *name);
int kb_block(kb_builder *b, const char *label);
int kb_i(kb_builder *b, const char *text);
void kb_succ(kb_builder *b, int block, int fall, int taken);
void kb_nregs(kb_builder *b, int nregs);
rf_func *kb_finish(kb_builder *b);
void kb_free(rf_func *f);

/* cmocka assertion for doubles: |a - b| <= eps, printing both values. */
void kb_assert_near(double a, double b, double eps, const char *file, int line);
#define assert_near(a, b, eps) kb_assert_near((a), (b), (eps), __FILE__, __LINE__)

#endif

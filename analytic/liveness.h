/* liveness.h - live registers at every instruction of a physical function.
 * (Implementation and model notes: analytic/liveness.c; seed 000 Section V.A.)
 */
#ifndef RF_LIVENESS_H
#define RF_LIVENESS_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"
#include "../inputs/kir.h"

/* A set of general registers R0..R255: bit r of w[r / 64]. */
typedef struct rf_regset {
    uint64_t w[4];
} rf_regset;

static inline bool rf_regset_has(const rf_regset *s, int r)
{
    return (s->w[r >> 6] >> (r & 63)) & 1u;
}
static inline void rf_regset_add(rf_regset *s, int r) { s->w[r >> 6] |= (uint64_t)1 << (r & 63); }
static inline void rf_regset_del(rf_regset *s, int r) { s->w[r >> 6] &= ~((uint64_t)1 << (r & 63)); }
int rf_regset_count(const rf_regset *s);
void rf_regset_union(rf_regset *dst, const rf_regset *src);
bool rf_regset_equal(const rf_regset *a, const rf_regset *b);
/* "R0 R3-R5 R9" (empty string for an empty set); returns chars written. */
int rf_regset_format(const rf_regset *s, char *buf, size_t cap);
/* 64 hex digits, R255..R0 (the PREFETCH / FineReg bit-vector layout). */
void rf_regset_hex(const rf_regset *s, char buf[65]);

/* Registers an instruction reads (uses + guard) and writes (defs). */
void rf_inst_reads(const rf_inst *in, rf_regset *gpr, uint8_t *pred);
void rf_inst_writes(const rf_inst *in, rf_regset *gpr, uint8_t *pred);

/* Long-latency loads: global and local memory (FineReg's stall points). */
bool rf_live_long_latency(const rf_inst *in);

typedef struct rf_live {
    int ninsts;
    int nregs;            /* registers allocated per thread (fraction denominator) */
    rf_regset *in;        /* [ninsts] live before instruction i (live at its PC) */
    rf_regset *out;       /* [ninsts] live after instruction i */
    uint8_t *pred_in;     /* [ninsts] live predicates before i, bit p = P<p> */
    uint8_t *pred_out;    /* [ninsts] live predicates after i */
    /* Summary over static instructions (registers). */
    int max_live;         /* max over i of |in|, |out| */
    int max_pc;           /* instruction where max_live occurs first */
    double mean_live;     /* mean of |in| over instructions */
    int nloads;           /* long-latency loads */
    int max_live_load;    /* max |out| at a long-latency load (PCRF contents) */
    double mean_live_load;/* mean |out| at long-latency loads (0 if none) */
} rf_live;

/* Check that f is a well-formed physical function: blocks tile the
 * instruction array, successors and branch targets are blocks, operands are
 * R0..R255 or P0..P7.  Every pass calls it first.  0 or RF_EUNSUPPORTED /
 * RF_EINTERNAL naming the function and source line. */
int rf_live_check(const rf_func *f, rf_err *err);

/* Iterative backward dataflow over the CFG.  f must be physical.  Guarded
 * definitions do not kill.  nregs for fractions is f->nregs (at least the
 * highest register used + 1).  Returns 0 or a negative rf code. */
int rf_live_compute(const rf_func *f, rf_live *out, rf_err *err);
void rf_live_free(rf_live *l);

/* Live registers at PC i (before it executes) and their fraction of nregs. */
int rf_live_count(const rf_live *l, int i);
double rf_live_frac(const rf_live *l, int i);

#endif /* RF_LIVENESS_H */

/* tripcount.h - branch probabilities a PTX function's code decides: the
 * exact trip counts of counted loops and forward branches on constants.
 *
 * A counted loop is a natural loop closed by a conditional branch back to
 * its header (the do-while shape nvcc emits), left only by that branch's
 * fall-through (no break or return inside), whose guard is set by
 *     setp.CMP.TYPE  p, a, b
 * where one of a, b is an induction register i (or i + D, D a value that
 * folds, written in the closing block before the setp: nvcc's 64-bit
 * loops compare such a sum with 0), defined once inside the
 * loop by i = i + S, i - S, i >> S, i << S, i * S or i / S (S a constant;
 * shifts by 1 to 31, products and quotients by 2 or more), defined once
 * outside it (the initial value I), and the other is a loop-invariant value
 * B.  (Written more than once before the loop, i enters it with the one
 * definition that reaches the loop's header from outside.)  I, S and B
 * must fold to integers: immediates, kernel parameters given
 * a value (--param NAME=VALUE, spec [params]), the launch's dimensions
 * (%ntid, %nctaid: blockDim, gridDim), and registers computed from those by
 * mov, cvt, add, sub, mul, mad, shl, shr, and, or, neg, min, max, div and
 * rem, where one definition of the register reaches the use (the
 * register's only one, or the one every path back from the use meets
 * first: nvcc's unrolled loops count n & 3 down in the remainder loop in
 * the register their guards and the main loop's start read).  A value
 * that depends on a special register (%tid, %ctaid, ...) or on memory does
 * not fold, and its loop stays on the profile's default trip count, with
 * one exception: a start that is c + t %tid.x + g %ctaid.x (a block- or
 * grid-strided loop) with an added step.  Each lane that enters (its start
 * passes the compare) runs its own count; a warp runs the body while any
 * of its lanes does, so its count is its lanes' largest; N is the mean
 * over the warps with a lane that enters, over the launch's CTAs (at most
 * 4096 warps, CTAs evenly spaced beyond).  A forward branch comparing
 * such a value is decided where every thread of the launch goes the same
 * way (the guard of such a loop when every thread enters it); where the
 * threads split it stays on the default, since a warp whose lanes split
 * runs both sides.
 *
 * The body then runs N times per entry into the loop (N >= 1, the first
 * value of k >= 1 for which the continue condition on the compared value
 * v_k fails; v_k = I + k*S when the increment comes before the setp in the
 * iteration, I + (k-1)*S when after; under a geometric step v_k is I
 * stepped k or k - 1 times, and N at most 64, the values staying in 32
 * bits).  The back edge is taken N - 1 times,
 * so its taken probability is P = (N - 1) / N, which makes the expected
 * trip count of the geometric model the sampler and the closed-form models
 * use, 1 / (1 - P), exactly N (the spec's [branches] form, P = t / (t + 1)
 * for t back-edge takes).
 *
 * A forward conditional branch whose setp operands both fold is decided:
 * taken with probability 1 or 0.
 */
#ifndef RF_TRIPCOUNT_H
#define RF_TRIPCOUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "../common/error.h"
#include "kir.h"

/* A kernel parameter's value: name is the PTX parameter's name
 * (e.g. _Z3addPfi_param_1) or its position in the parameter list ("1"). */
typedef struct rf_kparam {
    char name[128];
    long value;
    int line;                    /* spec line it was given on, 0 = command line */
} rf_kparam;

#define RF_TRIP_MAX_PARAMS 256

/* Parameter names of PTX entry `entry` as text declares them, in order,
 * into names[0..max): the count, or -1 when the entry is not found. */
int rf_trip_ptx_params(const char *text, const char *entry, char (*names)[128], int max);

/* Parameter names of the CUDA kernel `base` (a __global__ function) in
 * CUDA source text, in order: the count, or -1 when not found. */
int rf_trip_cu_params(const char *text, const char *base, char (*names)[128], int max);

/* The source-level name of a PTX entry: the identifier an Itanium-mangled
 * name (_Z7hotspotPf..., _ZN2ns6kernelEv) holds, else the name itself. */
void rf_trip_base_name(const char *entry, char *out, size_t cap);

/* One conditional branch the code decides. */
typedef struct rf_trip {
    int block;                   /* block whose closing branch it is */
    bool loop;                   /* back edge of a counted loop */
    long trip;                   /* loop: body executions per entry (N) */
    double taken_p;              /* probability the branch is taken */
} rf_trip;

/* Find the decided branches of a virtual (PTX) function parsed from text
 * (the source file's contents: instructions are re-read at their lines for
 * immediates and parameter names), launched with blocks of ntid threads in
 * a grid of nctaid CTAs (x, y, z; either NULL when not known); the
 * parameters its folds read without a value into *miss (when not NULL).  *out (heap, free()) gets *n entries,
 * at most one per block.  0 or RF_ENOMEM. */
/* Kernel parameters (their PTX names) a loop's or branch's values read
 * without being given a value: what --param would decide, at most
 * RF_TRIP_MAX_MISSING of them. */
#define RF_TRIP_MAX_MISSING 8

typedef struct rf_trip_missing {
    int n;
    char name[RF_TRIP_MAX_MISSING][128];
} rf_trip_missing;

int rf_trip_find(const rf_func *virt, const char *text, const rf_kparam *params, int nparams,
                 const int ntid[3], const int nctaid[3], rf_trip **out, int *n,
                 rf_trip_missing *miss, rf_err *err);

/* Is block b's closing instruction a conditional branch back to an earlier
 * or the same block (a loop's back edge)? */
bool rf_trip_is_backedge(const rf_func *f, int b);

/* Is block b closed by a conditional branch with two distinct successors? */
bool rf_trip_is_cond(const rf_func *f, int b);

/* Is block b closed by a guarded exit with code after it (SASS's `@P0 EXIT`,
 * PTX's `@%p ret`)?  Taken, the warp ends; not taken, it falls through. */
bool rf_trip_is_guarded_exit(const rf_func *f, int b);

/* Does block b end in a drawn outcome: a conditional branch or a guarded
 * exit (what [branches] and the profile's trip and taken decide)? */
bool rf_trip_is_drawn(const rf_func *f, int b);

#endif /* RF_TRIPCOUNT_H */

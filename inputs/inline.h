/* inline.h - SASS subroutines walked where they are called.
 *
 * ptxas puts the slow paths of division, square root and the like, and
 * every non-inlined device function, in subroutines of the kernel's own
 * text: `CALL.REL.NOINC target` jumps there, `RET.REL.NODEC Rn` comes back.
 * A listing's CFG ends a path at RET and does not enter the subroutine
 * from CALL, so its instructions ran nowhere: on an H200, Nsight Compute
 * counted 37-62% more warp instructions than rfkit's walk of short_poly,
 * trsv, libor and devcall (tests/fixtures/silicon/).
 *
 * rf_inline_subroutines gives the entry function with a copy of the
 * subroutine's blocks after every call: the CALL's block is split after
 * the CALL and falls through into the copy; each RET of the copy becomes
 * a branch to the rest of the calling block (guarded, a conditional one);
 * calls inside a subroutine are copied in turn, RF_INLINE_MAX_DEPTH deep,
 * while the function has under RF_INLINE_MAX_INSTS instructions and half
 * of RF_KIR_MAX_BLOCKS blocks; a call
 * back into a subroutine being copied (recursion) stays one instruction.
 * Blocks keep their order, so every edge of a copy but its loops' back
 * edges goes forward; copies take their block's label with ".cN" (call N
 * of the function) and its [branches] probability, and the function's
 * own blocks stay where they were (the subroutines' originals unreached).
 * Every walk of the kernel (the sampler, rfkit's block frequencies, the
 * analyses) then runs the subroutine's instructions once per call.
 * Assumption: the registers are the listing's (one register file, as the
 * hardware's), and a subroutine's branches go as the profile says,
 * whichever call entered it. */
#ifndef RF_INLINE_H
#define RF_INLINE_H

#include "../common/error.h"
#include "kir.h"

#define RF_INLINE_MAX_DEPTH 8
#define RF_INLINE_MAX_INSTS (1 << 20)

/* *out: f with its subroutines copied in (heap, rf_func_destroy), or NULL
 * when f (physical: SASS or dot) calls none.  RF_ELIMIT past
 * RF_KIR_MAX_BLOCKS blocks, RF_ENOMEM. */
int rf_inline_subroutines(const rf_module *m, const rf_func *f, rf_func **out, rf_err *err);

#endif /* RF_INLINE_H */

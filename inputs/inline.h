/* inline.h - called code walked where it is called.
 *
 * ptxas puts the slow paths of division, square root and the like, and
 * every non-inlined device function, in subroutines of the kernel's own
 * text: `CALL.REL.NOINC target` jumps there, `RET.REL.NODEC Rn` comes back.
 * PTX keeps a device function apart (`call`, `ret`).  A CFG ends a path at
 * RET and does not enter the callee from the call, so no walk of the
 * kernel ran a callee's instructions: on an H200, Nsight Compute counted
 * 11-62% more warp instructions than rfkit's walk of short_poly,
 * lu_update, trsv and devcall (tests/fixtures/silicon/).
 *
 * The kernel's function is given with a copy of the called code after
 * every call: the call's block is split after the call and falls through
 * into the copy; each RET of the copy becomes a branch to the rest of the
 * calling block (guarded, a conditional one); calls inside a copy are
 * copied in turn, RF_INLINE_MAX_DEPTH deep, while the function has under
 * RF_INLINE_MAX_INSTS instructions and half of RF_KIR_MAX_BLOCKS blocks;
 * a call back into code being copied (recursion), to an external function
 * or one rfkit cannot place stays one instruction.  Blocks keep their
 * order, so every edge of a copy but its loops' back edges goes forward;
 * copies take their block's label with ".cN" (call N of the function) and
 * its [branches] probability, and the function's own blocks stay where
 * they were (a SASS subroutine's originals unreached).  Every walk of the
 * kernel (the sampler, rfkit's block frequencies, the analyses) then runs
 * the callee's instructions once per call.
 * Registers.  A SASS subroutine's are the listing's (one register file, as
 * the hardware's).  A PTX callee, allocated on its own, gets the general
 * registers above its caller's (no value of the caller is overwritten;
 * the copy's registers past 255 leave the call uninlined) and shares the
 * predicates.  Parameters pass through the param space (st.param /
 * ld.param), whose dependences the walks do not follow.
 * Assumption: a callee's branches go as the profile says, whichever call
 * entered it. */
#ifndef RF_INLINE_H
#define RF_INLINE_H

#include "../common/error.h"
#include "kir.h"

#define RF_INLINE_MAX_DEPTH 8
#define RF_INLINE_MAX_INSTS (1 << 20)

/* *out: f with the code it calls copied in (heap, rf_func_destroy), or
 * NULL when no call of f leads to code rfkit can walk.  f is function fi
 * of m or (PTX) its allocated code; phys (PTX) the allocated code of every
 * function of m f may reach through calls (NULL where not needed), NULL
 * for SASS and dot, whose calls name subroutines of f's own text.
 * RF_ELIMIT past RF_KIR_MAX_BLOCKS blocks, RF_ENOMEM. */
int rf_inline_calls(const rf_module *m, int fi, const rf_func *f,
                    const rf_func *const *phys, rf_func **out, rf_err *err);

/* rf_inline_calls for a SASS or dot function of m (NULL for PTX). */
int rf_inline_subroutines(const rf_module *m, const rf_func *f, rf_func **out, rf_err *err);

#endif /* RF_INLINE_H */

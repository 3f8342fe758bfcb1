/* scoreboard.c - per-warp register scoreboard as bit masks.
 *
 * Model: a warp may issue an instruction only when none of the registers it
 * reads (guard included) or writes has a write in flight (RAW and WAW).
 * Registers are the 256 general registers plus 8 predicates (RF_PRED_BASE),
 * kept as five 64-bit words.  A register's bit is set at issue and cleared
 * when its value is written into a bank (or, with write stealing, parked in
 * a dead register: seed 001 Sec. IV-C, "we also clear the dependent
 * instructions of the scoreboard").  Predicates are not banked and clear
 * when the instruction finishes executing.
 */
#include "sim_internal.h"

void sim_sb_reserve(sim_warp *w, const sim_inst *in, bool longlat)
{
    w->sbst = SIM_SB_DIRTY;
    for (int i = 0; i < SIM_MASK_WORDS; i++) {
        w->pend.w[i] |= in->def.w[i];
        if (longlat)
            w->pend_mem.w[i] |= in->def.w[i];
    }
}

void sim_sb_release(sim_warp *w, int reg)
{
    w->sbst = SIM_SB_DIRTY;
    sim_mask_reset(&w->pend, reg);
    sim_mask_reset(&w->pend_mem, reg);
    sim_mask_reset(&w->pend_wq, reg);
}

/* sharing.c - Register Sharing (seed 003 Sections 4-5) as a register-file
 * organisation of the sampler.
 *
 * Residency: rf_occ_compute gives M CTAs per SM (Eq. 4, then the other
 * limits) as S shared pairs and U unshared CTAs (sim.c: unshared_ctas).
 * CTA slots 0..U-1 are unshared; slots U+2i and U+2i+1 are the i-th shared
 * pair, and a CTA launched into a freed slot takes its predecessor's place
 * in the pair.
 *
 * Registers: each warp of a shared CTA owns registers 0 .. R_w t - 1
 * (t = 1 - F, R_w the registers per thread allocated; Section 4: "the
 * accessed register is an unshared register if RegNo <= R_w t"); the rest
 * are shared with the warp at the same position in the partner CTA.  With
 * `unroll` (Section 5.2) the registers are numbered by first use
 * (analytic/reorder.c) before that test, so a non-owner warp runs further
 * before its first shared register.  The bank mapping keeps the code's
 * numbering: the declaration order changes which registers are private, not
 * where they live.
 *
 * Locks (Fig. 4): a warp's first instruction touching a shared register
 * (read, written or as a guard) takes the warp pair's lock, held until the
 * warp exits; the partner warp waits at its first such instruction.
 * Deadlock avoidance (Section 4, Fig. 5): a warp of CTA A may take a lock
 * only while no warp of its partner CTA B holds one (B's holders have all
 * exited).  So at most one CTA of a pair holds locks at a time, that CTA
 * never waits on a lock, and a pair cannot deadlock through a barrier.
 * rf_share_try() below is that rule on its own, for tests.
 *
 * Owner Warp First (Section 5.1, design `owf`): the CTA of a pair holding
 * locks is the owner (when neither holds one, the one launched first, or
 * the only one resident); warps are scheduled owner first, then unshared,
 * then non-owner (priority classes 0, 1, 2 before the policy's order).
 *
 * Dynamic warp execution (Section 5.3, design `dyn`): SM 0 never issues a
 * non-owner warp's global or local memory instruction; every other SM
 * issues one with probability p (a fresh counter-based draw each cycle the
 * warp is considered), starting at 1.  Every 1000 cycles each SM i > 0
 * compares its stall cycles (unused issue slots, all causes) over the
 * period with SM 0's and moves p by 0.1 down when it stalled more, up when
 * less, within [0, 1].  With one SM simulated only SM 0's rule applies.
 *
 * Counters: lock_acquires; lock_wait (warp-cycles from a warp's first
 * refusal of a lock to its next issue); st_lock (issue slots left unused
 * because the only ready warps waited on a lock or on the dynamic rule);
 * p in tenths summed over the closed periods of SMs 1.. (dyn_p_tenths,
 * dyn_cycles) for nonowner_mem_issue_prob.
 */
#include <stdlib.h>
#include <string.h>

#include "../analytic/reorder.h"
#include "../common/draw.h"
#include "sim_internal.h"

#define DYN_PERIOD 1000      /* cycles between dynamic-execution updates (Section 5.3) */
#define DYN_STEP 1           /* p moves by 0.1 = one tenth */
#define NO_WAIT UINT64_MAX

/* Counter-based draw stream of the dynamic rule (past common/draw.h's). */
#define DRAW_DYN 16

typedef struct share_sm {
    rf_share_locks lk;       /* lock table (warp pairs, holders per CTA) */
    uint64_t *wait_since;    /* [nslots]: cycle of the first refusal, NO_WAIT none */
    uint64_t *launched;      /* [nctas]: launch order of the CTA in the slot */
    uint64_t nlaunch;
    bool *shared_at;         /* [ninsts]: the instruction touches a shared register */
    int p10;                 /* dynamic rule: issue probability in tenths */
    uint64_t period_end;     /* next update of p */
    uint64_t snap_self, snap_ref;   /* stall counts at the last update */
} share_sm;

/* ---- the lock table on its own ------------------------------------------ */

static int partner_cta(const rf_share_locks *l, int cta)
{
    return cta < l->unshared ? -1 : l->unshared + ((cta - l->unshared) ^ 1);
}

/* Warp pair of warp `slot` (index into lock[]), -1 for an unshared warp. */
static int pair_of(const rf_share_locks *l, int slot)
{
    int cta = slot / l->wpc;
    if (cta < l->unshared)
        return -1;
    int rel = cta - l->unshared;
    return (rel / 2) * l->wpc + slot % l->wpc;
}

int rf_share_locks_init(rf_share_locks *l, int nctas, int unshared, int wpc)
{
    memset(l, 0, sizeof *l);
    l->nctas = nctas;
    l->unshared = unshared;
    l->wpc = wpc;
    l->rule = true;
    int npairs = (nctas - unshared) / 2 * wpc;
    l->lock = malloc((size_t)(npairs > 0 ? npairs : 1) * sizeof *l->lock);
    l->held = calloc((size_t)(nctas > 0 ? nctas : 1), sizeof *l->held);
    if (!l->lock || !l->held) {
        rf_share_locks_free(l);
        return RF_ENOMEM;
    }
    for (int i = 0; i < npairs; i++)
        l->lock[i] = -1;
    return 0;
}

void rf_share_locks_free(rf_share_locks *l)
{
    free(l->lock);
    free(l->held);
    l->lock = NULL;
    l->held = NULL;
}

int rf_share_try(const rf_share_locks *l, int slot)
{
    int p = pair_of(l, slot);
    if (p < 0 || l->lock[p] == slot)
        return RF_SHARE_HAVE;
    if (l->lock[p] >= 0)
        return RF_SHARE_WAIT;
    if (l->rule && l->held[partner_cta(l, slot / l->wpc)] > 0)
        return RF_SHARE_WAIT;
    return RF_SHARE_FREE;
}

void rf_share_take(rf_share_locks *l, int slot)
{
    int p = pair_of(l, slot);
    if (p >= 0 && l->lock[p] != slot) {
        l->lock[p] = slot;
        l->held[slot / l->wpc]++;
    }
}

bool rf_share_release(rf_share_locks *l, int slot)
{
    int p = pair_of(l, slot);
    if (p < 0 || l->lock[p] != slot)
        return false;
    l->lock[p] = -1;
    l->held[slot / l->wpc]--;
    return true;
}

/* ---- ownership and priorities ------------------------------------------- */

/* Is the CTA in slot c the owner of its pair (see the top)? */
static bool is_owner(const sim_sm *sm, const share_sm *s, int c)
{
    int q = partner_cta(&s->lk, c);
    if (q < 0)
        return false;
    if (s->lk.held[c] > 0 || !sm->ctas[q].used)
        return true;
    if (s->lk.held[q] > 0)
        return false;
    return s->launched[c] < s->launched[q];
}

static void set_class(sim_ctx *x, sim_sm *sm, int c, uint8_t cls)
{
    for (int i = 0; i < x->warps_per_cta; i++)
        sm->warps[c * x->warps_per_cta + i].prio_class = cls;
}

/* Owner first, unshared, non-owner (Section 5.1) for CTA c and its partner. */
static void update_classes(sim_ctx *x, sim_sm *sm, int c)
{
    share_sm *s = sm->org_state;
    if (!x->d->owf)
        return;
    int q = partner_cta(&s->lk, c);
    if (q < 0) {
        set_class(x, sm, c, 1);
        return;
    }
    bool own = is_owner(sm, s, c);
    set_class(x, sm, c, own ? 0 : 2);
    if (sm->ctas[q].used)
        set_class(x, sm, q, own ? 2 : 0);
}

/* ---- dynamic warp execution -------------------------------------------- */

static uint64_t stalls_of(const sim_sm *sm)
{
    const sim_counts *c = &sm->c;
    return c->st_no_warp + c->st_scoreboard + c->st_collector + c->st_bank + c->st_memory +
           c->st_rc + c->st_lock;
}

/* Once per simulated cycle (after a skipped stretch, the periods it
 * crossed are closed at once: the first takes the stretch's stalls). */
static void share_cycle(sim_ctx *x, sim_sm *sm)
{
    share_sm *s = sm->org_state;
    if (!x->d->dyn || sm->id == 0)
        return;
    while (x->now >= s->period_end) {
        uint64_t self = stalls_of(sm), ref = stalls_of(&x->sm[0]);
        uint64_t ds = self - s->snap_self, dr = ref - s->snap_ref;
        s->snap_self = self;
        s->snap_ref = ref;
        sm->c.dyn_p_tenths += (uint64_t)s->p10 * DYN_PERIOD;
        sm->c.dyn_cycles += DYN_PERIOD;
        if (ds > dr && s->p10 > 0)
            s->p10 -= DYN_STEP;
        else if (ds < dr && s->p10 < 10)
            s->p10 += DYN_STEP;
        s->period_end += DYN_PERIOD;
    }
}

/* May a non-owner warp issue its memory instruction now? */
static bool dyn_allows(sim_ctx *x, sim_sm *sm, share_sm *s, const sim_warp *w)
{
    if (sm->id == 0)
        return false;
    if (s->p10 >= 10)
        return true;
    double u = rf_draw_uniform(x->o->seed, w->gid, x->now, DRAW_DYN);
    return u * 10 < s->p10;
}

/* ---- organisation hooks -------------------------------------------------- */

static bool share_may_issue(sim_ctx *x, sim_sm *sm, int slot)
{
    share_sm *s = sm->org_state;
    sim_warp *w = &sm->warps[slot];
    const sim_inst *in = &x->prog.insts[w->pc];
    if (s->shared_at[w->pc] && rf_share_try(&s->lk, slot) == RF_SHARE_WAIT) {
        if (s->wait_since[slot] == NO_WAIT)
            s->wait_since[slot] = x->now;
        return false;
    }
    if (x->d->dyn && (in->mem == SIM_M_LOAD || in->mem == SIM_M_STORE || in->mem == SIM_M_ATOMIC) &&
        pair_of(&s->lk, slot) >= 0 && !is_owner(sm, s, w->cta))
        return dyn_allows(x, sm, s, w);
    return true;
}

static void share_issue(sim_ctx *x, sim_sm *sm, int slot, int inst)
{
    share_sm *s = sm->org_state;
    if (s->wait_since[slot] != NO_WAIT) {
        sm->c.lock_wait += x->now - s->wait_since[slot];
        s->wait_since[slot] = NO_WAIT;
    }
    if (!s->shared_at[inst] || rf_share_try(&s->lk, slot) != RF_SHARE_FREE)
        return;
    int c = slot / x->warps_per_cta;
    rf_share_take(&s->lk, slot);
    sm->c.lock_acquires++;
    if (s->lk.held[c] == 1)
        update_classes(x, sm, c);
}

static void share_exit(sim_ctx *x, sim_sm *sm, int slot)
{
    share_sm *s = sm->org_state;
    s->wait_since[slot] = NO_WAIT;
    int c = slot / x->warps_per_cta;
    if (rf_share_release(&s->lk, slot) && s->lk.held[c] == 0)
        update_classes(x, sm, c);
}

static void share_launch(sim_ctx *x, sim_sm *sm, int c)
{
    share_sm *s = sm->org_state;
    s->launched[c] = s->nlaunch++;
    for (int i = 0; i < x->warps_per_cta; i++)
        s->wait_since[c * x->warps_per_cta + i] = NO_WAIT;
    update_classes(x, sm, c);
    if (!x->d->owf)
        return;
    /* The partner may have lost its owner when the CTA before this one
     * left: recompute from the partner's side too. */
    int q = partner_cta(&s->lk, c);
    if (q >= 0 && sm->ctas[q].used)
        update_classes(x, sm, q);
}

static void share_fini(sim_sm *sm)
{
    share_sm *s = sm->org_state;
    if (!s)
        return;
    rf_share_locks_free(&s->lk);
    free(s->wait_since);
    free(s->launched);
    free(s->shared_at);
    free(s);
    sm->org_state = NULL;
}

/* Which instructions touch a shared register: any general register r whose
 * number (first-use order with `unroll`) is R_w t or more. */
static int shared_insts(sim_ctx *x, share_sm *s, rf_err *err)
{
    const rf_func *f = x->k->func;
    int nregs = x->prog.regs_alloc;
    int code_regs = f->nregs > 0 ? f->nregs : 1;
    int *map = malloc((size_t)(code_regs > nregs ? code_regs : nregs) * sizeof *map);
    s->shared_at = calloc((size_t)(x->prog.ninsts > 0 ? x->prog.ninsts : 1), sizeof *s->shared_at);
    if (!map || !s->shared_at) {
        free(map);
        return RF_ENOMEM;
    }
    int rc = 0;
    if (x->d->unroll)
        rc = rf_reorder_first_use(f, code_regs, map, err);
    else
        for (int r = 0; r < code_regs; r++)
            map[r] = r;
    if (rc < 0) {
        free(map);
        return rc;
    }
    int own = (int)((1.0 - x->d->sharing) * nregs + 1e-9);  /* R_w t private registers */
    for (int i = 0; i < x->prog.ninsts; i++) {
        const sim_inst *in = &x->prog.insts[i];
        bool sh = false;
        for (int r = 0; r < code_regs && r < RF_MAX_GPR && !sh; r++)
            sh = sim_mask_test(&in->dep, r) && map[r] >= own;
        s->shared_at[i] = sh;
    }
    free(map);
    return 0;
}

static int share_init(sim_ctx *x, sim_sm *sm, rf_err *err)
{
    share_sm *s = calloc(1, sizeof *s);
    if (!s)
        return RF_ENOMEM;
    sm->org_state = s;
    s->wait_since = malloc((size_t)sm->nslots * sizeof *s->wait_since);
    s->launched = calloc((size_t)sm->nctas, sizeof *s->launched);
    if (!s->wait_since || !s->launched)
        return RF_ENOMEM;
    for (int i = 0; i < sm->nslots; i++)
        s->wait_since[i] = NO_WAIT;
    int rc = rf_share_locks_init(&s->lk, sm->nctas, x->unshared_ctas, x->warps_per_cta);
    if (rc < 0)
        return rc;
    s->p10 = 10;
    s->period_end = DYN_PERIOD;
    return shared_insts(x, s, err);
}

static int share_read(sim_ctx *x, sim_sm *sm, int slot, int reg, int *extra)
{
    (void)sm;
    *extra = 0;
    return sim_bank_of(x, slot, reg);
}

static int share_write(sim_ctx *x, sim_sm *sm, int slot, int reg)
{
    (void)sm;
    return sim_bank_of(x, slot, reg);
}

const sim_rforg sim_rforg_sharing = {.name = "sharing",
                                     .read_route = share_read,
                                     .write_route = share_write,
                                     .on_issue = share_issue,
                                     .on_launch = share_launch,
                                     .init = share_init,
                                     .fini = share_fini,
                                     .may_issue = share_may_issue,
                                     .on_exit = share_exit,
                                     .on_cycle = share_cycle};

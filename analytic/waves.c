/* waves.c - fluid model of the CTA population of one SM.
 *
 * Each resident CTA is a sample of rf_ctaset: for every warp, the warp
 * instructions I and lone-warp cycles T of each barrier phase.  At any time
 * a warp is issuing (time left in its phase), waiting at the barrier, or
 * done.  With a issuing warps the SM retires IPC(a) warp instructions per
 * cycle (the steady-state IPC model, tabulated by the caller); a lone warp
 * would retire a / cpi_lone, so each issuing warp advances through its lone
 * time at the rate
 *     v(a) = IPC(a) cpi_lone / a            (1 when latency alone binds)
 * and retires instructions at v(a) I / T of its phase.  That equal share
 * of lone time holds where IPC(a) is latency- or DRAM-bound (the waits
 * stretch); where it is issue-, collector- or unit-bound (run->stretch[a])
 * the issue cycles stretch instead (issue_stretch below): sgemm's CTA
 * epilogue of dependent loads (88 instructions over 1,264 lone cycles)
 * next to its compute phases took 16 times its lone time under the equal
 * share with 28 warps issuing, and the population model's sgemm windows
 * read 1.00-1.17 by position where the sampler's read 1.00-1.05.  An oldest-first
 * scheduler (GTO) instead hands the share out in CTA launch order, each warp
 * taking at most its lone speed (v = 1) until IPC(a) is used up, so old CTAs
 * finish first and the population drifts apart.  The model blends the two:
 * v_w = (1 - g) v(a) + g v_w,oldest, g = oldest_first (calibrated).
 * A warp finishing a phase waits; when every warp of its CTA that is not done
 * waits, all move to their next phase (the barrier releases); a CTA whose
 * warps are all done frees its slot, and the next CTA of the grid starts
 * there once the slot has drained (`drain` cycles for the last instructions
 * of its warps to retire, as the sampler's dispatcher waits for them).  The run is event driven: time
 * jumps to the next phase end, so the cost is one step per warp phase.
 * Start: every slot gets a fresh CTA at t = 0, as the sampler's cold start at
 * skip_ctas; with functional warming (warm_ctas = C > 0, the sampler's
 * rf_sim_opts.warm_ctas) the run's first C CTAs and those they make room
 * for run untimed, every issuing warp at one instruction per step (through
 * its phases and barriers, a finished CTA replaced at once, no drain),
 * until the run's CTA C starts, so the timed run starts from the
 * population of CTA ages the sampler's does.
 * Window output: instructions retired in [t_start, t_end).  A whole run
 * may stop early at a steady batch (rf_waves_run.batch_ctas: batches of CTAs
 * from a mark, the run stopping once their IPCs' standard error is small
 * and the span's two halves run at one rate; rf_waves_split_ipc then takes
 * the rest at that rate).  Whole-run
 * output may add batches: the IPC between the launches that cut the grid
 * into equal numbers of CTAs (their spread says how well one draw of the
 * CTAs fixes the run's IPC).  The start (fresh CTAs, then the warming)
 * does not depend on the rates: rf_waves_prepare keeps it for many timed
 * runs.
 *
 * Assumptions: no pipeline fill, instruction counts and lone times of the
 * CTA sample, a phase's instructions retired evenly over its lone time.
 */
#include "waves.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { W_EMPTY, W_ISSUE, W_WAIT, W_DONE };

typedef struct sim {
    const rf_ctaset *cs;
    int wpc;
    double *rem;          /* lone cycles left in the phase */
    double *ipt;          /* instructions per lone cycle in the phase */
    int *ph, *st, *cta;   /* cta per slot */
    long launched, total, first;
    int active;
    double *free_at;      /* per slot: cycle a drained slot takes its next CTA */
    long *age;            /* per slot: launch order of its CTA */
    double drain;
    double now;
    int *by_age;          /* slots by their CTA's launch order, oldest first */
    int nslots;
    double retired;       /* instructions retired since the timed start */
    int batches;          /* rf_waves_run.batches */
    double bt[RF_WAVES_MAXB + 1], bi[RF_WAVES_MAXB + 1]; /* time and retired at each
                                                           batch's first launch */
    void *buf;            /* the arrays above, one block of bytes bytes */
    size_t bytes;
} sim;

/* The arrays of an n-slot run in one block (doubles first, then longs,
 * then ints, so every array is aligned), so that a state is copied at once. */
static int sim_alloc(sim *s, const rf_ctaset *cs, int n)
{
    int nw = n * cs->wpc;
    size_t bytes = (size_t)(2 * nw + n) * sizeof(double) + (size_t)n * sizeof(long)
                 + (size_t)(2 * nw + 2 * n) * sizeof(int);
    memset(s, 0, sizeof *s);
    s->buf = malloc(bytes);
    if (!s->buf)
        return RF_ENOMEM;
    s->bytes = bytes;
    s->cs = cs;
    s->wpc = cs->wpc;
    s->nslots = n;
    s->rem = s->buf;
    s->ipt = s->rem + nw;
    s->free_at = s->ipt + nw;
    s->age = (long *)(s->free_at + n);
    s->ph = (int *)(s->age + n);
    s->st = s->ph + nw;
    s->cta = s->st + nw;
    s->by_age = s->cta + n;
    memset(s->buf, 0, bytes);
    return RF_OK;
}

/* s becomes a copy of from (its own arrays, the same contents). */
static int sim_copy(sim *s, const sim *from)
{
    if (sim_alloc(s, from->cs, from->nslots))
        return RF_ENOMEM;
    memcpy(s->buf, from->buf, from->bytes);
    s->launched = from->launched;
    s->total = from->total;
    s->first = from->first;
    s->active = from->active;
    s->drain = from->drain;
    s->now = from->now;
    return RF_OK;
}

/* Load warp w of slot's CTA at its current phase: remaining lone time and
 * instructions per lone cycle. */
static void set_phase(sim *s, int slot, int w)
{
    int i = slot * s->wpc + w;
    double T = rf_ctaset_time(s->cs, s->cta[slot], w)[s->ph[i]];
    double I = rf_ctaset_insts(s->cs, s->cta[slot], w)[s->ph[i]];
    s->rem[i] = T > 0 ? T : 0.0;
    s->ipt[i] = T > 0 ? I / T : 0.0;
}

static void launch(sim *s, int slot)
{
    int wpc = s->wpc;
    if (s->launched >= s->total) {
        s->cta[slot] = -1;
        for (int w = 0; w < wpc; w++)
            s->st[slot * wpc + w] = W_EMPTY;
        return;
    }
    long c = (s->first + s->launched) % s->cs->nctas;
    s->age[slot] = s->launched;
    for (int b = 1; b < s->batches; b++)
        if (s->launched == (long)((double)s->total * b / s->batches)) {
            s->bt[b] = s->now;
            s->bi[b] = s->retired;
        }
    /* The youngest CTA: its slot moves to the end of by_age. */
    int k = 0;
    while (s->by_age[k] != slot)
        k++;
    for (; k + 1 < s->nslots; k++)
        s->by_age[k] = s->by_age[k + 1];
    s->by_age[s->nslots - 1] = slot;
    s->launched++;
    s->cta[slot] = (int)c;
    for (int w = 0; w < wpc; w++) {
        int i = slot * wpc + w;
        s->ph[i] = 0;
        set_phase(s, slot, w);
        s->st[i] = W_ISSUE;
        s->active++;
    }
}

/* Settle slot: zero-work phases, barrier releases, CTA completion.  Loops
 * until the slot has an issuing warp or is empty. */
static void settle(sim *s, int slot)
{
    int wpc = s->wpc;
    for (int guard = 0; guard < 4 * s->cs->maxph + 8; guard++) {
        int c = s->cta[slot];
        if (c < 0)
            return;
        int nph = s->cs->nph[c];
        bool any_issue = false, all_done = true;
        for (int w = 0; w < wpc; w++) {
            int i = slot * wpc + w;
            if (s->st[i] == W_ISSUE && s->rem[i] <= 1e-7) {
                s->active--;
                s->st[i] = s->ph[i] + 1 < nph ? W_WAIT : W_DONE;
            }
            any_issue |= s->st[i] == W_ISSUE;
            all_done &= s->st[i] == W_DONE;
        }
        if (all_done) {
            if (s->drain > 0 && s->free_at[slot] < 0) {
                /* Hold the slot while the last instructions retire. */
                s->free_at[slot] = s->now + s->drain;
                for (int w = 0; w < wpc; w++)
                    s->st[slot * wpc + w] = W_EMPTY;
                return;
            }
            launch(s, slot);
            continue;
        }
        if (any_issue)
            return;
        /* Everyone not done waits: the barrier releases. */
        for (int w = 0; w < wpc; w++) {
            int i = slot * wpc + w;
            if (s->st[i] != W_WAIT)
                continue;
            s->ph[i]++;
            set_phase(s, slot, w);
            s->st[i] = W_ISSUE;
            s->active++;
        }
    }
}

/* Whether settle(s, slot) can change anything: not for a slot without a
 * CTA, one draining (its warps emptied, the caller launches at free_at), or
 * one with an issuing warp and none at the end of its phase.  The run
 * settles only the others, so an event costs the slots it touches. */
static bool settle_needed(const sim *s, int slot)
{
    if (s->cta[slot] < 0 || s->free_at[slot] >= 0)
        return false;
    bool issue = false;
    for (int w = 0; w < s->wpc; w++) {
        int i = slot * s->wpc + w;
        if (s->st[i] == W_ISSUE) {
            if (s->rem[i] <= 1e-7)
                return true;
            issue = true;
        }
    }
    return !issue;
}

/* Functional warming: every issuing warp retires one instruction per unit
 * of time, untimed; CTAs that finish are replaced at once; until the run's
 * CTA `until` has started. */
static void warm(sim *s, int n, long until)
{
    double drain = s->drain;
    s->drain = 0;
    int nw = n * s->wpc;
    int idle = 0;
    while (s->launched <= until && s->active > 0 && idle < 64) {
        double dt = -1;
        for (int i = 0; i < nw; i++)
            if (s->st[i] == W_ISSUE && s->ipt[i] > 0 && (dt < 0 || s->rem[i] * s->ipt[i] < dt))
                dt = s->rem[i] * s->ipt[i];
        if (dt < 0)
            dt = 0;
        for (int i = 0; i < nw; i++) {
            if (s->st[i] != W_ISSUE)
                continue;
            /* A phase with no instructions ends at once. */
            s->rem[i] = s->ipt[i] > 0 ? s->rem[i] - dt / s->ipt[i] : 0.0;
            if (s->rem[i] < 1e-9)
                s->rem[i] = 0;
        }
        idle = dt > 0 ? 0 : idle + 1;
        for (int k = 0; k < n; k++)
            if (settle_needed(s, k))
                settle(s, k);
    }
    s->drain = drain;
}

/* Issue stretch (the share where IPC(a) is throughput-bound): contention
 * stretches the issue cycles of a warp's phase, not its waits.  A phase of
 * I instructions over T lone cycles (ipt = I / T) then takes T - I + c I
 * cycles at c cycles per issue, so the warp covers its lone time at
 *     v = 1 / (1 + ipt (c - 1))
 * and retires v ipt instructions a cycle; c >= 1 solves
 *     sum_i ipt_i / (1 + ipt_i (c - 1)) = IPC(a)
 * (c = 1, every warp at its lone speed, when the warps ask less).  With
 * every warp at the kernel's mean ipt this is the equal share; where
 * phases differ it slows the issuing phases, not the waiting ones. */
#define STRETCH_TOL 1e-5

static void issue_stretch(const sim *s, const int *order, int na, double ipc, double *v,
                          double *c_last, double *pp)
{
    double d = 0;
    for (int x = 0; x < na; x++) {
        pp[x] = s->ipt[order[x]];
        d += pp[x];
    }
    double c = 1.0;
    bool have_v = false;
    if (d > ipc && ipc > 0) {
        /* f(c) = sum r_i - ipc, r_i = ipt_i u_i, u_i = 1 / (1 + ipt_i (c - 1)):
         * decreasing and convex, f' = -sum r^2, f'' = 2 sum r^3.  Halley's
         * step h = f f' / (f'^2 - f f'' / 2) from the previous event's c
         * (the population changes by one phase between events; a step
         * below 1 restarts from 1) converges cubically, the error after a
         * step of h about (f''^2 / 4 f'^2 - f''' / 6 f') h^3 = ((sum r^3 /
         * sum r^2)^2 - sum r^4 / sum r^2) h^3, at most h^3 in size here
         * (r <= ipt <= 1): it stops after a step whose cube is under
         * STRETCH_TOL c.  The speeds at the new c come from the
         * last pass's u_i by u' = -ipt u^2, u'' = 2 ipt^2 u^3 (Taylor to
         * h^2, error ~ h^3), not from one more pass over the warps. */
        c = *c_last > 1.0 ? *c_last : 1.0;
        for (int it = 0; it < 50; it++) {
            double f = -ipc, d1 = 0, d2 = 0;
            for (int x = 0; x < na; x++) {
                double p = pp[x], u = 1.0 / (1.0 + p * (c - 1.0)), r = p * u, r2 = r * r;
                v[x] = u;
                f += r;
                d1 -= r2;
                d2 += r2 * r;
            }
            if (!(d1 < 0))
                break;
            double den = d1 * d1 - f * d2;
            double h = den > 0 ? f * d1 / den : f / d1;
            if (c - h < 1.0) {
                c = 1.0;
                continue;
            }
            c -= h;
            if (h * h * fabs(h) < STRETCH_TOL * c) {
                /* u at c - h from u at c: u + ipt u^2 h + ipt^2 u^3 h^2. */
                for (int x = 0; x < na; x++) {
                    double pu = pp[x] * v[x] * h;
                    v[x] *= 1.0 + pu + pu * pu;
                }
                have_v = true;
                break;
            }
        }
        *c_last = c;
    }
    if (!have_v)
        for (int x = 0; x < na; x++)
            v[x] = 1.0 / (1.0 + pp[x] * (c - 1.0));
}

/* The start of a run: every slot given a fresh CTA at t = 0, then the
 * functional warming (run->warm_ctas). */
static int sim_start(sim *s, const rf_ctaset *cs, double drain, const rf_waves_run *run)
{
    int n = run->resident;
    if (sim_alloc(s, cs, n))
        return RF_ENOMEM;
    s->total = run->ctas;
    s->first = run->first_cta;
    s->drain = drain;
    for (int k = 0; k < n; k++)
        s->by_age[k] = k;
    for (int k = 0; k < n; k++) {
        s->free_at[k] = -1;
        launch(s, k);
        settle(s, k);
    }
    if (run->warm_ctas > 0)
        warm(s, n, run->warm_ctas);
    return RF_OK;
}

struct rf_waves_state {
    sim s;                /* after the start and the functional warming */
    int resident;
    long first_cta, ctas, warm_ctas;
    double drain;
};

int rf_waves_prepare(const rf_ctaset *cs, double drain, const rf_waves_run *run,
                     rf_waves_state **out)
{
    *out = NULL;
    rf_waves_state *st = calloc(1, sizeof *st);
    if (!st)
        return RF_ENOMEM;
    st->resident = run->resident;
    st->first_cta = run->first_cta;
    st->ctas = run->ctas;
    st->warm_ctas = run->warm_ctas;
    st->drain = drain;
    if (run->resident > 0 && run->ctas > 0 && sim_start(&st->s, cs, drain, run)) {
        free(st);
        return RF_ENOMEM;
    }
    *out = st;
    return RF_OK;
}

void rf_waves_state_free(rf_waves_state *st)
{
    if (!st)
        return;
    free(st->s.buf);
    free(st);
}

bool rf_waves_state_matches(const rf_waves_state *st, const rf_ctaset *cs, double drain,
                            const rf_waves_run *run)
{
    return st && st->s.cs == cs && st->resident == run->resident
        && st->first_cta == run->first_cta && st->ctas == run->ctas
        && st->warm_ctas == run->warm_ctas && st->drain == drain;
}

/* The timed run from the started state in s (consumed). */
static int sim_timed(sim *sp, const double *ipc_tab, const rf_waves_run *run, rf_waves_out *out)
{
    sim s = *sp;
    s.retired = 0;
    s.batches = run->batches >= 2 && run->t_end <= 0 && s.launched <= s.nslots
                    ? (run->batches < RF_WAVES_MAXB ? run->batches : RF_WAVES_MAXB) : 0;
    for (int b = 0; b <= RF_WAVES_MAXB; b++)
        s.bt[b] = s.bi[b] = 0;
    const rf_ctaset *cs = s.cs;
    int n = s.nslots, wpc = s.wpc, nw = n * wpc;
    double *v = calloc((size_t)nw, sizeof *v);
    double *pp = calloc((size_t)nw, sizeof *pp);   /* issue_stretch's ipt in order */
    int *order = calloc((size_t)nw, sizeof *order);
    int *oslot = calloc((size_t)nw, sizeof *oslot); /* each listed warp's slot */
    char *dirty = calloc((size_t)n, 1);   /* slots settle_needed may hold */
    if (!v || !pp || !order || !oslot || !dirty) {
        free(v), free(pp), free(order), free(oslot), free(dirty);
        return RF_ENOMEM;
    }
    for (int k = 0; k < n; k++)
        dirty[k] = settle_needed(&s, k);
    double c_last = 1.0;     /* issue stretch of the previous event */
    bool marked = false;     /* run->mark_cta has launched */
    long nb = 0;             /* steady batches ended */
    double bm = 0, bss = 0;  /* their IPCs' mean and sum of squares */
    double *bnd = NULL;      /* [2 (nb + 1)]: time and retired at the mark and each batch's end */
    long bcap = 0;
    bool window = run->t_end > 0;
    double t = 0, insts = 0, active_time = 0, t0 = run->t_start, t1 = run->t_end;
    for (;;) {
        /* Next event: a phase end, or a drained slot taking its next CTA. */
        double next_free = -1;
        for (int k = 0; k < n; k++)
            if (s.free_at[k] >= 0 && (next_free < 0 || s.free_at[k] < next_free))
                next_free = s.free_at[k];
        if (s.active == 0 && next_free < 0)
            break;
        int a = s.active;
        double ipc = a > 0 ? ipc_tab[a > nw ? nw : a] : 0.0;
        if (a > 0 && !(ipc > 0))
            break;
        /* Share IPC(a) among the issuing warps: equally, or oldest first
         * with each warp at most at its lone speed.  The issuing warps are
         * listed oldest CTA first, by warp within a CTA (the order the
         * oldest-first share needs; the equal share has none). */
        int na = 0;
        for (int k = 0; k < n; k++) {
            int slot = s.by_age[k];
            for (int w = 0, i = slot * wpc; w < wpc; w++, i++) {
                order[na] = i;              /* kept where the warp issues */
                oslot[na] = slot;
                na += s.st[i] == W_ISSUE;
            }
        }
        double lam = run->oldest_first < 0 ? 0 : run->oldest_first > 1 ? 1 : run->oldest_first;
        bool stretched = run->stretch && a > 0 && run->stretch[a > nw ? nw : a];
        if (stretched)
            issue_stretch(&s, order, na, ipc, v, &c_last, pp);
        double eq = a > 0 ? ipc * cs->cpi_lone / a : 0.0;
        /* dt: the first phase end, the least rem / v over the warps that
         * move (a minimum: kept without a branch per warp).  v[x]: the
         * speed of the x-th warp listed.  Oldest first, every warp before
         * the share runs out takes its whole lone speed (g / ipt exactly
         * 1) and every one after it none, so only one quotient is taken. */
        double dt = INFINITY, rate = 0, left = ipc;
        for (int x = 0; x < na; x++) {
            int i = order[x];
            double p = s.ipt[i];
            double vi = (stretched ? v[x] : eq) * (1.0 - lam);
            if (lam > 0 && left > 0) {
                double g = p < left ? p : left;
                vi += lam * (!(p > 0) || g == p ? 1.0 : g / p);
                left -= g;
            } else if (lam > 0 && !(p > 0)) {
                vi += lam;
            }
            v[x] = vi;
            double q = vi > 0 ? s.rem[i] / vi : INFINITY;
            dt = q < dt ? q : dt;
            rate += vi * p;
        }
        if (dt == INFINITY)
            dt = -1;
        if (next_free >= 0 && (dt < 0 || next_free - t < dt))
            dt = next_free - t > 0 ? next_free - t : 0;
        if (dt < 0)
            break;
        bool stop = false;
        if (window && t + dt >= t1) {
            dt = t1 - t;
            stop = true;
        }
        double lo = window ? (t > t0 ? t : t0) : t, hi = window ? (t + dt < t1 ? t + dt : t1) : t + dt;
        if (hi > lo) {
            insts += rate * (hi - lo);
            s.retired += rate * dt;
            active_time += a * (hi - lo);
        }
        /* A slot can need settling only where a warp's phase just ran out
         * (or a drained slot launches, below): a settled slot has an
         * issuing warp with time left, or none to settle (settle_needed). */
        for (int x = 0; x < na; x++) {
            int i = order[x];
            s.rem[i] -= v[x] * dt;
            if (s.rem[i] <= 1e-7)
                dirty[oslot[x]] = 1;
        }
        t += dt;
        s.now = t;
        if (stop)
            break;
        for (int k = 0; k < n; k++) {
            if (s.free_at[k] >= 0 && s.free_at[k] <= t + 1e-9) {
                s.free_at[k] = -1;
                launch(&s, k);
                dirty[k] = 1;
            }
            if (!dirty[k])
                continue;
            if (settle_needed(&s, k))
                settle(&s, k);
            dirty[k] = settle_needed(&s, k);
        }
        /* The steady span (s.launched counts the run's CTAs started: CTA c
         * has launched once it exceeds c): from the mark, batches of
         * batch_ctas CTAs, each
         * ending at the launch of its last CTA's successor (at most one a
         * step, and not at the previous boundary's time); Welford's running
         * mean and sum of squares of their IPCs, and every boundary kept
         * (bnd) for the rates of the span's two halves. */
        bool steady = !window && run->batch_ctas > 0;
        bool bound = false;
        if (run->mark_cta > 0 && !marked && s.launched > run->mark_cta) {
            out->mark_t = t;
            out->mark_insts = insts;
            marked = true;
            bound = steady;
        } else if (steady && marked && t > bnd[2 * nb]
                   && s.launched > run->mark_cta + (nb + 1) * run->batch_ctas) {
            double b = (insts - bnd[2 * nb + 1]) / (t - bnd[2 * nb]);
            nb++;
            double d = b - bm;
            bm += d / nb;
            bss += d * (b - bm);
            bound = true;
        }
        if (bound) {
            if (2 * nb + 2 > bcap) {
                long nc = bcap ? 2 * bcap : 64;
                double *nbnd = realloc(bnd, (size_t)nc * sizeof *nbnd);
                if (!nbnd) {
                    free(v), free(pp), free(order), free(oslot), free(dirty), free(bnd);
                    return RF_ENOMEM;
                }
                bnd = nbnd;
                bcap = nc;
            }
            bnd[2 * nb] = t;
            bnd[2 * nb + 1] = insts;
            /* Stop where the batches' standard error is small and the
             * span's halves run at the same rate (no drift). */
            if (nb >= run->min_batches && nb >= 2 && s.launched < run->stop_before && bm > 0
                && sqrt(bss / (nb - 1) / nb) <= run->stop_se * bm) {
                long h = nb / 2;
                double r1 = (bnd[2 * h + 1] - bnd[1]) / (bnd[2 * h] - bnd[0]);
                double r2 = (bnd[2 * nb + 1] - bnd[2 * h + 1]) / (bnd[2 * nb] - bnd[2 * h]);
                if (fabs(r2 - r1) <= run->stop_drift * 0.5 * (r1 + r2)) {
                    out->stopped = true;
                    break;
                }
            }
        }
    }
    double len = window ? t1 - t0 : t;
    out->cycles = window ? t1 : t;
    out->launched = s.launched;
    out->insts = insts;
    out->ipc = len > 0 ? insts / len : 0;
    out->mean_active = len > 0 ? active_time / len : 0;
    if (s.batches) {
        s.bt[s.batches] = t;
        s.bi[s.batches] = s.retired;
        out->nbatch = s.batches;
        for (int b = 0; b < s.batches; b++)
            out->batch_ipc[b] = s.bt[b + 1] > s.bt[b]
                                    ? (s.bi[b + 1] - s.bi[b]) / (s.bt[b + 1] - s.bt[b]) : 0.0;
    }
    free(v), free(pp), free(order), free(oslot), free(dirty), free(bnd);
    return 0;
}

int rf_waves_sim_from(const rf_waves_state *st, const double *ipc_tab, const rf_waves_run *run,
                      rf_waves_out *out)
{
    memset(out, 0, sizeof *out);
    if (st->resident <= 0 || st->ctas <= 0)
        return 0;
    sim s;
    if (sim_copy(&s, &st->s))
        return RF_ENOMEM;
    int rc = sim_timed(&s, ipc_tab, run, out);
    free(s.buf);
    return rc;
}

int rf_waves_sim(const rf_ctaset *cs, const double *ipc_tab, double drain,
                 const rf_waves_run *run, rf_waves_out *out)
{
    memset(out, 0, sizeof *out);
    if (run->resident <= 0 || run->ctas <= 0)
        return 0;
    sim s;
    if (sim_start(&s, cs, drain, run)) {
        free(s.buf);
        return RF_ENOMEM;
    }
    int rc = sim_timed(&s, ipc_tab, run, out);
    free(s.buf);
    return rc;
}

double rf_waves_split_ipc(double insts_all, const rf_waves_out *head, const rf_waves_out *tail)
{
    if (!head->stopped)
        return head->ipc;
    double dt = head->cycles - head->mark_t;
    double steady = dt > 0 ? (head->insts - head->mark_insts) / dt : 0.0;
    double mid = insts_all - head->insts - tail->insts;
    double cycles = head->cycles + (mid > 0 && steady > 0 ? mid / steady : 0.0) + tail->cycles;
    return cycles > 0 ? insts_all / cycles : 0.0;
}

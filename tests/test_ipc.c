/* test_ipc.c - IPC model and wave extrapolation (analytic/ipc.c), values
 * computed by hand in the comments. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../analytic/ipc.h"

/* A kernel with no register traffic and no stalls: every limit is a
 * constant, so the soft minimum can be computed by hand. */
static rf_ipc_kernel plain_kernel(void)
{
    rf_ipc_kernel k;
    memset(&k, 0, sizeof k);
    k.read_k[0] = 1.0;
    k.no_reads = 1.0;
    k.insts_per_warp = 100;
    k.warps_per_cta = 4;
    return k;
}

static rf_ipc_machine plain_machine(void)
{
    rf_ipc_machine m;
    memset(&m, 0, sizeof m);
    m.warps = 8;
    m.schedulers = 2;
    m.issue_width = 1;
    m.alu_pipes = 2;
    m.banks = 8;
    m.collectors = 6;
    m.rf_latency = 1;
    return m;
}

static void harmonic_soft_min(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    rf_ipc_machine m = plain_machine();
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.smooth = 1.0;
    p.coll_base = 4.0;
    /* No instruction reads a register, so a collector is held coll_base - 1
     * = 3 cycles (no bank read cycle).
     * cpi_w = 1, so latency limit = 8; issue = 2; collectors = 6 / 3 = 2.
     * p = 1: IPC = 1 / (1/8 + 1/2 + 1/2) = 1 / 1.125 = 0.888889. */
    rf_ipc_result r;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.ipc, 1.0 / 1.125, 1e-9);
    assert_float_equal(r.cpi_warp, 1.0, 1e-12);
    assert_float_equal(r.lim_latency, 8.0, 1e-12);
    assert_float_equal(r.lim_collect, 2.0, 1e-12);
    assert_float_equal(r.lim_issue, 2.0, 0.0);

    /* p = 2: IPC = (1/64 + 1/4 + 1/4)^-1/2 = (33/64)^-1/2 = 1.392621. */
    p.smooth = 2.0;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.ipc, 1.0 / sqrt(33.0 / 64.0), 1e-9);
}

/* Barrier regions: each region's steady state at its own mix, folded as
 * 1 / IPC = sum_r share_r / IPC_r, the DRAM server behind the fold.  Plain kernel, one pool of 6 collectors
 * held 3 cycles, p = 2 (latency 8, issue 2 as above), two regions of half
 * the instructions each:
 *   r1: no barriers, collectors 6 / 3 = 2:
 *       IPC_1 = (1/64 + 1/4 + 1/4)^-1/2 = 8 / sqrt(33)
 *   r2: half barriers (no collector), 6 / (3 x 0.5) = 4:
 *       IPC_2 = (1/64 + 1/4 + 1/16)^-1/2 = 8 / sqrt(21)
 *   IPC = 1 / (0.5 sqrt(33) / 8 + 0.5 sqrt(21) / 8)
 *       = 16 / (sqrt(33) + sqrt(21)) = 1.549318,
 * below the mean mix's (barriers 1/4: collectors 6 / (3 x 0.75) = 8/3,
 * (1/64 + 1/4 + 9/64)^-1/2 = 8 / sqrt(26) = 1.568929).  With p = 1 every
 * limit enters as its reciprocal, linear in the mix, so the fold is the
 * mean mix's: 1 / (1/8 + 1/2 + 3/8) = 1. */
static void barrier_regions_fold(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    k.frac_none = 0.25;
    k.frac_alu = 0.75;
    k.alu_use = 0.75;
    rf_ipc_machine m = plain_machine();
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.smooth = 2.0;
    p.coll_base = 4.0;
    rf_ipc_result r;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.ipc, 8.0 / sqrt(26.0), 1e-9);
    k.nphase = 2;
    k.phase[0] = (rf_ipc_mix){0.5, 1.0, 1.0, 0.0, 0.0, 0.0};
    k.phase[1] = (rf_ipc_mix){0.5, 0.5, 0.5, 0.0, 0.0, 0.5};
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.ipc, 16.0 / (sqrt(33.0) + sqrt(21.0)), 1e-9);
    /* The other figures: those of r1, which takes 0.5 sqrt(33) / 8 of the
     * time against r2's 0.5 sqrt(21) / 8. */
    assert_float_equal(r.lim_collect, 2.0, 1e-12);
    p.smooth = 1.0;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.ipc, 1.0, 1e-9);
    /* The DRAM server behind the fold: the regions without it fold to 1
     * (p = 1), each of the 8 warps' cycle time 8 / 1 = 8 cycles per
     * instruction, of which s = 0.5 / 1 = 0.5 at the server (0.5 bytes per
     * instruction, 1 byte per cycle): z = 7.5, s / z = 1/15, and
     * 1 / B(i) = 1 + (i / 15) / B(i - 1) over i = 1 .. 8 gives 1.0666667,
     * 1.1422222, 1.2284444, 1.3275852, 1.4425284, 1.5770114, 1.7359386,
     * 1.9258339: X = (1 - 1 / 1.9258339) / 0.5 = 0.961489. */
    k.dram_bytes = 0.5;
    m.dram_bytes_per_cycle = 1.0;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.ipc, 0.961489, 1e-6);
    assert_float_equal(r.lim_dram, 2.0, 1e-12);
    /* Its cap 1 / s = 2 is no tighter than the reported region r1's issue
     * and collector caps (2 each; the issue cap listed first): the bound
     * stays the issue cap's.  At 2 bytes per instruction the cap, 0.5, is
     * the tightest: DRAM. */
    assert_int_equal(r.bound, 1);
    k.dram_bytes = 2.0;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_int_equal(r.bound, 4);
}

static void typed_collectors(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    k.frac_alu = 0.75;
    k.frac_ldst = 0.25;
    rf_ipc_machine m = plain_machine();
    m.coll_split[0] = 3;      /* ALU */
    m.coll_split[1] = 2;      /* SFU (no SFU instructions: no limit) */
    m.coll_split[2] = 1;      /* LD/ST */
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.smooth = 1.0;
    p.coll_base = 4.0;
    p.unit_hold = 0.0;
    /* Each class holds its own collectors for 4 - 1 = 3 cycles (no register
     * reads): ALU 3 / (3 * 0.75) = 4/3, LD/ST 1 / (3 * 0.25) = 4/3 (the
     * pooled 6 / 3 = 2 would be looser); latency 8, issue 2.  Resources:
     *   1 / (1/8 + 1/2 + 3/4 + 3/4) = 1 / 2.125 = 0.470588.
     * Head-of-line blocking at IPC x (no runs in this kernel): ALU held
     * with chance (0.75 x * 3 / 3)^3 for 3 / 4 cycles, LD/ST with chance
     * 0.75 x for 3 / 2 cycles, so per instruction
     *   b(x) = 0.75 (0.75 x)^3 0.75 + 0.25 (0.75 x) 1.5
     * and the schedulers issue at most 2 / (1 + b).  Scheduler chain:
     *   x = 1 / ((1 + b(x)) / 2 + 1/8 + 3/4 + 3/4) = 1 / (2.125 + b(x) / 2)
     * iterated from 0.47: x = 0.454533 (b = 0.150122), below 0.470588. */
    rf_ipc_result r;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.ipc, 0.4545329, 1e-6);
    assert_float_equal(r.lim_collect, 4.0 / 3.0, 1e-12);
    /* One shared pool of 6: no blocking by class, 1 / (1/8 + 1/2 + 1/2). */
    m.coll_split[0] = m.coll_split[1] = m.coll_split[2] = 0;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.ipc, 1.0 / 1.125, 1e-9);
}

/* A hold on one class's collectors (class_hold: RFC misses of the LD/ST
 * operands only).  typed_collectors' kernel and machine with 3 more cycles
 * on LD/ST: its cap 1 / (6 x 0.25) = 2/3, the ALU's 4/3 as before.  One
 * shared pool of 6: the mean hold over the collector users, 0.25 x 3 =
 * 0.75, t_coll 3.75, cap 6 / 3.75 = 1.6:
 *   1 / (1/8 + 1/2 + 1/1.6) = 0.8.
 * The same hold on every class is extra_hold's. */
static void class_hold_per_class(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    k.frac_alu = 0.75;
    k.frac_ldst = 0.25;
    rf_ipc_machine m = plain_machine();
    m.coll_split[0] = 3;
    m.coll_split[1] = 2;
    m.coll_split[2] = 1;
    m.class_hold[2] = 3.0;
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.smooth = 1.0;
    p.coll_base = 4.0;
    p.unit_hold = 0.0;
    rf_ipc_result r;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.lim_collect, 2.0 / 3.0, 1e-12);
    m.coll_split[0] = m.coll_split[1] = m.coll_split[2] = 0;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.ipc, 0.8, 1e-9);
    /* Every class alike: the same bytes as extra_hold. */
    m.coll_split[0] = 3;
    m.coll_split[1] = 2;
    m.coll_split[2] = 1;
    m.class_hold[0] = m.class_hold[1] = m.class_hold[2] = 1.5;
    rf_ipc_result a, b;
    rf_ipc_steady(&k, &m, &p, &a);
    m.class_hold[0] = m.class_hold[1] = m.class_hold[2] = 0.0;
    m.extra_hold = 1.5;
    rf_ipc_steady(&k, &m, &p, &b);
    assert_true(a.ipc == b.ipc);
}

static void pipe_queue_bounded_by_collectors(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    k.frac_ldst = 1.0;
    rf_ipc_machine m = plain_machine();
    m.ldst_ii = 2;
    m.coll_split[0] = 3;
    m.coll_split[1] = 2;
    m.coll_split[2] = 1;      /* one LD/ST collector */
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.coll_base = 4.0;
    p.unit_hold = 1.0;
    /* Only LD/ST instructions, none reading a register: with one LD/ST
     * collector no other instruction can be queued at the LD/ST pipe, so
     * the pipe wait is 0 and the collector hold is 4 - 1 = 3 cycles (the
     * M/D/1 queue at the solved IPC, about 0.3 (u = 0.6), would add
     * 0.6 / 0.4 * 2 / 2 = 1.5). */
    rf_ipc_result r;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_true(r.ipc > 0.1);
    assert_float_equal(r.unit_wait, 0.0, 0.0);
    assert_float_equal(r.t_collect, 3.0, 1e-12);
    /* Two LD/ST collectors: at most one instruction ahead, 2 cycles. */
    m.coll_split[2] = 2;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_true(r.unit_wait > 0.0 && r.unit_wait <= 2.0);
    assert_float_equal(r.t_collect, 3.0 + r.unit_wait, 1e-12);
}

/* ALU pipes that keep up with issue.  Plain machine: 2 schedulers of
 * issue width 1, 2 ALU pipes; one shared pool of collectors, held
 * coll_base - 1 = 3 cycles (no register reads) plus the pipe wait
 * (unit_hold 1).
 * - alu_ii 1: ii / pipes = 1/2 <= 1 / (S iw) = 1/2, so single-width ALU
 *   instructions never wait for a pipe: with use = f_alu = 1 the wait is
 *   0 and the hold 3 cycles.
 * - use 1.5 (wide instructions, half a pipe cycle more per instruction):
 *   only the extra half loads the queue, u = x (1.5 - 1) (1/2) = x / 4,
 *   W = (u / (1 - u)) (1/2) / 2 = u / (4 (1 - u)).
 * - alu_ii 2 (16-lane pipes): ii / pipes = 1 > 1/2, every ALU instruction
 *   queues, u = x (1)(2 / 2) = x, W = (u / (1 - u)) (2 / 2) / 2
 *   = u / (2 (1 - u)) (u capped at 0.9). */
static void alu_pipes_keep_up_with_issue(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    k.frac_alu = 1.0;
    k.alu_use = 1.0;
    rf_ipc_machine m = plain_machine();
    m.alu_ii = 1;
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.coll_base = 4.0;
    p.unit_hold = 1.0;
    rf_ipc_result r;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_true(r.ipc > 0.5);
    assert_float_equal(r.unit_wait, 0.0, 0.0);
    assert_float_equal(r.t_collect, 3.0, 1e-12);
    /* Their cap, 2 / (1 x 1) = 2, is the issue cap's: at p = 1 the limits
     * are latency 8 / 1, issue min(2, 2) and collectors 6 / 3 = 2, so
     * IPC = 1 / (1/8 + 1/2 + 1/2) = 0.888889 (a separate ALU cap would
     * add another 1/2: 0.615385). */
    p.smooth = 1.0;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.ipc, 1.0 / 1.125, 1e-9);
    assert_float_equal(r.lim_unit, 2.0, 1e-12);
    p.smooth = 4.0;

    k.alu_use = 1.5;
    rf_ipc_steady(&k, &m, &p, &r);
    double u = r.ipc / 4.0;
    assert_true(r.unit_wait > 0.0);
    assert_float_equal(r.unit_wait, u / (4.0 * (1.0 - u)), 1e-4);
    assert_float_equal(r.t_collect, 3.0 + r.unit_wait, 1e-12);

    k.alu_use = 1.0;
    m.alu_ii = 2;
    rf_ipc_steady(&k, &m, &p, &r);
    u = r.ipc < 0.9 ? r.ipc : 0.9;
    assert_float_equal(r.unit_wait, u / (2.0 * (1.0 - u)), 1e-4);
}

/* ALU pipes slower than issue (header): 2 pipes busy 4 cycles a warp
 * instruction, s_alu = 4 / 2 = 2 > 1 / (S iw) = 1/2; every instruction on
 * the ALU, use 1: their cap 2 / (4 x 1) = 0.5 is the pipe cap and joins
 * the collectors' (6 / 3 = 2, no register reads, coll_base 4, no pipe
 * wait in the hold at unit_hold 0) by a hard minimum.  p = 1, latency
 * 8 / 1, issue 2:
 *   IPC = 1 / (1/8 + 1/2 + max(1/2, 1/0.5)) = 1 / 2.625 = 0.380952
 * (the soft minimum of all four: 1 / 3.125 = 0.32).  With half the
 * instructions on an SFU pipe busy 8 cycles (its cap 1 / (8 x 0.5) =
 * 0.25 under the ALU's 2 / (4 x 0.5) = 1), the SFU pipe is the pipe cap
 * and stays in the soft minimum:
 *   IPC = 1 / (1/8 + 1/2 + 1/2 + 1/0.25) = 1 / 5.125 = 0.195122. */
static void alu_pipes_in_tandem_with_collectors(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    k.frac_alu = 1.0;
    k.alu_use = 1.0;
    rf_ipc_machine m = plain_machine();
    m.alu_ii = 4;
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.coll_base = 4.0;
    p.unit_hold = 0.0;
    p.smooth = 1.0;
    rf_ipc_result r;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.lim_unit, 0.5, 1e-12);
    assert_float_equal(r.ipc, 1.0 / 2.625, 1e-9);
    k.frac_alu = 0.5;
    k.alu_use = 0.5;
    k.frac_sfu = 0.5;
    m.sfu_ii = 8;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.lim_unit, 0.25, 1e-12);
    assert_float_equal(r.ipc, 1.0 / 5.125, 1e-9);
}

static void stalls_add_to_warp_time(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    k.stall_dep = 2.0;
    k.stall_mem = 5.0;
    rf_ipc_machine m = plain_machine();
    m.extra_stall = 1.0;
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.lat_scale = 0.5;
    p.mem_scale = 2.0;
    p.smooth = 1.0;
    p.coll_base = 4.0;             /* held 4 - 1 = 3 cycles: no register reads */
    /* cpi_w = 1 + 0.5 * 2 + 2 * 5 + 1 = 13; latency limit 8/13.
     * IPC = 1 / (13/8 + 1/2 + 1/2) = 1 / 2.625 = 0.380952. */
    rf_ipc_result r;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.cpi_warp, 13.0, 1e-12);
    assert_float_equal(r.ipc, 1.0 / 2.625, 1e-9);
    assert_int_equal(r.bound, 0);
}

static rf_ipc_kernel busy_kernel(void)
{
    rf_ipc_kernel k = plain_kernel();
    k.reads = 2.5;
    k.writes = 1.0;
    k.read_k[0] = 0.0;
    k.no_reads = 0.0;
    k.read_k[2] = 0.5;
    k.read_k[3] = 0.5;
    k.stall_dep = 1.0;
    return k;
}

static void conflicts_fixed_point(void **state)
{
    (void)state;
    rf_ipc_kernel k = busy_kernel();
    rf_ipc_machine m = plain_machine();
    m.warps = 32;
    m.banks = 4;
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    rf_ipc_result r;
    rf_ipc_steady(&k, &m, &p, &r);
    /* At the solution the bank load matches the IPC found. */
    assert_float_equal(r.rho, r.ipc * (k.reads + k.writes) / m.banks, 1e-9);
    assert_true(r.read_wait > 0.0);
    assert_true(r.ipc > 0.0 && r.ipc < 2.0);

    /* More banks: less waiting, more IPC. */
    double prev = r.ipc, prev_wait = r.read_wait;
    for (int b = 8; b <= 32; b *= 2) {
        m.banks = b;
        rf_ipc_steady(&k, &m, &p, &r);
        assert_true(r.ipc > prev);
        assert_true(r.read_wait < prev_wait);
        prev = r.ipc;
        prev_wait = r.read_wait;
    }
}

/* The collection wait on a warp's path (header): cpi_w = 1 + S_dep
 * + r d (W_coll + W_wr).  busy_kernel at 4 banks and 32 warps: S_dep 1,
 * W_coll = sum_k P(k) H_k w_r = (0.5 x 1.5 + 0.5 x 11/6) w_r = (5/3) w_r
 * (no same-bank pairs), and at the solved IPC x the bank queue
 * (analytic/conflict.h, M/D/1 with write priority, unit service):
 *   rr = 2.5 x / 4, rw = x / 4, r0 = (rr + rw) / 2,
 *   W_wr = r0 / (1 - rw),  w_r = r0 / ((1 - rw)(1 - rr - rw)),
 * w_r capped at r0 + 6 / 4 (collectors per bank).  d = 0.25 (a quarter of
 * the lone warp's instructions wait for a register); d = 0 (unknown):
 * every instruction's; a register cache taking the writes (HI-RF,
 * wb_rate > 0): no W_wr. */
static void collection_wait_on_the_path(void **state)
{
    (void)state;
    rf_ipc_kernel k = busy_kernel();
    rf_ipc_machine m = plain_machine();
    m.warps = 32;
    m.banks = 4;
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    const double d[3] = {0.25, 0.0, 0.25}, wb[3] = {0.0, 0.0, 0.01};
    double ipc[3];
    for (int c = 0; c < 3; c++) {
        k.wait_share = d[c];
        m.wb_rate = wb[c];
        rf_ipc_result r;
        rf_ipc_steady(&k, &m, &p, &r);
        double x = r.ipc, rr = 2.5 * x / 4, rw = x / 4, r0 = (rr + rw) / 2;
        double ww = r0 / (1 - rw), wr = r0 / ((1 - rw) * (1 - rr - rw));
        wr = wr < r0 + 1.5 ? wr : r0 + 1.5;
        assert_float_equal(r.read_wait, wr, 1e-9);
        double share = d[c] > 0 ? d[c] : 1.0, wait = 5.0 / 3.0 * wr;
        if (wb[c] == 0)
            wait += ww;
        else        /* the write-backs' own term: rc_stall n_wb (W_write), service 1 */
            wait += wb[c] * ww / share;
        assert_float_equal(r.cpi_warp, 2.0 + share * wait, 1e-9);
        ipc[c] = x;
    }
    /* Less of the wait on the path, more IPC. */
    assert_true(ipc[0] > ipc[1]);
}

static void stealing_helps(void **state)
{
    (void)state;
    rf_ipc_kernel k = busy_kernel();
    rf_ipc_machine m = plain_machine();
    m.warps = 32;
    m.banks = 8;
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    rf_ipc_result base, rs, both;
    rf_ipc_steady(&k, &m, &p, &base);
    m.read_steal = true;
    rf_ipc_steady(&k, &m, &p, &rs);
    m.write_steal = true;
    rf_ipc_steady(&k, &m, &p, &both);
    assert_true(rs.ipc > base.ipc);
    assert_true(both.ipc > rs.ipc);
    assert_true(both.stolen_writes > 0.0);
}

static void more_warps_hide_latency(void **state)
{
    (void)state;
    rf_ipc_kernel k = busy_kernel();
    k.stall_mem = 20.0;
    rf_ipc_machine m = plain_machine();
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    double prev = 0;
    for (int w = 1; w <= 48; w += 4) {
        m.warps = w;
        rf_ipc_result r;
        rf_ipc_steady(&k, &m, &p, &r);
        assert_true(r.ipc > prev);
        assert_true(r.ipc <= 2.0);
        prev = r.ipc;
    }
}

static void waves_with_partial_last(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    rf_ipc_machine m = plain_machine();
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.smooth = 1.0;
    p.coll_base = 4.0;             /* held 4 - 1 = 3 cycles: no register reads */
    /* 5 CTAs of 4 warps x 100 instructions, 2 resident.
     * Full waves: 2 of 800 instructions at IPC(8 warps) = 1/1.125 -> 900
     * cycles each.  Last wave, 1 CTA: IPC(4 warps) = 1 / (1/4 + 1/2 + 1/2)
     * = 0.8 -> 400 / 0.8 = 500.  Total 2300 cycles, IPC 2000 / 2300. */
    double ipc;
    double cycles = rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL);
    assert_float_equal(cycles, 2300.0, 1e-6);
    assert_float_equal(ipc, 2000.0 / 2300.0, 1e-9);
    /* A grid smaller than one wave. */
    cycles = rf_ipc_kernel_cycles(&k, &m, &p, 1, 2, &ipc, NULL);
    assert_float_equal(cycles, 500.0, 1e-6);
    /* Tail: 1 lone-warp time of a warp's instructions (100 x cpi_w 1) per wave. */
    p.tail = 1.0;
    cycles = rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL);
    assert_float_equal(cycles, 2300.0 + 3 * 100.0, 1e-6);
}

/* A drain D = 400 cycles after each CTA's warps exit, on the CTAs of
 * waves_with_partial_last (4 warps x 100 instructions, I_cta = 400, 2
 * resident, IPC(W) = 1 / (1/W + 1) at W warps).  In a full wave c of the 2
 * slots hold working CTAs: c + 400 IPC(4c) / 400 = 2 with IPC(4c) =
 * 4c / (1 + 4c) gives 4c^2 - 3c - 2 = 0, c = (3 + sqrt 41) / 8, and the
 * wave takes 800 / IPC(4c) = 800 + 200 / c cycles.  The partial wave (1
 * CTA) waits for its own drain: 400 / 0.8 + 400 = 900.  In all
 * 2 (800 + 200 / c) + 900 = 2840.31 cycles (each full wave 970.16, against
 * 900 + 400 with the drain of both CTAs at once).  A tail of one lone-warp
 * time a wave (100 x cpi_w 1) stays per wave: + 3 x 100. */
static void drain_beside_other_ctas(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    rf_ipc_machine m = plain_machine();
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.smooth = 1.0;
    p.coll_base = 4.0;
    k.drain = 400.0;
    double c = (3.0 + sqrt(41.0)) / 8.0, ipc;
    double want = 2.0 * (800.0 + 200.0 / c) + 900.0;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL), want, 1e-6 * want);
    assert_float_equal(ipc, 2000.0 / want, 1e-6);
    p.tail = 1.0;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL), want + 300.0,
                       1e-6 * want);
}

/* The critical-CTA bound on the same 5 CTAs, 2 resident (waves of 900
 * cycles, 2300 in all, no tail): CTA 3 starts with wave floor(3 / 2) = 1 at
 * 900 and alone takes 1600 -> 2500 > 2300, the run's end; CTA 4 (wave 2,
 * at 1800) alone 400 -> 2200 binds nothing.  Figures walked for a run of
 * another length (crit_ctas 6) do not apply. */
static void critical_cta_ends_the_run(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    rf_ipc_machine m = plain_machine();
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.smooth = 1.0;
    p.coll_base = 4.0;
    k.crit_ctas = 5;
    k.ncrit = 2;
    k.crit_pos[0] = 3;
    k.crit_cycles[0] = 1600.0;
    k.crit_pos[1] = 4;
    k.crit_cycles[1] = 400.0;
    double ipc;
    double cycles = rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL);
    assert_float_equal(cycles, 2500.0, 1e-6);
    assert_float_equal(ipc, 2000.0 / 2500.0, 1e-9);
    k.crit_cycles[0] = 1300.0;     /* 900 + 1300 = 2200: the waves' 2300 stand */
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL), 2300.0, 1e-6);
    k.crit_cycles[0] = 1600.0;
    k.crit_ctas = 6;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL), 2300.0, 1e-6);
}

/* The five CTAs of the fluid tests below: every lone time known, 300,
 * 1500, 400, 500 and 1000 cycles; the kernel, machine and parameters of
 * waves_with_partial_last (IPC 1/1.125 with 2 CTAs, 0.8 with 1). */
static void five_cta_run(rf_ipc_kernel *k, rf_ipc_machine *m, rf_ipc_params *p)
{
    const float lone[5] = {300, 1500, 400, 500, 1000};
    *k = plain_kernel();
    *m = plain_machine();
    rf_ipc_params_default(p);
    p->smooth = 1.0;
    p->coll_base = 4.0;
    k->crit_ctas = 5;
    k->nlone = 5;
    for (int j = 0; j < 5; j++)
        k->lone[j] = lone[j];
}

/* The CTA fluid where every CTA's lone cycles are known: the same 5 CTAs
 * of 400 instructions, 2 resident; IPC with 2 CTAs (8 warps) 1/1.125, with
 * 1 CTA (4 warps) 0.8 (the waves: 900 + 900 + 500 = 2300 cycles); g = 1
 * (no design stalls, default scales).  Lone cycles 300, 1500, 400, 500,
 * 1000, mean 740.  The contention s(2) = (8 x 1.125) / (4 / 0.8) = 9/5
 * exceeds the throughput bound 2 x 400 x 1.125 / 740 = 45/37, so
 * x(2) = 9/5; x(1) = max(1, 400 / (0.8 x 740) = 0.68) = 1.  CTAs 0 and 1
 * start; CTA 0 ends after 300 lone cycles, CTA 2 takes its slot and ends
 * 400 later, CTA 3 500 later, CTA 4 starts as CTA 1 has 300 left: 1500
 * lone cycles in all at 9/5, then CTA 4's last 700 alone at 1:
 *   1500 x 9/5 + 700 = 3400 > 2300.
 * CTA 4 at 600 (mean 660: the bound 15/11 < 9/5): 1500 x 9/5 + 300 = 3000.
 * Equal CTAs (400 each: the bound x(2) = 2.25 > 9/5, x(1) = 1.25) are the
 * waves: 400 x 2.25 x 2 + 400 x 1.25 = 2300.  Without every lone time, the
 * critical record's wave start: floor(4 / 2) x 900 + 1000 = 2800. */
static void cta_fluid_ends_the_run(void **state)
{
    (void)state;
    rf_ipc_kernel k;
    rf_ipc_machine m;
    rf_ipc_params p;
    five_cta_run(&k, &m, &p);
    k.ncrit = 1;
    k.crit_pos[0] = 4;
    k.crit_cycles[0] = 1000;
    double ipc;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL),
                       1500.0 * 9.0 / 5.0 + 700.0, 1e-3);
    k.lone[4] = 600;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL),
                       1500.0 * 9.0 / 5.0 + 300.0, 1e-3);
    for (int j = 0; j < 5; j++)
        k.lone[j] = 400;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL), 2300.0, 1e-3);
    k.nlone = 0;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL), 2800.0, 1e-6);
}

/* The five CTAs of cta_fluid_ends_the_run, each lone time ending with a
 * drain of 100 cycles (lone_drain): works 200, 1400, 300, 400 and 900,
 * mean 640, so the throughput bound x(2) = 2 x 400 x 1.125 / 640 = 1.406
 * stays under s(2) = 9/5, and x(1) = 1.  A draining CTA issues nothing and
 * leaves the count: CTA 0 works to 200 x 9/5 = 360 beside CTA 1 and drains
 * to 460, CTA 1 alone meanwhile (x(1) = 1, 1100 left at 460); CTA 2 works
 * 300 x 9/5 = 540 to 1000 (CTA 1: 800 left) and drains to 1100 (700
 * left); CTA 3 works to 1100 + 720 = 1820 (300 left), drains to 1920 (200
 * left); CTA 4 starts, CTA 1 works its last 200 x 9/5 = 360 to 2280 and
 * drains (CTA 4: 700 left), CTA 4 alone works to 2980 and drains to 3080.
 * The waves (kernel drain 0): 2300.  Without lone_drain the same lone
 * times are all work: 1500 x 9/5 + 700 = 3400. */
static void fluid_drains_at_real_time(void **state)
{
    (void)state;
    rf_ipc_kernel k;
    rf_ipc_machine m;
    rf_ipc_params p;
    five_cta_run(&k, &m, &p);
    for (int j = 0; j < 5; j++)
        k.lone_drain[j] = 100.0f;
    double ipc;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL), 3080.0, 1e-3);
    assert_float_equal(ipc, 2000.0 / 3080.0, 1e-6);
    for (int j = 0; j < 5; j++)
        k.lone_drain[j] = 0.0f;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL),
                       1500.0 * 9.0 / 5.0 + 700.0, 1e-3);
}

/* The CTA's own slowdown bound takes the steady state's s(n) over its
 * lone time with each phase's larger bound alone (lone0, T'), not over its
 * lone time (the phases' norm, T), which holds the CTA's own contention
 * already: x(n) = max(throughput bound, g max(1, s(n) T' / T)).  The five
 * CTAs above with T' = 0.9 T: at 2 CTAs s(2) T' / T = 9/5 x 0.9 = 1.62 >
 * 45/37, so x(2) = 1.62 and the run takes 1500 x 1.62 + 700 = 3130
 * cycles; with T' = 2/3 T, 9/5 x 2/3 = 1.2 < 45/37, so the throughput
 * bound binds, x(2) = 45/37: 1500 x 45/37 + 700 = 2524.32, past the
 * waves' 2300.  Alone x(1) = max(0.68, max(1, T' / T)) = 1 either way. */
static void own_bound_from_the_larger_alone(void **state)
{
    (void)state;
    rf_ipc_kernel k;
    rf_ipc_machine m;
    rf_ipc_params p;
    five_cta_run(&k, &m, &p);
    double ipc;
    for (int j = 0; j < 5; j++)
        k.lone0[j] = 0.9f * k.lone[j];
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL),
                       1500.0 * 1.62 + 700.0, 1e-2);
    for (int j = 0; j < 5; j++)
        k.lone0[j] = k.lone[j] * 2.0f / 3.0f;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL),
                       1500.0 * 45.0 / 37.0 + 700.0, 1e-2);
}

/* The memo of rf_ipc_kernel_cycles: the five-CTA run above (2300 cycles
 * with every lone time 400) and the same run on a second machine, called
 * in turn through one memo, give what the calls without it give; a call
 * that matches an entry to the byte is answered from it (an entry whose
 * cycles are overwritten returns the overwritten value), and a call with
 * another resident count takes the least recently used entry's place. */
static void memo_answers_repeated_calls(void **state)
{
    (void)state;
    rf_ipc_kernel k;
    rf_ipc_machine m;
    rf_ipc_params p;
    five_cta_run(&k, &m, &p);
    for (int j = 0; j < 5; j++)
        k.lone[j] = 400;
    rf_ipc_machine m2 = m;
    m2.banks = 4;
    double ipc1, ipc2, want1, want2;
    double c1 = rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &want1, NULL);
    double c2 = rf_ipc_kernel_cycles(&k, &m2, &p, 5, 2, &want2, NULL);
    assert_float_equal(c1, 2300.0, 1e-3);
    rf_ipc_cycles_memo *memo = calloc(1, sizeof *memo);
    assert_non_null(memo);
    k.cycles_memo = memo;
    for (int i = 0; i < 3; i++) {
        assert_true(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc1, NULL) == c1);
        assert_true(ipc1 == want1);
        assert_true(rf_ipc_kernel_cycles(&k, &m2, &p, 5, 2, &ipc2, NULL) == c2);
        assert_true(ipc2 == want2);
    }
    assert_true(memo->e[0].used && memo->e[1].used);
    int at = memo->e[0].m.banks == m.banks ? 0 : 1;
    memo->e[at].cycles = 1.0;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc1, NULL), 1.0, 0);
    /* Another resident count is another call. */
    assert_true(rf_ipc_kernel_cycles(&k, &m, &p, 5, 3, &ipc1, NULL) != 1.0);
    /* m2's entry was the least recent: the call above took its place, and
     * m2 is evaluated again. */
    assert_true(memo->e[1 - at].resident == 3);
    assert_true(rf_ipc_kernel_cycles(&k, &m2, &p, 5, 2, &ipc2, NULL) == c2);
    free(memo);
}

/* A longer run whose last CTAs alone are known: 9 CTAs, 2 resident, the
 * lone times of the last 5 (CTAs 4-8) those of the five above.  The first
 * 4 take (9 - 5) / 2 = 2 waves of the full occupancy, 2 x 900 = 1800
 * cycles (t0), and the fluid of the last 5 starts there with both slots
 * fresh, as the five-CTA run starts: 1500 x 9/5 + 700 = 3400 (x(n) from
 * their mean 740, as above), ending at 5200, past the waves' 4 x 900 +
 * 500 = 4100.  A design that switches CTAs out (pending CTAs) takes the
 * critical record instead, CTA 8 (lone 1000) at wave floor(8 / 2) = 4:
 * 4 x 900 + 1000 = 4600; on the five-CTA run, floor(4 / 2) x 900 + 1000 =
 * 2800 where the fluid gave 3400. */
static void fluid_of_the_known_tail(void **state)
{
    (void)state;
    rf_ipc_kernel k;
    rf_ipc_machine m;
    rf_ipc_params p;
    five_cta_run(&k, &m, &p);
    k.crit_ctas = 9;
    k.ncrit = 1;
    k.crit_pos[0] = 8;
    k.crit_cycles[0] = 1000;
    double ipc;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 9, 2, &ipc, NULL),
                       1800.0 + 1500.0 * 9.0 / 5.0 + 700.0, 1e-3);
    assert_float_equal(ipc, 9 * 400.0 / 5200.0, 1e-6);
    m.switching = true;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 9, 2, &ipc, NULL), 4600.0, 1e-6);
    k.crit_ctas = 5;
    k.crit_pos[0] = 4;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL), 2800.0, 1e-6);
    m.switching = false;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL),
                       1500.0 * 9.0 / 5.0 + 700.0, 1e-3);
}

/* The same five CTAs under an oldest-first scheduler (GTO) with
 * gto_share 1: the capacity IPC(n) goes to the CTAs in launch order, each
 * taking at most its lone pace, need = 400 / T instructions per cycle
 * (g = 1).  CTAs 0 (need 4/3) and 1 (need 4/15) start at IPC(2) = 8/9:
 * CTA 0 takes it all, v = (8/9) / (4/3) = 2/3, CTA 1 waits; CTA 0 ends at
 * 300 / (2/3) = 450.  CTA 1 then runs at its lone pace (v = 1), CTA 2
 * (need 1) takes the 8/9 - 4/15 = 28/45 left, v = 28/45, and ends
 * 400 x 45/28 = 4500/7 later; CTA 3 (need 4/5) at v = (28/45) / (4/5) =
 * 7/9 takes 500 x 9/7 = 4500/7 more.  CTA 1 has 1500 - 9000/7 = 1500/7
 * left: with CTA 4 (need 2/5 <= 28/45, v = 1) both run at their lone pace
 * until CTA 1 ends at 450 + 9000/7 + 1500/7 = 1950; CTA 4's last
 * 1000 - 1500/7 = 5500/7 alone: 1950 + 5500/7 = 2735.71 cycles (the equal
 * share: 3400).  gto_share 0, or a scheduler that is not oldest-first
 * (LRR, two-level), keeps the equal share.
 * Each CTA's own instruction count: I_j = T_j x 400/740 (the same 2000 in
 * all), so every need is 400/740 = 20/37.  The oldest takes 20/37 (v = 1),
 * the other the 8/9 - 20/37 = 116/333 left, v = 29/45.  CTA 0 ends at 300
 * (CTA 1 has 1500 - 300 x 29/45 = 1306.667 left); CTA 2 at v = 29/45 ends
 * 18000/29 = 620.690 later (CTA 1: 685.977 left), and CTA 1 ends 685.977
 * after that, at 1606.667, with CTA 3 at 500 - 685.977 x 29/45 = 57.926;
 * CTA 3 ends 57.926 later, CTA 4 (1000 - 57.926 x 29/45 = 962.670 left)
 * alone at its pace (IPC(1) 0.8 >= 20/37): 3192124/1215 = 2627.263. */
static void oldest_first_cta_fluid(void **state)
{
    (void)state;
    rf_ipc_kernel k;
    rf_ipc_machine m;
    rf_ipc_params p;
    five_cta_run(&k, &m, &p);
    m.oldest_first = true;
    p.gto_share = 1.0;
    double ipc;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL),
                       1950.0 + 5500.0 / 7.0, 1e-3);
    p.gto_share = 0.0;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL),
                       1500.0 * 9.0 / 5.0 + 700.0, 1e-3);
    p.gto_share = 1.0;
    m.oldest_first = false;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL),
                       1500.0 * 9.0 / 5.0 + 700.0, 1e-3);
    m.oldest_first = true;
    for (int j = 0; j < 5; j++)
        k.lone_insts[j] = (float)(k.lone[j] * 400.0 / 740.0);
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL),
                       3192124.0 / 1215.0, 1e-2);
}

/* The two-level pool's limit S X(P / S, z) (analytic/ipc.c) at the
 * steady state's cpi_short z = cpi_w - mem_scale S_mem: a lone warp
 * stalls 2 cycles after each instruction (z about 3), 4 schedulers.  Each
 * port serves its places as a machine repairman, rho = 1 / (z - 1):
 *   X(1) = 1 - 1 / (1 + rho) = 1 / z,
 *   X(2) = 1 - 1 / (1 + 2 rho + 2 rho^2);
 * a pool of 8 (2 places a scheduler): 4 X(2); of 6 (1.5): 4 (X(1) +
 * X(2)) / 2.  Below it, where 8 warps also meet the latency limit 8 /
 * cpi_w in the soft minimum. */
static double repairman2(double z)
{
    double rho = 1.0 / (z - 1.0);
    return 1.0 - 1.0 / (1.0 + 2.0 * rho + 2.0 * rho * rho);
}

static void pool_limit_per_scheduler(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    rf_ipc_machine m = plain_machine();
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    k.stall_dep = 2.0;
    m.schedulers = 4;
    m.warps = 8;
    m.pool = 8;
    rf_ipc_result r;
    rf_ipc_steady(&k, &m, &p, &r);
    double z = r.cpi_warp - p.mem_scale * k.stall_mem;
    assert_true(z > 2.9);
    assert_float_equal(r.lim_pool, 4.0 * repairman2(z), 1e-9);
    assert_true(r.ipc < r.lim_pool);
    m.pool = 6;
    rf_ipc_steady(&k, &m, &p, &r);
    z = r.cpi_warp - p.mem_scale * k.stall_mem;
    assert_float_equal(r.lim_pool, 4.0 * (0.5 / z + 0.5 * repairman2(z)), 1e-9);
}

/* The DRAM drain on the same 5 CTAs (2000 warp instructions, waves of 900
 * cycles, 2300 in all): 2 bytes of loads per instruction through 1 byte
 * per cycle, then a 330-cycle latency: 2000 x 2 / 1 + 330 = 4330 cycles
 * (no lead or trail)
 * (DRAM bytes per instruction left 0, so the steady state has no DRAM
 * cap).  At 4 bytes per cycle, 2000 x 2 / 4 + 330 = 1330: the waves' 2300
 * stand. */
static void dram_drain_bounds_the_run(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    rf_ipc_machine m = plain_machine();
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.smooth = 1.0;
    p.coll_base = 4.0;
    k.dram_load_bytes = 2.0;
    k.dram_latency = 330.0;
    m.dram_bytes_per_cycle = 1.0;
    double ipc;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL), 4330.0, 1e-6);
    assert_float_equal(ipc, 2000.0 / 4330.0, 1e-9);
    m.dram_bytes_per_cycle = 4.0;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL), 2300.0, 1e-6);
    /* The stream's ends: the first DRAM access 50 cycles in, 10 cycles of
     * work after the last one returns: 50 + 4000 + 330 + 10 = 4390. */
    m.dram_bytes_per_cycle = 1.0;
    k.dram_lead = 50.0;
    k.dram_trail = 10.0;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL), 4390.0, 1e-6);
    /* A run of these 5 CTAs walked without a DRAM access (dram_none) has
     * no drain to wait for: the waves' 2300.  dram_none speaks of the run
     * kchar walked (crit_ctas), not of a run of another size: 6 CTAs
     * (three waves, 2700, and 6 x 400 x 2 / 1 + 390 = 5190) keep the
     * bound. */
    k.dram_none = true;
    k.crit_ctas = 5;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 5, 2, &ipc, NULL), 2300.0, 1e-6);
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 6, 2, &ipc, NULL), 5190.0, 1e-6);
}

/* Latency and DRAM as one closed network (mean-value analysis).  Plain
 * kernel, p = 1 (issue 2, collectors 6 / 3 = 2), cpi_w = 1 + S_mem = 8,
 * DRAM cap BW / bytes = 1 / 2 = 0.5, so s = 2 cycles of service per
 * instruction and a delay of z = cpi_w - s = 6:
 *   n = 1: R = s = 2,                X = 1 / (6 + 2) = 0.125, Q = 0.25
 *   n = 2: R = 2 x 1.25 = 2.5,       X = 2 / 8.5 = 0.235294,  Q = 0.588235
 *   n = 3: R = 2 x 1.588235 = 3.176471, X = 3 / 9.176471 = 0.326923
 * 2.5 warps: 0.235294 + 0.5 (0.326923 - 0.235294) = 0.281109, and
 *   IPC = 1 / (1 / 0.281109 + 1/2 + 1/2) = 0.219426
 * (the latency limit alone, 2.5 / 8 = 0.3125, reported as lim_latency).
 * With many warps the server saturates: 48 warps, 12 times the knee
 * (z + s) / s = 4, give X = 0.5 to 1e-6, IPC 1 / (1/0.5 + 1) = 1/3. */
static void dram_closed_network(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    rf_ipc_machine m = plain_machine();
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.smooth = 1.0;
    p.coll_base = 4.0;
    k.stall_mem = 7.0;
    k.dram_bytes = 2.0;
    m.dram_bytes_per_cycle = 1.0;
    m.warps = 2.5;
    rf_ipc_result r;
    rf_ipc_steady(&k, &m, &p, &r);
    double x = 2.0 / 8.5 + 0.5 * (3.0 / (6.0 + 2.0 * (1.0 + (2.0 / 8.5) * 2.5)) - 2.0 / 8.5);
    assert_float_equal(x, 0.281109, 1e-6);
    assert_float_equal(r.ipc, 1.0 / (1.0 / x + 1.0), 1e-9);
    assert_float_equal(r.lim_latency, 2.5 / 8.0, 1e-12);
    assert_float_equal(r.lim_dram, 0.5, 1e-12);
    m.warps = 48;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.ipc, 1.0 / 3.0, 1e-5);
}

/* The two-level pool in the latency and DRAM network (convolution).
 * The kernel of dram_closed_network (p = 1, cpi_w = 1 + S_mem = 8, DRAM
 * s = 2 cycles a instruction) under a pool of 2 places (1 on each of the
 * 2 schedulers): cpi_short = 1, so the pool is a station of rate mu(1) =
 * 2 x X(1/2) = 1 with one warp and mu(j) = 2 x X(1) = 2 with more, the
 * server s = 2 and a delay of z = S_mem - s = 5.  Station sequences:
 *   pool  1, 1/mu(1) = 1, 1/(mu(1) mu(2)) = 0.5, 0.25
 *   delay 1, 5, 12.5, 20.833333          (z^j / j!)
 *   DRAM  1, 2, 4, 8                      (s^j)
 * pool * delay = 1, 6, 18, 36.083333; with the DRAM: G = 1, 8, 34,
 * 104.083333, so X(1) = 1/8 (one warp alone: 1 / cpi_w), X(2) = 8/34 =
 * 0.235294, X(3) = 34 / 104.083333 = 0.326661 (the network without the
 * pool: 0.326923).  2.5 warps: 0.235294 + 0.5 (0.326661 - 0.235294) =
 * 0.280978, and the issue cap leaves the soft minimum for the pool's
 * network: IPC = 1 / (1 / 0.280978 + 1/2) = 0.246366 (the soft minimum
 * of the two terms, as before: 1 / (1 / 0.281109 + 1/2 + 1/2 + 1/2) =
 * 0.219426).  With 48 warps the DRAM saturates (X = 0.5 to 1e-6):
 * IPC = 1 / (2 + 1/2) = 0.4, where the two terms gave 1/3. */
static void pool_closed_network(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    rf_ipc_machine m = plain_machine();
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.smooth = 1.0;
    p.coll_base = 4.0;
    k.stall_mem = 7.0;
    k.dram_bytes = 2.0;
    m.dram_bytes_per_cycle = 1.0;
    m.pool = 2;
    m.warps = 2.5;
    rf_ipc_result r;
    rf_ipc_steady(&k, &m, &p, &r);
    double x = 8.0 / 34.0 + 0.5 * (34.0 / (36.0 + 1.0 / 12.0 + 2.0 * 18.0 + 4.0 * 6.0 + 8.0)
                                   - 8.0 / 34.0);
    assert_float_equal(x, 0.280978, 1e-6);
    assert_float_equal(r.ipc, 1.0 / (1.0 / x + 0.5), 1e-6);
    assert_float_equal(r.lim_pool, 2.0, 1e-6);
    m.warps = 48;
    rf_ipc_steady(&k, &m, &p, &r);
    assert_float_equal(r.ipc, 0.4, 1e-5);
}

/* The issuing warps' spread.  Plain kernel, p = 2 (issue 2, collectors
 * 2): IPC(W) = (1/W^2 + 1/2)^-1/2, W / cpi_w = W.  A CTA of 4 warps has 2
 * or 4 issuing, half its time each (mean 3 = 4 x active_frac 0.75, so W
 * warps are W issuing).  A state of W warps lasts its lone time times
 * W / IPC(W) cycles, so
 *   IPC = sum_W P(W) W / sum_W P(W) W / IPC(W).
 * One CTA: IPC(2) = 0.75^-1/2 = 1.154701, IPC(4) = 0.5625^-1/2 = 4/3:
 *   3 / (0.5 x 2 / 1.154701 + 0.5 x 4 / (4/3)) = 3 / 2.366025 = 1.267949,
 * below IPC(3) = 1.279204; its 400 instructions take 315.470 cycles.
 * Two CTAs: W = 4, 6, 8 with 1/4, 1/2, 1/4, IPC(6) = 1.376494, IPC(8) =
 * 1.392621: 6 / (0.75 + 2.179449 + 1.436141) = 1.374385, 800
 * instructions in 582.079 cycles.  Without the distribution: IPC(3).
 * Under a two-level pool of 1 warp (half a place on each of the 2
 * schedulers) with a memory wait of 1 cycle per instruction (S_mem = 1,
 * cpi_w = 2, cpi_short = 1: a place issues every cycle, X(1) = 1, so the
 * pool is a station of rate 2 x (X(0) + X(1)) / 2 = 1 at any warp count,
 * no DRAM), the pool's network replaces the latency term and the issue
 * cap: W warps through a server of 1 cycle and a delay of 1, the machine
 * repairman at load 1, X(W) = 1 - B(W, 1) (Erlang B: B(2) = 0.2, B(3) =
 * 0.0625, B(4) = 0.015385), so X(2) = 0.8, X(3) = 0.9375, X(4) =
 * 0.984615, beside the collectors' 1/4:
 *   IPC(2) = (1/0.64 + 1/4)^-1/2 = 0.742781,
 *   IPC(4) = (1/0.969467 + 1/4)^-1/2 = 0.883368,
 * so one CTA issues
 *   3 / (0.5 x 2 / 0.742781 + 0.5 x 4 / 0.883368) = 3 / 3.610353 = 0.830944,
 * below the mean's IPC(3) = (1/0.878906 + 1/4)^-1/2 = 0.848868. */
static void issuing_warps_spread(void **state)
{
    (void)state;
    rf_ipc_kernel k = plain_kernel();
    rf_ipc_machine m = plain_machine();
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    p.smooth = 2.0;
    p.coll_base = 4.0;
    k.active_frac = 0.75;
    k.act_hist[2] = 0.5;
    k.act_hist[4] = 0.5;
    double ipc;
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 1, 1, &ipc, NULL), 315.470054, 1e-5);
    assert_float_equal(ipc, 1.267949, 1e-6);
    assert_float_equal(rf_ipc_kernel_cycles(&k, &m, &p, 2, 2, &ipc, NULL), 582.078684, 1e-5);
    assert_float_equal(ipc, 1.374385, 1e-6);
    m.pool = 1;
    k.stall_mem = 1.0;
    rf_ipc_kernel_cycles(&k, &m, &p, 1, 1, &ipc, NULL);
    assert_float_equal(ipc, 0.830944, 1e-6);
    k.act_hist[2] = k.act_hist[4] = 0.0;
    rf_ipc_kernel_cycles(&k, &m, &p, 1, 1, &ipc, NULL);
    assert_float_equal(ipc, 0.848868, 1e-6);
    m.pool = 0;
    k.stall_mem = 0.0;
    rf_ipc_kernel_cycles(&k, &m, &p, 1, 1, &ipc, NULL);
    assert_float_equal(ipc, 1.279204, 1e-6);
}

static void parameters_table(void **state)
{
    (void)state;
    rf_ipc_params p;
    rf_ipc_params_default(&p);
    for (size_t i = 0; i < rf_ipc_nmparams; i++) {
        const rf_mparam *mp = &rf_ipc_mparams[i];
        assert_true(mp->lo < mp->hi);
        assert_true(mp->def >= mp->lo && mp->def <= mp->hi);
        assert_float_equal(rf_mparam_get(mp, &p), mp->def, 0.0);
        assert_int_equal(rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, mp->name), (int)i);
    }
    assert_int_equal(rf_mparam_index(rf_ipc_mparams, rf_ipc_nmparams, "no_such"), -1);
    assert_float_equal(p.conflict.scale, 1.0, 0.0);
}

/* rf_ipc_pool_eff: a table at 4 and 8 CTAs and 1, 2, 4, 8 places.
 *   2 places, 6 CTAs: (0.8 + 0.6) / 2 = 0.7; below and past the table's
 *   counts the nearest: 0.8 at 2 CTAs, 0.6 at 16.
 *   3 places, 8 CTAs: log2 3 = 1.585 between the rows of 2 (0.6) and 4
 *   (0.7): 0.6 + 0.585 x 0.1 = 0.6585.
 *   No table: 1. */
static void pool_balance_interpolation(void **state)
{
    (void)state;
    rf_ipc_kernel k;
    memset(&k, 0, sizeof k);
    assert_float_equal(rf_ipc_pool_eff(&k, 2, 8), 1.0, 0);
    k.pool_n[0] = 4;
    k.pool_n[1] = 8;
    const float row[4][2] = {{0.7f, 0.5f}, {0.8f, 0.6f}, {0.9f, 0.7f}, {1.0f, 0.9f}};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            k.pool_eff[i][j] = row[i][j];
    assert_float_equal(rf_ipc_pool_eff(&k, 2, 6), 0.7, 1e-6);
    assert_float_equal(rf_ipc_pool_eff(&k, 2, 2), 0.8, 1e-6);
    assert_float_equal(rf_ipc_pool_eff(&k, 2, 16), 0.6, 1e-6);
    assert_float_equal(rf_ipc_pool_eff(&k, 3, 8), 0.6 + (log2(3.0) - 1) * 0.1, 1e-6);
    assert_float_equal(rf_ipc_pool_eff(&k, 8, 8), 0.9, 1e-6);
}

/* rf_ipc_pool_rows: the rows read with a weight.  x = log2(places):
 *   1 -> x 0, row 0 alone (0b0001); 2 -> x 1, row 1 alone (0b0010);
 *   3 -> x 1.585 between rows 1 and 2 (0b0110); 8 -> x 3, the top pair's
 *   upper row at weight 1 (0b1000); 16 -> clamped to x 3 (0b1000);
 *   0 places: none.  A table holding only those rows gives the full
 *   table's balance: 2 places, 6 CTAs, 0.7; 8 places, 8 CTAs, 0.9 (b,
 *   a + (b - a) with a and b floats); 3 places, 8 CTAs, 0.6585. */
static void pool_balance_rows(void **state)
{
    (void)state;
    assert_int_equal(rf_ipc_pool_rows(1), 0x1);
    assert_int_equal(rf_ipc_pool_rows(2), 0x2);
    assert_int_equal(rf_ipc_pool_rows(3), 0x6);
    assert_int_equal(rf_ipc_pool_rows(8), 0x8);
    assert_int_equal(rf_ipc_pool_rows(16), 0x8);
    assert_int_equal(rf_ipc_pool_rows(0), 0);
    const float row[4][2] = {{0.7f, 0.5f}, {0.8f, 0.6f}, {0.9f, 0.7f}, {1.0f, 0.9f}};
    const double per[3] = {2, 8, 3};
    const int ctas[3] = {6, 8, 8};
    for (int q = 0; q < 3; q++) {
        rf_ipc_kernel full, part;
        memset(&full, 0, sizeof full);
        memset(&part, 0, sizeof part);
        full.pool_n[0] = part.pool_n[0] = 4;
        full.pool_n[1] = part.pool_n[1] = 8;
        unsigned rows = rf_ipc_pool_rows(per[q]);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 2; j++) {
                full.pool_eff[i][j] = row[i][j];
                part.pool_eff[i][j] = rows >> i & 1u ? row[i][j] : 0.0f;
            }
        double a = rf_ipc_pool_eff(&full, per[q], ctas[q]);
        double b = rf_ipc_pool_eff(&part, per[q], ctas[q]);
        assert_memory_equal(&a, &b, sizeof a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(harmonic_soft_min),
        cmocka_unit_test(pool_balance_rows),
        cmocka_unit_test(barrier_regions_fold),
        cmocka_unit_test(typed_collectors),
        cmocka_unit_test(class_hold_per_class),
        cmocka_unit_test(pipe_queue_bounded_by_collectors),
        cmocka_unit_test(alu_pipes_keep_up_with_issue),
        cmocka_unit_test(alu_pipes_in_tandem_with_collectors),
        cmocka_unit_test(stalls_add_to_warp_time),
        cmocka_unit_test(conflicts_fixed_point),
        cmocka_unit_test(collection_wait_on_the_path),
        cmocka_unit_test(stealing_helps),
        cmocka_unit_test(more_warps_hide_latency),
        cmocka_unit_test(waves_with_partial_last),
        cmocka_unit_test(critical_cta_ends_the_run),
        cmocka_unit_test(cta_fluid_ends_the_run),
        cmocka_unit_test(own_bound_from_the_larger_alone),
        cmocka_unit_test(memo_answers_repeated_calls),
        cmocka_unit_test(fluid_of_the_known_tail),
        cmocka_unit_test(oldest_first_cta_fluid),
        cmocka_unit_test(pool_limit_per_scheduler),
        cmocka_unit_test(dram_drain_bounds_the_run),
        cmocka_unit_test(drain_beside_other_ctas),
        cmocka_unit_test(fluid_drains_at_real_time),
        cmocka_unit_test(dram_closed_network),
        cmocka_unit_test(pool_closed_network),
        cmocka_unit_test(issuing_warps_spread),
        cmocka_unit_test(parameters_table),
        cmocka_unit_test(pool_balance_interpolation),
    };
    return cmocka_run_group_tests_name("ipc", tests, NULL, NULL);
}

/* simfix.c - hand-built sampler inputs (see simfix.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "simfix.h"

void simfix_init(simfix *fx)
{
    memset(fx, 0, sizeof *fx);
    rf_gpu *g = &fx->gpu;
    strcpy(g->name, "simfix");
    g->cc = 20;
    g->sms = 15;
    g->warp_size = 32;
    g->clock_mhz = 1400;
    g->regs_per_sm = 32768;
    g->max_regs_per_thread = 63;
    g->max_warps_per_sm = 48;
    g->max_threads_per_sm = 1536;
    g->max_ctas_per_sm = 8;
    g->max_threads_per_cta = 1024;
    g->rf_banks = 4;
    g->collectors = 8;
    g->schedulers = 2;
    g->issue_width = 1;
    g->sched_policy = RF_SCHED_GTO;
    g->alu_lanes = 128;            /* 2 pipes x 64 lanes: II 1 */
    g->sfu_lanes = 4;
    g->ldst_lanes = 32;
    g->alu_latency = 4;
    g->sfu_latency = 8;
    g->smem_latency = 4;
    g->l1_latency = 10;
    g->l2_latency = 50;
    g->dram_latency = 200;
    g->dram_bytes_per_cycle = 64;

    fx->design.kind = RF_DESIGN_BASELINE;
    rf_sim_opts_init(&fx->opts);
    fx->opts.bank_map = RF_BANK_MAP_MODULO;
    fx->opts.ctas_per_sm = 1;
    fx->opts.watchdog = 100000;
    fx->opts.typed_collectors = false;

    rf_kernel *k = &fx->kernel;
    strcpy(k->name, "simfix");
    k->launch.grid[0] = k->launch.grid[1] = k->launch.grid[2] = 1;
    k->launch.block[0] = 32;
    k->launch.block[1] = k->launch.block[2] = 1;
    k->regs = 32;
    k->profile.trip = 0;
    k->profile.taken = 0.5;
    k->profile.seed = 1;
    k->func = &fx->func;
    fx->func.insts = fx->insts;
    fx->func.blocks = fx->blocks;
    fx->func.physical = true;
    fx->func.is_entry = true;
    strcpy(fx->func.name, "simfix");
}

void simfix_occupancy_rules(simfix *fx)
{
    fx->gpu.reg_alloc_unit = 64;
    fx->gpu.warp_alloc_gran = 1;
    fx->gpu.max_regs_per_cta = 65536;
    fx->gpu.smem_per_sm = 49152;
    fx->gpu.max_smem_per_cta = 49152;
    fx->gpu.smem_alloc_unit = 128;
}

int simfix_add(simfix *fx, int cls, const int *defs, const int *uses)
{
    rf_func *f = &fx->func;
    rf_inst *in = &fx->insts[f->ninsts];
    memset(in, 0, sizeof *in);
    in->cls = (uint8_t)cls;
    in->guard = -1;
    in->target = -1;
    for (int i = 0; defs && defs[i] >= 0; i++)
        in->defs[in->ndefs++] = (uint16_t)defs[i];
    for (int i = 0; uses && uses[i] >= 0; i++)
        in->uses[in->nuses++] = (uint16_t)uses[i];
    for (int i = 0; i < in->ndefs; i++)
        if (in->defs[i] < RF_MAX_GPR && in->defs[i] + 1 > f->nregs)
            f->nregs = in->defs[i] + 1;
    for (int i = 0; i < in->nuses; i++)
        if (in->uses[i] < RF_MAX_GPR && in->uses[i] + 1 > f->nregs)
            f->nregs = in->uses[i] + 1;
    return f->ninsts++;
}

void simfix_finish(simfix *fx)
{
    simfix_add(fx, RF_OC_EXIT, NULL, NULL);
    rf_func *f = &fx->func;
    f->nblocks = 1;
    fx->blocks[0].first = 0;
    fx->blocks[0].ninsts = f->ninsts;
    fx->blocks[0].nsucc = 0;
    strcpy(fx->blocks[0].label, "entry");
}

void simfix_finish_loop(simfix *fx, int guard_pred)
{
    rf_func *f = &fx->func;
    int n = f->ninsts;
    int br = simfix_add(fx, RF_OC_BRANCH, NULL, NULL);
    fx->insts[br].guard = (int16_t)guard_pred;
    fx->insts[br].target = 1;
    fx->insts[br].flags = RF_IF_LOOPBACK;
    simfix_add(fx, RF_OC_EXIT, NULL, NULL);
    f->nblocks = 3;
    fx->blocks[0] = (rf_block){.first = 0, .ninsts = 0, .nsucc = 1, .succ = {1, -1}, .label = "pre"};
    fx->blocks[1] = (rf_block){.first = 0, .ninsts = n + 1, .nsucc = 2, .succ = {2, 1}, .label = "body"};
    fx->blocks[2] = (rf_block){.first = n + 1, .ninsts = 1, .nsucc = 0, .succ = {-1, -1}, .label = "exit"};
}

rf_sim_stats simfix_run(simfix *fx)
{
    rf_sim_stats st;
    rf_err err = {0};
    int rc = rf_sim_run(&fx->gpu, &fx->design, &fx->kernel, &fx->opts, &st, &err);
    if (rc != 0)
        print_error("rf_sim_run: %s\n", err.msg);
    assert_int_equal(rc, 0);
    assert_int_equal(st.chk_issued, st.chk_retired);
    assert_int_equal(st.chk_bank_overuse, 0);
    return st;
}

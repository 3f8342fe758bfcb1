/* kirbuild.c - test fixtures: physical rf_func from one-line instructions. */
#include "kirbuild.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const struct {
    const char *name;
    int cls;
} classes[] = {
    {"alu", RF_OC_ALU},         {"alu64", RF_OC_ALU64},   {"sfu", RF_OC_SFU},
    {"ldg", RF_OC_LD_GLOBAL},   {"stg", RF_OC_ST_GLOBAL}, {"lds", RF_OC_LD_SHARED},
    {"sts", RF_OC_ST_SHARED},   {"ldl", RF_OC_LD_LOCAL},  {"stl", RF_OC_ST_LOCAL},
    {"ldc", RF_OC_LD_CONST},    {"atom", RF_OC_ATOMIC},   {"bra", RF_OC_BRANCH},
    {"bar", RF_OC_BARRIER},     {"call", RF_OC_CALL},     {"exit", RF_OC_EXIT},
    {"nop", RF_OC_NOP},
};

static void bad_fixture(kb_builder *b, const char *what, const char *text)
{
    fprintf(stderr, "kirbuild: %s: %s: '%s'\n", b->f ? b->f->name : "?", what, text);
    b->bad = 1;
}

void kb_begin(kb_builder *b, const char *name)
{
    memset(b, 0, sizeof *b);
    b->f = calloc(1, sizeof *b->f);
    b->f->insts = calloc(KB_MAX_INSTS, sizeof *b->f->insts);
    b->f->blocks = calloc(KB_MAX_BLOCKS, sizeof *b->f->blocks);
    b->icap = KB_MAX_INSTS;
    b->bcap = KB_MAX_BLOCKS;
    snprintf(b->f->name, sizeof b->f->name, "%s", name);
    b->f->is_entry = true;
    b->f->physical = true;
}

int kb_block(kb_builder *b, const char *label)
{
    rf_func *f = b->f;
    if (f->nblocks >= b->bcap) {
        rf_block *nb = realloc(f->blocks, sizeof *nb * (size_t)b->bcap * 2);
        if (!nb) {
            bad_fixture(b, "out of memory for blocks", label);
            return -1;
        }
        memset(nb + b->bcap, 0, sizeof *nb * (size_t)b->bcap);
        f->blocks = nb;
        b->bcap *= 2;
    }
    rf_block *bb = &f->blocks[f->nblocks];
    bb->first = f->ninsts;
    snprintf(bb->label, sizeof bb->label, "%s", label);
    return f->nblocks++;
}

/* "r12" -> 12, "p3" -> RF_PRED_BASE + 3, else -1. */
static int operand(const char *tok)
{
    char *end;
    long v = strtol(tok + 1, &end, 10);
    if (*end || end == tok + 1)
        return -1;
    if (tok[0] == 'r' && v >= 0 && v < RF_MAX_GPR)
        return (int)v;
    if (tok[0] == 'p' && v >= 0 && v < RF_MAX_PRED)
        return RF_PRED_BASE + (int)v;
    return -1;
}

int kb_i(kb_builder *b, const char *text)
{
    rf_func *f = b->f;
    if (!f->nblocks) {
        bad_fixture(b, "instruction outside a block", text);
        return -1;
    }
    if (f->ninsts >= b->icap) {
        rf_inst *ni = realloc(f->insts, sizeof *ni * (size_t)b->icap * 2);
        if (!ni) {
            bad_fixture(b, "out of memory for instructions", text);
            return -1;
        }
        f->insts = ni;
        b->icap *= 2;
    }
    rf_inst *in = &f->insts[f->ninsts];
    memset(in, 0, sizeof *in);
    in->guard = -1;
    in->opcode = -1;
    in->target = -1;
    in->line = (uint32_t)f->ninsts + 1;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    int state = 0; /* 0 guard/class, 1 defs, 2 uses */
    bool have_cls = false;
    for (char *tok = strtok(buf, " \t,"); tok; tok = strtok(NULL, " \t,")) {
        if (!have_cls && tok[0] == '@') {
            bool neg = tok[1] == '!';
            int p = operand(tok + 1 + neg);
            if (p < RF_PRED_BASE) {
                bad_fixture(b, "bad guard", text);
                return -1;
            }
            in->guard = (int16_t)p;
            if (neg)
                in->flags |= RF_IF_GUARD_NEG;
        } else if (!have_cls) {
            size_t k = 0;
            while (k < sizeof classes / sizeof classes[0] && strcmp(classes[k].name, tok))
                k++;
            if (k == sizeof classes / sizeof classes[0]) {
                bad_fixture(b, "unknown class", text);
                return -1;
            }
            in->cls = (uint8_t)classes[k].cls;
            have_cls = true;
            state = 1;
        } else if (!strcmp(tok, "=")) {
            state = 2;
        } else {
            int r = operand(tok);
            if (r < 0) {
                bad_fixture(b, "bad operand", text);
                return -1;
            }
            if (state == 1 && in->ndefs < RF_MAX_DEFS)
                in->defs[in->ndefs++] = (uint16_t)r;
            else if (state == 2 && in->nuses < RF_MAX_USES)
                in->uses[in->nuses++] = (uint16_t)r;
            else {
                bad_fixture(b, "too many operands", text);
                return -1;
            }
        }
    }
    if (!have_cls) {
        bad_fixture(b, "no class", text);
        return -1;
    }
    f->blocks[f->nblocks - 1].ninsts++;
    return f->ninsts++;
}

void kb_succ(kb_builder *b, int block, int fall, int taken)
{
    if (block < 0 || block >= b->f->nblocks) {
        bad_fixture(b, "kb_succ on a missing block", "");
        return;
    }
    rf_block *bb = &b->f->blocks[block];
    bb->nsucc = 0;
    if (fall >= 0)
        bb->succ[bb->nsucc++] = fall;
    if (taken >= 0)
        bb->succ[bb->nsucc++] = taken;
}

void kb_nregs(kb_builder *b, int nregs)
{
    b->nregs = nregs;
}

rf_func *kb_finish(kb_builder *b)
{
    rf_func *f = b->f;
    int hi = 0, hp = 0;
    for (int bi = 0; bi < f->nblocks; bi++) {
        rf_block *bb = &f->blocks[bi];
        for (int s = 0; s < bb->nsucc; s++)
            if (bb->succ[s] >= f->nblocks)
                bad_fixture(b, "successor is not a block", bb->label);
        if (bb->ninsts) {
            rf_inst *last = &f->insts[bb->first + bb->ninsts - 1];
            if (last->cls == RF_OC_BRANCH && bb->nsucc) {
                last->target = bb->succ[bb->nsucc - 1];
                if (last->target <= bi)
                    last->flags |= RF_IF_LOOPBACK;
            }
        }
    }
    for (int i = 0; i < f->ninsts; i++) {
        const rf_inst *in = &f->insts[i];
        for (int k = 0; k < in->ndefs + in->nuses; k++) {
            int r = k < in->ndefs ? in->defs[k] : in->uses[k - in->ndefs];
            if (r < RF_MAX_GPR && r + 1 > hi)
                hi = r + 1;
            if (r >= RF_PRED_BASE && r - RF_PRED_BASE + 1 > hp)
                hp = r - RF_PRED_BASE + 1;
        }
        if (in->guard >= 0 && in->guard - RF_PRED_BASE + 1 > hp)
            hp = in->guard - RF_PRED_BASE + 1;
    }
    f->nregs = b->nregs ? b->nregs : hi;
    f->npreds = hp;
    if (b->bad) {
        kb_free(f);
        return NULL;
    }
    return f;
}

void kb_free(rf_func *f)
{
    if (!f)
        return;
    free(f->insts);
    free(f->blocks);
    free(f->regs);
    free(f);
}

void kb_assert_near(double a, double b, double eps, const char *file, int line)
{
    if (!(fabs(a - b) <= eps)) {
        print_error("%.15g != %.15g (tolerance %g)\n", a, b, eps);
        _fail(file, line);
    }
}

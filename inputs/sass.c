/* sass.c - SASS listing reader: `cuobjdump -sass` and `nvdisasm` text
 * (Fermi to Hopper syntax) into the kernel IR with physical registers.
 *
 * A line such as
 *     /(*)0040(*)/   @!P0 IMAD.WIDE R2, R0, R5, c[0x0][0x160] ;   /(*) 0x... (*)/
 * gives an address, a guard, an opcode with modifiers and operands.  Defs
 * are the leading destination operands (two predicates for *SETP/PLOP3,
 * "P, R" for SHFL/ATOM forms, carry-out predicates right after the first
 * register); every other register is a use.  Register widths follow the
 * opcode: .64/.128 memory data take pairs/quads, global addresses are pairs
 * when written R2.64 (or with .E on Volta-era listings), IMAD.WIDE defines a
 * pair and reads its addend as a pair, D* (fp64) operands are pairs,
 * conversions take 64-bit types from their modifiers.  RZ, PT, uniform
 * registers and barrier registers are not operands.
 *
 * Relocated operands (`32@lo(sym)`, `32@hi((f + .L_x_0@srel))`, and such
 * expressions inside a constant-bank address c[0x3][...]) are constants the
 * linker fills in: immediates, no registers.  Labels and targets have no
 * length limit short of the line's.
 *
 * Control flow: BRA/JMP/BRX (target given as an address, `(.L_x_1) or a
 * label), EXIT/RET/KILL end a path, BSSY/BSYNC/WARPSYNC are reconvergence
 * bookkeeping (no edge).  @!PT instructions never execute and become NOPs.
 *
 * Reconvergence stack (Fermi to Pascal).  SSY, PBK and PCNT push a
 * reconvergence, break and continue point on the warp's stack; SYNC (and,
 * on Fermi/Kepler, an instruction with the .S sync bit: `NOP.S`), BRK and
 * CONT pop to the nearest entry of their kind, so control continues at the
 * pushed target, not at the next instruction (a guarded pop may also fall
 * through).  A pop's target is taken from its text when nvdisasm annotates
 * it (`(*"TARGET= .L_x "*)`), else from the dot edge (dot.c), else from the
 * stack: the stack reaching each instruction is propagated along the CFG
 * from the function's entry (the first stack to reach an instruction is
 * kept, which is exact for the structured code compilers emit), a pop goes
 * to its entry's target with the stack below that entry.
 */
#include "kir.h"
#include "kir_internal.h"
#include "sass_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sinfo {
    long addr;          /* byte offset, -1 unknown */
    long taddr;         /* target address, -1 none */
    long tlab;          /* target label: offset in the label pool, -1 none */
    uint8_t term;       /* enum kir_term */
    int8_t stack;       /* SSY / PBK / PCNT entry kind pushed or popped, -1 */
    bool push;          /* SSY / PBK / PCNT */
    bool pop;           /* SYNC / .S / BRK / CONT */
    bool cond;
    bool want_target;   /* control transfer whose target is still unknown */
    int line, col;
} sinfo;

/* Kinds of reconvergence-stack entries. */
enum { STK_SYNC, STK_BRK, STK_CONT };

struct sass_ctx {
    rf_module *m;
    const char *path;
    kir_map opmap;
    int fi;              /* current function index, -1 none */
    int capinst;
    sinfo *si;
    int capsi;
    kir_map labels;      /* label -> instruction index */
    char *pool;          /* label text of the current function, each NUL-ended */
    size_t npool, cappool;
    long *pend;          /* labels waiting for the next instruction (pool) */
    int npend, cappend;
    kir_map nonentry;    /* names marked as non-entry by .other */
    int pend_regs;       /* SHI_REGISTERS of the section about to start */
};

static int serr(sass_ctx *c, rf_err *err, int line, int col, const char *fmt,
                ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int serr(sass_ctx *c, rf_err *err, int line, int col, const char *fmt,
                ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rf_err_set(err, RF_EPARSE, c->path, line, col, NULL, "%s", msg);
}

static int nomem(sass_ctx *c, rf_err *err)
{
    return rf_err_set(err, RF_ENOMEM, c->path, 0, 0, NULL, "out of memory");
}

sass_ctx *sass_ctx_new(rf_module *m, const char *path)
{
    sass_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->m = m;
    c->path = path;
    c->fi = -1;
    return c;
}

void sass_ctx_free(sass_ctx *c)
{
    if (!c)
        return;
    kir_map_free(&c->opmap);
    kir_map_free(&c->labels);
    kir_map_free(&c->nonentry);
    free(c->si);
    free(c->pool);
    free(c->pend);
    free(c);
}

/* Copy a label into the pool; its offset, or -1 when out of memory. */
static long pool_add(sass_ctx *c, const char *s, size_t len)
{
    if (c->npool + len + 1 > c->cappool) {
        size_t cap = c->cappool ? c->cappool : 256;
        while (c->npool + len + 1 > cap)
            cap *= 2;
        char *p = realloc(c->pool, cap);
        if (!p)
            return -1;
        c->pool = p;
        c->cappool = cap;
    }
    long off = (long)c->npool;
    memcpy(c->pool + c->npool, s, len);
    c->pool[c->npool + len] = '\0';
    c->npool += len + 1;
    return off;
}

/* --------------------------------------------------------- functions */

static rf_func *curf(sass_ctx *c)
{
    return c->fi >= 0 ? &c->m->funcs[c->fi] : NULL;
}

/* Instruction at address a: binary search when addresses increase (as
 * listings print them), else a linear scan. */
static int find_addr(const sinfo *si, int n, long a)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (si[mid].addr == a)
            return mid;
        if (si[mid].addr < a)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    for (int j = 0; j < n; j++)
        if (si[j].addr == a)
            return j;
    return -1;
}

/* The instruction a branch or stack push names (label or address) into
 * *to (-1 when it names none). */
static int resolve(sass_ctx *c, const sinfo *s, int n, int *to, rf_err *err)
{
    *to = -1;
    if (s->tlab >= 0) {
        const char *l = c->pool + s->tlab;
        int v = kir_map_get(&c->labels, l, strlen(l));
        if (v < 0 || v >= n)
            return serr(c, err, s->line, s->col, "undefined label '%s'", l);
        *to = v;
    } else if (s->taddr >= 0) {
        int v = find_addr(c->si, n, s->taddr);
        if (v < 0)
            return serr(c, err, s->line, s->col,
                        "branch target 0x%lx is not an instruction address",
                        s->taddr);
        *to = v;
    }
    return RF_OK;
}

/* One entry of the reconvergence stack: a persistent list, so the stack at
 * every instruction is one index. */
typedef struct stk_entry {
    int kind;     /* STK_* */
    int target;   /* instruction, -1 unknown */
    int below;    /* next entry down, -1 = empty */
} stk_entry;

/* Targets of the pops whose text and graph gave none, from the stack each
 * instruction runs with (see the file comment).  ctl[i].target of such a
 * pop is set when its stack holds an entry of its kind. */
static int stack_targets(int n, const sinfo *si, const int *push_to,
                         kir_ctl *ctl)
{
    int *st = malloc((size_t)n * sizeof *st);
    int *work = malloc((size_t)n * sizeof *work);
    stk_entry *e = malloc((size_t)n * sizeof *e);
    if (!st || !work || !e) {
        free(st);
        free(work);
        free(e);
        return RF_ENOMEM;
    }
    const int unseen = -2;
    for (int i = 0; i < n; i++)
        st[i] = unseen;
    int nw = 0, ne = 0;
#define VISIT(j, s) do { int j_ = (j); \
        if (j_ >= 0 && j_ < n && st[j_] == unseen) { st[j_] = (s); work[nw++] = j_; } \
    } while (0)
    for (int seed = 0; seed < n; seed++) {
        VISIT(seed, -1);
        while (nw > 0) {
            int i = work[--nw], s = st[i];
            const sinfo *x = &si[i];
            if (x->push) {
                e[ne] = (stk_entry){x->stack, push_to[i], s};
                VISIT(i + 1, ne);
                ne++;
                continue;
            }
            if (x->term == KIR_T_EXIT) {
                if (x->cond)
                    VISIT(i + 1, s);
                continue;
            }
            if (x->term != KIR_T_BRANCH) {
                VISIT(i + 1, s);
                continue;
            }
            int to = ctl[i].target, below = s;
            if (x->pop) {
                int k = s;
                while (k >= 0 && e[k].kind != x->stack)
                    k = e[k].below;
                if (k >= 0) {
                    below = e[k].below;
                    if (to < 0)
                        to = ctl[i].target = e[k].target;
                }
            }
            VISIT(to, below);
            if (x->cond || to < 0)
                VISIT(i + 1, s);
        }
    }
#undef VISIT
    free(st);
    free(work);
    free(e);
    return RF_OK;
}

static int close_func(sass_ctx *c, rf_err *err)
{
    rf_func *f = curf(c);
    if (!f)
        return RF_OK;
    if (f->ninsts == 0) {
        /* A header without code (or a second header of the same function,
         * "Function : f" then ".text.f:") is no function: the analyses
         * need at least one block. */
        kir_func_free_arrays(f);
        c->m->nfuncs--;
        kir_map_free(&c->labels);
        c->fi = -1;
        return RF_OK;
    }
    int n = f->ninsts;
    kir_ctl *ctl = calloc((size_t)n, sizeof *ctl);
    int *push_to = malloc((size_t)n * sizeof *push_to);
    if (!ctl || !push_to) {
        free(ctl);
        free(push_to);
        return nomem(c, err);
    }
    bool open_pops = false;
    int rc = RF_OK;
    for (int i = 0; i < n && !rc; i++) {
        sinfo *s = &c->si[i];
        ctl[i].target = ctl[i].target2 = -1;
        ctl[i].term = s->term;
        ctl[i].cond = s->cond;
        push_to[i] = -1;
        if (s->push)
            rc = resolve(c, s, n, &push_to[i], err);
        else if (s->term == KIR_T_BRANCH)
            rc = resolve(c, s, n, &ctl[i].target, err);
        if (s->pop && ctl[i].target < 0)
            open_pops = true;
    }
    if (!rc && open_pops && stack_targets(n, c->si, push_to, ctl))
        rc = nomem(c, err);
    free(push_to);
    if (rc) {
        free(ctl);
        return rc;
    }
    for (size_t k = 0; k < c->labels.cap; k++) {
        if (!c->labels.keys[k])
            continue;
        int i = c->labels.vals[k];
        if (i >= n)
            continue;
        ctl[i].leader = true;
        if (!ctl[i].label || strcmp(c->labels.keys[k], ctl[i].label) < 0)
            ctl[i].label = c->labels.keys[k];
    }
    /* A call into this function's own text starts a block there; one to
     * another function (CALL.ABS `(f)) or an address outside it names
     * none. */
    int *call_to = malloc((size_t)n * sizeof *call_to);
    if (!call_to) {
        free(ctl);
        return nomem(c, err);
    }
    for (int i = 0; i < n; i++) {
        const sinfo *s = &c->si[i];
        call_to[i] = -1;
        if (f->insts[i].cls != RF_OC_CALL)
            continue;
        if (s->tlab >= 0) {
            const char *l = c->pool + s->tlab;
            int v = kir_map_get(&c->labels, l, strlen(l));
            call_to[i] = v >= 0 && v < n ? v : -1;
        } else if (s->taddr >= 0) {
            call_to[i] = find_addr(c->si, n, s->taddr);
        }
        if (call_to[i] >= 0)
            ctl[call_to[i]].leader = true;
    }
    rc = kir_build_cfg(f, ctl);
    free(ctl);
    if (rc) {
        free(call_to);
        return nomem(c, err);
    }
    /* call_to[] from instructions to blocks, through each block's first. */
    int *block_at = malloc((size_t)n * sizeof *block_at);
    if (!block_at) {
        free(call_to);
        return nomem(c, err);
    }
    for (int i = 0; i < n; i++)
        block_at[i] = -1;
    for (int b = 0; b < f->nblocks; b++)
        if (f->blocks[b].first >= 0 && f->blocks[b].first < n)
            block_at[f->blocks[b].first] = b;
    for (int i = 0; i < n; i++)
        if (call_to[i] >= 0)
            f->insts[i].target = block_at[call_to[i]];
    free(block_at);
    free(call_to);
    /* Registers used: highest general register + 1, predicates likewise. */
    int maxr = -1, maxp = -1;
    for (int i = 0; i < n; i++) {
        const rf_inst *in = &f->insts[i];
        for (int k = 0; k < in->ndefs + in->nuses; k++) {
            int r = k < in->ndefs ? in->defs[k] : in->uses[k - in->ndefs];
            if (r >= RF_PRED_BASE) {
                if (r - RF_PRED_BASE > maxp)
                    maxp = r - RF_PRED_BASE;
            } else if (r > maxr) {
                maxr = r;
            }
        }
        if (in->guard >= RF_PRED_BASE && in->guard - RF_PRED_BASE > maxp)
            maxp = in->guard - RF_PRED_BASE;
    }
    f->nregs = maxr + 1;
    f->npreds = maxp + 1;
    kir_map_free(&c->labels);
    c->fi = -1;
    return RF_OK;
}

int sass_begin_func(sass_ctx *c, const char *name, size_t len, rf_err *err)
{
    int rc = close_func(c, err);
    if (rc)
        return rc;
    rf_func *f = kir_module_add_func(c->m);
    if (!f)
        return nomem(c, err);
    c->fi = c->m->nfuncs - 1;
    c->capinst = 0;
    if (len >= sizeof f->name)
        len = sizeof f->name - 1;
    memcpy(f->name, name, len);
    f->name[len] = '\0';
    f->physical = true;
    f->is_entry = !(len > 0 && name[0] == '$') &&
                  kir_map_get(&c->nonentry, name, len) < 0;
    f->regs_reported = c->pend_regs;
    c->pend_regs = 0;
    /* Labels seen before the function (data sections, the symbol itself)
     * give way to the function name on its first block. */
    c->npend = 0;
    c->npool = 0;
    return sass_label(c, f->name, strlen(f->name), err);
}

int sass_label(sass_ctx *c, const char *name, size_t len, rf_err *err)
{
    if (len == 0)
        return RF_OK;
    if (kir_grow((void **)&c->pend, &c->cappend, c->npend, sizeof *c->pend))
        return nomem(c, err);
    long off = pool_add(c, name, len);
    if (off < 0)
        return nomem(c, err);
    c->pend[c->npend++] = off;
    return RF_OK;
}

/* ------------------------------------------------------------ opcodes */

enum {
    K_ALU, K_NODEF, K_BRA, K_EXIT, K_SYNCJMP, K_SETSYNC, K_CALL, K_MEM
};

typedef struct sop_info {
    const char *name;
    uint8_t cls;
    uint8_t kind;
} sop_info;

static const sop_info sass_ops[] = {
    /* memory */
    {"LDG", RF_OC_LD_GLOBAL, K_MEM}, {"LD", RF_OC_LD_GLOBAL, K_MEM},
    {"LDU", RF_OC_LD_GLOBAL, K_MEM}, {"TLD", RF_OC_LD_GLOBAL, K_ALU},
    {"TEX", RF_OC_LD_GLOBAL, K_ALU}, {"TLD4", RF_OC_LD_GLOBAL, K_ALU},
    {"TEXS", RF_OC_LD_GLOBAL, K_ALU}, {"TLDS", RF_OC_LD_GLOBAL, K_ALU},
    {"TLD4S", RF_OC_LD_GLOBAL, K_ALU}, {"TXQ", RF_OC_ALU, K_ALU},
    {"TXD", RF_OC_LD_GLOBAL, K_ALU}, {"SULD", RF_OC_LD_GLOBAL, K_ALU},
    {"SUST", RF_OC_ST_GLOBAL, K_NODEF}, {"SURED", RF_OC_ATOMIC, K_NODEF},
    {"SUATOM", RF_OC_ATOMIC, K_ALU}, {"LDS", RF_OC_LD_SHARED, K_MEM},
    {"LDSM", RF_OC_LD_SHARED, K_MEM}, {"LDL", RF_OC_LD_LOCAL, K_MEM},
    {"LDC", RF_OC_LD_CONST, K_MEM}, {"LDCU", RF_OC_LD_CONST, K_MEM},
    {"STG", RF_OC_ST_GLOBAL, K_MEM},
    {"ST", RF_OC_ST_GLOBAL, K_MEM}, {"STS", RF_OC_ST_SHARED, K_MEM},
    {"STL", RF_OC_ST_LOCAL, K_MEM}, {"STSM", RF_OC_ST_SHARED, K_MEM},
    {"ATOM", RF_OC_ATOMIC, K_MEM}, {"ATOMG", RF_OC_ATOMIC, K_MEM},
    {"ATOMS", RF_OC_ATOMIC, K_MEM}, {"RED", RF_OC_ATOMIC, K_MEM},
    {"REDG", RF_OC_ATOMIC, K_MEM}, {"REDUX", RF_OC_ALU, K_ALU},
    {"LDGSTS", RF_OC_LD_GLOBAL, K_MEM}, {"LDGDEPBAR", RF_OC_NOP, K_NODEF},
    {"CCTL", RF_OC_NOP, K_NODEF}, {"CCTLL", RF_OC_NOP, K_NODEF},
    {"MEMBAR", RF_OC_NOP, K_NODEF}, {"ERRBAR", RF_OC_NOP, K_NODEF},
    {"FENCE", RF_OC_NOP, K_NODEF}, {"DEPBAR", RF_OC_NOP, K_NODEF},
    {"UTMALDG", RF_OC_LD_GLOBAL, K_NODEF}, {"UTMASTG", RF_OC_ST_GLOBAL, K_NODEF},
    {"UBLKCP", RF_OC_LD_GLOBAL, K_NODEF}, {"SYNCS", RF_OC_ATOMIC, K_ALU},
    /* SFU and fp64 */
    {"MUFU", RF_OC_SFU, K_ALU}, {"RRO", RF_OC_ALU, K_ALU},
    {"DADD", RF_OC_ALU64, K_ALU}, {"DMUL", RF_OC_ALU64, K_ALU},
    {"DFMA", RF_OC_ALU64, K_ALU}, {"DMNMX", RF_OC_ALU64, K_ALU},
    {"DSETP", RF_OC_ALU64, K_ALU}, {"DSET", RF_OC_ALU64, K_ALU},
    {"DMMA", RF_OC_ALU64, K_ALU},
    /* control */
    {"BRA", RF_OC_BRANCH, K_BRA}, {"JMP", RF_OC_BRANCH, K_BRA},
    {"BRX", RF_OC_BRANCH, K_BRA}, {"JMX", RF_OC_BRANCH, K_BRA},
    {"EXIT", RF_OC_EXIT, K_EXIT}, {"RET", RF_OC_EXIT, K_EXIT},
    {"KILL", RF_OC_EXIT, K_EXIT}, {"BPT", RF_OC_EXIT, K_EXIT},
    {"PEXIT", RF_OC_NOP, K_NODEF}, {"PRET", RF_OC_NOP, K_NODEF},
    {"SYNC", RF_OC_BRANCH, K_SYNCJMP}, {"BRK", RF_OC_BRANCH, K_SYNCJMP},
    {"CONT", RF_OC_BRANCH, K_SYNCJMP}, {"SSY", RF_OC_NOP, K_SETSYNC},
    {"PBK", RF_OC_NOP, K_SETSYNC}, {"PCNT", RF_OC_NOP, K_SETSYNC},
    {"BSSY", RF_OC_NOP, K_NODEF}, {"BSYNC", RF_OC_NOP, K_NODEF},
    {"BREAK", RF_OC_NOP, K_NODEF}, {"BMOV", RF_OC_ALU, K_ALU},
    {"WARPSYNC", RF_OC_NOP, K_NODEF}, {"NOP", RF_OC_NOP, K_NODEF},
    {"YIELD", RF_OC_NOP, K_NODEF}, {"NANOSLEEP", RF_OC_NOP, K_NODEF},
    {"CAL", RF_OC_CALL, K_CALL}, {"CALL", RF_OC_CALL, K_CALL},
    {"JCAL", RF_OC_CALL, K_CALL}, {"BAR", RF_OC_BARRIER, K_NODEF},
    {"ARRIVES", RF_OC_NOP, K_NODEF}, {"ACQBULK", RF_OC_NOP, K_NODEF},
    /* ALU */
    {"FADD", RF_OC_ALU, K_ALU}, {"FMUL", RF_OC_ALU, K_ALU},
    {"FFMA", RF_OC_ALU, K_ALU}, {"FMNMX", RF_OC_ALU, K_ALU},
    {"FSETP", RF_OC_ALU, K_ALU}, {"FSET", RF_OC_ALU, K_ALU},
    {"FSEL", RF_OC_ALU, K_ALU}, {"FCHK", RF_OC_ALU, K_ALU},
    {"FRND", RF_OC_ALU, K_ALU}, {"FADD32I", RF_OC_ALU, K_ALU},
    {"FMUL32I", RF_OC_ALU, K_ALU}, {"FFMA32I", RF_OC_ALU, K_ALU},
    {"FSWZADD", RF_OC_ALU, K_ALU}, {"FCMP", RF_OC_ALU, K_ALU},
    {"IADD", RF_OC_ALU, K_ALU}, {"IADD3", RF_OC_ALU, K_ALU},
    {"IADD32I", RF_OC_ALU, K_ALU}, {"IMAD", RF_OC_ALU, K_ALU},
    {"IMADSP", RF_OC_ALU, K_ALU}, {"IMUL", RF_OC_ALU, K_ALU},
    {"IMUL32I", RF_OC_ALU, K_ALU}, {"ISCADD", RF_OC_ALU, K_ALU},
    {"ISCADD32I", RF_OC_ALU, K_ALU}, {"ISETP", RF_OC_ALU, K_ALU},
    {"ISET", RF_OC_ALU, K_ALU}, {"ICMP", RF_OC_ALU, K_ALU},
    {"IMNMX", RF_OC_ALU, K_ALU}, {"IABS", RF_OC_ALU, K_ALU},
    {"IDP", RF_OC_ALU, K_ALU}, {"IDP4A", RF_OC_ALU, K_ALU},
    {"XMAD", RF_OC_ALU, K_ALU}, {"LOP", RF_OC_ALU, K_ALU},
    {"LOP3", RF_OC_ALU, K_ALU}, {"LOP32I", RF_OC_ALU, K_ALU},
    {"LEA", RF_OC_ALU, K_ALU}, {"SHF", RF_OC_ALU, K_ALU},
    {"SHL", RF_OC_ALU, K_ALU}, {"SHR", RF_OC_ALU, K_ALU},
    {"BFE", RF_OC_ALU, K_ALU}, {"BFI", RF_OC_ALU, K_ALU},
    {"POPC", RF_OC_ALU, K_ALU}, {"FLO", RF_OC_ALU, K_ALU},
    {"BREV", RF_OC_ALU, K_ALU}, {"PRMT", RF_OC_ALU, K_ALU},
    {"SEL", RF_OC_ALU, K_ALU}, {"MOV", RF_OC_ALU, K_ALU},
    {"MOV32I", RF_OC_ALU, K_ALU}, {"S2R", RF_OC_ALU, K_ALU},
    {"S2UR", RF_OC_ALU, K_ALU}, {"CS2R", RF_OC_ALU, K_ALU},
    {"P2R", RF_OC_ALU, K_ALU}, {"R2P", RF_OC_ALU, K_ALU},
    {"R2UR", RF_OC_ALU, K_ALU}, {"PSETP", RF_OC_ALU, K_ALU},
    {"PLOP3", RF_OC_ALU, K_ALU}, {"PSET", RF_OC_ALU, K_ALU},
    {"CSET", RF_OC_ALU, K_ALU}, {"CSETP", RF_OC_ALU, K_ALU},
    {"VOTE", RF_OC_ALU, K_ALU}, {"VOTEU", RF_OC_ALU, K_ALU},
    {"SHFL", RF_OC_ALU, K_ALU}, {"MATCH", RF_OC_ALU, K_ALU},
    {"I2F", RF_OC_ALU, K_ALU}, {"F2I", RF_OC_ALU, K_ALU},
    {"F2F", RF_OC_ALU, K_ALU}, {"I2I", RF_OC_ALU, K_ALU},
    {"F2FP", RF_OC_ALU, K_ALU}, {"I2FP", RF_OC_ALU, K_ALU},
    {"F2IP", RF_OC_ALU, K_ALU}, {"VABSDIFF", RF_OC_ALU, K_ALU},
    {"VABSDIFF4", RF_OC_ALU, K_ALU}, {"VMAD", RF_OC_ALU, K_ALU},
    {"VADD", RF_OC_ALU, K_ALU}, {"VMNMX", RF_OC_ALU, K_ALU},
    {"VSETP", RF_OC_ALU, K_ALU}, {"HADD2", RF_OC_ALU, K_ALU},
    {"HMUL2", RF_OC_ALU, K_ALU}, {"HFMA2", RF_OC_ALU, K_ALU},
    {"HSETP2", RF_OC_ALU, K_ALU}, {"HSET2", RF_OC_ALU, K_ALU},
    {"HMNMX2", RF_OC_ALU, K_ALU}, {"HMMA", RF_OC_ALU, K_ALU},
    {"IMMA", RF_OC_ALU, K_ALU}, {"BMMA", RF_OC_ALU, K_ALU},
    {"HGMMA", RF_OC_ALU, K_ALU}, {"IGMMA", RF_OC_ALU, K_ALU},
    {"UMOV", RF_OC_ALU, K_ALU}, {"UIADD3", RF_OC_ALU, K_ALU},
    {"ULDC", RF_OC_LD_CONST, K_ALU}, {"ULEA", RF_OC_ALU, K_ALU},
    {"UIMAD", RF_OC_ALU, K_ALU}, {"ULOP3", RF_OC_ALU, K_ALU},
    {"USHF", RF_OC_ALU, K_ALU}, {"UISETP", RF_OC_ALU, K_ALU},
    {"USEL", RF_OC_ALU, K_ALU}, {"UFLO", RF_OC_ALU, K_ALU},
    {"UPOPC", RF_OC_ALU, K_ALU}, {"UPRMT", RF_OC_ALU, K_ALU},
    {"USETMAXREG", RF_OC_NOP, K_NODEF}, {"ELECT", RF_OC_ALU, K_ALU},
};

static const sop_info *find_sop(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof sass_ops / sizeof sass_ops[0]; i++)
        if (strlen(sass_ops[i].name) == n &&
            memcmp(sass_ops[i].name, s, n) == 0)
            return &sass_ops[i];
    return NULL;
}

/* Modifier m present in the dotted opcode (".64", ".E")? */
static bool mod(const char *op, size_t n, const char *m)
{
    size_t k = strlen(m);
    const char *end = op + n;
    for (const char *s = memchr(op, '.', n); s; ) {
        const char *e = memchr(s + 1, '.', (size_t)(end - s - 1));
        size_t len = (size_t)((e ? e : end) - (s + 1));
        if (len == k && memcmp(s + 1, m, k) == 0)
            return true;
        s = e;
    }
    return false;
}

/* ----------------------------------------------------------- operands */

#define MAXR 8
typedef struct sopnd {
    bool mem;            /* [ ... ] address (or desc[..][..]) */
    bool pred;           /* single predicate operand */
    bool gpr;            /* single general register operand */
    bool neg;            /* written !P */
    int nr;              /* registers in this operand */
    int reg[MAXR];       /* general registers or RF_PRED_BASE+n */
    bool r64[MAXR];      /* written Rn.64 */
    bool r32[MAXR];      /* written Rn.U32 */
    const char *label;   /* branch target label (in the line), NULL none */
    size_t lablen;
    long addr;           /* branch target address, -1 */
    bool is_zero;        /* RZ / PT / URZ (a sink or constant) */
    bool is_pt;          /* PT itself */
    bool is_num;         /* immediate, relocated ones included */
    bool cbank;          /* c[bank][offset]: registers inside are 32-bit */
    bool annot;          /* nvdisasm's (*"TARGET= L "*) sync annotation */
} sopnd;

static bool ident_char(int ch)
{
    return isalnum(ch) || ch == '_' || ch == '.' || ch == '$';
}

/* Scan one register-like word at s[0..n); fills o. Returns 0 or -1 for a
 * bad register number. */
static int scan_word(const char *s, size_t n, sopnd *o)
{
    if (n >= 2 && s[0] == 'R' && isdigit((unsigned char)s[1])) {
        long v = 0;
        size_t i = 1;
        for (; i < n && isdigit((unsigned char)s[i]); i++)
            if (v < 100000)   /* saturates: any longer number is > 255 too */
                v = v * 10 + (s[i] - '0');
        if (i < n && s[i] != '.')
            return 0;   /* not a register (e.g. R2P) */
        if (v > 255)
            return -1;
        if (v == 255) {
            o->is_zero = true;
            return 0;
        }
        if (o->nr < MAXR) {
            o->reg[o->nr] = (int)v;
            o->r64[o->nr] = i + 3 <= n && memcmp(s + i, ".64", 3) == 0;
            o->r32[o->nr] = i + 4 <= n && memcmp(s + i, ".U32", 4) == 0;
            o->nr++;
        }
        o->gpr = true;
        return 0;
    }
    if (n >= 2 && s[0] == 'P' && (isdigit((unsigned char)s[1]) || s[1] == 'T') &&
        (n == 2 || s[2] == '.')) {
        if (s[1] == 'T') {
            o->is_zero = true;
            o->is_pt = true;
            return 0;
        }
        int v = s[1] - '0';
        if (v > 6)
            return -1;
        if (o->nr < MAXR)
            o->reg[o->nr++] = RF_PRED_BASE + v;
        o->pred = true;
        return 0;
    }
    if ((n == 2 && memcmp(s, "RZ", 2) == 0) ||
        (n > 2 && memcmp(s, "RZ.", 3) == 0) ||
        (n >= 3 && memcmp(s, "URZ", 3) == 0) ||
        (n >= 3 && memcmp(s, "UPT", 3) == 0) ||
        (n >= 3 && memcmp(s, "SRZ", 3) == 0)) {
        o->is_zero = true;
        return 0;
    }
    if (isdigit((unsigned char)s[0]))
        o->is_num = true;
    return 0;
}

/* Parse one operand text s[0..n); lm/cm give the file line and column of
 * each character. */
static int parse_operand(sass_ctx *c, const char *s, size_t n, const int *lm,
                         const int *cm, sopnd *o, rf_err *err)
{
    memset(o, 0, sizeof *o);
    o->addr = -1;
    while (n && isspace((unsigned char)*s)) {
        s++;
        n--;
        lm++;
        cm++;
    }
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    /* Branch targets: `(.L_x_1), (.L_x_1), (*"TARGET= .L_4 "*) */
    const char *q = memchr(s, '(', n);
    if (n && (s[0] == '`' || s[0] == '(' ) && q) {
        const char *t = q + 1;
        const char *end = s + n;
        if (t < end && *t == '*') {
            const char *eq = memchr(t, '=', (size_t)(end - t));
            t = eq ? eq + 1 : t + 1;
            o->annot = true;
        }
        while (t < end && (isspace((unsigned char)*t) || *t == '"'))
            t++;
        const char *e = t;
        while (e < end && ident_char((unsigned char)*e))
            e++;
        if (e == t)
            return serr(c, err, lm[0], cm[0], "bad branch target");
        o->label = t;
        o->lablen = (size_t)(e - t);
        return RF_OK;
    }
    if (n && (s[0] == '!' || s[0] == '-' || s[0] == '~' || s[0] == '|' ||
              s[0] == '+')) {
        o->neg = s[0] == '!';
        s++;
        n--;
        lm++;
        cm++;
    }
    /* Relocation outside any bracket (32@lo(sym), 32@hi((f + .L_1@srel))):
     * the whole operand is the linker's constant. */
    if (n && memchr(s, '@', n) && !memchr(s, '[', n)) {
        o->is_num = true;
        return RF_OK;
    }
    /* Walk the text picking out register words; brackets mark memory. */
    size_t i = 0;
    while (i < n) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '[') {
            /* c[0x0][0x160] is a constant, its registers still read. */
            bool desc = i >= 4 && memcmp(s + i - 4, "desc", 4) == 0;
            bool bank = !desc && i > 0 &&
                        ((s[i - 1] == 'c' && (i == 1 || !isalnum((unsigned char)s[i - 2]))) ||
                         (s[i - 1] == ']' && o->cbank && !o->mem));
            if (bank)
                o->cbank = true;
            else
                o->mem = true;
            i++;
            continue;
        }
        if (ch == '@') {
            /* A relocation inside an address, c[0x3][32@lo(sym)]: the
             * operator's name and its parenthesised argument are the
             * linker's constant. */
            size_t at = i++;
            while (i < n && isalpha((unsigned char)s[i]))
                i++;
            if (i == at + 1)
                return serr(c, err, lm[at], cm[at], "unexpected '@' in operand");
            if (i < n && s[i] == '(') {
                int depth = 0;
                size_t open = i;
                for (; i < n; i++) {
                    if (s[i] == '(')
                        depth++;
                    else if (s[i] == ')' && --depth == 0)
                        break;
                }
                if (i >= n)
                    return serr(c, err, lm[open], cm[open],
                                "unbalanced '(' in relocation");
                i++;
            }
            o->is_num = true;
            continue;
        }
        if (isalnum(ch) || ch == '_' || ch == '$' || ch == '.') {
            size_t b = i;
            while (i < n && ident_char((unsigned char)s[i]))
                i++;
            /* a word followed by '[' is a bank/descriptor name */
            if (scan_word(s + b, i - b, o))
                return serr(c, err, lm[b], cm[b],
                            "bad register '%.*s'", (int)(i - b), s + b);
            continue;
        }
        if (ch == '`' || ch == '(' || ch == ')' || ch == ']' || ch == '+' ||
            ch == '-' || ch == '|' || ch == '~' || ch == '!' || ch == ' ' ||
            ch == '\t' || ch == '*' || ch == '"' || ch == '=' || ch == ':') {
            i++;
            continue;
        }
        return serr(c, err, lm[i], cm[i], "unexpected '%c' in operand", ch);
    }
    if (o->nr == 0 && !o->mem && !o->cbank && n > 1 &&
        (s[0] == '.' || s[0] == '$')) {
        size_t k = 0;
        while (k < n && ident_char((unsigned char)s[k]))
            k++;
        if (k == n) {
            o->label = s;
            o->lablen = n;
        }
    }
    if (o->nr > 1 || o->mem)
        o->gpr = o->pred = false;
    if (o->gpr && o->pred)
        o->pred = false;
    /* Plain hexadecimal number: a branch address for control transfers. */
    if (!o->mem && o->nr == 0 && n > 2 && s[0] == '0' && (s[1] == 'x')) {
        char buf[32];
        size_t k = n < sizeof buf - 1 ? n : sizeof buf - 1;
        memcpy(buf, s, k);
        buf[k] = '\0';
        char *end;
        long v = strtol(buf, &end, 16);
        if (*end == '\0' || isspace((unsigned char)*end))
            o->addr = v;
    }
    return RF_OK;
}

/* Bits of a conversion type modifier, 0 if not a type. */
static int type_bits(const char *s, size_t n)
{
    if (n < 2 || n > 4 || !strchr("FSU", s[0]))
        return 0;
    int v = 0;
    for (size_t i = 1; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return 0;
        v = v * 10 + (s[i] - '0');
    }
    return v == 8 || v == 16 || v == 32 || v == 64 ? v : 0;
}

/* Widths (in registers) of destination and source data for conversions. */
static void conv_widths(const char *op, size_t n, size_t blen, int *dw,
                        int *sw)
{
    bool f2i = blen == 3 && memcmp(op, "F2I", 3) == 0;
    bool i2f = blen == 3 && memcmp(op, "I2F", 3) == 0;
    int types[4], nt = 0;
    char kinds[4];
    const char *end = op + n;
    for (const char *s = op + blen; s < end && nt < 4;) {
        const char *e = memchr(s + 1, '.', (size_t)(end - s - 1));
        size_t len = (size_t)((e ? e : end) - (s + 1));
        int b = type_bits(s + 1, len);
        if (b) {
            kinds[nt] = s[1];
            types[nt++] = b;
        }
        if (!e)
            break;
        s = e;
    }
    *dw = *sw = 1;
    if (f2i || i2f) {
        /* Float types name the float side, integer types the other. */
        for (int k = 0; k < nt; k++) {
            bool fl = kinds[k] == 'F';
            int w = types[k] == 64 ? 2 : 1;
            if ((f2i && fl) || (i2f && !fl))
                *sw = w;
            else
                *dw = w;
        }
        return;
    }
    if (nt >= 1)
        *dw = types[0] == 64 ? 2 : 1;
    if (nt >= 2)
        *sw = types[1] == 64 ? 2 : 1;
    else
        *sw = *dw;
}

static void add_reg_words(rf_inst *in, bool def, int reg, int w)
{
    if (reg >= RF_PRED_BASE) {
        if (def)
            kir_add_def(in, reg);
        else
            kir_add_use(in, reg);
        return;
    }
    if (w > 1)
        reg -= reg % w;   /* wide operands are aligned */
    for (int k = 0; k < w && reg + k < RF_MAX_GPR - 1; k++) {
        if (def)
            kir_add_def(in, reg + k);
        else
            kir_add_use(in, reg + k);
    }
}

#define MAXOPS 16

/* One instruction s[0..n) (no comments, no address); lm/cm give the file
 * line and column of each character (n + 1 entries). */
static int parse_inst(sass_ctx *c, const char *s, size_t n, long addr,
                      const int *lm, const int *cm, int *inst_out, rf_err *err)
{
    *inst_out = -1;
    const char *s0 = s;
    const char *end = s + n;
#define AT(ptr) lm[(ptr) - s0], cm[(ptr) - s0]
    int guard = -1;
    bool gneg = false, never = false, uguard = false;
    if (s < end && *s == '@') {
        const char *g = s++;
        if (s < end && *s == '!') {
            gneg = true;
            s++;
        }
        const char *w = s;
        while (s < end && ident_char((unsigned char)*s))
            s++;
        size_t wl = (size_t)(s - w);
        if (wl == 2 && w[0] == 'P' && w[1] == 'T') {
            never = gneg;
        } else if (wl == 2 && w[0] == 'P' && w[1] >= '0' && w[1] <= '6') {
            guard = RF_PRED_BASE + (w[1] - '0');
        } else if (wl >= 3 && w[0] == 'U' && w[1] == 'P') {
            uguard = !(wl == 3 && w[2] == 'T' && !gneg);
            never = wl == 3 && w[2] == 'T' && gneg;
        } else {
            return serr(c, err, AT(g), "bad guard predicate '%.*s'", (int)wl, w);
        }
        while (s < end && isspace((unsigned char)*s))
            s++;
    }
    const char *op = s;
    while (s < end && (isalnum((unsigned char)*s) || *s == '.' || *s == '_'))
        s++;
    size_t oplen = (size_t)(s - op);
    if (oplen == 0 || !isupper((unsigned char)op[0]))
        return serr(c, err, AT(op), "expected an opcode, found '%.*s'",
                    (int)(end - op > 20 ? 20 : end - op), op);
    size_t blen = 0;
    while (blen < oplen && op[blen] != '.')
        blen++;
    /* Operands up to ';' split at top-level commas. */
    sopnd ops[MAXOPS];
    int nops = 0;
    const char *p = s;
    while (p < end && isspace((unsigned char)*p))
        p++;
    const char *stop = end;
    {
        const char *semi = NULL;
        int depth = 0;
        bool instr = false;
        for (const char *t = p; t < end; t++) {
            if (*t == '"')
                instr = !instr;
            if (instr)
                continue;
            if (*t == '[' || *t == '(')
                depth++;
            else if ((*t == ']' || *t == ')') && depth > 0)
                depth--;
            else if (*t == ';' && depth == 0) {
                semi = t;
                break;
            }
        }
        if (!semi) {   /* unbalanced: take the last ';' and report below */
            for (const char *t = end; t > p; t--)
                if (t[-1] == ';') {
                    semi = t - 1;
                    break;
                }
        }
        if (semi)
            stop = semi;
    }
    /* nvdisasm's sync annotation (*"TARGET= .L_x "*) after the operands
     * names where a pop goes; it is no operand. */
    sopnd annot;
    bool has_annot = false;
    for (const char *t = p; t + 1 < stop; t++)
        if (t[0] == '(' && t[1] == '*') {
            const char *e = t + 2;
            while (e + 1 < stop && !(e[0] == '*' && e[1] == ')'))
                e++;
            if (e + 1 >= stop)
                return serr(c, err, AT(t), "unterminated '(*' annotation");
            int rc = parse_operand(c, t, (size_t)(e + 2 - t), lm + (t - s0),
                                   cm + (t - s0), &annot, err);
            if (rc)
                return rc;
            has_annot = annot.label != NULL;
            if (e + 2 < stop) {
                const char *r = e + 2;
                while (r < stop && isspace((unsigned char)*r))
                    r++;
                if (r < stop)
                    return serr(c, err, AT(r), "text after the '(*...*)' "
                                "annotation");
            }
            stop = t;
            while (stop > p && isspace((unsigned char)stop[-1]))
                stop--;
            break;
        }
    if (p < stop) {
        const char *b = p;
        int depth = 0;
        bool instr = false;
        for (const char *t = p; t <= stop; t++) {
            if (t < stop && *t == '"')
                instr = !instr;
            if (t < stop && instr)
                continue;
            if (t < stop && (*t == '[' || *t == '('))
                depth++;
            else if (t < stop && (*t == ']' || *t == ')'))
                depth--;
            if (t == stop || (*t == ',' && depth <= 0)) {
                if (nops >= MAXOPS)
                    return serr(c, err, AT(b), "more than %d operands", MAXOPS);
                if (t == b)
                    return serr(c, err, AT(b), "empty operand");
                int rc = parse_operand(c, b, (size_t)(t - b), lm + (b - s0),
                                       cm + (b - s0), &ops[nops], err);
                if (rc)
                    return rc;
                nops++;
                b = t + 1;
            }
        }
        if (depth != 0)
            return serr(c, err, AT(s0), "unbalanced brackets");
    }

    rf_func *f = curf(c);
    rf_inst *in = kir_add_inst(f, &c->capinst);
    if (!in)
        return nomem(c, err);
    if (kir_grow((void **)&c->si, &c->capsi, f->ninsts - 1, sizeof *c->si))
        return nomem(c, err);
    int idx = f->ninsts - 1;
    sinfo *si = &c->si[idx];
    memset(si, 0, sizeof *si);
    si->addr = addr;
    si->taddr = -1;
    si->tlab = -1;
    si->stack = -1;
    si->line = lm[op - s0];
    si->col = cm[op - s0];
    *inst_out = idx;
    in->line = (uint32_t)si->line;
    int opc = kir_opname(c->m, &c->opmap, op, blen);
    if (opc < 0)
        return nomem(c, err);
    in->opcode = (int16_t)opc;
    const sop_info *oi = find_sop(op, blen);
    int kind;
    if (oi) {
        in->cls = oi->cls;
        kind = oi->kind;
    } else {
        in->flags |= RF_IF_UNKNOWN;
        f->unknown_ops++;
        kind = K_ALU;
        if (blen >= 2 && memcmp(op, "LD", 2) == 0) {
            in->cls = RF_OC_LD_GLOBAL;
            kind = K_MEM;
        } else if (blen >= 2 && memcmp(op, "ST", 2) == 0) {
            in->cls = RF_OC_ST_GLOBAL;
            kind = K_MEM;
        } else if ((blen >= 4 && memcmp(op, "ATOM", 4) == 0) ||
                   (blen >= 3 && memcmp(op, "RED", 3) == 0)) {
            in->cls = RF_OC_ATOMIC;
            kind = K_MEM;
        } else if (blen >= 3 && memcmp(op, "BAR", 3) == 0) {
            in->cls = RF_OC_BARRIER;
            kind = K_NODEF;
        } else {
            in->cls = mod(op, oplen, "F64") ? RF_OC_ALU64 : RF_OC_ALU;
        }
    }
    if (never) {            /* @!PT: never executes */
        in->cls = RF_OC_NOP;
        return RF_OK;
    }
    in->guard = (int16_t)guard;
    if (gneg && guard >= 0)
        in->flags |= RF_IF_GUARD_NEG;
    bool cond = guard >= 0 || uguard;
    if (in->cls == RF_OC_BARRIER && (mod(op, oplen, "ARV") ||
                                     mod(op, oplen, "ARRIVE")))
        in->cls = RF_OC_NOP;
    if (blen == 4 && memcmp(op, "IMAD", 4) == 0 && mod(op, oplen, "WIDE"))
        in->cls = RF_OC_ALU64;
    if (blen == 3 && (memcmp(op, "F2F", 3) == 0 || memcmp(op, "F2I", 3) == 0 ||
                      memcmp(op, "I2F", 3) == 0) && mod(op, oplen, "F64"))
        in->cls = RF_OC_ALU64;

    /* Widths. */
    int dw = 1, sw = 1, aw_e = 1;
    int wide_src = -1;   /* operand index read as a pair */
    bool dop = oi && oi->cls == RF_OC_ALU64 &&
               !(blen == 4 && memcmp(op, "DMMA", 4) == 0);
    if (kind == K_MEM) {
        /* .64 data, or a 64-bit type on atomics (RED.E.ADD.F64) */
        int w = mod(op, oplen, "128") ? 4
                : mod(op, oplen, "64") || mod(op, oplen, "F64") ||
                  mod(op, oplen, "U64") || mod(op, oplen, "S64") ? 2 : 1;
        if (blen == 4 && memcmp(op, "LDSM", 4) == 0)
            w = mod(op, oplen, "M88") && mod(op, oplen, "4") ? 4
                : mod(op, oplen, "2") ? 2 : 1;
        dw = sw = w;
        bool global = in->cls == RF_OC_LD_GLOBAL || in->cls == RF_OC_ST_GLOBAL ||
                      in->cls == RF_OC_ATOMIC;
        if (global && mod(op, oplen, "E") &&
            !(blen >= 5 && memcmp(op, "ATOMS", 5) == 0))
            aw_e = 2;
    } else if (dop) {
        dw = sw = 2;
        if (blen == 5 && memcmp(op, "DSETP", 5) == 0)
            dw = 1;
        if (blen == 4 && memcmp(op, "DSET", 4) == 0)
            dw = 1;
    } else if (blen == 3 && (memcmp(op, "F2F", 3) == 0 ||
                             memcmp(op, "F2I", 3) == 0 ||
                             memcmp(op, "I2F", 3) == 0 ||
                             memcmp(op, "I2I", 3) == 0)) {
        conv_widths(op, oplen, blen, &dw, &sw);
    } else if (blen == 4 && memcmp(op, "FRND", 4) == 0 && mod(op, oplen, "F64")) {
        dw = sw = 2;
    } else if ((blen == 4 && memcmp(op, "IMAD", 4) == 0 && mod(op, oplen, "WIDE")) ||
               (blen == 4 && memcmp(op, "IMUL", 4) == 0 && mod(op, oplen, "WIDE"))) {
        dw = 2;
        wide_src = 3;
    } else if (blen == 4 && memcmp(op, "CS2R", 4) == 0 && !mod(op, oplen, "32")) {
        dw = 2;
    } else if (mod(op, oplen, "64") && kind == K_ALU) {
        dw = sw = 2;
    }

    /* Number of leading destination operands. */
    int ndef = 1;
    if (kind == K_NODEF || kind == K_BRA || kind == K_EXIT ||
        kind == K_SYNCJMP || kind == K_SETSYNC || kind == K_CALL)
        ndef = 0;
    if (kind == K_MEM && (in->cls == RF_OC_ST_GLOBAL ||
                          in->cls == RF_OC_ST_SHARED ||
                          in->cls == RF_OC_ST_LOCAL ||
                          (nops > 0 && ops[0].mem)))
        ndef = 0;
    if (blen == 6 && memcmp(op, "LDGSTS", 6) == 0)
        ndef = 0;
    if (ndef && blen >= 4 && memcmp(op + blen - 4, "SETP", 4) == 0)
        ndef = 2;
    if (ndef && blen >= 5 && memcmp(op + blen - 5, "SETP2", 5) == 0)
        ndef = 2;
    if (ndef && blen == 5 && memcmp(op, "PLOP3", 5) == 0)
        ndef = 2;
    if (ndef && blen == 4 && memcmp(op, "VOTE", 4) == 0 && nops > 1 &&
        (ops[1].pred || ops[1].is_zero))
        ndef = 2;
    if (ndef == 1 && nops > 1 && (ops[0].pred || ops[0].is_pt) &&
        !ops[0].mem && (ops[1].gpr || (ops[1].is_zero && !ops[1].is_pt)) &&
        !ops[1].mem && !ops[1].cbank &&
        !(blen == 4 && memcmp(op, "FCHK", 4) == 0))
        ndef = 2;
    /* carry-out predicates right after the first register definition */
    if (ndef == 1 && nops > 0 && (ops[0].gpr || ops[0].is_zero) &&
        !ops[0].pred && !ops[0].is_pt)
        while (ndef < nops - 1 && !ops[ndef].neg && !ops[ndef].mem &&
               (ops[ndef].pred || ops[ndef].is_pt))
            ndef++;
    if (ndef > nops)
        ndef = nops;

    int hmma_w[4] = {0, 0, 0, 0};
    if (blen == 4 && (memcmp(op, "HMMA", 4) == 0 || memcmp(op, "IMMA", 4) == 0 ||
                      memcmp(op, "DMMA", 4) == 0)) {
        bool big = mod(op, oplen, "16816") || mod(op, oplen, "16832");
        bool f32 = mod(op, oplen, "F32") || mod(op, oplen, "S32") ||
                   memcmp(op, "IMMA", 4) == 0;
        if (memcmp(op, "DMMA", 4) == 0) {
            hmma_w[0] = hmma_w[3] = 4;
            hmma_w[1] = hmma_w[2] = 2;
        } else {
            hmma_w[0] = hmma_w[3] = f32 ? 4 : 2;
            hmma_w[1] = big ? 4 : 2;
            hmma_w[2] = big ? 2 : 1;
            if (memcmp(op, "IMMA", 4) == 0 && !big) {
                hmma_w[0] = hmma_w[3] = 2;
                hmma_w[1] = hmma_w[2] = 1;
            }
        }
    }
    for (int i = 0; i < nops; i++) {
        sopnd *o = &ops[i];
        bool def = i < ndef;
        for (int k = 0; k < o->nr; k++) {
            int r = o->reg[k];
            int w = 1;
            if (r < RF_PRED_BASE) {
                if (o->cbank) {
                    w = 1;
                } else if (o->mem) {
                    w = o->r64[k] ? 2 : o->r32[k] ? 1 : (k == 0 ? aw_e : 1);
                } else if (hmma_w[0] && i < 4) {
                    w = hmma_w[i];
                } else if (kind == K_MEM) {
                    w = def ? dw : sw;
                } else if (def) {
                    w = i == 0 ? dw : 1;
                } else if (i == wide_src) {
                    w = 2;
                } else if (o->nr == 1 && !(o->r32[k])) {
                    w = sw;
                    if (wide_src >= 0)
                        w = 1;
                }
            }
            add_reg_words(in, def, r, w);
        }
    }
    /* Control flow. */
    si->cond = cond;
    const sopnd *tgt = NULL;
    for (int i = 0; i < nops; i++)
        if (ops[i].label || ops[i].addr >= 0) {
            tgt = &ops[i];
            break;
        }
    if (!tgt && has_annot)
        tgt = &annot;
    /* The sync bit: SYNC on Maxwell/Pascal, NOP.S anywhere, and on Fermi
     * and Kepler (or where nvdisasm annotates a target) any opcode's .S. */
    bool sync_bit = false;
    if (kind != K_SETSYNC && kind != K_SYNCJMP && kind != K_BRA &&
        kind != K_EXIT && kind != K_CALL && mod(op, oplen, "S")) {
        const char *tg = c->m->target;
        bool old_arch = strncmp(tg, "sm_", 3) == 0 &&
                        (tg[3] == '1' || tg[3] == '2' || tg[3] == '3') &&
                        isdigit((unsigned char)tg[4]) && tg[5] == '\0';
        sync_bit = (blen == 3 && memcmp(op, "NOP", 3) == 0) || has_annot ||
                   old_arch;
    }
    if (kind == K_SETSYNC || kind == K_SYNCJMP || sync_bit) {
        si->stack = (int8_t)(sync_bit || op[0] == 'S' ? STK_SYNC
                             : op[0] == 'P' ? (op[1] == 'B' ? STK_BRK : STK_CONT)
                             : op[0] == 'B' ? STK_BRK : STK_CONT);
        if (sync_bit && in->cls == RF_OC_NOP)
            in->cls = RF_OC_BRANCH;
    }
    bool transfer = kind == K_BRA || kind == K_SETSYNC || kind == K_SYNCJMP ||
                    sync_bit;
    /* A call's target too: a subroutine of this function (CALL.REL) is
     * walked where it is called (inline.h). */
    if ((transfer || kind == K_CALL) && tgt && tgt->label) {
        si->tlab = pool_add(c, tgt->label, tgt->lablen);
        if (si->tlab < 0)
            return nomem(c, err);
    } else if ((transfer || kind == K_CALL) && tgt) {
        si->taddr = tgt->addr;
    }
    switch (kind) {
    case K_BRA:
        si->term = KIR_T_BRANCH;
        if (mod(op, oplen, "DIV") || mod(op, oplen, "CONV"))
            si->cond = true;
        si->want_target = !tgt;
        break;
    case K_EXIT:
        si->term = KIR_T_EXIT;
        break;
    case K_SETSYNC:
        si->push = true;
        break;
    default:
        if (kind == K_SYNCJMP || sync_bit) {
            si->term = KIR_T_BRANCH;
            si->pop = true;
            si->want_target = !tgt;
        }
        break;
    }
    return RF_OK;
#undef AT
}

/* ---------------------------------------------------------- listings */

static bool is_hex(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]))
            return false;
    return true;
}

int sass_line(sass_ctx *c, const char *text, size_t len, int line, int col0,
              const int *tlm, const int *tcm, int *inst, rf_err *err)
{
    *inst = -1;
    char buf[SASS_LINE_MAX];
    int colmap[SASS_LINE_MAX], linemap[SASS_LINE_MAX];
    size_t n = 0;
    long addr = -1;
#define TL(i) (tlm ? tlm[i] : line)
#define TC(i) (tcm ? tcm[i] : col0 + (int)(i))
    /* Copy without comments and dual-issue braces; find the address. */
    for (size_t i = 0; i < len && n < sizeof buf - 1;) {
        if (text[i] == '/' && i + 1 < len && text[i + 1] == '/')
            break;
        if (text[i] == '/' && i + 1 < len && text[i + 1] == '*') {
            size_t j = i + 2;
            while (j + 1 < len && !(text[j] == '*' && text[j + 1] == '/'))
                j++;
            if (j + 1 >= len)
                return serr(c, err, TL(i), TC(i), "unterminated comment");
            const char *b = text + i + 2, *e = text + j;
            while (b < e && *b == ' ')
                b++;
            while (e > b && e[-1] == ' ')
                e--;
            bool lead = true;   /* only blanks copied so far */
            for (size_t q = 0; q < n; q++)
                lead = lead && buf[q] == ' ';
            if (addr < 0 && lead && is_hex(b, (size_t)(e - b)) &&
                (size_t)(e - b) <= 8) {
                char a[16];
                memcpy(a, b, (size_t)(e - b));
                a[e - b] = '\0';
                addr = strtol(a, NULL, 16);
            }
            i = j + 2;
            continue;
        }
        if (text[i] == '{' || text[i] == '}') {
            i++;
            continue;
        }
        if (text[i] == '\t' || text[i] == '\r')
            buf[n] = ' ';
        else
            buf[n] = text[i];
        linemap[n] = TL(i);
        colmap[n++] = TC(i);
        i++;
    }
#undef TL
#undef TC
    buf[n] = '\0';
    /* Scheduling annotations of newer listings ("&req={0} &wr=0x2 ?trans4",
     * "?WAIT2_END_GROUP"): words starting with '&' or '?' are dropped. */
    {
        size_t k = 0;
        for (size_t i = 0; i < n;) {
            if ((buf[i] == '&' || buf[i] == '?') && (i == 0 || buf[i - 1] == ' ')) {
                while (i < n && buf[i] != ' ' && buf[i] != ';')
                    i++;
                continue;
            }
            colmap[k] = colmap[i];
            linemap[k] = linemap[i];
            buf[k++] = buf[i++];
        }
        n = k;
        buf[n] = '\0';
    }
    size_t b = 0;
    while (b < n && buf[b] == ' ')
        b++;
    while (n > b && buf[n - 1] == ' ')
        n--;
    buf[n] = '\0';
    if (b == n)
        return RF_OK;
    colmap[n] = colmap[n - 1] + 1;
    linemap[n] = linemap[n - 1];
    const char *s = buf + b;
    size_t sl = n - b;
    /* "0158:   IADD ..." (address prefix in older -cfg output). */
    {
        size_t k = 0;
        while (k < sl && isxdigit((unsigned char)s[k]))
            k++;
        if (k >= 2 && k <= 8 && k < sl && s[k] == ':' && addr < 0 &&
            k + 1 < sl) {
            char a[16];
            memcpy(a, s, k);
            a[k] = '\0';
            addr = strtol(a, NULL, 16);
            s += k + 1;
            sl -= k + 1;
            while (sl && *s == ' ') {
                s++;
                sl--;
            }
            if (!sl)
                return RF_OK;
        }
    }
    if (sl > 10 && memcmp(s, "Function", 8) == 0) {
        const char *q = memchr(s, ':', sl);
        if (q) {
            q++;
            while (q < s + sl && *q == ' ')
                q++;
            const char *e = q;
            while (e < s + sl && *e != ' ')
                e++;
            if (e > q)
                return sass_begin_func(c, q, (size_t)(e - q), err);
        }
    }
    if ((sl > 9 && memcmp(s, "code for ", 9) == 0) ||
        (sl > 7 && memcmp(s, "arch = ", 7) == 0)) {
        const char *q = strstr(s, "sm_");
        if (q && !c->m->target[0])
            snprintf(c->m->target, sizeof c->m->target, "%.*s",
                     (int)strcspn(q, " \t"), q);
        return RF_OK;
    }
    if (s[0] == '.' && sl > 1 && s[sl - 1] != ':') {
        /* Directive: note .headerflags' SM and .other entry flags. */
        const char *q = strstr(s, "EF_CUDA_SM");
        if (q && !c->m->target[0] && isdigit((unsigned char)q[10])) {
            long v = strtol(q + 10, NULL, 10);
            if (v > 0 && v < 10000)
                snprintf(c->m->target, sizeof c->m->target, "sm_%ld", v);
        }
        const char *shi = strstr(s, "SHI_REGISTERS=");
        if (shi && isdigit((unsigned char)shi[14])) {
            long v = strtol(shi + 14, NULL, 10);
            c->pend_regs = v > 0 && v <= 255 ? (int)v : 0;
        }
        if (sl > 6 && memcmp(s, ".other", 6) == 0 &&
            !strstr(s, "STO_CUDA_ENTRY")) {
            const char *nm = s + 6;
            while (*nm == ' ')
                nm++;
            size_t k = strcspn(nm, ", ");
            if (k && kir_map_put(&c->nonentry, nm, k, 1))
                return nomem(c, err);
        }
        return RF_OK;
    }
    if (s[sl - 1] == ':' && !memchr(s, ' ', sl)) {
        if (sl > 7 && memcmp(s, ".text.", 6) == 0)
            return sass_begin_func(c, s + 6, sl - 7, err);
        return sass_label(c, s, sl - 1, err);
    }
    bool looks = addr >= 0 || s[0] == '@' ||
                 (isupper((unsigned char)s[0]) && s[sl - 1] == ';');
    if (!looks)
        return RF_OK;   /* banner lines: "Fatbin elf code:", "=====", ... */
    if (c->fi < 0) {
        const char *base = strrchr(c->path, '/');
        base = base ? base + 1 : c->path;
        size_t k = strcspn(base, ".");
        int rc = sass_begin_func(c, base, k ? k : strlen(base), err);
        if (rc)
            return rc;
    }
    rf_func *f = curf(c);
    for (int k = 0; k < c->npend; k++) {
        const char *l = c->pool + c->pend[k];
        size_t kl = strlen(l);
        int old = kir_map_get(&c->labels, l, kl);
        if (old >= 0 && old != f->ninsts)
            return serr(c, err, linemap[s - buf], colmap[s - buf],
                        "label '%s' defined twice", l);
        if (kir_map_put(&c->labels, l, kl, f->ninsts))
            return nomem(c, err);
    }
    c->npend = 0;
    return parse_inst(c, s, sl, addr, linemap + (s - buf), colmap + (s - buf),
                      inst, err);
}

int sass_is_branch(const sass_ctx *c, int i)
{
    const rf_func *f = c->fi >= 0 ? &c->m->funcs[c->fi] : NULL;
    return f && i >= 0 && i < f->ninsts && c->si[i].term == KIR_T_BRANCH;
}

int sass_needs_target(const sass_ctx *c, int i)
{
    return sass_is_branch(c, i) && c->si[i].want_target;
}

int sass_set_target(sass_ctx *c, int i, const char *label, size_t len,
                    rf_err *err)
{
    if (!sass_is_branch(c, i))
        return RF_OK;
    long off = pool_add(c, label, len);
    if (off < 0)
        return nomem(c, err);
    c->si[i].tlab = off;
    c->si[i].taddr = -1;
    c->si[i].want_target = false;
    return RF_OK;
}

int sass_is_pop(const sass_ctx *c, int i)
{
    return sass_is_branch(c, i) && c->si[i].pop;
}

int sass_is_cond(const sass_ctx *c, int i)
{
    return sass_is_branch(c, i) && c->si[i].cond;
}

int sass_finish(sass_ctx *c, rf_err *err)
{
    return close_func(c, err);
}

int rf_sass_parse(const char *path, const char *text, rf_module **out,
                  rf_err *err)
{
    *out = NULL;
    const char *pth = path ? path : "<sass>";
    rf_module *m = kir_module_new(pth, RF_CODE_SASS);
    if (!m)
        return rf_err_set(err, RF_ENOMEM, pth, 0, 0, NULL, "out of memory");
    sass_ctx *c = sass_ctx_new(m, m->path);
    if (!c) {
        rf_module_destroy(m);
        return rf_err_set(err, RF_ENOMEM, pth, 0, 0, NULL, "out of memory");
    }
    int rc = RF_OK, line = 1;
    const char *s = text ? text : "";
    while (*s && !rc) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        int inst;
        rc = sass_line(c, s, len, line, 1, NULL, NULL, &inst, err);
        s += len;
        if (*s == '\n')
            s++;
        line++;
    }
    if (!rc)
        rc = sass_finish(c, err);
    if (!rc && m->nfuncs == 0)
        rc = rf_err_set(err, RF_EPARSE, pth, 0, 0, NULL,
                        "no SASS instructions found");
    sass_ctx_free(c);
    if (rc) {
        rf_module_destroy(m);
        return rc;
    }
    *out = m;
    return RF_OK;
}

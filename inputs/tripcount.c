/* tripcount.c - exact trip counts of counted loops and forward branches on
 * constants in PTX (the model and its limits are in tripcount.h).
 *
 * The kernel IR keeps registers, not immediates or parameter names, so the
 * instructions this analysis needs (the setp of a branch, the definitions
 * of the registers it compares) are re-read from the source text at their
 * line.  A statement re-read there is used only when its first operand is
 * the register the IR says it defines; anything else does not fold.
 */
#include "tripcount.h"
#include "kir_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRIP_MAX_OPS 6
#define TRIP_OP_LEN 96
#define TRIP_MAX_DEPTH 24
#define TRIP_MAX_N 1000000000L       /* the profile's trip bound */
#define TRIP_VAL_MAX (1LL << 40)     /* folded values stay well inside 64 bits */

/* One PTX statement as written: opcode with its suffixes, operands. */
typedef struct stmt {
    char op[48];
    int nops;
    char ops[TRIP_MAX_OPS][TRIP_OP_LEN];
} stmt;

typedef struct ctx {
    const rf_func *f;
    const rf_kparam *params;
    int nparams;
    const int *ntid, *nctaid;    /* the launch's block and grid (x, y, z), or NULL */
    rf_trip_missing *miss;       /* parameters read without a value, or NULL */
    const char **lines;          /* lines[l - 1] starts source line l */
    int nlines;
    int *ord;                    /* instruction's rank among those on its line */
    int *blk;                    /* block of each instruction */
    int *ndefs;                  /* definitions of each register */
    int *def;                    /* the last definition of each register */
    uint8_t *state;              /* fold memo per instruction: 0 new, 1 busy, 2 known, 3 unknown */
    long long *val;
    uint8_t *astate;             /* the same for fold_aff_use */
    struct aff *aval;
    const int *pstart, *preds;   /* block predecessors (CSR) */
    bool *rd_seen;               /* reaching_def's scratch, [nblocks] */
    int *rd_stack;
    kir_map names;               /* register name -> index */
} ctx;

bool rf_trip_is_cond(const rf_func *f, int b)
{
    const rf_block *blk = &f->blocks[b];
    if (blk->nsucc != 2 || blk->succ[0] == blk->succ[1] || blk->ninsts == 0)
        return false;
    const rf_inst *last = &f->insts[blk->first + blk->ninsts - 1];
    return last->cls == RF_OC_BRANCH && last->guard >= 0;
}

bool rf_trip_is_guarded_exit(const rf_func *f, int b)
{
    const rf_block *blk = &f->blocks[b];
    if (blk->nsucc == 0 || blk->ninsts == 0)
        return false;
    const rf_inst *last = &f->insts[blk->first + blk->ninsts - 1];
    return last->cls == RF_OC_EXIT && last->guard >= 0;
}

bool rf_trip_is_drawn(const rf_func *f, int b)
{
    return rf_trip_is_cond(f, b) || rf_trip_is_guarded_exit(f, b);
}

bool rf_trip_is_backedge(const rf_func *f, int b)
{
    if (!rf_trip_is_cond(f, b))
        return false;
    const rf_block *blk = &f->blocks[b];
    const rf_inst *last = &f->insts[blk->first + blk->ninsts - 1];
    return (last->flags & RF_IF_LOOPBACK) || blk->succ[1] <= b;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* The ord-th statement on source line `line`, split into opcode and
 * operands.  0, or -1 when the line does not hold it in a readable form. */
static int read_stmt(const ctx *c, int line, int ord, stmt *st)
{
    if (line < 1 || line > c->nlines)
        return -1;
    const char *s = c->lines[line - 1];
    size_t len = strcspn(s, "\n");
    char buf[512];
    if (len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *cm = strstr(buf, "//");
    if (cm)
        *cm = '\0';
    int k = 0;
    for (char *p = buf; p && *p;) {
        char *semi = strchr(p, ';');
        if (semi)
            *semi = '\0';
        char *t = trim(p);
        p = semi ? semi + 1 : NULL;
        /* Labels ("$L__BB0_2:") and braces before the instruction. */
        for (;;) {
            size_t id = strspn(t, "$_.%abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
            if (id && t[id] == ':' && t[0] != '%') {
                t = trim(t + id + 1);
            } else if (*t == '{' || *t == '}') {
                t = trim(t + 1);
            } else {
                break;
            }
        }
        if (!*t || *t == '.')
            continue;
        if (k++ != ord)
            continue;
        if (*t == '@')
            t = trim(t + strcspn(t, " \t"));
        size_t ol = strcspn(t, " \t");
        if (ol == 0 || ol >= sizeof st->op)
            return -1;
        memcpy(st->op, t, ol);
        st->op[ol] = '\0';
        char *r = trim(t + ol);
        st->nops = 0;
        while (*r) {
            int depth = 0;
            char *e = r;
            for (; *e && !(depth == 0 && *e == ','); e++) {
                if (*e == '[' || *e == '{')
                    depth++;
                else if (*e == ']' || *e == '}')
                    depth--;
            }
            char save = *e;
            *e = '\0';
            char *o = trim(r);
            if (st->nops >= TRIP_MAX_OPS || strlen(o) >= TRIP_OP_LEN)
                return -1;
            snprintf(st->ops[st->nops++], TRIP_OP_LEN, "%s", o);
            if (!save)
                break;
            r = e + 1;
        }
        return 0;
    }
    return -1;
}

/* Statement of instruction i, checked against the register it defines
 * (reg, or -1 to skip the check; a setp's "p|q" first operand matches
 * either).  *second is set when reg is the '|' part. */
static int inst_stmt(const ctx *c, int i, int reg, stmt *st, bool *second)
{
    const rf_inst *in = &c->f->insts[i];
    if (read_stmt(c, (int)in->line, c->ord[i], st) || st->nops < 1)
        return -1;
    if (second)
        *second = false;
    if (reg < 0)
        return 0;
    const char *name = c->f->regs[reg].name;
    char first[TRIP_OP_LEN];
    snprintf(first, sizeof first, "%s", st->ops[0]);
    char *bar = strchr(first, '|');
    if (bar) {
        *bar = '\0';
        if (strcmp(trim(bar + 1), name) == 0) {
            if (second)
                *second = true;
            return 0;
        }
    }
    return strcmp(trim(first), name) == 0 ? 0 : -1;
}

static bool has_part(const char *op, const char *part)
{
    size_t n = strlen(part);
    for (const char *p = strchr(op, '.'); p; p = strchr(p + 1, '.'))
        if (strncmp(p, part, n) == 0 && (p[n] == '.' || p[n] == '\0'))
            return true;
    return false;
}

static bool base_is(const char *op, const char *base)
{
    size_t n = strlen(base);
    return strncmp(op, base, n) == 0 && (op[n] == '.' || op[n] == '\0');
}

static bool in_range(long long v)
{
    return v > -TRIP_VAL_MAX && v < TRIP_VAL_MAX;
}

static int fold_use(ctx *c, int r, int at, int depth, long long *v);

/* Integer literal as PTX writes it (decimal, 0x hex, 0b binary, a leading 0
 * octal, an optional U suffix). */
static int parse_int(const char *s, long long *v)
{
    bool neg = *s == '-';
    if (neg)
        s++;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, s += 2;
    else if (s[0] == '0' && s[1])
        base = 8, s += 1;
    if (!*s)
        return -1;
    long long x = 0;
    for (; *s && *s != 'U' && *s != 'u'; s++) {
        int d = isdigit((unsigned char)*s) ? *s - '0'
              : isxdigit((unsigned char)*s) ? tolower((unsigned char)*s) - 'a' + 10 : 99;
        if (d >= base)
            return -1;
        x = x * base + d;
        if (!in_range(x))
            return -1;
    }
    if (*s && s[1])
        return -1;
    *v = neg ? -x : x;
    return 0;
}

/* A kernel parameter named by a load's "[name]" operand; one without a
 * value is noted in c->miss. */
static int param_value(const ctx *c, const char *opnd, long long *v)
{
    size_t n = strlen(opnd);
    if (n < 3 || opnd[0] != '[' || opnd[n - 1] != ']')
        return -1;
    char name[TRIP_OP_LEN];
    snprintf(name, sizeof name, "%.*s", (int)(n - 2), opnd + 1);
    char *nm = trim(name);
    if (strpbrk(nm, "+-"))
        return -1;
    const char *pos = strstr(nm, "_param_");
    while (pos && strstr(pos + 1, "_param_"))
        pos = strstr(pos + 1, "_param_");
    for (int i = 0; i < c->nparams; i++) {
        const char *pn = c->params[i].name;
        if (strcmp(pn, nm) == 0 || (pos && strcmp(pn, pos + 7) == 0)) {
            *v = c->params[i].value;
            return 0;
        }
    }
    rf_trip_missing *m = c->miss;
    bool seen = false;
    for (int i = 0; m && i < m->n && !seen; i++)
        seen = strcmp(m->name[i], nm) == 0;
    if (m && !seen && pos && m->n < RF_TRIP_MAX_MISSING)
        snprintf(m->name[m->n++], sizeof m->name[0], "%s", nm);
    return -1;
}

/* Value of an operand of instruction `at`: immediate, register that folds,
 * "[param]". */
static int fold_opnd(ctx *c, const char *s, int at, int depth, long long *v)
{
    /* The launch's dimensions: %ntid.x (blockDim.x), %nctaid.x (gridDim.x). */
    static const char *const dims[6] = {"%ntid.x", "%ntid.y", "%ntid.z",
                                        "%nctaid.x", "%nctaid.y", "%nctaid.z"};
    for (int k = 0; k < 6; k++)
        if (strcmp(s, dims[k]) == 0) {
            const int *d = k < 3 ? c->ntid : c->nctaid;
            if (!d || d[k % 3] < 1)
                return -1;
            *v = d[k % 3];
            return 0;
        }
    if (s[0] == '%') {
        int r = kir_map_get(&c->names, s, strlen(s));
        return r < 0 ? -1 : fold_use(c, r, at, depth + 1, v);   /* special registers do not fold */
    }
    if (s[0] == '[')
        return param_value(c, s, v);
    if (isdigit((unsigned char)s[0]) || (s[0] == '-' && isdigit((unsigned char)s[1]))) {
        if (s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D'))
            return -1;   /* floating-point literal */
        return parse_int(s, v);
    }
    return -1;
}

/* Value instruction i writes to its first operand, when it folds. */
static int fold_inst(ctx *c, int i, int reg, int depth, long long *v)
{
    stmt st;
    if (depth > TRIP_MAX_DEPTH || c->f->insts[i].guard >= 0 || inst_stmt(c, i, reg, &st, NULL))
        return -1;
    const char *op = st.op;
    if (strstr(op, ".f16") || strstr(op, ".f32") || strstr(op, ".f64") || strstr(op, ".bf16"))
        return -1;
    long long a = 0, b = 0, d = 0;
    int need = base_is(op, "neg") || base_is(op, "not") || base_is(op, "mov") ||
               base_is(op, "cvt") || base_is(op, "ld") ? 1
             : base_is(op, "mad") ? 3 : 2;
    if (st.nops != need + 1)
        return -1;
    if (base_is(op, "ld")) {
        if (!has_part(op, ".param"))
            return -1;
        return param_value(c, st.ops[1], v);
    }
    if (fold_opnd(c, st.ops[1], i, depth, &a))
        return -1;
    if (need >= 2 && fold_opnd(c, st.ops[2], i, depth, &b))
        return -1;
    if (need == 3 && fold_opnd(c, st.ops[3], i, depth, &d))
        return -1;
    long long r;
    if (base_is(op, "mov") || base_is(op, "cvt"))
        r = a;
    else if (base_is(op, "neg"))
        r = -a;
    else if (base_is(op, "not"))
        r = ~a;
    else if (base_is(op, "add"))
        r = a + b;
    else if (base_is(op, "sub"))
        r = a - b;
    else if ((base_is(op, "mul") || base_is(op, "mad")) && !has_part(op, ".hi")) {
        if (a != 0 && (b > TRIP_VAL_MAX / (a < 0 ? -a : a) || b < -TRIP_VAL_MAX / (a < 0 ? -a : a)))
            return -1;
        r = a * b + d;
    } else if (base_is(op, "shl") && b >= 0 && b < 40)
        r = a * (1LL << b);
    else if (base_is(op, "shr") && b >= 0 && b < 63 && a >= 0)
        r = a >> b;
    else if (base_is(op, "and"))
        r = a & b;
    else if (base_is(op, "or"))
        r = a | b;
    else if (base_is(op, "xor"))
        r = a ^ b;
    else if (base_is(op, "min"))
        r = a < b ? a : b;
    else if (base_is(op, "max"))
        r = a > b ? a : b;
    else if (base_is(op, "div") && b != 0)
        r = a / b;
    else if (base_is(op, "rem") && b != 0)
        r = a % b;
    else
        return -1;
    if (!in_range(r))
        return -1;
    *v = r;
    return 0;
}

/* The one definition of register r that reaches instruction `at`: the last
 * one before it in its block, else the last one in each block a path back
 * from there meets first, when all such paths meet the same one (and none
 * reaches the function's entry without meeting one).  -1 otherwise. */
static int reaching_def_in(ctx *c, int r, int b, int upto);

static int reaching_def(ctx *c, int r, int at)
{
    return reaching_def_in(c, r, c->blk[at], at);
}

/* reaching_def at the point before instruction `upto` of block b (upto one
 * past its last: the block's end). */
static int reaching_def_in(ctx *c, int r, int b, int upto)
{
    const rf_func *f = c->f;
    for (int i = upto - 1; i >= f->blocks[b].first; i--)
        for (int d = 0; d < f->insts[i].ndefs; d++)
            if (f->insts[i].defs[d] == r)
                return i;
    memset(c->rd_seen, 0, (size_t)f->nblocks * sizeof *c->rd_seen);
    int sp = 0, found = -1;
    for (int k = c->pstart[b]; k < c->pstart[b + 1]; k++)
        if (!c->rd_seen[c->preds[k]]) {
            c->rd_seen[c->preds[k]] = true;
            c->rd_stack[sp++] = c->preds[k];
        }
    if (sp == 0)
        return -1;              /* the entry block: r not yet written */
    while (sp) {
        int u = c->rd_stack[--sp];
        const rf_block *ub = &f->blocks[u];
        int def = -1;
        for (int i = ub->first + ub->ninsts - 1; i >= ub->first && def < 0; i--)
            for (int d = 0; d < f->insts[i].ndefs; d++)
                if (f->insts[i].defs[d] == r)
                    def = i;
        if (def >= 0) {
            if (found >= 0 && found != def)
                return -1;
            found = def;
            continue;
        }
        if (c->pstart[u] == c->pstart[u + 1])
            return -1;          /* a path from the entry that never writes r */
        for (int k = c->pstart[u]; k < c->pstart[u + 1]; k++)
            if (!c->rd_seen[c->preds[k]]) {
                c->rd_seen[c->preds[k]] = true;
                c->rd_stack[sp++] = c->preds[k];
            }
    }
    return found;
}

/* The one definition of r at instruction `at` (a register defined once in
 * the function: that one; else the one reaching_def finds), when it
 * writes r alone; -1 otherwise. */
static int def_at(ctx *c, int r, int at)
{
    int i = c->ndefs[r] == 1 ? c->def[r] : c->ndefs[r] > 1 ? reaching_def(c, r, at) : -1;
    return i >= 0 && c->f->insts[i].ndefs == 1 ? i : -1;
}

/* The value register r holds at instruction `at`, from its definition
 * there (def_at), folded from values that fold; memoised per defining
 * instruction. */
static int fold_use(ctx *c, int r, int at, int depth, long long *v)
{
    int i = def_at(c, r, at);
    if (i < 0)
        return -1;
    if (c->state[i] == 2) {
        *v = c->val[i];
        return 0;
    }
    if (c->state[i] != 0 || depth > TRIP_MAX_DEPTH)
        return -1;
    c->state[i] = 1;
    int rc = fold_inst(c, i, r, depth, v);
    c->state[i] = rc ? 3 : 2;
    if (!rc)
        c->val[i] = *v;
    return rc;
}

/* ---- values that depend on the thread ----------------------------------
 *
 * A value c + t tid.x + g ctaid.x + l lane + w warp (aff; lane = tid.x &
 * 31, warp = tid.x >> 5, the lane and the warp of the CTA's x row), folded
 * as above from %tid.x, %ctaid.x and values that fold, through mov, cvt,
 * add, sub, and mul, mad and shl by a value that folds; and.b32 of tid.x
 * with 31 is its lane and shr of tid.x by 5 its warp (a warp per row,
 * lanes striding over it), and or with a constant whose low m bits are 0
 * adds it to a value in [0, 2^m) (nvcc's lane - 32 as lane | -32).  A
 * loop whose start is such a value (a block- or grid-strided loop, a
 * warp's lanes over a row) is counted over the launch's warps
 * (aff_warps), and a forward branch comparing one is decided where every
 * thread of the launch goes the same way (decided_branch). */
typedef struct aff {
    long long c, t, g, l, w;
} aff;

static int fold_aff_use(ctx *c, int r, int at, int depth, aff *a);

static bool aff_const(aff a)
{
    return a.t == 0 && a.g == 0 && a.l == 0 && a.w == 0;
}

/* The value of a at thread tid (x) of CTA cta. */
static long long aff_at(aff a, long long tid, long long cta)
{
    return a.c + a.t * tid + a.g * cta + a.l * (tid & 31) + a.w * (tid >> 5);
}

static int aff_opnd(ctx *c, const char *s, int at, int depth, aff *a)
{
    if (strcmp(s, "%tid.x") == 0) {
        *a = (aff){0, 1, 0, 0, 0};
        return 0;
    }
    if (strcmp(s, "%ctaid.x") == 0) {
        *a = (aff){0, 0, 1, 0, 0};
        return 0;
    }
    if (s[0] == '%' && strchr(s, '.') == NULL) {
        int r = kir_map_get(&c->names, s, strlen(s));
        return r < 0 ? -1 : fold_aff_use(c, r, at, depth + 1, a);
    }
    long long v;
    if (fold_opnd(c, s, at, depth, &v))
        return -1;
    *a = (aff){v, 0, 0, 0, 0};
    return 0;
}

/* a scaled by the constant k, or -1 out of range. */
static int aff_scale(aff a, long long k, aff *out)
{
    long long m = k < 0 ? -k : k;
    const long long part[5] = {a.c, a.t, a.g, a.l, a.w};
    for (int i = 0; i < 5 && m > 0; i++)
        if (part[i] > TRIP_VAL_MAX / m || part[i] < -TRIP_VAL_MAX / m)
            return -1;
    *out = (aff){a.c * k, a.t * k, a.g * k, a.l * k, a.w * k};
    return 0;
}

/* Whether a is tid.x itself. */
static bool aff_is_tid(aff a)
{
    return a.c == 0 && a.t == 1 && a.g == 0 && a.l == 0 && a.w == 0;
}

static int aff_inst(ctx *c, int i, int reg, int depth, aff *out)
{
    stmt st;
    if (depth > TRIP_MAX_DEPTH || c->f->insts[i].guard >= 0 || inst_stmt(c, i, reg, &st, NULL))
        return -1;
    const char *op = st.op;
    if (strstr(op, ".f16") || strstr(op, ".f32") || strstr(op, ".f64") || strstr(op, ".bf16") ||
        has_part(op, ".hi"))
        return -1;
    int need = base_is(op, "mov") || base_is(op, "cvt") ? 1
             : base_is(op, "mad") ? 3
             : base_is(op, "add") || base_is(op, "sub") || base_is(op, "mul") || base_is(op, "shl")
                   || base_is(op, "and") || base_is(op, "shr") || base_is(op, "or")
                 ? 2 : -1;
    if (need < 0 || st.nops != need + 1)
        return -1;
    aff x, y, z = {0, 0, 0, 0, 0}, r;
    if (aff_opnd(c, st.ops[1], i, depth, &x) || (need >= 2 && aff_opnd(c, st.ops[2], i, depth, &y))
        || (need == 3 && aff_opnd(c, st.ops[3], i, depth, &z)))
        return -1;
    if (need == 1) {
        r = x;
    } else if (base_is(op, "add") || base_is(op, "sub")) {
        long long sg = base_is(op, "sub") ? -1 : 1;
        r = (aff){x.c + sg * y.c, x.t + sg * y.t, x.g + sg * y.g, x.l + sg * y.l, x.w + sg * y.w};
    } else if (base_is(op, "shr")) {   /* tid.x >> 5: its warp */
        if (!aff_is_tid(x) || !aff_const(y) || y.c != 5)
            return -1;
        r = (aff){0, 0, 0, 0, 1};
    } else if (base_is(op, "and") || base_is(op, "or")) {
        aff v = aff_const(y) ? x : y, k = aff_const(y) ? y : x;   /* k: the constant */
        if (!aff_const(k))
            return -1;
        if (base_is(op, "and")) {       /* tid.x & 31: its lane */
            if (!aff_is_tid(v) || k.c != 31)
                return -1;
            r = (aff){0, 0, 0, 1, 0};
        } else {                        /* v | k, v in [0, 2^m), k's low m bits 0: v + k */
            if (v.t != 0 || v.g != 0 || v.w != 0)
                return -1;
            long long lo = v.c + (v.l < 0 ? 31 * v.l : 0), hi = v.c + (v.l > 0 ? 31 * v.l : 0);
            long long span = 1;
            while (span <= hi && span < (1LL << 31))
                span <<= 1;
            if (lo < 0 || hi >= span || (k.c & (span - 1)) != 0)
                return -1;
            r = (aff){v.c + k.c, 0, 0, v.l, 0};
        }
    } else if (base_is(op, "shl")) {
        if (!aff_const(y) || y.c < 0 || y.c > 30 || aff_scale(x, 1LL << y.c, &r))
            return -1;
    } else {                    /* mul, mad: one factor a value that folds */
        if (aff_const(y) ? aff_scale(x, y.c, &r) : aff_const(x) ? aff_scale(y, x.c, &r) : -1)
            return -1;
        r = (aff){r.c + z.c, r.t + z.t, r.g + z.g, r.l + z.l, r.w + z.w};
    }
    if (!in_range(r.c) || !in_range(r.t) || !in_range(r.g) || !in_range(r.l) || !in_range(r.w))
        return -1;
    *out = r;
    return 0;
}

/* fold_use for values that may depend on the thread. */
static int fold_aff_use(ctx *c, int r, int at, int depth, aff *a)
{
    long long v;
    if (fold_use(c, r, at, depth, &v) == 0) {
        *a = (aff){v, 0, 0, 0, 0};
        return 0;
    }
    int i = def_at(c, r, at);
    if (i < 0)
        return -1;
    if (c->astate[i] == 2) {
        *a = c->aval[i];
        return 0;
    }
    if (c->astate[i] != 0 || depth > TRIP_MAX_DEPTH)
        return -1;
    c->astate[i] = 1;
    int rc = aff_inst(c, i, r, depth, a);
    c->astate[i] = rc ? 3 : 2;
    if (!rc)
        c->aval[i] = *a;
    return rc;
}

/* The launch's warps a thread-dependent value is decided over: the lanes
 * of each warp of a CTA (tid.x 32 w .. 32 w + 31, below the block's x
 * size; blocks of more than one row only when a row holds whole warps),
 * in every CTA of the grid's x (ctaid.x) when it depends on it, else in
 * one; at most AFF_MAX_WARPS warps, CTAs evenly spaced when there are
 * more.  0 and the counts, or -1 when the launch is not known or the
 * warps do not follow tid.x. */
#define AFF_MAX_WARPS 4096

static int aff_warps(const ctx *c, bool by_cta, long *wpc, long *ncta, long *cta_step)
{
    if (!c->ntid || !c->nctaid || c->ntid[0] < 1 || c->nctaid[0] < 1)
        return -1;
    if ((long)c->ntid[1] * c->ntid[2] > 1 && c->ntid[0] % 32 != 0)
        return -1;
    *wpc = (c->ntid[0] + 31) / 32;
    long n = by_cta ? c->nctaid[0] : 1;
    long most = AFF_MAX_WARPS / *wpc > 0 ? AFF_MAX_WARPS / *wpc : 1;
    *ncta = n < most ? n : most;
    *cta_step = n / *ncta;
    return 0;
}

enum { C_LT, C_LE, C_GT, C_GE, C_EQ, C_NE };

/* The comparison of a setp's opcode; *uns for unsigned ones. */
static int setp_cmp(const char *op, bool *uns)
{
    static const struct { const char *s; int c; bool u; } t[] = {
        {".lt", C_LT, false}, {".le", C_LE, false}, {".gt", C_GT, false},
        {".ge", C_GE, false}, {".eq", C_EQ, false}, {".ne", C_NE, false},
        {".lo", C_LT, true},  {".ls", C_LE, true},  {".hi", C_GT, true},
        {".hs", C_GE, true}};
    if (!base_is(op, "setp") || strstr(op, ".f") || strstr(op, ".and") || strstr(op, ".or") ||
        strstr(op, ".xor"))
        return -1;
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (has_part(op, t[i].s)) {
            *uns = t[i].u || has_part(op, ".u16") || has_part(op, ".u32") ||
                   has_part(op, ".u64");
            return t[i].c;
        }
    return -1;
}

static bool compare(int cmp, long long a, long long b)
{
    switch (cmp) {
    case C_LT: return a < b;
    case C_LE: return a <= b;
    case C_GT: return a > b;
    case C_GE: return a >= b;
    case C_EQ: return a == b;
    default: return a != b;
    }
}

/* a CMP b written as b CMP' a. */
static int mirror(int cmp)
{
    static const int m[] = {C_GT, C_GE, C_LT, C_LE, C_EQ, C_NE};
    return m[cmp];
}

static int negate(int cmp)
{
    static const int n[] = {C_GE, C_GT, C_LE, C_LT, C_NE, C_EQ};
    return n[cmp];
}

static long long ceil_div(long long a, long long b)
{
    return a / b + (a % b != 0 && (a > 0) == (b > 0));
}

/* Body executions N of a loop continuing while v_k CMP B, v_k = v1 +
 * (k - 1) S (formulas in tripcount.h).  0, or -1 when the loop would not
 * end (or end only by wrapping around). */
static int trip_n(int cmp, bool uns, long long v1, long long s, long long b, long *n)
{
    if (cmp == C_LE)
        cmp = C_LT, b += 1;
    else if (cmp == C_GE)
        cmp = C_GT, b -= 1;
    long long k;
    if (!compare(cmp, v1, b)) {
        k = 1;
    } else if (cmp == C_LT) {
        if (s <= 0)
            return -1;
        k = 1 + ceil_div(b - v1, s);
    } else if (cmp == C_GT) {
        if (s >= 0)
            return -1;
        k = 1 + ceil_div(v1 - b, -s);
    } else if (cmp == C_NE) {
        if (s == 0 || (b - v1) % s != 0 || (b - v1) / s < 0)
            return -1;
        k = 1 + (b - v1) / s;
    } else {   /* C_EQ, v1 == B: the next value differs */
        if (s == 0)
            return -1;
        k = 2;
    }
    if (k < 1 || k > TRIP_MAX_N)
        return -1;
    long long last = v1 + (k - 1) * s;
    if (uns && (v1 < 0 || b < 0 || last < 0))
        return -1;   /* would wrap around */
    if (last <= -(1LL << 31) || last >= (1LL << 32))
        return -1;
    *n = (long)k;
    return 0;
}

/* How a loop's induction register steps: i = i + S, i - S, i >> S, i << S,
 * i * S or i / S. */
enum { IND_ADD, IND_SUB, IND_SHR, IND_SHL, IND_MUL, IND_DIV };

/* The value after v under a geometric step (IND_SHR .. IND_DIV, v >= 0);
 * -1 when it leaves the 32-bit range or stays where it is. */
static int induct(int kind, long long v, long long s, long long *out)
{
    if (v < 0)
        return -1;
    long long nv = kind == IND_SHR ? v >> s
                 : kind == IND_SHL ? (v < (1LL << 32) >> s ? v << s : -1)
                 : kind == IND_MUL ? (v < (1LL << 32) / s ? v * s : -1)
                 : v / s;
    if (nv < 0 || nv >= (1LL << 32) || nv == v)
        return -1;
    *out = nv;
    return 0;
}

/* Body executions N of a loop continuing while v_k CMP B, v_1 given and
 * v_{k+1} the geometric step of v_k: the first k whose compare fails, at
 * most 64 (a shift or a doubling leaves the 32-bit range sooner).  0, or
 * -1 when it would not end there. */
static int trip_iter(int cmp, bool uns, long long v1, int kind, long long s, long long b,
                     long *n)
{
    long long v = v1;
    if (uns && (v < 0 || b < 0))
        return -1;
    for (long k = 1; k <= 64; k++) {
        if (!compare(cmp, v, b)) {
            *n = k;
            return 0;
        }
        if (induct(kind, v, s, &v))
            return -1;
    }
    return -1;
}

/* Blocks of the natural loop of back edge b -> h into in[]. */
static int natural_loop(const rf_func *f, int b, int h, const int *pstart, const int *preds,
                        bool *in, int *stack)
{
    int nb = f->nblocks;
    memset(in, 0, (size_t)nb * sizeof *in);
    in[h] = true;
    int sp = 0;
    if (!in[b]) {
        in[b] = true;
        stack[sp++] = b;
    }
    while (sp) {
        int u = stack[--sp];
        for (int k = pstart[u]; k < pstart[u + 1]; k++) {
            int p = preds[k];
            if (!in[p]) {
                in[p] = true;
                stack[sp++] = p;
            }
        }
    }
    return 0;
}

/* Can `to` be reached from `from` inside the loop without entering
 * `avoid` (and without going round the back edge to h)? */
static bool reaches(const rf_func *f, const bool *in, int h, int from, int to, int avoid,
                    bool *seen, int *stack)
{
    int nb = f->nblocks;
    memset(seen, 0, (size_t)nb * sizeof *seen);
    int sp = 0;
    stack[sp++] = from;
    seen[from] = true;
    while (sp) {
        int u = stack[--sp];
        if (u == to)
            return true;
        const rf_block *bb = &f->blocks[u];
        for (int s = 0; s < bb->nsucc; s++) {
            int v = bb->succ[s];
            if (v < 0 || v >= nb || !in[v] || v == h || v == avoid || seen[v])
                continue;
            seen[v] = true;
            stack[sp++] = v;
        }
    }
    return false;
}

/* Runs block x once per iteration of the loop headed by h with latch b:
 * every path h -> b passes x, and x is on no cycle inside the loop. */
static bool once_per_iter(const rf_func *f, const bool *in, int h, int b, int x, bool *seen,
                          int *stack)
{
    if (x != h && x != b && reaches(f, in, h, h, b, x, seen, stack))
        return false;
    const rf_block *bx = &f->blocks[x];
    for (int s = 0; s < bx->nsucc; s++) {
        int v = bx->succ[s];
        if (v >= 0 && v < f->nblocks && in[v] && v != h && reaches(f, in, h, v, x, -1, seen, stack))
            return false;
    }
    return true;
}

/* The setp defining guard g of the branch closing block b, read. */
static int guard_setp(ctx *c, int i, stmt *st, bool *second)
{
    const rf_inst *br = &c->f->insts[i];
    return inst_stmt(c, i, br->guard, st, second);
}

/* Register r's definitions inside the loop (in[]) and outside it: how
 * many of each, and the last of each (-1 when none). */
static void defs_in_loop(const ctx *c, const bool *in, int r, int *last_in, int *nin,
                         int *last_out, int *nout)
{
    *last_in = *last_out = -1;
    *nin = *nout = 0;
    for (int i = 0; i < c->f->ninsts; i++)
        for (int d = 0; d < c->f->insts[i].ndefs; d++)
            if (c->f->insts[i].defs[d] == r) {
                if (in[c->blk[i]])
                    *last_in = i, (*nin)++;
                else
                    *last_out = i, (*nout)++;
            }
}

/* Try block b's back edge as a counted loop. */
/* A conditional branch the code decides: 1 taken, 0 not, -1 not decided.
 * Its setp compares two values that fold, or, with by_thread, values of
 * which one depends on the thread (aff) but which every thread of the
 * launch (aff_warps) compares the same way: where some threads go each
 * way a warp whose lanes split runs both sides, which one probability per
 * warp does not describe. */
static int decided_branch(ctx *c, int b, bool by_thread)
{
    const rf_func *f = c->f;
    const rf_block *bb = &f->blocks[b];
    const rf_inst *br = &f->insts[bb->first + bb->ninsts - 1];
    int g = br->guard;
    if (g < 0 || g >= f->nregs || c->ndefs[g] != 1)
        return -1;
    stmt st;
    bool second, uns;
    aff x, y;
    int d = c->def[g];
    if (guard_setp(c, d, &st, &second) || st.nops != 3 || f->insts[d].guard >= 0)
        return -1;
    int cmp = setp_cmp(st.op, &uns);
    if (cmp < 0 || aff_opnd(c, st.ops[1], d, 0, &x) || aff_opnd(c, st.ops[2], d, 0, &y))
        return -1;
    bool neg = (br->flags & RF_IF_GUARD_NEG) != 0;
    if (aff_const(x) && aff_const(y)) {
        if (uns && (x.c < 0 || y.c < 0))
            return -1;
        return (compare(cmp, x.c, y.c) != second) != neg;
    }
    long wpc, ncta, cstep;
    if (!by_thread || aff_warps(c, x.g != 0 || y.g != 0, &wpc, &ncta, &cstep))
        return -1;
    int way = -1;
    for (long j = 0; j < ncta; j++)
        for (long l = 0; l < c->ntid[0]; l++) {
            long long cta = j * cstep;
            long long u = aff_at(x, l, cta), v = aff_at(y, l, cta);
            if (uns && (u < 0 || v < 0))
                return -1;
            int t = (compare(cmp, u, v) != second) != neg;
            if (way >= 0 && t != way)
                return -1;
            way = t;
        }
    return way;
}

/* Body executions per entry of a loop whose start depends on the thread
 * (aff start, post-increment form, added step): per warp the most of its
 * lanes' counts (the warp runs the body while any lane does), the lanes
 * that enter (start CMP bound holds: the loop's guard lets them in) only,
 * averaged over the warps one lane of which enters.  0, or -1 when a
 * lane's loop would not end or no warp enters. */
static int aff_loop_mean(const ctx *c, int cmp, bool uns, aff a, long long step, long long bound,
                         double *mean)
{
    long wpc, ncta, cstep;
    if (aff_warps(c, a.g != 0, &wpc, &ncta, &cstep))
        return -1;
    double sum = 0;
    long warps = 0;
    for (long j = 0; j < ncta; j++)
        for (long w = 0; w < wpc; w++) {
            long best = 0;
            for (long l = 32 * w; l < 32 * w + 32 && l < c->ntid[0]; l++) {
                long long v = aff_at(a, l, j * cstep);
                if (!compare(cmp, v, bound))
                    continue;
                long n;
                if (trip_n(cmp, uns, v + step, step, bound, &n))
                    return -1;
                best = n > best ? n : best;
            }
            if (best > 0) {
                sum += (double)best;
                warps++;
            }
        }
    if (warps == 0)
        return -1;
    *mean = sum / (double)warps;
    return 0;
}

static int counted_loop(ctx *c, int b, bool *in, bool *seen, int *stack, const int *pstart,
                        const int *preds, double *mean)
{
    const rf_func *f = c->f;
    const rf_block *bb = &f->blocks[b];
    int h = bb->succ[1];
    const rf_inst *br = &f->insts[bb->first + bb->ninsts - 1];
    natural_loop(f, b, h, pstart, preds, in, stack);
    /* One way out: the latch's fall-through.  A loop that can also leave
     * by a break or a return runs its latch fewer times than the count. */
    for (int u = 0; u < f->nblocks; u++) {
        if (!in[u])
            continue;
        const rf_block *ub = &f->blocks[u];
        if (ub->nsucc == 0)
            return -1;
        for (int s = 0; s < ub->nsucc; s++)
            if (!in[ub->succ[s]] && !(u == b && s == 0))
                return -1;
    }
    /* The guard's one definition in the loop: a setp in block b. */
    int setp, ndef, gout, ngout;
    defs_in_loop(c, in, br->guard, &setp, &ndef, &gout, &ngout);
    if (ndef != 1 || c->blk[setp] != b)
        return -1;
    stmt st;
    bool second, uns;
    if (guard_setp(c, setp, &st, &second) || st.nops != 3)
        return -1;
    int cmp = setp_cmp(st.op, &uns);
    if (cmp < 0)
        return -1;
    if (second)
        cmp = negate(cmp);
    if (br->flags & RF_IF_GUARD_NEG)
        cmp = negate(cmp);
    /* Which operand is the induction register, or the sum of one and a
     * value that folds (x = i + D, written in the latch before the setp:
     * nvcc's 64-bit loops compare such a sum with 0), then compared as
     * i CMP B - D, at the point x is written. */
    for (int side = 1; side <= 2; side++) {
        const char *iv = st.ops[side], *bo = st.ops[3 - side];
        int r = iv[0] == '%' ? kir_map_get(&c->names, iv, strlen(iv)) : -1;
        if (r < 0)
            continue;
        int ref = setp;         /* where the compared value is read */
        long long adj = 0;      /* D */
        stmt xs;
        int inc, init, nin, nout, xi, xo, xin, xout;
        defs_in_loop(c, in, r, &xi, &xin, &xo, &xout);
        if (xin == 1 && xout == 0 && c->blk[xi] == b && xi < setp && f->insts[xi].guard < 0 &&
            inst_stmt(c, xi, r, &xs, NULL) == 0 && xs.nops == 3 && base_is(xs.op, "add") &&
            !strstr(xs.op, ".f")) {
            /* x = a + b: one of them an induction register, the other D. */
            int pick = -1;
            for (int q = 1; q <= 2 && pick < 0; q++) {
                int r2 = xs.ops[q][0] == '%' ? kir_map_get(&c->names, xs.ops[q], strlen(xs.ops[q]))
                                             : -1;
                long long dv;
                if (r2 >= 0 && r2 != r && fold_opnd(c, xs.ops[3 - q], xi, 0, &dv) == 0) {
                    pick = q;
                    adj = dv;
                    r = r2;
                }
            }
            if (pick < 0)
                continue;
            iv = xs.ops[pick];
            ref = xi;
        }
        defs_in_loop(c, in, r, &inc, &nin, &init, &nout);
        if (nout > 1) {
            /* Written more than once before the loop: the value it enters
             * with is the one definition reaching the header's edges from
             * outside the loop. */
            init = -1;
            for (int k = pstart[h]; k < pstart[h + 1]; k++) {
                int p = preds[k];
                if (in[p])
                    continue;
                int d = reaching_def_in(c, r, p, f->blocks[p].first + f->blocks[p].ninsts);
                if (d < 0 || in[c->blk[d]] || (init >= 0 && d != init)) {
                    init = -1;
                    break;
                }
                init = d;
            }
            nout = init >= 0 ? 1 : nout;
        }
        if (nin != 1 || nout != 1 || f->insts[inc].guard >= 0)
            continue;
        stmt is;
        if (inst_stmt(c, inc, r, &is, NULL) || is.nops != 3 || strstr(is.op, ".f"))
            continue;
        int kind = base_is(is.op, "add") ? IND_ADD : base_is(is.op, "sub") ? IND_SUB
                 : base_is(is.op, "shr") ? IND_SHR : base_is(is.op, "shl") ? IND_SHL
                 : base_is(is.op, "mul") && has_part(is.op, ".lo") ? IND_MUL
                 : base_is(is.op, "div") ? IND_DIV : -1;
        if (kind < 0)
            continue;
        long long step, start, bound;
        int other = strcmp(is.ops[1], iv) == 0 ? 2 : strcmp(is.ops[2], iv) == 0 ? 1 : -1;
        if (other < 0 || (other == 1 && kind != IND_ADD && kind != IND_MUL))
            continue;
        if (fold_opnd(c, is.ops[other], inc, 0, &step))
            continue;
        if (kind == IND_SUB)
            step = -step;
        if ((kind == IND_SHR || kind == IND_SHL) && (step < 1 || step > 31))
            continue;
        if ((kind == IND_MUL || kind == IND_DIV) && step < 2)
            continue;
        /* The bound is invariant in the loop. */
        if (bo[0] == '%') {
            int rb = kir_map_get(&c->names, bo, strlen(bo));
            int bi, bin, bo_, bout;
            if (rb < 0 || fold_use(c, rb, setp, 0, &bound))
                continue;
            defs_in_loop(c, in, rb, &bi, &bin, &bo_, &bout);
            if (bin > 0)
                continue;
        } else if (fold_opnd(c, bo, setp, 0, &bound)) {
            continue;
        }
        bound -= adj;
        if (!in_range(bound))
            continue;
        aff as;
        bool by_thread = false;
        if (fold_inst(c, init, r, 0, &start)) {
            if (kind != IND_ADD && kind != IND_SUB)
                continue;
            if (aff_inst(c, init, r, 0, &as) || aff_const(as))
                continue;
            by_thread = true;
        }
        int ib = c->blk[inc];
        if (!once_per_iter(f, in, h, b, ib, seen, stack) ||
            !once_per_iter(f, in, h, b, b, seen, stack))
            continue;
        bool post = ib != b || inc < ref;
        int k = side == 1 ? cmp : mirror(cmp);
        long n;
        if (by_thread) {
            if (!post || aff_loop_mean(c, k, uns, as, step, bound, mean))
                continue;
            return 0;
        }
        if (kind == IND_ADD || kind == IND_SUB) {
            if (trip_n(k, uns, post ? start + step : start, step, bound, &n))
                continue;
        } else {
            long long v1 = start;
            if (post && induct(kind, start, step, &v1))
                continue;
            if (trip_iter(k, uns, v1, kind, step, bound, &n))
                continue;
        }
        *mean = (double)n;
        return 0;
    }
    return -1;
}


int rf_trip_find(const rf_func *virt, const char *text, const rf_kparam *params, int nparams,
                 const int ntid[3], const int nctaid[3], rf_trip **out, int *n,
                 rf_trip_missing *miss, rf_err *err)
{
    if (miss)
        miss->n = 0;
    *out = NULL;
    *n = 0;
    const rf_func *f = virt;
    if (f->physical || f->nblocks == 0 || !text)
        return RF_OK;
    ctx c;
    memset(&c, 0, sizeof c);
    c.f = f;
    c.params = params;
    c.nparams = nparams;
    c.ntid = ntid;
    c.nctaid = nctaid;
    c.miss = miss;
    int nb = f->nblocks, ni = f->ninsts, nr = f->nregs;
    int rc = RF_OK;
    for (const char *s = text; *s; s++)
        if (*s == '\n')
            c.nlines++;
    c.nlines++;
    c.lines = malloc((size_t)c.nlines * sizeof *c.lines);
    c.ord = malloc((size_t)(ni ? ni : 1) * sizeof *c.ord);
    c.blk = malloc((size_t)(ni ? ni : 1) * sizeof *c.blk);
    c.ndefs = calloc((size_t)(nr ? nr : 1), sizeof *c.ndefs);
    c.def = calloc((size_t)(nr ? nr : 1), sizeof *c.def);
    c.state = calloc((size_t)(ni ? ni : 1), sizeof *c.state);
    c.val = calloc((size_t)(ni ? ni : 1), sizeof *c.val);
    c.astate = calloc((size_t)(ni ? ni : 1), sizeof *c.astate);
    c.aval = calloc((size_t)(ni ? ni : 1), sizeof *c.aval);
    int *pstart = calloc((size_t)nb + 1, sizeof *pstart);
    int *preds = malloc((size_t)nb * 2 * sizeof *preds);
    int *stack = malloc((size_t)nb * sizeof *stack);
    bool *in = malloc((size_t)nb * sizeof *in);
    bool *seen = malloc((size_t)nb * sizeof *seen);
    rf_trip *res = malloc((size_t)nb * sizeof *res);
    c.rd_seen = malloc((size_t)nb * sizeof *c.rd_seen);
    c.rd_stack = malloc((size_t)nb * sizeof *c.rd_stack);
    c.pstart = pstart;
    c.preds = preds;
    if (!c.lines || !c.ord || !c.blk || !c.ndefs || !c.def || !c.state || !c.val || !pstart ||
        !preds || !stack || !in || !seen || !res || !c.rd_seen || !c.rd_stack || !c.astate ||
        !c.aval) {
        rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory for trip counts");
        goto out;
    }
    int l = 0;
    c.lines[l++] = text;
    for (const char *s = text; *s; s++)
        if (*s == '\n')
            c.lines[l++] = s + 1;
    for (int r = 0; r < nr; r++) {
        const char *nm = f->regs[r].name;
        if (kir_map_put(&c.names, nm, strlen(nm), r)) {
            rc = rf_err_set(err, RF_ENOMEM, NULL, 0, 0, f->name, "out of memory for trip counts");
            goto out;
        }
    }
    for (int b = 0; b < nb; b++)
        for (int i = f->blocks[b].first; i < f->blocks[b].first + f->blocks[b].ninsts; i++)
            if (i >= 0 && i < ni)
                c.blk[i] = b;
    for (int i = 0; i < ni; i++) {
        const rf_inst *x = &f->insts[i];
        c.ord[i] = i > 0 && f->insts[i - 1].line == x->line ? c.ord[i - 1] + 1 : 0;
        for (int d = 0; d < x->ndefs; d++)
            if (x->defs[d] < nr) {
                c.ndefs[x->defs[d]]++;
                c.def[x->defs[d]] = i;
            }
    }
    /* Predecessor lists (CSR). */
    for (int b = 0; b < nb; b++)
        for (int s = 0; s < f->blocks[b].nsucc; s++)
            if (f->blocks[b].succ[s] >= 0 && f->blocks[b].succ[s] < nb)
                pstart[f->blocks[b].succ[s] + 1]++;
    for (int b = 0; b < nb; b++)
        pstart[b + 1] += pstart[b];
    {
        int *fill = stack;
        memcpy(fill, pstart, (size_t)nb * sizeof *fill);
        for (int b = 0; b < nb; b++)
            for (int s = 0; s < f->blocks[b].nsucc; s++) {
                int v = f->blocks[b].succ[s];
                if (v >= 0 && v < nb)
                    preds[fill[v]++] = b;
            }
    }
    int cnt = 0;
    for (int b = 0; b < nb; b++) {
        if (!rf_trip_is_cond(f, b))
            continue;
        rf_trip *t = &res[cnt];
        t->block = b;
        double trip;
        if (rf_trip_is_backedge(f, b)) {
            int k = decided_branch(&c, b, false);
            if (k == 0 || (k < 0 && counted_loop(&c, b, in, seen, stack, pstart, preds,
                                                 &trip) == 0)) {
                double m = k == 0 ? 1.0 : trip;
                t->loop = true;
                t->trip = lround(m);
                t->taken_p = (m - 1.0) / m;
                cnt++;
            }
        } else {
            int k = decided_branch(&c, b, true);
            if (k >= 0) {
                t->loop = false;
                t->trip = 0;
                t->taken_p = k;
                cnt++;
            }
        }
    }
    *out = res;
    *n = cnt;
    res = NULL;
out:
    kir_map_free(&c.names);
    free(c.lines);
    free(c.ord);
    free(c.blk);
    free(c.ndefs);
    free(c.def);
    free(c.state);
    free(c.val);
    free(pstart);
    free(preds);
    free(stack);
    free(in);
    free(seen);
    free(res);
    free(c.rd_seen);
    free(c.rd_stack);
    free(c.astate);
    free(c.aval);
    return rc;
}

/* ---- parameter names ---- */

static bool id_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* The last identifier of s[0..n) (array brackets and default values cut
 * by the caller) into out; false when there is none. */
static bool last_ident(const char *s, size_t n, char *out, size_t cap)
{
    while (n && !id_char(s[n - 1]))
        n--;
    size_t e = n;
    while (n && id_char(s[n - 1]))
        n--;
    if (e == n || isdigit((unsigned char)s[n]) || e - n >= cap)
        return false;
    memcpy(out, s + n, e - n);
    out[e - n] = '\0';
    return true;
}

/* Split the list between '(' at open and its ')' at depth 0 of (), [], <>
 * and {} into names; `cut` ends a piece early ("=" for default values,
 * "[" for arrays).  Returns the count or -1 when unbalanced. */
static int split_params(const char *open, const char *cut, char (*names)[128], int max)
{
    const char *p = open + 1, *piece = p;
    int depth = 0, n = 0;
    for (;; p++) {
        char c = *p;
        if (!c)
            return -1;
        if (c == '(' || c == '[' || c == '<' || c == '{') {
            depth++;
        } else if ((c == ')' || c == ']' || c == '>' || c == '}') && depth > 0) {
            depth--;
        } else if (depth == 0 && (c == ',' || c == ')')) {
            size_t len = (size_t)(p - piece), k = strcspn(piece, cut);
            if (k < len)
                len = k;
            char name[128];
            if (last_ident(piece, len, name, sizeof name) && strcmp(name, "void") != 0) {
                if (n < max)
                    snprintf(names[n], sizeof names[n], "%s", name);
                n++;
            }
            piece = p + 1;
            if (c == ')')
                return n < max ? n : max;
        }
    }
}

int rf_trip_ptx_params(const char *text, const char *entry, char (*names)[128], int max)
{
    size_t el = strlen(entry);
    for (const char *p = strstr(text, ".entry"); p; p = strstr(p + 6, ".entry")) {
        const char *q = p + 6;
        if (!isspace((unsigned char)*q))
            continue;
        while (isspace((unsigned char)*q))
            q++;
        if (strncmp(q, entry, el) != 0 || id_char(q[el]))
            continue;
        q += el;
        while (isspace((unsigned char)*q))
            q++;
        if (*q != '(')
            return 0;   /* no parameters */
        return split_params(q, "[", names, max);
    }
    return -1;
}

int rf_trip_cu_params(const char *text, const char *base, char (*names)[128], int max)
{
    size_t bl = strlen(base);
    if (!bl)
        return -1;
    for (const char *p = strstr(text, base); p; p = strstr(p + 1, base)) {
        if ((p > text && id_char(p[-1])) || id_char(p[bl]))
            continue;
        const char *q = p + bl;
        while (isspace((unsigned char)*q))
            q++;
        if (*q != '(')
            continue;
        /* A kernel: __global__ in the same declaration (looked for in the
         * 4096 characters before the name at most). */
        const char *d = p;
        while (d > text && p - d < 4096 && d[-1] != ';' && d[-1] != '}' && d[-1] != '{')
            d--;
        bool global = false;
        for (const char *g = d; g + 10 <= p && !global; g++)
            global = memcmp(g, "__global__", 10) == 0;
        if (!global)
            continue;
        return split_params(q, "=[", names, max);
    }
    return -1;
}

void rf_trip_base_name(const char *entry, char *out, size_t cap)
{
    snprintf(out, cap, "%s", entry);
    if (strncmp(entry, "_Z", 2) != 0)
        return;
    const char *p = entry + 2;
    bool nested = *p == 'N';
    if (nested)
        p++;
    const char *last = NULL;
    long lastn = 0;
    while (isdigit((unsigned char)*p)) {
        char *e;
        long n = strtol(p, &e, 10);
        if (n <= 0 || (long)strlen(e) < n)
            return;
        last = e;
        lastn = n;
        p = e + n;
        if (!nested)
            break;
    }
    if (last && (size_t)lastn < cap)
        snprintf(out, cap, "%.*s", (int)lastn, last);
}

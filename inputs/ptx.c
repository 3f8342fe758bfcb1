/* ptx.c - PTX reader: what `nvcc -ptx` writes (and older hand-written PTX)
 * into the kernel IR with virtual registers.
 *
 * Accepted: module directives (.version, .target, .address_size, .file,
 * .section, .pragma), module-scope variables with initialisers, .extern
 * .shared arrays, .entry/.func with parameters and performance directives,
 * function-scope .reg (including %r<27> ranges), .shared/.local/.const/.param
 * declarations, labels, guards (@%p, @!%p), typed opcodes with modifiers,
 * vector operands {%f1, %f2}, memory operands [%rd4+16] and [sym+4], call
 * with parameter lists, .branchtargets with brx.idx, special registers, float
 * immediates 0f.../0d....
 *
 * Every instruction gets an opcode class, its register definitions (the
 * first operand unless the opcode only reads or the first operand is an
 * address) and uses (every other register, including address registers).
 * A guarded definition does not kill the old value; liveness consumers read
 * the guard from rf_inst.guard.  Opcodes the reader does not know are
 * classed from their state-space suffix and operands and counted in
 * rf_func.unknown_ops.  Errors are "file:line:col: message" (RF_EPARSE).
 */
#include "kir.h"
#include "kir_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VREGS (1 << 20)   /* per function, guards against huge ranges */

/* ------------------------------------------------------------- lexer */

typedef enum { T_EOF, T_WORD, T_STR, T_PUNCT } tkind;

typedef struct tok {
    const char *s;
    int len;
    int line, col;
    tkind k;
} tok;

typedef struct ptx {
    const char *path;
    rf_err *err;
    tok *t;
    int nt, cap, i;
    rf_module *m;
    kir_map opmap;
    kir_map modsym;      /* module-scope variable -> index into modsz */
    int *modsz;          /* bytes of each module variable */
    unsigned char *modshared; /* 1 when that variable is .shared */
    int nmod, capmod, capmodsh;
    int *call_tok;       /* callee name token per module call edge */
    int capcalls, capcalltok;
} ptx;

static int perr(ptx *p, const tok *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int perr(ptx *p, const tok *t, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rf_err_set(p->err, RF_EPARSE, p->path, t ? t->line : 0,
                      t ? t->col : 0, NULL, "%s", msg);
}

static int nomem(ptx *p)
{
    return rf_err_set(p->err, RF_ENOMEM, p->path, 0, 0, NULL, "out of memory");
}

static bool word_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

static int push_tok(ptx *p, tkind k, const char *s, int len, int line, int col)
{
    if (kir_grow((void **)&p->t, &p->cap, p->nt, sizeof *p->t))
        return nomem(p);
    p->t[p->nt++] = (tok){s, len, line, col, k};
    return RF_OK;
}

static int lex(ptx *p, const char *text)
{
    const char *s = text;
    int line = 1;
    const char *bol = text;
    while (*s) {
        int col = (int)(s - bol) + 1;
        unsigned char c = (unsigned char)*s;
        if (c == '\n') {
            line++;
            s++;
            bol = s;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            s++;
            continue;
        }
        if (c == '/' && s[1] == '/') {
            while (*s && *s != '\n')
                s++;
            continue;
        }
        if (c == '/' && s[1] == '*') {
            int l0 = line, c0 = col;
            s += 2;
            while (*s && !(s[0] == '*' && s[1] == '/')) {
                if (*s == '\n') {
                    line++;
                    bol = s + 1;
                }
                s++;
            }
            if (!*s) {
                tok t = {s, 0, l0, c0, T_PUNCT};
                return perr(p, &t, "unterminated comment");
            }
            s += 2;
            continue;
        }
        if (c == '"') {
            const char *b = s++;
            while (*s && *s != '"' && *s != '\n') {
                if (*s == '\\' && s[1] && s[1] != '\n')
                    s++;
                s++;
            }
            if (*s != '"') {
                tok t = {b, 0, line, col, T_STR};
                return perr(p, &t, "unterminated string");
            }
            s++;
            if (push_tok(p, T_STR, b, (int)(s - b), line, col))
                return RF_ENOMEM;
            continue;
        }
        if (word_char(c)) {
            const char *b = s;
            while (*s) {
                if (word_char((unsigned char)*s)) {
                    s++;
                } else if (s[0] == ':' && s[1] == ':') {
                    s += 2;          /* .shared::cta, .L2::128B */
                } else if ((s[0] == '-' || s[0] == '+') && s > b &&
                           (s[-1] == 'e' || s[-1] == 'E') &&
                           isdigit((unsigned char)b[0]) &&
                           !(b[0] == '0' && (b[1] == 'f' || b[1] == 'F' ||
                                             b[1] == 'd' || b[1] == 'D' ||
                                             b[1] == 'x' || b[1] == 'X')) &&
                           isdigit((unsigned char)s[1])) {
                    s++;             /* 1.5e-3 */
                } else {
                    break;
                }
            }
            if (push_tok(p, T_WORD, b, (int)(s - b), line, col))
                return RF_ENOMEM;
            continue;
        }
        if (c >= 0x80 || c < 0x20) {
            tok t = {s, 1, line, col, T_PUNCT};
            return perr(p, &t, "unexpected byte 0x%02x", c);
        }
        if (push_tok(p, T_PUNCT, s, 1, line, col))
            return RF_ENOMEM;
        s++;
    }
    int col = (int)(s - bol) + 1;
    return push_tok(p, T_EOF, s, 0, line, col);
}

/* ------------------------------------------------------ token helpers */

static tok *cur(ptx *p) { return &p->t[p->i]; }
static tok *peek(ptx *p, int k)
{
    int j = p->i + k;
    return &p->t[j < p->nt ? j : p->nt - 1];
}
static tok *next(ptx *p)
{
    tok *t = &p->t[p->i];
    if (t->k != T_EOF)
        p->i++;
    return t;
}
static bool is_p(const tok *t, char c)
{
    return t->k == T_PUNCT && t->s[0] == c;
}
static bool is_w(const tok *t, const char *w)
{
    size_t n = strlen(w);
    return t->k == T_WORD && (size_t)t->len == n && memcmp(t->s, w, n) == 0;
}
static const char *tstr(const tok *t, char *buf, size_t cap)
{
    if (t->k == T_EOF)
        return "end of file";
    int n = t->len < (int)cap - 1 ? t->len : (int)cap - 1;
    memcpy(buf, t->s, (size_t)n);
    buf[n] = '\0';
    return buf;
}

static int expect(ptx *p, char c)
{
    tok *t = cur(p);
    if (!is_p(t, c)) {
        char b[40];
        return perr(p, t, "expected '%c', found '%s'", c, tstr(t, b, sizeof b));
    }
    next(p);
    return RF_OK;
}

/* Skip the rest of the source line of token t (line-oriented directives
 * such as .version, .target, .loc and .file). */
static void skip_line(ptx *p, int line)
{
    while (cur(p)->k != T_EOF && cur(p)->line == line)
        next(p);
}

/* Skip to the ';' that ends a statement, over balanced brackets. */
static int skip_stmt(ptx *p)
{
    int depth = 0;
    tok *start = cur(p);
    for (;;) {
        tok *t = cur(p);
        if (t->k == T_EOF)
            return perr(p, start, "statement not terminated by ';'");
        if (t->k == T_PUNCT) {
            if (t->s[0] == '{' || t->s[0] == '(' || t->s[0] == '[')
                depth++;
            else if (t->s[0] == '}' || t->s[0] == ')' || t->s[0] == ']') {
                if (depth == 0)
                    return perr(p, t, "unbalanced '%c'", t->s[0]);
                depth--;
            } else if (t->s[0] == ';' && depth == 0) {
                next(p);
                return RF_OK;
            }
        }
        next(p);
    }
}

/* Skip a balanced { ... } starting at the current '{'. */
static int skip_braces(ptx *p)
{
    tok *start = cur(p);
    int depth = 0;
    do {
        tok *t = next(p);
        if (t->k == T_EOF)
            return perr(p, start, "unbalanced '{'");
        if (is_p(t, '{'))
            depth++;
        else if (is_p(t, '}'))
            depth--;
    } while (depth > 0);
    return RF_OK;
}

static bool parse_int(const tok *t, long *v)
{
    char b[40];
    if (t->k != T_WORD || !isdigit((unsigned char)t->s[0]))
        return false;
    tstr(t, b, sizeof b);
    size_t n = strlen(b);
    if (n && (b[n - 1] == 'U' || b[n - 1] == 'u'))
        b[n - 1] = '\0';
    char *end;
    *v = strtol(b, &end, 0);
    return *end == '\0';
}

/* ------------------------------------------------------------ types */

/* 32-bit words of a PTX type (.pred = 0), -1 when not a type. */
static int type_words(const char *s, int n)
{
    static const struct { const char *name; int words; } types[] = {
        {".pred", 0}, {".b8", 1}, {".s8", 1}, {".u8", 1}, {".b16", 1},
        {".s16", 1}, {".u16", 1}, {".f16", 1}, {".bf16", 1}, {".b32", 1},
        {".s32", 1}, {".u32", 1}, {".f32", 1}, {".f16x2", 1},
        {".bf16x2", 1}, {".tf32", 1}, {".e4m3", 1}, {".e5m2", 1},
        {".e4m3x2", 1}, {".e5m2x2", 1}, {".b64", 2}, {".s64", 2},
        {".u64", 2}, {".f64", 2}, {".b128", 4}, {".texref", 2},
        {".samplerref", 2}, {".surfref", 2},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if ((int)strlen(types[i].name) == n &&
            memcmp(types[i].name, s, (size_t)n) == 0)
            return types[i].words;
    return -1;
}

/* Bytes of a PTX element type (for variable sizes), 0 when unknown. */
static int type_bytes(const char *s, int n)
{
    if (n >= 3 && s[0] == '.') {
        if (n == 5 && memcmp(s, ".pred", 5) == 0)
            return 1;
        int bits = 0;
        for (int i = 2; i < n && isdigit((unsigned char)s[i]) && bits < 1000;
             i++)
            bits = bits * 10 + (s[i] - '0');
        if (bits >= 8 && bits <= 128 && strchr("bsuf", s[1]))
            return bits / 8;
    }
    return 0;
}

/* ----------------------------------------------------- function state */

typedef struct fstate {
    rf_func *f;
    int capinst, capregs;
    kir_map regmap;      /* register name -> index into f->regs */
    kir_map labels;      /* label -> instruction index */
    kir_map locparam;    /* .param declared inside the body (call sequences) */
    kir_map btab;        /* .branchtargets table -> index into btargets */
    kir_map shused;      /* module .shared variables already counted */
    /* per instruction: its branch target label (token index) or -1 */
    int *tgt_tok, *tgt2_tok;
    int captgt, captgt2;
    int *bt_first;       /* .branchtargets: first/second label token */
    int nbt, capbt;
    /* Labels are scoped by { } blocks (inlined asm repeats its labels). */
    int *scope_parent;   /* parent of each scope; scope 0 is the body */
    int nscopes, capscopes, scope;
    int *inst_scope;     /* scope of each instruction */
    int capiscope;
    int *nounroll;       /* .pragma "nounroll": index of the next instruction */
    int nnounroll, capnounroll;
} fstate;

static void fstate_free(fstate *fs)
{
    kir_map_free(&fs->regmap);
    kir_map_free(&fs->labels);
    kir_map_free(&fs->locparam);
    kir_map_free(&fs->btab);
    kir_map_free(&fs->shused);
    free(fs->tgt_tok);
    free(fs->tgt2_tok);
    free(fs->bt_first);
    free(fs->scope_parent);
    free(fs->inst_scope);
    free(fs->nounroll);
}

/* Map key of a label in a scope: the name itself in the body's scope, else
 * "name\x01scope" (kir_build_cfg shows the part before \x01). */
static size_t label_key(char *buf, size_t cap, const tok *t, int scope)
{
    int n = scope == 0 ? snprintf(buf, cap, "%.*s", t->len, t->s)
                       : snprintf(buf, cap, "%.*s\x01%d", t->len, t->s, scope);
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

static int add_vreg(ptx *p, fstate *fs, const tok *at, const char *name,
                    size_t len, int words)
{
    int old = kir_map_get(&fs->regmap, name, len);
    if (old >= 0) {                 /* redeclared in a nested scope */
        if (words > fs->f->regs[old].words)
            fs->f->regs[old].words = (uint8_t)words;
        return RF_OK;
    }
    if (fs->f->nregs >= MAX_VREGS)
        return rf_err_set(p->err, RF_ELIMIT, p->path, at->line, at->col,
                          NULL, "more than %d registers declared", MAX_VREGS);
    if (kir_grow((void **)&fs->f->regs, &fs->capregs, fs->f->nregs,
                 sizeof *fs->f->regs))
        return nomem(p);
    rf_vreg *r = &fs->f->regs[fs->f->nregs];
    size_t n = len < sizeof r->name - 1 ? len : sizeof r->name - 1;
    memcpy(r->name, name, n);
    r->name[n] = '\0';
    r->words = (uint8_t)words;
    if (kir_map_put(&fs->regmap, name, len, fs->f->nregs))
        return nomem(p);
    fs->f->nregs++;
    return RF_OK;
}

/* .reg [.v2|.v4] .type name[<N>] {, name[<N>]} ; */
static int parse_reg_decl(ptx *p, fstate *fs)
{
    tok *start = next(p); /* .reg */
    int words = -1, vec = 1;
    while (cur(p)->k == T_WORD && cur(p)->s[0] == '.') {
        tok *t = next(p);
        if (is_w(t, ".v2"))
            vec = 2;
        else if (is_w(t, ".v4"))
            vec = 4;
        else if (is_w(t, ".v8"))
            vec = 8;
        else if (is_w(t, ".align")) {
            long a;
            if (!parse_int(cur(p), &a))
                return perr(p, cur(p), "expected alignment after .align");
            next(p);
        } else {
            int w = type_words(t->s, t->len);
            if (w < 0) {
                char b[40];
                return perr(p, t, "unknown register type '%s'",
                            tstr(t, b, sizeof b));
            }
            words = w;
        }
    }
    if (words < 0)
        return perr(p, start, ".reg without a type");
    if (words > 0)
        words *= vec;
    if (words > 4)
        words = 4;
    for (;;) {
        tok *nt = cur(p);
        if (nt->k != T_WORD || nt->s[0] == '.' ||
            isdigit((unsigned char)nt->s[0])) {
            char b[40];
            return perr(p, nt, "expected register name, found '%s'",
                        tstr(nt, b, sizeof b));
        }
        next(p);
        if (is_p(cur(p), '<')) {
            next(p);
            long cnt;
            tok *ct = cur(p);
            if (!parse_int(ct, &cnt) || cnt < 0)
                return perr(p, ct, "expected register count in '<N>'");
            if (cnt > MAX_VREGS)
                return rf_err_set(p->err, RF_ELIMIT, p->path, ct->line,
                                  ct->col, NULL,
                                  "register range of %ld exceeds %d", cnt,
                                  MAX_VREGS);
            next(p);
            int rc = expect(p, '>');
            if (rc)
                return rc;
            char name[64];
            if (nt->len > 40)
                return perr(p, nt, "register name too long");
            for (long k = 0; k < cnt; k++) {
                int n = snprintf(name, sizeof name, "%.*s%ld", nt->len, nt->s,
                                 k);
                rc = add_vreg(p, fs, nt, name, (size_t)n, words);
                if (rc)
                    return rc;
            }
        } else {
            int rc = add_vreg(p, fs, nt, nt->s, (size_t)nt->len, words);
            if (rc)
                return rc;
        }
        if (is_p(cur(p), ',')) {
            next(p);
            continue;
        }
        return expect(p, ';');
    }
}

/* A variable declaration (.global/.const/.shared/.local/.param/...):
 * returns its name token index and size in bytes (0 for [] or unknown). */
static int parse_var_decl(ptx *p, int *name_tok, long *bytes)
{
    int elem = 0, vec = 1;
    *name_tok = -1;
    *bytes = 0;
    while (cur(p)->k == T_WORD && cur(p)->s[0] == '.') {
        tok *t = next(p);
        if (is_w(t, ".align")) {
            long a;
            if (!parse_int(cur(p), &a))
                return perr(p, cur(p), "expected alignment after .align");
            next(p);
        } else if (is_w(t, ".v2")) {
            vec = 2;
        } else if (is_w(t, ".v4")) {
            vec = 4;
        } else if (is_w(t, ".ptr")) {
            /* .param .u64 .ptr .global .align 4 name */
        } else {
            int b = type_bytes(t->s, t->len);
            if (b)
                elem = b;
        }
    }
    tok *nt = cur(p);
    if (nt->k != T_WORD || isdigit((unsigned char)nt->s[0]))  {
        char b[40];
        return perr(p, nt, "expected variable name, found '%s'",
                    tstr(nt, b, sizeof b));
    }
    *name_tok = p->i;
    next(p);
    long count = 1;
    if (is_p(cur(p), '<')) {          /* parameterised names: skip */
        next(p);
        long n;
        if (!parse_int(cur(p), &n))
            return perr(p, cur(p), "expected count in '<N>'");
        next(p);
        int rc = expect(p, '>');
        if (rc)
            return rc;
    }
    while (is_p(cur(p), '[')) {
        next(p);
        long n = 0;
        if (!is_p(cur(p), ']')) {
            if (!parse_int(cur(p), &n) || n < 0)
                return perr(p, cur(p), "expected array size");
            next(p);
        }
        int rc = expect(p, ']');
        if (rc)
            return rc;
        if (n > (1L << 40) / (count ? count : 1))
            n = 0;
        count *= n;
    }
    *bytes = count * elem * vec;
    /* Initialiser, or the end of a parameter (',' / ')'). */
    if (is_p(cur(p), '=')) {
        tok *eq = next(p);
        int depth = 0;
        for (;;) {
            tok *t = cur(p);
            if (t->k == T_EOF)
                return perr(p, eq, "initialiser not terminated by ';'");
            if (is_p(t, '{') || is_p(t, '('))
                depth++;
            else if (is_p(t, '}') || is_p(t, ')')) {
                if (--depth < 0)
                    return perr(p, t, "unbalanced '%c'", t->s[0]);
            } else if (depth == 0 && (is_p(t, ';') || is_p(t, ',')))
                break;
            next(p);
        }
    }
    return RF_OK;
}

/* ------------------------------------------------------- instructions */

/* Special registers are read-only values, not allocatable registers. */
static bool special_reg(const char *s, int n)
{
    static const char *const pre[] = {
        "%tid", "%ntid", "%laneid", "%warpid", "%nwarpid", "%ctaid",
        "%nctaid", "%smid", "%nsmid", "%gridid", "%lanemask_", "%clock",
        "%pm", "%envreg", "%globaltimer", "%total_smem_size",
        "%aggr_smem_size", "%dynamic_smem_size", "%reserved_smem_offset",
        "%is_explicit_cluster", "%clusterid", "%nclusterid",
        "%cluster_ctaid", "%cluster_nctaid", "%cluster_ctarank",
        "%cluster_nctarank", "%current_graph_exec", "%warpsz",
    };
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) {
        size_t k = strlen(pre[i]);
        if ((size_t)n >= k && memcmp(s, pre[i], k) == 0)
            return true;
    }
    return false;
}

/* Register index of a word, -1 when it is not a declared register.  A
 * vector element suffix (%v1.x) is accepted. */
static int lookup_reg(fstate *fs, const tok *t)
{
    int r = kir_map_get(&fs->regmap, t->s, (size_t)t->len);
    if (r >= 0)
        return r;
    const char *dot = memchr(t->s, '.', (size_t)t->len);
    if (dot && dot > t->s) {
        size_t n = (size_t)(dot - t->s);
        return kir_map_get(&fs->regmap, t->s, n);
    }
    return -1;
}

typedef enum { OP_REG, OP_VEC, OP_MEM, OP_IMM, OP_SYM, OP_LIST } opkind;

typedef struct operand {
    opkind k;
    int regs[16];
    int nregs;
    int tok;          /* first token (symbol / label name) */
    int sym_tok;      /* MEM: symbol inside the brackets, -1 = none */
    bool sp_base;     /* MEM: address based on %SP */
} operand;

static void op_add(operand *o, int r)
{
    if (o->nregs < (int)(sizeof o->regs / sizeof o->regs[0]))
        o->regs[o->nregs++] = r;
}

/* A register-or-value word inside an operand; adds registers to o.
 * Unknown %names that are not special registers are errors. */
static int operand_word(ptx *p, fstate *fs, operand *o, const tok *t)
{
    if (isdigit((unsigned char)t->s[0]))
        return RF_OK;
    if (t->len == 1 && t->s[0] == '_')
        return RF_OK;
    int r = lookup_reg(fs, t);
    if (r >= 0) {
        op_add(o, r);
        return RF_OK;
    }
    if (t->s[0] == '%') {
        if (special_reg(t->s, t->len))
            return RF_OK;
        char b[40];
        return perr(p, t, "undeclared register '%s'", tstr(t, b, sizeof b));
    }
    return RF_OK;   /* a symbol */
}

/* Tokens up to the closing bracket: registers are collected, the first
 * symbol is remembered. */
static int parse_bracketed(ptx *p, fstate *fs, operand *o, char close)
{
    tok *open = next(p);
    int depth = 1;
    for (;;) {
        tok *t = cur(p);
        if (t->k == T_EOF || is_p(t, ';'))
            return perr(p, open, "missing '%c'", close);
        if (t->k == T_PUNCT) {
            char c = t->s[0];
            if (c == '[' || c == '{' || c == '(')
                depth++;
            else if (c == ']' || c == '}' || c == ')') {
                if (--depth == 0) {
                    if (c != close)
                        return perr(p, t, "expected '%c', found '%c'", close,
                                    c);
                    next(p);
                    return RF_OK;
                }
            } else if (!strchr("+-,|!*<>", c)) {
                return perr(p, t, "unexpected '%c' in operand", c);
            }
        } else if (t->k == T_WORD) {
            int r0 = o->nregs;
            int rc = operand_word(p, fs, o, t);
            if (rc)
                return rc;
            if (o->nregs == r0 && !isdigit((unsigned char)t->s[0]) &&
                t->s[0] != '%' && o->sym_tok < 0)
                o->sym_tok = p->i;
            if (is_w(t, "%SP"))
                o->sp_base = true;
        } else {
            return perr(p, t, "unexpected string in operand");
        }
        next(p);
    }
}

static int parse_operand(ptx *p, fstate *fs, operand *o)
{
    memset(o, 0, sizeof *o);
    o->tok = p->i;
    o->sym_tok = -1;
    tok *t = cur(p);
    if (is_p(t, '{')) {
        o->k = OP_VEC;
        return parse_bracketed(p, fs, o, '}');
    }
    if (is_p(t, '[')) {
        o->k = OP_MEM;
        return parse_bracketed(p, fs, o, ']');
    }
    if (is_p(t, '(')) {
        o->k = OP_LIST;
        return parse_bracketed(p, fs, o, ')');
    }
    if (is_p(t, '!') || is_p(t, '-') || is_p(t, '+') || is_p(t, '~')) {
        next(p);
        t = cur(p);
    }
    if (t->k != T_WORD) {
        char b[40];
        return perr(p, t, "expected operand, found '%s'", tstr(t, b, sizeof b));
    }
    int r0 = o->nregs;
    int rc = operand_word(p, fs, o, t);
    if (rc)
        return rc;
    if (isdigit((unsigned char)t->s[0]))
        o->k = OP_IMM;
    else if (o->nregs > r0)
        o->k = OP_REG;
    else if (t->s[0] == '%')
        o->k = OP_IMM;      /* special register */
    else {
        o->k = OP_SYM;
        o->tok = p->i;
    }
    next(p);
    /* %p1|%p2 (setp, shfl), sym+4, -1U style tails */
    while (is_p(cur(p), '|') || is_p(cur(p), '+') || is_p(cur(p), '-')) {
        next(p);
        tok *u = cur(p);
        if (u->k != T_WORD)
            return perr(p, u, "expected operand after operator");
        rc = operand_word(p, fs, o, u);
        if (rc)
            return rc;
        next(p);
    }
    return RF_OK;
}

/* Opcode knowledge: base name -> default class; -1 = decided later. */
typedef struct opinfo {
    const char *name;
    int cls;
    bool nodef;   /* never writes a register operand */
} opinfo;

enum { C_MEM = -1, C_MATH = -2 };

static const opinfo ptx_ops[] = {
    {"abs", C_MATH, 0}, {"add", C_MATH, 0}, {"addc", RF_OC_ALU, 0},
    {"sub", C_MATH, 0}, {"subc", RF_OC_ALU, 0}, {"mul", C_MATH, 0},
    {"mad", C_MATH, 0}, {"madc", RF_OC_ALU, 0}, {"mul24", RF_OC_ALU, 0},
    {"mad24", RF_OC_ALU, 0}, {"sad", RF_OC_ALU, 0}, {"div", C_MATH, 0},
    {"rem", RF_OC_ALU, 0}, {"min", C_MATH, 0}, {"max", C_MATH, 0},
    {"neg", C_MATH, 0}, {"popc", RF_OC_ALU, 0}, {"clz", RF_OC_ALU, 0},
    {"bfind", RF_OC_ALU, 0}, {"fns", RF_OC_ALU, 0}, {"brev", RF_OC_ALU, 0},
    {"bfe", RF_OC_ALU, 0}, {"bfi", RF_OC_ALU, 0}, {"bmsk", RF_OC_ALU, 0},
    {"szext", RF_OC_ALU, 0}, {"dp4a", RF_OC_ALU, 0}, {"dp2a", RF_OC_ALU, 0},
    {"and", RF_OC_ALU, 0}, {"or", RF_OC_ALU, 0}, {"xor", RF_OC_ALU, 0},
    {"not", RF_OC_ALU, 0}, {"cnot", RF_OC_ALU, 0}, {"lop3", RF_OC_ALU, 0},
    {"shl", RF_OC_ALU, 0}, {"shr", RF_OC_ALU, 0}, {"shf", RF_OC_ALU, 0},
    {"prmt", RF_OC_ALU, 0}, {"mov", RF_OC_ALU, 0}, {"cvt", C_MATH, 0},
    {"cvta", RF_OC_ALU, 0}, {"set", C_MATH, 0}, {"setp", C_MATH, 0},
    {"selp", RF_OC_ALU, 0}, {"slct", RF_OC_ALU, 0}, {"testp", C_MATH, 0},
    {"copysign", C_MATH, 0}, {"fma", C_MATH, 0}, {"isspacep", RF_OC_ALU, 0},
    {"vote", RF_OC_ALU, 0}, {"shfl", RF_OC_ALU, 0}, {"match", RF_OC_ALU, 0},
    {"activemask", RF_OC_ALU, 0}, {"redux", RF_OC_ALU, 0},
    {"elect", RF_OC_ALU, 0}, {"mapa", RF_OC_ALU, 0},
    {"getctarank", RF_OC_ALU, 0}, {"istypep", RF_OC_ALU, 0},
    {"mma", RF_OC_ALU, 0}, {"wmma", C_MEM, 0}, {"wgmma", RF_OC_ALU, 0},
    {"movmatrix", RF_OC_ALU, 0}, {"stacksave", RF_OC_ALU, 0},
    {"stackrestore", RF_OC_ALU, 1}, {"alloca", RF_OC_ALU, 0},
    {"createpolicy", RF_OC_ALU, 0}, {"vadd", RF_OC_ALU, 0},
    {"vsub", RF_OC_ALU, 0}, {"vabsdiff", RF_OC_ALU, 0},
    {"vmin", RF_OC_ALU, 0}, {"vmax", RF_OC_ALU, 0}, {"vshl", RF_OC_ALU, 0},
    {"vshr", RF_OC_ALU, 0}, {"vmad", RF_OC_ALU, 0}, {"vset", RF_OC_ALU, 0},
    {"vadd2", RF_OC_ALU, 0}, {"vsub2", RF_OC_ALU, 0},
    {"vavrg2", RF_OC_ALU, 0}, {"vabsdiff2", RF_OC_ALU, 0},
    {"vmin2", RF_OC_ALU, 0}, {"vmax2", RF_OC_ALU, 0},
    {"vset2", RF_OC_ALU, 0}, {"vadd4", RF_OC_ALU, 0},
    {"vsub4", RF_OC_ALU, 0}, {"vavrg4", RF_OC_ALU, 0},
    {"vabsdiff4", RF_OC_ALU, 0}, {"vmin4", RF_OC_ALU, 0},
    {"vmax4", RF_OC_ALU, 0}, {"vset4", RF_OC_ALU, 0},
    {"sin", RF_OC_SFU, 0}, {"cos", RF_OC_SFU, 0}, {"ex2", RF_OC_SFU, 0},
    {"lg2", RF_OC_SFU, 0}, {"tanh", RF_OC_SFU, 0}, {"rsqrt", C_MATH, 0},
    {"rcp", C_MATH, 0}, {"sqrt", C_MATH, 0},
    {"ld", C_MEM, 0}, {"ldu", C_MEM, 0}, {"st", C_MEM, 1},
    {"atom", RF_OC_ATOMIC, 0}, {"red", RF_OC_ATOMIC, 1},
    {"tex", RF_OC_LD_GLOBAL, 0}, {"tld4", RF_OC_LD_GLOBAL, 0},
    {"txq", RF_OC_ALU, 0}, {"suld", RF_OC_LD_GLOBAL, 0},
    {"sust", RF_OC_ST_GLOBAL, 1}, {"sured", RF_OC_ATOMIC, 1},
    {"suq", RF_OC_ALU, 0}, {"prefetch", RF_OC_LD_GLOBAL, 1},
    {"prefetchu", RF_OC_LD_GLOBAL, 1}, {"ldmatrix", RF_OC_LD_SHARED, 0},
    {"stmatrix", RF_OC_ST_SHARED, 1}, {"cp", C_MEM, 1},
    {"mbarrier", RF_OC_ATOMIC, 0}, {"discard", RF_OC_NOP, 1},
    {"applypriority", RF_OC_NOP, 1}, {"multimem", C_MEM, 0},
    {"tensormap", RF_OC_ALU, 1},
    {"bra", RF_OC_BRANCH, 1}, {"brx", RF_OC_BRANCH, 1},
    {"call", RF_OC_CALL, 0}, {"ret", RF_OC_EXIT, 1},
    {"exit", RF_OC_EXIT, 1}, {"trap", RF_OC_EXIT, 1},
    {"brkpt", RF_OC_NOP, 1}, {"bar", RF_OC_BARRIER, 1},
    {"barrier", RF_OC_BARRIER, 1}, {"membar", RF_OC_NOP, 1},
    {"fence", RF_OC_NOP, 1}, {"nanosleep", RF_OC_NOP, 1},
    {"pmevent", RF_OC_NOP, 1}, {"griddepcontrol", RF_OC_NOP, 1},
    {"setmaxnreg", RF_OC_NOP, 1},
};

static const opinfo *find_op(const char *s, int n)
{
    for (size_t i = 0; i < sizeof ptx_ops / sizeof ptx_ops[0]; i++)
        if ((int)strlen(ptx_ops[i].name) == n &&
            memcmp(ptx_ops[i].name, s, (size_t)n) == 0)
            return &ptx_ops[i];
    return NULL;
}

/* Does the dotted opcode carry modifier m (".global")? */
static bool has_mod(const char *op, int n, const char *m)
{
    size_t k = strlen(m);
    for (const char *s = op; s + k <= op + n; s++) {
        s = memchr(s, '.', (size_t)(op + n - s));
        if (!s || s + k > op + n)
            return false;
        if (memcmp(s, m, k) == 0 &&
            (s + k == op + n || s[k] == '.' || s[k] == ':'))
            return true;
    }
    return false;
}

/* Class of a load/store by state space. */
static int mem_class(const char *op, int n, bool store, bool is_entry,
                     ptx *p, fstate *fs, const operand *addr)
{
    if (has_mod(op, n, ".shared") || has_mod(op, n, ".shared::cta") ||
        has_mod(op, n, ".shared::cluster"))
        return store ? RF_OC_ST_SHARED : RF_OC_LD_SHARED;
    if (has_mod(op, n, ".local"))
        return store ? RF_OC_ST_LOCAL : RF_OC_LD_LOCAL;
    if (has_mod(op, n, ".const"))
        return store ? RF_OC_ST_GLOBAL : RF_OC_LD_CONST;
    if (has_mod(op, n, ".param")) {
        /* Kernel parameters live in the constant bank; .func parameters
         * and call-sequence parameters are register moves. */
        if (store || !is_entry)
            return RF_OC_ALU;
        if (addr && addr->sym_tok >= 0) {
            const tok *s = &p->t[addr->sym_tok];
            if (kir_map_get(&fs->locparam, s->s, (size_t)s->len) >= 0)
                return RF_OC_ALU;
        }
        return RF_OC_LD_CONST;
    }
    if (has_mod(op, n, ".global"))
        return store ? RF_OC_ST_GLOBAL : RF_OC_LD_GLOBAL;
    /* Generic addressing. */
    if (addr && addr->sp_base)
        return store ? RF_OC_ST_LOCAL : RF_OC_LD_LOCAL;
    if (addr && addr->sym_tok >= 0) {
        const tok *s = &p->t[addr->sym_tok];
        int v = kir_map_get(&p->modsym, s->s, (size_t)s->len);
        if (v >= 0 && p->modshared[v])
            return store ? RF_OC_ST_SHARED : RF_OC_LD_SHARED;
    }
    return store ? RF_OC_ST_GLOBAL : RF_OC_LD_GLOBAL;
}

static int classify(ptx *p, fstate *fs, const tok *opt, const opinfo *oi,
                    const operand *ops, int nops, bool *unknown)
{
    const char *op = opt->s;
    int n = opt->len;
    int blen = 0;
    while (blen < n && op[blen] != '.')
        blen++;
    bool f64 = has_mod(op, n, ".f64");
    bool is_entry = fs->f->is_entry;
    bool first_mem = nops > 0 && ops[0].k == OP_MEM;
    const operand *addr = NULL;
    for (int i = 0; i < nops; i++)
        if (ops[i].k == OP_MEM) {
            addr = &ops[i];
            break;
        }
    *unknown = false;
    if (!oi) {
        *unknown = true;
        bool spaced = has_mod(op, n, ".global") || has_mod(op, n, ".shared") ||
                      has_mod(op, n, ".local") || has_mod(op, n, ".const");
        if (spaced || addr)
            return mem_class(op, n, first_mem, is_entry, p, fs, addr);
        return f64 ? RF_OC_ALU64 : RF_OC_ALU;
    }
    if (oi->cls >= 0) {
        if (oi->cls == RF_OC_BARRIER &&
            (has_mod(op, n, ".arrive") || has_mod(op, n, ".warp")))
            return RF_OC_NOP;
        return oi->cls;
    }
    if (oi->cls == C_MEM) {
        if (blen == 2 && memcmp(op, "cp", 2) == 0) {
            if (has_mod(op, n, ".wait_group") || has_mod(op, n, ".wait_all"))
                return RF_OC_BARRIER;
            if (has_mod(op, n, ".commit_group"))
                return RF_OC_NOP;
            if (has_mod(op, n, ".reduce"))
                return RF_OC_ATOMIC;
            return RF_OC_LD_GLOBAL;
        }
        if (blen == 4 && memcmp(op, "wmma", 4) == 0) {
            if (has_mod(op, n, ".load"))
                return mem_class(op, n, false, is_entry, p, fs, addr);
            if (has_mod(op, n, ".store"))
                return mem_class(op, n, true, is_entry, p, fs, addr);
            return RF_OC_ALU;
        }
        if (blen == 8 && memcmp(op, "multimem", 8) == 0)
            return has_mod(op, n, ".ld_reduce") ? RF_OC_LD_GLOBAL
                                                : RF_OC_ATOMIC;
        bool store = blen == 2 && memcmp(op, "st", 2) == 0;
        return mem_class(op, n, store, is_entry, p, fs, addr);
    }
    /* C_MATH: fp64 goes to the slow pipe, f32 division/roots to the SFU. */
    bool sfu_op = (blen == 3 && (memcmp(op, "rcp", 3) == 0 ||
                                 memcmp(op, "div", 3) == 0)) ||
                  (blen == 4 && memcmp(op, "sqrt", 4) == 0) ||
                  (blen == 5 && memcmp(op, "rsqrt", 5) == 0);
    if (f64)
        return RF_OC_ALU64;
    if (sfu_op)
        return has_mod(op, n, ".f32") || has_mod(op, n, ".f16") ||
                       has_mod(op, n, ".approx")
                   ? RF_OC_SFU
                   : RF_OC_ALU;
    if (has_mod(op, n, ".wide") ||
        ((has_mod(op, n, ".s64") || has_mod(op, n, ".u64")) &&
         ((blen == 3 && (memcmp(op, "mul", 3) == 0 ||
                         memcmp(op, "mad", 3) == 0)))))
        return RF_OC_ALU64;
    return RF_OC_ALU;
}

/* Account a module .shared variable referenced by the function. */
static int note_symbol(ptx *p, fstate *fs, int ti)
{
    if (ti < 0)
        return RF_OK;
    const tok *s = &p->t[ti];
    int v = kir_map_get(&p->modsym, s->s, (size_t)s->len);
    if (v < 0 || !p->modshared[v])
        return RF_OK;
    if (kir_map_get(&fs->shused, s->s, (size_t)s->len) >= 0)
        return RF_OK;
    if (kir_map_put(&fs->shused, s->s, (size_t)s->len, 1))
        return nomem(p);
    long b = (long)fs->f->smem_static + p->modsz[v];
    fs->f->smem_static = b > (1L << 30) ? (1 << 30) : (int)b;
    return RF_OK;
}

#define MAX_OPS 64

static int parse_inst(ptx *p, fstate *fs)
{
    rf_func *f = fs->f;
    tok *first = cur(p);
    int guard = -1;
    bool neg = false;
    if (is_p(first, '@')) {
        next(p);
        if (is_p(cur(p), '!')) {
            neg = true;
            next(p);
        }
        tok *g = cur(p);
        if (g->k != T_WORD)
            return perr(p, g, "expected predicate after '@'");
        guard = lookup_reg(fs, g);
        if (guard < 0) {
            char b[40];
            return perr(p, g, "undeclared predicate '%s'", tstr(g, b, sizeof b));
        }
        if (f->regs[guard].words != 0) {
            char b[40];
            return perr(p, g, "guard '%s' is not a predicate",
                        tstr(g, b, sizeof b));
        }
        next(p);
    }
    tok *opt = cur(p);
    if (opt->k != T_WORD || opt->s[0] == '.' || opt->s[0] == '%' ||
        isdigit((unsigned char)opt->s[0])) {
        char b[40];
        return perr(p, opt, "expected an instruction, found '%s'",
                    tstr(opt, b, sizeof b));
    }
    next(p);
    int blen = 0;
    while (blen < opt->len && opt->s[blen] != '.')
        blen++;
    const opinfo *oi = find_op(opt->s, blen);

    operand ops[MAX_OPS];
    int nops = 0;
    if (!is_p(cur(p), ';')) {
        for (;;) {
            if (nops >= MAX_OPS)
                return perr(p, cur(p), "more than %d operands", MAX_OPS);
            int rc = parse_operand(p, fs, &ops[nops]);
            if (rc)
                return rc;
            nops++;
            if (is_p(cur(p), ',')) {
                next(p);
                continue;
            }
            break;
        }
    }
    if (!is_p(cur(p), ';')) {
        char b[40];
        return perr(p, cur(p), "expected ',' or ';', found '%s'",
                    tstr(cur(p), b, sizeof b));
    }
    next(p);

    rf_inst *in = kir_add_inst(f, &fs->capinst);
    if (!in)
        return nomem(p);
    /* Per-instruction arrays grow geometrically (kir_grow): a parser that
     * reallocates on every instruction is quadratic where realloc copies
     * (AddressSanitizer's always does). */
    if (kir_grow((void **)&fs->tgt_tok, &fs->captgt, f->ninsts - 1,
                 sizeof *fs->tgt_tok) ||
        kir_grow((void **)&fs->tgt2_tok, &fs->captgt2, f->ninsts - 1,
                 sizeof *fs->tgt2_tok))
        return nomem(p);
    fs->tgt_tok[f->ninsts - 1] = -1;
    fs->tgt2_tok[f->ninsts - 1] = -1;
    if (kir_grow((void **)&fs->inst_scope, &fs->capiscope, f->ninsts - 1,
                 sizeof *fs->inst_scope))
        return nomem(p);
    fs->inst_scope[f->ninsts - 1] = fs->scope;
    in->line = (uint32_t)opt->line;
    in->guard = (int16_t)guard;
    if (neg)
        in->flags |= RF_IF_GUARD_NEG;
    int opc = kir_opname(p->m, &p->opmap, opt->s, (size_t)blen);
    if (opc < 0)
        return nomem(p);
    in->opcode = (int16_t)opc;
    bool unknown;
    in->cls = (uint8_t)classify(p, fs, opt, oi, ops, nops, &unknown);
    if (unknown) {
        in->flags |= RF_IF_UNKNOWN;
        f->unknown_ops++;
    }
    if (has_mod(opt->s, opt->len, ".uni"))
        in->flags |= RF_IF_UNIFORM;
    if (has_mod(opt->s, opt->len, ".approx") ||
        (blen == 3 && memcmp(opt->s, "div", 3) == 0 && has_mod(opt->s, opt->len, ".full")))
        in->flags |= RF_IF_APPROX;

    bool is_call = in->cls == RF_OC_CALL;
    if (is_call) {
        int callee = -1;
        for (int i = 0; i < nops && callee < 0; i++)
            if (ops[i].k == OP_SYM)
                callee = ops[i].tok;
        if (callee >= 0) {
            rf_module *m = p->m;
            if (kir_grow((void **)&m->calls, &p->capcalls, m->ncalls,
                         sizeof *m->calls) ||
                kir_grow((void **)&p->call_tok, &p->capcalltok, m->ncalls,
                         sizeof *p->call_tok))
                return nomem(p);
            m->calls[m->ncalls] = (rf_call){m->nfuncs - 1, -1, f->ninsts - 1};
            p->call_tok[m->ncalls++] = callee;
        }
    }
    bool nodef = (oi && oi->nodef) || (nops > 0 && ops[0].k == OP_MEM);
    if (oi && oi->cls == RF_OC_BARRIER && has_mod(opt->s, opt->len, ".red"))
        nodef = false;
    for (int i = 0; i < nops; i++) {
        bool def;
        if (is_call)
            def = i == 0 && ops[0].k == OP_LIST;
        else
            def = i == 0 && !nodef;
        for (int k = 0; k < ops[i].nregs; k++) {
            if (def)
                kir_add_def(in, ops[i].regs[k]);
            else
                kir_add_use(in, ops[i].regs[k]);
        }
        if (ops[i].k == OP_MEM || ops[i].k == OP_SYM) {
            int rc = note_symbol(p, fs, ops[i].k == OP_MEM ? ops[i].sym_tok
                                                           : ops[i].tok);
            if (rc)
                return rc;
        }
    }
    if (nops == 2 && ops[0].k == OP_REG && ops[1].k == OP_REG &&
        in->ndefs == 1 && in->nuses == 1 &&
        ((blen == 3 && memcmp(opt->s, "mov", 3) == 0) ||
         (blen == 4 && memcmp(opt->s, "cvta", 4) == 0 &&
          has_mod(opt->s, opt->len, ".to"))))
        in->flags |= RF_IF_MOVE;
    /* Constants ptxas reads straight from the constant bank or encodes as
     * immediates: kernel parameters, constant-address loads, immediates,
     * launch-size special registers and the address of a variable (an
     * immediate or relocation: ptxas -v at sm_75 counts the same registers
     * for inputs/validation/stencil1d.ptx and transpose.ptx with their
     * shared arrays' addresses written as 0). */
    if (in->ndefs == 1 && in->nuses == 0 && guard < 0 && nops == 2) {
        if (in->cls == RF_OC_LD_CONST && ops[1].k == OP_MEM)
            in->flags |= RF_IF_CONST;
        if (blen == 3 && memcmp(opt->s, "mov", 3) == 0 && ops[1].k == OP_IMM) {
            const tok *v = &p->t[ops[1].tok];
            if (v->k == T_PUNCT)
                v = &p->t[ops[1].tok + 1];
            if (isdigit((unsigned char)v->s[0]) ||
                (v->len >= 5 && (memcmp(v->s, "%ntid", 5) == 0 ||
                                 (v->len >= 7 && memcmp(v->s, "%nctaid", 7) == 0))))
                in->flags |= RF_IF_CONST;
        }
        if (blen == 3 && memcmp(opt->s, "mov", 3) == 0 && ops[1].k == OP_SYM)
            in->flags |= RF_IF_CONST;
    }
    /* Branch targets: the label operand of bra; brx.idx names a table. */
    if (oi && oi->cls == RF_OC_BRANCH) {
        int lab = -1;
        for (int i = 0; i < nops; i++)
            if (ops[i].k == OP_SYM) {
                lab = ops[i].tok;
                break;
            }
        if (lab < 0)
            return perr(p, opt, "branch without a target label");
        if (blen == 3 && memcmp(opt->s, "brx", 3) == 0) {
            const tok *lt = &p->t[lab];
            int bt = kir_map_get(&fs->btab, lt->s, (size_t)lt->len);
            if (bt < 0) {
                char b[40];
                return perr(p, lt, "unknown .branchtargets table '%s'",
                            tstr(lt, b, sizeof b));
            }
            fs->tgt_tok[f->ninsts - 1] = fs->bt_first[2 * bt];
            fs->tgt2_tok[f->ninsts - 1] = fs->bt_first[2 * bt + 1];
        } else {
            fs->tgt_tok[f->ninsts - 1] = lab;
        }
    }
    return RF_OK;
}

/* label: .branchtargets L1, L2, ... ; */
static int parse_branchtargets(ptx *p, fstate *fs, const tok *name)
{
    next(p); /* .branchtargets */
    if (kir_grow((void **)&fs->bt_first, &fs->capbt, 2 * fs->nbt + 1,
                 sizeof *fs->bt_first))
        return nomem(p);
    if (kir_grow((void **)&fs->bt_first, &fs->capbt, 2 * fs->nbt + 2,
                 sizeof *fs->bt_first))
        return nomem(p);
    int k = 0;
    int *slot = &fs->bt_first[2 * fs->nbt];
    slot[0] = slot[1] = -1;
    for (;;) {
        tok *t = cur(p);
        if (t->k != T_WORD)
            return perr(p, t, "expected label in .branchtargets");
        if (k < 2)
            slot[k] = p->i;
        k++;
        next(p);
        if (is_p(cur(p), ',')) {
            next(p);
            continue;
        }
        break;
    }
    int rc = expect(p, ';');
    if (rc)
        return rc;
    if (kir_map_put(&fs->btab, name->s, (size_t)name->len, fs->nbt))
        return nomem(p);
    fs->nbt++;
    return RF_OK;
}

static int label_index(ptx *p, fstate *fs, int ti, int scope, int *out)
{
    const tok *t = &p->t[ti];
    char key[160];
    for (int sc = scope; sc >= 0; sc = sc ? fs->scope_parent[sc] : -1) {
        size_t n = label_key(key, sizeof key, t, sc);
        int v = kir_map_get(&fs->labels, key, n);
        if (v >= 0) {
            *out = v;
            return RF_OK;
        }
    }
    char b[64];
    return perr(p, t, "undefined label '%s'", tstr(t, b, sizeof b));
}

/* Body after '{' up to the matching '}'. */
static int parse_body(ptx *p, fstate *fs)
{
    rf_func *f = fs->f;
    int depth = 1;
    tok *endtok = NULL;
    for (;;) {
        tok *t = cur(p);
        if (t->k == T_EOF)
            return perr(p, t, "function '%s' not closed by '}'", f->name);
        if (is_p(t, '{')) {
            depth++;
            next(p);
            if (kir_grow((void **)&fs->scope_parent, &fs->capscopes,
                         fs->nscopes, sizeof *fs->scope_parent))
                return nomem(p);
            fs->scope_parent[fs->nscopes] = fs->scope;
            fs->scope = fs->nscopes++;
            continue;
        }
        if (is_p(t, '}')) {
            next(p);
            if (--depth == 0) {
                endtok = t;
                break;
            }
            fs->scope = fs->scope_parent[fs->scope];
            continue;
        }
        if (is_p(t, ';')) {
            next(p);
            continue;
        }
        if (t->k == T_WORD && is_p(peek(p, 1), ':') && t->s[0] != '.') {
            /* Label, possibly followed by .branchtargets/.callprototype. */
            next(p);
            next(p);
            if (is_w(cur(p), ".branchtargets")) {
                int rc = parse_branchtargets(p, fs, t);
                if (rc)
                    return rc;
                continue;
            }
            if (is_w(cur(p), ".callprototype") || is_w(cur(p), ".calltargets")) {
                int rc = skip_stmt(p);
                if (rc)
                    return rc;
                continue;
            }
            char key[160];
            size_t kl = label_key(key, sizeof key, t, fs->scope);
            if (kir_map_get(&fs->labels, key, kl) >= 0) {
                char b[64];
                return perr(p, t, "label '%s' defined twice",
                            tstr(t, b, sizeof b));
            }
            if (kir_map_put(&fs->labels, key, kl, f->ninsts))
                return nomem(p);
            continue;
        }
        if (t->k == T_WORD && t->s[0] == '.') {
            int rc = RF_OK;
            if (is_w(t, ".reg")) {
                rc = parse_reg_decl(p, fs);
            } else if (is_w(t, ".loc") || is_w(t, ".file")) {
                skip_line(p, t->line);
            } else if (is_w(t, ".pragma") || is_w(t, ".maxnreg") ||
                       is_w(t, ".maxntid") || is_w(t, ".reqntid") ||
                       is_w(t, ".minnctapersm")) {
                const tok *a = p->i + 1 < p->nt ? &p->t[p->i + 1] : NULL;
                if (is_w(t, ".pragma") && a && a->k == T_STR && a->len == 10 &&
                    memcmp(a->s, "\"nounroll\"", 10) == 0) {
                    if (kir_grow((void **)&fs->nounroll, &fs->capnounroll,
                                 fs->nnounroll, sizeof *fs->nounroll))
                        return nomem(p);
                    fs->nounroll[fs->nnounroll++] = f->ninsts;
                }
                rc = skip_stmt(p);
            } else if (is_w(t, ".shared") || is_w(t, ".local") ||
                       is_w(t, ".const") || is_w(t, ".global") ||
                       is_w(t, ".param") || is_w(t, ".tex") ||
                       is_w(t, ".texref") || is_w(t, ".samplerref") ||
                       is_w(t, ".surfref")) {
                next(p);
                int nt;
                long bytes;
                rc = parse_var_decl(p, &nt, &bytes);
                if (rc)
                    return rc;
                if (is_w(t, ".shared")) {
                    long b = (long)f->smem_static + bytes;
                    f->smem_static = b > (1L << 30) ? (1 << 30) : (int)b;
                } else if (is_w(t, ".local")) {
                    long b = (long)f->local_bytes + bytes;
                    f->local_bytes = b > (1L << 30) ? (1 << 30) : (int)b;
                } else if (is_w(t, ".param")) {
                    const tok *n = &p->t[nt];
                    if (kir_map_put(&fs->locparam, n->s, (size_t)n->len, 1))
                        return nomem(p);
                }
                while (is_p(cur(p), ',')) {   /* .param .b32 a, b; */
                    next(p);
                    tok *n = cur(p);
                    if (n->k != T_WORD)
                        return perr(p, n, "expected name after ','");
                    next(p);
                }
                rc = expect(p, ';');
            } else {
                char b[40];
                return perr(p, t, "unknown directive '%s' in function body",
                            tstr(t, b, sizeof b));
            }
            if (rc)
                return rc;
            continue;
        }
        int rc = parse_inst(p, fs);
        if (rc)
            return rc;
    }
    /* A branch to a label after the last instruction returns: add the
     * implicit return it lands on (an empty body gets one too). */
    bool end_label = false;
    for (int i = 0; i < f->ninsts && !end_label; i++) {
        int t1 = -1, t2 = -1;
        if (fs->tgt_tok[i] >= 0 &&
            label_index(p, fs, fs->tgt_tok[i], fs->inst_scope[i], &t1))
            rf_err_clear(p->err);   /* reported when the CFG is built */
        if (fs->tgt2_tok[i] >= 0 &&
            label_index(p, fs, fs->tgt2_tok[i], fs->inst_scope[i], &t2))
            rf_err_clear(p->err);
        end_label = t1 == f->ninsts || t2 == f->ninsts;
    }
    if (end_label || f->ninsts == 0) {
        rf_inst *in = kir_add_inst(f, &fs->capinst);
        if (!in)
            return nomem(p);
        if (kir_grow((void **)&fs->tgt_tok, &fs->captgt, f->ninsts - 1,
                     sizeof *fs->tgt_tok) ||
            kir_grow((void **)&fs->tgt2_tok, &fs->captgt2, f->ninsts - 1,
                     sizeof *fs->tgt2_tok))
            return nomem(p);
        fs->tgt_tok[f->ninsts - 1] = fs->tgt2_tok[f->ninsts - 1] = -1;
        in->cls = RF_OC_EXIT;
        in->line = (uint32_t)endtok->line;
        int opc = kir_opname(p->m, &p->opmap, "ret", 3);
        if (opc < 0)
            return nomem(p);
        in->opcode = (int16_t)opc;
    }
    /* Control information and the CFG. */
    kir_ctl *ctl = calloc((size_t)f->ninsts, sizeof *ctl);
    if (!ctl)
        return nomem(p);
    for (int i = 0; i < f->ninsts; i++) {
        ctl[i].target = ctl[i].target2 = -1;
        rf_inst *in = &f->insts[i];
        ctl[i].cond = in->guard >= 0;
        if (in->cls == RF_OC_EXIT)
            ctl[i].term = KIR_T_EXIT;
        if (fs->tgt_tok[i] >= 0) {
            ctl[i].term = KIR_T_BRANCH;
            int sc = fs->inst_scope[i];
            int rc = label_index(p, fs, fs->tgt_tok[i], sc, &ctl[i].target);
            if (!rc && fs->tgt2_tok[i] >= 0)
                rc = label_index(p, fs, fs->tgt2_tok[i], sc, &ctl[i].target2);
            if (rc) {
                free(ctl);
                return rc;
            }
        }
    }
    for (size_t k = 0; k < fs->labels.cap; k++) {
        if (!fs->labels.keys[k])
            continue;
        int i = fs->labels.vals[k];
        if (i < f->ninsts) {
            ctl[i].leader = true;
            if (!ctl[i].label)
                ctl[i].label = fs->labels.keys[k];
            else if (strcmp(fs->labels.keys[k], ctl[i].label) < 0)
                ctl[i].label = fs->labels.keys[k];   /* deterministic */
        }
    }
    int rc = kir_build_cfg(f, ctl);
    free(ctl);
    if (rc)
        return nomem(p);
    /* A pragma marks the block holding the instruction after it. */
    for (int k = 0; k < fs->nnounroll; k++)
        for (int b = 0; b < f->nblocks; b++)
            if (fs->nounroll[k] >= f->blocks[b].first &&
                fs->nounroll[k] < f->blocks[b].first + f->blocks[b].ninsts)
                f->blocks[b].nounroll = true;
    return RF_OK;
}

/* Parameter list "( .param .u64 a, .param .align 8 .b8 b[16] )". */
static int parse_params(ptx *p, int *count)
{
    int rc = expect(p, '(');
    if (rc)
        return rc;
    *count = 0;
    if (is_p(cur(p), ')')) {
        next(p);
        return RF_OK;
    }
    for (;;) {
        tok *t = cur(p);
        if (!(is_w(t, ".param") || is_w(t, ".reg")))
            return perr(p, t, "expected .param in parameter list");
        next(p);
        int nt;
        long bytes;
        rc = parse_var_decl(p, &nt, &bytes);
        if (rc)
            return rc;
        (*count)++;
        if (is_p(cur(p), ',')) {
            next(p);
            continue;
        }
        return expect(p, ')');
    }
}

static int parse_function(ptx *p, bool is_entry)
{
    tok *kw = next(p);  /* .entry / .func */
    int nret = 0;
    if (!is_entry && is_p(cur(p), '(')) {
        int rc = parse_params(p, &nret);
        if (rc)
            return rc;
    }
    tok *name = cur(p);
    if (name->k != T_WORD || name->s[0] == '.' || name->s[0] == '%') {
        char b[40];
        return perr(p, name, "expected function name after '%.*s', found '%s'",
                    kw->len, kw->s, tstr(name, b, sizeof b));
    }
    next(p);
    int nparams = 0;
    if (is_p(cur(p), '(')) {
        int rc = parse_params(p, &nparams);
        if (rc)
            return rc;
    }
    /* Performance directives and attributes up to the body or ';'. */
    while (!is_p(cur(p), '{') && !is_p(cur(p), ';')) {
        tok *t = cur(p);
        if (t->k == T_WORD || is_p(t, ','))
            next(p);
        else if (t->k == T_STR)
            next(p);
        else {
            char b[40];
            return perr(p, t, "unexpected '%s' before function body",
                        tstr(t, b, sizeof b));
        }
    }
    if (is_p(cur(p), ';')) {   /* prototype only */
        next(p);
        return RF_OK;
    }
    for (int i = 0; i < p->m->nfuncs; i++)
        if ((int)strlen(p->m->funcs[i].name) == name->len &&
            !strncmp(p->m->funcs[i].name, name->s, (size_t)name->len))
            return perr(p, name, "function '%.*s' has a second body", name->len, name->s);
    next(p); /* '{' */
    rf_func *f = kir_module_add_func(p->m);
    if (!f)
        return nomem(p);
    snprintf(f->name, sizeof f->name, "%.*s", name->len, name->s);
    f->is_entry = is_entry;
    f->nparams = nparams;
    fstate fs;
    memset(&fs, 0, sizeof fs);
    fs.f = f;
    fs.scope_parent = malloc(16 * sizeof *fs.scope_parent);
    if (!fs.scope_parent)
        return nomem(p);
    fs.capscopes = 16;
    fs.scope_parent[0] = 0;
    fs.nscopes = 1;
    int rc = parse_body(p, &fs);
    fstate_free(&fs);
    return rc;
}

static int add_modvar(ptx *p, int nt, long bytes, bool shared)
{
    if (kir_grow((void **)&p->modsz, &p->capmod, p->nmod, sizeof *p->modsz) ||
        kir_grow((void **)&p->modshared, &p->capmodsh, p->nmod, sizeof *p->modshared))
        return nomem(p);
    p->modsz[p->nmod] = bytes > (1L << 30) ? (1 << 30) : (int)bytes;
    p->modshared[p->nmod] = shared;
    const tok *n = &p->t[nt];
    if (kir_map_put(&p->modsym, n->s, (size_t)n->len, p->nmod))
        return nomem(p);
    p->nmod++;
    return RF_OK;
}

static int parse_module(ptx *p)
{
    bool is_extern = false;
    for (;;) {
        tok *t = cur(p);
        if (t->k == T_EOF)
            return RF_OK;
        if (is_p(t, ';')) {
            next(p);
            continue;
        }
        if (t->k != T_WORD || t->s[0] != '.') {
            char b[40];
            return perr(p, t, "unexpected '%s' at module scope",
                        tstr(t, b, sizeof b));
        }
        int rc = RF_OK;
        if (is_w(t, ".version")) {
            next(p);
            tok *v = cur(p);
            int maj = 0, min = 0;
            char b[40];
            tstr(v, b, sizeof b);
            if (v->k != T_WORD || sscanf(b, "%d.%d", &maj, &min) != 2)
                return perr(p, v, "expected MAJOR.MINOR after .version");
            p->m->ptx_major = maj;
            p->m->ptx_minor = min;
            skip_line(p, t->line);
        } else if (is_w(t, ".target")) {
            next(p);
            tok *v = cur(p);
            if (v->k != T_WORD || v->line != t->line)
                return perr(p, v, "expected a target after .target");
            snprintf(p->m->target, sizeof p->m->target, "%.*s", v->len, v->s);
            skip_line(p, t->line);
        } else if (is_w(t, ".address_size") || is_w(t, ".file") ||
                   is_w(t, ".loc")) {
            next(p);
            skip_line(p, t->line);
        } else if (is_w(t, ".section")) {
            next(p);
            while (cur(p)->k != T_EOF && !is_p(cur(p), '{'))
                next(p);
            rc = skip_braces(p);
        } else if (is_w(t, ".pragma") || is_w(t, ".alias")) {
            rc = skip_stmt(p);
        } else if (is_w(t, ".visible") || is_w(t, ".weak") ||
                   is_w(t, ".common")) {
            next(p);
            continue;
        } else if (is_w(t, ".extern")) {
            next(p);
            is_extern = true;
            continue;
        } else if (is_w(t, ".entry") || is_w(t, ".func")) {
            rc = parse_function(p, is_w(t, ".entry"));
        } else if (is_w(t, ".global") || is_w(t, ".const") ||
                   is_w(t, ".shared") || is_w(t, ".local") ||
                   is_w(t, ".tex") || is_w(t, ".texref") ||
                   is_w(t, ".samplerref") || is_w(t, ".surfref")) {
            bool shared = is_w(t, ".shared");
            next(p);
            int nt;
            long bytes;
            rc = parse_var_decl(p, &nt, &bytes);
            if (!rc)
                rc = add_modvar(p, nt, is_extern ? 0 : bytes, shared);
            if (!rc) {
                if (shared && !is_extern) {
                    long b = (long)p->m->smem_module + bytes;
                    p->m->smem_module = b > (1L << 30) ? (1 << 30) : (int)b;
                }
                while (!rc && is_p(cur(p), ',')) {
                    next(p);
                    if (cur(p)->k != T_WORD)
                        return perr(p, cur(p), "expected name after ','");
                    next(p);
                }
                if (!rc)
                    rc = expect(p, ';');
            }
        } else {
            char b[40];
            return perr(p, t, "unknown directive '%s'", tstr(t, b, sizeof b));
        }
        if (rc)
            return rc;
        is_extern = false;
    }
}

int rf_ptx_parse(const char *path, const char *text, rf_module **out,
                 rf_err *err)
{
    *out = NULL;
    ptx p;
    memset(&p, 0, sizeof p);
    p.path = path ? path : "<ptx>";
    p.err = err;
    p.m = kir_module_new(p.path, RF_CODE_PTX);
    if (!p.m)
        return rf_err_set(err, RF_ENOMEM, p.path, 0, 0, NULL, "out of memory");
    int rc = lex(&p, text ? text : "");
    if (!rc)
        rc = parse_module(&p);
    if (!rc && p.m->nfuncs == 0)
        rc = rf_err_set(err, RF_EPARSE, p.path, 0, 0, NULL, "%s",
                        p.nt <= 1 ? "empty PTX: no .entry or .func with a body, no instructions"
                                  : "no .entry or .func with a body: no instructions in the PTX");
    for (int c = 0; !rc && c < p.m->ncalls; c++) {
        const tok *t = &p.t[p.call_tok[c]];
        for (int f = 0; f < p.m->nfuncs; f++)
            if ((int)strlen(p.m->funcs[f].name) == t->len &&
                memcmp(p.m->funcs[f].name, t->s, (size_t)t->len) == 0)
                p.m->calls[c].callee = f;
    }
    free(p.call_tok);
    free(p.t);
    kir_map_free(&p.opmap);
    kir_map_free(&p.modsym);
    free(p.modsz);
    free(p.modshared);
    if (rc) {
        if (err && err->code == RF_OK)
            rf_err_set(err, rc, p.path, 0, 0, NULL, NULL);
        rf_module_destroy(p.m);
        return rc < 0 ? rc : RF_EPARSE;
    }
    *out = p.m;
    return RF_OK;
}

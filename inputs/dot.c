/* dot.c - reader for the Graphviz control-flow graphs `nvdisasm -cfg`
 * writes: one record node per basic block whose label holds the block's
 * SASS lines, separated by \l, with spaces and brackets escaped ("\ ",
 * "\[", "\{", "\<"), and ports <entry>, <exitN>, <exitpostN>; edges such as
 *     "A":exit0:e -> "B":entry:n [style=solid];
 * Functions are the graph's "cluster_NAME" subgraphs (else the nodes that
 * carry a ".text.NAME:" / "Function : NAME" line start a new function).
 *
 * The node lines are handed to the SASS reader in address order, every
 * node name becomes a label on its first instruction, and a branch whose
 * text gives no target (older listings lose them) takes the destination of
 * its exitN edge.  A reconvergence-stack pop (SYNC, NOP.S, BRK, CONT; see
 * sass.c) without a target in its text that ends its node and has no exitN
 * edge takes the node's plain edge: the one that leaves the address order
 * when there are two (a guarded pop also falls through), else the only
 * one.  The CFG is then built from the instructions by the same rules as
 * for SASS text, so a node that holds several branches (older nvdisasm)
 * still becomes several blocks.  Messages about a node's code name the
 * file line and column of the character in the record label.
 */
#include "kir.h"
#include "kir_internal.h"
#include "sass_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dtok {
    int kind;          /* 'w' word, 's' quoted string, punct char, 0 EOF */
    const char *s;     /* string body without quotes (escapes kept) */
    int len;
    int line, col;
} dtok;

typedef struct dnode {
    char *name;
    char *lines;       /* decoded lines, '\n'-separated */
    int *lpos, *cpos;  /* file line and column of each character of lines */
    int line, col;     /* where the label starts */
    int func;          /* function group */
    long first_addr;   /* address of its first instruction, -1 unknown */
    int order;
    int *insts;        /* instructions added (indices in the function) */
    int ninsts, capinsts;
} dnode;

typedef struct dedge {
    char *from, *to;
    int port;          /* exitN index, EDGE_POST from exitpostN, -1 other */
    int line, col;
} dedge;

#define EDGE_POST (-2)

typedef struct dot {
    const char *path;
    rf_err *err;
    dtok *t;
    int nt, cap, i;
    dnode *nodes;
    int nnodes, capnodes;
    dedge *edges;
    int nedges, capedges;
    char (*fnames)[128];
    int nfuncs, capfuncs;
} dot;

static int derr(dot *d, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int derr(dot *d, int line, int col, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rf_err_set(d->err, RF_EPARSE, d->path, line, col, NULL, "%s", msg);
}

static int nomem(dot *d)
{
    return rf_err_set(d->err, RF_ENOMEM, d->path, 0, 0, NULL, "out of memory");
}

/* --------------------------------------------------------------- lexer */

static int lex(dot *d, const char *text)
{
    const char *s = text, *bol = text;
    int line = 1;
    for (;;) {
        int col = (int)(s - bol) + 1;
        char c = *s;
        dtok t = {0, s, 0, line, col};
        if (c == '\0') {
            if (kir_grow((void **)&d->t, &d->cap, d->nt, sizeof *d->t))
                return nomem(d);
            d->t[d->nt++] = t;
            return RF_OK;
        }
        if (c == '\n') {
            line++;
            bol = ++s;
            continue;
        }
        if (isspace((unsigned char)c)) {
            s++;
            continue;
        }
        if ((c == '/' && s[1] == '/') || (c == '#' && col == 1)) {
            while (*s && *s != '\n')
                s++;
            continue;
        }
        if (c == '/' && s[1] == '*') {
            s += 2;
            while (*s && !(s[0] == '*' && s[1] == '/')) {
                if (*s == '\n') {
                    line++;
                    bol = s + 1;
                }
                s++;
            }
            if (!*s)
                return derr(d, t.line, t.col, "unterminated comment");
            s += 2;
            continue;
        }
        if (c == '"') {
            s++;
            t.kind = 's';
            t.s = s;
            while (*s && *s != '"') {
                if (*s == '\\' && s[1])
                    s++;
                if (*s == '\n') {
                    line++;
                    bol = s + 1;
                }
                s++;
            }
            if (!*s)
                return derr(d, t.line, t.col, "unterminated string");
            t.len = (int)(s - t.s);
            s++;
        } else if (isalnum((unsigned char)c) || c == '_' || c == '.' ||
                   c == '$') {
            t.kind = 'w';
            while (isalnum((unsigned char)*s) || *s == '_' || *s == '.' ||
                   *s == '$')
                s++;
            t.len = (int)(s - t.s);
        } else if (c == '-' && s[1] == '>') {
            t.kind = '>';
            t.len = 2;
            s += 2;
        } else if (strchr("{}[]=;,:", c)) {
            t.kind = c;
            t.len = 1;
            s++;
        } else if (c == '<') {
            /* HTML-like label <...>: keep as a string token. */
            int depth = 0;
            t.kind = 's';
            do {
                if (*s == '<')
                    depth++;
                else if (*s == '>')
                    depth--;
                else if (*s == '\n') {
                    line++;
                    bol = s + 1;
                }
                s++;
            } while (*s && depth > 0);
            if (depth)
                return derr(d, t.line, t.col, "unterminated '<'");
            t.len = (int)(s - t.s);
        } else {
            return derr(d, line, col, "unexpected character '%c'",
                        isprint((unsigned char)c) ? c : '?');
        }
        if (kir_grow((void **)&d->t, &d->cap, d->nt, sizeof *d->t))
            return nomem(d);
        d->t[d->nt++] = t;
    }
}

static dtok *cur(dot *d) { return &d->t[d->i]; }
static dtok *adv(dot *d)
{
    dtok *t = &d->t[d->i];
    if (t->kind)
        d->i++;
    return t;
}

static char *tok_dup(const dtok *t)
{
    char *s = malloc((size_t)t->len + 1);
    if (!s)
        return NULL;
    /* Only \" is an escape of the DOT string itself. */
    int n = 0;
    for (int i = 0; i < t->len; i++) {
        if (t->s[i] == '\\' && i + 1 < t->len && t->s[i + 1] == '"')
            i++;
        s[n++] = t->s[i];
    }
    s[n] = '\0';
    return s;
}

/* Decode a record label (the string token t, raw) into '\n'-separated
 * text lines: fields split at '|', braces dropped, <port> prefixes
 * removed, \l \n \r end a line, other backslash escapes give the
 * character.  *lp / *cp receive the file line and column each decoded
 * character came from, so messages point into the file. */
static int decode_record(const dtok *t, char **out, int **lp, int **cp)
{
    size_t n = (size_t)t->len;
    char *o = malloc(n + 2);
    int *lm = malloc((n + 2) * sizeof *lm);
    int *cm = malloc((n + 2) * sizeof *cm);
    if (!o || !lm || !cm) {
        free(o);
        free(lm);
        free(cm);
        return RF_ENOMEM;
    }
    const char *lab = t->s;
    int line = t->line, col = t->col + 1;   /* after the opening quote */
    size_t k = 0;
#define PUT(ch, l_, c_) do { o[k] = (ch); lm[k] = (l_); cm[k] = (c_); k++; } while (0)
    for (size_t i = 0; i < n; i++, col++) {
        char c = lab[i];
        int cl = line, cc = col;
        if (c == '\\' && i + 1 < n) {
            char e = lab[++i];
            col++;
            if (e == '\n') {
                line++;
                col = 0;
            }
            if (e == 'l' || e == 'n' || e == 'r')
                PUT('\n', cl, cc);
            else
                PUT(e == '\n' || e == '\r' ? ' ' : e, cl, cc);
            continue;
        }
        if (c == '\n') {
            line++;
            col = 0;
        }
        if (c == '{' || c == '}')
            continue;
        if (c == '|') {
            PUT('\n', cl, cc);
            continue;
        }
        if (c == '<') {   /* port name */
            const char *e = memchr(lab + i, '>', n - i);
            if (e) {
                for (; lab + i < e; i++, col++)
                    if (lab[i] == '\n') {
                        line++;
                        col = 0;
                    }
                continue;
            }
        }
        if (c == '\n' || c == '\r')
            c = ' ';
        PUT(c, cl, cc);
    }
    PUT('\n', line, col);
#undef PUT
    o[k] = '\0';
    *out = o;
    *lp = lm;
    *cp = cm;
    return RF_OK;
}

static int find_node(dot *d, const char *name)
{
    for (int i = 0; i < d->nnodes; i++)
        if (strcmp(d->nodes[i].name, name) == 0)
            return i;
    return -1;
}

/* Skip an attribute list [ a=b, c="d" ] and return the label value token. */
static int attr_list(dot *d, dtok **label)
{
    *label = NULL;
    dtok *open = adv(d);   /* '[' */
    for (;;) {
        dtok *t = cur(d);
        if (!t->kind)
            return derr(d, open->line, open->col, "unterminated '['");
        if (t->kind == ']') {
            adv(d);
            return RF_OK;
        }
        if (t->kind == ',' || t->kind == ';') {
            adv(d);
            continue;
        }
        if (t->kind != 'w' && t->kind != 's')
            return derr(d, t->line, t->col, "bad attribute");
        dtok *key = adv(d);
        if (cur(d)->kind == '=') {
            adv(d);
            dtok *v = adv(d);
            if (v->kind != 'w' && v->kind != 's')
                return derr(d, v->line, v->col, "bad attribute value");
            if (key->len == 5 && memcmp(key->s, "label", 5) == 0)
                *label = v;
        }
    }
}

/* A node id with optional :port[:compass]; returns the port text. */
static int node_id(dot *d, dtok **id, dtok **port)
{
    *id = adv(d);
    *port = NULL;
    if ((*id)->kind != 'w' && (*id)->kind != 's')
        return derr(d, (*id)->line, (*id)->col, "expected a node name");
    if (cur(d)->kind == ':') {
        adv(d);
        *port = adv(d);
        if ((*port)->kind != 'w' && (*port)->kind != 's')
            return derr(d, (*port)->line, (*port)->col, "bad port");
        if (cur(d)->kind == ':') {
            adv(d);
            dtok *cp = adv(d);
            if (cp->kind != 'w')
                return derr(d, cp->line, cp->col, "bad compass point");
        }
    }
    return RF_OK;
}

static int add_func_group(dot *d, const char *name, size_t len)
{
    if (kir_grow((void **)&d->fnames, &d->capfuncs, d->nfuncs,
                 sizeof *d->fnames))
        return nomem(d);
    snprintf(d->fnames[d->nfuncs], sizeof d->fnames[0], "%.*s", (int)len, name);
    d->nfuncs++;
    return RF_OK;
}

static int parse_stmts(dot *d, int depth, int *func);

static int parse_graph_body(dot *d, int depth, int *func)
{
    dtok *open = cur(d);
    if (open->kind != '{')
        return derr(d, open->line, open->col, "expected '{'");
    adv(d);
    int rc = parse_stmts(d, depth, func);
    if (rc)
        return rc;
    if (cur(d)->kind != '}')
        return derr(d, open->line, open->col, "unbalanced '{'");
    adv(d);
    return RF_OK;
}

static int parse_stmts(dot *d, int depth, int *func)
{
    if (depth > 32)
        return derr(d, cur(d)->line, cur(d)->col, "subgraphs nested too deep");
    for (;;) {
        dtok *t = cur(d);
        if (!t->kind || t->kind == '}')
            return RF_OK;
        if (t->kind == ';' || t->kind == ',') {
            adv(d);
            continue;
        }
        if (t->kind == '{') {
            int rc = parse_graph_body(d, depth + 1, func);
            if (rc)
                return rc;
            continue;
        }
        if (t->kind == 'w' && t->len == 8 && memcmp(t->s, "subgraph", 8) == 0) {
            adv(d);
            int saved = *func;
            if (cur(d)->kind == 'w' || cur(d)->kind == 's') {
                dtok *nm = adv(d);
                if (nm->len > 8 && memcmp(nm->s, "cluster_", 8) == 0) {
                    int rc = add_func_group(d, nm->s + 8, (size_t)nm->len - 8);
                    if (rc)
                        return rc;
                    *func = d->nfuncs - 1;
                }
            }
            int rc = parse_graph_body(d, depth + 1, func);
            if (rc)
                return rc;
            *func = saved;
            continue;
        }
        if (t->kind == 'w' && ((t->len == 4 && (memcmp(t->s, "node", 4) == 0 ||
                                                memcmp(t->s, "edge", 4) == 0)) ||
                               (t->len == 5 && memcmp(t->s, "graph", 5) == 0)) &&
            d->t[d->i + 1].kind == '[') {
            adv(d);
            dtok *lab;
            int rc = attr_list(d, &lab);
            if (rc)
                return rc;
            continue;
        }
        if (t->kind != 'w' && t->kind != 's')
            return derr(d, t->line, t->col, "unexpected '%.*s'",
                        t->len ? t->len : 1, t->s);
        dtok *id, *port;
        int rc = node_id(d, &id, &port);
        if (rc)
            return rc;
        if (cur(d)->kind == '=') {      /* graph attribute a = b */
            adv(d);
            dtok *v = adv(d);
            if (v->kind != 'w' && v->kind != 's')
                return derr(d, v->line, v->col, "bad attribute value");
            continue;
        }
        if (cur(d)->kind == '>') {      /* edge chain */
            dtok *from = id, *fport = port;
            while (cur(d)->kind == '>') {
                adv(d);
                dtok *to, *tport;
                rc = node_id(d, &to, &tport);
                if (rc)
                    return rc;
                if (kir_grow((void **)&d->edges, &d->capedges, d->nedges,
                             sizeof *d->edges))
                    return nomem(d);
                dedge *e = &d->edges[d->nedges];
                memset(e, 0, sizeof *e);
                e->from = tok_dup(from);
                e->to = tok_dup(to);
                d->nedges++;
                if (!e->from || !e->to)
                    return nomem(d);
                e->port = -1;
                e->line = from->line;
                e->col = from->col;
                if (fport && fport->len > 4 && memcmp(fport->s, "exit", 4) == 0 &&
                    isdigit((unsigned char)fport->s[4])) {
                    long v = strtol(fport->s + 4, NULL, 10);
                    e->port = v > 100000 ? 100000 : (int)v;
                } else if (fport && fport->len > 8 &&
                           memcmp(fport->s, "exitpost", 8) == 0) {
                    e->port = EDGE_POST;
                }
                from = to;
                fport = tport;
            }
            if (cur(d)->kind == '[') {
                dtok *lab;
                rc = attr_list(d, &lab);
                if (rc)
                    return rc;
            }
            continue;
        }
        /* Node statement. */
        dtok *lab = NULL;
        if (cur(d)->kind == '[') {
            rc = attr_list(d, &lab);
            if (rc)
                return rc;
        }
        char *name = tok_dup(id);
        if (!name)
            return nomem(d);
        int ni = find_node(d, name);
        if (ni < 0) {
            if (kir_grow((void **)&d->nodes, &d->capnodes, d->nnodes,
                         sizeof *d->nodes)) {
                free(name);
                return nomem(d);
            }
            ni = d->nnodes++;
            dnode *nd = &d->nodes[ni];
            memset(nd, 0, sizeof *nd);
            nd->name = name;
            nd->func = *func;
            nd->order = ni;
            nd->first_addr = -1;
            nd->line = id->line;
            nd->col = id->col;
        } else {
            free(name);
        }
        if (lab && lab->kind == 's') {
            dnode *nd = &d->nodes[ni];
            free(nd->lines);
            free(nd->lpos);
            free(nd->cpos);
            nd->lines = NULL;
            nd->lpos = nd->cpos = NULL;
            if (decode_record(lab, &nd->lines, &nd->lpos, &nd->cpos))
                return nomem(d);
            nd->line = lab->line;
            nd->col = lab->col;
        }
    }
}

/* First instruction address in a node's text ("/(*)0040(*)/" or "0040:"). */
static long node_addr(const char *s)
{
    for (const char *p = s; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        while (n && *p == ' ') {
            p++;
            n--;
        }
        if (n > 4 && p[0] == '/' && p[1] == '*') {
            char *end;
            long v = strtol(p + 2, &end, 16);
            if (end > p + 2 && end[0] == '*' && end[1] == '/')
                return v;
        }
        size_t k = 0;
        while (k < n && isxdigit((unsigned char)p[k]))
            k++;
        if (k >= 2 && k < n && p[k] == ':' && k + 1 < n)
            return strtol(p, NULL, 16);
        if (!e)
            break;
        p = e + 1;
    }
    return -1;
}

static const char *text_func_name(const char *s, size_t *len)
{
    const char *q = strstr(s, ".text.");
    if (q) {
        q += 6;
        size_t n = strcspn(q, ":\n ");
        if (n && q[n] == ':') {
            *len = n;
            return q;
        }
    }
    q = strstr(s, "Function : ");
    if (q) {
        q += 11;
        *len = strcspn(q, "\n ");
        return *len ? q : NULL;
    }
    return NULL;
}

/* Node order: by function, address, file order. */
static bool node_before(int a, int b, const void *ctx)
{
    const dnode *x = (const dnode *)ctx + a, *y = (const dnode *)ctx + b;
    if (x->func != y->func)
        return x->func < y->func;
    if (x->first_addr >= 0 && y->first_addr >= 0 &&
        x->first_addr != y->first_addr)
        return x->first_addr < y->first_addr;
    return x->order < y->order;
}

static int build(dot *d, rf_module *m)
{
    /* Function groups without clusters: split at nodes naming a function. */
    if (d->nfuncs == 0) {
        int cur_f = -1;
        for (int i = 0; i < d->nnodes; i++) {
            dnode *nd = &d->nodes[i];
            size_t len;
            const char *nm = nd->lines ? text_func_name(nd->lines, &len) : NULL;
            if (nm || cur_f < 0) {
                int rc = nm ? add_func_group(d, nm, len)
                            : add_func_group(d, nd->name, strlen(nd->name));
                if (rc)
                    return rc;
                cur_f = d->nfuncs - 1;
            }
            nd->func = cur_f;
        }
    } else {
        for (int i = 0; i < d->nnodes; i++)
            if (d->nodes[i].func < 0)
                d->nodes[i].func = 0;
    }
    for (int i = 0; i < d->nnodes; i++)
        d->nodes[i].first_addr = d->nodes[i].lines
                                     ? node_addr(d->nodes[i].lines)
                                     : -1;
    int *idx = malloc((d->nnodes > 0 ? (size_t)d->nnodes : 1) * sizeof *idx);
    if (!idx)
        return nomem(d);
    for (int i = 0; i < d->nnodes; i++)
        idx[i] = i;
    kir_sort_idx(idx, d->nnodes, node_before, d->nodes);

    sass_ctx *c = sass_ctx_new(m, m->path);
    if (!c) {
        free(idx);
        return nomem(d);
    }
    int rc = RF_OK, curfunc = -1;
    for (int k = 0; k < d->nnodes && !rc; k++) {
        dnode *nd = &d->nodes[idx[k]];
        if (nd->func != curfunc) {
            curfunc = nd->func;
            const char *fn = d->fnames[curfunc];
            rc = sass_begin_func(c, fn, strlen(fn), d->err);
            if (rc)
                break;
        }
        rc = sass_label(c, nd->name, strlen(nd->name), d->err);
        if (rc || !nd->lines)
            continue;
        for (const char *p = nd->lines; *p && !rc;) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            /* ".text.NAME:" and "Function :" start functions in listings;
             * inside a graph the grouping above already did that. */
            bool skip = (n > 6 && memcmp(p, ".text.", 6) == 0) ||
                        (n > 8 && memcmp(p, "Function", 8) == 0);
            int inst = -1;
            size_t at = (size_t)(p - nd->lines);
            if (!skip)
                rc = sass_line(c, p, n, nd->line, nd->col, nd->lpos + at,
                               nd->cpos + at, &inst, d->err);
            if (!rc && inst >= 0) {
                if (kir_grow((void **)&nd->insts, &nd->capinsts, nd->ninsts,
                             sizeof *nd->insts))
                    rc = nomem(d);
                else
                    nd->insts[nd->ninsts++] = inst;
            }
            if (!e)
                break;
            p = e + 1;
        }
        /* Edges from this node give targets the text left out: a branch's
         * exitN edge; for a stack pop that ends the node and has no such
         * port, its plain edge, the one that leaves the address order when
         * the graph draws two. */
        const char *next = k + 1 < d->nnodes &&
                                   d->nodes[idx[k + 1]].func == nd->func
                               ? d->nodes[idx[k + 1]].name
                               : NULL;
        int nbr = 0;
        for (int j = 0; j < nd->ninsts && !rc; j++) {
            int inst = nd->insts[j];
            if (!sass_is_branch(c, inst))
                continue;
            int port = nbr++;
            if (!sass_needs_target(c, inst))
                continue;
            const dedge *to = NULL;
            for (int e = 0; e < d->nedges && !to; e++)
                if (d->edges[e].port == port &&
                    strcmp(d->edges[e].from, nd->name) == 0)
                    to = &d->edges[e];
            if (!to && sass_is_pop(c, inst) && j == nd->ninsts - 1) {
                const dedge *seq = NULL;
                for (int e = 0; e < d->nedges && !to; e++) {
                    const dedge *ed = &d->edges[e];
                    if (ed->port != -1 || strcmp(ed->from, nd->name) != 0)
                        continue;
                    if (next && strcmp(ed->to, next) == 0)
                        seq = ed;
                    else
                        to = ed;
                }
                if (!to && !sass_is_cond(c, inst))
                    to = seq;
            }
            if (to)
                rc = sass_set_target(c, inst, to->to, strlen(to->to), d->err);
        }
    }
    /* A node only ever named in an edge must exist as a labelled block. */
    for (int e = 0; e < d->nedges && !rc; e++)
        if (find_node(d, d->edges[e].to) < 0)
            rc = derr(d, d->edges[e].line, d->edges[e].col,
                      "edge to undefined node '%s'", d->edges[e].to);
    if (!rc)
        rc = sass_finish(c, d->err);
    sass_ctx_free(c);
    free(idx);
    return rc;
}

int rf_dot_parse(const char *path, const char *text, rf_module **out,
                 rf_err *err)
{
    *out = NULL;
    dot d;
    memset(&d, 0, sizeof d);
    d.path = path ? path : "<dot>";
    d.err = err;
    rf_module *m = kir_module_new(d.path, RF_CODE_DOT);
    if (!m)
        return rf_err_set(err, RF_ENOMEM, d.path, 0, 0, NULL, "out of memory");
    int rc = lex(&d, text ? text : "");
    int func = -1;
    while (!rc && cur(&d)->kind) {
        dtok *t = cur(&d);
        if (t->kind == 'w' && t->len == 6 && memcmp(t->s, "strict", 6) == 0) {
            adv(&d);
            continue;
        }
        if (!(t->kind == 'w' && ((t->len == 7 && memcmp(t->s, "digraph", 7) == 0) ||
                                 (t->len == 5 && memcmp(t->s, "graph", 5) == 0)))) {
            rc = derr(&d, t->line, t->col, "expected 'digraph'");
            break;
        }
        adv(&d);
        if (cur(&d)->kind == 'w' || cur(&d)->kind == 's')
            adv(&d);
        rc = parse_graph_body(&d, 0, &func);
    }
    if (!rc && d.nnodes == 0)
        rc = derr(&d, 1, 1, "graph has no nodes");
    if (!rc)
        rc = build(&d, m);
    if (!rc && m->nfuncs == 0)
        rc = derr(&d, 1, 1, "graph holds no SASS instructions");
    for (int i = 0; i < d.nnodes; i++) {
        free(d.nodes[i].name);
        free(d.nodes[i].lines);
        free(d.nodes[i].lpos);
        free(d.nodes[i].cpos);
        free(d.nodes[i].insts);
    }
    for (int i = 0; i < d.nedges; i++) {
        free(d.edges[i].from);
        free(d.edges[i].to);
    }
    free(d.nodes);
    free(d.edges);
    free(d.fnames);
    free(d.t);
    if (rc) {
        rf_module_destroy(m);
        return rc;
    }
    *out = m;
    return RF_OK;
}

/* kir_internal.h - helpers shared by the kernel readers (PTX, SASS, dot) and
 * the register allocator: a string map, growable arrays, opcode-name
 * interning and the CFG builder that turns a linear instruction list into
 * basic blocks and edges.  Not part of the public API.
 */
#ifndef RF_KIR_INTERNAL_H
#define RF_KIR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kir.h"

/* Opcode names per module are capped so hostile inputs cannot grow the
 * table without bound; further distinct names share the last entry. */
#define KIR_MAX_OPNAMES 4096

/* Flag for instructions whose operand list did not fit RF_MAX_DEFS or
 * RF_MAX_USES (only the first entries are kept). */
#define KIR_IF_TRUNC RF_IF_TRUNC

/* ---- string -> int map (open addressing, keys copied) ---- */
typedef struct kir_map {
    char **keys;
    int *vals;
    size_t cap;     /* power of two or 0 */
    size_t count;
} kir_map;

void kir_map_free(kir_map *m);
/* Value for key (len bytes), or -1 when absent. */
int kir_map_get(const kir_map *m, const char *key, size_t len);
/* Insert or replace; 0 or RF_ENOMEM. */
int kir_map_put(kir_map *m, const char *key, size_t len, int val);

/* ---- growable array ---- */
/* Make room for one more element of size elem in *arr (count *n, capacity
 * *cap).  0 or RF_ENOMEM. */
int kir_grow(void **arr, int *cap, int n, size_t elem);

/* ---- sorting with a context (C11's qsort has none) ---- */
/* Stable sort of idx[0..n) by before(a, b, ctx) ("a goes first"): a merge
 * sort, or an insertion sort in place when no scratch memory is left. */
void kir_sort_idx(int *idx, int n, bool (*before)(int a, int b, const void *ctx),
                  const void *ctx);

/* ---- module helpers ---- */
rf_module *kir_module_new(const char *path, int kind);
/* Append a zeroed function; returns it or NULL (out of memory). */
rf_func *kir_module_add_func(rf_module *m);
/* Index of an opcode spelling in m->opnames (added when new); -1 = no memory.
 * map is the caller's lookup map for m->opnames. */
int kir_opname(rf_module *m, kir_map *map, const char *name, size_t len);
void kir_func_free_arrays(rf_func *f);

/* Append an instruction to f (capacity in *cap); returns it zeroed with
 * guard = -1 and target = -1, or NULL when out of memory. */
rf_inst *kir_add_inst(rf_func *f, int *cap);
/* Append a def / use register, setting KIR_IF_TRUNC when full. */
void kir_add_def(rf_inst *in, int reg);
void kir_add_use(rf_inst *in, int reg);

/* ---- CFG construction ---- */
enum kir_term {
    KIR_T_NONE = 0,   /* falls through */
    KIR_T_BRANCH,     /* jumps to target (and target2 when >= 0) */
    KIR_T_EXIT        /* leaves the function */
};

/* Control information per instruction, filled by a reader. */
typedef struct kir_ctl {
    int target;          /* branch target instruction, -1 = unknown */
    int target2;         /* second target (multi-way branch), -1 = none */
    uint8_t term;        /* enum kir_term */
    bool cond;           /* guarded: may also fall through */
    bool leader;         /* starts a block (a label is here) */
    const char *label;   /* label text for the block name, or NULL */
} kir_ctl;

/* Split f->insts into blocks using ctl[0..f->ninsts-1], fill f->blocks,
 * successor edges, each branch's target block and RF_IF_LOOPBACK.  0 or
 * RF_ENOMEM. */
int kir_build_cfg(rf_func *f, const kir_ctl *ctl);

/* rf_regalloc that also reports the most general-register words live
 * across any call instruction (*call_live, may be NULL). */
int kir_regalloc(const rf_func *virt, rf_func **out, int *call_live,
                 rf_err *err);

/* Read a whole file (NUL-terminated, embedded NULs rejected, a leading
 * UTF-8 byte-order mark dropped; a directory is RF_EIO). */
int kir_read_file(const char *path, char **text, size_t *len, rf_err *err);

#endif /* RF_KIR_INTERNAL_H */

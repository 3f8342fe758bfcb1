/* kir.h - rfkit's kernel intermediate representation.
 *
 * A module holds functions; a function holds instructions grouped into basic
 * blocks with CFG edges.  Every instruction has an opcode class (what the
 * timing model and the register analyses need) and its register definitions
 * and uses.
 *
 * Registers.  A function is either virtual (PTX as parsed: operands index the
 * function's regs[] table, any number of registers of any width) or physical
 * (SASS as given, or PTX after rf_regalloc): operands are 32-bit general
 * registers 0..255 (a 64-bit value is two operands, an aligned pair) and
 * predicate registers RF_PRED_BASE + 0..7.  RZ and PT are not operands.
 * All register analyses (liveness, intervals, CAC, ...) and the sampler work
 * on physical functions.
 */
#ifndef RF_KIR_H
#define RF_KIR_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/error.h"

#define RF_MAX_DEFS 8          /* e.g. ld.v4.f64 defines 8 words */
#define RF_MAX_USES 12         /* e.g. st.v4.f64 with a 64-bit address */
#define RF_MAX_GPR 256         /* physical 32-bit registers per thread */
#define RF_PRED_BASE 256       /* physical predicate P0 is register 256 */
#define RF_MAX_PRED 8

typedef enum rf_opclass {
    RF_OC_ALU,        /* integer / fp32 / conversion / move / setp */
    RF_OC_ALU64,      /* fp64 and wide multiply (slower pipe) */
    RF_OC_SFU,        /* transcendental: sin, cos, ex2, lg2, rsqrt, rcp, sqrt */
    RF_OC_LD_GLOBAL,
    RF_OC_ST_GLOBAL,
    RF_OC_LD_SHARED,
    RF_OC_ST_SHARED,
    RF_OC_LD_LOCAL,
    RF_OC_ST_LOCAL,
    RF_OC_LD_CONST,   /* constant and parameter space */
    RF_OC_ATOMIC,     /* atom / red, global or shared */
    RF_OC_BRANCH,     /* bra, conditional when guarded */
    RF_OC_BARRIER,    /* bar.sync / barrier.sync / BAR */
    RF_OC_CALL,       /* call to a .func */
    RF_OC_EXIT,       /* ret from the entry / exit */
    RF_OC_NOP,        /* no timing effect (labels are not instructions) */
    RF_OC_COUNT
} rf_opclass;

const char *rf_opclass_name(int cls);

/* Instruction flags. */
enum {
    RF_IF_UNKNOWN = 1u << 0,   /* opcode not known; class guessed */
    RF_IF_GUARD_NEG = 1u << 1, /* guard is @!p */
    RF_IF_UNIFORM = 1u << 2,   /* bra.uni */
    RF_IF_LOOPBACK = 1u << 3,  /* branch to an earlier-or-same block */
    RF_IF_TRUNC = 1u << 4,     /* more operands than RF_MAX_DEFS/USES; first kept */
    RF_IF_MOVE = 1u << 5,      /* plain register-to-register copy */
    RF_IF_CONST = 1u << 6,     /* defines a constant compilers fold into operands
                                  (kernel parameter, constant bank, immediate) */
    RF_IF_APPROX = 1u << 7     /* approximate math (.approx, div.full): no
                                  Newton sequence or slow-path call */
};

typedef struct rf_inst {
    uint8_t cls;                 /* rf_opclass */
    uint8_t flags;               /* RF_IF_* */
    uint8_t ndefs, nuses;
    int16_t guard;               /* guard predicate register, -1 = none */
    int16_t opcode;              /* index into rf_module.opnames */
    int32_t target;              /* branch target block, -1 = none */
    uint32_t line;               /* line in the source file */
    uint16_t defs[RF_MAX_DEFS];  /* registers written */
    uint16_t uses[RF_MAX_USES];  /* registers read (guard not included) */
} rf_inst;

typedef struct rf_block {
    int first;                   /* index of its first instruction */
    int ninsts;
    int nsucc;                   /* 0 (exit), 1 or 2 */
    int succ[2];                 /* succ[0] fall-through / not taken, succ[1] taken */
    char label[64];              /* label or generated name */
    bool has_taken;              /* the kernel spec's [branches] gives ... */
    double taken_p;              /* ... the probability succ[1] is taken */
    bool nounroll;               /* PTX .pragma "nounroll" in the block */
} rf_block;

/* Virtual register (PTX). */
typedef struct rf_vreg {
    char name[24];               /* "%r12", "%fd3", "%p1" */
    uint8_t words;               /* 32-bit words: 1, 2 (64-bit) or 4 (128); 0 = predicate */
} rf_vreg;

typedef struct rf_func {
    char name[128];
    bool is_entry;               /* .entry (kernel) vs .func */
    bool physical;               /* operands are physical registers */
    rf_inst *insts;
    int ninsts;
    rf_block *blocks;
    int nblocks;
    rf_vreg *regs;               /* virtual: register table; physical: NULL */
    int nregs;                   /* virtual: size of regs[]; physical: GPRs used */
    int npreds;                  /* physical: predicate registers used */
    int smem_static;             /* bytes of .shared declared in the function */
    int local_bytes;             /* bytes of .local (stack / spills) */
    int nparams;                 /* kernel parameters */
    int unknown_ops;             /* instructions whose opcode was not known */
    int spill_words;             /* physical from rf_regalloc: 32-bit words of
                                    values kept in local memory (spilled) */
    int regs_reported;           /* registers the listing states (nvdisasm
                                    SHI_REGISTERS, i.e. ptxas's count), 0 = none */
} rf_func;

typedef enum rf_code_kind { RF_CODE_PTX, RF_CODE_SASS, RF_CODE_DOT } rf_code_kind;

/* A call from one function of a module to another (PTX call). */
typedef struct rf_call {
    int caller;                  /* index into rf_module.funcs */
    int callee;                  /* index into rf_module.funcs, -1 = external */
    int inst;                    /* the call instruction in the caller */
} rf_call;

typedef struct rf_module {
    char path[512];
    int kind;                    /* rf_code_kind */
    char target[16];             /* PTX .target, e.g. "sm_75"; SASS arch if known */
    int ptx_major, ptx_minor;    /* PTX .version */
    rf_func *funcs;
    int nfuncs;
    char (*opnames)[32];         /* distinct opcode spellings (base names) */
    int nopnames;
    int smem_module;             /* bytes of module-scope .shared */
    rf_call *calls;              /* call edges between functions */
    int ncalls;
    uint64_t digest;             /* rf_digest of the file's text (set by rf_module_load) */
} rf_module;

void rf_module_destroy(rf_module *m);

/* Function by name (NULL = the first entry, or the first function). */
const rf_func *rf_module_func(const rf_module *m, const char *name);

/* Parse a file: kind chosen from its content (.version/.entry => PTX,
 * "digraph" => nvdisasm -cfg dot, else SASS text).  Errors are
 * "file:line:col: message". */
int rf_module_load(const char *path, rf_module **out, rf_err *err);
int rf_ptx_parse(const char *path, const char *text, rf_module **out, rf_err *err);
int rf_sass_parse(const char *path, const char *text, rf_module **out, rf_err *err);
int rf_dot_parse(const char *path, const char *text, rf_module **out, rf_err *err);

/* Register allocation of a virtual function into a new physical function
 * (64-bit values in aligned pairs, predicates in their own file, R1 kept
 * for the stack pointer, constants folded, values beyond 255 registers
 * spilled with local load/store code).  Blocks stay the same; instructions
 * may be reordered within a block (global loads early) and spill code
 * added.  *out is heap-allocated; free with rf_func_destroy. */
int rf_regalloc(const rf_func *virt, rf_func **out, rf_err *err);
/* Registers per thread within which ptxas schedules for latency alone: the
 * count that keeps a full SM of threads resident on the target (registers
 * per SM / threads per SM: 64 on sm_75, 32 on sm_70, sm_80 and sm_90).
 * Above it the allocator backs its load scheduling off step by step until
 * the count fits (or takes the fewest registers).  rf_regalloc uses 64, the
 * target nvcc writes by default for the bundled kernels (sm_75). */
#define RF_REGALLOC_BUDGET 64

/* The same under a per-thread register limit (nvcc's -maxrregcount, or the
 * GPU's max_regs_per_thread) and a budget as above: registers
 * R0..max_regs-1 only; values that do not fit are spilled to local memory
 * (out->spill_words > 0, out->nregs = max_regs), chosen as those live
 * longest for the fewest reads and writes.  RF_ERANGE when max_regs leaves
 * no room for the reload scratch. */
int rf_regalloc_cap(const rf_func *virt, int max_regs, int budget,
                    rf_func **out, rf_err *err);
void rf_func_destroy(rf_func *f);

/* Basic blocks per function that the readers and every analysis accept
 * (block frequencies, loops, liveness, register-intervals, allocation,
 * the CTA walks).  Each of them is linear in the blocks or nearly so
 * (times the loop depth, or the registers over 64 bits), so a function at
 * the limit takes seconds, not hours, and tens of megabytes.
 * rf_module_load refuses a file with a larger function, naming the file. */
#define RF_KIR_MAX_BLOCKS 65536

/* The RF_ELIMIT error for f over RF_KIR_MAX_BLOCKS: "path:line: f: N
 * blocks exceed ..." (line of the first block past the limit when known;
 * path NULL names the function alone, as an analysis that is handed a
 * function sees it). */
int rf_kir_block_limit(const rf_func *f, const char *path, rf_err *err);

#endif /* RF_KIR_H */

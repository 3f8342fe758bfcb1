/* ptxas.h - the register count ptxas allocates for a PTX entry, from
 * `ptxas -v`, when ptxas is on PATH.
 *
 * Only the entry asked for is compiled (ptxas -e NAME): on a module of 213
 * entries the whole-module compile took 1.2 s against 0.07 s for the rest
 * of an analysis.  Counts are cached by content: one file per (PTX text,
 * target, ptxas binary) under CACHE_DIR (or $XDG_CACHE_HOME/rfkit, else
 * $HOME/.cache/rfkit), holding the counts of the entries compiled so far.
 * The cache is optional: when it cannot be read or written ptxas just runs;
 * a cache file that does not match its key or does not parse is ignored and
 * replaced.
 */
#ifndef RF_PTXAS_H
#define RF_PTXAS_H

/* How a count was obtained. */
typedef enum rf_ptxas_how {
    RF_PTXAS_NONE = 0,    /* no count: ptxas absent, failed or silent */
    RF_PTXAS_CACHED,      /* from the cache */
    RF_PTXAS_RAN          /* ptxas ran (and the cache was updated) */
} rf_ptxas_how;

/* Registers per thread ptxas gives entry `entry` of the PTX file path for
 * target ("sm_75"), or -1 (see *how, may be NULL).  entry NULL or "":
 * the first entry ptxas reports, compiling the whole module.  An entry
 * name cut at 127 characters (rf_func.name) matches as a prefix, after a
 * whole-module compile.  cache_dir NULL: the default folder; "" : no
 * cache. */
int rf_ptxas_regs(const char *path, const char *target, const char *entry,
                  const char *cache_dir, rf_ptxas_how *how);

/* Make sure the cache holds the counts of entries[0..n): when any is
 * missing, compile the whole module once (faster than one compile per
 * entry when most are asked for).  The number of them cached after, or
 * -1 (no ptxas, no cache, ptxas failed). */
int rf_ptxas_prime(const char *path, const char *target, const char *const *entries, int n,
                   const char *cache_dir);

#endif /* RF_PTXAS_H */

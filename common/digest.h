/* digest.h - a 64-bit content digest (FNV-1a) for telling files apart.
 *
 * Not cryptographic: it tells whether a calibration record or a cache entry
 * was made from the same bytes, where an accidental match among a user's
 * few kernels is the only risk (about n^2 / 2^65 for n distinct texts).
 */
#ifndef RF_DIGEST_H
#define RF_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a 64 offset basis: the digest of nothing. */
#define RF_DIGEST_INIT UINT64_C(0xcbf29ce484222325)

/* Continue digest h over the n bytes at p (start from RF_DIGEST_INIT). */
uint64_t rf_digest(uint64_t h, const void *p, size_t n);

/* The same over a NUL-terminated string, its terminator included, so that
 * a sequence of strings digests differently from their concatenation. */
uint64_t rf_digest_str(uint64_t h, const char *s);

#endif /* RF_DIGEST_H */

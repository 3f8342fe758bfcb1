/* digest.c - FNV-1a 64 (see digest.h). */
#include "digest.h"

#include <string.h>

uint64_t rf_digest(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= UINT64_C(0x100000001b3);    /* FNV 64-bit prime */
    }
    return h;
}

uint64_t rf_digest_str(uint64_t h, const char *s)
{
    return rf_digest(h, s, strlen(s) + 1);
}

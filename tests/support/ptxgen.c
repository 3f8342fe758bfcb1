/* ptxgen.c - PTX modules of many entries (see ptxgen.h). */
#include "ptxgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append printf-style text to *buf (length *n, capacity *cap). */
static int put(char **buf, size_t *n, size_t *cap, const char *fmt, int a, int b)
{
    char line[256];
    int k = snprintf(line, sizeof line, fmt, a, b);
    if (k < 0 || (size_t)k >= sizeof line)
        return -1;
    if (*n + (size_t)k + 1 > *cap) {
        size_t c = *cap ? *cap * 2 : 1 << 16;
        while (*n + (size_t)k + 1 > c)
            c *= 2;
        char *p = realloc(*buf, c);
        if (!p)
            return -1;
        *buf = p;
        *cap = c;
    }
    memcpy(*buf + *n, line, (size_t)k + 1);
    *n += (size_t)k;
    return 0;
}

char *rf_test_ptx_entries(int n)
{
    char *b = NULL;
    size_t len = 0, cap = 0;
    int rc = put(&b, &len, &cap, ".version 8.0\n.target sm_75\n.address_size 64\n", 0, 0);
    for (int i = 0; i < n && !rc; i++) {
        int m = 1 + i % 16;    /* FMAs in the chain */
        rc |= put(&b, &len, &cap, "\n.visible .entry k%d(\n\t.param .u64 k%d_p0,\n", i, i);
        rc |= put(&b, &len, &cap, "\t.param .u32 k%d_p1\n)\n{\n\t.reg .pred %%p<2>;\n", i, 0);
        rc |= put(&b, &len, &cap, "\t.reg .f32 %%f<%d>;\n\t.reg .b32 %%r<4>;\n", m + 2, 0);
        rc |= put(&b, &len, &cap, "\t.reg .b64 %%rd<5>;\n\n\tld.param.u64 %%rd1, [k%d_p0];\n", i, 0);
        rc |= put(&b, &len, &cap, "\tld.param.u32 %%r1, [k%d_p1];\n\tmov.u32 %%r2, %%tid.x;\n", i, 0);
        rc |= put(&b, &len, &cap, "\tsetp.ge.s32 %%p1, %%r2, %%r1;\n\t@%%p1 bra $L__BB%d_2;\n", i, 0);
        rc |= put(&b, &len, &cap, "\tcvta.to.global.u64 %%rd2, %%rd1;\n"
                                  "\tmul.wide.s32 %%rd3, %%r2, 4;\n", 0, 0);
        rc |= put(&b, &len, &cap, "\tadd.s64 %%rd4, %%rd2, %%rd3;\n"
                                  "\tld.global.f32 %%f1, [%%rd4];\n", 0, 0);
        for (int j = 1; j <= m && !rc; j++)
            rc |= put(&b, &len, &cap, "\tfma.rn.f32 %%f%d, %%f%d, 0f3F000000, %%f1;\n",
                      j + 1, j);
        rc |= put(&b, &len, &cap, "\tst.global.f32 [%%rd4], %%f%d;\n", m + 1, 0);
        rc |= put(&b, &len, &cap, "$L__BB%d_2:\n\tret;\n}\n", i, 0);
    }
    if (rc) {
        free(b);
        return NULL;
    }
    return b;
}

int rf_test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    size_t n = strlen(text);
    int rc = fwrite(text, 1, n, f) == n ? 0 : -1;
    if (fclose(f))
        rc = -1;
    return rc;
}

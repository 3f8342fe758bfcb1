/* clirun.c - end-to-end test helpers (see clirun.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clirun.h"

/* Set once by clirun_init before any test runs; tests only read it. */
static char binary[512];

int clirun_init(const char *argv0)
{
    const char *env = getenv("RFKIT");
    if (env) {
        snprintf(binary, sizeof binary, "%s", env);
    } else {
        snprintf(binary, sizeof binary, "%s", argv0);
        char *slash = strrchr(binary, '/');
        if (slash)
            *slash = '\0';
        slash = strrchr(binary, '/');
        if (slash)
            snprintf(slash, sizeof binary - (size_t)(slash - binary), "/rfkit");
        else
            snprintf(binary, sizeof binary, "build/rfkit");
    }
    if (access(binary, X_OK) != 0) {
        fprintf(stderr, "%s: %s is not built (make first)\n", argv0, binary);
        return -1;
    }
    return 0;
}

const char *clirun_binary(void)
{
    return binary;
}

clirun clirun_run(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", binary, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    clirun r = {0, NULL, 0};
    size_t len = 0, cap = 0;
    int c;
    while ((c = fgetc(p)) != EOF) {
        if (len + 2 > cap) {
            cap = cap ? cap * 2 : 4096;
            r.out = realloc(r.out, cap);
            assert_non_null(r.out);
        }
        r.out[len++] = (char)c;
        r.lines += c == '\n';
    }
    if (!r.out)
        r.out = calloc(1, 1);
    assert_non_null(r.out);
    r.out[len] = '\0';
    int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

double clirun_csv_get(const char *out, const char *name, int row)
{
    const char *nl = strchr(out, '\n');
    assert_non_null(nl);
    const char *h = out, *v = nl + 1;
    for (int i = 1; i < row; i++) {
        v = strchr(v, '\n');
        assert_non_null(v);
        v++;
    }
    while (h < nl) {
        size_t hl = strcspn(h, ",\n"), vl = strcspn(v, ",\n");
        if (hl == strlen(name) && !strncmp(h, name, hl))
            return strtod(v, NULL);
        h += hl + 1;
        v += vl + 1;
    }
    fail_msg("no column %s", name);
    return 0;
}

void clirun_expect_bad(const char *args, const char *want)
{
    clirun r = clirun_run(args);
    if (r.status != 2 || r.lines != 1 || strncmp(r.out, "rfkit: ", 7) != 0 ||
        !strstr(r.out, want))
        fail_msg("rfkit %s\n  exit %d, %d lines: %s  expected exit 2 with '%s'", args,
                 r.status, r.lines, r.out, want);
    free(r.out);
}

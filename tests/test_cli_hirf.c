/* test_cli_hirf.c - HI-RF (seed 002) end to end: rfkit simulate, estimate
 * and batch with --design hirf on volta-hirf. */
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

static char rfkit[512];

typedef struct run {
    int status;
    char *out;      /* stdout and stderr together */
    int lines;
} run;

static run rfkit_run(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", rfkit, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    run r = {0, NULL, 0};
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
    r.out[len] = '\0';
    int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

/* Value of CSV column `name` in a two-line header+row output. */
static double csv_get(const char *out, const char *name)
{
    const char *nl = strchr(out, '\n');
    assert_non_null(nl);
    const char *h = out, *v = nl + 1;
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

#define HIRF "--gpu volta-hirf --kernel inputs/kernels/reduce.spec"

/* simulate --design hirf: the register-cache columns, the SRAM baseline of
 * the same machine has none, and the assignment and index options reach
 * the organisation (Worst groups the hot registers: more conflicts). */
static void simulate_columns(void **state)
{
    (void)state;
    run a = rfkit_run("simulate " HIRF " --design hirf --cycles 20000 --csv");
    assert_int_equal(a.status, 0);
    assert_int_equal(a.lines, 2);
    assert_non_null(strstr(a.out, "rc_conflicts,nvm_reads,nvm_writes"));
    double wr = csv_get(a.out, "rc_writes"), cf = csv_get(a.out, "rc_conflicts");
    assert_true(wr > 0);
    assert_true(cf > 0 && cf < wr);
    assert_true(csv_get(a.out, "nvm_writes") <= cf);
    assert_true(csv_get(a.out, "rc_hits") > 0);
    run w = rfkit_run("simulate " HIRF " --design hirf --assign worst --cycles 20000 --csv");
    assert_int_equal(w.status, 0);
    assert_true(csv_get(w.out, "rc_conflicts") > cf);
    run f = rfkit_run("simulate " HIRF " --design hirf --index full --cycles 20000 --csv");
    assert_int_equal(f.status, 0);
    assert_true(csv_get(f.out, "rc_conflicts") < cf);
    run s = rfkit_run("simulate " HIRF " --cycles 20000 --csv");
    assert_int_equal(s.status, 0);
    assert_true(csv_get(s.out, "rc_writes") == 0);
    assert_true(csv_get(s.out, "bank_writes") > 0);
    free(a.out), free(w.out), free(f.out), free(s.out);
}

/* estimate --design hirf reports the register cache; batch takes index and
 * assign columns. */
static void estimate_and_batch(void **state)
{
    (void)state;
    run e = rfkit_run("estimate " HIRF " --design hirf --index tea --assign cac");
    assert_int_equal(e.status, 0);
    assert_non_null(strstr(e.out, "register cache"));
    assert_non_null(strstr(e.out, "of writes evict"));
    free(e.out);
    char path[] = "/tmp/rfkit_hirf_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("gpu,kernel,design,index,assign,rbits,wbits\n"
          "volta-hirf,inputs/kernels/reduce.spec,hirf,concat,worst,3,3\n"
          "volta-hirf,inputs/kernels/reduce.spec,hirf,concat,base,2,4\n"
          "volta-hirf,inputs/kernels/reduce.spec,baseline,,,,\n", f);
    fclose(f);
    char args[128];
    snprintf(args, sizeof args, "batch %s", path);
    run b = rfkit_run(args);
    unlink(path);
    assert_int_equal(b.status, 0);
    assert_int_equal(b.lines, 4);
    assert_null(strstr(b.out, "rfkit:"));
    free(b.out);
}

static void expect_bad(const char *args, const char *want)
{
    run r = rfkit_run(args);
    if (r.status != 2 || r.lines != 1 || strncmp(r.out, "rfkit: ", 7) != 0 || !strstr(r.out, want))
        fail_msg("rfkit %s\n  exit %d, %d lines: %s  expected exit 2 with '%s'", args, r.status,
                 r.lines, r.out, want);
    free(r.out);
}

/* W2R3 does not make the 6-bit index of 64 lines; unknown policy. */
static void bad_input(void **state)
{
    (void)state;
    expect_bad("simulate " HIRF " --design hirf --wbits 2 --rbits 3", "wbits");
    expect_bad("estimate " HIRF " --design hirf --wbits 2 --rbits 3", "wbits");
    expect_bad("simulate " HIRF " --design hirf --assign random", "assign");
    expect_bad("simulate " HIRF " --design hirf --index hash", "index");
}

int main(int argc, char **argv)
{
    (void)argc;
    const char *env = getenv("RFKIT");
    if (env) {
        snprintf(rfkit, sizeof rfkit, "%s", env);
    } else {
        snprintf(rfkit, sizeof rfkit, "%s", argv[0]);
        char *slash = strrchr(rfkit, '/');
        if (slash)
            *slash = '\0';
        slash = strrchr(rfkit, '/');
        if (slash)
            strcpy(slash + 1, "rfkit");
        else
            snprintf(rfkit, sizeof rfkit, "build/rfkit");
    }
    if (access(rfkit, X_OK) != 0) {
        fprintf(stderr, "test_cli_hirf: %s is not built (make first)\n", rfkit);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(simulate_columns),
        cmocka_unit_test(estimate_and_batch),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests_name("cli_hirf", tests, NULL, NULL);
}

/* test_cli_simulate.c - rfkit simulate end to end: CSV shape, byte-identical
 * repeated runs, stealing defaults, windows, and bad input. */
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

#define SFU "--gpu fermi-gtx480 --kernel inputs/kernels/sfu.spec"

static void csv_and_determinism(void **state)
{
    (void)state;
    const char *args = "simulate " SFU " --design stealing --banks 8 --cycles 20000 --csv";
    run a = rfkit_run(args), b = rfkit_run(args);
    assert_int_equal(a.status, 0);
    assert_int_equal(a.lines, 2);
    assert_string_equal(a.out, b.out);
    assert_non_null(strstr(a.out, "ipc,cycles,warp_insts"));
    assert_non_null(strstr(a.out, "stall_bank"));
    assert_non_null(strstr(a.out, "wb_stolen_fast"));
    assert_true(csv_get(a.out, "cycles") == 20000);
    assert_true(csv_get(a.out, "read_steal") == 1);     /* both on by default */
    assert_true(csv_get(a.out, "write_steal") == 1);
    assert_true(csv_get(a.out, "banks") == 8);
    assert_true(csv_get(a.out, "ipc") > 0);
    free(a.out), free(b.out);

    run c = rfkit_run("simulate " SFU " --design stealing --read-steal --cycles 20000 --csv");
    assert_int_equal(c.status, 0);
    assert_true(csv_get(c.out, "read_steal") == 1);
    assert_true(csv_get(c.out, "write_steal") == 0);
    assert_true(csv_get(c.out, "stolen_writes") == 0);
    free(c.out);

    run d = rfkit_run("simulate " SFU " --design stealing --banks 8 --cycles 20000 --seed 7 --csv");
    assert_int_equal(d.status, 0);
    assert_true(csv_get(d.out, "seed") == 7);
    free(d.out);
}

static void full_run(void **state)
{
    (void)state;
    run a = rfkit_run("simulate --gpu fermi-gtx480 --kernel inputs/kernels/reduce.spec --csv");
    run b = rfkit_run("simulate --gpu fermi-gtx480 --kernel inputs/kernels/reduce.spec --full --csv");
    assert_int_equal(a.status, 0);
    assert_string_equal(a.out, b.out);
    assert_true(csv_get(a.out, "ctas_done") > 0);
    free(a.out), free(b.out);
    run t = rfkit_run("simulate --gpu fermi-gtx480 --kernel inputs/kernels/reduce.spec "
                      "--scheduler lrr --cycles 5000 --warmup 1000");
    assert_int_equal(t.status, 0);
    assert_non_null(strstr(t.out, "lrr scheduler"));
    assert_non_null(strstr(t.out, "inter_write_penalty"));
    free(t.out);
}

static void expect_bad(const char *args, const char *want)
{
    run r = rfkit_run(args);
    if (r.status != 2 || r.lines != 1 || strncmp(r.out, "rfkit: ", 7) != 0 || !strstr(r.out, want))
        fail_msg("rfkit %s\n  exit %d, %d lines: %s  expected exit 2 with '%s'", args, r.status,
                 r.lines, r.out, want);
    free(r.out);
}

static void bad_input(void **state)
{
    (void)state;
    expect_bad("simulate --gpu fermi-gtx480", "kernel");
    expect_bad("simulate " SFU " --cycles 10 --full", "--full");
    expect_bad("simulate " SFU " --cycles ten", "cycles");
    expect_bad("simulate " SFU " --banks 100", "banks");
    expect_bad("simulate " SFU " --bank-map diagonal", "bank_map");
    expect_bad("simulate " SFU " --frobnicate", "frobnicate");
    expect_bad("simulate " SFU " --design nosuch", "nosuch");
    run h = rfkit_run("simulate --help");
    assert_int_equal(h.status, 0);
    assert_non_null(strstr(h.out, "--read_steal"));
    free(h.out);
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
        fprintf(stderr, "test_cli_simulate: %s is not built (make first)\n", rfkit);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_and_determinism),
        cmocka_unit_test(full_run),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests_name("cli_simulate", tests, NULL, NULL);
}

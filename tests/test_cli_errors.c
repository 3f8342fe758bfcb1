/* test_cli_errors.c - every error of the command line says where (cli/):
 * "command line:" for what an option gave, the file for what a file gave
 * (a spec's launch values, a kernel too large for a pass), file:line:col
 * for a batch row; quoted input is escaped; regs 0 is one rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/clirun.h"

#define SPEC "inputs/kernels/hotspot.spec"

/* A temporary folder and a file in it; rm_tmp removes both. */
static void tmp_file(char *dir, size_t dcap, char *path, size_t pcap, const char *name,
                     const char *text)
{
    snprintf(dir, dcap, "/tmp/rfkit-cli-errXXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, pcap, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static void rm_tmp(const char *dir, const char *path)
{
    unlink(path);
    rmdir(dir);
}

/* Defect: --regs 300, an unknown --design and an unknown --gpu lacked the
 * "command line:" prefix the other command-line errors have. */
static void option_errors_say_command_line(void **state)
{
    (void)state;
    clirun_expect_bad("occupancy --gpu v100 --regs 300 --threads 256",
                      "rfkit: command line: regs: 300 registers per thread exceed the 255 "
                      "that v100 allows");
    clirun_expect_bad("occupancy --gpu v100 --regs 32 --threads 2048",
                      "rfkit: command line: threads: 2048 threads per CTA exceed the 1024 "
                      "that v100 allows");
    clirun_expect_bad("occupancy --gpu v100 --regs 32 --threads 256 --design nope",
                      "rfkit: command line: design: unknown design 'nope' (one of baseline,");
    clirun_expect_bad("occupancy --gpu nope --regs 32 --threads 256",
                      "rfkit: command line: gpu: unknown GPU preset 'nope' (presets:");
    clirun_expect_bad("estimate --gpu nope --kernel " SPEC,
                      "rfkit: command line: gpu: unknown GPU preset 'nope'");
    clirun_expect_bad("estimate --gpu v100 --kernel " SPEC " --design nope",
                      "rfkit: command line: design: unknown design 'nope'");
    clirun_expect_bad("simulate --gpu v100 --kernel " SPEC " --design nope --cycles 100",
                      "rfkit: command line: design: unknown design 'nope'");
    clirun_expect_bad("calibrate --gpu nope --kernel " SPEC " -o /dev/null",
                      "rfkit: command line: gpu: unknown GPU preset 'nope'");
    /* calibrate --design: the register-cache fits and FineReg's windows;
     * sharing has no free parameter, VT's windows fit nothing kept. */
    clirun_expect_bad("calibrate --gpu maxwell-gtx980 --kernel " SPEC " --design nope -o /dev/null",
                      "rfkit: command line: design: calibrate takes --design hirf, rfc, ltrf or "
                      "finereg (got 'nope')");
    clirun_expect_bad("calibrate --gpu maxwell-gtx980 --kernel " SPEC " --design sharing "
                      "-o /dev/null",
                      "rfkit: command line: design: sharing has no free parameter to fit");
    clirun_expect_bad("calibrate --gpu maxwell-gtx980 --kernel " SPEC " --design vt -o /dev/null",
                      "rfkit: command line: design: vt keeps its switching parameters at their "
                      "priors");
    clirun_expect_bad("calibrate --gpu maxwell-gtx980 --kernel " SPEC " --design hirf "
                      "-o /dev/null",
                      "rfkit: command line: design: hirf: GPU maxwell-gtx980 has no NVM main "
                      "register file under a register cache");
    clirun_expect_bad("calibrate --gpu maxwell-gtx980 --kernel " SPEC " --active-warps 8 "
                      "-o /dev/null",
                      "rfkit: command line: active-warps: goes with --design rfc|ltrf");
    clirun_expect_bad("calibrate --gpu maxwell-gtx980 --kernel " SPEC " --design ltrf "
                      "--active-warps -2 -o /dev/null",
                      "rfkit: command line: active-warps:");
    clirun_expect_bad("calibrate --gpu maxwell-gtx980 --kernel " SPEC " --design ltrf --cold "
                      "-o /dev/null",
                      "rfkit: command line: cold: the register-cache windows are always "
                      "functionally warmed");
    clirun_expect_bad("gpus --dump nope", "rfkit: command line: gpu: unknown GPU preset 'nope'");
    clirun_expect_bad("nope", "rfkit: command line: unknown command 'nope' (see rfkit --help)");
    /* A launch value from an option is the command line's (fermi-gtx480
     * takes 49152 bytes of shared memory per CTA; registers over its 63
     * are spilled, as nvcc does, not refused). */
    clirun_expect_bad("estimate --gpu fermi-gtx480 --kernel " SPEC " --smem 60000",
                      "rfkit: command line: smem: ");
}

/* One wording for a bad number in every option. */
static void bad_numbers_read_alike(void **state)
{
    (void)state;
    clirun_expect_bad("estimate --gpu v100 --kernel " SPEC " --sms 0",
                      "rfkit: command line: sms: 0 is outside [1, 65536]");
    clirun_expect_bad("batch tests/fixtures/none.csv --jobs x",
                      "rfkit: command line: jobs: 'x' is not a whole number");
    clirun_expect_bad("calibrate --gpu fermi-gtx480 --kernel " SPEC " --jobs 0",
                      "rfkit: command line: jobs: 0 is outside [1, 1024]");
    clirun_expect_bad("analyze --banks 99 " SPEC,
                      "rfkit: command line: banks: 99 is outside [1, 64]");
    clirun_expect_bad("analyze --sharing 2 " SPEC,
                      "rfkit: command line: sharing: 2 is outside [0, 1]");
    clirun_expect_bad("simulate --gpu v100 --kernel " SPEC " --seed -1",
                      "rfkit: command line: seed: -1 is outside [0, ");
    clirun_expect_bad("occupancy --gpu v100 --regs x --threads 256",
                      "rfkit: command line: regs: 'x' is not a whole number");
}

/* What a file gave is the file's: a spec's shared memory over the GPU's
 * limit names the spec.  (A spec's registers over the limit are spilled,
 * as nvcc does: tests/test_regalloc.c; a kernel over the block limit names
 * its file and line: tests/test_kchar.c.) */
static void file_errors_name_the_file(void **state)
{
    (void)state;
    char cwd[1024], dir[64], path[96], spec[8192], args[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    FILE *in = fopen(SPEC, "r");
    assert_non_null(in);
    size_t n = fread(spec, 1, sizeof spec - 1, in);
    fclose(in);
    spec[n] = '\0';
    /* code = hotspot.ptx -> the bundled file by its full path; smem 60000
     * (fermi-gtx480: 49152 bytes per CTA at most). */
    char text[sizeof spec + sizeof cwd + 64];
    char *code = strstr(spec, "code = hotspot.ptx"), *smem = strstr(spec, "smem = 0");
    assert_non_null(code);
    assert_non_null(smem);
    assert_true(code < smem);
    *code = '\0';
    *smem = '\0';
    snprintf(text, sizeof text, "%scode = %s/inputs/kernels/hotspot.ptx%ssmem = 60000%s", spec,
             cwd, code + strlen("code = hotspot.ptx"), smem + strlen("smem = 0"));
    tmp_file(dir, sizeof dir, path, sizeof path, "k.spec", text);
    char want[256];
    snprintf(want, sizeof want, "rfkit: %s: smem: ", path);
    snprintf(args, sizeof args, "estimate --gpu fermi-gtx480 --kernel %s", path);
    clirun_expect_bad(args, want);
    snprintf(args, sizeof args, "simulate --gpu fermi-gtx480 --kernel %s --cycles 100", path);
    clirun_expect_bad(args, want);
    rm_tmp(dir, path);
}

/* A batch row's errors: file:line:col, the line physical (after a quoted
 * newline), the bytes escaped; a row with an empty first field (undefined
 * behaviour in the CSV writer before) is a bad row, exit 2. */
static void batch_rows_say_where(void **state)
{
    (void)state;
    char dir[64], path[96], args[256];
    tmp_file(dir, sizeof dir, path, sizeof path, "in.csv",
             "gpu,regs,threads\n\"v\n100\",32,256\nv100,32,2048\n,32,256\n"
             "v1\001\033[2J,32,256\n");
    char out[128];
    snprintf(out, sizeof out, "%s/out.csv", dir);
    snprintf(args, sizeof args, "batch %s -o %s", path, out);
    clirun r = clirun_run(args);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, "4 of 4 rows had errors"));
    free(r.out);
    FILE *fp = fopen(out, "r");
    assert_non_null(fp);
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[n] = '\0';
    unlink(out);
    rm_tmp(dir, path);
    char want[256];
    snprintf(want, sizeof want, "%s:2:1: gpu: unknown GPU preset 'v\\x0a100'", path);
    assert_non_null(strstr(text, want));
    snprintf(want, sizeof want, "%s:4:3: threads: 2048 is outside [1, 1024]", path);
    assert_non_null(strstr(text, want));
    snprintf(want, sizeof want, "%s:5:1: gpu: no GPU given", path);
    assert_non_null(strstr(text, want));
    snprintf(want, sizeof want, "%s:6:1: gpu: unknown GPU preset 'v1\\x01\\x1b[2J'", path);
    assert_non_null(strstr(text, want));
    /* No raw control byte reached the output but the input's own cell. */
    assert_int_equal(strchr(text, '\033') - text, strrchr(text, '\033') - text);
}

/* Control bytes in an option are escaped in its message. */
static void option_bytes_are_escaped(void **state)
{
    (void)state;
    clirun r = clirun_run("occupancy --gpu \"$(printf 'v1\\001\\033[2J')\" --regs 32 --threads 32");
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "rfkit: command line: gpu: unknown GPU preset 'v1\\x01\\x1b[2J' "
                               "(presets: fermi-c2050, fermi-gtx480, maxwell-gtx980, "
                               "maxwell-ltrf, volta-hirf, v100, a100, h100; or a file)\n");
    free(r.out);
}

/* regs 0 means a kernel's own count everywhere (a spec, --regs, a batch
 * cell); occupancy takes no kernel and says so. */
static void regs_zero_is_one_rule(void **state)
{
    (void)state;
    clirun_expect_bad("occupancy --gpu v100 --regs 0 --threads 256",
                      "rfkit: command line: regs: 0 means a kernel's own register count, and "
                      "occupancy takes no kernel (give 1..255, or use rfkit estimate --kernel)");
    clirun a = clirun_run("estimate --gpu v100 --kernel " SPEC " --regs 0 --csv");
    clirun b = clirun_run("estimate --gpu v100 --kernel " SPEC " --csv");
    assert_int_equal(a.status, 0);
    assert_int_equal(b.status, 0);
    assert_string_equal(a.out, b.out);
    free(a.out);
    free(b.out);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(option_errors_say_command_line),
        cmocka_unit_test(bad_numbers_read_alike),
        cmocka_unit_test(file_errors_name_the_file),
        cmocka_unit_test(batch_rows_say_where),
        cmocka_unit_test(option_bytes_are_escaped),
        cmocka_unit_test(regs_zero_is_one_rule),
    };
    return cmocka_run_group_tests_name("cli_errors", tests, NULL, NULL);
}

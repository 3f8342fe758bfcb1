/* test_gpu.c - GPU presets, the INI override reader and the gpgpusim.config
 * reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../analytic/design.h"
#include "../analytic/occupancy.h"
#include "../inputs/gpu.h"

#define FIXTURES "tests/fixtures/"

/* Every preset loads, passes its own checks and fills every field: only the
 * fields listed may be zero (cc of simulator presets, the reservation before
 * cc 8.0, the active pool of GPUs without a seed's two-level pool, and enum
 * index 0). */
static void test_presets_complete(void **state)
{
    (void)state;
    int n = 0;
    for (int i = 0; rf_gpu_preset_names[i]; i++, n++) {
        rf_gpu g;
        rf_err err;
        memset(&g, 0, sizeof g);
        assert_int_equal(rf_gpu_preset(rf_gpu_preset_names[i], &g, &err), RF_OK);
        assert_string_equal(g.name, rf_gpu_preset_names[i]);
        assert_non_null(rf_gpu_preset_source(g.name));
        if (rf_gpu_check(&g, &err))
            fail_msg("%s", err.msg);
        for (size_t k = 0; k < rf_gpu_nparams; k++) {
            const rf_param *p = &rf_gpu_params[k];
            if (p->type == RF_PT_STRING || p->type == RF_PT_ENUM)
                continue;
            if (!strcmp(p->name, "cc") || !strcmp(p->name, "smem_reserved_per_cta") ||
                !strcmp(p->name, "active_warps_per_sm"))
                continue;
            if (rf_param_value(p, &g) <= 0)
                fail_msg("%s: %s is not set", g.name, p->name);
        }
        /* The same through rf_gpu_load. */
        rf_gpu h;
        assert_int_equal(rf_gpu_load(g.name, &h, NULL, &err), RF_OK);
        for (size_t k = 0; k < rf_gpu_nparams; k++)
            assert_true(rf_param_value(&rf_gpu_params[k], &g) ==
                        rf_param_value(&rf_gpu_params[k], &h));
        assert_string_equal(g.name, h.name);
    }
    assert_int_equal(n, 8);
}

static void test_preset_figures(void **state)
{
    (void)state;
    rf_gpu g;
    rf_err err;
    /* Seed 003 Table 1. */
    assert_int_equal(rf_gpu_preset("fermi-c2050", &g, &err), RF_OK);
    assert_int_equal(g.sms, 14);
    assert_int_equal(g.regs_per_sm, 32768);
    assert_int_equal(g.max_threads_per_sm, 1536);
    assert_int_equal(g.max_ctas_per_sm, 8);
    assert_int_equal(g.smem_per_sm, 48 * 1024);
    assert_int_equal(g.schedulers, 2);
    assert_int_equal(g.sched_policy, RF_SCHED_LRR);
    assert_int_equal(g.cc, 0);
    /* Seed 000 Table I. */
    assert_int_equal(rf_gpu_preset("maxwell-gtx980", &g, &err), RF_OK);
    assert_int_equal(g.sms, 16);
    assert_int_equal(g.regs_per_sm * 4, 256 * 1024);
    assert_int_equal(g.smem_per_sm, 96 * 1024);
    assert_int_equal(g.max_ctas_per_sm, 32);
    assert_int_equal(g.sched_policy, RF_SCHED_GTO);
    assert_true(g.clock_mhz == 1126);
    /* Seed 004 Table 3. */
    assert_int_equal(rf_gpu_preset("maxwell-ltrf", &g, &err), RF_OK);
    assert_int_equal(g.sms, 24);
    assert_int_equal(g.smem_per_sm, 64 * 1024);
    assert_int_equal(g.rc_entries * g.subcores * g.rc_line_bits / 8, 16 * 1024);
    assert_int_equal(g.sched_policy, RF_SCHED_TWO_LEVEL);
    /* Seed 002 Tables 2 and 3. */
    assert_int_equal(rf_gpu_preset("volta-hirf", &g, &err), RF_OK);
    assert_int_equal(g.sms, 80);
    assert_int_equal(g.rc_entries * g.subcores, 256);
    assert_int_equal(g.rf_banks, 8);
    assert_int_equal(g.nvm_write_latency, 4);
    /* Seed 001: 128 KB register file. */
    assert_int_equal(rf_gpu_preset("fermi-gtx480", &g, &err), RF_OK);
    assert_int_equal(g.regs_per_sm * 4, 128 * 1024);
    /* CUDA rules. */
    assert_int_equal(rf_gpu_preset("v100", &g, &err), RF_OK);
    assert_int_equal(g.cc, 70);
    assert_int_equal(g.smem_per_sm, 96 * 1024);
    assert_int_equal(g.max_smem_per_cta, 96 * 1024);
    assert_int_equal(g.smem_reserved_per_cta, 0);
    assert_int_equal(g.smem_alloc_unit, 256);
    assert_int_equal(g.reg_alloc_unit, 256);
    assert_int_equal(g.warp_alloc_gran, 4);
    assert_int_equal(g.max_regs_per_thread, 255);
    assert_int_equal(g.max_warps_per_sm, 64);
    assert_int_equal(g.max_ctas_per_sm, 32);
    assert_int_equal(rf_gpu_preset("a100", &g, &err), RF_OK);
    assert_int_equal(g.smem_per_sm, 164 * 1024);
    assert_int_equal(g.smem_reserved_per_cta, 1024);
    assert_int_equal(g.smem_alloc_unit, 128);
    assert_int_equal(rf_gpu_preset("h100", &g, &err), RF_OK);
    assert_int_equal(g.smem_per_sm, 228 * 1024);
    assert_int_equal(g.max_smem_per_cta, 227 * 1024);
    assert_int_equal(g.cc, 90);
}

static void test_unknown_preset(void **state)
{
    (void)state;
    rf_gpu g;
    rf_err err;
    assert_int_equal(rf_gpu_preset("gtx9000", &g, &err), RF_EUNKNOWN);
    assert_non_null(strstr(err.msg, "unknown GPU preset 'gtx9000'"));
    assert_non_null(strstr(err.msg, "fermi-c2050"));
    assert_int_equal(rf_gpu_load("gtx9000", &g, NULL, &err), RF_EUNKNOWN);
    assert_int_equal(rf_gpu_load("no/such/file.ini", &g, NULL, &err), RF_EUNKNOWN);
    assert_non_null(strstr(err.msg, "no/such/file.ini"));
    assert_int_equal(rf_gpu_load("", &g, NULL, &err), RF_EUSAGE);
    assert_null(rf_gpu_preset_source("gtx9000"));
}

static void test_ini_override(void **state)
{
    (void)state;
    rf_gpu g, v;
    rf_err err;
    rf_err_clear(&err);
    if (rf_gpu_load(FIXTURES "v100-half.ini", &g, NULL, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(rf_gpu_preset("v100", &v, &err), RF_OK);
    assert_string_equal(g.name, "v100-half");
    assert_int_equal(g.sms, 40);
    assert_int_equal(g.smem_per_sm, 65536);
    assert_int_equal(g.sched_policy, RF_SCHED_LRR);
    /* Everything else is the preset's. */
    assert_int_equal(g.cc, 70);
    assert_int_equal(g.regs_per_sm, v.regs_per_sm);
    assert_int_equal(g.warp_alloc_gran, 4);
    assert_int_equal(g.smem_alloc_unit, 256);
}

/* Write text to a fresh temporary file; its path goes to path. */
static void write_temp(char *path, size_t cap, const char *text)
{
    snprintf(path, cap, "/tmp/rfkit-gpu-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Load text as a GPU file; expect code and "<file>:<line>[:<col>]: <rest>". */
static void expect_file_error(const char *text, int code, int line, int col, const char *rest)
{
    char path[64], want[256];
    rf_gpu g;
    rf_err err;
    write_temp(path, sizeof path, text);
    rf_err_clear(&err);
    int rc = rf_gpu_load(path, &g, NULL, &err);
    unlink(path);
    if (rc != code)
        fail_msg("code %d (%s), expected %d for:\n%s", rc, err.msg, code, text);
    if (line && col)
        snprintf(want, sizeof want, "%s:%d:%d: %s", path, line, col, rest);
    else if (line)
        snprintf(want, sizeof want, "%s:%d: %s", path, line, rest);
    else
        snprintf(want, sizeof want, "%s: %s", path, rest);
    if (strncmp(err.msg, want, strlen(want)) != 0)
        fail_msg("message '%s', expected it to start with '%s'", err.msg, want);
}

static void test_ini_errors(void **state)
{
    (void)state;
    expect_file_error("preset = v100\nbogus_key = 3\n", RF_EUNKNOWN, 2, 1,
                      "bogus_key: unknown parameter");
    expect_file_error("# c\npreset = v100\nsms 40\n", RF_EPARSE, 3, 1, "expected 'key = value'");
    expect_file_error("sms = 40\npreset = v100\n", RF_EPARSE, 2, 1, "preset: must come before");
    expect_file_error("preset = v100\nsms = 40\nsms = 41\n", RF_EPARSE, 3, 1,
                      "sms: set twice (first at line 2)");
    expect_file_error("preset = v100\nsms = forty\n", RF_ENUMBER, 2, 7, "sms: 'forty'");
    expect_file_error("preset = v100\nsms = -1\n", RF_ERANGE, 2, 7, "sms: -1 is outside");
    expect_file_error("preset = nothing\n", RF_EUNKNOWN, 1, 10, "preset: unknown GPU preset");
    expect_file_error("[kernel]\n", RF_EPARSE, 1, 1, "unknown section");
    expect_file_error("# only a comment\n", RF_EPARSE, 1, 0, "no settings");
    expect_file_error("preset = v100\nsched_policy = fifo\n", RF_EUNKNOWN, 2, 16,
                      "sched_policy: 'fifo' is not one of lrr|gto|two-level");
    /* Consistency: the line of the offending field is named. */
    expect_file_error("preset = v100\n\nmax_warps_per_sm = 48\n", RF_ERANGE, 3, 0,
                      "max_warps_per_sm: 48 warps");
    expect_file_error("preset = v100\nmax_smem_per_cta = 200000\n", RF_ERANGE, 2, 0,
                      "max_smem_per_cta:");
    /* '-' and '_' alike in keys; no preset starts from the defaults. */
    char path[64];
    rf_gpu g;
    rf_err err;
    write_temp(path, sizeof path, "regs-per-sm = 65536\nmax_regs_per_cta = 65536\n");
    rf_err_clear(&err);
    int rc = rf_gpu_load(path, &g, NULL, &err);
    unlink(path);
    if (rc)
        fail_msg("%s", err.msg);
    assert_int_equal(g.regs_per_sm, 65536);
    assert_int_equal(g.max_threads_per_sm, 1536);
    assert_string_equal(g.name, path);
}

/* The fixture reproduces fermi-c2050 through GPGPU-Sim options. */
static void test_gpgpusim_config(void **state)
{
    (void)state;
    char *notes = NULL;
    size_t nlen = 0;
    FILE *ns = open_memstream(&notes, &nlen);
    assert_non_null(ns);
    rf_gpu g, c;
    rf_err err;
    rf_err_clear(&err);
    int rc = rf_gpu_load(FIXTURES "gpgpusim.config", &g, ns, &err);
    fclose(ns);
    if (rc)
        fail_msg("%s", err.msg);
    assert_int_equal(rf_gpu_preset("fermi-c2050", &c, &err), RF_OK);
    assert_string_equal(g.name, FIXTURES "gpgpusim.config");
    assert_int_equal(g.cc, 0);
    assert_int_equal(g.sms, 14);
    assert_int_equal(g.regs_per_sm, 32768);
    assert_int_equal(g.max_regs_per_cta, 32768);
    assert_int_equal(g.max_threads_per_sm, 1536);
    assert_int_equal(g.warp_size, 32);
    assert_int_equal(g.max_warps_per_sm, 48);
    assert_int_equal(g.max_ctas_per_sm, 8);
    assert_int_equal(g.smem_per_sm, 49152);
    assert_int_equal(g.max_smem_per_cta, 49152);
    assert_int_equal(g.rf_banks, 16);
    assert_int_equal(g.collectors, 16);
    assert_int_equal(g.schedulers, 2);
    assert_int_equal(g.sched_policy, RF_SCHED_LRR);
    assert_true(g.clock_mhz == 575);
    assert_int_equal(g.reg_alloc_unit, 128);
    /* Ignored options are listed once each, in one note. */
    assert_non_null(notes);
    assert_non_null(strstr(notes, "5 GPGPU-Sim options not modelled, ignored"));
    const char *dl1 = strstr(notes, "-gpgpu_cache:dl1");
    assert_non_null(dl1);
    assert_null(strstr(dl1 + 1, "-gpgpu_cache:dl1"));
    assert_non_null(strstr(notes, "-gpgpu_n_mem"));
    int nl = 0;
    for (const char *p = notes; *p; p++)
        nl += *p == '\n';
    assert_int_equal(nl, 1);
    free(notes);
    /* Same occupancy as the preset: seed 003 hotspot at 50% sharing. */
    rf_design d;
    rf_design_init(&d);
    d.kind = RF_DESIGN_SHARING;
    d.sharing = 0.5;
    rf_occ_input in = {36, 256, 0};
    rf_occ a, b;
    assert_int_equal(rf_occ_compute(&g, &d, &in, &a, &err), RF_OK);
    assert_int_equal(rf_occ_compute(&c, &d, &in, &b, &err), RF_OK);
    assert_int_equal(a.ctas_per_sm, 4);
    assert_int_equal(a.ctas_per_sm, b.ctas_per_sm);
}

static void test_gpgpusim_errors(void **state)
{
    (void)state;
    expect_file_error("-gpgpu_n_clusters 4\n-gpgpu_shader_registers\n", RF_EPARSE, 2, 0,
                      "-gpgpu_shader_registers: missing value");
    expect_file_error("-gpgpu_shader_core_pipeline 1536\n", RF_EPARSE, 1, 0,
                      "-gpgpu_shader_core_pipeline: expected <threads>:<warp size>");
    expect_file_error("-gpgpu_shader_core_pipeline 1000:32\n", RF_ERANGE, 1, 0,
                      "-gpgpu_shader_core_pipeline: 1000 threads");
    expect_file_error("#\n-gpgpu_n_clusters 4\nn_clusters 4\n", RF_EPARSE, 3, 0,
                      "expected '-option value'");
    expect_file_error("-gpgpu_shader_cta eight\n", RF_ENUMBER, 1, 0,
                      "-gpgpu_shader_cta: 'eight' is not a whole number");
    expect_file_error("-gpgpu_clock_domains fast:700:700:924\n", RF_ENUMBER, 1, 0,
                      "-gpgpu_clock_domains: core clock 'fast'");
    /* A value read fine but out of the table's range names its line. */
    expect_file_error("-gpgpu_n_mem 6\n-gpgpu_shader_cta 0\n", RF_ERANGE, 2, 0,
                      "max_ctas_per_sm: 0 is outside");
    /* An unmodelled scheduler is a note, not an error. */
    char path[64];
    rf_gpu g;
    rf_err err;
    write_temp(path, sizeof path, "-gpgpu_scheduler warp_limiting:2:10\n-gpgpu_n_clusters 2\n");
    char *notes = NULL;
    size_t nlen = 0;
    FILE *ns = open_memstream(&notes, &nlen);
    int rc = rf_gpu_load(path, &g, ns, &err);
    fclose(ns);
    unlink(path);
    assert_int_equal(rc, RF_OK);
    assert_int_equal(g.sms, 2);
    assert_non_null(strstr(notes, "scheduler 'warp_limiting:2:10' is not modelled"));
    free(notes);
}

/* The two-level scheduler's active pool: maxwell-ltrf carries seed 004
 * Table 3's 8 warps per SM; a GPU file sets it by key; a gpgpusim.config
 * gives it per scheduler in two_level_active:N (GPGPU-Sim shader.cc), here
 * 2 per scheduler x 4 schedulers (set on a later line) = 8 per SM; a pool
 * larger than the SM's warps is refused at the key's line. */
static void test_active_pool(void **state)
{
    (void)state;
    char path[64];
    rf_gpu g;
    rf_err err;
    assert_int_equal(rf_gpu_preset("maxwell-ltrf", &g, &err), RF_OK);
    assert_int_equal(g.active_warps_per_sm, 8);
    assert_int_equal(rf_gpu_preset("maxwell-gtx980", &g, &err), RF_OK);
    assert_int_equal(g.active_warps_per_sm, 0);
    write_temp(path, sizeof path, "preset = maxwell-ltrf\nactive_warps_per_sm = 32\n");
    int rc = rf_gpu_load(path, &g, NULL, &err);
    unlink(path);
    assert_int_equal(rc, RF_OK);
    assert_int_equal(g.active_warps_per_sm, 32);
    write_temp(path, sizeof path,
               "-gpgpu_scheduler two_level_active:2:0:1\n-gpgpu_shader_core_pipeline 2048:32\n"
               "-gpgpu_num_sched_per_core 4\n");
    rc = rf_gpu_load(path, &g, NULL, &err);
    unlink(path);
    if (rc)
        fail_msg("%s", err.msg);
    assert_int_equal(g.sched_policy, RF_SCHED_TWO_LEVEL);
    assert_int_equal(g.active_warps_per_sm, 8);
    expect_file_error("preset = maxwell-ltrf\nactive_warps_per_sm = 65\n", RF_ERANGE, 2, 0,
                      "active_warps_per_sm: an active pool of 65 warps exceeds the 64");
    expect_file_error("-gpgpu_scheduler two_level_active:0:0:1\n", RF_ERANGE, 1, 0,
                      "-gpgpu_scheduler: two_level_active: 0 active warps per scheduler");
    expect_file_error("-gpgpu_scheduler two_level_active:x:0:1\n", RF_ENUMBER, 1, 0,
                      "-gpgpu_scheduler: 'x' is not a whole number");
}

/* A GPU file saved with a UTF-8 byte-order mark and CRLF line ends reads
 * like the plain one (both formats); the mark counts only at the start, and
 * a directory is refused with its name. */
static void test_bom_crlf_and_directory(void **state)
{
    (void)state;
    char path[64];
    rf_gpu g;
    rf_err err;
    write_temp(path, sizeof path, "\xEF\xBB\xBFpreset = v100\r\nsms = 40\r\n");
    rf_err_clear(&err);
    int rc = rf_gpu_load(path, &g, NULL, &err);
    unlink(path);
    if (rc)
        fail_msg("%s", err.msg);
    assert_int_equal(g.cc, 70);
    assert_int_equal(g.sms, 40);
    write_temp(path, sizeof path, "\xEF\xBB\xBF-gpgpu_n_clusters 3\r\n-gpgpu_n_cores_per_cluster 2\r\n");
    rc = rf_gpu_load(path, &g, NULL, &err);
    unlink(path);
    if (rc)
        fail_msg("%s", err.msg);
    assert_int_equal(g.sms, 6);   /* 3 clusters x 2 cores */
    expect_file_error("\xEF\xBB\xBFpreset = v100\nsms = 0\n", RF_ERANGE, 2, 7,
                      "sms: 0 is outside");
    expect_file_error("\xEF\xBB\xBF" "bogus = 1\n", RF_EUNKNOWN, 1, 1, "bogus: unknown parameter");
    expect_file_error("preset = v100\n\xEF\xBB\xBFsms = 40\n", RF_EUNKNOWN, 2, 1,
                      "\xEF\xBB\xBFsms: unknown parameter");
    rf_err_clear(&err);
    assert_int_equal(rf_gpu_load("tests/fixtures", &g, NULL, &err), RF_EIO);
    assert_string_equal(err.msg, "tests/fixtures: is a directory, not a file");
}

static void test_check(void **state)
{
    (void)state;
    rf_gpu g;
    rf_err err;
    assert_int_equal(rf_gpu_preset("a100", &g, &err), RF_OK);
    g.max_threads_per_cta = 4096;
    assert_int_equal(rf_gpu_check(&g, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, "a100: max_threads_per_cta"));
    assert_int_equal(rf_gpu_preset("a100", &g, &err), RF_OK);
    g.sms = 0;
    assert_int_equal(rf_gpu_check(&g, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, "sms: 0 is outside"));
    assert_int_equal(rf_gpu_preset("a100", &g, &err), RF_OK);
    g.warp_alloc_gran = 3;
    assert_int_equal(rf_gpu_check(&g, &err), RF_ERANGE);
    assert_int_equal(rf_gpu_preset("fermi-c2050", &g, &err), RF_OK);
    g.max_regs_per_thread = 2000; /* one warp would need 64000 registers */
    assert_int_equal(rf_gpu_check(&g, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, "max_regs_per_thread"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets_complete), cmocka_unit_test(test_preset_figures),
        cmocka_unit_test(test_unknown_preset),   cmocka_unit_test(test_ini_override),
        cmocka_unit_test(test_ini_errors),       cmocka_unit_test(test_gpgpusim_config),
        cmocka_unit_test(test_gpgpusim_errors),  cmocka_unit_test(test_active_pool),  cmocka_unit_test(test_check),
        cmocka_unit_test(test_bom_crlf_and_directory),
    };
    return cmocka_run_group_tests_name("gpu", tests, NULL, NULL);
}

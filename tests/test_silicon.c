/* test_silicon.c - rfkit against what a GPU itself reported.  The fixtures
 * in tests/fixtures/silicon/ come from tools/device/check.sh on an NVIDIA
 * H200 (compute capability 9.0, driver 580, CUDA 13.0; versions.txt):
 *
 *   h200_occupancy.csv  cuOccupancyMaxActiveBlocksPerMultiprocessor for the
 *                       33 bundled kernels and ten regs_K kernels
 *                       (tools/device/regs.cu), over block sizes and
 *                       dynamic shared memory, with each function's
 *                       CU_FUNC_ATTRIBUTE_NUM_REGS and static shared memory
 *   stream.sass,        cuobjdump -sass of the bundled stream and hotspot
 *   hotspot.sass        kernels built for sm_90
 *   ncu_*.csv           Nsight Compute's details page of one launch each of
 *                       hotspot and stream (tools/device/launch.cu) and the
 *                       source page of each (--print-source sass); the
 *                       details rows of short_poly and devcall from one
 *                       launch of every bundled kernel (launch_all.cu,
 *                       kernels.txt: zeroed buffers) and their source pages
 *
 * Nothing here is computed by rfkit beforehand: each expected value is read
 * from the device's own output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "support/clirun.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../analytic/design.h"
#include "../analytic/kchar.h"
#include "../analytic/occupancy.h"
#include "../inputs/gpu.h"
#include "../inputs/kernel.h"
#include "../inputs/ncu.h"

#define DIR "tests/fixtures/silicon/"

/* The largest shared memory a CTA may use without opting in
 * (cudaFuncAttributeMaxDynamicSharedMemorySize): the driver answers 0 CTAs
 * above it, rfkit assumes the kernel opted in. */
#define SMEM_DEFAULT_LIMIT 49152

typedef struct occ_row {
    char func[32];
    int regs, smem_static, smem_dynamic, block, ctas;
} occ_row;

/* Rows of h200_occupancy.csv (after its "# device" line and header). */
static int read_occupancy(occ_row **out)
{
    FILE *fp = fopen(DIR "h200_occupancy.csv", "r");
    assert_non_null(fp);
    char line[256];
    int n = 0, cap = 0;
    occ_row *rows = NULL;
    while (fgets(line, sizeof line, fp)) {
        occ_row r;
        if (line[0] == '#' || strncmp(line, "function,", 9) == 0)
            continue;
        assert_int_equal(sscanf(line, "%31[^,],%d,%d,%d,%d,%d", r.func, &r.regs,
                                &r.smem_static, &r.smem_dynamic, &r.block, &r.ctas), 6);
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            rows = realloc(rows, (size_t)cap * sizeof *rows);
            assert_non_null(rows);
        }
        rows[n++] = r;
    }
    fclose(fp);
    *out = rows;
    return n;
}

/* The driver's CTAs per SM against rfkit's cc 9.0 rules (the h100 preset:
 * the H200 reports the same 132 SMs, 64 K registers, 228 KB of shared
 * memory with 1 KB reserved per CTA, 2048 threads and 32 CTAs per SM) for
 * every row within the default shared-memory limit: registers from 10 to
 * 248 per thread, blocks of 32 to 1024 threads. */
static void occupancy_matches_driver(void **state)
{
    (void)state;
    rf_gpu gpu;
    rf_design d;
    rf_err err = {0};
    assert_int_equal(rf_gpu_preset("h100", &gpu, &err), 0);
    rf_design_init(&d);
    occ_row *rows = NULL;
    int n = read_occupancy(&rows), checked = 0, over = 0, regs_lo = 255, regs_hi = 0;
    assert_true(n > 1000);
    for (int i = 0; i < n; i++) {
        const occ_row *r = &rows[i];
        rf_occ_input in = {.regs = r->regs, .threads = r->block,
                           .smem = r->smem_static + r->smem_dynamic};
        if (in.smem > SMEM_DEFAULT_LIMIT) {
            assert_int_equal(r->ctas, 0);
            over++;
            continue;
        }
        rf_occ o;
        if (rf_occ_compute(&gpu, &d, &in, &o, &err))
            fail_msg("%s: %s", r->func, err.msg);
        if (o.ctas_per_sm != r->ctas)
            fail_msg("%s: %d regs, %d threads, %d bytes: driver %d CTAs, rfkit %d", r->func,
                     r->regs, r->block, in.smem, r->ctas, o.ctas_per_sm);
        regs_lo = r->regs < regs_lo ? r->regs : regs_lo;
        regs_hi = r->regs > regs_hi ? r->regs : regs_hi;
        checked++;
    }
    assert_true(checked > 1000);
    assert_int_equal(over, 9);
    assert_true(regs_lo <= 16 && regs_hi >= 200);
    free(rows);
}

static int driver_regs(const char *func)
{
    occ_row *rows = NULL;
    int n = read_occupancy(&rows), regs = -1;
    for (int i = 0; i < n && regs < 0; i++)
        if (strcmp(rows[i].func, func) == 0)
            regs = rows[i].regs;
    free(rows);
    return regs;
}

/* A kernel from a spec or code file (grid and block for a bare file). */
static rf_kernel *load(const char *path, const char *grid, const char *block,
                       const char *entry)
{
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.grid = grid;
    o.block = block;
    o.entry = entry;
    rf_kernel *k = NULL;
    rf_err err = {0};
    if (rf_kernel_load(path, &o, &k, &err))
        fail_msg("%s", err.msg);
    return k;
}

/* Warp instructions one warp runs: sum over blocks of rfkit's block
 * frequency (rf_kchar_block_freq) x the block's instructions. */
static double per_warp_insts(const rf_kernel *k)
{
    int nb = k->func->nblocks;
    double *freq = malloc((size_t)nb * sizeof *freq), sum = 0;
    rf_err err = {0};
    assert_non_null(freq);
    if (rf_kchar_block_freq(k->func, &k->profile, freq, &err))
        fail_msg("%s", err.msg);
    for (int b = 0; b < nb; b++)
        sum += freq[b] * k->func->blocks[b].ninsts;
    free(freq);
    return sum;
}

/* cuobjdump's listing of a cubin names its target twice ("code for sm_90",
 * ".target sm_90") and is read as SASS; rfkit's register count (the
 * highest register + 1 + the 2 reserved) is the driver's. */
static void sass_registers_match_driver(void **state)
{
    (void)state;
    const char *names[] = {"stream", "hotspot"};
    for (int i = 0; i < 2; i++) {
        char path[128];
        snprintf(path, sizeof path, DIR "%s.sass", names[i]);
        rf_kernel *k = load(path, "8", "256", names[i]);
        assert_int_equal(k->mod->kind, RF_CODE_SASS);
        assert_int_equal(k->regs, driver_regs(names[i]));
        rf_kernel_destroy(k);
    }
    assert_int_equal(driver_regs("stream"), 14);
    assert_int_equal(driver_regs("hotspot"), 31);
}

static char tmpdir[64];

static int make_tmp(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/rfkit_silicon_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int rm_tmp(void **state)
{
    (void)state;
    const char *names[] = {"stream.spec", "stream.sass", "hotspot.spec", "hotspot.sass",
                           "short_poly.spec", "short_poly.sass", "devcall.spec",
                           "devcall.sass", "keys.spec"};
    char p[128];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
        unlink(p);
    }
    rmdir(tmpdir);
    return 0;
}

/* Warp instructions the export counts for kernel (one listing: the source
 * page prints hotspot's twice, the same counts), less the issues a warp
 * split by divergence adds at a reconvergence point: BSYNC is issued once
 * per part, the instruction after it once (hotspot's BSYNC at 0x09e0:
 * 57088 issues, 32768 for the rest of its block).  rfkit counts a block
 * once per warp. */
static double ncu_total(const char *path, const char *kernel)
{
    rf_ncu *n = NULL;
    rf_err err = {0};
    if (rf_ncu_load(path, &n, &err))
        fail_msg("%s", err.msg);
    const rf_ncu_source *src = NULL;
    if (rf_ncu_find_source(n, kernel, -1, &src, &err))
        fail_msg("%s", err.msg);
    double sum = 0;
    for (int i = 0; i < src->ninsts; i++) {
        sum += src->insts[i].executed;
        if (strncmp(src->insts[i].text, "BSYNC", 5) == 0 && i + 1 < src->ninsts)
            sum -= src->insts[i].executed - src->insts[i + 1].executed;
    }
    rf_ncu_destroy(n);
    return sum;
}

/* rfkit profile on the real exports, then the one block frequency of rfkit
 * (rf_kchar_block_freq) over the spec it wrote: warps x sum over blocks of
 * frequency x instructions is the kernel's warp instructions, which must be
 * Nsight Compute's own total.  This needs every measured branch in the
 * spec: the guarded exits (exit@LABEL), the branches to one label that
 * differ (LABEL@SOURCE) and the counts taken after a block's reconvergence
 * point.  Left out, hotspot's loop ran half its steps and both kernels lost
 * half their instructions to the exits' default 0.5.  short_poly and
 * devcall call subroutines (a division's slow path, the device functions):
 * walked where they are called (inputs/inline.h), or the kernels lose 37%
 * and 62% of their instructions. */
static void profile_counts_match_ncu(void **state)
{
    (void)state;
    const char *names[] = {"stream", "hotspot", "short_poly", "devcall"};
    for (int i = 0; i < 4; i++) {
        char args[512], spec[128];
        snprintf(spec, sizeof spec, "%s/%s.spec", tmpdir, names[i]);
        snprintf(args, sizeof args, "profile --ncu " DIR "ncu_%s.csv --ncu " DIR
                 "ncu_%s_source.csv --kernel %s -o %s", i < 2 ? "details" : "calls_details",
                 names[i], names[i], spec);
        clirun r = clirun_run(args);
        assert_int_equal(r.status, 0);
        free(r.out);

        rf_kernel *k = load(spec, NULL, NULL, NULL);
        double per_warp = per_warp_insts(k);
        const rf_launch *l = &k->launch;
        double warps = (double)l->grid[0] * l->grid[1] * l->grid[2] *
                       ((l->block[0] * l->block[1] * l->block[2] + 31) / 32);
        char src[128];
        snprintf(src, sizeof src, DIR "ncu_%s_source.csv", names[i]);
        double want = ncu_total(src, names[i]);
        if (fabs(warps * per_warp / want - 1) > 1e-9)
            fail_msg("%s: rfkit %.1f warp instructions, Nsight Compute %.0f", names[i],
                     warps * per_warp, want);
        rf_kernel_destroy(k);
    }
}

static void write_spec(const char *path, const char *branches)
{
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fprintf(fp, "[kernel]\ncode = %s/" DIR "stream.sass\nentry = stream\n[launch]\n"
                "grid = 960\nblock = 256\n[branches]\n%s\n", cwd, branches);
    fclose(fp);
}

/* [branches] by the branch's own block: exit@LABEL for a guarded exit,
 * TARGET@SOURCE for one branch among several to a label.  stream.sass:
 * entry block 10 instructions closed by `@P0 EXIT`, 8 more, the loop of 10
 * closed by `@!P0 BRA` back to itself (BB2), then EXIT.  With the exit
 * taken 0.25 and the back edge 0.9, a warp runs
 * 10 + 0.75 x (8 + 10 / (1 - 0.9) + 1) = 91.75 instructions. */
static void spec_keys_by_source(void **state)
{
    (void)state;
    char spec[128];
    snprintf(spec, sizeof spec, "%s/keys.spec", tmpdir);
    write_spec(spec, "exit@stream = 0.25\nBB2@BB2 = 0.9");
    rf_kernel *k = load(spec, NULL, NULL, NULL);
    assert_int_equal(k->psrc.branches, 2);
    assert_int_equal(k->psrc.from_spec, 2);
    assert_true(fabs(per_warp_insts(k) - 91.75) < 1e-9);
    rf_kernel_destroy(k);
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    rf_err err = {0};

    static const struct { const char *line, *msg; } bad[] = {
        {"exit@BB2 = 0.1", "keys.spec:8: exit@BB2: block 'BB2' does not end with a guarded exit"},
        {"exit@nope = 0.1", "keys.spec:8: exit@nope: no block of stream has the label 'nope'"},
        {"BB2@stream = 0.5", "keys.spec:8: BB2@stream: block 'stream' does not end with a "
                             "conditional branch to it"},
        {"nope@BB2 = 0.5", "keys.spec:8: nope@BB2: no block of stream has the label 'nope'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_spec(spec, bad[i].line);
        k = NULL;
        assert_int_not_equal(rf_kernel_load(spec, &o, &k, &err), 0);
        assert_null(k);
        assert_non_null(strstr(err.msg, bad[i].msg));
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    if (clirun_init(argv[0]))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(occupancy_matches_driver),
        cmocka_unit_test(sass_registers_match_driver),
        cmocka_unit_test(profile_counts_match_ncu),
        cmocka_unit_test(spec_keys_by_source),
    };
    return cmocka_run_group_tests(tests, make_tmp, rm_tmp);
}

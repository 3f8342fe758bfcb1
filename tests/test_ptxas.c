/* test_ptxas.c - ptxas -v register counts compiled per entry and cached by
 * content (inputs/ptxas.c).  The counts are ptxas's own; the tests check
 * where they come from: a miss runs ptxas, the same question again is
 * answered from the cache with the same count, and a changed PTX text or
 * a damaged cache file runs ptxas again.  Without ptxas on PATH there is
 * no count and no cache. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../inputs/ptxas.h"
#include "support/ptxgen.h"

static char dir[64], ptx[128], cache[128];

/* The one cache file's path in *out; the number of files in the cache. */
static int cache_files(char *out, size_t cap)
{
    DIR *d = opendir(cache);
    int n = 0;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(out, cap, "%s/%s", cache, e->d_name);
            n++;
        }
    closedir(d);
    return n;
}

static void write_ptx(int entries)
{
    char *t = rf_test_ptx_entries(entries);
    assert_non_null(t);
    assert_int_equal(rf_test_write_file(ptx, t), 0);
    free(t);
}

static int regs(const char *entry, const char *cdir, rf_ptxas_how want)
{
    rf_ptxas_how how = RF_PTXAS_NONE;
    int r = rf_ptxas_regs(ptx, "sm_75", entry, cdir, &how);
    assert_int_equal(how, want);
    return r;
}

static bool have_ptxas(void)
{
    const char *path = getenv("PATH");
    char exe[1024];
    for (const char *p = path ? path : ""; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(exe, sizeof exe, "%.*s/ptxas", (int)n, p);
        if (n && access(exe, X_OK) == 0)
            return true;
        p += n + (p[n] == ':');
    }
    return false;
}

static void test_cache(void **state)
{
    (void)state;
    write_ptx(3);
    if (!have_ptxas()) {
        assert_int_equal(regs("k2", cache, RF_PTXAS_NONE), -1);
        char f[512];
        assert_int_equal(cache_files(f, sizeof f), 0);
        skip();
    }
    /* Miss, then hit with the same count. */
    int r2 = regs("k2", cache, RF_PTXAS_RAN);
    assert_true(r2 > 0 && r2 <= 255);
    assert_int_equal(regs("k2", cache, RF_PTXAS_CACHED), r2);
    /* Only k2 was compiled: k1 is a miss, then both are in the file. */
    int r1 = regs("k1", cache, RF_PTXAS_RAN);
    assert_int_equal(regs("k1", cache, RF_PTXAS_CACHED), r1);
    char file[512], text[4096];
    assert_int_equal(cache_files(file, sizeof file), 1);
    FILE *fp = fopen(file, "r");
    assert_non_null(fp);
    size_t n = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[n] = '\0';
    assert_true(!strncmp(text, "rfkit-ptxas-cache 1\nkey ", 24));
    char line[64];
    snprintf(line, sizeof line, "\n%d k2\n", r2);
    assert_non_null(strstr(text, line));
    snprintf(line, sizeof line, "\n%d k1\n", r1);
    assert_non_null(strstr(text, line));
    /* Not an entry of the module: no count, nothing cached. */
    assert_int_equal(regs("k9", cache, RF_PTXAS_NONE), -1);
    /* A corrupt file is ignored and replaced. */
    fp = fopen(file, "w");
    assert_non_null(fp);
    fputs("rfkit-ptxas-cache 1\ngarbage\n7 k2\n", fp);
    fclose(fp);
    assert_int_equal(regs("k2", cache, RF_PTXAS_RAN), r2);
    assert_int_equal(regs("k2", cache, RF_PTXAS_CACHED), r2);
    /* A count line that does not parse spoils the whole file. */
    fp = fopen(file, "r");
    n = fread(text, 1, sizeof text - 1, fp);
    fclose(fp);
    text[n] = '\0';
    fp = fopen(file, "w");
    fprintf(fp, "%sx k0\n", text);
    fclose(fp);
    assert_int_equal(regs("k2", cache, RF_PTXAS_RAN), r2);
    /* Another text (one more entry) has another key: a miss. */
    write_ptx(4);
    assert_int_equal(regs("k2", cache, RF_PTXAS_RAN), r2);
    assert_int_equal(regs("k2", cache, RF_PTXAS_CACHED), r2);
    assert_int_equal(cache_files(file, sizeof file), 2);
    /* Priming: one whole-module compile caches every entry asked for. */
    static const char *const all[] = {"k0", "k1", "k2", "k3"};
    assert_int_equal(rf_ptxas_prime(ptx, "sm_75", all, 4, cache), 4);
    int r3 = regs("k3", cache, RF_PTXAS_CACHED);
    assert_true(r3 > 0);
    assert_int_equal(rf_ptxas_prime(ptx, "sm_75", all, 4, ""), -1);
    /* No cache folder: ptxas every time. */
    assert_int_equal(regs("k3", "", RF_PTXAS_RAN), regs("k3", "", RF_PTXAS_RAN));
    /* The whole module (no entry): the first entry's count (k0, primed above). */
    assert_int_equal(regs(NULL, cache, RF_PTXAS_RAN), regs("k0", cache, RF_PTXAS_CACHED));
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/rfkit_ptxas_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(ptx, sizeof ptx, "%s/many.ptx", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char f[512];
    while (cache_files(f, sizeof f) > 0)
        unlink(f);
    rmdir(cache);
    unlink(ptx);
    rmdir(dir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache),
    };
    return cmocka_run_group_tests_name("ptxas", tests, setup, teardown);
}

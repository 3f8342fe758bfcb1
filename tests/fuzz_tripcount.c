/* fuzz_tripcount.c - libFuzzer entry for the counted-loop recognition:
 * PTX text parsed, then every function's branches re-read and folded with
 * two kernel parameters and the launch's dimensions given; the same text read for parameter names as
 * PTX and as CUDA source. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../inputs/kir.h"
#include "../inputs/tripcount.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char names[8][128], base[64];
    (void)rf_trip_cu_params(text, "k", names, 8);
    rf_trip_base_name(text, base, sizeof base);
    rf_module *m = NULL;
    rf_err err = {0};
    if (rf_ptx_parse("fuzz.ptx", text, &m, &err) == 0) {
        const rf_kparam par[2] = {{"1", 100}, {"n", -7}};
        const int ntid[3] = {256, 1, 1}, nctaid[3] = {40, 2, 1};
        rf_trip_missing miss;
        for (int i = 0; i < m->nfuncs; i++) {
            (void)rf_trip_ptx_params(text, m->funcs[i].name, names, 8);
            rf_trip *t = NULL;
            int n = 0;
            if (rf_trip_find(&m->funcs[i], text, par, 2, ntid, nctaid, &t, &n, &miss, &err) == 0)
                free(t);
        }
        rf_module_destroy(m);
    }
    free(text);
    return 0;
}

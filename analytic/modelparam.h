/* modelparam.h - the free parameters of the closed-form models.
 *
 * A model with free parameters keeps them in a struct of doubles and
 * describes each one here: name (the key in calibration records), bounds the
 * fit must respect, the default that gives an uncalibrated estimate, unit and
 * help.  The calibrator sees only this table: it reads and writes the fields
 * by offset, fits the ones marked `fit`, and leaves the others at their
 * defaults.  One table per model; a model that embeds another model's
 * parameter struct lists those fields too (with offsets into the outer
 * struct), so the calibrator fits them together.
 */
#ifndef RF_MODELPARAM_H
#define RF_MODELPARAM_H

#include <stdbool.h>
#include <stddef.h>

typedef struct rf_mparam {
    const char *name;    /* record key, e.g. "lat_scale" */
    size_t offset;       /* offsetof(struct, double field) */
    double lo, hi;       /* bounds (inclusive) */
    double def;          /* uncalibrated value */
    bool fit;            /* fitted by default (others stay at def) */
    const char *unit;    /* "cycles", "1" (dimensionless), ... */
    const char *help;    /* one line */
} rf_mparam;

/* Set every parameter of obj to its default. */
static inline void rf_mparam_defaults(const rf_mparam *tab, size_t n, void *obj)
{
    for (size_t i = 0; i < n; i++)
        *(double *)((char *)obj + tab[i].offset) = tab[i].def;
}

static inline double rf_mparam_get(const rf_mparam *p, const void *obj)
{
    return *(const double *)((const char *)obj + p->offset);
}

static inline void rf_mparam_put(const rf_mparam *p, void *obj, double v)
{
    *(double *)((char *)obj + p->offset) = v;
}

/* Index of a parameter by name, or -1. */
static inline int rf_mparam_index(const rf_mparam *tab, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        const char *a = tab[i].name, *b = name;
        while (*a && *a == *b)
            a++, b++;
        if (*a == '\0' && *b == '\0')
            return (int)i;
    }
    return -1;
}

#endif /* RF_MODELPARAM_H */

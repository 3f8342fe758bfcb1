/* param.h - parameter tables: one line per parameter drives parsing, range
 * checks, --help text, CSV column mapping and the dump of the effective
 * configuration (the redis config.c idea).
 *
 * A table is an array of rf_param describing fields of one struct (by offset).
 * The same name is the command-line option (--name), the key in INI/config
 * files, and the CSV column in batch mode.
 */
#ifndef RF_PARAM_H
#define RF_PARAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"

typedef enum rf_ptype {
    RF_PT_INT,    /* int field */
    RF_PT_DOUBLE, /* double field */
    RF_PT_BOOL,   /* bool field: 1/0, true/false, yes/no, on/off */
    RF_PT_ENUM,   /* int field holding an index into choices[] */
    RF_PT_STRING  /* char[RF_PARAM_STR_MAX] field */
} rf_ptype;

#define RF_PARAM_STR_MAX 256

typedef struct rf_param {
    const char *name;              /* option / key / CSV column */
    rf_ptype type;
    size_t offset;                 /* offsetof(struct, field) */
    double min, max;               /* inclusive bounds (INT, DOUBLE) */
    double def;                    /* default (INT, DOUBLE, BOOL, ENUM index) */
    const char *const *choices;    /* ENUM: NULL-terminated names */
    const char *unit;              /* "bytes", "cycles", ... or NULL */
    const char *help;              /* one line */
} rf_param;

/* Where a value came from, for error messages: file (or "command line"),
 * line (0 if none). */
typedef struct rf_where {
    const char *file;
    int line;
} rf_where;

/* Set every field of obj to its default. */
void rf_param_defaults(const rf_param *tab, size_t n, void *obj);

/* Find a parameter by name; NULL when absent. */
const rf_param *rf_param_find(const rf_param *tab, size_t n, const char *name);

/* Parse text into the parameter's field, checking type and bounds.
 * Returns 0 or RF_ENUMBER / RF_ERANGE / RF_EUNKNOWN with err filled. */
int rf_param_parse(const rf_param *p, void *obj, const char *text,
                   rf_where where, rf_err *err);

/* The same with the value's column on its line (0 = unknown). */
int rf_param_parse_at(const rf_param *p, void *obj, const char *text,
                      rf_where where, int col, rf_err *err);

/* rf_param_find + rf_param_parse; unknown keys are RF_EUNKNOWN. */
int rf_param_set(const rf_param *tab, size_t n, void *obj, const char *key,
                 const char *text, rf_where where, rf_err *err);

/* Format the current value of a field (no unit) into buf. */
void rf_param_format(const rf_param *p, const void *obj, char *buf, size_t cap);

/* Value as a double (INT, DOUBLE, BOOL, ENUM index). */
double rf_param_value(const rf_param *p, const void *obj);

/* Help lines: "  --name VALUE   help (unit, range, default)"; a bool is
 * "--name[=0|1]" (the flag alone turns it on). */
void rf_param_help(FILE *out, const rf_param *tab, size_t n);

/* The same as keys of a file: "  name = VALUE   help (...)". */
void rf_param_keys(FILE *out, const rf_param *tab, size_t n);

/* Dump "prefix name = value" lines (the effective configuration). */
void rf_param_dump(FILE *out, const rf_param *tab, size_t n, const void *obj,
                   const char *prefix);

/* Strict number parsing helpers shared by every reader. */
int rf_parse_long(const char *text, long *out);     /* 0 or RF_ENUMBER */
int rf_parse_double(const char *text, double *out); /* 0 or RF_ENUMBER */

/* The same with a range check and one wording for a bad number wherever it
 * is (a file's key, a CSV column, a command-line option):
 *     "WHERE: name: 'x' is not a whole number"  (RF_ENUMBER)
 *     "WHERE: name: 'x' is not a number"        (RF_ENUMBER)
 *     "WHERE: name: 300 is outside [0, 255]"    (RF_ERANGE)
 * col is the value's column on its line (0 = unknown). */
int rf_parse_long_in(const char *text, long lo, long hi, rf_where where, int col,
                     const char *name, long *out, rf_err *err);
int rf_parse_double_in(const char *text, double lo, double hi, rf_where where, int col,
                       const char *name, double *out, rf_err *err);

#endif /* RF_PARAM_H */

/* param.c - generic parsing, checking, help and dump for parameter tables. */
#include "param.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void *field(void *obj, const rf_param *p)
{
    return (char *)obj + p->offset;
}

static const void *cfield(const void *obj, const rf_param *p)
{
    return (const char *)obj + p->offset;
}

int rf_parse_long(const char *text, long *out)
{
    if (!text)
        return RF_ENUMBER;
    /* Fast path for plain decimal digits without a leading zero (read the
     * same way by strtol below): batch files are mostly such cells. */
    if (text[0] >= '1' && text[0] <= '9') {
        long v = 0;
        int n = 0;
        while (n < 18 && text[n] >= '0' && text[n] <= '9')
            v = 10 * v + (text[n++] - '0');
        if (text[n] == '\0') {
            *out = v;
            return RF_OK;
        }
    }
    while (isspace((unsigned char)*text))
        text++;
    if (!*text)
        return RF_ENUMBER;
    /* Decimal, or hexadecimal after 0x: a leading zero is not octal
     * ("010" is ten, as "010.0" is). */
    const char *digits = text + (*text == '+' || *text == '-');
    bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    char *end;
    errno = 0;
    long v = strtol(text, &end, hex ? 16 : 10);
    if (errno || end == text)
        return RF_ENUMBER;
    /* Allow an exact float spelling of an integer such as "32.0" or "1e3". */
    if (*end == '.' || *end == 'e' || *end == 'E') {
        double d;
        if (rf_parse_double(text, &d) || d != floor(d) || fabs(d) > 9e18)
            return RF_ENUMBER;
        *out = (long)d;
        return RF_OK;
    }
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return RF_ENUMBER;
    *out = v;
    return RF_OK;
}

int rf_parse_double(const char *text, double *out)
{
    if (!text)
        return RF_ENUMBER;
    while (isspace((unsigned char)*text))
        text++;
    if (!*text)
        return RF_ENUMBER;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || !isfinite(v))
        return RF_ENUMBER;
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return RF_ENUMBER;
    *out = v;
    return RF_OK;
}

int rf_parse_long_in(const char *text, long lo, long hi, rf_where where, int col,
                     const char *name, long *out, rf_err *err)
{
    long v;
    if (rf_parse_long(text, &v))
        return rf_err_set(err, RF_ENUMBER, where.file, where.line, col, name,
                          "'%s' is not a whole number", text ? text : "");
    if (v < lo || v > hi)
        return rf_err_set(err, RF_ERANGE, where.file, where.line, col, name,
                          "%ld is outside [%ld, %ld]", v, lo, hi);
    *out = v;
    return RF_OK;
}

int rf_parse_double_in(const char *text, double lo, double hi, rf_where where, int col,
                       const char *name, double *out, rf_err *err)
{
    double v;
    if (rf_parse_double(text, &v))
        return rf_err_set(err, RF_ENUMBER, where.file, where.line, col, name,
                          "'%s' is not a number", text ? text : "");
    if (!(v >= lo && v <= hi))
        return rf_err_set(err, RF_ERANGE, where.file, where.line, col, name,
                          "%g is outside [%g, %g]", v, lo, hi);
    *out = v;
    return RF_OK;
}

void rf_param_defaults(const rf_param *tab, size_t n, void *obj)
{
    for (size_t i = 0; i < n; i++) {
        const rf_param *p = &tab[i];
        switch (p->type) {
        case RF_PT_INT:
        case RF_PT_ENUM:
            *(int *)field(obj, p) = (int)p->def;
            break;
        case RF_PT_DOUBLE:
            *(double *)field(obj, p) = p->def;
            break;
        case RF_PT_BOOL:
            *(bool *)field(obj, p) = p->def != 0;
            break;
        case RF_PT_STRING:
            ((char *)field(obj, p))[0] = '\0';
            break;
        }
    }
}

const rf_param *rf_param_find(const rf_param *tab, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(tab[i].name, name) == 0)
            return &tab[i];
    return NULL;
}

static int parse_bool(const char *t, bool *out)
{
    static const char *const yes[] = {"1", "true", "yes", "on"};
    static const char *const no[] = {"0", "false", "no", "off"};
    if ((t[0] == '0' || t[0] == '1') && t[1] == '\0') {
        *out = t[0] == '1';
        return RF_OK;
    }
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(t, yes[i]) == 0) {
            *out = true;
            return RF_OK;
        }
        if (strcasecmp(t, no[i]) == 0) {
            *out = false;
            return RF_OK;
        }
    }
    return RF_ENUMBER;
}

static void choices_list(const rf_param *p, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; p->choices && p->choices[i] && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? "|" : "",
                              p->choices[i]);
}

int rf_param_parse(const rf_param *p, void *obj, const char *text,
                   rf_where where, rf_err *err)
{
    return rf_param_parse_at(p, obj, text, where, 0, err);
}

int rf_param_parse_at(const rf_param *p, void *obj, const char *text,
                      rf_where where, int col, rf_err *err)
{
    const char *t = text ? text : "";
    switch (p->type) {
    case RF_PT_INT: {
        long v;
        int rc = rf_parse_long_in(t, (long)p->min, (long)p->max, where, col, p->name, &v, err);
        if (rc)
            return rc;
        *(int *)field(obj, p) = (int)v;
        return RF_OK;
    }
    case RF_PT_DOUBLE: {
        double v;
        int rc = rf_parse_double_in(t, p->min, p->max, where, col, p->name, &v, err);
        if (rc)
            return rc;
        *(double *)field(obj, p) = v;
        return RF_OK;
    }
    case RF_PT_BOOL: {
        bool v;
        if (parse_bool(t, &v))
            return rf_err_set(err, RF_ENUMBER, where.file, where.line, col,
                              p->name, "'%s' is not a boolean (1/0, yes/no)",
                              t);
        *(bool *)field(obj, p) = v;
        return RF_OK;
    }
    case RF_PT_ENUM:
        for (int i = 0; p->choices && p->choices[i]; i++) {
            if (strcasecmp(t, p->choices[i]) == 0) {
                *(int *)field(obj, p) = i;
                return RF_OK;
            }
        }
        {
            char list[256];
            choices_list(p, list, sizeof list);
            return rf_err_set(err, RF_EUNKNOWN, where.file, where.line, col,
                              p->name, "'%s' is not one of %s", t, list);
        }
    case RF_PT_STRING:
        if (strlen(t) >= RF_PARAM_STR_MAX)
            return rf_err_set(err, RF_ERANGE, where.file, where.line, col,
                              p->name, "value longer than %d characters",
                              RF_PARAM_STR_MAX - 1);
        strcpy((char *)field(obj, p), t);
        return RF_OK;
    }
    return rf_err_set(err, RF_EINTERNAL, where.file, where.line, col, p->name,
                      "bad parameter type");
}

int rf_param_set(const rf_param *tab, size_t n, void *obj, const char *key,
                 const char *text, rf_where where, rf_err *err)
{
    const rf_param *p = rf_param_find(tab, n, key);
    if (!p)
        return rf_err_set(err, RF_EUNKNOWN, where.file, where.line, 0, key,
                          "unknown parameter");
    return rf_param_parse(p, obj, text, where, err);
}

double rf_param_value(const rf_param *p, const void *obj)
{
    switch (p->type) {
    case RF_PT_INT:
    case RF_PT_ENUM:
        return *(const int *)cfield(obj, p);
    case RF_PT_DOUBLE:
        return *(const double *)cfield(obj, p);
    case RF_PT_BOOL:
        return *(const bool *)cfield(obj, p) ? 1.0 : 0.0;
    case RF_PT_STRING:
        return 0.0;
    }
    return 0.0;
}

void rf_param_format(const rf_param *p, const void *obj, char *buf, size_t cap)
{
    switch (p->type) {
    case RF_PT_INT:
        snprintf(buf, cap, "%d", *(const int *)cfield(obj, p));
        break;
    case RF_PT_DOUBLE:
        snprintf(buf, cap, "%.10g", *(const double *)cfield(obj, p));
        break;
    case RF_PT_BOOL:
        snprintf(buf, cap, "%d", *(const bool *)cfield(obj, p) ? 1 : 0);
        break;
    case RF_PT_ENUM: {
        int i = *(const int *)cfield(obj, p);
        snprintf(buf, cap, "%s", p->choices ? p->choices[i] : "?");
        break;
    }
    case RF_PT_STRING:
        snprintf(buf, cap, "%s", (const char *)cfield(obj, p));
        break;
    }
}

/* Help lines as command-line options ("--name N") or as file keys
 * ("name = N"). */
static void help_lines(FILE *out, const rf_param *tab, size_t n, bool keys)
{
    const char *lead = keys ? "" : "--", *sep = keys ? " = " : " ";
    for (size_t i = 0; i < n; i++) {
        const rf_param *p = &tab[i];
        char arg[300], rng[300];
        switch (p->type) {
        case RF_PT_INT:
            snprintf(arg, sizeof arg, "%s%s%sN", lead, p->name, sep);
            snprintf(rng, sizeof rng, "%g..%g, default %g", p->min, p->max,
                     p->def);
            break;
        case RF_PT_DOUBLE:
            snprintf(arg, sizeof arg, "%s%s%sX", lead, p->name, sep);
            snprintf(rng, sizeof rng, "%g..%g, default %g", p->min, p->max,
                     p->def);
            break;
        case RF_PT_BOOL:
            /* A flag turns it on; --name=0 turns it off. */
            snprintf(arg, sizeof arg, keys ? "%s = 0|1" : "--%s[=0|1]", p->name);
            snprintf(rng, sizeof rng, "default %s", p->def ? "on" : "off");
            break;
        case RF_PT_ENUM: {
            char list[256];
            choices_list(p, list, sizeof list);
            snprintf(arg, sizeof arg, "%s%s%s%s", lead, p->name, sep, list);
            snprintf(rng, sizeof rng, "default %s",
                     p->choices[(int)p->def]);
            break;
        }
        case RF_PT_STRING:
        default:
            snprintf(arg, sizeof arg, "%s%s%sS", lead, p->name, sep);
            snprintf(rng, sizeof rng, "text");
            break;
        }
        fprintf(out, "  %-28s %s (%s%s%s)\n", arg, p->help, p->unit ? p->unit : "",
                p->unit ? ", " : "", rng);
    }
}

void rf_param_help(FILE *out, const rf_param *tab, size_t n)
{
    help_lines(out, tab, n, false);
}

void rf_param_keys(FILE *out, const rf_param *tab, size_t n)
{
    help_lines(out, tab, n, true);
}

void rf_param_dump(FILE *out, const rf_param *tab, size_t n, const void *obj,
                   const char *prefix)
{
    for (size_t i = 0; i < n; i++) {
        char buf[RF_PARAM_STR_MAX + 32];
        rf_param_format(&tab[i], obj, buf, sizeof buf);
        fprintf(out, "%s%s = %s\n", prefix ? prefix : "", tab[i].name, buf);
    }
}

/* test_param.c - parameter tables (common/param.c) and error messages
 * (common/error.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/error.h"
#include "../common/param.h"

typedef struct demo {
    int n;
    double x;
    bool on;
    int mode;
    char label[RF_PARAM_STR_MAX];
} demo;

static const char *const modes[] = {"fast", "slow", NULL};

static const rf_param demo_params[] = {
    {"n", RF_PT_INT, offsetof(demo, n), 1, 100, 8, NULL, "warps", "a count"},
    {"x", RF_PT_DOUBLE, offsetof(demo, x), 0, 1, 0.25, NULL, NULL, "a fraction"},
    {"on", RF_PT_BOOL, offsetof(demo, on), 0, 1, 1, NULL, NULL, "a switch"},
    {"mode", RF_PT_ENUM, offsetof(demo, mode), 0, 0, 1, modes, NULL, "a choice"},
    {"label", RF_PT_STRING, offsetof(demo, label), 0, 0, 0, NULL, NULL, "a name"},
};
#define NDEMO (sizeof demo_params / sizeof demo_params[0])
static const rf_where here = {"cfg.ini", 7};

static void test_parse_long(void **state)
{
    (void)state;
    long v;
    assert_int_equal(rf_parse_long("42", &v), RF_OK);
    assert_int_equal(v, 42);
    assert_int_equal(rf_parse_long("  -7 ", &v), RF_OK);
    assert_int_equal(v, -7);
    assert_int_equal(rf_parse_long("0x10", &v), RF_OK);
    assert_int_equal(v, 16);
    assert_int_equal(rf_parse_long("32.0", &v), RF_OK);
    assert_int_equal(v, 32);
    assert_int_equal(rf_parse_long("1e3", &v), RF_OK);
    assert_int_equal(v, 1000);
    assert_int_equal(rf_parse_long("3.5", &v), RF_ENUMBER);
    assert_int_equal(rf_parse_long("abc", &v), RF_ENUMBER);
    assert_int_equal(rf_parse_long("12abc", &v), RF_ENUMBER);
    assert_int_equal(rf_parse_long("", &v), RF_ENUMBER);
    assert_int_equal(rf_parse_long("   ", &v), RF_ENUMBER);
    assert_int_equal(rf_parse_long(NULL, &v), RF_ENUMBER);
    assert_int_equal(rf_parse_long("99999999999999999999999", &v), RF_ENUMBER);
    /* Plain digits (the fast path) and what strtol reads differently. */
    assert_int_equal(rf_parse_long("7", &v), RF_OK);
    assert_int_equal(v, 7);
    assert_int_equal(rf_parse_long("123456789012345678", &v), RF_OK);
    assert_int_equal(v, 123456789012345678L);
    assert_int_equal(rf_parse_long("1234567890123456789", &v), RF_OK);
    assert_int_equal(v, 1234567890123456789L);
    /* A leading zero is decimal ("010" was octal 8 while "010.0" was 10). */
    assert_int_equal(rf_parse_long("010", &v), RF_OK);
    assert_int_equal(v, 10);
    assert_int_equal(rf_parse_long("-032", &v), RF_OK);
    assert_int_equal(v, -32);
    assert_int_equal(rf_parse_long("09", &v), RF_OK);      /* not a bad octal digit */
    assert_int_equal(v, 9);
    assert_int_equal(rf_parse_long("-0x10", &v), RF_OK);
    assert_int_equal(v, -16);
    assert_int_equal(rf_parse_long("0", &v), RF_OK);
    assert_int_equal(v, 0);
    assert_int_equal(rf_parse_long("16 ", &v), RF_OK);
    assert_int_equal(v, 16);
    assert_int_equal(rf_parse_long("8.0", &v), RF_OK);
    assert_int_equal(v, 8);
    assert_int_equal(rf_parse_long("+8", &v), RF_OK);
    assert_int_equal(v, 8);
    assert_int_equal(rf_parse_long("8x", &v), RF_ENUMBER);
}

static void test_parse_double(void **state)
{
    (void)state;
    double d;
    assert_int_equal(rf_parse_double("0.5", &d), RF_OK);
    assert_true(d == 0.5);
    assert_int_equal(rf_parse_double(" 1e-3 ", &d), RF_OK);
    assert_true(d == 1e-3);
    assert_int_equal(rf_parse_double("-2", &d), RF_OK);
    assert_true(d == -2);
    assert_int_equal(rf_parse_double("inf", &d), RF_ENUMBER);
    assert_int_equal(rf_parse_double("nan", &d), RF_ENUMBER);
    assert_int_equal(rf_parse_double("1.2.3", &d), RF_ENUMBER);
    assert_int_equal(rf_parse_double("", &d), RF_ENUMBER);
    assert_int_equal(rf_parse_double(NULL, &d), RF_ENUMBER);
    assert_int_equal(rf_parse_double("1e999", &d), RF_ENUMBER);
}

static void test_defaults_find(void **state)
{
    (void)state;
    demo o;
    memset(&o, 0x5a, sizeof o);
    rf_param_defaults(demo_params, NDEMO, &o);
    assert_int_equal(o.n, 8);
    assert_true(o.x == 0.25);
    assert_true(o.on);
    assert_int_equal(o.mode, 1);
    assert_string_equal(o.label, "");
    assert_ptr_equal(rf_param_find(demo_params, NDEMO, "mode"), &demo_params[3]);
    assert_null(rf_param_find(demo_params, NDEMO, "Mode"));
    assert_true(rf_param_value(&demo_params[0], &o) == 8);
    assert_true(rf_param_value(&demo_params[2], &o) == 1);
    assert_true(rf_param_value(&demo_params[3], &o) == 1);
    assert_true(rf_param_value(&demo_params[4], &o) == 0);
}

static void test_parse_set(void **state)
{
    (void)state;
    demo o;
    rf_err err;
    rf_param_defaults(demo_params, NDEMO, &o);
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "n", "64", here, &err), RF_OK);
    assert_int_equal(o.n, 64);
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "x", "0.75", here, &err), RF_OK);
    assert_true(o.x == 0.75);
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "on", "off", here, &err), RF_OK);
    assert_false(o.on);
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "on", "YES", here, &err), RF_OK);
    assert_true(o.on);
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "mode", "FAST", here, &err), RF_OK);
    assert_int_equal(o.mode, 0);
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "label", "sm 0", here, &err), RF_OK);
    assert_string_equal(o.label, "sm 0");

    /* Errors name file:line: field and leave the value alone. */
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "n", "101", here, &err), RF_ERANGE);
    assert_string_equal(err.msg, "cfg.ini:7: n: 101 is outside [1, 100]");
    assert_int_equal(o.n, 64);
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "n", "-3", here, &err), RF_ERANGE);
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "n", "ten", here, &err), RF_ENUMBER);
    assert_string_equal(err.msg, "cfg.ini:7: n: 'ten' is not a whole number");
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "x", "1.5", here, &err), RF_ERANGE);
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "x", "half", here, &err), RF_ENUMBER);
    assert_string_equal(err.msg, "cfg.ini:7: x: 'half' is not a number");
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "on", "maybe", here, &err), RF_ENUMBER);
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "mode", "medium", here, &err),
                     RF_EUNKNOWN);
    assert_string_equal(err.msg, "cfg.ini:7: mode: 'medium' is not one of fast|slow");
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "size", "1", here, &err), RF_EUNKNOWN);
    assert_string_equal(err.msg, "cfg.ini:7: size: unknown parameter");
    char longtext[RF_PARAM_STR_MAX + 10];
    memset(longtext, 'a', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "label", longtext, here, &err),
                     RF_ERANGE);
    assert_string_equal(o.label, "sm 0");
    /* No line: just the file. */
    rf_where cl = {"command line", 0};
    assert_int_equal(rf_param_set(demo_params, NDEMO, &o, "n", "0", cl, &err), RF_ERANGE);
    assert_string_equal(err.msg, "command line: n: 0 is outside [1, 100]");
}

/* Output of fn on a memory stream. */
static char *capture(void (*fn)(FILE *, const void *), const void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    fn(f, arg);
    fclose(f);
    return buf;
}

static void do_help(FILE *f, const void *arg)
{
    (void)arg;
    rf_param_help(f, demo_params, NDEMO);
}

static void do_keys(FILE *f, const void *arg)
{
    (void)arg;
    rf_param_keys(f, demo_params, NDEMO);
}

static void do_dump(FILE *f, const void *arg)
{
    rf_param_dump(f, demo_params, NDEMO, arg, "# ");
}

static void test_format_help_dump(void **state)
{
    (void)state;
    demo o;
    rf_err err;
    char buf[64];
    rf_param_defaults(demo_params, NDEMO, &o);
    rf_param_set(demo_params, NDEMO, &o, "label", "k1", here, &err);
    rf_param_format(&demo_params[1], &o, buf, sizeof buf);
    assert_string_equal(buf, "0.25");
    rf_param_format(&demo_params[3], &o, buf, sizeof buf);
    assert_string_equal(buf, "slow");
    rf_param_format(&demo_params[2], &o, buf, sizeof buf);
    assert_string_equal(buf, "1");

    char *help = capture(do_help, NULL);
    assert_non_null(strstr(help, "--n N"));
    assert_non_null(strstr(help, "a count (warps, 1..100, default 8)"));
    assert_non_null(strstr(help, "--mode fast|slow"));
    assert_non_null(strstr(help, "default slow"));
    assert_non_null(strstr(help, "--on[=0|1]"));
    free(help);
    char *keys = capture(do_keys, NULL);
    assert_non_null(strstr(keys, "  n = N "));
    assert_non_null(strstr(keys, "a count (warps, 1..100, default 8)"));
    assert_non_null(strstr(keys, "  mode = fast|slow "));
    assert_non_null(strstr(keys, "  on = 0|1 "));
    assert_null(strstr(keys, "--"));
    free(keys);

    char *dump = capture(do_dump, &o);
    assert_string_equal(dump, "# n = 8\n# x = 0.25\n# on = 1\n# mode = slow\n# label = k1\n");
    free(dump);

    /* A dump reads back to the same values. */
    demo back;
    rf_param_defaults(demo_params, NDEMO, &back);
    for (size_t i = 0; i < NDEMO; i++) {
        char v[RF_PARAM_STR_MAX];
        rf_param_format(&demo_params[i], &o, v, sizeof v);
        assert_int_equal(rf_param_parse(&demo_params[i], &back, v, here, &err), RF_OK);
    }
    assert_int_equal(o.n, back.n);
    assert_true(o.x == back.x && o.on == back.on);
    assert_int_equal(o.mode, back.mode);
    assert_string_equal(o.label, back.label);
}

/* rf_param_parse_at places a bad value at its column (batch cells, spec
 * values); rf_param_parse is the same at column 0 (left out). */
static void test_parse_at_column(void **state)
{
    (void)state;
    demo o;
    rf_err err;
    rf_param_defaults(demo_params, NDEMO, &o);
    assert_int_equal(rf_param_parse_at(&demo_params[0], &o, "500", here, 9, &err), RF_ERANGE);
    assert_string_equal(err.msg, "cfg.ini:7:9: n: 500 is outside [1, 100]");
    assert_int_equal(rf_param_parse_at(&demo_params[3], &o, "medium", here, 4, &err),
                     RF_EUNKNOWN);
    assert_true(!strncmp(err.msg, "cfg.ini:7:4: mode: ", 19));
    assert_int_equal(rf_param_parse(&demo_params[0], &o, "500", here, &err), RF_ERANGE);
    assert_string_equal(err.msg, "cfg.ini:7: n: 500 is outside [1, 100]");
    assert_int_equal(rf_param_parse_at(&demo_params[0], &o, "12", here, 9, &err), RF_OK);
    assert_int_equal(o.n, 12);
}

static void test_errors(void **state)
{
    (void)state;
    rf_err err;
    assert_int_equal(rf_err_set(&err, RF_EPARSE, "k.spec", 3, 14, "grid", "bad %s", "value"),
                     RF_EPARSE);
    assert_int_equal(err.code, RF_EPARSE);
    assert_string_equal(err.msg, "k.spec:3:14: grid: bad value");
    rf_err_set(&err, RF_EPARSE, "k.spec", 3, 0, NULL, "bad");
    assert_string_equal(err.msg, "k.spec:3: bad");
    rf_err_set(&err, RF_EIO, "k.spec", 0, 0, NULL, "gone");
    assert_string_equal(err.msg, "k.spec: gone");
    rf_err_set(&err, RF_ERANGE, NULL, 0, 0, "regs", "too many");
    assert_string_equal(err.msg, "regs: too many");
    rf_err_set(&err, RF_ELIMIT, NULL, 0, 0, NULL, NULL);
    assert_string_equal(err.msg, "exceeds a hardware limit");
    assert_int_equal(rf_err_set(NULL, RF_EFIT, "x", 1, 1, "y", "z"), RF_EFIT);
    rf_err_clear(&err);
    assert_int_equal(err.code, RF_OK);
    assert_string_equal(err.msg, "");
    rf_err_clear(NULL);

    /* Codes, names and texts come from one list. */
    assert_int_equal(RF_EUSAGE, -1);
    assert_int_equal(RF_EINTERNAL, -RF_ERR_COUNT);
    assert_string_equal(rf_errname(RF_OK), "OK");
    assert_string_equal(rf_strerror(RF_OK), "success");
    assert_string_equal(rf_errname(RF_ENUMBER), "NUMBER");
    assert_string_equal(rf_strerror(RF_ENUMBER), "not a valid number");
    assert_string_equal(rf_errname(RF_EWATCHDOG), "WATCHDOG");
    for (int c = -1; c >= -RF_ERR_COUNT; c--) {
        assert_true(strlen(rf_strerror(c)) > 0);
        assert_string_not_equal(rf_strerror(c), "unknown error");
    }
    assert_string_equal(rf_strerror(-RF_ERR_COUNT - 1), "unknown error");
    assert_string_equal(rf_strerror(5), "unknown error");
    assert_string_equal(rf_errname(-100), "UNKNOWN_ERROR");

    /* Long messages are cut, never overflow. */
    char big[2 * RF_ERR_MSG_MAX];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    rf_err_set(&err, RF_EPARSE, big, 1, 1, big, "%s", big);
    assert_int_equal(strlen(err.msg), RF_ERR_MSG_MAX - 1);
    rf_err_set(&err, RF_EPARSE, "f", 1, 0, big, "%s", big);
    assert_int_equal(strlen(err.msg), RF_ERR_MSG_MAX - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_long),    cmocka_unit_test(test_parse_double),
        cmocka_unit_test(test_defaults_find), cmocka_unit_test(test_parse_set),
        cmocka_unit_test(test_format_help_dump), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_parse_at_column),
    };
    return cmocka_run_group_tests_name("param", tests, NULL, NULL);
}

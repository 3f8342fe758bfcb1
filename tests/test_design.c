/* test_design.c - design parameters: names, defaults and the bank-stealing
 * flags' rule shared by every command (analytic/design.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <cmocka.h>

#include "../analytic/design.h"

static void steal(int read, int write, bool want_read, bool want_write)
{
    rf_design d;
    rf_design_init(&d);
    assert_int_equal(rf_design_set_kind(&d, "stealing", NULL), 0);
    rf_design_steal_flags(&d, read, write);
    assert_int_equal(d.read_steal, want_read);
    assert_int_equal(d.write_steal, want_write);
}

static void steal_flags(void **state)
{
    (void)state;
    /* (read, write) given: -1 not given, 0 off, 1 on. */
    steal(-1, -1, true, true);      /* design stealing alone: both */
    steal(1, -1, true, false);      /* --read-steal: read only */
    steal(-1, 1, false, true);      /* --write-steal: write only */
    steal(1, 1, true, true);
    steal(-1, 0, true, false);      /* --write-steal=0: the other stays on */
    steal(0, -1, false, true);
    steal(0, 0, false, false);
    steal(1, 0, true, false);
    steal(0, 1, false, true);
}

static void kinds_by_name(void **state)
{
    (void)state;
    rf_design d;
    rf_design_init(&d);
    assert_int_equal(d.kind, RF_DESIGN_BASELINE);
    assert_true(d.read_steal && d.write_steal);     /* the table's defaults */
    assert_int_equal(rf_design_set_kind(&d, "hirf", NULL), 0);
    assert_string_equal(rf_design_name(d.kind), "hirf");
    rf_err err;
    assert_true(rf_design_set_kind(&d, "no-such-design", &err) < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(steal_flags),
        cmocka_unit_test(kinds_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

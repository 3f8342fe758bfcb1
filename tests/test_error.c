/* test_error.c - error messages (common/error.c): quoted input is escaped
 * once, where messages are formatted; a message without a place gets one
 * from the caller that knows it, and keeps its field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../common/error.h"

/* Control bytes (C0, DEL, C1 in UTF-8) and bytes that are not UTF-8 are
 * written \xNN; printable ASCII and valid UTF-8 characters stay. */
static void control_bytes_are_escaped(void **state)
{
    (void)state;
    rf_err err;
    rf_err_clear(&err);
    /* ESC [ 3 1 m (a terminal colour), BEL, DEL, a C1 NEL (c2 85). */
    rf_err_set(&err, RF_EUNKNOWN, "in.csv", 3, 1, "gpu", "unknown GPU preset '%s'",
               "v1\x1b[31m00\a\x7f\xc2\x85");
    assert_string_equal(err.msg,
                        "in.csv:3:1: gpu: unknown GPU preset 'v1\\x1b[31m00\\x07\\x7f\\xc2\\x85'");
    /* é (c3 a9) and € (e2 82 ac) are kept; a lone continuation byte, a
     * lead byte without its continuation and 0xff are not UTF-8. */
    rf_err_set(&err, RF_EPARSE, NULL, 0, 0, NULL, "caf\xc3\xa9 \xe2\x82\xac \x80 \xc3x \xff");
    assert_string_equal(err.msg, "caf\xc3\xa9 \xe2\x82\xac \\x80 \\xc3x \\xff");
    /* An overlong encoding of '/' (c0 af) and a surrogate (ed a0 80). */
    rf_err_set(&err, RF_EPARSE, NULL, 0, 0, NULL, "\xc0\xaf \xed\xa0\x80");
    assert_string_equal(err.msg, "\\xc0\\xaf \\xed\\xa0\\x80");
    /* A newline or tab in a file name is escaped too: one line always. */
    rf_err_set(&err, RF_EIO, "a\nb\tc", 0, 0, NULL, "cannot open");
    assert_string_equal(err.msg, "a\\x0ab\\x09c: cannot open");
    /* The same rule for text that does not go through an rf_err. */
    char buf[32];
    assert_int_equal(rf_err_escape(buf, sizeof buf, "x\001y"), 6);
    assert_string_equal(buf, "x\\x01y");
}

/* Backslashes are kept, so a message quoted into another (a batch row's
 * error holding a GPU file's) is not escaped twice; an argument may be the
 * message itself. */
static void escaping_is_idempotent(void **state)
{
    (void)state;
    rf_err inner, outer;
    rf_err_clear(&inner);
    rf_err_set(&inner, RF_EPARSE, "g.ini", 2, 0, "name", "'x\001y'");
    assert_string_equal(inner.msg, "g.ini:2: name: 'x\\x01y'");
    rf_err_set(&outer, inner.code, "in.csv", 4, 1, NULL, "%s", inner.msg);
    assert_string_equal(outer.msg, "in.csv:4:1: g.ini:2: name: 'x\\x01y'");
    rf_err_set(&outer, outer.code, "b.csv", 0, 0, NULL, "%s", outer.msg);
    assert_string_equal(outer.msg, "b.csv: in.csv:4:1: g.ini:2: name: 'x\\x01y'");
}

/* A long message is cut between escapes, never inside one: 600 control
 * bytes give 127 whole "\x01" (4 bytes each, 508 of the 511 a message
 * holds), never a "\x0" or a "\". */
static void long_messages_are_cut_between_escapes(void **state)
{
    (void)state;
    char raw[601];
    memset(raw, 1, 600);
    raw[600] = '\0';
    rf_err err;
    rf_err_set(&err, RF_EPARSE, NULL, 0, 0, NULL, "%s", raw);
    assert_int_equal(strlen(err.msg), 127 * 4);
    assert_string_equal(err.msg + 126 * 4, "\\x01");
    /* A 2-byte character at the cut is dropped whole: 510 'a' then é
     * (511 + 1 bytes) keep the 510 'a' alone. */
    char text[520];
    memset(text, 'a', 510);
    memcpy(text + 510, "\xc3\xa9", 3);
    rf_err_set(&err, RF_EPARSE, NULL, 0, 0, NULL, "%s", text);
    assert_int_equal(strlen(err.msg), 510);
}

/* rf_err_place: a message that names no file gets the caller's place in
 * front and keeps its field; one that names a file is left alone. */
static void place_fills_only_a_missing_place(void **state)
{
    (void)state;
    rf_err err;
    rf_err_clear(&err);
    rf_err_set(&err, RF_ELIMIT, NULL, 0, 0, "threads",
               "2048 threads per CTA exceed the 1024 that v100 allows");
    assert_int_equal(err.placed, 0);
    assert_true(rf_err_field_is(&err, "threads"));
    assert_int_equal(rf_err_place(&err, "in.csv", 5, 3), RF_ELIMIT);
    assert_string_equal(err.msg,
                        "in.csv:5:3: threads: 2048 threads per CTA exceed the 1024 that v100 allows");
    assert_true(rf_err_field_is(&err, "threads"));
    assert_int_equal(err.placed, 1);
    /* Placed once, kept. */
    rf_err_place(&err, "command line", 0, 0);
    assert_string_equal(err.msg,
                        "in.csv:5:3: threads: 2048 threads per CTA exceed the 1024 that v100 allows");
    rf_err_set(&err, RF_EUNKNOWN, NULL, 0, 0, "gpu", "unknown GPU preset 'x'");
    rf_err_place(&err, "command line", 0, 0);
    assert_string_equal(err.msg, "command line: gpu: unknown GPU preset 'x'");
    /* No error, no place. */
    rf_err_clear(&err);
    assert_int_equal(rf_err_place(&err, "f", 1, 1), RF_OK);
    assert_string_equal(err.msg, "");
    assert_int_equal(rf_err_place(NULL, "f", 1, 1), RF_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(control_bytes_are_escaped),
        cmocka_unit_test(escaping_is_idempotent),
        cmocka_unit_test(long_messages_are_cut_between_escapes),
        cmocka_unit_test(place_fills_only_a_missing_place),
    };
    return cmocka_run_group_tests_name("error", tests, NULL, NULL);
}

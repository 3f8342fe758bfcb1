/* file.h - opening input files the same way in every reader.
 *
 * rf_file_open refuses a directory up front (fopen accepts one and the first
 * read then fails with a bare "read error"), and rf_file_bom tells readers
 * how many bytes of a UTF-8 byte-order mark (EF BB BF, written by some
 * Windows editors) open a text, so that every reader skips it alike.
 */
#ifndef RF_FILE_H
#define RF_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

/* Open path for reading in binary mode.  Returns 0 with *fp set, or RF_EIO
 * with err naming the file ("cannot open: <reason>", "is a directory, not a
 * file"); *fp is NULL then. */
int rf_file_open(const char *path, FILE **fp, rf_err *err);

/* 3 when the n bytes at s start with a UTF-8 byte-order mark, else 0. */
size_t rf_file_bom(const char *s, size_t n);

#endif /* RF_FILE_H */

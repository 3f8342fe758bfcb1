/* file.c - opening input files (see file.h). */
#include "file.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

int rf_file_open(const char *path, FILE **fp, rf_err *err)
{
    *fp = fopen(path, "rb");
    if (!*fp)
        return rf_err_set(err, RF_EIO, path, 0, 0, NULL, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fileno(*fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(*fp);
        *fp = NULL;
        return rf_err_set(err, RF_EIO, path, 0, 0, NULL, "is a directory, not a file");
    }
    return RF_OK;
}

size_t rf_file_bom(const char *s, size_t n)
{
    return n >= 3 && (unsigned char)s[0] == 0xEF && (unsigned char)s[1] == 0xBB &&
                   (unsigned char)s[2] == 0xBF
               ? 3
               : 0;
}

/* file.c - opening input files (see file.h). */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int rf_outfile_open(rf_outfile *o, const char *path, rf_err *err)
{
    o->fp = NULL;
    o->path = path;
    size_t cap = strlen(path) + 48;
    if (!(o->tmp = malloc(cap)))
        return rf_err_set(err, RF_ENOMEM, path, 0, 0, NULL, "out of memory");
    /* O_EXCL on a name of this process: never another writer's file.  The
     * mode goes through the umask, so the result has a file's usual mode. */
    int fd = -1;
    for (int n = 0; n < 100 && fd < 0; n++) {
        snprintf(o->tmp, cap, "%s.tmp%ld.%d", path, (long)getpid(), n);
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd >= 0 && (o->fp = fdopen(fd, "w")) != NULL)
        return RF_OK;
    int e = errno;
    if (fd >= 0) {
        close(fd);
        unlink(o->tmp);
    }
    free(o->tmp);
    o->tmp = NULL;
    return rf_err_set(err, RF_EIO, path, 0, 0, NULL, "cannot create: %s", strerror(e));
}

int rf_outfile_close(rf_outfile *o, int keep, rf_err *err)
{
    int rc = RF_OK;
    int bad = fflush(o->fp) != 0;
    bad |= fsync(fileno(o->fp)) != 0;
    bad |= fclose(o->fp) != 0;
    if (keep && bad)
        rc = rf_err_set(err, RF_EIO, o->path, 0, 0, NULL, "write failed");
    else if (keep && rename(o->tmp, o->path) != 0)
        rc = rf_err_set(err, RF_EIO, o->path, 0, 0, NULL, "cannot create: %s", strerror(errno));
    if (!keep || rc)
        unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    o->fp = NULL;
    return rc;
}

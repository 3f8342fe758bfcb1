/* cli.c - option helpers shared by the subcommands. */
#include "cli.h"

#include <stddef.h>
#include <string.h>

int rf_cli_fail(const rf_err *err)
{
    fprintf(stderr, "rfkit: %s\n", err->msg[0] ? err->msg : rf_strerror(err->code));
    switch (err->code) {
    case RF_EIO:
    case RF_EWATCHDOG:
    case RF_EFIT:
    case RF_ENOMEM:
    case RF_EINTERNAL:
        return 1;
    default:
        return 2;
    }
}

bool rf_cli_name_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

/* Split "--name[=value]" into the name part; returns its length or 0. */
static size_t opt_name(const char *arg, const char **eq)
{
    if (strncmp(arg, "--", 2) != 0)
        return 0;
    *eq = strchr(arg, '=');
    return *eq ? (size_t)(*eq - arg - 2) : strlen(arg + 2);
}

static bool name_matches(const char *arg, size_t len, const char *name)
{
    char buf[128];
    if (len >= sizeof buf)
        return false;
    memcpy(buf, arg + 2, len);
    buf[len] = '\0';
    return rf_cli_name_eq(buf, name);
}

int rf_cli_value(int argc, char **argv, int *i, const char *name,
                 const char **value, rf_err *err)
{
    const char *eq;
    size_t len = opt_name(argv[*i], &eq);
    if (!len || !name_matches(argv[*i], len, name))
        return 0;
    if (!eq && *i + 1 >= argc)
        return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, NULL,
                          "--%s needs a value", name);
    *value = eq ? eq + 1 : argv[++*i];
    if (!**value)   /* "--kernel=" or --kernel "": no file, preset or name */
        return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, NULL,
                          "--%s needs a value, got an empty one", name);
    return 1;
}

int rf_cli_values(int argc, char **argv, int *i, const rf_cli_opt *opts, size_t n,
                  rf_err *err)
{
    for (size_t j = 0; j < n; j++) {
        if (!strcmp(argv[*i], "-o") && !strcmp(opts[j].name, "output")) {
            if (*i + 1 >= argc || !argv[*i + 1][0])
                return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, NULL,
                                  "-o needs a file name");
            *opts[j].value = argv[++*i];
            return 1;
        }
        int rc = rf_cli_value(argc, argv, i, opts[j].name, opts[j].value, err);
        if (rc)
            return rc;
    }
    return 0;
}

int rf_cli_param_opt(int argc, char **argv, int *i, rf_kernel_opts *ko, rf_err *err)
{
    const char *v;
    int rc = rf_cli_value(argc, argv, i, "param", &v, err);
    if (rc <= 0)
        return rc;
    if (ko->nparams >= RF_KERNEL_MAX_PARAMS)
        return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, "param",
                          "more than %d --param options", RF_KERNEL_MAX_PARAMS);
    ko->params[ko->nparams++] = v;
    return 1;
}

int rf_cli_kernel_opt(int argc, char **argv, int *i, rf_kernel_opts *ko, rf_err *err)
{
    int rc = rf_cli_param_opt(argc, argv, i, ko, err);
    if (rc)
        return rc;
    const rf_cli_opt opts[] = {{"entry", &ko->entry}, {"grid", &ko->grid},
                               {"block", &ko->block}, {"smem", &ko->smem},
                               {"regs", &ko->regs}};
    return rf_cli_values(argc, argv, i, opts, sizeof opts / sizeof opts[0], err);
}

int rf_cli_point_opt(int argc, char **argv, int *i, rf_point *pt, rf_err *err)
{
    for (size_t j = 0; j < rf_point_nopts; j++) {
        const char *value;
        int rc = rf_cli_value(argc, argv, i, rf_point_opts[j].name, &value, err);
        if (rc == 1) {
            rc = rf_point_set(pt, &rf_point_opts[j], value, RF_CLI_WHERE, 0, err);
            return rc ? rc : 1;
        }
        if (rc)
            return rc;
    }
    return 0;
}

bool rf_cli_flag(char **argv, int i, const char *name)
{
    const char *eq;
    size_t len = opt_name(argv[i], &eq);
    return len && !eq && name_matches(argv[i], len, name);
}

int rf_cli_param(int argc, char **argv, int *i, const rf_param *tab, size_t n,
                 void *obj, rf_err *err)
{
    const char *eq;
    size_t len = opt_name(argv[*i], &eq);
    if (!len)
        return 0;
    for (size_t k = 0; k < n; k++) {
        const rf_param *p = &tab[k];
        if (!name_matches(argv[*i], len, p->name))
            continue;
        const char *value;
        if (p->type == RF_PT_BOOL && !eq) {
            value = "1";
        } else if (eq) {
            value = eq + 1;
        } else if (*i + 1 >= argc) {
            return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, NULL,
                              "--%s needs a value", p->name);
        } else {
            value = argv[++*i];
        }
        int rc = rf_param_parse(p, obj, value, RF_CLI_WHERE, err);
        return rc ? rc : 1;
    }
    return 0;
}

int rf_cli_design_param(int argc, char **argv, int *i, rf_design *d, int steal[2],
                        rf_err *err)
{
    const char *eq;
    size_t len = opt_name(argv[*i], &eq);
    int which = !len ? -1
              : name_matches(argv[*i], len, "read_steal")  ? 0
              : name_matches(argv[*i], len, "write_steal") ? 1 : -1;
    int rc = rf_cli_param(argc, argv, i, rf_design_params, rf_design_nparams, d, err);
    if (rc == 1 && which >= 0)
        steal[which] = which == 0 ? d->read_steal : d->write_steal;
    return rc;
}

int rf_cli_unknown(const char *cmd, const char *arg, rf_err *err)
{
    if (strncmp(arg, "-", 1) == 0)
        return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, NULL,
                          "unknown option '%s' for 'rfkit %s' (see rfkit %s --help)",
                          arg, cmd, cmd);
    return rf_err_set(err, RF_EUSAGE, "command line", 0, 0, NULL,
                      "unexpected argument '%s' for 'rfkit %s'", arg, cmd);
}

int rf_cli_load_kernel(const char *path, const rf_kernel_opts *ko, rf_kernel **k, rf_err *err)
{
    int rc = rf_kernel_load(path, ko, k, err);
    if (rc == RF_EIO)
        err->code = rc = RF_EUSAGE;
    return rc;
}

int rf_cli_load_gpu(const char *name, rf_gpu *gpu, rf_err *err)
{
    int rc = rf_gpu_load(name, gpu, stderr, err);
    if (rc == RF_EIO)
        err->code = rc = RF_EUSAGE;
    if (rc)
        rf_err_place(err, "command line", 0, 0);   /* a preset name, not a file */
    return rc;
}

int rf_cli_design_kind(rf_design *d, const char *name, rf_err *err)
{
    int rc = rf_design_set_kind(d, name, err);
    if (rc)
        rf_err_place(err, "command line", 0, 0);
    return rc;
}

int rf_cli_place_kernel(rf_err *err, const rf_kernel_opts *ko, const char *kernel_path)
{
    static const struct {
        const char *field;
        size_t opt;     /* offset of the option in rf_kernel_opts */
    } launch[] = {{"regs", offsetof(rf_kernel_opts, regs)},
                  {"threads", offsetof(rf_kernel_opts, block)},
                  {"block", offsetof(rf_kernel_opts, block)},
                  {"smem", offsetof(rf_kernel_opts, smem)},
                  {"grid", offsetof(rf_kernel_opts, grid)}};
    switch (err->code) {   /* bad input; a failed run (I/O, watchdog, fit) is not */
    case RF_ELIMIT: case RF_ERANGE: case RF_ENUMBER: case RF_EPARSE: case RF_EUNKNOWN:
    case RF_EUNSUPPORTED: case RF_EUSAGE: case RF_ENOMEM:
        break;
    default:
        return err->code;
    }
    for (size_t i = 0; ko && i < sizeof launch / sizeof launch[0]; i++)
        if (rf_err_field_is(err, launch[i].field) &&
            *(const char *const *)((const char *)ko + launch[i].opt))
            return rf_err_place(err, "command line", 0, 0);
    return rf_err_place(err, kernel_path, 0, 0);
}

int rf_cli_load(const char *gpu_name, const char *kernel_path, const rf_kernel_opts *ko,
                rf_gpu *gpu, rf_kernel **k, rf_err *err)
{
    *k = NULL;
    int rc = rf_cli_load_gpu(gpu_name, gpu, err);
    return rc ? rc : rf_cli_load_kernel(kernel_path, ko, k, err);
}

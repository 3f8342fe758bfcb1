/* commands.h - the subcommands of the rfkit front end, one line each:
 * X(name, function, one-line summary).  Each function lives in cli/cmd_<name>.c
 * and has the signature int fn(int argc, char **argv), argv[0] being the
 * subcommand name; it returns the process exit code (0, 1 on a failed run,
 * 2 on bad input). */
#define RF_COMMAND_LIST(X)                                                          \
    X(gpus,      rf_cmd_gpus,      "list the bundled GPU presets and their key figures") \
    X(occupancy, rf_cmd_occupancy, "CTAs and warps per SM under each register-file design") \
    X(analyze,   rf_cmd_analyze,   "static register analyses: liveness, CAC, register-intervals, reordering") \
    X(simulate,  rf_cmd_simulate,  "cycle-level SM model: IPC, stalls, bank conflicts, bank stealing") \
    X(estimate,  rf_cmd_estimate,  "occupancy, IPC, cycles, energy and area of a kernel under a design") \
    X(calibrate, rf_cmd_calibrate, "fit the estimate models to short samples of the cycle-level model") \
    X(batch,     rf_cmd_batch,     "estimate every design point of a CSV file") \
    X(profile,   rf_cmd_profile,   "a kernel spec from Nsight Compute CSV exports (launch, caches, branches)") \
    X(reproduce, rf_cmd_reproduce, "re-run the papers' claims on the bundled kernels: report with plots")

#!/bin/sh
# Run libFuzzer targets and print one line per target:
#     fuzz_x: N execs in S s, 0 findings
# usage: fuzz.sh [--seeds] BUILD SECONDS TARGET...
#   --seeds  run each target once on each file of tests/fuzz-seeds/fuzz_x/
#            (libFuzzer runs the files given as arguments and does not
#            fuzz), so the seeds are regression inputs; SECONDS is unused.
#   else     fuzz each target SECONDS seconds, starting from its seeds and
#            BUILD/corpus-fuzz_x/ (where new inputs are kept).
# A finding (a crash, a sanitizer report, a leak, an input slower than 10 s
# or over libFuzzer's memory limit) makes libFuzzer exit non-zero: the tail
# of its output and the input it saved (BUILD/crash-..., leak-..., ...) are
# shown, the other targets still run, and the script exits 1.
seeds=0
if [ "$1" = "--seeds" ]; then seeds=1; shift; fi
build=$1; secs=$2; shift 2
bad=""
for t in "$@"; do
    n=$(basename "$t")
    dir=tests/fuzz-seeds/$n
    log=$build/$n.log
    start=$(date +%s)
    if [ $seeds = 1 ]; then
        set -- "$dir"/*
        [ -e "$1" ] || { echo "$n: no seeds in $dir"; bad="$bad $n"; continue; }
        "./$t" -artifact_prefix="$build/" "$@" >"$log" 2>&1; rc=$?
        execs=$#
        what="seed inputs"
    else
        mkdir -p "$build/corpus-$n"
        "./$t" -max_total_time="$secs" -timeout=10 -print_final_stats=1 \
            -artifact_prefix="$build/" "$build/corpus-$n" "$dir" >"$log" 2>&1; rc=$?
        execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
        what="execs"
    fi
    s=$(( $(date +%s) - start ))
    if [ $rc -eq 0 ]; then
        echo "$n: ${execs:-0} $what in $s s, 0 findings"
    else
        echo "$n: ${execs:-?} $what in $s s, 1 finding (exit $rc):"
        tail -n 30 "$log" | sed 's/^/    /'
        bad="$bad $n"
    fi
done
[ -z "$bad" ] || { echo "fuzz: findings in:$bad"; exit 1; }

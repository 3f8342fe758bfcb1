#!/bin/sh
# Run every test binary, print each one's cmocka report, and close with one
# summary line "tests: N passed, N failed" (counts of test cases).
build=$1; shift
# glibc fills every block malloc hands out with this byte (and every freed
# one with its complement), so a test that reads heap memory nothing wrote
# fails in the plain pass too; the sanitized pass's allocator ignores it.
MALLOC_PERTURB_=${MALLOC_PERTURB_:-165}
export MALLOC_PERTURB_
pass=0; fail=0; bad=""
for t in "$@"; do
    out=$("./$t" 2>&1); rc=$?
    printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
    if [ $rc -ne 0 ]; then
        bad="$bad $t"
        [ -z "$f" ] && fail=$((fail + 1))
    fi
done
echo "tests: $pass passed, $fail failed"
[ -z "$bad" ] || { echo "failing:$bad"; exit 1; }

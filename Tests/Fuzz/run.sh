#!/usr/bin/env bash
# Builds the fuzz targets and runs each for a while; exits non-zero if any of them crashed,
# broke an invariant, timed out on one input or ran out of memory.
#
# Usage: Tests/Fuzz/run.sh [seconds per target (default 60)] [target…]
#
# Each target keeps the corpus it grows in $FUZZ_DIR/corpus/<target> (default .build/fuzz,
# gitignored), so later runs start where earlier ones stopped; it is seeded every run from
# Tests/Fuzz/Seeds/<target> and the matching Tests/Fixtures files. A crashing input is saved
# to $FUZZ_DIR/artifacts/<target>/ and the log to $FUZZ_DIR/logs/<target>.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
out=${FUZZ_DIR:-$PWD/.build/fuzz}
export FUZZ_DIR=$out

targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=($(ls Tests/Fuzz/Targets | sed 's/\.swift$//'))

build_start=$SECONDS
Tests/Fuzz/build.sh "${targets[@]}"
echo "fuzz: built in $((SECONDS - build_start)) s"

# The fixtures that seed each target, besides its own Tests/Fuzz/Seeds folder.
fixtures() {
    case $1 in
    xml | roku-ecp) ls Tests/Fixtures/roku/*.xml ;;
    json) ls Tests/Fixtures/roku/*.json Tests/Fixtures/samsung/*.json examples/config/*.json ;;
    samsung) ls Tests/Fixtures/samsung/*.json ;;
    samsung-art) ls Tests/Fixtures/samsung/art_*.json ;;
    gena) ls Tests/Fixtures/samsung/*.xml ;;
    samsung-legacy) ls Tests/Fixtures/samsung/legacy_*.bin ;;
    dns) ls Tests/Fixtures/mdns/*.bin ;;
    ecp2) ls Tests/Fixtures/roku/ecp2-*.json ;;
    config) ls examples/config/*.json ;;
    esac
}

# The Swift runtime's own crash backtracer would race ASan's report; libFuzzer reports instead.
export SWIFT_BACKTRACE=enable=no
failed=()
summary=()
for target in "${targets[@]}"; do
    corpus=$out/corpus/$target
    seeds=$out/seeds/$target
    artifacts=$out/artifacts/$target
    log=$out/logs/$target.log
    rm -rf "$seeds"
    mkdir -p "$corpus" "$seeds" "$artifacts" "$out/logs"
    [[ -d Tests/Fuzz/Seeds/$target ]] && cp Tests/Fuzz/Seeds/"$target"/* "$seeds"/
    for file in $(fixtures "$target"); do cp "$file" "$seeds/fixture-$(basename "$file")"; done

    echo "fuzz: $target for ${seconds} s"
    status=0
    # -timeout: one input taking 10 s is a bug (a hang or a quadratic path), reported as a crash.
    # Leak detection stays on: the decoders allocate nothing that should outlive an input.
    "$out/bin/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" "$seeds" >"$log" 2>&1 || status=$?

    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    coverage=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
    units=$(ls "$corpus" | wc -l)
    line=$(printf '%-18s %10s execs %7s/s  %-20s corpus %5s' "$target" "${execs:-?}" "${rate:-?}" "${coverage:-?}" "$units")
    if [[ $status -ne 0 ]]; then
        line+="  CRASH (exit $status): $(ls -t "$artifacts" | head -1)"
        failed+=("$target")
        grep -m1 -B2 -A12 'ERROR:\|Fatal error\|fuzz invariant\|deadly signal' "$log" >&2 || tail -30 "$log" >&2
    fi
    summary+=("$line")
done

echo
printf '%s\n' "${summary[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "fuzz: FAILED: ${failed[*]} — reproduce with $out/bin/<target> <artifact>; logs in $out/logs" >&2
    exit 1
fi
echo "fuzz: ${#targets[@]} targets, no crash"

#!/usr/bin/env bash
# How long LINES piped `dispatch tick` lines take through `fluxsh attach` to a running app
# (`attach-demo`, release build): both sides of the attached path, the shell's and the app's,
# from the first line read to the last answer printed. Prints the seconds and the lines a second,
# median of RUNS runs.
#   Scripts/bench-attach.sh [LINES] [RUNS] [BUILD]   (default 20,000 lines, 5 runs, .build/release)
# BUILD is another build's release folder (with `fluxsh` and `attach-demo`), to time it the same
# way: run the two alternately to compare them.
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-20000}
runs=${2:-5}
build=${3:-}
if [ -z "$build" ]; then
    swift build -c release --product fluxsh >/dev/null
    swift build -c release --product attach-demo >/dev/null
    build=.build/release
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source Scripts/attach-app.sh
awk -v n="$lines" 'BEGIN { for (i = 0; i < n; i++) print "dispatch tick" }' >"$work/lines"

# `run`: the seconds of one run, from a fresh app.
run() {
    start_app "$build" bench
    local start end
    start=$(date +%s%N)
    "$build/fluxsh" attach bench <"$work/lines" >"$work/out"
    end=$(date +%s%N)
    stop_app
    grep -q "count: $((lines - 1)) -> $lines" "$work/out" || { echo "bench-attach: the shell did not get its $lines lines" >&2; exit 1; }
    echo $(((end - start) / 1000))
}
times=()
for _ in $(seq 1 "$runs"); do times+=("$(run)"); done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
echo "$lines lines through fluxsh attach ($build): median $(echo "scale=3; $median / 1000000" | bc) s," \
    "$((lines * 1000000 / median)) lines/s (runs: $(printf '%s ' "${times[@]}")µs)"

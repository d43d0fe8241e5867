#!/usr/bin/env bash
# Release-mode benchmarks of the shell (figures in the README). Usage: Scripts/bench-shell.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product fluxsh >/dev/null
fluxsh=.build/release/fluxsh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seconds (and peak KiB) of one run: `measure FILE`.
measure() { /usr/bin/time -f "%e %M" "$fluxsh" <"$1" 2>&1 >/dev/null | tail -1; }

echo "== 1,000,000 'dispatch increment' lines piped into counter"
{ echo "load counter"; awk 'BEGIN { for (i = 0; i < 1000000; i++) print "dispatch increment" }'; } >"$work/increments"
read -r seconds kib < <(measure "$work/increments")
echo "   ${seconds} s end to end, peak $((kib / 1024)) MiB (targets: 1.5 s, 64 MiB)"

echo "== toggling one todo among 100,000, with its diff"
{ echo "load todos"; for i in $(seq 1 100000); do echo "dispatch add t$i"; done; } >"$work/adds"
{ cat "$work/adds"; for i in $(seq 1 200); do echo "dispatch toggle $((i * 397 % 100000 + 1))"; done; } >"$work/toggles"
read -r base _ < <(measure "$work/adds")
read -r with _ < <(measure "$work/toggles")
echo "   $(echo "($with - $base) * 1000000 / 200" | bc) µs per toggle (target: 50 µs; adds alone: ${base} s)"

echo "== echo quit | fluxsh"
if command -v hyperfine >/dev/null; then
    hyperfine --warmup 5 --runs 50 -N --input <(echo quit) "$fluxsh" 2>/dev/null | grep -E "Time|Range" | sed 's/^/   /'
else
    start=$(date +%s%N)
    for _ in $(seq 1 50); do echo quit | "$fluxsh" >/dev/null; done
    echo "   $(( ($(date +%s%N) - start) / 50000000 )) ms per run"
fi
echo "   (target: 20 ms)"

echo "== fluxsh test --jobs 2 on 1,000 generated scenarios of 100 commands"
mkdir -p "$work/corpus"
for f in $(seq 1 1000); do
    {
        echo "load todos"
        for i in $(seq 1 33); do
            echo "dispatch add item$i"
            echo "+ todos[$((i - 1))]: {\"id\":$i,\"title\":\"item$i\",\"done\":false}"
            echo "~ nextID: $i -> $((i + 1))"
            echo "dispatch toggle $i"
            echo "~ todos[$((i - 1))].done: false -> true"
            echo "expect todos.count == $i"
        done
        echo "expect nextID == 34"
    } >"$work/corpus/s$f.scenario"
done
start=$(date +%s%N)
"$fluxsh" test --jobs 2 "$work/corpus" | tail -1 | sed 's/^/   /'
echo "   $(echo "scale=2; ($(date +%s%N) - start) / 1000000000" | bc) s (target: 3 s)"

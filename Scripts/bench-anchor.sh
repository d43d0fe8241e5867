#!/usr/bin/env bash
# Piped throughput against the named anchor, sqlite3's shell, in the same run (figures in the
# README). Usage: Scripts/bench-anchor.sh [LINES]   (default 1,000,000; installs sqlite3 when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-1000000}
command -v sqlite3 >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3; }
swift build -c release --product fluxsh >/dev/null
fluxsh=.build/release/fluxsh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seconds and peak MiB of one run: `measure COMMAND... < FILE`.
measure() { /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1; }
# `lines_of PREFIX [SUFFIX]`: PREFIX SUFFIX lines; with a SUFFIX, the line number goes between them.
lines_of() { awk -v n="$lines" -v a="$1" -v b="${2-}" -v numbered="$#" 'BEGIN { for (i = 0; i < n; i++) print (numbered == 2 ? a i b : a) }'; }
table="CREATE TABLE t(c INTEGER); INSERT INTO t VALUES(0);"

{ echo "load counter"; lines_of "dispatch increment"; } >"$work/increment"
{ echo "load counter"; lines_of "dispatch set " ""; } >"$work/set"
{ echo "load library"; lines_of "dispatch visit"; } >"$work/visit"
{ echo "$table"; lines_of "UPDATE t SET c=c+1;"; } >"$work/sql-increment"
{ echo "$table"; lines_of "UPDATE t SET c=" ";"; } >"$work/sql-set"

report() {
    read -r flux_s flux_kib < <(measure "$fluxsh" <"$2")
    read -r sql_s _ < <(measure sqlite3 :memory: <"$3")
    echo "$1: fluxsh ${flux_s} s ($((flux_kib / 1024)) MiB), sqlite3 ${sql_s} s, ratio $(echo "scale=2; $flux_s / $sql_s" | bc)"
}
echo "== $lines piped lines, output to /dev/null"
report "repeated 'dispatch increment' vs 'UPDATE t SET c=c+1;'" "$work/increment" "$work/sql-increment"
report "distinct 'dispatch set N' vs 'UPDATE t SET c=N;'" "$work/set" "$work/sql-set"
read -r visit_s _ < <(measure "$fluxsh" <"$work/visit")
read -r increment_s _ < <(measure "$fluxsh" <"$work/increment")
echo "library (21 members, not Encodable) 'dispatch visit': ${visit_s} s, counter 'dispatch increment': ${increment_s} s, ratio $(echo "scale=2; $visit_s / $increment_s" | bc)"

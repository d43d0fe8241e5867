#!/usr/bin/env bash
# How many times a line's work passes from one of the package's source files to another: the
# calls between two different files under Sources/, counted by callgrind, per line, for the lines
# from 21 to 120 (the difference between a run of 120 lines and one of 20, so that start-up does
# not count). Also how many distinct pairs of files a line passes between, how many files it
# touches, and the instructions it takes. Helpers the compiler makes (outlined copies,
# witness-table and metadata accessors) are not counted: they sit in whichever file first needed
# them, and are no step of the code's.
#   Scripts/count-hops.sh piped [debug|release]    `dispatch increment` piped into `fluxsh`
#   Scripts/count-hops.sh attach [debug|release]   `dispatch tick` sent by `fluxsh attach` to the
#                                                  app `attach-demo`: the app's side
#   Scripts/count-hops.sh attach-shell [...]       the same lines: the side of `fluxsh attach`
# debug (the default): no inlining, so each call the code makes is one, as a reader follows it;
# release: the calls left once the compiler inlined what it could, as the program runs.
# Needs valgrind; builds with DWARF 4 (which valgrind reads) in .build-hops.
set -euo pipefail
cd "$(dirname "$0")/.."
path=${1:-piped}
configuration=${2:-debug}
usage="usage: count-hops.sh piped|attach|attach-shell [debug|release]"
case "$path" in piped | attach | attach-shell) ;; *) echo "$usage" >&2 && exit 2 ;; esac
case "$configuration" in debug | release) ;; *) echo "$usage" >&2 && exit 2 ;; esac
command -v valgrind >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; }
flags=(-c "$configuration" --scratch-path .build-hops -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4)
swift build "${flags[@]}" --product fluxsh >/dev/null
[ "$path" = piped ] || swift build "${flags[@]}" --product attach-demo >/dev/null
bin=.build-hops/$configuration
# NB: the same hash seed in every run, so that the instructions a line takes do not vary.
export SWIFT_DETERMINISTIC_HASHING=1
work=$(mktemp -d)
# KEEP=1 keeps the profiles (in the folder printed last) for a closer look.
trap '[ -n "${KEEP:-}" ] && echo "profiles kept in $work" || rm -rf "$work"' EXIT

source Scripts/attach-app.sh

# `repeat N LINE`: LINE, N times.
repeat() { awk -v n="$1" -v line="$2" 'BEGIN { for (i = 0; i < n; i++) print line }'; }

# `run N`: a callgrind profile of N lines in $work/cg.N.
run() {
    local n=$1
    if [ "$path" = piped ]; then
        { echo "load counter"; repeat "$n" "dispatch increment"; } >"$work/lines.$n"
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.$n" "$bin/fluxsh" <"$work/lines.$n" >/dev/null 2>&1
        return
    fi
    # NB: the side measured runs under callgrind, the other as it is.
    local profile=(valgrind --tool=callgrind --callgrind-out-file="$work/cg.$n" --log-file="$work/valgrind.$n")
    local shell_side=()
    if [ "$path" = attach ]; then start_app "$bin" "hops$n" "${profile[@]}"; else
        start_app "$bin" "hops$n"
        shell_side=("${profile[@]}")
    fi
    repeat "$n" "dispatch tick" | ${shell_side[@]+"${shell_side[@]}"} "$bin/fluxsh" attach "hops$n" >"$work/shell.$n"
    stop_app
    grep -q "count: $((n - 1)) -> $n" "$work/shell.$n" || { echo "count-hops: the shell did not get its $n lines" >&2; exit 1; }
}
run 20
run 120
python3 - "$work/cg.20" "$work/cg.120" <<'PYTHON'
import re, subprocess, sys

def calls(path):
    """Calls between two different files of the package's Sources/, by (caller, callee) file and callee."""
    names, functions, edges = {}, {}, {}
    def name(text, table):
        match = re.match(r"\((\d+)\)(?: (.*))?", text)
        if not match:
            return text
        if match.group(2) is not None:
            table[match.group(1)] = match.group(2)
        return table.get(match.group(1), "?")
    file = inlined = callee = function = None
    for line in open(path, errors="replace"):
        if line.startswith("fl="):
            file, inlined = name(line[3:].strip(), names), None
        elif line.startswith(("fi=", "fe=")):
            inlined = name(line[3:].strip(), names)
        elif line.startswith("fn="):
            inlined = None
            name(line[3:].strip(), functions)
        elif line.startswith(("cfi=", "cfl=")):
            callee = name(line[4:].strip(), names)
        elif line.startswith("cfn="):
            function = name(line[4:].strip(), functions)
        elif line.startswith("calls="):
            caller = inlined or file
            target = callee or caller
            callee = None
            own = [f for f in (caller, target) if f and "/Sources/" in f and "/checkouts/" not in f]
            if len(own) == 2 and caller != target:
                key = (caller.split("/Sources/")[1], target.split("/Sources/")[1], function)
                edges[key] = edges.get(key, 0) + int(line[6:].split()[0])
    return edges

few, many = calls(sys.argv[1]), calls(sys.argv[2])

def instructions(path):
    """The instructions the whole run took (callgrind's total)."""
    for line in open(path, errors="replace"):
        if line.startswith(("totals:", "summary:")):
            return int(line.split()[1])
    return 0
functions = sorted({key[2] for key in set(few) | set(many)})
readable = subprocess.run(
    ["swift", "demangle", "--simplified", "--compact"], input="\n".join(functions), capture_output=True, text=True
).stdout.split("\n")
helper = re.compile(r"^(outlined |lazy protocol witness table accessor|type metadata accessor)")
helpers = {function for function, text in zip(functions, readable) if helper.match(text)}
per_line = {}
for key in set(few) | set(many):
    if key[2] not in helpers:
        pair = key[:2]
        per_line[pair] = per_line.get(pair, 0) + (many.get(key, 0) - few.get(key, 0)) / 100
every_line = [key for key, count in per_line.items() if count >= 0.99]
files = {file for key in every_line for file in key}
print(f"instructions a line: {(instructions(sys.argv[2]) - instructions(sys.argv[1])) / 100:.0f}")
print(f"calls between files a line: {sum(per_line.values()):.0f}")
print(f"pairs of files a line passes between: {len(every_line)}, in {len(files)} files")
for key, count in sorted(per_line.items(), key=lambda item: -item[1])[:10]:
    print(f"  {count:6.1f}  {key[0]} -> {key[1]}")
PYTHON

#!/bin/sh
# Explores every built-in store with 8 seeds of 150 runs of 40 actions each, with invariants that
# hold (“fluxsh explore” in the reference), so that CI guards them: one line per exploration; a
# failure prints the whole report (its shrunk actions; the scenario is left in $TMPDIR) and fails
# the script.
# Usage: Scripts/explore-builtins.sh [FLUXSH]   (default .build/debug/fluxsh)
set -e
fluxsh=$(cd "$(dirname "${1:-.build/debug/fluxsh}")" && pwd)/$(basename "${1:-.build/debug/fluxsh}")
out=${TMPDIR:-/tmp}/fluxsh-explore
mkdir -p "$out"
cd "$out"
explore() {
    for seed in 1 2 3 4 5 6 7 8; do
        if ! "$fluxsh" explore "$@" --seed "$seed" --runs 150 --steps 40 --jobs 2 --no-color >report.txt 2>&1; then
            cat report.txt
            exit 1
        fi
        echo "explore $* --seed $seed: $(sed -n 3p report.txt)"
    done
}
explore counter
explore todos --invariant 'todos[*].id < $nextID' --invariant 'nextID > $todos.count'
# search's response action is dispatchable from text with any page: no invariant on it holds.
explore search
explore library
explore counter todos --invariant 'todos[*].id < $nextID'

#!/bin/sh
# Explores each built-in store for a few seconds with invariants that hold (SPEC §8), so that CI
# guards them: a failure prints its shrunk actions and leaves the scenario in $TMPDIR.
# Usage: Scripts/explore-builtins.sh [FLUXSH]   (default .build/debug/fluxsh)
set -e
fluxsh=$(cd "$(dirname "${1:-.build/debug/fluxsh}")" && pwd)/$(basename "${1:-.build/debug/fluxsh}")
out=${TMPDIR:-/tmp}/fluxsh-explore
mkdir -p "$out"
cd "$out"
"$fluxsh" explore counter --seed 1 --time 2 --runs 400 --no-color
"$fluxsh" explore todos --seed 1 --time 3 --runs 400 --no-color \
    --invariant 'todos[*].id < $nextID' --invariant 'nextID > $todos.count'
# search's response action is dispatchable from text with any page: no invariant on it holds.
"$fluxsh" explore search --seed 1 --time 2 --runs 100 --steps 20 --no-color
"$fluxsh" explore library --seed 1 --time 2 --runs 100 --steps 20 --no-color
"$fluxsh" explore counter todos --seed 1 --time 2 --runs 100 --no-color --invariant 'todos[*].id < $nextID'

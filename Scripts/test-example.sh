#!/usr/bin/env bash
# End-to-end test of the packages in Examples/, written the way FluxShell users write them:
# builds each one's shell (debug) and drives it as a user and CI would. Examples/NotesApp:
#   1. `notesh test Examples/NotesApp/Scenarios` passes (and passes with --exhaustive);
#   2. a piped session gives byte for byte the checked-in stdout, stderr and exit status 1,
#      and the scenario it saves passes `notesh test --exhaustive`;
#   3. a scenario that fails on purpose is reported, line by line, with exit status 1;
#   4. its running app serves its store, and `notesh attach notes` dispatches into it.
# Then Examples/SyncUps, and the apps of other architectures (ReduxTodos, WeatherSearch,
# ClassCounter), below, with ReduxTodos's running app attached to as notes-app is.
# Usage: Scripts/test-example.sh  (from anywhere; called by `make test`)
set -euo pipefail
cd "$(dirname "$0")/.."

# Every example builds in this one scratch folder: FluxShell and its dependencies are compiled
# once for all of them, not once per example package (llbuild keeps the objects of a dependency
# whose command lines did not change when the root package changes).
examples_build=.build/examples
bin=$examples_build/debug
example=Examples/NotesApp
notesh=$bin/notesh
failures=0
scratch=$(mktemp -d)
# The running apps started below, stopped however the script ends.
apps=()
trap 'kill "${apps[@]}" 2>/dev/null || true; rm -rf "$scratch"' EXIT

fail() {
    echo "test-example: FAIL: $*" >&2
    failures=$((failures + 1))
}

# Runs "$@", storing its stdout, stderr and exit status in $out, $err and $status.
run() {
    out=$scratch/stdout err=$scratch/stderr
    set +e
    "$@" >"$out" 2>"$err"
    status=$?
    set -e
}

# Compares file $2 (actual) with the checked-in file $1 byte for byte, showing a diff when not.
same() {
    if ! cmp -s "$1" "$2"; then
        fail "$3 differs from $1 (expected <, actual >):"
        diff "$1" "$2" >&2 || true
    fi
}

# `wait_for FILE PATTERN`: waits, up to 20 seconds, until a line of FILE matches the extended
# regular expression PATTERN; fails if none does.
wait_for() {
    for _ in $(seq 1 200); do
        grep -Eq -- "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# Builds the example package $1.
build_example() {
    echo "test-example: building $1"
    # NB: SwiftPM keeps the build plan of a path dependency while the manifests are unchanged, so
    # a source file added to FluxShell was not seen ("cannot find … in scope"); touching the
    # example's manifest makes it plan again.
    touch "$1/Package.swift"
    swift build --package-path "$1" --scratch-path "$examples_build"
    # The checked-in sessions save into the example's own .build folder, which the build above
    # no longer makes.
    mkdir -p "$1/.build"
}

# `scenarios_pass SHELL FOLDER`: every scenario in FOLDER passes, also with --exhaustive (every
# state-changing command in them has its diff lines).
scenarios_pass() {
    for mode in "" --exhaustive; do
        run "$1" test --no-color $mode "$2"
        if [ "$status" -ne 0 ] || ! tail -n 1 "$out" | grep -Eq '^[1-9][0-9]* passed, 0 failed$'; then
            fail "$(basename "$1") test ${mode:+$mode }$2 exited $status:"
            cat "$out" "$err" >&2
        fi
    done
}

# `explores_clean SHELL STORE`: a few seconds of `explore` find nothing and generate every action.
explores_clean() {
    run "$1" explore "$2" --seed 1 --time 3 --runs 200 --no-color --save "$scratch/$2-explore.scenario"
    if [ "$status" -ne 0 ] || grep -qE "never generated|not reached" "$out"; then
        fail "$(basename "$1") explore $2 exited $status or left a case ungenerated or not reached:"
        cat "$out" "$err" >&2
    fi
}

build_example "$example"

# 1. The scenarios pass, and every state-changing command in them has its diff lines.
scenarios_pass "$notesh" "$example/Scenarios"

# 2. A piped session: the same bytes on stdout and stderr as the checked-in ones, status 1
#    (it contains refused commands and a failing expect on purpose).
session=$example/Session
saved=$example/.build/session-saved.scenario
rm -f "$saved"
run "$notesh" --echo --no-color <"$session/session.commands"
[ "$status" -eq 1 ] || fail "the piped session exited $status, expected 1"
same "$session/session.stdout" "$out" "the piped session's standard output"
same "$session/session.stderr" "$err" "the piped session's standard error"
# Its last command saved it as a scenario, which must replay.
run "$notesh" test --no-color --exhaustive "$saved"
if [ "$status" -ne 0 ]; then
    fail "the saved session $saved does not replay (status $status):"
    cat "$out" "$err" >&2
fi

# 4. The running app: `notes-app` serves its store; a piped `notesh attach notes` dispatches into
#    it and reads the state back, and the app goes on after the shell detached.
runtime=$scratch/runtime
mkdir -m 700 "$runtime"
exec 3< <(XDG_RUNTIME_DIR=$runtime exec "$bin/notes-app")
app=$!
read -r serving <&3 || true
[[ $serving == "notes-app: serving its store"* ]] || fail "notes-app did not start serving: '$serving'"
attach_script='dispatch add title: "Milk" at: "2026-11-24T09:00:00Z"
state notes[0].title
expect notes[0].tags == []
detach'
run env XDG_RUNTIME_DIR="$runtime" "$notesh" attach notes <<<"$attach_script"
if [ "$status" -ne 0 ] || ! grep -qx '"Milk"' "$out" || ! grep -q '^+ notes\[0\]: {' "$out"; then
    fail "notesh attach notes exited $status:"
    cat "$out" "$err" >&2
fi
run env XDG_RUNTIME_DIR="$runtime" "$notesh" attach --list
grep -q "^notes  $runtime/fluxsh/notes.sock\$" "$out" || fail "attach --list does not list the app: $(cat "$out")"
# A second app of the name is not served, says why, and runs on (no top-level throw).
second_err=$scratch/second-app.err
XDG_RUNTIME_DIR=$runtime "$bin/notes-app" >/dev/null 2>"$second_err" &
second=$!
for _ in $(seq 1 100); do [ -s "$second_err" ] && break; sleep 0.05; done
grep -q "^notes-app: not served to notesh attach: " "$second_err" || fail "a second notes-app did not say why it is not served: $(cat "$second_err")"
kill -0 "$second" 2>/dev/null || fail "a second notes-app stopped when its store could not be served"
kill "$second" 2>/dev/null || true
wait "$second" 2>/dev/null || true
kill "$app"
exec 3<&-

# 3. A failing scenario: status 1, and each failure reported at its FILE:LINE, in order.
#    Only the verdict, location and summary lines are compared, not the side-by-side tables.
failing=$example/Failing
run "$notesh" test --no-color "$failing"
[ "$status" -eq 1 ] || fail "notesh test $failing exited $status, expected 1"
verdicts=$scratch/verdicts
grep -E '^(PASS |FAIL |Examples/NotesApp/Failing/[^ ]+:[0-9]+: error: |[0-9]+ passed, [0-9]+ failed$)' "$out" >"$verdicts" || true
same "$failing/wrong-expectations.expected" "$verdicts" "the report of notesh test $failing"
[ -s "$err" ] && { fail "notesh test $failing wrote to stderr:"; cat "$err" >&2; }

# 4. `notesh explore` works on the user's own store (in its own child processes): a few seconds,
#    no failure (it once found `attempts + 1` overflowing, now saturating).
run "$notesh" explore notes --seed 1 --time 3 --runs 200 --no-color --save "$scratch/explore.scenario"
if [ "$status" -ne 0 ]; then
    fail "notesh explore notes exited $status:"
    cat "$out" "$err" >&2
fi

# 5. The executable speaks of itself by its own name, not fluxsh.
run "$notesh" --help
grep -q '^USAGE: notesh ' "$out" || fail "notesh --help does not say 'USAGE: notesh'"
head -1 "$saved" | grep -q '^# Saved by notesh\. Replay with: notesh test FILE$' ||
    fail "the saved session's header does not name notesh: $(head -1 "$saved")"

# Examples/SyncUps: a feature on swift-identified-collections and swift-tagged, with a framework's
# generic action wrappers from another module; nothing Codable.
#   1. its scenarios pass (and with --exhaustive);
#   2. a piped session gives the checked-in bytes in two processes, whose hash seeds differ
#      (twenty sync-ups: an identified array's storage hashes with a seed from 16 elements on),
#      and the scenario it saves replays;
#   3. explore generates every case (identified arrays, tagged ids, durations, index sets,
#      wrapper enums) and finds nothing.
example=Examples/SyncUps
syncupsh=$bin/syncupsh
build_example "$example"
scenarios_pass "$syncupsh" "$example/Scenarios"
session=$example/Session
saved=$example/.build/session-saved.scenario
for process in first second; do
    rm -f "$saved"
    run "$syncupsh" --echo --no-color <"$session/session.commands"
    [ "$status" -eq 1 ] || fail "the sync-ups session ($process process) exited $status, expected 1"
    same "$session/session.stdout" "$out" "the sync-ups session's standard output ($process process)"
    same "$session/session.stderr" "$err" "the sync-ups session's standard error ($process process)"
done
run "$syncupsh" test --no-color --exhaustive "$saved"
[ "$status" -eq 0 ] || { fail "the saved sync-ups session does not replay (status $status):"; cat "$out" "$err" >&2; }
explores_clean "$syncupsh" syncups

# Apps written with other architectures' libraries, each with a stand-in module of that library:
# Examples/ReduxTodos (ReSwift: struct actions of a marker protocol, `actionTypes:` + `reducer:`),
# Examples/WeatherSearch (TCA: `reduce(into:action:)`, a scoped child, `Result<…, any Error>`
# payloads; a feature on swift-dependencies, pinned), Examples/ClassCounter (VueFlux: a class state
# run by a store object, undone by replay).
#   1. their scenarios pass (and with --exhaustive);
#   2. explore generates every action and finds nothing.
for entry in "ReduxTodos todosh todos" "WeatherSearch weathersh search" "ClassCounter vcountersh vcounter"; do
    read -r name shell store <<<"$entry"
    build_example "Examples/$name"
    scenarios_pass "$bin/$shell" "Examples/$name/Scenarios"
    explores_clean "$bin/$shell" "$store"
done
# ClassCounter's `qcounter` and `mcounter` commit each action later, on a global queue and on the
# main queue, and report each commit through their subscriber (`observe:`): explore finds the same
# states in every replay, which a store read right after `send` would not give.
explores_clean "$bin/vcountersh" qcounter
explores_clean "$bin/vcountersh" mcounter
# WeatherSearch's `citysearch` reads `@Dependency(\.uuid)`, `\.date` and `\.continuousClock`, pinned
# to the session (`pinningDependencies()`): its scenario checks the ids and the `=>` lines as the
# clock is advanced, and explore, replaying its actions in other processes, gets the same ids.
explores_clean "$bin/weathersh" citysearch
# WeatherSearch's `citystore` is the same feature in its library's `Store` (`@MainActor`, effects
# in tasks of its own that sleep on the pinned clock), a store object: its scenario runs on the
# main thread while the others run on workers, and the store's tasks run with the command that
# woke them, so the same lines come out of every run.
for _ in 1 2 3 4 5; do
    run "$bin/weathersh" test --no-color --jobs 3 Examples/WeatherSearch/Scenarios
    if [ "$status" -ne 0 ]; then
        fail "weathersh test --jobs 3 Examples/WeatherSearch/Scenarios exited $status:"
        cat "$out" "$err" >&2
        break
    fi
done

# Examples/ReduxTodos's running app, `todo-app`: a ReSwift store on the main thread, served through
# a middleware (`live.record(action, state:)` after `next(action)`), set back by a `ReplaceState`
# action. Standard input is its user (`add Bread`), standard output its screen (the list after each
# change). A piped `todosh attach todos`, fed line by line:
#   1. dispatches into the app: its diff, and no `<=` line for it; `state` and `expect` read it;
#   2. prints an action the app dispatches by itself as `<= AddTodo title: Bread`, with its diff;
#   3. `undo` sets the app's store: the app's own screen shows the list without Bread;
#   4. `save` writes a scenario that `todosh test --exhaustive` replays;
#   5. detaches with status 0; a shell attached again reads the state `undo` left, and the app goes
#      on (its next to-do takes the id `undo` gave back).
todo_runtime=$scratch/todo-runtime
mkdir -m 700 "$todo_runtime"
app_in=$scratch/todo-app.in app_out=$scratch/todo-app.out
shell_in=$scratch/todo-shell.in shell_out=$scratch/todo-shell.out shell_err=$scratch/todo-shell.err
saved=$scratch/todo-app.scenario
mkfifo "$app_in" "$shell_in"
# NB: opened for reading and writing, so that neither open waits for the other end.
exec 6<>"$app_in" 7<>"$shell_in"
XDG_RUNTIME_DIR=$todo_runtime "$bin/todo-app" <"$app_in" >"$app_out" 2>&1 &
apps+=($!)
todo_app=$!
if ! wait_for "$app_out" '^todo-app: serving its store'; then
    fail "todo-app did not start serving:"
    cat "$app_out" >&2
else
    # NB: under `timeout`, so that a session that hangs fails the test rather than stalling it.
    XDG_RUNTIME_DIR=$todo_runtime timeout 60 "$bin/todosh" attach todos <"$shell_in" >"$shell_out" 2>"$shell_err" &
    shell=$!
    # The shell's own action: its diff, then what `state` reads (`expect` prints nothing when met).
    printf '%s\n' 'dispatch AddTodo title: "Milk"' 'expect todos[0].title == "Milk"' 'state todos[0].title' >&7
    wait_for "$shell_out" '^"Milk"$' || fail "todosh attach todos: no answer to 'state todos[0].title'"
    grep -qx '+ todos\[0\]: {"id":1,"title":"Milk","completed":false}' "$shell_out" ||
        fail "the shell's dispatch did not print its diff"
    # The app's own action.
    echo "add Bread" >&6
    wait_for "$shell_out" '^<= ' || fail "the app's own action did not reach the shell"
    # Its undo, then its save.
    printf '%s\n' undo "save $saved" >&7
    wait_for "$shell_out" '^saved [0-9]+ state-changing commands to ' || fail "the attached shell did not save"
    wait_for "$app_out" '^todo-app: To-do \(all\): \[ \] 1 Milk, \[ \] 2 Bread$' ||
        fail "the app's screen never showed Bread"
    [ "$(tail -n 1 "$app_out")" = "todo-app: To-do (all): [ ] 1 Milk" ] ||
        fail "undo did not set the app's store: its screen shows '$(tail -n 1 "$app_out")'"
    echo detach >&7
    set +e
    wait "$shell"
    status=$?
    set -e
    expected_shell='+ todos[0]: {"id":1,"title":"Milk","completed":false}
~ nextID: 1 -> 2
"Milk"
<= AddTodo title: Bread
+ todos[1]: {"id":2,"title":"Bread","completed":false}
~ nextID: 2 -> 3
- todos[1]: {"id":2,"title":"Bread","completed":false}
~ nextID: 3 -> 2
(undid step 2: AddTodo title: Bread, which the app dispatched)
saved 3 state-changing commands to '"$saved"
    if [ "$status" -ne 0 ] || [ "$(cat "$shell_out")" != "$expected_shell" ] || [ -s "$shell_err" ]; then
        fail "todosh attach todos exited $status; its output, expected <, actual >:"
        diff <(echo "$expected_shell") "$shell_out" >&2 || true
        cat "$shell_err" >&2
    fi
    run "$bin/todosh" test --no-color --exhaustive "$saved"
    if [ "$status" -ne 0 ]; then
        fail "the scenario saved while attached to todo-app does not replay (status $status):"
        cat "$out" "$err" "$saved" >&2
    fi
    run env XDG_RUNTIME_DIR="$todo_runtime" timeout 60 "$bin/todosh" attach todos <<<'state todos'
    [ "$status" -eq 0 ] && [ "$(cat "$out")" = '[{"id":1,"title":"Milk","completed":false}]' ] ||
        fail "a shell attached again does not read the state undo left (status $status): $(cat "$out" "$err")"
    echo "add Eggs" >&6
    wait_for "$app_out" '^todo-app: To-do \(all\): \[ \] 1 Milk, \[ \] 2 Eggs$' ||
        fail "todo-app did not go on after the shell detached: $(tail -n 1 "$app_out")"
fi
kill "$todo_app" 2>/dev/null || fail "todo-app exited before the end of its test: $(tail -n 5 "$app_out")"
exec 6>&- 7>&-

if [ "$failures" -ne 0 ]; then
    echo "test-example: $failures check(s) failed" >&2
    exit 1
fi
echo "test-example: all checks passed"

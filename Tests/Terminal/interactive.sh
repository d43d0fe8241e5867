#!/usr/bin/env bash
# Drives the real fluxsh in a terminal (tmux): completion, listing, Ctrl-C, Ctrl-D, exit status,
# and history recalled with Up in a second run. Usage: Tests/Terminal/interactive.sh [BINARY]
set -euo pipefail
binary=$(realpath "${1:-.build/debug/fluxsh}")
run=0
socket="fluxsh-test-$$-$run"
state=$(mktemp -d)
failures=0
passes=0
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$state"' EXIT

# `start [BINARY]`: the shell (default the one under test) in a fresh terminal.
start() {
    # NB: a fresh server (socket) per run: reusing one right after kill-server races its exit.
    tmux -L "$socket" kill-server 2>/dev/null || true
    run=$((run + 1))
    socket="fluxsh-test-$$-$run"
    tmux -L "$socket" new-session -d -s shell -x 100 -y 40 \
        "env XDG_STATE_HOME=$state XDG_RUNTIME_DIR=$state/runtime TERM=xterm ${1:-$binary}; echo EXIT=\$?; sleep 30"
}
screen() { tmux -L "$socket" capture-pane -p -t shell; }
send() { tmux -L "$socket" send-keys -t shell "$@"; }
# Waits up to 10 s for TEXT on the screen, then records a pass or a failure named NAME.
expect() {
    local name=$1 text=$2
    for _ in $(seq 1 500); do
        if screen | grep -qF -- "$text"; then
            passes=$((passes + 1))
            return
        fi
        sleep 0.02
    done
    failures=$((failures + 1))
    echo "FAIL: $name: '$text' not on the screen:" >&2
    screen | sed 's/^/    | /' >&2
}
# Waits up to 10 s for a prompt PROMPT alone on the screen's last line: the shell has printed
# what the line before asked and reads the next one (a key sent earlier may be dropped while the
# terminal is set up for the new line).
expect_prompt() {
    local name=$1 prompt=$2
    for _ in $(seq 1 500); do
        if [ "$(screen | sed '/^$/d' | tail -1 | sed 's/ *$//')" = "$prompt" ]; then
            passes=$((passes + 1))
            return
        fi
        sleep 0.02
    done
    failures=$((failures + 1))
    echo "FAIL: $name: '$prompt' is not the last line of the screen:" >&2
    screen | sed 's/^/    | /' >&2
}

start
expect "prompt without a store" "fluxsh>"
send "load cou" Tab Enter
expect "store name completed" "fluxsh> load counter"
expect "prompt names the active store" "counter>"
send "dispatch inc" Tab Enter
expect "action name completed" "counter> dispatch increment"
expect "diff printed" "~ count: 0 -> 1"
send "dispatch " Tab
expect "several candidates listed" "add        decrement  increment  set"
send C-c
send "state count" Enter
expect "Ctrl-C cleared the line" "counter> state count"
send "dispatch nope" Enter
expect "errors name the way out" "error: unknown action 'nope' for store 'counter'"
send "~ count: 0 -> 1" Enter
expect "a diff line at the prompt is refused at once" "error: expected diff lines are checked in scripts and scenarios, not at the prompt"
expect_prompt "a prompt after the refusal" "counter>"
send C-d
expect "Ctrl-D exits with 0" "EXIT=0"

start
expect "second run prompt" "fluxsh>"
send Up
expect "history recalled across runs" "fluxsh> ~ count: 0 -> 1"
send Up
expect "older history" "fluxsh> dispatch nope"
send C-u "load todos" Enter
send 'dispatch add "café ✓"' Enter
expect "non-ASCII input arrives intact" '+ todos[0]: {"id":1,"title":"café ✓","done":false}'
long=$(printf 'x%.0s' $(seq 1 110))
send "dispatch add $long" Enter
expect "a value wider than the terminal prints below its head" "+ todos[1]:"
expect "one member a line, indented" '    "id": 2,'
send "dispatch rename 2 short" Enter
expect "a wide change puts -> between its values" "  ->"
send "quit" Enter
expect "quit exits with 0" "EXIT=0"
grep -q 'dispatch\\040increment' "$state/fluxsh/history" && passes=$((passes + 1)) || {
    failures=$((failures + 1))
    echo "FAIL: history file lacks 'dispatch increment'" >&2
}

# Piped commands with standard output and error on one terminal: each error comes after the
# output of the commands above it, never before.
printf 'load counter\ndispatch increment\ndispatch nope\ndispatch increment\n~ count: 1 -> 5\nstate count\n' >"$state/order.txt"
start "sh -c 'cat $state/order.txt | $binary'"
expect "piped output on a terminal" "EXIT=1"
order=$(screen | grep -nE '^~ count: 0 -> 1|error: unknown action|^~ count: 1 -> 2|error: the diff of|^2$' | cut -d: -f1 | tr '\n' ' ')
if [ "$(echo "$order" | tr ' ' '\n' | sed '/^$/d' | sort -n | tr '\n' ' ')" = "$order" ] && [ "$(echo "$order" | wc -w)" -eq 5 ]; then
    passes=$((passes + 1))
else
    failures=$((failures + 1))
    echo "FAIL: piped errors and output out of order (lines $order):" >&2
    screen | sed 's/^/    | /' >&2
fi

# Started by make (`make run`), which shares the shell's process group: Ctrl-C on a half-typed
# line abandons the line and sends no SIGINT, so make exits as the shell does, 0 after Ctrl-D.
printf 'run:\n\t%s\n' "$binary" >"$state/Makefile"
start "make -s -f $state/Makefile run"
expect "prompt under make" "fluxsh>"
send "load cou"
send C-c
send "state" Enter
expect "Ctrl-C under make cleared the line" "fluxsh> state"
expect_prompt "a prompt after the error under make" "fluxsh>"
send C-d
expect "make exits 0 after Ctrl-C then Ctrl-D" "EXIT=0"

# Attached to a running app (attach-demo, built with the tests): the app's actions print above the
# line being typed, which stays as it was; completion asks the app.
demo=$(dirname "$binary")/attach-demo
if [ -x "$demo" ]; then
    mkdir -m 700 "$state/runtime"
    mkfifo "$state/demo.in"
    XDG_RUNTIME_DIR=$state/runtime "$demo" term <"$state/demo.in" >"$state/demo.out" &
    exec 4>"$state/demo.in"
    start "$binary attach term"
    expect "attached at a prompt" "term>"
    send "dispatch ad" Tab
    expect "the app's action completed" "term> dispatch add"
    echo "tick 1" >&4
    expect "the app's action above the prompt" "<= tick"
    expect "its diff too" "~ count: 0 -> 1"
    send "title: eggs" Enter
    expect "the line typed meanwhile stayed whole" "term> dispatch add title: eggs"
    expect "dispatched in the app" '+ items[0]: {"id":1,"title":"eggs","done":false}'
    expect_prompt "a prompt after the app's answer" "term>"
    send C-d
    expect "Ctrl-D detaches with 0" "EXIT=0"
    start "$binary attach term"
    expect "attached again" "term>"
    send "dispatch ti"
    echo "stop" >&4
    expect "the app's end is said above the line" "app exited"
    expect "a clean stop of the app ends the shell with 0" "EXIT=0"
    exec 4>&-
    wait
fi

# A user's own shell (here the planted-shell built with the tests) keeps a history of its own.
planted=$(dirname "$binary")/planted-shell
if [ -x "$planted" ]; then
    start "$planted"
    expect "a user's shell names itself" "planted-shell>"
    expect "its banner says its own name and version" "planted-shell (FluxShell 0.1.0) — type 'help'"
    # NB: the line wraps at the terminal's 100 columns, after "Start with".
    expect "and suggests one of its own stores (quotient, not counter)" ": load quotient"
    send "load level" Enter
    expect_prompt "the user's shell loaded its store" "level>"
    # A store that changes on its own: what its hook reports prints at once, above the line.
    send "load ticker" Enter
    expect_prompt "the user's shell loaded a store object with a hook" "ticker>"
    send "dispatch start" Enter
    send "state tic"
    expect "the store's change of its own prints as it comes, no key pressed" "<= tick"
    expect "with its diff" "~ ticker.ticks: 0 -> 1"
    expect "and the line being typed is drawn again below" "ticker> state tic"
    send C-u "history" Enter
    expect "it is a step of the history" "2  tick"
    # A model of the main actor's whose task sleeps on the session's clock: it rings with `advance`.
    send "load alarm" Enter
    expect_prompt "the user's shell loaded a main-actor model" "alarm>"
    send "dispatch set" Enter
    expect "its action's diff" "~ alarm.isSet: false -> true"
    send "effects" Enter
    expect "its task is listed while it sleeps" "effect 1 (line 6: the stores' own tasks): waits 2 s on the clock"
    send "advance 2" Enter
    expect "the task's action is the advance's own" "=> ring"
    expect "with its diff" "~ alarm.rings: 0 -> 1"
    # With no hook, the store's state is read again while the user types.
    send "load drift" Enter
    expect_prompt "the user's shell loaded a store object with no hook" "drift>"
    send "dispatch start" Enter
    send "why dri"
    expect "a change with no hook prints as it comes, no key pressed" "<= (the store changed by itself)"
    expect "with its diff" "~ drift.ticks: 0 -> 1"
    expect "and the line being typed is drawn again below" "drift> why dri"
    send C-u
    send C-d
    expect "the user's shell exits with 0" "EXIT=0"
    if grep -q 'load\\040level' "$state/planted-shell/history" && ! grep -q 'load\\040level' "$state/fluxsh/history"; then
        passes=$((passes + 1))
    else
        failures=$((failures + 1))
        echo "FAIL: planted-shell's line is not in its own history file ($state/planted-shell/history) alone" >&2
    fi
fi

echo "terminal: $passes passed, $failures failed"
[ "$failures" -eq 0 ]

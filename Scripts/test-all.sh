#!/usr/bin/env bash
# `make test`: every stage of the tests in order, each one's whole output kept in
# .build/test-logs/STAGE.log, and on the terminal one line per stage as it ends (PASS or FAIL, its
# time, and the line of its log that sums it up), then a summary a person reads at the end. A
# failed stage also shows the lines of its log that say what failed, and the log's end; the
# stages after it still run (all but those that need the build), and the status is 1.
# Usage: Scripts/test-all.sh   (from anywhere; `make test` calls it after `make deps test-deps lint`)
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
logs=.build/test-logs
rm -rf "$logs"
mkdir -p "$logs"
passed=()
failed=()
started=$(date +%s)

# `stage NAME SUMMARY-PATTERN COMMAND...`: runs COMMAND with its output in NAME's log; the last
# line of the log matching SUMMARY-PATTERN (an extended regular expression) sums it up.
stage() {
    local name=$1 pattern=$2
    shift 2
    local log=$logs/$name.log start=$SECONDS
    # NB: said before it runs, so that a long stage (the first build) is not mistaken for a hang.
    printf '...  %s\n' "$name"
    "$@" >"$log" 2>&1
    local status=$?
    local summary
    summary=$(grep -E "$pattern" "$log" | tail -n 1 | sed -E 's/\x1B\[[0-9;]*m//g' | cut -c1-160)
    if [ $status -eq 0 ]; then
        passed+=("$name")
        printf 'PASS %-18s %4ss  %s\n' "$name" $((SECONDS - start)) "$summary"
    else
        failed+=("$name")
        printf 'FAIL %-18s %4ss  status %s; the whole output is in %s\n' "$name" $((SECONDS - start)) "$status" "$log"
        # NB: what names the failure first (Swift Testing's ✘ lines, errors, FAIL lines), then
        # the end of the log, where a crash or a summary is.
        grep -E '✘|error:|FAIL|Fatal error|Traceback|Assertion|warning: compiler' "$log" | grep -v '^PASS ' | head -n 150 |
            sed 's/^/    /'
        echo "    ... the last lines of $log:"
        tail -n 40 "$log" | sed 's/^/    /'
    fi
    return $status
}

# The build, with no compiler warning in the project's own code; nothing runs without it.
build() {
    local log status warnings
    log=$(mktemp)
    $SWIFT build --build-tests 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    warnings=$(grep -E '(Sources|Tests)/[^:]*:[0-9]+:[0-9]+: warning:' "$log" | grep -v '/\.build/')
    rm -f "$log"
    [ "$status" -eq 0 ] || return "$status"
    if [ -n "$warnings" ]; then
        echo "error: compiler warnings in the project's own code:"
        echo "$warnings"
        return 1
    fi
    # `make run` builds what this built, with the same flags: it must compile nothing more.
    if $SWIFT build --product fluxsh 2>&1 | grep -E 'Compiling'; then
        echo "error: 'make run' would compile again after 'make test' (their builds differ)"
        return 1
    fi
    echo "built, with no warning in the project's own code"
}

fuzz_corpora() {
    .build/debug/fluxfuzz Fuzz/Corpus/c* &&
        .build/debug/fluxfuzzvalues Fuzz/Corpus/values &&
        .build/debug/fluxfuzzattach Fuzz/Corpus/attach &&
        echo "the fuzzers' corpora replay with no crash"
}

if ! stage build 'built|error' build; then
    echo "make test: the build failed; nothing else ran"
    exit 1
fi
stage unit 'Test run with|Executed [0-9]+ tests' $SWIFT test --skip-build
stage terminal 'passed|failed' Tests/Terminal/interactive.sh .build/debug/fluxsh
stage attach 'passed|failed' python3 Tests/Attach/attach_test.py .build/debug/fluxsh .build/debug/attach-demo
stage remote 'passed|failed' python3 Tests/Remote/remote_test.py .build/debug/fluxsh .build/debug/attach-demo
stage mcp 'mcp_test: [0-9]+ passed' python3 Tests/MCP/mcp_test.py .build/debug/fluxsh .build/debug/attach-demo
stage scenarios 'passed, [0-9]+ failed' .build/debug/fluxsh test Scenarios
stage fuzz-corpora 'replay|Executed|Done' fuzz_corpora
stage explore-builtins 'explore ' Scripts/explore-builtins.sh .build/debug/fluxsh
stage examples 'test-example' Scripts/test-example.sh
stage web 'web_test: [0-9]+ passed' python3 Tests/Web/web_test.py .build/debug/fluxsh .build/debug/attach-demo \
    .build/examples/debug
stage docs-sessions 'docs_test: [0-9]+ passed' python3 Tests/Docs/docs_test.py --require fluxsh --require syncupsh \
    .build/debug .build/examples/debug
stage architecture 'architecture_test:' python3 Tests/Docs/architecture_test.py
stage readme-package 'test-readme-package' Scripts/test-readme-package.sh
stage api-docs 'Finished|error|warning' make --no-print-directory docs
stage budget 'budget:' python3 Scripts/budget.py --scratch .build-budget --clean

echo
if [ ${#failed[@]} -eq 0 ]; then
    echo "make test: all ${#passed[@]} stages passed in $(($(date +%s) - started)) s (their output: $logs/)"
    exit 0
fi
echo "make test: ${#failed[@]} of $((${#passed[@]} + ${#failed[@]})) stages failed: ${failed[*]} (their output: $logs/)"
exit 1

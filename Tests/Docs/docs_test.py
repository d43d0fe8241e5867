#!/usr/bin/env python3
"""Runs the shell sessions that the documentation shows and compares what they print.

A text block of README.md, docs/*.md or an API documentation article (Sources/*/*.docc) runs when
its first line is `$ COMMAND`:

- `$ SHELL ARGS` followed by prompt lines (`todos> dispatch …`) is an interactive session: its
  commands are piped into `SHELL ARGS --echo`, and what it prints must be the block's lines after
  the banner, each prompt line standing for the command it echoes. `$ make run` is `fluxsh`.
- Any other `$ ` line is run by bash, in one process per block (so `$ echo $?` reads the status
  of the line before), its output and errors together compared with the lines below it.

Blocks without a `$` line are parts of a longer session and do not run here. A block whose
program is not on the path given is listed as skipped (`fluxsh attach` needs a running app: the
example packages' test drives it, and `fluxsh listen` waits for one: Tests/Remote/remote_test.py; `fluxsh web` serves until interrupted: Tests/Web/web_test.py). Timings (`0.01 s (419 actions/s)`) are compared by form, and
`…` in a documented line stands for the text a terminal shortens.

Usage: docs_test.py [--require PROGRAM]... DIR... [-- FILE...]
  DIR: folders searched for the shells (before PATH); FILE: documents (default: all of them).
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROMPT = re.compile(r"^([a-z][a-z0-9-]*)> (.*)$")
TIMING = re.compile(r"\d+(\.\d+)? s \(\d+ actions/s\)")
LOCATION = re.compile(r"^<stdin>:\d+: ")


def blocks(path):
    """Yields (line number, lines) for each fenced block of the document whose first line is `$ …`."""
    lines = open(path, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        if lines[index].startswith("```"):
            end = index + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            body = lines[index + 1 : end]
            if body and body[0].startswith("$ "):
                yield index + 2, body
            index = end
        index += 1


def segments(body):
    """Splits a block into (command, output lines) at each `$ ` line."""
    result = []
    for line in body:
        if line.startswith("$ "):
            result.append((line[2:], []))
        else:
            result[-1][1].append(line)
    return result


def normalized(lines):
    return [TIMING.sub("N s (N actions/s)", line.rstrip()) for line in lines]


def matches(documented, actual):
    """Whether the lines match; `…` in a documented line stands for text a terminal shortens."""
    if len(documented) != len(actual):
        return False
    for want, got in zip(documented, actual):
        pattern = "".join(".*?" if part == "…" else re.escape(part) for part in re.split("(…)", want))
        if not re.fullmatch(pattern, got):
            return False
    return True


def interactive(command, output, env, cwd):
    """Runs an interactive session piped; returns (expected, actual) lines."""
    words = ["fluxsh"] if command == "make run" else command.split()
    inputs, expected, started = [], [], False
    for line in output:
        match = PROMPT.match(line)
        if match:
            started = True
            if match.group(2) == "^D":
                break
            inputs.append(match.group(2))
            expected.append("> " + match.group(2))
        elif started:
            expected.append(line)
    run = subprocess.run(
        words + ["--echo"], input="\n".join(inputs) + "\n", stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, env=env, cwd=cwd, timeout=120)
    # NB: piped errors name their line (`<stdin>:4: error: …`); at a prompt the line is the one above.
    return expected, [LOCATION.sub("", line) for line in run.stdout.split("\n")]


def scripted(parts, env, cwd):
    """Runs a block's `$` lines in one bash; returns (expected, actual) lines."""
    script, expected = [], []
    for command, output in parts:
        script.append(f"{command} 2>&1; __status=$?; printf '\\001\\n'; (exit $__status)")
        expected.extend(output)
        expected.append("\x01")
    run = subprocess.run(["bash", "-c", "\n".join(script)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, env=env, cwd=cwd, timeout=120)
    return expected, run.stdout.split("\n")


def program(command):
    return "fluxsh" if command == "make run" else re.split(r"[ |]", command.replace("printf", "").strip())[0]


def main(arguments):
    required, folders, files = set(), [], []
    rest = iter(arguments)
    for argument in rest:
        if argument == "--require":
            required.add(next(rest))
        elif argument == "--":
            files = list(rest)
        else:
            folders.append(os.path.abspath(argument))
    if not files:
        files = ["README.md"] + sorted(glob.glob("docs/*.md")) + sorted(glob.glob("Sources/*/*.docc/*.md"))
    env = dict(os.environ, PATH=os.pathsep.join(folders + [os.environ.get("PATH", "")]), NO_COLOR="1")
    passed, failed, skipped = 0, 0, []
    for path in files:
        for number, body in blocks(os.path.join(ROOT, path)):
            parts = segments(body)
            where = f"{path}:{number}"
            name = program(parts[0][0].split("|")[-1].strip() if "|" in parts[0][0] else parts[0][0])
            words = parts[0][0].split()
            if "web" in words or "--web" in words:
                skipped.append(f"{where} ({parts[0][0]}: serves until interrupted; Tests/Web/web_test.py drives it)")
                continue
            if "attach" in words or "listen" in words or "&" in words:
                skipped.append(f"{where} ({parts[0][0]}: needs a running app)")
                continue
            found = subprocess.run(["bash", "-c", f"command -v {name}"], env=env, capture_output=True).returncode == 0
            if not found:
                if name in required:
                    print(f"docs_test: FAIL: {where}: {name} is not on the path", file=sys.stderr)
                    failed += 1
                else:
                    skipped.append(f"{where} ({name} is not built here)")
                continue
            with tempfile.TemporaryDirectory() as folder:
                if any(PROMPT.match(line) for line in parts[0][1]) and len(parts) == 1:
                    expected, actual = interactive(parts[0][0], parts[0][1], env, folder)
                else:
                    expected, actual = scripted(parts, env, folder)
            while actual and actual[-1] == "":
                actual.pop()
            if matches(normalized(expected), normalized(actual)):
                passed += 1
                continue
            failed += 1
            print(f"docs_test: FAIL: {where}: the session prints otherwise (- documented, + actual):",
                  file=sys.stderr)
            for line in __import__("difflib").unified_diff(
                    normalized(expected), normalized(actual), lineterm="", n=1):
                print("  " + line.replace("\x01", "(end of command)"), file=sys.stderr)
    for line in skipped:
        print(f"docs_test: skipped {line}")
    print(f"docs_test: {passed} passed, {failed} failed, {len(skipped)} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main(sys.argv[1:]))

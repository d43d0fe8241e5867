#!/usr/bin/env python3
"""The performance budget: the instructions and the allocations a line costs on the shell's hot
paths, counted under callgrind in release builds, against Tests/Budget/budget.json. Fails, naming
the path and both numbers, when a path costs more than its figure plus the margin.

Usage: Scripts/budget.py [--update] [--no-build] [--scratch FOLDER [--clean]] [PATH-WORD]
  --update     writes what it measured as the new figures (after a change that is worth its cost,
               said in the commit and in docs/performance.md)
  --no-build   uses the release builds as they are
  --scratch F  builds in folder F (swift build --scratch-path), away from .build
  --clean      empties that folder first: the figures are a clean build's (`make test` and
               `make budget` build so)
  PATH-WORD    measures only the paths whose name holds it

The paths, each through a user's shell (`planted-shell`, the engine as `FluxShellMain.run` serves
any shell) and the app `attach-demo`:
  piped repeated     `dispatch increment` piped in, the same line again and again
  piped distinct     `dispatch set N`, a new line each time (parsed, resolved, printed anew)
  attached app       `dispatch tick` sent by `planted-shell attach`: the app's agent's side
  attached shell     the same lines: the side of the shell that attached
  diff of 10,000     `dispatch flip N` on 10,000 rows: one field changes among 10,000

A path's cost is the difference between two runs of different lengths, divided by the lines
between them, so that starting and loading count for nothing. Instructions do not vary with the
machine's load (the hash seed is fixed: SWIFT_DETERMINISTIC_HASHING=1); allocations are the calls
to malloc, calloc, realloc, posix_memalign and aligned_alloc.

The figures are those of a clean release build (CI's): an incremental release build may inline
across modules otherwise, and count another figure for the same code.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BUDGET = os.path.join(ROOT, "Tests", "Budget", "budget.json")
ALLOCATORS = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc"}
ENV = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1", NO_COLOR="1", SWIFT_BACKTRACE="enable=no")


def lines_for(path, count):
    """The lines a path's shell reads, for `count` lines measured."""
    if path == "piped repeated":
        return ["load counter"] + ["dispatch increment"] * count
    if path == "piped distinct":
        return ["load counter"] + [f"dispatch set {n}" for n in range(1, count + 1)]
    if path == "diff of 10,000":
        return ["load roster"] + [f"dispatch flip {(n * 397) % 10_000}" for n in range(count)]
    return ["dispatch tick"] * count


# The lines of each path's two runs: a short one and a long one.
LENGTHS = {
    "piped repeated": (2_000, 12_000),
    "piped distinct": (2_000, 12_000),
    "attached app": (200, 1_200),
    "attached shell": (200, 1_200),
    "diff of 10,000": (100, 600),
}


def counts(profile):
    """The instructions and the allocation calls a callgrind profile holds."""
    instructions = allocations = 0
    names = {}
    callee = None
    with open(profile, errors="replace") as file:
        for line in file:
            if line.startswith("summary:"):
                instructions = int(line.split()[1])
            elif line.startswith("fn="):
                # NB: a function's compressed name is defined where it first appears, as a caller
                # (`fn=`) or as a callee (`cfn=`); both define the one table.
                match = re.match(r"fn=\((\d+)\)(?: (.*))?", line.strip())
                if match and match.group(2) is not None:
                    names[match.group(1)] = match.group(2)
            elif line.startswith("cfn="):
                match = re.match(r"cfn=\((\d+)\)(?: (.*))?", line.strip())
                if match:
                    if match.group(2) is not None:
                        names[match.group(1)] = match.group(2)
                    callee = names.get(match.group(1))
                else:
                    callee = line[4:].strip()
            elif line.startswith("calls=") and callee is not None:
                if callee.split("'")[0] in ALLOCATORS:
                    allocations += int(line[6:].split()[0])
                callee = None
    return instructions, allocations


def run(path, count, binaries, work):
    """A callgrind profile of `path` with `count` lines; returns its counts."""
    profile = os.path.join(work, f"cg.{path.replace(' ', '-')}.{count}")
    valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}"]
    text = "\n".join(lines_for(path, count)) + "\n"
    shell = binaries["planted-shell"]
    if path.startswith("attached"):
        runtime = tempfile.mkdtemp(dir=work)
        os.chmod(runtime, 0o700)
        env = dict(ENV, XDG_RUNTIME_DIR=runtime)
        name = f"budget{count}"
        app_command = [binaries["attach-demo"], name]
        if path == "attached app":
            app_command = valgrind + ["--log-file=" + profile + ".log"] + app_command
        app = subprocess.Popen(app_command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=env, text=True)
        try:
            socket = os.path.join(runtime, "fluxsh", name + ".sock")
            deadline = time.time() + 120
            while not os.path.exists(socket):
                if time.time() > deadline or app.poll() is not None:
                    raise SystemExit(f"budget: the app for '{path}' never served its socket")
                time.sleep(0.1)
            shell_command = [shell, "attach", name]
            if path == "attached shell":
                shell_command = valgrind + ["--log-file=" + profile + ".log"] + shell_command
            result = subprocess.run(shell_command, input=text, capture_output=True, text=True, env=env, timeout=900)
            app.stdin.write("stop\n")
            app.stdin.close()
            app.wait(timeout=300)
        finally:
            # NB: an app left running under valgrind (a failure above) is ended, not left behind.
            if app.poll() is None:
                app.kill()
                app.wait()
        expected = f"count: {count - 1} -> {count}"
        if expected not in result.stdout:
            raise SystemExit(f"budget: '{path}' did not run its {count} lines: {result.stdout[-300:]}{result.stderr[-300:]}")
    else:
        result = subprocess.run(valgrind + ["--log-file=" + profile + ".log", shell], input=text,
                                capture_output=True, text=True, env=ENV, timeout=900)
        if result.returncode != 0:
            raise SystemExit(f"budget: '{path}' failed: {result.stderr[-500:]}")
    return counts(profile)


def measure(path, binaries, work):
    short, long = LENGTHS[path]
    first, second = run(path, short, binaries, work), run(path, long, binaries, work)
    lines = long - short
    return {"instructions": round((second[0] - first[0]) / lines), "allocations": round((second[1] - first[1]) / lines, 2)}


def build(no_build, scratch):
    products = ["planted-shell", "attach-demo"]
    flags = ["-c", "release"] + (["--scratch-path", scratch] if scratch else [])
    if not no_build:
        for product in products:
            subprocess.run(["swift", "build", *flags, "--product", product], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)
    folder = subprocess.run(["swift", "build", *flags, "--show-bin-path"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    return {product: os.path.join(folder, product) for product in products}


def main():
    arguments = sys.argv[1:]
    update = "--update" in arguments
    no_build = "--no-build" in arguments
    scratch = None
    if "--scratch" in arguments:
        position = arguments.index("--scratch")
        if position + 1 >= len(arguments):
            raise SystemExit("budget: --scratch needs a folder")
        scratch = os.path.abspath(arguments[position + 1])
        del arguments[position:position + 2]
    if "--clean" in arguments:
        if scratch is None:
            raise SystemExit("budget: --clean empties the folder of --scratch, which is missing")
        shutil.rmtree(scratch, ignore_errors=True)
    words = [argument for argument in arguments if not argument.startswith("--")]
    if shutil.which("valgrind") is None:
        raise SystemExit("budget: valgrind is missing (make test-deps installs it)")
    budget = json.load(open(BUDGET))
    built = build(no_build, scratch)
    work = tempfile.mkdtemp(prefix="fluxsh-budget-")
    # NB: valgrind cannot read the DWARF 5 of a Swift release build: copies without it.
    binaries = {}
    for product, path in built.items():
        binaries[product] = os.path.join(work, product)
        subprocess.run(["strip", "--strip-debug", "-o", binaries[product], path], check=True)
    margin = budget["margin"]
    over = []
    print(f"{'path':<16} {'instructions':>24} {'allocations':>22}")
    for path, figures in budget["paths"].items():
        if words and not any(word in path for word in words):
            continue
        measured = measure(path, binaries, work)
        cells = []
        for kind in ("instructions", "allocations"):
            if kind not in figures:
                cells.append(f"{'(not counted)':>22}")
                continue
            figure = figures[kind]
            limit = figure * (1 + margin) if kind == "instructions" else figure * (1 + margin) + 0.5
            value = measured[kind]
            mark = "ok" if value <= limit else "OVER"
            cells.append(f"{value:>10,} / {figure:>9,} {mark:>4}")
            if value > limit:
                over.append(f"budget: {path}: {value:,} {kind} a line, over its budget of {limit:,.1f} "
                            f"({figure:,} + {margin:.0%}{' + 0.5' if kind == 'allocations' else ''})")
            if update:
                figures[kind] = value
        print(f"{path:<16} {cells[0]:>24} {cells[1]:>22}")
    shutil.rmtree(work, ignore_errors=True)
    if update:
        with open(BUDGET, "w") as file:
            json.dump(budget, file, indent=2)
            file.write("\n")
        print("budget: the figures are written to Tests/Budget/budget.json")
        return 0
    for line in over:
        print(line, file=sys.stderr)
    if over:
        print("budget: a hot path costs more than its budget (a deliberate cost: Scripts/budget.py --update, "
              "and say why in docs/performance.md)", file=sys.stderr)
        return 1
    print("budget: every path within its budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())

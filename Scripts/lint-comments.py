#!/usr/bin/env python3
"""A comment says why code is shaped as it is, never how fast it is: speed is a figure of
Tests/Budget/budget.json and docs/performance.md, checked by `make test`, where a comment's figure
would go stale unseen. Fails, listing each comment line under Sources/ that carries a measured
figure (instructions, allocations, callgrind, a time in ns or µs, a time something took, a
"Measured:" note, a ratio such as 1.3×). The
benchmarks (Sources/fluxbench) print figures and are left out.

Usage: Scripts/lint-comments.py   (`make lint` runs it)
"""
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FIGURE = re.compile(
    r"\d[\d,]* (more |fewer )?instructions|callgrind|\bmeasured:|\b\d+(\.\d+)? ?(ns|µs)\b"
    r"|\b\d+(\.\d+)?(-\d+(\.\d+)?)? ?s (user|wall|cpu)\b|\btook \d[\d.,]* ?(s|ms|seconds)\b"
    r"|\b\d[\d.,]* (more |fewer )?allocations\b|\b\d+(\.\d+)?(×|x) (faster|slower|the)",
    re.IGNORECASE)

found = []
for folder, _, files in os.walk(os.path.join(ROOT, "Sources")):
    if os.path.relpath(folder, ROOT).startswith(os.path.join("Sources", "fluxbench")):
        continue
    for name in sorted(files):
        if not name.endswith(".swift"):
            continue
        path = os.path.join(folder, name)
        for number, line in enumerate(open(path, encoding="utf-8"), start=1):
            comment = line.split("//", 1)[1] if "//" in line else ""
            if comment and FIGURE.search(comment):
                found.append(f"{os.path.relpath(path, ROOT)}:{number}: {line.strip()}")
for line in found:
    print(line)
if found:
    print(f"lint-comments: {len(found)} comment line(s) carry a measured figure: say why the code is shaped so, "
          "and put the figure in docs/performance.md (or the budget, Tests/Budget/budget.json)", file=sys.stderr)
    sys.exit(1)

#!/usr/bin/env python3
"""No function under Sources/ runs over 80 lines, from its declaration to its closing brace: a
longer one is split into functions that each do one part (a type of its own holds what the parts
share, as `LinearAlignment` does). Fails listing each, longest first.

Usage: Scripts/lint-functions.py [LIMIT]   (`make lint` runs it)
"""
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 80
DECLARATION = re.compile(
    r"\s*(?:@[\w().:, ]+\s+)*(?:(?:public|package|private|fileprivate|internal|static|final|override|mutating|"
    r"nonisolated|class|convenience|required|consuming|borrowing)\s+)*(func |init[?!]?\s*[(<]|deinit\b|"
    r"subscript\s*[(<])")


def code(line):
    """The line without its strings and its comment, so that their braces do not count."""
    line = re.sub(r'(#+)".*?"\1', '""', line)
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    comment = line.find("//")
    return line if comment < 0 else line[:comment]


def lengths(path):
    raw = open(path, encoding="utf-8").read().split("\n")
    lines = []
    multiline = False
    for line in raw:
        # NB: a multi-line string's lines are text, not code.
        if line.count('"""') % 2 == 1:
            multiline = not multiline
            lines.append("")
        else:
            lines.append("" if multiline else code(line))
    for start, line in enumerate(lines):
        if not DECLARATION.match(line):
            continue
        depth, opened, end = 0, False, start
        while end < len(lines):
            for character in lines[end]:
                if character == "{":
                    depth, opened = depth + 1, True
                elif character == "}":
                    depth -= 1
            if (opened and depth <= 0) or (not opened and end > start + 12):
                break
            end += 1
        if opened:
            yield end - start + 1, start + 1, raw[start].strip()


found = []
for folder, _, files in os.walk(os.path.join(ROOT, "Sources")):
    for name in sorted(files):
        if name.endswith(".swift"):
            path = os.path.join(folder, name)
            for length, line, text in lengths(path):
                if length > LIMIT:
                    found.append((length, f"{os.path.relpath(path, ROOT)}:{line}: {length} lines: {text[:90]}"))
for _, text in sorted(found, reverse=True):
    print(text)
if found:
    print(f"lint-functions: {len(found)} function(s) over {LIMIT} lines: split each into parts", file=sys.stderr)
    sys.exit(1)

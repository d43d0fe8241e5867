#!/usr/bin/env python3
"""docs/architecture.md against Package.swift (as `swift package dump-package` reads it) and the
sources: the module table has one row for each module under Sources/ and names no other, each
row's "depends on" is what the module declares, every module imports what it declares and declares
what it imports, a row that says its module is "the only" one with something imports a module no
other does, the products listed are the package's, and the code fenced in named files (unsafe code,
checks turned off, code inlined into other modules) is in the files "Hot paths and unsafe code"
names and no other.

Usage: Tests/Docs/architecture_test.py   (a stage of `make test`)
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOC = os.path.join(ROOT, "docs", "architecture.md")
IMPORT = re.compile(
    r"\s*(?:@_exported |@testable |@preconcurrency |@_implementationOnly |package |public |internal )*"
    r"import (?:struct |class |enum |func |protocol |typealias )?(\w+)")
failures = []
# The modules of the toolchain, which no package declares.
TOOLCHAIN = {
    "Swift", "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl", "Darwin", "Dispatch",
    "Synchronization", "Testing", "XCTest", "_Concurrency", "Observation", "RegexBuilder", "CoreFoundation",
}
# Modules a target imports that no product names, reached through a product it declares, and why.
REACHED_THROUGH = {
    "FluxShellRemote": {
        "CNIOBoringSSL": "swift-nio-ssl's BoringSSL, which NIOSSL links: the run's certificate is made with it",
    },
}
# What each kind of fenced code is (see "Hot paths and unsafe code"), in a line without its comment.
FENCED = {
    "unsafe": re.compile(
        r"Unsafe(Mutable)?(Raw)?(Buffer)?Pointer|UnsafeContinuation|OpaquePointer|Unmanaged|unsafeBitCast|"
        r"unsafeDowncast|withUnsafe|unsafeAddress|unsafeMutableAddress|assumingMemoryBound|bindMemory|"
        r"withMemoryRebound|baseAddress|unowned\(unsafe\)|UnownedJob|@_silgen_name"),
    "unchecked": re.compile(
        r"@exclusivity\(unchecked\)|@unchecked\s+(Swift\.)?Sendable|nonisolated\(unsafe\)|@preconcurrency"),
    "inlined": re.compile(r"@inlinable|@inline\(__always\)|@_transparent|@_alwaysEmitIntoClient"),
}
# The most `@unchecked Sendable` declarations the sources may hold.
UNCHECKED_SENDABLE_LIMIT = 11
# Outside the fence: the benchmarks imitate apps and measure the tricks.
UNFENCED = ("fluxbench",)


def check(condition, message):
    if not condition:
        failures.append(message)


def package():
    text = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout
    return json.loads(text)


def dependency_names(target):
    """The names of what a target depends on: its targets' and its products'."""
    names = set()
    for dependency in target["dependencies"]:
        (kind, value), = dependency.items()
        names.add(value[0])
    return names


def sources_of(target):
    return target.get("path") or os.path.join("Sources", target["name"])


def imports_of(target):
    folder = os.path.join(ROOT, sources_of(target))
    found = set()
    for place, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".swift"):
                for line in open(os.path.join(place, name), encoding="utf-8"):
                    match = IMPORT.match(line)
                    if match:
                        found.add(match.group(1))
    return found


def table_rows(text, heading):
    """The rows of the first table after `heading`: each row's cells."""
    section = text.split(heading, 1)[1]
    rows = []
    started = False
    for line in section.splitlines():
        if line.startswith("|"):
            started = True
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if cells[0] in ("module", "product") or set(cells[0]) <= {"-", " "}:
                continue
            rows.append(cells)
        elif started:
            break
    return rows


def names_in(cell):
    """The names a cell lists, comma-separated, backticks or not; `nothing` is none."""
    if cell == "nothing":
        return set()
    return {part.strip().strip("`") for part in cell.split(",") if part.strip()}


def code_lines(text):
    """Each line of Swift source with its comments and the contents of its string literals blanked
    out: `//` and `/* */` comments, `"…"` and `\"\"\"…\"\"\"` strings, raw (`#"…"#`) or not, with
    the code of their interpolations kept."""
    lines, line = [], []
    i, n = 0, len(text)
    # What is being read: ("code", open parentheses) in code or an interpolation, ("string",
    # what closes it, raw or not), ("block",) in a /* */ comment, one for each nested one.
    stack = [("code", 0)]
    while i < n:
        c = text[i]
        kind = stack[-1][0]
        if c == "\n":
            lines.append("".join(line))
            line = []
            i += 1
        elif kind == "block":
            if text.startswith("*/", i):
                stack.pop()
                i += 2
            elif text.startswith("/*", i):
                stack.append(("block",))
                i += 2
            else:
                i += 1
        elif kind == "string":
            _, close, raw = stack[-1]
            escape = "\\" + "#" * (len(close) - close.count('"')) if raw else "\\"
            if text.startswith(escape + "(", i):
                stack.append(("code", 1))
                line.append("(")
                i += len(escape) + 1
            elif text.startswith(escape, i) and i + len(escape) < n and text[i + len(escape)] != "\n":
                i += len(escape) + 1
            elif text.startswith(close, i):
                stack.pop()
                line.append('"')
                i += len(close)
            else:
                i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            stack.append(("block",))
            i += 2
        else:
            match = re.match(r'(#*)("""|")', text[i:i + 64])
            if match:
                hashes, quotes = match.groups()
                stack.append(("string", quotes + hashes, bool(hashes)))
                line.append('"')
                i += len(match.group(0))
                continue
            if len(stack) > 1 and c in "()":
                depth = stack[-1][1] + (1 if c == "(" else -1)
                if depth == 0:
                    stack.pop()
                else:
                    stack[-1] = ("code", depth)
            line.append(c)
            i += 1
    lines.append("".join(line))
    return lines


def fenced_code():
    """For each kind of fenced code, the files that hold it, as `(module, path)`, the path under the
    module without `.swift`; and each `@unchecked Sendable` declaration, as `path:line`."""
    found = {kind: set() for kind in FENCED}
    declarations = []
    sources = os.path.join(ROOT, "Sources")
    for place, _, files in os.walk(sources):
        relative = os.path.relpath(place, sources)
        module = relative.split(os.sep)[0]
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(place, name)
            inner = os.path.relpath(path, os.path.join(sources, module))[:-len(".swift")]
            for number, code in enumerate(code_lines(open(path, encoding="utf-8").read()), 1):
                if FENCED["unchecked"].search(code) and "Sendable" in code:
                    declarations.append(f"{os.path.relpath(path, ROOT)}:{number}")
                if module in UNFENCED:
                    continue
                for kind, pattern in FENCED.items():
                    if pattern.search(code):
                        found[kind].add((module, inner))
    return found, declarations


def check_fence(text):
    """The files "Hot paths and unsafe code" names for each kind are those that hold it."""
    named = {kind: set() for kind in FENCED}
    for cells in table_rows(text, "## Hot paths and unsafe code"):
        if cells[0] == "kind":
            continue
        kind = cells[0].strip("`")
        check(kind in FENCED and len(cells) == 4, f"a row of the hot paths table is not kind, module, files, why: {cells}")
        if kind in FENCED and len(cells) == 4:
            module = cells[1].strip("`")
            named[kind] |= {(module, name) for name in names_in(cells[2])}
    found, declarations = fenced_code()
    for kind in FENCED:
        for module, name in sorted(found[kind] - named[kind]):
            check(False, f"{module}/{name}.swift holds {kind} code, and the hot paths table does not name it")
        for module, name in sorted(named[kind] - found[kind]):
            check(False, f"the hot paths table names {module}/{name}.swift for {kind} code, which it does not hold")
    check(len(declarations) <= UNCHECKED_SENDABLE_LIMIT,
          f"{len(declarations)} @unchecked Sendable declarations, more than {UNCHECKED_SENDABLE_LIMIT}: "
          + ", ".join(declarations))
    return found, declarations


def main():
    manifest = package()
    text = open(DOC, encoding="utf-8").read()
    targets = {target["name"]: target for target in manifest["targets"]}
    products = {product["name"] for product in manifest["products"]}
    # The modules the table is about: those under Sources/ (the tests, their helpers and the fuzzers
    # live elsewhere).
    modules = {name: target for name, target in targets.items()
               if target["type"] != "test" and sources_of(target).startswith("Sources")}
    rows = table_rows(text, "## Modules")
    seen = set()
    for cells in rows:
        check(len(cells) == 3, f"a row of the module table has {len(cells)} cells: {cells}")
        if len(cells) != 3:
            continue
        names = re.findall(r"`([^`]+)`", cells[0])
        declared = set()
        for name in names:
            check(name in modules, f"the module table names '{name}', which is no module under Sources/")
            if name in modules:
                seen.add(name)
                declared |= dependency_names(modules[name])
        declared -= set(names)
        listed = names_in(cells[2])
        check(listed == declared,
              f"the module table says {', '.join(names)} depends on {sorted(listed)}; Package.swift says "
              f"{sorted(declared)}")
    for name in sorted(set(modules) - seen):
        check(False, f"the module table has no row for '{name}'")

    # What each module declares, it imports, and what it imports, it declares (but the toolchain's
    # own modules, and a module reached through a declared product on purpose, said here).
    imported = {}
    for name, target in modules.items():
        if target["type"] == "system":
            continue
        imports = imports_of(target)
        imported[name] = imports
        # NB: a C target's headers come in by its module map, not by an import.
        swift_dependencies = {d for d in dependency_names(target) if targets.get(d, {}).get("type") != "system"}
        if not any(file.endswith(".swift") for _, _, files in os.walk(os.path.join(ROOT, sources_of(target)))
                   for file in files):
            continue
        for dependency in sorted(swift_dependencies - imports):
            check(False, f"'{name}' declares '{dependency}' in Package.swift and never imports it")
        allowed = TOOLCHAIN | set(REACHED_THROUGH.get(name, {})) | {name}
        for module in sorted(imports - dependency_names(target) - allowed):
            check(False, f"'{name}' imports '{module}' without declaring it in Package.swift")

    # A row that says its module is the only one with something: it imports a module no other does.
    for cells in rows:
        if len(cells) != 3 or "the only" not in cells[1]:
            continue
        name = re.findall(r"`([^`]+)`", cells[0])[0]
        if name not in imported:
            continue
        others = set().union(*(imports for other, imports in imported.items()
                               if other != name and modules[other]["type"] == "regular"))
        check(bool(imported[name] - others - set(targets)),
              f"the module table says '{name}' is the only one with something, but it imports nothing the "
              "other modules do not")

    # The products: the table lists each, and the module it holds.
    listed = table_rows(text, "## Products")
    names = {re.findall(r"`([^`]+)`", cells[0])[0] for cells in listed if re.findall(r"`([^`]+)`", cells[0])}
    check(names == products, f"the products table lists {sorted(names)}; Package.swift has {sorted(products)}")
    for product in manifest["products"]:
        row = next((cells for cells in listed if f"`{product['name']}`" in cells[0]), None)
        if row and len(row) >= 2:
            check(names_in(row[1]) == set(product["targets"]),
                  f"the products table says '{product['name']}' holds {sorted(names_in(row[1]))}; "
                  f"Package.swift says {sorted(product['targets'])}")

    found, declarations = check_fence(text)

    for failure in failures:
        print("architecture_test: FAIL", failure, file=sys.stderr)
    fenced = ", ".join(f"{len(files)} with {kind} code" for kind, files in found.items())
    print(f"architecture_test: {len(modules)} modules and {len(products)} products checked, files fenced "
          f"({fenced}), {len(declarations)} @unchecked Sendable; "
          f"{len(failures)} failure{'s' if len(failures) != 1 else ''}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

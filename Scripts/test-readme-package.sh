#!/usr/bin/env bash
# The README's "Your own store" package, built and run as a user does: its Package.swift,
# Sources/Cart/Cart.swift and Sources/cartsh/main.swift are taken from README.md as they stand,
# and the manifest's `.package(path: "../FluxShell")` line resolves as written, to a clone of this
# repository's committed HEAD beside the package, unchanged. Then the shell it
# builds runs the session the API documentation's overview shows (Tests/Docs/docs_test.py).
# Usage: Scripts/test-readme-package.sh  (from anywhere; called by `make test`)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# `swift_block MARKER`: the first ```swift block after the first README line containing MARKER.
swift_block() {
    awk -v marker="$1" 'index($0, marker) { found = 1 }
        found && /^```swift$/ { inside = 1; next }
        inside && /^```$/ { exit }
        inside { print }' README.md
}

app=$scratch/MyApp
mkdir -p "$app/Sources/Cart" "$app/Sources/cartsh"
swift_block '`Package.swift`, with FluxShell' >"$app/Package.swift"
swift_block '`Sources/Cart/Cart.swift`' >"$app/Sources/Cart/Cart.swift"
swift_block '`Sources/cartsh/main.swift`' >"$app/Sources/cartsh/main.swift"
for file in Package.swift Sources/Cart/Cart.swift Sources/cartsh/main.swift; do
    [ -s "$app/$file" ] || { echo "test-readme-package: FAIL: README.md has no $file block" >&2; exit 1; }
done

# NB: the manifest is built as printed: its path dependency, ../FluxShell, is a clone of this
# repository's committed HEAD placed beside the package, as the README tells a user to make.
line=$(grep -E '\.package\(' "$app/Package.swift") ||
    { echo "test-readme-package: FAIL: the README's manifest has no .package line" >&2; exit 1; }
case "$line" in
*'.package(path: "../FluxShell")'*) ;;
*) echo "test-readme-package: FAIL: the README's manifest should depend on ../FluxShell, a clone beside it: $line" >&2; exit 1 ;;
esac
git clone -q . "$scratch/FluxShell"

echo "test-readme-package: building the README's package (cartsh) against ${line#"${line%%[![:space:]]*}"}"
swift build --package-path "$app" --product cartsh 2>&1 | grep -E 'error|warning: .*(deprecated|unknown)|Compiling cartsh|Build complete' || true
cartsh=$app/.build/debug/cartsh
[ -x "$cartsh" ] || { echo "test-readme-package: FAIL: cartsh did not build" >&2; exit 1; }

# The session of the API documentation's overview (FluxShell.md: `$ cartsh --store cart`).
python3 Tests/Docs/docs_test.py --require cartsh "$app/.build/debug" -- Sources/FluxShell/FluxShell.docc/FluxShell.md
echo "test-readme-package: the README's package resolves, builds and runs"

#!/usr/bin/env bash
# Builds the fuzzers (Fuzz/Sources, targets of this package, with libFuzzer through --sanitize=fuzzer
# and -DFUZZING, in a build folder of their own: .build-fuzz) and runs each FUZZ_SECONDS (600):
# `fluxfuzz` (command lines and scripts), `fluxfuzzvalues` (values typed back, “Printed values” in
# the reference) and `fluxfuzzattach` (what an attached shell sends the app's agent); a target with
# a dictionary, Fuzz/Dictionaries/TARGET.dict, is given it. FUZZ_TARGETS picks some
# ("fluxfuzzvalues"). Crashes are written as Fuzz/crash-* files; each corpus grows in
# Fuzz/Corpus/generated*. Inputs run in /tmp/fluxfuzz-*, never the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cd Fuzz
for target in ${FUZZ_TARGETS:-fluxfuzz fluxfuzzvalues fluxfuzzattach}; do
    swift build --package-path "$root" --scratch-path "$root/.build-fuzz" -c release --sanitize=fuzzer \
        -Xswiftc -DFUZZING --product "$target"
    case $target in
        fluxfuzz) corpus=Corpus generated=Corpus/generated ;;
        fluxfuzzattach) corpus=Corpus/attach generated=Corpus/generated-attach ;;
        *) corpus=Corpus/values generated=Corpus/generated-values ;;
    esac
    mkdir -p "$generated"
    dictionary=()
    if [[ -f Dictionaries/$target.dict ]]; then dictionary=(-dict="$PWD/Dictionaries/$target.dict"); fi
    # NB: `${dictionary[@]+…}`: an empty array is an unbound variable to bash 3.2 under `set -u`.
    SWIFT_BACKTRACE=enable=no "$root/.build-fuzz/release/$target" "$PWD/$generated" "$PWD/$corpus" \
        -artifact_prefix="$PWD/" -max_total_time="${FUZZ_SECONDS:-600}" -max_len=4096 -timeout=10 \
        -rss_limit_mb=4096 -print_final_stats=1 ${dictionary[@]+"${dictionary[@]}"}
done

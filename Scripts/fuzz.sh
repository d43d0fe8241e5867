#!/usr/bin/env bash
# Builds the fuzzer (Fuzz/, libFuzzer through --sanitize=fuzzer) and runs it FUZZ_SECONDS (600).
# Crashes are written as Fuzz/crash-* files;
# the corpus grows in Fuzz/Corpus/generated. Inputs run in /tmp/fluxfuzz-*, never the checkout.
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
swift build -c release --sanitize=fuzzer --product fluxfuzz
mkdir -p Corpus/generated
SWIFT_BACKTRACE=enable=no .build/release/fluxfuzz "$PWD/Corpus/generated" "$PWD/Corpus" \
    -artifact_prefix="$PWD/" -max_total_time="${FUZZ_SECONDS:-600}" -max_len=4096 -timeout=10 -rss_limit_mb=4096 -print_final_stats=1

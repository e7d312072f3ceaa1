#!/usr/bin/env bash
# Builds a libFuzzer target with address sanitizer and runs it.
#   scripts/fuzz.sh TARGET SECONDS [extra libFuzzer flags]
# Targets: json, bplist, xmlplist, decode, plistdecode, archive, generated, stream, jsonschema, raw, openapi. Crashes land in Fuzz/artifacts/; add each as a named regression test.
# Amplification is a finding, not a slow pass: inputs are at most 8 KiB, so under the default
# Limits nothing may expand past the 8 MiB amplification threshold (Limits.amplificationThreshold).
# One allocation over 128 MiB (16× that), an input taking over 3 s (an ASan build decodes an
# 8 KiB input in milliseconds) or a process over 2 GiB (ASan's own shadow and quarantine
# included) stops the run with a reproducer.
set -euo pipefail

target=${1:?usage: scripts/fuzz.sh TARGET SECONDS}
seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)

defines=()
extra=()
build="$root/.build-fuzz/$target"
mkdir -p "$build" "$build/corpus" "$root/Fuzz/artifacts"

run() {
  local binary=$1
  shift
  echo "fuzzing $target for $seconds s"
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$binary" \
    -max_total_time="$seconds" -timeout=3 -rss_limit_mb=2048 -malloc_limit_mb=128 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="$root/Fuzz/artifacts/$target-" "$@"
}

# The raw stage needs swift-crypto, so SwiftPM builds it (nested package Fuzz/).
if [ "$target" = raw ] || [ "$target" = openapi ]; then
  # Both in one SwiftPM scratch folder, so swift-crypto and the Vetted modules are built once.
  spm="$root/.build-fuzz/spm"
  swift build --package-path "$root/Fuzz" --scratch-path "$spm" -c release \
    --sanitize fuzzer --sanitize address -Xswiftc -DFUZZING --product "fuzz-$target"
  run "$spm/release/fuzz-$target" "$@" "$build/corpus" "$root/Fuzz/seeds/$target"
  exit 0
fi

case "$target" in
  json) modules=(VettedCore VettedRules VettedDecoding VettedJSON); entry="$root/Fuzz/JSON/FuzzJSON.swift" ;;
  bplist) modules=(VettedCore VettedRules VettedDecoding VettedPlist); entry="$root/Fuzz/Plist/FuzzPlist.swift" ;;
  xmlplist) modules=(VettedCore VettedRules VettedDecoding VettedPlist); entry="$root/Fuzz/Plist/FuzzPlist.swift"; defines=(-D FUZZ_XML) ;;
  decode) modules=(VettedCore VettedRules VettedDecoding VettedJSON VettedPlist VettedMacros); entry="$root/Fuzz/Decode/FuzzDecode.swift"; extra=("$root/Tests/VettedTestSupport/TalkListing.swift") ;;
  plistdecode) modules=(VettedCore VettedRules VettedDecoding VettedJSON VettedPlist VettedMacros); entry="$root/Fuzz/PlistDecode/FuzzPlistDecode.swift"; extra=("$root/Tests/VettedTestSupport/TalkListing.swift") ;;
  archive) modules=(VettedCore VettedRules VettedDecoding VettedJSON VettedPlist VettedMacros VettedArchive); entry="$root/Fuzz/Archive/FuzzArchive.swift"; extra=("$root/Tests/VettedTestSupport/TalkPurchase.swift" "$root/Tests/VettedTestSupport/TalkListing.swift") ;;
  jsonschema) modules=(VettedCore VettedRules VettedDecoding VettedJSON VettedJSONSchema); entry="$root/Fuzz/JSONSchema/FuzzJSONSchema.swift" ;;
  generated) modules=(VettedCore VettedRules VettedDecoding VettedJSON VettedPlist VettedMacros); entry="$root/Fuzz/Generated/FuzzGenerated.swift"; extra=("$root/Tests/VettedMacrosTests/GeneratedCorpus.swift" "$root/Tests/VettedMacrosTests/ShapesCorpus.swift" "$root/Tests/VettedMacrosTests/TwinCorpus.swift") ;;
  stream) modules=(VettedCore VettedRules VettedDecoding VettedJSON VettedPlist VettedMacros); entry="$root/Fuzz/Stream/FuzzStream.swift"; extra=("$root/Tests/VettedMacrosTests/GeneratedCorpus.swift" "$root/Tests/VettedMacrosTests/ShapesCorpus.swift") ;;
  *) echo "unknown fuzz target: $target (known: json, bplist, xmlplist, decode, plistdecode, archive, generated, stream, jsonschema, raw, openapi)" >&2; exit 64 ;;
esac
# The package's import rule too: without it, a plain `import` is public and clashes with a `package import` of the same module.
flags=(-swift-version 6 -package-name Vetted -parse-as-library -sanitize=fuzzer,address -O -g -enable-upcoming-feature InternalImportsByDefault)
# @Vetted (the talk's Listing, the generated target's types) needs its compiler
# plugin, a host tool that SwiftPM builds (debug, into .build as `swift test` does).
if [[ " ${modules[*]} " == *" VettedMacros "* ]]; then
  # Building a target that expands the macros links the plugin (building the macro target alone does not).
  swift build --package-path "$root" --target VettedTestSupport >/dev/null
  plugin="$(swift build --package-path "$root" --show-bin-path)/VettedMacrosPlugin-tool"
  flags+=(-load-plugin-executable "$plugin#VettedMacrosPlugin")
fi

# Modules are built once into a shared directory and reused by every target
# that needs them (CI builds seven targets): a module is rebuilt when one of its
# sources, or a module listed before it, is newer than its object file. Every
# list follows one order (Core, Rules, Decoding, JSON, Plist, Macros, Archive,
# JSONSchema), so that a module is never rebuilt for one it does not depend on
# (the last CI run built VettedJSON three times and VettedMacros twice).
shared_modules="$root/.build-fuzz/modules"
mkdir -p "$shared_modules"
flags+=(-I "$shared_modules")
# Two targets fuzzed at once must not compile the same module at once (held until linked).
exec 9>"$shared_modules/.lock"
if command -v flock >/dev/null; then flock 9; fi
objects=()
for module in "${modules[@]}"; do
  object="$shared_modules/$module.o"
  if [ ! -f "$object" ] || [ -n "$(find "$root/Sources/$module" "${objects[@]}" -newer "$object" -print -quit)" ]; then
    echo "building $module"
    swiftc "${flags[@]}" -wmo -module-name "$module" -emit-module -emit-module-path "$shared_modules/$module.swiftmodule" \
      -c $(find "$root/Sources/$module" -name '*.swift' | sort) -o "$object"
    touch "$object"  # swiftc leaves an unchanged object's time alone
  fi
  objects+=("$object")
done
swiftc "${flags[@]}" "${defines[@]}" -module-name "Fuzz_$target" "$entry" "${extra[@]}" "${objects[@]}" -o "$build/fuzz-$target"
exec 9>&-

# Seeds: the repository's own samples and seeds; the shared test suite when present (read-only).
corpora=("$build/corpus" "$root/Fuzz/seeds/$target")
case "$target" in json | decode | generated | stream | jsonschema) corpora+=("$root/Samples") ;; esac
case "$target" in
  json | decode | generated | stream) shared="$root/../shared/fixtures/JSONTestSuite/test_parsing" ;;
  *) shared="$root/../shared/fixtures/keyed-archives/apple" ;;
esac
[ -d "$shared" ] && corpora+=("$shared")

run "$build/fuzz-$target" "$@" "${corpora[@]}"

#!/usr/bin/env bash
# The README's install block and quick start together, as a new user copies them:
# a fresh package depending on this checkout by path, with VettedMacros added as the
# install block's comment says, the quick start as its code, and a main that runs
# `check` on a valid listing and on a look-alike host. swift-syntax is pinned at the
# lowest version Package.swift accepts, so the macro is built once against it.
# Usage: scripts/quick-start-check.sh [WORK_DIR [SCRATCH_DIR]]
# CI passes the new-user check's folder and scratch: what both build (Vetted's modules,
# swift-crypto) is built once, and only swift-syntax and the macro are added here.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d)}"
scratch="${2:-$work/.build-quickstart}"
mkdir -p "$work/QuickStart/Sources/App"
ln -sfn "$root" "$work/vetted-main"

lowest="$(sed -n 's|.*swiftlang/swift-syntax", "\([0-9.]*\)"\.\.<.*|\1|p' "$root/Package.swift")"
[[ -n "$lowest" ]] || { echo "cannot read swift-syntax's lowest accepted version from Package.swift" >&2; exit 1; }

# Block 1: the install block; VettedMacros added where its comment says, swift-syntax pinned.
block="$(awk '/^```swift/{n++; if (n==1) {p=1; next}} /^```/{if (p) exit} p' "$root/README.md")"
grep -q 'dependencies: \[.product(name: "Vetted", package: "vetted-main")\]' <<<"$block" || { echo "README install block changed: update $0" >&2; exit 1; }
block="$(sed -e 's|dependencies: \[.product(name: "Vetted", package: "vetted-main")\]|dependencies: [.product(name: "Vetted", package: "vetted-main"), .product(name: "VettedMacros", package: "vetted-main")]|' \
             -e "s|.package(path: \"../vetted-main\"),|.package(path: \"../vetted-main\"), .package(url: \"https://github.com/swiftlang/swift-syntax\", exact: \"$lowest\"),|" <<<"$block")"
{
    echo '// swift-tools-version: 6.0'
    echo 'import PackageDescription'
    echo 'let package = Package('
    echo '    name: "QuickStart",'
    echo "$block"
    echo ')'
} >"$work/QuickStart/Package.swift"
# Block 2: the quick start, as it is.
awk '/^```swift/{n++; if (n==2) {p=1; next}} /^```/{if (p) exit} p' "$root/README.md" >"$work/QuickStart/Sources/App/QuickStart.swift"
cat >"$work/QuickStart/Sources/App/main.swift" <<'SWIFT'
import Foundation
let valid = #"[{"id": 1, "name": "Lamp", "url": "https://example.com/1", "tags": ["tools"]}]"#
let lookAlike = #"[{"id": 1, "name": "Lamp", "url": "https://ex\u0430mple.com/1", "tags": ["tools"]}]"#
print(check(Data(valid.utf8)).joined(separator: ", "))
print(check(Data(lookAlike.utf8)).joined(separator: ", "))
SWIFT
out="$(swift run --package-path "$work/QuickStart" --scratch-path "$scratch" App 2>&1 | tail -2)"
echo "$out"
[[ "$out" == $'1 listings\n$[0].url confusableHost' ]]
grep -q "\"version\" : \"$lowest\"" "$work/QuickStart/Package.resolved" 2>/dev/null \
    || grep -rq "$lowest" "$scratch/workspace-state.json" \
    || { echo "swift-syntax $lowest was not the version built" >&2; exit 1; }
echo "the README's install block and quick start build and run together, against swift-syntax $lowest"

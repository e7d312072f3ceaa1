#!/usr/bin/env bash
# Tries Vetted as a new user would: a fresh package whose manifest is the
# README's install block (the one Swift block DocSampleTests cannot compile),
# depending on this checkout by path, with a main.swift that imports Vetted.
# Checks too that neither swift-syntax nor a framework of the adapters is built.
# Usage: scripts/new-user-check.sh [WORK_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d)}"
mkdir -p "$work/App/Sources/App"
ln -sfn "$root" "$work/vetted-main"          # the folder name the README's block uses

# The README's first ```swift block: the dependencies and targets of Package.swift.
block="$(awk '/^```swift/{n++; if (n==1) {p=1; next}} /^```/{if (p) exit} p' "$root/README.md")"
grep -q '.package(path: "../vetted-main")' <<<"$block" || { echo "README install block changed: update $0" >&2; exit 1; }
{
    echo '// swift-tools-version: 6.0'
    echo 'import PackageDescription'
    echo 'let package = Package('
    echo '    name: "App",'
    echo "$block"
    echo ')'
} >"$work/App/Package.swift"
cat >"$work/App/Sources/App/main.swift" <<'SWIFT'
import Foundation
import Vetted

struct Item: Codable, Validatable {
    var id: Int
    static let validation = Validation<Item> { Field("id", Rule<Int>.range(1...10)) }
}
do {
    _ = try VettedJSONDecoder().decode([Item].self, from: Data(#"[{"id": 11}]"#.utf8))
    print("decoded: the rule did not run")
    exit(1)
} catch let errors as ValidationErrors {
    print(errors.errors.map { "\($0.path) \($0.code)" }.joined(separator: ", "))
}
SWIFT
out="$(swift run --package-path "$work/App" --scratch-path "$work/.build" App 2>&1 | tail -1)"
echo "$out"
[[ "$out" == '$[0].id outOfRange' ]]
# A package that uses Vetted but not VettedMacros never compiles swift-syntax or the macro plugin.
if compgen -G "$work/.build/*/VettedMacrosPlugin-tool" >/dev/null || compgen -G "$work/.build/*/SwiftSyntax*.build/*.o" >/dev/null; then
  echo "swift-syntax was built for a package that does not use VettedMacros" >&2
  exit 1
fi
echo "swift-syntax not built: good"
# Nor Hummingbird, Vapor, swift-openapi-runtime or Yams, which only the adapter products need, each under its trait.
if compgen -G "$work/.build/*/Hummingbird*.build" >/dev/null || compgen -G "$work/.build/*/Vapor.build" >/dev/null \
  || compgen -G "$work/.build/*/OpenAPIRuntime.build" >/dev/null || compgen -G "$work/.build/*/Yams.build" >/dev/null; then
  echo "Hummingbird, Vapor, swift-openapi-runtime or Yams was built for a package that uses only Vetted" >&2
  exit 1
fi
if ls "$work/.build/checkouts" | grep -qixE 'hummingbird|vapor|swift-openapi-runtime|yams'; then
  echo "an adapter's framework was resolved for a package that uses only Vetted: $(ls "$work/.build/checkouts" | tr '\n' ' ')" >&2
  exit 1
fi
echo "Hummingbird, Vapor, swift-openapi-runtime and Yams not built or resolved: good ($(ls "$work/.build/checkouts" | wc -l) packages resolved)"

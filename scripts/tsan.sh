#!/usr/bin/env bash
# ThreadSanitizer over the tests that share one decoder between tasks. Builds
# every module again with the sanitizer (about 10 minutes on 2 cores from
# nothing), so it is run by hand and before a release, not by CI.
#   scripts/tsan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift test --sanitize=thread --scratch-path .build-tsan --filter "SharingAndBridgeTests|PlistDecoderSharingTests"

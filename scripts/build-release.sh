#!/usr/bin/env bash
# Builds the release binary that install.sh and package.sh ship: optimised, the Swift
# runtime linked statically (the binary needs only libc and, for HTTP, libcurl4 at run
# time), stripped, with the commit it was built from embedded (authctl --version).
# Prints the path of the stripped binary. Usage: scripts/build-release.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/dist}"
AUTHCTL_COMMIT="$(scripts/commit-id.sh)"
export AUTHCTL_COMMIT
echo "build: release build of authctl $AUTHCTL_COMMIT (the first takes several minutes)" >&2
mkdir -p .build "$out"
swift build -c release --static-swift-stdlib --product authctl >.build/release-build.log 2>&1 ||
    { cat .build/release-build.log >&2; echo "build: the release build failed" >&2; exit 1; }
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)/authctl"
strip --strip-all -o "$out/authctl" "$bin"
chmod 0755 "$out/authctl"
echo "$out/authctl"

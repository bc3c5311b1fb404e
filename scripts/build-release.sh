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
# No $ORIGIN run path (the binary needs no library beside itself, and ld.so would look there
# for each one at every start) and no exported symbols (swiftc exports every public symbol of
# an executable: 16,000 of them, 1.7 MB, and the runtime's dladdr at start-up scans them all).
# Optimised for size (-Osize): 1 MB smaller than -O for 1 % more instructions on the token
# path, which keeps the binary under its 25 MB. bench/README.md has the figures.
flags=(-c release --static-swift-stdlib --disable-local-rpath -Xlinker --no-export-dynamic -Xswiftc -Osize)
swift build "${flags[@]}" --product authctl >.build/release-build.log 2>&1 ||
    { cat .build/release-build.log >&2; echo "build: the release build failed" >&2; exit 1; }
bin="$(swift build "${flags[@]}" --show-bin-path)/authctl"
strip --strip-all -o "$out/authctl" "$bin"
chmod 0755 "$out/authctl"
echo "$out/authctl"

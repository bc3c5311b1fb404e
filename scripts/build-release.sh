#!/usr/bin/env bash
# Builds the release binary that install.sh and package.sh ship: optimised, the Swift
# runtime linked statically (the binary needs only libc and, for HTTP, libcurl4 at run
# time), stripped, with the commit it was built from embedded (authctl --version); and the
# token front (docs/front.md, scripts/build-front.sh) beside it as OUT_DIR/authctl-front, which
# the packages install as bin/authctl, the full program going to lib/authctl/authctl.
# Prints the path of the stripped full program. Usage: scripts/build-release.sh [OUT_DIR]
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
# And C++'s and GCC's runtime libraries linked statically too (issue 24): libstdc++ as a shared
# library made the dynamic loader bind its symbols at every start, about 1.7 M instructions of
# a `token` that now takes 2. The toolchain links `-lstdc++` itself, so the linker is pointed
# first at a directory that holds only the static archive. The binary stays a PIE that needs
# only glibc (libc, libm) at run time.
# Linked by lld (the toolchain's) with the functions the commands that answer from the
# keystore run (token, status, git-credential: scripts/authctl-hot-path.order, made by
# bench/make-order-file.sh) laid out together: a start touches fewer pages of the binary's
# code, and the kernel maps fewer around them (peak RSS 11.5 -> 9 MiB, 30 fewer page faults).
# Identical functions folded into one (lld's --icf=all): Swift's generic specialisations and
# Codable conformances repeat the same machine code many times over; folding them takes
# 356 KB off the stripped program (26,176,832 -> 25,820,480 bytes at e129278) with the same
# instruction counts (bench/token-instructions.sh). authctl's code compares no function
# addresses, and Apple's linker folds the same way by default (ld64's deduplication); "safe"
# folding needs address-significance tables, which swiftc does not emit (it saves 8 KB).
# Under it, two functions of the same code share one address: never compare KeyPaths to
# computed properties (identified by their getters) or use function pointers as tags, and
# read a crash's backtrace knowing that a folded function may carry another's name.
static_cxx="$(scripts/static-cxx-dir.sh)"
flags=(-c release --static-swift-stdlib --disable-local-rpath -Xlinker --no-export-dynamic -Xswiftc -Osize
    -Xswiftc -L"$static_cxx" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
    -Xswiftc -use-ld=lld -Xlinker --symbol-ordering-file="$PWD/scripts/authctl-hot-path.order" -Xlinker --no-warn-symbol-ordering
    -Xlinker --icf=all)
swift build "${flags[@]}" --product authctl >.build/release-build.log 2>&1 ||
    { cat .build/release-build.log >&2; echo "build: the release build failed" >&2; exit 1; }
bin="$(swift build "${flags[@]}" --show-bin-path)/authctl"
strip --strip-all -o "$out/authctl" "$bin"
chmod 0755 "$out/authctl"
front="$(scripts/build-front.sh .build/front-release)"
cp "$front" "$out/authctl-front"
cp "$(dirname "$front")/authctl-request" "$out/authctl-request"
chmod 0755 "$out/authctl-front" "$out/authctl-request"
echo "$out/authctl"

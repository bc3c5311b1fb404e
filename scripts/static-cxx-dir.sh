#!/usr/bin/env bash
# Prints a directory that holds libstdc++'s static archive alone (a link to the toolchain's),
# made under .build/: given to the linker before any other (`-L`), it makes the toolchain's own
# `-lstdc++` link the archive, not the shared library (scripts/build-release.sh, issue 24).
set -euo pipefail
cd "$(dirname "$0")/.."
clang="$(dirname "$(command -v swift)")/clang"
[[ -x "$clang" ]] || clang="$(command -v clang || true)"
archive="$("${clang:-clang}" -print-file-name=libstdc++.a 2>/dev/null || true)"
[[ "$archive" == /* && -f "$archive" ]] ||
    { echo "build: libstdc++'s static archive (libstdc++.a) was not found: install libstdc++-12-dev (or g++)" >&2; exit 1; }
dir="$PWD/.build/static-libstdc++"
mkdir -p "$dir"
ln -sfn "$archive" "$dir/libstdc++.a"
echo "$dir"

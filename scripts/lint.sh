#!/usr/bin/env bash
# The habits a reader relies on, checked before anything is built (scripts/test.sh runs it):
#   - swift format, with the checked-in .swift-format, finds nothing;
#   - no two folders of AuthCore use each other (scripts/folder-graph.py);
#   - Foundation is chosen once, in Sources/AuthCore/Imports.swift (scripts/one-import.py), and
#     no module but the tests' support imports all of it;
#   - no protocol in Sources has more than 8 requirements of its own (scripts/protocol-size.py);
#   - no folder of Sources holds more than 20 files, no source file more than 400 lines;
#   - a comment cites a file of this repository or an RFC, never a contract kept elsewhere,
#     and every `Name.swift` or `Sources/…`/`Tests/…` path a Swift comment cites exists;
#   - the token front (Sources/authctl-front) with the whole cached-token core (Sources/CachedTokenCore)
#     type-checks as Embedded Swift, so a change to the core that Embedded Swift refuses fails here.
set -euo pipefail
cd "$(dirname "$0")/.."
failed=0
if ! out="$(swift format lint --strict --recursive --configuration .swift-format Sources Tests Package.swift 2>&1)"; then
    echo "$out" >&2
    echo "lint: swift format found the above; fix them with: swift format format -i --configuration .swift-format FILE…" >&2
    failed=1
fi
python3 scripts/folder-graph.py >/dev/null || { python3 scripts/folder-graph.py >&2; echo "lint: folders of Sources/AuthCore use each other" >&2; failed=1; }
python3 scripts/one-import.py --check >&2 || failed=1
# All of Foundation brings ICU (tens of MB, a slower start): only the tests' support may import it.
if grep -rnE "^\s*import Foundation\s*$" --include=*.swift Sources | grep -v "^Sources/AuthCoreTestSupport/" >&2; then
    echo "lint: the lines above import all of Foundation (ICU); AuthCore's Imports.swift gives FoundationEssentials to every module" >&2
    failed=1
fi
python3 scripts/protocol-size.py >/dev/null || { python3 scripts/protocol-size.py >&2; failed=1; }
# The sizes a reader can hold (docs/architecture.md): no folder of Sources with more than 20
# files of its own, no source file of more than 400 lines.
while read -r count folder; do
    echo "lint: $folder holds $count files (at most 20): split it by concern into subfolders" >&2
    failed=1
done < <(find Sources -type d -exec sh -c 'n=$(find "$1" -maxdepth 1 -type f | wc -l); [ "$n" -gt 20 ] && echo "$n $1"' _ {} \;)
while read -r lines file; do
    [[ "$file" == total ]] && continue
    echo "lint: $file has $lines lines (at most 400): move a concern into an extension in a file of its own" >&2
    failed=1
done < <(find Sources -name '*.swift' -exec wc -l {} + | awk '$1 > 400')
if grep -rnE "SPEC ?§|SPEC\.md|SECURITY\.md|DESIGN\.md" --include=*.swift Sources Tests >&2; then
    echo "lint: the lines above cite a specification that is not in this repository; cite docs/ or an RFC" >&2
    failed=1
fi
# A cited `Name.swift` must be a file somewhere in the repository; a cited path, that path.
cited="$(grep -rhoE "//.*" --include=*.swift Sources Tests Package.swift | grep -oE "[A-Za-z0-9_+./-]*[A-Za-z0-9_+-]\.swift\b" | grep -v "//" | sort -u)"
known="$(git ls-files '*.swift')"
missing=0
for name in $cited; do
    case "$name" in
    Sources/* | Tests/* | bench/*) [ -e "$name" ] && continue ;;
    *) grep -qE "(^|/)${name//+/\\+}\$" <<<"$known" && continue ;;
    esac
    grep -rnF --include=*.swift "$name" Sources Tests Package.swift | grep -F "//" >&2
    missing=1
done
if [ "$missing" = 1 ]; then
    echo "lint: the comments above cite a .swift file that does not exist; cite where it is now" >&2
    failed=1
fi
for variant in "" "-D AUTHCTL_REQUEST"; do
    # shellcheck disable=SC2046,SC2086
    if ! out="$(swiftc $(scripts/front-flags.sh) $variant -typecheck Sources/authctl-front/*.swift Sources/CachedTokenCore/*.swift 2>&1)"; then
        echo "$out" | grep -v 'warning:' >&2
        echo "lint: the token front${variant:+ (the request program, $variant)} and Sources/CachedTokenCore do not type-check as Embedded Swift (scripts/front-flags.sh)" >&2
        failed=1
    fi
done
exit "$failed"

#!/usr/bin/env bash
# The habits a reader relies on, checked before anything is built (scripts/test.sh runs it):
#   - swift format, with the checked-in .swift-format, finds nothing;
#   - no two folders of AuthCore use each other (scripts/folder-graph.py);
#   - Foundation is chosen once, in Sources/AuthCore/Imports.swift (scripts/one-import.py);
#   - a comment cites a file of this repository or an RFC, never a contract kept elsewhere;
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
if grep -rnE "SPEC ?§|SPEC\.md|SECURITY\.md|DESIGN\.md" --include=*.swift Sources Tests >&2; then
    echo "lint: the lines above cite a specification that is not in this repository; cite docs/ or an RFC" >&2
    failed=1
fi
# shellcheck disable=SC2046
if ! out="$(swiftc $(scripts/front-flags.sh) -typecheck Sources/authctl-front/*.swift Sources/CachedTokenCore/*.swift 2>&1)"; then
    echo "$out" | grep -v 'warning:' >&2
    echo "lint: the token front and Sources/CachedTokenCore do not type-check as Embedded Swift (scripts/front-flags.sh)" >&2
    failed=1
fi
exit "$failed"

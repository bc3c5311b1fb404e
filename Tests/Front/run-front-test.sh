#!/usr/bin/env bash
# The token front (docs/front.md) against the full program: builds the front
# (scripts/build-front.sh, seconds), writes every keystore the Swift tests know
# (KeystoreCorpusExportTests) and runs Tests/Front/agreement.py — the same stdout, stderr and
# exit status on every case, the front answering exactly the cases it must — and
# Tests/Front/memory.py: no key or refresh token left in the front's memory; then
# Tests/Front/request-agreement.py: `request` through the request program.
# Usage: Tests/Front/run-front-test.sh [AUTHCTL]   (default: the debug build's authctl)
set -euo pipefail
cd "$(dirname "$0")/../.."
core="${1:-$(swift build --show-bin-path)/authctl}"
front="$(scripts/build-front.sh .build/front)"
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
AUTHCTL_KEYSTORE_CORPUS="$corpus" swift test --skip-build --filter KeystoreCorpusExportTests >"$corpus.log" 2>&1 ||
    { cat "$corpus.log" >&2; rm -f "$corpus.log"; echo "front: writing the tests' keystores failed" >&2; exit 1; }
rm -f "$corpus.log"
count="$(ls "$corpus" | wc -l)"
[[ "$count" -ge 20 ]] || { echo "front: only $count keystores written by KeystoreCorpusExportTests" >&2; exit 1; }
python3 Tests/Front/agreement.py "$front" "$core" "$corpus"
# git-credential get (issue 37): git's descriptions, answered and handed over with their stdin.
python3 Tests/Front/git-agreement.py "$front" "$core"
# request (issue 37): the request program against the full program, with a resource on 127.0.0.1.
python3 Tests/Front/request-agreement.py "$front" "$(dirname "$front")/authctl-request" "$core"
# What the front leaves in its memory after opening a sealed keystore (gdb; skipped without it).
python3 Tests/Front/memory.py "$front" "$core"

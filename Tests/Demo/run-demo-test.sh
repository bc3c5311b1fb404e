#!/usr/bin/env bash
# The README's first command as a new user runs it (issue 25, item 18): scripts/demo.sh
# installs only what the demo needs, says what before installing, signs in, and ends by
# saying where the binary is and one command to try next.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=../E2E/lib.sh
. "$here/../E2E/lib.sh"
cd "$root"

# On a machine that has nothing: what the demo would install, and that it says so first.
AUTHCTL_SETUP_ASSUME_MISSING=1 scripts/setup.sh --demo --dry-run 2>"$work/plan" || true
check "the demo's set-up names what it will install and why, before installing" grep -q "needs these Debian packages" "$work/plan"
check "the demo installs only libcurl, curl and Python with venv (no keyring, groff, browsers or shells)" sh -c "
    [ \"\$(sed -n 's/^setup:   \([^ ]*\) .*/\1/p' '$work/plan' | sort | paste -sd' ')\" = 'curl libcurl4 python3 python3-venv' ]"
check "scripts/demo.sh asks setup.sh for the demo's packages only" grep -q 'scripts/setup.sh --demo' scripts/demo.sh

scripts/demo.sh >"$work/demo.out" 2>"$work/demo.err" || { cat "$work/demo.err" >&2; check "scripts/demo.sh runs" false; summary; }
check "scripts/demo.sh signs in and prints a token" sh -c "grep -q '\$ authctl token' '$work/demo.err' && [ -s '$work/demo.out' ]"
binary="$(sed -n 's/^demo: the binary is \(.*\)$/\1/p' "$work/demo.err")"
check "the demo ends by saying where the binary is (an executable)" test -x "$binary"
check "the demo ends with one command to try next" sh -c "tail -3 '$work/demo.err' | grep -q '^demo: try next: '"
summary

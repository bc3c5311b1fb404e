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

# Issue 38, item 7: --keep leaves the provider up and says what to continue with.
scripts/demo.sh --keep >"$work/keep.out" 2>"$work/keep.err" || { cat "$work/keep.err" >&2; check "scripts/demo.sh --keep runs" false; }
env_file="$(sed -n 's/^demo: to go on in this shell: \. \(.*\)$/\1/p' "$work/keep.err")"
provider_pid="$(sed -n 's/^demo: the provider keeps running (pid \([0-9]*\)).*$/\1/p' "$work/keep.err")"
check "--keep prints the environment to use (a file to source)" test -f "$env_file"
check "--keep says the provider keeps running, with its pid, and how to stop it" sh -c "test -n '$provider_pid' && grep -q 'demo: stop it with: kill $provider_pid' '$work/keep.err'"
check "--keep: with that environment, the demo's user is signed in" sh -c ". '$env_file' && authctl status >/dev/null"
check "--keep: the provider is still up (a refresh works)" sh -c ". '$env_file' && authctl token --force-refresh >/dev/null"
check "--keep: signing in again works with the environment's browser" sh -c ". '$env_file' && authctl login oidc.dot --timeout 60 >/dev/null 2>&1"
check "the local provider for experiments is documented, and linked from README" sh -c "test -f docs/local-provider.md && grep -q 'demo.sh --keep' docs/local-provider.md && grep -q 'docs/local-provider.md' README.md"
check "README says the demo installs Django and django-oauth-toolkit from PyPI" sh -c "grep -q 'Django' README.md && grep -q 'django-oauth-toolkit' README.md && grep -q 'PyPI' README.md"
if [ -n "$provider_pid" ]; then kill "$provider_pid" 2>/dev/null || true; fi
if [ -n "$env_file" ]; then rm -rf "$(dirname "$env_file")"; fi
summary

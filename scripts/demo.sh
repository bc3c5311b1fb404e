#!/usr/bin/env bash
# Command one: set up (only what the demo needs), build, start a real OpenID provider
# (django-oauth-toolkit) on 127.0.0.1, sign in with authctl through a scripted browser, then
# show status and token; end by saying where the binary is and what to try next.
#
#   scripts/demo.sh          the demo; everything it started is stopped and removed at the end
#   scripts/demo.sh --keep   the same, then the provider keeps running and an environment file
#                            says how to go on with it (docs/local-provider.md)
set -euo pipefail
cd "$(dirname "$0")/.."
keep=()
case "${1:-}" in
    "") ;;
    --keep) keep=(--keep) ;;
    *) echo "demo: unknown option '$1'; usage: scripts/demo.sh [--keep]" >&2; exit 2 ;;
esac

scripts/setup.sh --demo
echo "demo: building authctl (the first build takes a few minutes)" >&2
mkdir -p .build
swift build --product authctl >.build/demo-build.log 2>&1 || { cat .build/demo-build.log >&2; exit 1; }
binary="$(swift build --show-bin-path)/authctl"
Tests/E2E/run-django-e2e.sh --demo "${keep[@]}" "$binary"
echo "demo: the binary is $binary" >&2
echo "demo: try next: $binary --help   (or install it into ~/.local with: scripts/install.sh)" >&2

#!/usr/bin/env bash
# Command one: set up, build, start a real OpenID provider (django-oauth-toolkit) on
# 127.0.0.1, sign in with authctl through a scripted browser, then show status and token.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
echo "demo: building authctl (the first build takes a few minutes)" >&2
mkdir -p .build
swift build --product authctl >.build/demo-build.log 2>&1 || { cat .build/demo-build.log >&2; exit 1; }
exec Tests/E2E/run-django-e2e.sh --demo "$(swift build --show-bin-path)/authctl"

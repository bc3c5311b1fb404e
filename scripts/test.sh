#!/usr/bin/env bash
# Command two: the whole test suite — unit and flow tests, the real binary against the
# in-process provider, then end to end against two independent providers on 127.0.0.1
# (oidc-provider-mock with a confidential client; django-oauth-toolkit with a public one).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
echo "test: building (the first build takes a few minutes)" >&2
mkdir -p .build
swift build --build-tests >.build/test-build.log 2>&1 || { cat .build/test-build.log >&2; echo "test: the build failed" >&2; exit 1; }
swift test --skip-build
authctl="$(swift build --show-bin-path)/authctl"
Tests/E2E/run-oidc-provider-mock-e2e.sh "$authctl"
Tests/E2E/run-django-e2e.sh "$authctl"

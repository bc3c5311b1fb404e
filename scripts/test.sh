#!/usr/bin/env bash
# Command two: the whole test suite — unit and flow tests, the real binary against the
# in-process provider, then end to end against two independent providers on 127.0.0.1
# (oidc-provider-mock with a confidential client; django-oauth-toolkit with a public one),
# then the release packages and the install script.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
# The habits (swift format, no folder circles, one Foundation import): seconds, before the build.
scripts/lint.sh
# The commit `authctl --version` names (a test checks that the binary carries it).
AUTHCTL_COMMIT="$(scripts/commit-id.sh)"
export AUTHCTL_COMMIT
echo "test: building (the first build takes a few minutes)" >&2
mkdir -p .build
swift build --build-tests >.build/test-build.log 2>&1 || { cat .build/test-build.log >&2; echo "test: the build failed" >&2; exit 1; }
# The log is kept whole; on a failure the failed tests and their issues are printed again
# at the end, where a CI log that shows only its tail still shows them.
if ! swift test --skip-build 2>&1 | tee .build/swift-test.log; then
    echo "test: the Swift tests failed; what failed (the whole log: .build/swift-test.log):" >&2
    awk '/^✘/ { shown = 1; print; next } shown && /^[[:space:]]|^↳/ { print; next } { shown = 0 }' .build/swift-test.log | head -200 >&2
    exit 1
fi
authctl="$(swift build --show-bin-path)/authctl"
# The token front (docs/front.md) against this full program: every keystore the tests know.
Tests/Front/run-front-test.sh "$authctl"
Tests/E2E/run-oidc-provider-mock-e2e.sh "$authctl"
Tests/E2E/run-django-e2e.sh "$authctl"
# DPoP, pushed and rich authorization requests, one-time refresh chains: Glewlwyd, three ways.
Tests/E2E/glewlwyd/run-authctl-e2e.sh "$authctl"
# CIBA (approved, denied) and the remote bootstrap (login --remote + bootstrap, two HOMEs): Glewlwyd once.
Tests/E2E/glewlwyd/run-headless-e2e.sh "$authctl"
Tests/E2E/run-resource-e2e.sh "$authctl"
# A resource that moves to another authorization server (MCP SEP-2352): two django-oauth-toolkit instances.
Tests/E2E/run-move-e2e.sh "$authctl"
# One sign-in for two resources of one server that rotates refresh tokens (django-oauth-toolkit).
Tests/E2E/run-resource-shared-e2e.sh "$authctl"
# An MCP server built with the official MCP Python SDK, its own authorization server in front.
Tests/E2E/mcp/run-mcp-e2e.sh "$authctl"
# The MCP conformance suite's client auth scenarios that fit a CLI, ported (stdlib harness).
Tests/E2E/conformance/run-conformance-e2e.sh "$authctl"
# The second DPoP server: authgent-server's RFC-shaped nonce challenges, for a workload.
Tests/E2E/authgent/run-authctl-e2e.sh "$authctl"
# Identity chaining (login URL --via, docs/resources.md): two authgent-server instances, AS-A
# trusting AS-B as a chaining target, and a resource that takes only AS-B's tokens.
Tests/E2E/authgent/run-chaining-e2e.sh "$authctl"
# Enterprise-managed authorization with an ID-JAG: a company IdP of the tests' own, authgent as AS-B.
Tests/E2E/authgent/run-idjag-e2e.sh "$authctl"
# Workload identity federation by the JWT-bearer grant (login --jwt-bearer, docs/ci.md): a
# platform authgent-server minting the workload's token, AS-B trusting it, the same resource.
Tests/E2E/authgent/run-jwt-bearer-e2e.sh "$authctl"
# Cloud credentials (docs/cloud.md): authgent's token exchange, the AWS CLI against moto's STS,
# google-auth's pluggable credential; a person's ID token from django-oauth-toolkit to both.
Tests/E2E/cloud/run-cloud-e2e.sh "$authctl"
Tests/E2E/cloud/run-cloud-person-e2e.sh "$authctl"
# Every recipe marked in docs/*.md, run as written against a local provider (CI recipes in an
# emulation of the GitHub Actions and GitLab CI runners).
Tests/Docs/run-recipes-test.py "$authctl"
# The README's first command as a new user runs it: what it installs, and how it ends.
Tests/Demo/run-demo-test.sh
# The release artefacts: package.sh's .deb and tarball, install.sh and its --uninstall
# (a release build: several minutes the first time).
Tests/Packaging/run-packaging-test.sh

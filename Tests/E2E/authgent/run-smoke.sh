#!/usr/bin/env bash
# The smoke test of authgent-server without authctl: once with DPoP optional, once with
# require_dpop (every token request needs a proof with a server nonce).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
status=0
"$here/start-authgent.sh" sh -c 'exec "$AUTHGENT_PYTHON" "$0/smoke_test.py"' "$here" || status=1
AUTHGENT_REQUIRE_DPOP=true "$here/start-authgent.sh" sh -c 'exec "$AUTHGENT_PYTHON" "$0/smoke_test.py"' "$here" || status=1
exit "$status"

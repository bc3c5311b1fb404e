#!/usr/bin/env bash
# authctl end to end against authgent-server (issue 26): DPoP optional, then required with
# nonces. The binary is the argument.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
authctl="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
status=0
"$here/start-authgent.sh" sh -c 'exec "$AUTHGENT_PYTHON" "$0/authctl_e2e.py" "$1"' "$here" "$authctl" || status=1
AUTHGENT_REQUIRE_DPOP=true "$here/start-authgent.sh" sh -c 'exec "$AUTHGENT_PYTHON" "$0/authctl_e2e.py" "$1"' "$here" "$authctl" || status=1
exit "$status"

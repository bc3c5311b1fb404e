#!/usr/bin/env bash
# The smoke test without authctl: starts Glewlwyd (start-glewlwyd.sh) and runs
# smoke_test.py against it: DPoP nonces off, then mandatory, then (a short run) with
# pushed authorization requests required.
# Prints "N passed, M failed" for each run; fails when any check failed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
status=0
"$here/start-glewlwyd.sh" sh -c 'exec "$GLEWLWYD_PYTHON" "$0/smoke_test.py"' "$here" || status=1
GLEWLWYD_DPOP_NONCE=1 "$here/start-glewlwyd.sh" sh -c 'exec "$GLEWLWYD_PYTHON" "$0/smoke_test.py"' "$here" || status=1
GLEWLWYD_PAR_REQUIRED=1 "$here/start-glewlwyd.sh" sh -c 'exec "$GLEWLWYD_PYTHON" "$0/smoke_test.py"' "$here" || status=1
exit "$status"

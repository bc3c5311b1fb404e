#!/usr/bin/env bash
# authctl end to end against Glewlwyd (issue 26): starts Glewlwyd three times
# (start-glewlwyd.sh) — DPoP nonces off, nonces mandatory, pushed requests required — and
# runs authctl_e2e.py with the binary given against each. Fails when any check failed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
authctl="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
status=0
for mode in plain nonce par; do
    case "$mode" in
        plain) env=() ;;
        nonce) env=(GLEWLWYD_DPOP_NONCE=1) ;;
        par) env=(GLEWLWYD_PAR_REQUIRED=1) ;;
    esac
    env "${env[@]}" "$here/start-glewlwyd.sh" sh -c 'exec "$GLEWLWYD_PYTHON" "$0/authctl_e2e.py" "$1"' "$here" "$authctl" || status=1
done
exit "$status"

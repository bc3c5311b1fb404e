#!/usr/bin/env bash
# authctl's sign-ins for a host without a browser against Glewlwyd (issue 41): CIBA in poll
# mode (approved and denied through Glewlwyd's user API; a client secret and private_key_jwt)
# and the remote bootstrap (two HOMEs, the host's stdin a pipe). One Glewlwyd start; about
# 30 s, most of it CIBA's 5-second polling interval.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
authctl="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
exec "$here/start-glewlwyd.sh" sh -c 'exec "$GLEWLWYD_PYTHON" "$0/headless_e2e.py" "$1"' "$here" "$authctl"

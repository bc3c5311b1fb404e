#!/usr/bin/env bash
# authgent-server 0.3.4 (PyPI), the second, independent DPoP authorization server of
# issue 26, on 127.0.0.1: a SQLite database and a secret key made now (its ES256 signing
# key is made by the server at start), consent "auto_approve" (no login page: the
# authorization endpoint redirects at once with a code), a public client registered
# through its open registration endpoint (RFC 7591) with a fixed loopback redirect URI.
#
#   start-authgent.sh                start, print the issuer, wait until Ctrl-C or SIGTERM
#   start-authgent.sh COMMAND...     start, run COMMAND with AUTHGENT_ISSUER,
#                                    AUTHGENT_CLIENT_ID, AUTHGENT_REDIRECT_URI,
#                                    AUTHGENT_PYTHON in its environment, stop
#
# AUTHGENT_REQUIRE_DPOP=true makes every token request need a DPoP proof with a server
# nonce (authgent's only nonce switch); off by default.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
started="$EPOCHREALTIME"

source "$here/../lib.sh"

venv="${XDG_CACHE_HOME:-$HOME/.cache}/authctl-e2e/venv-authgent-034"
python_venv "$venv" "authgent_server, requests, cryptography" "authgent-server==0.3.4" "requests==2.34.2"
py="$venv/bin/python"

state="$work/authgent"
mkdir -m 700 "$state"
port="$(free_port)"
redirect_port="$(free_port)"
issuer="http://127.0.0.1:$port"
# Run from the state directory: `authgent-server run` writes a .env into its working
# directory when it finds no configuration.
cd "$state"
AUTHGENT_SECRET_KEY="$("$py" -c 'import secrets; print(secrets.token_hex(32))')" \
AUTHGENT_DATABASE_URL="sqlite+aiosqlite:///$state/authgent.db" \
AUTHGENT_SERVER_URL="$issuer" \
AUTHGENT_CONSENT_MODE=auto_approve \
AUTHGENT_REQUIRE_DPOP="${AUTHGENT_REQUIRE_DPOP:-false}" \
    start_provider "$state/authgent.log" "$venv/bin/authgent-server" run --host 127.0.0.1 --port "$port"
cd "$here"
wait_for "$issuer/health" || { cat "$state/authgent.log" >&2; exit 1; }

client="$(curl --silent --fail -H 'Content-Type: application/json' \
    -d "{\"client_name\": \"authctl\", \"redirect_uris\": [\"http://127.0.0.1:$redirect_port/callback\"], \"grant_types\": [\"authorization_code\", \"refresh_token\"], \"token_endpoint_auth_method\": \"none\"}" \
    "$issuer/register")"
AUTHGENT_CLIENT_ID="$("$py" -c 'import json, sys; print(json.loads(sys.argv[1])["client_id"])' "$client")"
export AUTHGENT_ISSUER="$issuer" AUTHGENT_CLIENT_ID AUTHGENT_REDIRECT_URI="http://127.0.0.1:$redirect_port/callback" \
    AUTHGENT_PYTHON="$py" AUTHGENT_LOG="$state/authgent.log" AUTHGENT_REQUIRE_DPOP="${AUTHGENT_REQUIRE_DPOP:-false}"
echo "authgent-server 0.3.4 ready at $issuer in $("$py" -c 'import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))' "$started" "$EPOCHREALTIME") s" >&2

if [ "$#" -gt 0 ]; then
    set +e
    "$@"
    status=$?
    set -e
    exit "$status"
fi
echo "$issuer"
echo "client $AUTHGENT_CLIENT_ID, redirect URI $AUTHGENT_REDIRECT_URI; Ctrl-C stops it" >&2
trap 'exit 0' INT TERM
wait "$server_pid"

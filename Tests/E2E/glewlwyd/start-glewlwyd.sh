#!/usr/bin/env bash
# Glewlwyd 2.7 (Debian's `glewlwyd`), the real OpenID provider of issue 26, on 127.0.0.1:
# a SQLite database made now, the OIDC plugin with authorization code + PKCE (S256,
# required), pushed authorization requests, DPoP, rich authorization requests,
# one-time-use refresh tokens ("Always"), introspection and revocation, `iss` on the
# authorization response; a user, a public client and a private_key_jwt client. Every
# secret (the admin's and the user's passwords, the signing key, the client's key) is
# generated at start and lives under a temporary directory removed on exit.
#
#   start-glewlwyd.sh                start, print the issuer and the settings file, wait
#                                    until Ctrl-C or SIGTERM, then stop and clean up
#   start-glewlwyd.sh COMMAND...     start, run COMMAND with the GLEWLWYD_* variables below
#                                    in its environment, stop; exits with COMMAND's status
#
# COMMAND sees: GLEWLWYD_ISSUER, GLEWLWYD_SETTINGS (a JSON file: issuer, redirect URI,
# user name and password, client ids, the private_key_jwt client's PEM key file and kid),
# GLEWLWYD_REDIRECT_URI (Glewlwyd matches redirect URIs exactly: authctl must be given
# `--redirect-uri "$GLEWLWYD_REDIRECT_URI"`, which fixes its listening port),
# GLEWLWYD_PYTHON (a Python with requests and cryptography), E2E_USERNAME, E2E_PASSWORD
# (for glewlwyd_browser.py), GLEWLWYD_LOG (the server's log).
# GLEWLWYD_DPOP_NONCE=1 turns on Glewlwyd's mandatory DPoP nonces (off by default);
# GLEWLWYD_PAR_REQUIRED=1 makes pushed authorization requests mandatory.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
started="$EPOCHREALTIME"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v glewlwyd >/dev/null || [ ! -e /usr/lib/glewlwyd/plugin/libprotocol_oidc.so ]; then
    echo "glewlwyd: installing Debian's glewlwyd package (the OpenID provider of these tests)" >&2
    as_root apt-get update -qq
    # dbconfig-common asks nothing when non-interactive (it picks SQLite); the package's own
    # database and service are not used: this script makes its own on 127.0.0.1.
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq glewlwyd >/dev/null
    # Debian's unit listens on every interface on port 4593 with the admin/password account
    # of the package's database: never leave that running on a developer's machine.
    if [ -d /run/systemd/system ]; then
        as_root systemctl disable --now glewlwyd >/dev/null 2>&1 || true
    fi
fi
version="$(glewlwyd --version 2>&1 | grep -o '[0-9][0-9.]*' | head -1)"
case "$version" in 2.7.*) ;; *) echo "glewlwyd: version $version found, 2.7.x expected" >&2 ;; esac

source "$here/../lib.sh"

venv="${XDG_CACHE_HOME:-$HOME/.cache}/authctl-e2e/venv-glewlwyd"
python_venv "$venv" "requests, cryptography" "requests==2.34.2" "cryptography==48.0.0"
py="$venv/bin/python"

state="$work/glewlwyd"
mkdir -m 700 "$state"
# The schema and default rows Debian ships (an `admin` whose password "password" is
# replaced first thing by provision.py).
zcat /usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz |
    "$py" -c 'import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.executescript(sys.stdin.read()); db.commit()' "$state/glewlwyd.db"

port="$(free_port)"
redirect_port="$(free_port)"
base="http://127.0.0.1:$port"
# No `use_secure_connection` line at all: Glewlwyd 2.7.5 reads `use_secure_connection=false`
# as "on" when it looks for the certificate files.
cat >"$state/glewlwyd.conf" <<CONF
port=$port
bind_address="127.0.0.1"
external_url="$base"
login_url="login.html"
api_prefix="api"
allow_origin="*"
log_mode="file"
log_file="$state/glewlwyd.log"
log_level="${GLEWLWYD_LOG_LEVEL:-INFO}"
cookie_secure=0
cookie_same_site="empty"
session_expiration=3600
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
plugin_api_run_enabled=""
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="/usr/lib/glewlwyd/user"
client_module_path="/usr/lib/glewlwyd/client"
user_auth_scheme_module_path="/usr/lib/glewlwyd/scheme"
plugin_module_path="/usr/lib/glewlwyd/plugin"
hash_algorithm="SHA512"
database = { type = "sqlite3"; path = "$state/glewlwyd.db"; };
CONF

start_provider "$state/glewlwyd.out" glewlwyd --config-file "$state/glewlwyd.conf"
wait_for "$base/config" || { cat "$state/glewlwyd.out" "$state/glewlwyd.log" >&2 2>/dev/null; exit 1; }
"$py" "$here/provision.py" "$base" "$state" "http://127.0.0.1:$redirect_port/callback"
issuer="$base/api/oidc"
wait_for "$issuer/.well-known/openid-configuration"

export GLEWLWYD_ISSUER="$issuer" GLEWLWYD_SETTINGS="$state/glewlwyd.json" GLEWLWYD_PYTHON="$py" \
    GLEWLWYD_REDIRECT_URI="http://127.0.0.1:$redirect_port/callback" GLEWLWYD_LOG="$state/glewlwyd.log"
E2E_USERNAME="$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["username"])' "$GLEWLWYD_SETTINGS")"
E2E_PASSWORD="$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["password"])' "$GLEWLWYD_SETTINGS")"
export E2E_USERNAME E2E_PASSWORD
echo "glewlwyd $version ready at $issuer in $("$py" -c 'import sys; print(round(float(sys.argv[2]) - float(sys.argv[1]), 1))' "$started" "$EPOCHREALTIME") s" >&2

if [ "$#" -gt 0 ]; then
    set +e
    "$@"
    status=$?
    set -e
    exit "$status"
fi
echo "$issuer"
echo "settings: $GLEWLWYD_SETTINGS (redirect URI $GLEWLWYD_REDIRECT_URI); Ctrl-C stops it" >&2
trap 'exit 0' INT TERM
wait "$server_pid"

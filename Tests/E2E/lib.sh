# Shared by the end-to-end drivers (sourced, not run).
#   start_provider LOG COMMAND...   starts a provider in the background, stopped on exit
#   wait_for URL                    waits until URL answers (10 s at most)
#   free_port                       prints a free TCP port on 127.0.0.1
#   check NAME COMMAND...           runs a check, counts it, prints ok/FAIL
#   summary                         prints "N passed, M failed"; fails when any failed
#   python_venv DIR IMPORTS PKG...  a virtual environment at DIR with PKG... (pip), made or
#                                   completed unless DIR's python imports IMPORTS ("a, b") already

work="$(mktemp -d)"
server_pid=""
passed=0
failed=0

cleanup() {
    local status=$?
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true  # a killed server's 143 is not the script's status
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT

start_provider() {
    local log="$1"; shift
    "$@" >"$log" 2>&1 &
    server_pid=$!
}

wait_for() {
    for _ in $(seq 1 100); do
        curl --silent --fail --output /dev/null "$1" && return 0
        sleep 0.1
    done
    echo "e2e: $1 did not answer" >&2
    return 1
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# authctl in a private home under $work.
private_home() {
    export HOME="$work/home" XDG_DATA_HOME="$work/home/data" XDG_CONFIG_HOME="$work/home/config" XDG_CACHE_HOME="$work/home/cache"
    unset AUTHCTL_KEYSTORE AUTHCTL_CONFIG AUTHCTL_BROWSER DISPLAY WAYLAND_DISPLAY
}

check() {
    local name="$1"; shift
    if "$@"; then passed=$((passed + 1)); echo "ok   - $name"; else failed=$((failed + 1)); echo "FAIL - $name"; fi
}

summary() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

python_venv() {
    local dir="$1" imports="$2"; shift 2
    if [ -x "$dir/bin/python" ] && "$dir/bin/python" -c "import $imports" 2>/dev/null; then return 0; fi
    echo "e2e: installing $* into $dir" >&2
    python3 -m venv "$dir"
    "$dir/bin/pip" install --quiet --disable-pip-version-check "$@"
}

# django_provider_state: django-oauth-toolkit 3.4.1's venv (its python in $dot_python) and
# the secrets of one run of Tests/E2E/django_provider, generated now: the Django secret,
# the RS256 signing key, the password of the user ada (E2E_STATE_DIR, E2E_USERNAME,
# E2E_PASSWORD exported). The run-*-e2e.sh scripts that start the provider share it.
django_provider_state() {
    local venv="${XDG_CACHE_HOME:-$HOME/.cache}/authctl-e2e/venv-dot341"
    python_venv "$venv" "oauth2_provider, jsonschema" "Django==5.2.19" "django-oauth-toolkit==3.4.1" "jsonschema==4.26.0"
    dot_python="$venv/bin/python"
    export E2E_STATE_DIR="$work/provider"
    mkdir -p "$E2E_STATE_DIR"
    "$dot_python" -c 'import secrets; print(secrets.token_urlsafe(48), end="")' >"$E2E_STATE_DIR/django-secret"
    "$dot_python" -c '
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
print(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode(), end="")
' >"$E2E_STATE_DIR/oidc-key.pem"
    export E2E_USERNAME=ada
    E2E_PASSWORD="$("$dot_python" -c 'import secrets; print(secrets.token_urlsafe(18))')"
    export E2E_PASSWORD
}

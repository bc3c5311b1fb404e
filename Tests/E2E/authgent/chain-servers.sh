# Sourced by the identity-chaining E2E scripts (run-chaining-e2e.sh, run-idjag-e2e.sh,
# run-jwt-bearer-e2e.sh), after lib.sh: the authgent-server 0.3.4 environment, three ports on
# 127.0.0.1 (AS-A, AS-B, the resource: issuer_a, issuer_b, resource), and what starts and stops
# their servers. Every process started is in `others`, stopped when the script exits.
venv="${XDG_CACHE_HOME:-$HOME/.cache}/authctl-e2e/venv-authgent-034"
python_venv "$venv" "authgent_server, requests, cryptography" "authgent-server==0.3.4" "requests==2.34.2"
py="$venv/bin/python"

port_a="$(free_port)"
port_b="$(free_port)"
port_r="$(free_port)"
issuer_a="http://127.0.0.1:$port_a"
issuer_b="http://127.0.0.1:$port_b"
resource="http://127.0.0.1:$port_r/api"
others=()
stop_others() {
    local status=$?
    for pid in "${others[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    (exit "$status")
    cleanup
}
trap stop_others EXIT

# start_authgent NAME ISSUER PORT [REQUIRE_DPOP]: one authgent-server, its own directory,
# database and secret; the rest (AUTHGENT_TRUSTED_CHAINING_*, token lifetimes) from the
# environment (the caller waits for its /health).
start_authgent() {
    local name="$1" issuer="$2" port="$3" require_dpop="${4:-false}"
    mkdir -m 700 "$work/$name"
    (
        cd "$work/$name"
        AUTHGENT_SECRET_KEY="$("$py" -c 'import secrets; print(secrets.token_hex(32))')" \
        AUTHGENT_DATABASE_URL="sqlite+aiosqlite:///$work/$name/authgent.db" \
        AUTHGENT_SERVER_URL="$issuer" AUTHGENT_CONSENT_MODE=auto_approve AUTHGENT_REQUIRE_DPOP="$require_dpop" \
            exec "$venv/bin/authgent-server" run --host 127.0.0.1 --port "$port"
    ) >"$work/$name.log" 2>&1 &
    others+=("$!")
}

# start_chain_resource: chain_resource.py at $resource, taking AS-B's tokens only; waits for it.
start_chain_resource() {
    CR_PORT="$port_r" CR_ISSUER="$issuer_b" CR_LOG="$work/resource.log" "$py" "$here/chain_resource.py" >"$work/resource.out" 2>&1 &
    others+=("$!")
    wait_for "http://127.0.0.1:$port_r/.well-known/oauth-protected-resource/api" || { cat "$work/resource.out" >&2; exit 1; }
}

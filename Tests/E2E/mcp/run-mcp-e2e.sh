#!/usr/bin/env bash
# End to end for MCP servers (docs/resources.md, "MCP and agents"): a fresh HOME with nothing
# configured signs in to an MCP server by its URL, against a server built with the official
# MCP Python SDK (mcp_server.py: streamable HTTP, the SDK's resource-server auth and its own
# authorization server — RFC 8414 metadata without jwks_uri, RFC 7591 registration that
# compares redirect URIs exactly, PKCE S256, one-time refresh tokens), on 127.0.0.1.
#
#   run-mcp-e2e.sh AUTHCTL     prints "N passed, M failed"
set -euo pipefail

authctl="$(realpath "${1:?usage: run-mcp-e2e.sh PATH-TO-AUTHCTL}")"
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"

venv="${XDG_CACHE_HOME:-$HOME/.cache}/authctl-e2e/venv-mcp230"
python_venv "$venv" "mcp, uvicorn" "mcp==2.3.0"
py="$venv/bin/python"

port="$(free_port)"
origin="http://127.0.0.1:$port"
mcp="$origin/mcp"
MCP_PORT="$port" MCP_TOKEN_SECONDS=300 start_provider "$work/mcp.log" "$py" "$here/mcp_server.py"
wait_for "$origin/.well-known/oauth-authorization-server"

private_home
config="$XDG_CONFIG_HOME/authctl/config.json"
browser="python3 $here/../scripted_browser.py"
json() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }
# JSON-RPC over streamable HTTP, as an MCP client sends it (a POST of JSON, both answers accepted).
rpc() { "$authctl" request -X POST "$mcp" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' --data "$1"; }
initialize='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"authctl-e2e","version":"1"}}}'
whoami='{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami","arguments":{}}}'

check "the SDK's authorization server publishes no jwks_uri (it issues no ID token)" \
    sh -c "curl -s '$origin/.well-known/oauth-authorization-server' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert \"jwks_uri\" not in d and d[\"code_challenge_methods_supported\"] == [\"S256\"], d'"
check "the MCP endpoint challenges a POST without a token with its resource metadata (401)" \
    sh -c "curl -s -o /dev/null -D - -X POST '$mcp' | grep -qi '^www-authenticate:.*resource_metadata=\"$origin/.well-known/oauth-protected-resource/mcp\"'"

# 1. login URL: discovery, registration at the SDK's server (exact redirect URIs), the sign-in.
check "login <MCP server URL> signs in with nothing configured" \
    sh -c "'$authctl' login '$mcp' --browser-command '$browser' --timeout 60 --json >'$work/login.json' 2>'$work/login.err'"
check "the grant is for the MCP server, with the scopes it lists" \
    test "$(json '" ".join(d["scopes"]) + "|" + d["resource"]' <"$work/login.json")" = "mcp:read mcp:write|$mcp"
check "the registered client uses the exact redirect URI it registered" python3 -c "
import json
p = json.load(open('$config'))['providers']['oidc.127-0-0-1']
assert p['redirectUri'].startswith('http://127.0.0.1:') and p['redirectUri'].endswith('/callback'), p
assert 'Secret' not in json.dumps(p), p
"

check "status names the grant, and no provider of a last login it never had" \
    sh -c "'$authctl' status >'$work/status.out' && grep -q 'resource $mcp' '$work/status.out' && ! grep -q 'with ?' '$work/status.out'"

# 2. MCP requests with the grant's token: initialize, then a tool that says whom it serves.
check "request: initialize answers with the server's info" test "$(rpc "$initialize" | json 'd["result"]["serverInfo"]["name"]')" = authctl-e2e
check "request: tools/call runs as the person, with the scopes granted" \
    test "$(rpc "$whoami" | json 'd["result"]["structuredContent"]["result"]')" = "ada mcp:read mcp:write"

# 3. Refresh at the SDK's server (its refresh tokens are used once): a new token, which works.
first="$("$authctl" token --resource "$mcp")"
second="$("$authctl" token --resource "$mcp" --min-ttl 600)"
check "token --resource --min-ttl beyond the token's life refreshes it" test -n "$second" -a "$first" != "$second"
check "the refreshed token is the one request sends, and the server takes it" \
    test "$(rpc "$whoami" | json 'd["result"]["structuredContent"]["result"]')" = "ada mcp:read mcp:write"
check "a second refresh works (the one-time refresh token was replaced)" \
    sh -c "'$authctl' token --resource '$mcp' --min-ttl 600 >/dev/null"

# 4. A second sign-in reuses the registered client (no second registration).
check "a second login uses the client registered, on the same redirect URI" \
    sh -c "'$authctl' login '$mcp' --browser-command '$browser' --timeout 60 >/dev/null 2>'$work/login2.err' && ! grep -q 'Registered authctl' '$work/login2.err'"

# 4b. That port held by another program: a clear refusal (exit 2) naming it, nothing changed.
registered_port="$(python3 -c "import json, urllib.parse; print(urllib.parse.urlsplit(json.load(open('$config'))['providers']['oidc.127-0-0-1']['redirectUri']).port)")"
python3 -c "import socket, time; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', $registered_port)); s.listen(); time.sleep(20)" &
holder=$!
sleep 0.3
set +e
"$authctl" login "$mcp" --browser-command "$browser" --timeout 10 >/dev/null 2>"$work/busy.err"; status=$?
set -e
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
check "the registered port in use: exit 2 naming it" sh -c "test $status -eq 2 && grep -q 'port $registered_port' '$work/busy.err'"

# 5. Signed out: nothing is sent.
check "signout" sh -c "'$authctl' signout >/dev/null"
set +e
rpc "$whoami" >/dev/null 2>&1; status=$?
set -e
check "request after signout fails: nobody is signed in (exit 16)" test "$status" -eq 16

# 6. A server of MCP's 2025-03-26 revision: no resource metadata; its authorization server's
#    metadata at its origin.
legacy_port="$(free_port)"
legacy="http://127.0.0.1:$legacy_port/mcp"
MCP_PORT="$legacy_port" MCP_LEGACY=1 "$py" "$here/mcp_server.py" >"$work/legacy.log" 2>&1 &
legacy_pid=$!
trap 'status=$?; kill "$legacy_pid" 2>/dev/null || true; wait "$legacy_pid" 2>/dev/null || true; (exit "$status"); cleanup' EXIT
wait_for "http://127.0.0.1:$legacy_port/.well-known/oauth-authorization-server"
check "the 2025-03-26 server publishes no resource metadata" \
    test "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$legacy_port/.well-known/oauth-protected-resource/mcp")" = 404
check "login <2025-03-26 MCP server URL> signs in at its origin's authorization server" \
    sh -c "'$authctl' login '$legacy' --browser-command '$browser' --timeout 60 >/dev/null 2>'$work/legacy-login.err' || { cat '$work/legacy-login.err'; exit 1; }"
check "request: tools/call at the 2025-03-26 server" test "$("$authctl" request -X POST "$legacy" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' --data "$whoami" | json 'd["result"]["structuredContent"]["result"]')" = "ada mcp:read mcp:write"

summary

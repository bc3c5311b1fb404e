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
"
# The SDK's server lists only client_secret_post and client_secret_basic: authctl asks for the
# first, and keeps the secret it issued in the keystore (never in config.json, never shown).
keystore="$XDG_DATA_HOME/authctl/keystore.json"
check "registered with the server's first method; its secret in the keystore only" python3 -c "
import json
p = json.load(open('$config'))['providers']['oidc.127-0-0-1']
assert p['tokenEndpointAuthMethod'] == 'client_secret_post' and 'clientSecretExpiresAt' not in p, p
[r] = [r for r in json.load(open('$keystore'))['registrations'] if r['providerId'] == 'oidc.127-0-0-1']
secret = r['clientSecret']
assert len(secret) >= 32 and secret not in open('$config').read(), 'the secret is in config.json'
assert secret not in open('$work/login.json').read() + open('$work/login.err').read(), 'the secret was shown'
"

check "status names the grant, and no provider of a last login it never had" \
    sh -c "'$authctl' status >'$work/status.out' && grep -q 'resource $mcp' '$work/status.out' && ! grep -q 'with ?' '$work/status.out'"
"$authctl" providers show oidc.127-0-0-1 >"$work/show.out" 2>&1 || true
check "providers show says how the secret is sent, never the secret" python3 -c "
import json
shown = open('$work/show.out').read()
[r] = [r for r in json.load(open('$keystore'))['registrations'] if r['providerId'] == 'oidc.127-0-0-1']
assert 'client_secret_post (its secret is kept in the keystore)' in shown and r['clientSecret'] not in shown, shown
"

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
# An agent's header helper (Claude Code's headersHelper, Codex's, Gemini CLI's): one JSON object.
"$authctl" token --resource "$mcp" --format headers-json >"$work/headers.json"
check "token --resource --format headers-json: the headers an agent sends, which the server takes" python3 -c "
import json, urllib.request
headers = json.load(open('$work/headers.json'))
assert list(headers) == ['Authorization'] and headers['Authorization'].startswith('Bearer '), headers
body = json.dumps({'jsonrpc': '2.0', 'id': 3, 'method': 'tools/call', 'params': {'name': 'whoami', 'arguments': {}}}).encode()
request = urllib.request.Request('$mcp', data=body, headers={**headers, 'Content-Type': 'application/json', 'Accept': 'application/json, text/event-stream'})
assert 'ada mcp' in urllib.request.urlopen(request, timeout=20).read().decode()
"

# 4. A second sign-in reuses the registered client (no second registration).
check "a second login uses the client registered, on the same redirect URI" \
    sh -c "'$authctl' login '$mcp' --browser-command '$browser' --timeout 60 >/dev/null 2>'$work/login2.err' && ! grep -q 'Registered authctl' '$work/login2.err'"

# 4b. That port held by another program: the server takes that exact redirect URI only, so a
#     refusal (exit 2) naming the port and what helps (stop it, or remove the provider and sign
#     in again, which registers on another port); nothing changed.
registered_port="$(python3 -c "import json, urllib.parse; print(urllib.parse.urlsplit(json.load(open('$config'))['providers']['oidc.127-0-0-1']['redirectUri']).port)")"
check "the registered port is above the range of outgoing connections' ports" test "$registered_port" -ge 61000
cp "$config" "$work/config-before-busy.json"
python3 -c "import socket, time; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', $registered_port)); s.listen(); time.sleep(20)" &
holder=$!
sleep 0.3
set +e
"$authctl" login "$mcp" --browser-command "$browser" --timeout 10 >/dev/null 2>"$work/busy.err"; status=$?
set -e
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
check "the registered port in use: exit 2 naming it, and the command that registers on another port" \
    sh -c "test $status -eq 2 && grep -q 'port $registered_port of the redirect URI that authctl registered as oidc.127-0-0-1' '$work/busy.err' \
        && grep -q 'authctl providers remove oidc.127-0-0-1' '$work/busy.err'"
check "nothing was registered or changed" cmp -s "$config" "$work/config-before-busy.json"

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

# 7. A server whose registration's secrets expire (client_secret_expires_at): refresh refused
#    before anything is sent, with the command that registers again; that login works.
expiring_port="$(free_port)"
expiring="http://127.0.0.1:$expiring_port/mcp"
MCP_PORT="$expiring_port" MCP_SECRET_SECONDS=8 "$py" "$here/mcp_server.py" >"$work/expiring.log" 2>&1 &
expiring_pid=$!
trap 'status=$?; kill "$legacy_pid" "$expiring_pid" 2>/dev/null || true; wait "$legacy_pid" "$expiring_pid" 2>/dev/null || true; (exit "$status"); cleanup' EXIT
wait_for "http://127.0.0.1:$expiring_port/.well-known/oauth-authorization-server"
check "login <server whose client secrets expire>" \
    sh -c "'$authctl' login '$expiring' --browser-command '$browser' --timeout 60 >/dev/null 2>'$work/expiring-login.err' || { cat '$work/expiring-login.err'; exit 1; }"
check "the secret's expiry is recorded beside its method" python3 -c "
import json, time
[p] = [p for p in json.load(open('$config'))['providers'].values() if p['issuer'] == 'http://127.0.0.1:$expiring_port']
assert p['tokenEndpointAuthMethod'] == 'client_secret_post' and 0 < p['clientSecretExpiresAt'] - time.time() <= 9, p
"
sleep 9
set +e
"$authctl" token --resource "$expiring" --min-ttl 600 >/dev/null 2>"$work/expired.err"; status=$?
set -e
check "refresh after the secret expired: exit 4, nothing sent, naming the expiry and the login that registers again" \
    sh -c "test $status -eq 4 && grep -q 'has expired' '$work/expired.err' && grep -qF 'authctl login $expiring' '$work/expired.err'"
check "login again registers anew, under the same name, and the new grant works" \
    sh -c "'$authctl' login '$expiring' --browser-command '$browser' --timeout 60 >/dev/null 2>'$work/expiring-again.err' \
        && grep -q 'Registered authctl' '$work/expiring-again.err' \
        && '$authctl' request -X POST '$expiring' -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' --data '$whoami' | grep -q 'ada mcp'"

# 8. A server that restarts and forgets its registrations (MCP servers that keep them in
#    memory): the refresh gets invalid_client; authctl says so and the next sign-in registers
#    again under the same name — by itself in `request` when a browser can be opened.
restart_port="$(free_port)"
restarting="http://127.0.0.1:$restart_port/mcp"
start_restarting() {
    MCP_PORT="$restart_port" MCP_TOKEN_SECONDS=300 "$py" "$here/mcp_server.py" >>"$work/restarting.log" 2>&1 &
    restarting_pid=$!
    wait_for "http://127.0.0.1:$restart_port/.well-known/oauth-authorization-server"
}
start_restarting
trap 'status=$?; kill "$legacy_pid" "$expiring_pid" "$restarting_pid" 2>/dev/null || true; wait "$legacy_pid" "$expiring_pid" "$restarting_pid" 2>/dev/null || true; (exit "$status"); cleanup' EXIT
restart() { kill "$restarting_pid"; wait "$restarting_pid" 2>/dev/null || true; start_restarting; }
"$authctl" login "$restarting" --browser-command "$browser" --timeout 60 >/dev/null 2>"$work/restarting-login.err" \
    || { status=$?; cat "$work/restarting-login.err" >&2; echo "e2e: login $restarting exited $status" >&2; exit "$status"; }
restarted_provider="$(python3 -c "import json; print([k for k, p in json.load(open('$config'))['providers'].items() if p['issuer'] == 'http://127.0.0.1:$restart_port'][0])")"
restart
set +e
"$authctl" request -X POST "$restarting" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
    --data "$whoami" >/dev/null 2>"$work/forgotten.err"; status=$?
set -e
check "after the server forgot the client, request without a browser: exit 4 naming invalid_client and the login that registers again" \
    sh -c "test $status -eq 4 && grep -q 'no longer knows the client' '$work/forgotten.err' && grep -qF 'authctl login $restarting' '$work/forgotten.err'"
check "the provider is marked: its next sign-in registers again" python3 -c "
import json
assert json.load(open('$config'))['providers']['$restarted_provider'].get('clientRefusedAt', 0) > 0
"
check "login again registers anew under the same name, and the mark goes" \
    sh -c "'$authctl' login '$restarting' --browser-command '$browser' --timeout 60 >/dev/null 2>'$work/relogin.err' && grep -q 'Registered authctl at .* as the provider $restarted_provider' '$work/relogin.err' \
        && python3 -c \"import json; assert 'clientRefusedAt' not in json.load(open('$config'))['providers']['$restarted_provider']\""
restart
check "after another restart, request with a browser signs in again by itself (registering anew) and answers" \
    sh -c "'$authctl' request -X POST '$restarting' -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
        --data '$whoami' --browser-command '$browser' --timeout 60 2>'$work/renewed.err' | grep -q 'ada mcp' \
        && grep -q 'could not be renewed: signing in again' '$work/renewed.err' && grep -q 'Registered authctl' '$work/renewed.err'"

summary

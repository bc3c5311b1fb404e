#!/usr/bin/env bash
# End to end: the MCP conformance suite's client auth scenarios that fit a CLI client
# (modelcontextprotocol/conformance, src/scenarios/client/auth/*.ts), ported to a stdlib-only
# harness (conformance_server.py) that plays each scenario's authorization server and MCP
# resource on 127.0.0.1. Each check names "scenario/check-id" from the .ts file.
#
#   run-conformance-e2e.sh AUTHCTL     prints "N passed, M failed"
set -euo pipefail

authctl="$(realpath "${1:?usage: run-conformance-e2e.sh PATH-TO-AUTHCTL}")"
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"
private_home
browser="python3 $here/../scripted_browser.py"
pids=()
trap 'status=$?; for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; (exit "$status"); cleanup' EXIT

# start SCENARIO: the scenario's servers; sets rs (the MCP URL), as, events.
start() {
    events="$work/$1.events"; : >"$events"
    python3 "$here/conformance_server.py" "$1" "$events" "$work/$1.ports" >"$work/$1.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do [ -s "$work/$1.ports" ] && break; sleep 0.1; done
    read -r origin as <"$work/$1.ports"
    rs="$origin/mcp"
}
# seen ID [PYTHON-CONDITION on e]: an event ID was recorded (and one met the condition).
seen() { python3 - "$events" "$1" "${2:-True}" <<'PY'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1])]
sys.exit(0 if any(e["id"] == sys.argv[2] and eval(sys.argv[3], {"e": e}) for e in events) else 1)
PY
}
order() { python3 -c "
import json, sys
ids = [json.loads(l)['id'] for l in open('$events')]
sys.exit(0 if '$1' in ids and '$2' in ids and ids.index('$1') < ids.index('$2') else 1)"; }
login() { "$authctl" login "$rs" --browser-command "$browser" --timeout 30 >"$work/$1.out" 2>"$work/$1.err"; }
initialize='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"authctl-conformance","version":"1"}}}'
rpc() { "$authctl" request -X POST "$rs" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' --data "$initialize"; }

# --- auth/basic-dcr: discovery by the challenge's resource_metadata, RFC 7591 registration,
#     authorization code with PKCE S256 and the resource indicator, then the MCP request.
start basic-dcr
check "auth/basic-dcr login exits 0" login basic-dcr
check "auth/basic-dcr prm-pathbased-requested (the challenge's resource_metadata)" seen prm-pathbased-requested
check "auth/basic-dcr authorization-server-metadata" seen authorization-server-metadata
check "auth/basic-dcr client-registration (a loopback redirect URI)" seen client-registration "all(u.startswith('http://127.0.0.1') for u in e['redirect_uris'])"
check "auth/basic-dcr authorization-request with PKCE S256" seen authorization-request "e['code_challenge_method'] == 'S256' and e['has_code_challenge']"
check "auth/basic-dcr authorization-request names the resource (RFC 8707)" seen authorization-request "e['resource'] == '$rs'"
check "auth/basic-dcr token-request: the code with its verifier and the resource" seen token-request "e['pkce_verified'] and e['resource'] == '$rs'"
check "auth/basic-dcr valid-bearer-token: request initialize with the token" sh -c "$(declare -f rpc); authctl='$authctl' rs='$rs' initialize='$initialize' rpc | grep -q conformance-basic-dcr"
check "auth/basic-dcr the server saw the bearer token on initialize" seen valid-bearer-token "e['method'] == 'initialize'"

# --- auth/prm-pathbased: no resource_metadata in the challenge; the path-inserted well-known
#     URL (404 here) first, then the root one (RFC 9728 §3, MCP discovery order).
start prm-pathbased
check "auth/prm-pathbased login exits 0" login prm-pathbased
check "auth/prm-pathbased prm-pathbased-requested" seen prm-pathbased-requested
check "auth/prm-pathbased prm-root-requested after the path-inserted one (fallback)" order prm-pathbased-requested prm-root-requested
check "auth/prm-pathbased token-request" seen token-request "e['pkce_verified']"

# --- auth/pkce-no-s256-support: code_challenge_methods_supported is empty: the client MUST
#     refuse before any authorization request.
start pkce-no-support
set +e; login pkce-no-support; status=$?; set -e
check "auth/pkce-no-s256-support login refused (exit $status, not 0)" test "$status" -ne 0
check "auth/pkce-no-s256-support pkce-s256-required: metadata read, then no authorization request" sh -c "$(declare -f seen); events='$events'; seen authorization-server-metadata && ! seen authorization-request"
check "auth/pkce-no-s256-support the error names PKCE/S256" grep -qiE 'pkce|s256' "$work/pkce-no-support.err"

# --- auth/resource-mismatch: the metadata's resource is another origin: refuse (RFC 9728 §3.3).
start resource-mismatch
set +e; login resource-mismatch; status=$?; set -e
check "auth/resource-mismatch login refused (exit $status, not 0)" test "$status" -ne 0
check "auth/resource-mismatch resource-mismatch-rejected: metadata read, then no authorization request" sh -c "$(declare -f seen); events='$events'; seen prm-pathbased-requested && ! seen authorization-request"
check "auth/resource-mismatch no client registration either" sh -c "$(declare -f seen); events='$events'; ! seen client-registration"

# --- The scope selection strategy (scope-handling.ts): the challenge's scope, else the PRM's
#     scopes_supported, else no scope parameter.
start scope-from-www-authenticate
check "auth/scope-from-www-authenticate login exits 0" login scope-from-www-authenticate
check "auth/scope-from-www-authenticate scope-from-www-authenticate (mcp:basic asked)" seen authorization-request "'mcp:basic' in (e['scope'] or '').split()"
start scope-from-scopes-supported
check "auth/scope-from-scopes-supported login exits 0" login scope-from-scopes-supported
check "auth/scope-from-scopes-supported scope-from-scopes-supported (all three asked)" seen authorization-request "{'mcp:basic', 'mcp:read', 'mcp:write'} <= set((e['scope'] or '').split())"
start scope-omitted-when-undefined
check "auth/scope-omitted-when-undefined login exits 0" login scope-omitted-when-undefined
check "auth/scope-omitted-when-undefined scope-omitted-when-undefined (no scope parameter)" seen authorization-request "not (e['scope'] or '').strip()"

# --- offline-access.ts (SEP-2207): offline_access only when the authorization server lists it.
start offline-access-scope
check "auth/offline-access-scope login exits 0" login offline-access-scope
check "auth/offline-access-scope sep-2207-client-metadata-grant-types (refresh_token registered)" seen client-registration "'refresh_token' in (e['grant_types'] or [])"
# sep-2207-offline-access-requested is a MAY (the suite's INFO): reported, not counted.
if seen authorization-request "'offline_access' in (e['scope'] or '').split()"; then
    echo "info - auth/offline-access-scope sep-2207-offline-access-requested: offline_access asked"
else
    echo "info - auth/offline-access-scope sep-2207-offline-access-requested: not asked (a MAY)"
fi
start offline-access-not-supported
check "auth/offline-access-not-supported login exits 0" login offline-access-not-supported
check "auth/offline-access-not-supported sep-2207-offline-access-not-requested" seen authorization-request "'offline_access' not in (e['scope'] or '').split()"

# --- issuer-parameter.ts (RFC 9207, SEP-2468): the redirect's iss compared with the issuer.
for scenario in iss-supported iss-not-advertised; do
    start "$scenario"
    id=$([ "$scenario" = iss-supported ] && echo sep-2468-client-compare-iss-supported || echo sep-2468-client-proceed-no-iss)
    check "auth/$scenario login exits 0" login "$scenario"
    check "auth/$scenario $id (token request made)" seen token-request "e['code_known']"
done
for scenario in iss-supported-missing iss-wrong-issuer iss-unexpected; do
    start "$scenario"
    case "$scenario" in
        iss-supported-missing) id=sep-2468-client-reject-missing-iss ;;
        iss-wrong-issuer) id=sep-2468-client-compare-iss-supported ;;
        *) id=sep-2468-client-compare-iss-unadvertised ;;
    esac
    set +e; login "$scenario"; status=$?; set -e
    check "auth/$scenario login refused (exit $status, not 0)" test "$status" -ne 0
    check "auth/$scenario $id: authorization reached, no token request" \
        sh -c "$(declare -f seen); events='$events'; seen authorization-request && ! seen token-request"
done

# --- token-endpoint-auth.ts: the method the registration returned, with its secret.
for method in basic post none; do
    start "token-endpoint-auth-$method"
    expected=$(case $method in basic) echo client_secret_basic ;; post) echo client_secret_post ;; *) echo none ;; esac)
    check "auth/token-endpoint-auth-$method login exits 0" login "token-endpoint-auth-$method"
    check "auth/token-endpoint-auth-$method token-endpoint-auth-method ($expected, the registered credentials)" \
        seen token-request "e['auth_method'] == '$expected' and e['credentials_ok']"
done

# --- token-refresh.ts (OAuth 2.1 §6, §4.3.1): the refresh_token grant, the refreshed token
#     used, the rotated refresh token stored (the old one reused is refused by the server).
#     The token's end is not waited for: --min-ttl beyond its life makes authctl refresh now.
start token-refresh-rotation
check "auth/token-refresh-rotation login exits 0" login token-refresh-rotation
check "auth/token-refresh-rotation first refresh (token --resource --min-ttl)" sh -c "'$authctl' token --resource '$rs' --min-ttl 7200 >/dev/null 2>'$work/refresh1.err'"
check "auth/token-refresh-rotation second refresh, with the rotated refresh token" sh -c "'$authctl' token --resource '$rs' --min-ttl 7200 >/dev/null 2>'$work/refresh2.err'"
check "auth/token-refresh-rotation refresh-token-grant-used, with the resource" seen refresh-token-grant-used "e['resource'] == '$rs'"
check "auth/token-refresh-rotation refresh-rotation-result (two refreshes, no old refresh token reused)" python3 -c "
import json, sys
ids = [json.loads(l)['id'] for l in open('$events')]
sys.exit(0 if ids.count('refresh-token-grant-used') == 2 and 'refresh-token-invalid' not in ids else 1)"
check "auth/token-refresh-rotation refreshed-token-used-successfully (request sends it)" sh -c "$(declare -f rpc); authctl='$authctl' rs='$rs' initialize='$initialize' rpc | grep -q conformance-token-refresh"
check "auth/token-refresh-rotation the server saw the refreshed token" seen valid-bearer-token "e['refreshed']"

# --- scope-handling.ts, auth/scope-step-up: tools/call answers 403 insufficient_scope naming
#     mcp:write; request (with a browser command) signs in again for the union of the granted
#     and the required scopes (SEP-2350) and sends tools/call again.
start scope-step-up
call='{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{}}}'
check "auth/scope-step-up login exits 0" login scope-step-up
check "auth/scope-step-up the first sign-in asks the challenge's mcp:basic alone" seen authorization-request "(e['scope'] or '').split() == ['mcp:basic']"
check "auth/scope-step-up request tools/call after the 403 exits 0" \
    sh -c "'$authctl' request -X POST '$rs' -H 'Content-Type: application/json' --data '$call' --browser-command '$browser' --timeout 30 >'$work/stepup.out' 2>'$work/stepup.err'"
check "auth/scope-step-up the server got a 403 insufficient_scope first" seen insufficient-scope
check "auth/scope-step-up escalation asks the union mcp:basic + mcp:write (SEP-2350)" \
    python3 -c "
import json, sys
events = [json.loads(l) for l in open('$events')]
first = next(i for i, e in enumerate(events) if e['id'] == 'insufficient-scope')
asked = [e for e in events[first:] if e['id'] == 'authorization-request']
sys.exit(0 if asked and set((asked[0]['scope'] or '').split()) >= {'mcp:basic', 'mcp:write'} else 1)"
check "auth/scope-step-up tools/call sent again with the stepped-up token" seen valid-bearer-token "e['method'] == 'tools/call'"

# --- authorization-server-migration.ts (SEP-2352): after one authorized tools/list the
#     resource's metadata names a second authorization server and the resource refuses the
#     first's tokens. On the next 401 the client re-discovers, registers at the second server
#     and does not present the first's client there. authctl moves only with the person's
#     consent (docs/resources.md): refused without a terminal (exit 18, nothing sent to the
#     second server), then a yes on a pty (`script`).
#     A variant of the port's own (authorization-server-migration-refresh): the servers issue
#     refresh tokens and the first still honours them, so only the resource's metadata shows the
#     move (a refresh at the first server would only get a token the resource refuses again).
for scenario in authorization-server-migration authorization-server-migration-refresh; do
    start "$scenario"
    migration_events="$events"
    list='{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
    check "auth/$scenario login exits 0 (registered at the first server)" login "$scenario"
    check "auth/$scenario tools/list with the first server's token" \
        sh -c "'$authctl' request -X POST '$rs' -H 'Content-Type: application/json' --data '$list' | grep -q '\"tokenOf\": \"as1\"'"
    set +e
    "$authctl" request -X POST "$rs" -H 'Content-Type: application/json' --data "$list" --browser-command "$browser" --timeout 30 \
        </dev/null >"$work/$scenario-refused.out" 2>"$work/$scenario-refused.err"; status=$?
    set -e
    check "auth/$scenario without a terminal the move is refused (exit $status, wanted 18)" test "$status" -eq 18
    check "auth/$scenario nothing was sent to the second server without consent" \
        sh -c "$(declare -f seen); events='$migration_events'; ! seen client-registration \"e['side'] == 'as2'\" && ! seen authorization-request \"e['side'] == 'as2'\""
    check "auth/$scenario a yes on a terminal: tools/list answered with the second server's token" \
        sh -c "printf 'y\n' | AUTHCTL_BROWSER='$browser' script -qec \"'$authctl' request -X POST '$rs' -H 'Content-Type: application/json' --data '$list' --timeout 30\" /dev/null >'$work/$scenario.out' 2>&1 && grep -q '\"tokenOf\": \"as2\"' '$work/$scenario.out'"
    check "auth/$scenario sep-2352-reregister-on-as-change (a registration at the second server)" \
        seen client-registration "e['side'] == 'as2'"
    for id in sep-2352-no-reuse-on-as-change sep-2352-no-cross-as-credential-reuse; do
        check "auth/$scenario $id (the first server's client id never at the second)" \
            sh -c "$(declare -f seen); events='$migration_events'; ! seen authorization-request \"e['side'] == 'as2' and e['client_id'].startswith('as1-')\" && ! seen token-request \"e['side'] == 'as2' and (e['client_id'] or '').startswith('as1-')\" && seen token-request \"e['side'] == 'as2' and e['client_id'] == 'as2-client-id' and e['credentials_ok']\""
    done
    check "auth/$scenario after the move, only the second server's tokens reached the resource" python3 -c "
import json, sys
events = [json.loads(l) for l in open('$migration_events')]
moved = max(i for i, e in enumerate(events) if e['id'] == 'token-request' and e['side'] == 'as2')
sys.exit(0 if all(e.get('token_of') == 'as2' for e in events[moved:] if e['side'] == 'rs' and e.get('token_of')) else 1)"
    if [ "$scenario" = authorization-server-migration-refresh ]; then
        check "auth/$scenario no refresh at the first server once the resource named the second" \
            sh -c "$(declare -f seen); events='$migration_events'; ! seen refresh-token-grant-used \"e['side'] == 'as1'\""
    fi
done

# --- client-credentials.ts and wif-jwt-bearer.ts (SEP-1046, SEP-1933): a pre-registered
#     client signs in to the resource URL without a browser.
export CONFORMANCE_SECRET="cc-$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
start client-credentials
check "auth/client-credentials login --client-credentials exits 0" \
    sh -c "'$authctl' login '$rs' --client-credentials --client-id ci-job --client-secret-env CONFORMANCE_SECRET >'$work/cc.out' 2>'$work/cc.err'"
check "auth/client-credentials client-credentials grant, client_secret_basic, the resource" \
    seen token-request "e['grant_type'] == 'client_credentials' and e['auth_method'] == 'client_secret_basic' and e['credentials_ok'] and e['resource'] == '$rs'"
check "auth/client-credentials no registration, no authorization request" sh -c "$(declare -f seen); events='$events'; ! seen client-registration && ! seen authorization-request"
check "auth/client-credentials request sends the workload's token" sh -c "$(declare -f rpc); authctl='$authctl' rs='$rs' initialize='$initialize' rpc | grep -q conformance-client-credentials"
check "auth/client-credentials the secret is in no output" sh -c "! grep -qF '$CONFORMANCE_SECRET' '$work/cc.out' '$work/cc.err'"

export CONFORMANCE_ASSERTION="eyJhbGciOiJub25lIn0.$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')."
printf '%s' "$CONFORMANCE_ASSERTION" >"$work/workload-token"
start wif-jwt-bearer
check "auth/wif-jwt-bearer login --jwt-bearer --federated-token-file exits 0" \
    sh -c "'$authctl' login '$rs' --jwt-bearer --client-id agent --federated-token-file '$work/workload-token' >'$work/wif.out' 2>'$work/wif.err'"
check "auth/wif-jwt-bearer jwt-bearer grant with the workload's token as assertion, the resource" \
    seen token-request "e['grant_type'] == 'urn:ietf:params:oauth:grant-type:jwt-bearer' and e['assertion_ok'] and e['resource'] == '$rs'"
check "auth/wif-jwt-bearer request sends the token" sh -c "$(declare -f rpc); authctl='$authctl' rs='$rs' initialize='$initialize' rpc | grep -q conformance-wif-jwt-bearer"

# The scenarios of suite_server.py (march-spec-backcompat, discovery-metadata, basic-cimd, dpop).
source "$here/suite-scenarios.sh"

summary

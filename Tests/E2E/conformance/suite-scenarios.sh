# Sourced by run-conformance-e2e.sh (its login, rpc, check, $work, $pids, $browser): the
# scenarios played by suite_server.py, the closer port of the suite's createAuthServer.ts and
# createServer.ts (metadata locations, one origin, DPoP). Each check names "scenario/check-id".
# A scenario's checks on its events are judged in one Python run (judge), to keep the time short.

# start_suite SCENARIO: as start, with suite_server.py.
start_suite() {
    events="$work/$1.events"; : >"$events"
    python3 "$here/suite_server.py" "$1" "$events" "$work/$1.ports" >"$work/$1.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do [ -s "$work/$1.ports" ] && break; sleep 0.1; done
    read -r origin as <"$work/$1.ports"
    rs="$origin/mcp"
}
# judge NAME CONDITION...: one check per pair, CONDITION Python over the scenario's events:
# `events` (the list), seen(ID[, condition on e]), ids (the ids in order).
judge() {
    local results verdict name
    results="$(python3 - "$events" "$@" <<'PY'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1])]
ids = [e["id"] for e in events]
def seen(id, condition=lambda e: True):
    return any(e["id"] == id and condition(e) for e in events)
pairs = sys.argv[2:]
for name, condition in zip(pairs[::2], pairs[1::2]):
    try:
        ok = bool(eval(condition))
    except Exception:
        ok = False
    print(("1" if ok else "0") + "\t" + name)
PY
)"
    while IFS=$'\t' read -r verdict name; do check "$name" test "$verdict" = 1; done <<<"$results"
}
# flow SCENARIO SLUG...: the suite's expectedSlugs, each seen; createAuthServer.ts's checks of
# the registration (SEP-837's application_type) and of PKCE; then any more NAME CONDITION pairs
# given after "--".
flow() {
    local scenario="$1" pairs=() slug; shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pairs+=("auth/$scenario $1" "seen('$1')"); shift; done
    [ $# -gt 0 ] && shift
    case " ${pairs[*]} " in *"seen('client-registration')"*)
        pairs+=("auth/$scenario sep-837-application-type-present (native or web)"
            "seen('client-registration', lambda e: e['application_type'] in ('native', 'web'))") ;;
    esac
    judge "${pairs[@]}" \
        "auth/$scenario pkce-code-challenge-sent, pkce-s256-method-used" \
        "seen('authorization-request', lambda e: e['has_code_challenge'] and e['code_challenge_method'] == 'S256')" \
        "auth/$scenario pkce-verifier-matches-challenge (the code exchanged with its verifier)" \
        "seen('token-request', lambda e: e['grant_type'] == 'authorization_code' and e['pkce_verified'])" "$@"
}
# mcp_request SCENARIO: authctl request of initialize reaches the scenario's server with the token.
mcp_request() {
    check "auth/$1 request initialize with the token" sh -c "$(declare -f rpc); authctl='$authctl' rs='$rs' initialize='$initialize' rpc | grep -q conformance-$1"
}

# --- march-spec-backcompat.ts (MCP 2025-03-26; issue 39 item 8): one origin serves the MCP
#     endpoint and its authorization server. No resource metadata: the server's RFC 8414
#     metadata at the origin (its endpoints under /oauth); else the default endpoints.
start_suite 2025-03-26-oauth-metadata-backcompat
check "auth/2025-03-26-oauth-metadata-backcompat login exits 0" login 2025-03-26-oauth-metadata-backcompat
flow 2025-03-26-oauth-metadata-backcompat authorization-server-metadata client-registration authorization-request token-request -- \
    "auth/2025-03-26-oauth-metadata-backcompat the advertised endpoints used, not the default ones" \
    "seen('token-request') and not seen('not-found', lambda e: e['path'] in ('/authorize', '/token', '/register'))"
mcp_request 2025-03-26-oauth-metadata-backcompat

start_suite 2025-03-26-oauth-endpoint-fallback
check "auth/2025-03-26-oauth-endpoint-fallback login exits 0" login 2025-03-26-oauth-endpoint-fallback
flow 2025-03-26-oauth-endpoint-fallback client-registration authorization-request token-request -- \
    "auth/2025-03-26-oauth-endpoint-fallback authorization-request names the resource (RFC 8707)" \
    "seen('authorization-request', lambda e: e['resource'] == '$rs')"
mcp_request 2025-03-26-oauth-endpoint-fallback
# Not the suite's: the saved provider keeps the defaults, and a refresh uses them with no metadata.
check "auth/2025-03-26-oauth-endpoint-fallback (authctl) refresh at the default token endpoint" \
    sh -c "grep -q '\"defaultEndpoints\" *: *true' '$XDG_CONFIG_HOME/authctl/config.json' && '$authctl' token --resource '$rs' --min-ttl 7200 >/dev/null"
judge "auth/2025-03-26-oauth-endpoint-fallback (authctl) the refresh_token grant at /token, with the resource" \
    "seen('token-request', lambda e: e['grant_type'] == 'refresh_token' and e['refresh_ok'] and e['resource'] == '$rs')"

# --- discovery-metadata.ts: where the resource's and the server's metadata are.
#     default: PRM path-based, named by the challenge; RFC 8414 at the root (root PRM a trap).
#     var1: PRM path-based, not named; only OpenID discovery's document.
#     var2: PRM at the root (its resource the origin), not named; the issuer has the path
#           /tenant1, RFC 8414's path-inserted location (the root one a trap).
#     var3: PRM at a custom location only the challenge (to MCP's POST) names; OpenID
#           discovery's path-appended location under /tenant1 (the root RFC 8414 one a trap).
for scenario in metadata-default metadata-var1 metadata-var2 metadata-var3; do
    start_suite "$scenario"
    check "auth/$scenario login exits 0" login "$scenario"
    case "$scenario" in
        metadata-var2) more=("auth/$scenario the root PRM read, its resource (the origin) as the resource indicator"
            "seen('prm-pathbased-requested', lambda e: e['path'] == '/.well-known/oauth-protected-resource') and seen('authorization-request', lambda e: e['resource'] in ('$origin', '$origin/'))") ;;
        metadata-var3) more=("auth/$scenario the custom PRM location read (named by the challenge)"
            "seen('prm-pathbased-requested', lambda e: e['path'] == '/custom/metadata/location.json')") ;;
        *) more=("auth/$scenario prm-pathbased-requested" "seen('prm-pathbased-requested')") ;;
    esac
    flow "$scenario" authorization-server-metadata client-registration authorization-request token-request -- "${more[@]}" \
        "auth/$scenario prm-priority-order, authorization-server-metadata-wrong-path (no trap taken)" \
        "seen('authorization-server-metadata') and not {'prm-priority-order', 'authorization-server-metadata-wrong-path'} & set(ids)"
done

# --- basic-cimd.ts (SEP-991): the server takes a client ID metadata document's URL as client_id;
#     the client uses it instead of registering. The suite's server does not fetch the document
#     (the URL need not resolve), nor does this one, nor authctl: no https server is needed.
cimd_url=https://conformance-test.local/client-metadata.json
start_suite basic-cimd
check "auth/basic-cimd login --client-metadata-url exits 0" \
    sh -c "'$authctl' login '$rs' --client-metadata-url '$cimd_url' --browser-command '$browser' --timeout 30 >'$work/cimd.out' 2>'$work/cimd.err'"
judge "auth/basic-cimd cimd-client-id-used (the URL as client_id)" "seen('authorization-request', lambda e: e['client_id'] == '$cimd_url')" \
    "auth/basic-cimd no dynamic registration" "seen('authorization-server-metadata') and not seen('client-registration')" \
    "auth/basic-cimd token-request with the URL as client_id" "seen('token-request', lambda e: e['client_id'] == '$cimd_url' and e['pkce_verified'])"
mcp_request basic-cimd

# --- dpop.ts (SEP-1932, RFC 9449): the server offers ES256 DPoP; the token request carries a
#     valid proof, the token comes back bound (token_type DPoP), and each MCP request presents
#     it with the DPoP scheme and a fresh proof (htm, htu, ath, iat, unique jti, the key the
#     token is bound to). dpop-nonce: both servers demand their nonce (RFC 9449 §8, §9).
list='{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}'
for scenario in dpop dpop-nonce; do
    start_suite "$scenario"
    check "auth/$scenario login exits 0" login "$scenario"
    check "auth/$scenario request initialize, then tools/list" sh -c "
        '$authctl' request -X POST '$rs' -H 'Content-Type: application/json' --data '$initialize' | grep -q conformance-$scenario &&
        '$authctl' request -X POST '$rs' -H 'Content-Type: application/json' --data '$list' | grep -q conformance-$scenario"
    code="[e for e in events if e['id'] == 'token-request' and e['grant_type'] == 'authorization_code']"
    sent="[e for e in events if e['id'] == 'dpop-resource-request']"
    nonce=()
    [ "$scenario" = dpop-nonce ] && nonce=(
        "auth/dpop-nonce sep-1932-client-as-nonce (challenged, then the retry with the nonce)"
        "seen('token-request', lambda e: e.get('dpop_nonce_challenged')) and seen('token-request', lambda e: e.get('dpop_nonce_honored'))"
        "auth/dpop-nonce sep-1932-client-rs-nonce (challenged, then the retry with the nonce)"
        "seen('dpop-resource-request', lambda e: e.get('rs_nonce_challenged')) and seen('dpop-resource-request', lambda e: e.get('rs_nonce_honored'))")
    judge "auth/$scenario sep-1932-client-token-request-proof (every code exchange with a valid proof)" \
        "$code and all(e['dpop_ok'] for e in $code)" \
        "auth/$scenario sep-1932-client-dpop-auth-scheme (the token presented as DPoP, never Bearer)" \
        "$sent and all(e['scheme'].lower() == 'dpop' for e in $sent)" \
        "auth/$scenario sep-1932-client-fresh-proof (each proof valid, no jti twice, two requests answered)" \
        "len([e for e in $sent if not e.get('rs_nonce_challenged')]) >= 2 and all(e['proof_ok'] and not e['replay'] for e in $sent)" \
        "${nonce[@]}"
done

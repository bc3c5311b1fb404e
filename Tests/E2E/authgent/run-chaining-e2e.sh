#!/usr/bin/env bash
# authctl end to end: identity chaining to a resource (issue 40, docs/resources.md,
# "Enterprise-managed authorization"), `login URL --via PROVIDER --requested-token-type jwt`,
# against two authgent-server 0.3.4 instances (PyPI) on 127.0.0.1:
#   AS-A (the company's provider), AUTHGENT_TRUSTED_CHAINING_TARGETS = [AS-B]: a workload signs
#        in there (client credentials; authgent issues no ID token, so the subject token is the
#        workload's access token) with a client allowed the token-exchange grant;
#   AS-B (the resource's server), AUTHGENT_TRUSTED_CHAINING_ISSUERS = [AS-A], 4 s access tokens,
#        AUTHGENT_REQUIRE_DPOP=true (every token request proves a key, with AS-B's nonce);
#   chain_resource.py, a resource that takes only AS-B's JWTs for it (checked with AS-B's JWKS),
#        a DPoP-bound one only with a proof of its cnf.jkt key carrying the resource's nonce.
# First a bearer identity at AS-A (oidc.corp, --dpop never); then, in a second keystore, a
# DPoP-bound one (oidc.corpd, --dpop always): DPoP through the chain (the exchange proves the
# identity's key, the grant at AS-B is bound to its own).
# The binary is the argument; prints "N passed, M failed".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
authctl="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"

source "$here/../lib.sh"
source "$here/chain-servers.sh"

AUTHGENT_TRUSTED_CHAINING_TARGETS="[\"$issuer_b\"]" start_authgent as-a "$issuer_a" "$port_a"
AUTHGENT_TRUSTED_CHAINING_ISSUERS="[\"$issuer_a\"]" AUTHGENT_ACCESS_TOKEN_TTL=4 start_authgent as-b "$issuer_b" "$port_b" true
wait_for "$issuer_a/health" || { cat "$work/as-a.log" >&2; exit 1; }
wait_for "$issuer_b/health" || { cat "$work/as-b.log" >&2; exit 1; }
start_chain_resource
echo "# identity chaining: AS-A $issuer_a, AS-B $issuer_b, resource $resource"

# The workload's client at AS-A, allowed the token exchange.
registered="$(curl --silent --fail -H 'Content-Type: application/json' -d '{"client_name": "authctl chain", "grant_types": ["client_credentials", "urn:ietf:params:oauth:grant-type:token-exchange"], "token_endpoint_auth_method": "client_secret_post"}' "$issuer_a/register")"
client_id="$("$py" -c 'import json, sys; print(json.loads(sys.argv[1])["client_id"])' "$registered")"
CORP_SECRET="$("$py" -c 'import json, sys; print(json.loads(sys.argv[1])["client_secret"])' "$registered")"
export CORP_SECRET

private_home
keystore="$XDG_DATA_HOME/authctl/keystore.json"
run() { "$authctl" "$@" >"$work/out" 2>"$work/err"; }
field() { "$py" -c "import json, sys; d = json.load(open('$keystore')); print(eval(sys.argv[1]))" "$1"; }
grant() { field "[g for u in d['users'] for g in u.get('resourceGrants', [])]"; }

check "providers add oidc.corp (AS-A, bearer tokens)" \
    run providers add oidc.corp --issuer "$issuer_a" --client-id "$client_id" --dpop never
check "the workload signs in at AS-A (client credentials)" \
    run login oidc.corp --client-credentials --client-id "$client_id" --client-secret-env CORP_SECRET
token_a="$("$authctl" token 2>/dev/null || true)"

chained() {
    run -v login "$resource" --via oidc.corp --requested-token-type jwt || { cat "$work/err" >&2; return 1; }
    grep -q "through your identity at oidc.corp" "$work/out"
}
check "login URL --via oidc.corp --requested-token-type jwt: no browser, exit 0" chained
check "the grant is kept with viaProviderId oidc.corp and the jwt type, for the resource, no refresh token" \
    "$py" -c "
import json, sys
d = json.load(open('$keystore'))
g = [g for u in d['users'] for g in u.get('resourceGrants', [])]
ok = len(g) == 1 and g[0]['resource'] == '$resource' and g[0]['issuer'] == '$issuer_b' and g[0].get('viaProviderId') == 'oidc.corp' \
    and g[0].get('viaTokenType') == 'urn:ietf:params:oauth:token-type:jwt' and 'refreshToken' not in g[0].get('tokens', {})
sys.exit(0 if ok else 1)"
only_token_endpoint() {
    # -v names each request: at AS-B, its metadata, its registration (authctl registers
    # there) and its token endpoint, nothing else; AS-A's requests stay at AS-A.
    local at_b
    at_b="$(grep -o "127.0.0.1:$port_b[^ ]*" "$work/err" | sort -u | tr '\n' ' ')"
    grep -q "127.0.0.1:$port_b/token" "$work/err" \
        && ! grep -o "127.0.0.1:$port_b[^ ]*" "$work/err" | grep -v -q -e '/token$' -e '/.well-known/' -e '/register$' -e "^127.0.0.1:$port_b\$" \
        || { echo "requests to AS-B: $at_b" >&2; return 1; }
}
check "-v: at AS-B only its metadata, registration and token endpoint were asked" only_token_endpoint
status_names_source() {
    "$authctl" status >"$work/status" 2>&1 && grep -q "renewed through oidc.corp" "$work/status" || { cat "$work/status" >&2; return 1; }
    "$authctl" status --json | "$py" -c "import json, sys; d = json.load(sys.stdin); sys.exit(0 if any(g.get('viaProviderId') == 'oidc.corp' for g in d['user']['resourceGrants']) else 1)"
}
check "status names the identity the grant is renewed through (text and --json)" status_names_source
check "no secret or AS-A token in the -v log" sh -c "! grep -q -e '$CORP_SECRET' -e '${token_a:-none}' '$work/err'"

requested() {
    run request "$resource/items" || { cat "$work/err" >&2; return 1; }
    "$py" -c "import json, sys; d = json.load(open('$work/out')); sys.exit(0 if d['iss'] == '$issuer_b' and d['chained_from'] == '$issuer_a' and d['dpop'] else 1)"
}
check "request: the resource takes AS-B's token, chained from AS-A, DPoP-bound (AS-B offers DPoP; with its nonce and the resource's)" requested
first="$(field "[g for u in d['users'] for g in u.get('resourceGrants', [])][0]['tokens']['accessToken']" 2>/dev/null || true)"
sleep 5
check "after the 4 s token expired: request renews the grant by repeating the chain (no person)" requested
renewed="$(field "[g for u in d['users'] for g in u.get('resourceGrants', [])][0]['tokens']['accessToken']" 2>/dev/null || true)"
check "the renewed token is a new one" test "$first" != "$renewed"
sleep 5
token_resource() {
    run token --resource "$resource" || { cat "$work/err" >&2; return 1; }
    "$py" -c "import jwt, sys; c = jwt.decode(open('$work/out').read().strip(), options={'verify_signature': False}); sys.exit(0 if c['iss'] == '$issuer_b' and c['aud'] == '$resource' else 1)"
}
check "token --resource renews it too and prints AS-B's token for the resource" token_resource
check "the resource saw only AS-B's tokens (none of AS-A)" \
    sh -c "grep -q '^iss $issuer_b\$' '$work/resource.log' && ! grep '^iss ' '$work/resource.log' | grep -v -q '^iss $issuer_b\$'"

before="$(sha256sum "$keystore" 2>/dev/null || true)"
wrong_type() {
    run login "$resource" --via oidc.corp --requested-token-type id-jag && return 1
    local status=$?
    [ "$status" -eq 4 ] && grep -q "not the urn:ietf:params:oauth:token-type:id-jag asked for" "$work/err" || { cat "$work/err" >&2; return 1; }
}
check "--requested-token-type id-jag: authgent answers another type; refused, exit 4" wrong_type
check "the keystore is as it was" test "$before" = "$(sha256sum "$keystore")"
check "the grant still works after the refusal" requested

# DPoP through the chain: a DPoP-bound identity at AS-A, in a keystore of its own.
export AUTHCTL_KEYSTORE="$work/home/data/authctl-dpop/keystore.json"
keystore="$AUTHCTL_KEYSTORE"
check "providers add oidc.corpd (AS-A, the same client, --dpop always)" \
    run providers add oidc.corpd --issuer "$issuer_a" --client-id "$client_id" --dpop always
identity_dpop() {
    run login oidc.corpd --client-credentials --client-id "$client_id" --client-secret-env CORP_SECRET || { cat "$work/err" >&2; return 1; }
    "$py" -c "import json, sys; d = json.load(open('$keystore')); t = d['users'][0]['providerData'][0]['tokens']; sys.exit(0 if t['tokenType'] == 'DPoP' and t.get('dpopKey') else 1)"
}
check "the workload signs in at AS-A with DPoP: its token is bound to its key" identity_dpop
chained_dpop() {
    run login "$resource" --via oidc.corpd --requested-token-type jwt || { cat "$work/err" >&2; return 1; }
}
check "login URL --via oidc.corpd: the DPoP-bound identity is exchanged (a proof of its key), exit 0" chained_dpop
check "the grant is DPoP-bound to a key of its own, not the identity's" "$py" -c "
import json, sys
d = json.load(open('$keystore'))
u = d['users'][0]
g = u['resourceGrants'][0]['tokens']
i = u['providerData'][0]['tokens']
sys.exit(0 if u['resourceGrants'][0].get('viaProviderId') == 'oidc.corpd' and g['tokenType'] == 'DPoP' and g.get('dpopKey') and g['dpopKey'] != i['dpopKey'] else 1)"
dpop_seen() { tail -n 3 "$work/resource.log" | grep -q '^ok dpop /api/items$' || { tail -n 5 "$work/resource.log" >&2; return 1; }; }
requested_dpop() { requested && dpop_seen; }
check "request: the resource takes the bound token with a proof of its cnf.jkt key" requested_dpop
first="$(field "d['users'][0]['resourceGrants'][0]['tokens']['accessToken']" 2>/dev/null || true)"
sleep 5
check "after expiry: request re-chains (the identity's proof at AS-A, the grant's at AS-B) and the resource takes it" \
    requested_dpop
check "the renewed token is a new one, bound to the same key" "$py" -c "
import json, sys
d = json.load(open('$keystore'))
g = d['users'][0]['resourceGrants'][0]['tokens']
sys.exit(0 if g['accessToken'] != '$first' and g['tokenType'] == 'DPoP' else 1)"
check "the resource never took a bound token as a bearer one, nor a bad proof" sh -c "! grep -q -e 'refused a bound' -e 'refused DPoP' '$work/resource.log'"
summary

#!/usr/bin/env bash
# authctl end to end: enterprise-managed authorization with an ID-JAG (issue 40,
# docs/resources.md, "Enterprise-managed authorization"), `login URL --via PROVIDER` with the
# default --requested-token-type id-jag (draft-ietf-oauth-identity-assertion-authz-grant):
#   AS-A idjag_idp.py, a company identity provider of the tests' own (no server here issues
#        ID-JAGs): a workload signs in there (client credentials), and its token is exchanged
#        for an ID-JAG naming the workload's client at AS-B (the draft's out-of-band mapping);
#   AS-B a real authgent-server 0.3.4, AUTHGENT_TRUSTED_CHAINING_ISSUERS = [AS-A], 4 s access
#        tokens, DPoP required (with nonces): it verifies the ID-JAG with AS-A's JWKS;
#   chain_resource.py, the resource, which takes AS-B's tokens only (DPoP-bound ones with a proof).
# The client at AS-B is registered beforehand with the JWT-bearer grant and named with --provider.
# Then AS-A is made to answer wrongly (aud, typ, issued_token_type): each is refused, exit 4,
# keystore unchanged. Usage: run-idjag-e2e.sh .build/debug/authctl; prints "N passed, M failed".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
authctl="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"

source "$here/../lib.sh"
source "$here/chain-servers.sh"

AUTHGENT_TRUSTED_CHAINING_ISSUERS="[\"$issuer_a\"]" AUTHGENT_ACCESS_TOKEN_TTL=4 start_authgent as-b "$issuer_b" "$port_b" true
wait_for "$issuer_b/health" || { cat "$work/as-b.log" >&2; exit 1; }

# The workload's client at AS-B, allowed the JWT-bearer grant (authgent returns a secret).
registered="$(curl --silent --fail -H 'Content-Type: application/json' -d '{"client_name": "authctl id-jag", "grant_types": ["urn:ietf:params:oauth:grant-type:jwt-bearer"], "token_endpoint_auth_method": "client_secret_post"}' "$issuer_b/register")"
client_b="$("$py" -c 'import json, sys; print(json.loads(sys.argv[1])["client_id"])' "$registered")"
ASB_SECRET="$("$py" -c 'import json, sys; print(json.loads(sys.argv[1])["client_secret"])' "$registered")"
IDP_SECRET="$("$py" -c 'import secrets; print(secrets.token_urlsafe(24))')"
export ASB_SECRET IDP_SECRET

IDP_PORT="$port_a" IDP_CLIENT_ID=corp-agent IDP_CLIENT_SECRET="$IDP_SECRET" IDP_CLIENT_AT_B="$client_b" IDP_LOG="$work/idp.log" \
    "$py" "$here/idjag_idp.py" >"$work/idp.out" 2>&1 &
others+=("$!")
wait_for "$issuer_a/.well-known/openid-configuration" || { cat "$work/idp.out" >&2; exit 1; }
start_chain_resource
echo "# ID-JAG: AS-A (the tests' own) $issuer_a, AS-B (authgent) $issuer_b, resource $resource"

private_home
keystore="$XDG_DATA_HOME/authctl/keystore.json"
run() { "$authctl" "$@" >"$work/out" 2>"$work/err"; }
mode() { curl --silent --fail "$issuer_a/_mode/$1" >/dev/null; }

check "providers add oidc.idp (AS-A) and oidc.asb (the client registered at AS-B)" sh -c "
    '$authctl' providers add oidc.idp --issuer '$issuer_a' --client-id corp-agent --dpop never >/dev/null &&
    '$authctl' providers add oidc.asb --issuer '$issuer_b' --client-id '$client_b' --client-secret-env ASB_SECRET >/dev/null"
check "the workload signs in at AS-A (client credentials)" \
    run login oidc.idp --client-credentials --client-id corp-agent --client-secret-env IDP_SECRET

chained() {
    run login "$resource" --via oidc.idp --provider oidc.asb || { cat "$work/err" >&2; return 1; }
    "$py" -c "
import json, sys
d = json.load(open('$keystore'))
g = [g for u in d['users'] for g in u.get('resourceGrants', [])]
sys.exit(0 if len(g) == 1 and g[0].get('viaTokenType') == 'urn:ietf:params:oauth:token-type:id-jag' and g[0]['issuer'] == '$issuer_b' else 1)"
}
check "login URL --via oidc.idp (the default: an ID-JAG) signs in with no browser; the grant is kept as an id-jag chain" chained
exchange_form() {
    # The draft's token exchange: requested_token_type id-jag, audience AS-B's issuer, resource;
    # the client authenticates as itself at AS-A, and AS-B's client id is not sent (AS-A knows it).
    "$py" -c "
import json, sys
f = json.loads(open('$work/idp.log').readline())
ok = f['grant_type'] == 'urn:ietf:params:oauth:grant-type:token-exchange' \
    and f['requested_token_type'] == 'urn:ietf:params:oauth:token-type:id-jag' and f['audience'] == '$issuer_b' \
    and f['resource'] == '$resource' and f['subject_token_type'] == 'urn:ietf:params:oauth:token-type:access_token' \
    and f.get('client_id', 'corp-agent') == 'corp-agent' and '$client_b' not in json.dumps(f) and 'actor_token' not in f
sys.exit(0 if ok else 1)" || { head -n 1 "$work/idp.log" >&2; return 1; }
}
check "the exchange at AS-A carried the draft's parameters (and not AS-B's client id)" exchange_form
requested() {
    run request "$resource/items" || { cat "$work/err" >&2; return 1; }
    "$py" -c "import json, sys; d = json.load(open('$work/out')); sys.exit(0 if d['iss'] == '$issuer_b' and d['chained_from'] == '$issuer_a' and d['dpop'] else 1)"
}
check "request: the resource takes AS-B's token (DPoP-bound), from the ID-JAG of AS-A" requested
sleep 5
check "after the 4 s token expired: request re-chains with a new ID-JAG (AS-B takes each once)" requested
two_exchanges() {
    local count
    count="$(grep -c '"requested_token_type": "urn:ietf:params:oauth:token-type:id-jag"' "$work/idp.log")"
    # The sign-in's, and one per renewal (a 4 s token is renewed whenever it is asked for).
    [ "$count" -ge 2 ] && [ "$count" -eq "$(wc -l <"$work/idp.log")" ] || { echo "$count exchanges" >&2; return 1; }
}
check "each renewal was a new exchange at AS-A, each for an ID-JAG" two_exchanges

refused() {
    local wanted="$1" before status=0
    before="$(sha256sum "$keystore")"
    run -v login "$resource" --via oidc.idp --provider oidc.asb || status=$?
    # Refused before AS-B's token endpoint was asked anything (-v names each request).
    [ "$status" -eq 4 ] && grep -q -- "$wanted" "$work/err" && [ "$before" = "$(sha256sum "$keystore")" ] \
        && ! grep -q "127.0.0.1:$port_b/token" "$work/err" \
        || { echo "exit $status" >&2; cat "$work/err" >&2; return 1; }
}
mode wrong-aud
check "an ID-JAG whose aud is not AS-B: refused, exit 4, keystore unchanged, AS-B not asked" refused "not $issuer_b, the resource's authorization server"
mode wrong-typ
check "an ID-JAG typed JWT, not oauth-id-jag+jwt: refused, exit 4, keystore unchanged, AS-B not asked" refused "has typ JWT, not oauth-id-jag+jwt"
mode wrong-issued-type
check "an answer of issued_token_type access_token: refused, exit 4, keystore unchanged, AS-B not asked" refused "not the urn:ietf:params:oauth:token-type:id-jag asked for"
mode good
check "the grant still works" requested
check "no secret in any output" sh -c "! grep -q -e '$IDP_SECRET' -e '$ASB_SECRET' '$work/err' '$work/out'"
summary

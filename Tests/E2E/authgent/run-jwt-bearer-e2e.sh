#!/usr/bin/env bash
# authctl end to end: workload identity federation by the RFC 7523 §2.1 JWT-bearer grant
# (issue 39 item 7, MCP SEP-1933; docs/ci.md "The workload's token as the grant"), against two
# authgent-server 0.3.4 instances (PyPI) on 127.0.0.1:
#   the platform (AS-A): issues the workload's token — a client-credentials JWT whose `aud` is
#        AS-B, as a Kubernetes projected service-account token names its audience — written
#        to a file by the test, as the kubelet writes one;
#   AS-B (the authorization server), AUTHGENT_TRUSTED_CHAINING_ISSUERS = [AS-A]: takes such a
#        token as a JWT-bearer grant once (its `jti` is consumed), 4 s access tokens;
#   chain_resource.py, a resource that takes only AS-B's JWTs for it.
# Checked: login PROVIDER --jwt-bearer with a public client, status, token, renewal after expiry
# reading the file again (the same token is refused as a replay: exit 4, keystore unchanged),
# a token of the wrong audience refused with authgent's error (exit 4, nothing stored), and
# login URL --jwt-bearer with a confidential client (secret), request and its renewal.
# The binary is the argument; prints "N passed, M failed".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
authctl="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"

source "$here/../lib.sh"
source "$here/chain-servers.sh"

start_authgent platform "$issuer_a" "$port_a"
AUTHGENT_TRUSTED_CHAINING_ISSUERS="[\"$issuer_a\"]" AUTHGENT_ACCESS_TOKEN_TTL=4 start_authgent as-b "$issuer_b" "$port_b"
wait_for "$issuer_a/health" || { cat "$work/platform.log" >&2; exit 1; }
wait_for "$issuer_b/health" || { cat "$work/as-b.log" >&2; exit 1; }
start_chain_resource
echo "# JWT-bearer grant: platform $issuer_a, AS-B $issuer_b, resource $resource"

json_field() { "$py" -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }
register() { curl --silent --fail -H 'Content-Type: application/json' -d "$2" "$1/register"; }

# The platform's client that mints workload tokens (the test plays the kubelet).
minter="$(register "$issuer_a" '{"client_name": "platform", "grant_types": ["client_credentials"], "token_endpoint_auth_method": "client_secret_post"}')"
minter_id="$(json_field "$minter" client_id)"
minter_secret="$(json_field "$minter" client_secret)"
# A workload token: iss the platform, aud AS-B (or $1), a fresh jti each time.
mint() {
    local body
    body="$(curl --silent --fail -d grant_type=client_credentials -d "client_id=$minter_id" -d "client_secret=$minter_secret" \
        --data-urlencode "resource=${1:-$issuer_b}" "$issuer_a/token")"
    json_field "$body" access_token
}
# At AS-B: a public client allowed only the JWT-bearer grant, and a confidential one.
public="$(register "$issuer_b" '{"client_name": "wif public", "grant_types": ["urn:ietf:params:oauth:grant-type:jwt-bearer"], "token_endpoint_auth_method": "none"}')"
public_id="$(json_field "$public" client_id)"
confidential="$(register "$issuer_b" '{"client_name": "wif confidential", "grant_types": ["urn:ietf:params:oauth:grant-type:jwt-bearer"], "token_endpoint_auth_method": "client_secret_post"}')"
confidential_id="$(json_field "$confidential" client_id)"
WIF_SECRET="$(json_field "$confidential" client_secret)"
export WIF_SECRET

private_home
keystore="$XDG_DATA_HOME/authctl/keystore.json"
token_file="$work/home/sa-token"
mkdir -p "$work/home"
write_token() { (umask 077; printf '%s' "$1" >"$token_file.new"); mv "$token_file.new" "$token_file"; }
run() { "$authctl" "$@" >"$work/out" 2>"$work/err"; }
claims() {
    "$py" -c "import jwt, sys; c = jwt.decode(open('$work/out').read().strip(), options={'verify_signature': False}); ok = $1; ok or print('claims:', c, file=sys.stderr); sys.exit(0 if ok else 1)"
}

check "providers add oidc.wif (AS-B, the public client)" run providers add oidc.wif --issuer "$issuer_b" --client-id "$public_id" --dpop never

first_token="$(mint)"
write_token "$first_token"
wrong_audience() {
    write_token "$(mint "$issuer_a")"
    run login oidc.wif --jwt-bearer --federated-token-file "$token_file" && return 1
    local status=$?
    [ "$status" -eq 4 ] && grep -q "invalid_grant" "$work/err" && grep -q "aud" "$work/err" || { cat "$work/err" >&2; return 1; }
    [ ! -e "$keystore" ] || { echo "a keystore was written" >&2; return 1; }
}
check "a workload token for another audience: AS-B refuses it (invalid_grant, its words), exit 4, nothing stored" wrong_audience

write_token "$first_token"
check "login oidc.wif --jwt-bearer --federated-token-file: a public client, no secret, exit 0" \
    run login oidc.wif --jwt-bearer --federated-token-file "$token_file" --json
check "--json names the grant jwt-bearer and where the token is read" \
    "$py" -c "
import json, sys
d = json.load(open('$work/out'))
p = d['user']['providerData'][0]
sys.exit(0 if p['grant'] == 'jwt-bearer' and '$token_file' in p['authentication'] and d['user'].get('kind') == 'workload' else 1)"
check "the keystore keeps the file's path and grant, never the workload's token" \
    sh -c "grep -q '\"jwt-bearer\"' '$keystore' && grep -q 'sa-token' '$keystore' && ! grep -q '$first_token' '$keystore'"
status_says() { "$authctl" status >"$work/status" 2>&1 && grep -q "JWT-bearer grant" "$work/status" || { cat "$work/status" >&2; return 1; }; }
check "status says the workload signs in by the JWT-bearer grant" status_says
# AS-B's tokens live 4 s, less than token's default --min-ttl (60 s), which would run the grant
# again at once with the token already taken.
first_access() { run token --min-ttl 0 && claims "c['iss'] == '$issuer_b' and c['chained_from'] == '$issuer_a' and c['client_id'] == '$public_id'"; }
check "token --min-ttl 0: AS-B's token from the keystore, chained from the platform's, for the public client" first_access
printed_first="$(cat "$work/out")"

sleep 5
before="$(sha256sum "$keystore")"
replayed() {
    run token && return 1
    local status=$?
    [ "$status" -eq 4 ] && grep -q "replay" "$work/err" || { cat "$work/err" >&2; return 1; }
}
check "after expiry, the same token in the file: AS-B refuses the replay, exit 4" replayed
check "the keystore is as it was" test "$before" = "$(sha256sum "$keystore")"
check "no workload token in the error" sh -c "! grep -q '$first_token' '$work/err'"
write_token "$(mint)"
renewed() { run token && claims "c['iss'] == '$issuer_b'" && [ "$(cat "$work/out")" != "$printed_first" ]; }
check "the file rotated: token runs the grant again with the new token, a new access token" renewed

write_token "$(mint)"
check "login URL --jwt-bearer with a confidential client (its secret) and the workload's token" \
    run login "$resource" --jwt-bearer --client-id "$confidential_id" --client-secret-env WIF_SECRET --federated-token-file "$token_file"
# Each request runs the grant again (4 s tokens, within request's 60 s margin): the platform
# rotates the file before each, as a server that takes a token once needs.
requested() {
    write_token "$(mint)"
    run request "$resource/items" || { cat "$work/err" "$work/resource.log" >&2; return 1; }
    "$py" -c "import json, sys; d = json.load(open('$work/out')); sys.exit(0 if d['iss'] == '$issuer_b' and d['chained_from'] == '$issuer_a' else 1)"
}
check "request: the resource takes AS-B's token for it" requested
sleep 5
check "after expiry, request renews the grant with the rotated token" requested
resource_token() { run token --resource "$resource" --min-ttl 0 && claims "c['aud'] == '$resource' and c['client_id'] == '$confidential_id'"; }
check "token --resource: AS-B's token for the resource, to the confidential client" resource_token
check "no secret or workload token in any output" sh -c "! grep -q -e '$WIF_SECRET' -e '$first_token' '$work/out' '$work/err' '$work/status'"
summary

#!/usr/bin/env bash
# End to end for protected resources (docs/resources.md): a fresh HOME with no provider
# configured signs in to a resource by its URL alone, against real servers on 127.0.0.1 —
# django-oauth-toolkit 3.4.1 (RFC 8414 metadata, RFC 7591 registration, RFC 8707 resource,
# RFC 9207 iss, introspection) and the test's own protected resource (resource_server.py:
# RFC 9728 metadata and challenges, tokens checked by introspection).
#
#   run-resource-e2e.sh AUTHCTL     prints "N passed, M failed"
set -euo pipefail

authctl="$(realpath "${1:?usage: run-resource-e2e.sh PATH-TO-AUTHCTL}")"
here="$(cd "$(dirname "$0")" && pwd)"

source "$here/lib.sh"

# django-oauth-toolkit and the resource, started now (dot-resource.sh).
source "$here/dot-resource.sh"
start_dot_and_resource

private_home
keystore="$XDG_DATA_HOME/authctl/keystore.json"
config="$XDG_CONFIG_HOME/authctl/config.json"
browser="python3 $here/scripted_browser.py"
mcp="http://127.0.0.1:$rs_port/mcp"
other="http://127.0.0.1:$rs_port/other"
json() { "$py" -c "import json, sys; d = json.load(sys.stdin); print($1)"; }

check "no provider is configured at the start" test ! -e "$config"

# 1. login URL: discovery (401 + resource_metadata), RFC 8414 metadata, RFC 7591 registration,
#    the sign-in with resource on both requests; no --scope: the resource's scopes_supported.
check "login <resource URL> signs in with nothing configured" sh -c "'$authctl' login '$mcp' --browser-command '$browser' --timeout 60 --json >'$work/login.json' 2>'$work/login.err'"
check "login registered a provider named after the server's host" test "$(json 'd["providerId"]' <"$work/login.json")" = oidc.127-0-0-1
check "login said so on stderr" grep -q "Registered authctl at" "$work/login.err"
check "the registered client is saved with its issuer and no secret" "$py" -c "
import json
p = json.load(open('$config'))['providers']['oidc.127-0-0-1']
assert p['issuer'] == '$E2E_ISSUER' and p['clientId'] and 'Secret' not in json.dumps(p), p
assert p['metadataUrl'] == 'http://127.0.0.1:$port/.well-known/oauth-authorization-server/o', p
"
registrations="$XDG_DATA_HOME/authctl/registrations.json"
check "the registration access token is kept in the keystore, not in config.json nor a file of its own" sh -c "
test ! -e '$registrations' && ! grep -q -i registration_\?access_\?token '$config' && '$py' -c \"
import json
r = json.load(open('$keystore'))['registrations']
assert [x['providerId'] for x in r] == ['oidc.127-0-0-1'] and r[0]['registrationAccessToken'], r\""
check "the grant is for the resource, with the resource's scopes" test "$(json '" ".join(d["scopes"]) + "|" + d["resource"]' <"$work/login.json")" = "read write|$mcp"
check "status shows the resource grant" sh -c "'$authctl' status | grep -q 'resource $mcp'"
check "users show lists it in --json" test "$("$authctl" users show --json | json 'd["user"]["resourceGrants"][0]["resource"]')" = "$mcp"
check "users show lists it" sh -c "'$authctl' users show | grep -q 'resource $mcp'"

# 2. request: the data, with the token of the grant.
check "request <URL> gets the data" sh -c "'$authctl' request '$mcp/items' >'$work/data.json' 2>'$work/request.err'"
check "the data is the resource's" test "$(json 'd["data"]' <"$work/data.json")" = "the data of mcp"
check "request --data - sends the body" test "$(echo '{"n": 1}' | "$authctl" request -X POST "$mcp/echo" -H 'Content-Type: application/json' --data - | json 'd["echo"]')" = '{"n": 1}'
check "request --include prints the status line" sh -c "'$authctl' request --include '$mcp' | head -1 | grep -q 'HTTP 200'"
set +e
"$authctl" request "$mcp/missing" >"$work/missing.out" 2>"$work/missing.err"; status=$?
set -e
check "an HTTP error status exits 22 (resource-error), the body on stdout" sh -c "test $status -eq 22 && grep -q 'no such item' '$work/missing.out'"
check "request --json carries the status" test "$("$authctl" request --json "$mcp/missing" 2>/dev/null | json 'd["status"]')" = 404

# 2b. request streams: an event stream's first event reaches stdout while the resource still
#     holds the second (stream_check.py: the resource sends it only when the script, having
#     read the first from authctl's stdout, opens the gate); an answer over 16 MiB whole;
#     a reader that goes away ends the transfer (exit 141, no crash); Ctrl-C ends a stream (130).
check "request streams an event stream as it comes (the first event before the resource sends the second)" \
    python3 "$here/stream_check.py" "$authctl" "$mcp/events?gate=one" "$work/gates/one" "$work/resource.log"
check "Ctrl-C ends a streamed answer with exit 130" \
    python3 "$here/stream_check.py" "$authctl" "$mcp/events?gate=never" "$work/gates/never" "$work/resource.log" --interrupt
big_expected="$(python3 -c '
import hashlib
size, block = (16 << 20) + 4099, bytes(range(256)) * 256
digest = hashlib.sha256()
for offset in range(0, size, len(block)):
    digest.update(block[: min(len(block), size - offset)])
print(size, digest.hexdigest())')"
check "an answer over 16 MiB streams whole" test "$("$authctl" request "$mcp/big" | python3 -c '
import hashlib, sys
data = sys.stdin.buffer.read()
print(len(data), hashlib.sha256(data).hexdigest())')" = "$big_expected"
set +e
"$authctl" request "$mcp/big" 2>"$work/pipe.err" | head -c 10 >"$work/pipe.out"; status="${PIPESTATUS[0]}"
set -e
check "a reader that goes away (| head -c 10) ends the transfer: exit 141, nothing on stderr" \
    sh -c "test $status -eq 141 && test \"\$(wc -c <'$work/pipe.out')\" -eq 10 && ! test -s '$work/pipe.err'"
check "--json keeps its envelope: the answer read whole, refused over 16 MiB (exit 3)" sh -c "'$authctl' request --json '$mcp/big' >/dev/null 2>&1; test \$? -eq 3"

# 3. token --resource, every format.
token="$("$authctl" token --resource "$mcp")"
check "token --resource prints the resource's token" test -n "$token"
check "token --resource --format header" test "$("$authctl" token --resource "$mcp" --format header)" = "Authorization: Bearer $token"
check "token --resource --format json names the provider" test "$("$authctl" token --resource "$mcp" --format json | json 'd["providerId"]')" = oidc.127-0-0-1
check "token --resource --output-file writes it alone, mode 0600" sh -c "'$authctl' token --resource '$mcp' --output-file '$work/resource-token' && test \"\$(cat '$work/resource-token')\" = '$token' && test \"\$(stat -c %a '$work/resource-token')\" = 600"
check "the token is bound to the resource at the server (RFC 8707 aud)" sh -c "curl -s -u '$rs_client_id:$E2E_RS_SECRET' -d 'token=$token' '$E2E_ISSUER/introspect/' | '$py' -c 'import json,sys; d=json.load(sys.stdin); assert d[\"aud\"] == [\"$mcp\"], d'"

# 4. A token for one resource is never sent to another, and the other refuses it.
set +e
"$authctl" request "$other" >/dev/null 2>"$work/other.err"; status=$?
set -e
check "request to a resource without a grant is refused before sending (exit 13)" sh -c "test $status -eq 13 && grep -q 'login $other' '$work/other.err'"
# 4b. Dot segments are removed before the grant is chosen (RFC 3986 §5.2.4): …/mcp/../other
#     is a request to /other, which no grant covers, and libcurl sends the path as checked;
#     percent-encoded dots are refused.
before="$(grep -c ' /other ' "$work/resource.log" || true)"
set +e
"$authctl" request "$mcp/../other" >/dev/null 2>"$work/dots.err"; dots=$?
"$authctl" request "$mcp/%2e%2e/other" >/dev/null 2>"$work/encoded.err"; encoded=$?
set -e
check "request …/mcp/../other is a request to /other: refused before sending (exit 13)" sh -c "test $dots -eq 13 && grep -q 'login $other' '$work/dots.err'"
check "…/mcp/../other sent the resource nothing" test "$(grep -c ' /other ' "$work/resource.log" || true)" = "$before"
check "request …/mcp/%2e%2e/other is refused (exit 2), naming the encoded dots" sh -c "test $encoded -eq 2 && grep -q 'encoded' '$work/encoded.err'"
check "the second resource of the same server refuses the first one's token" test "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$other")" = 401

# 5. An access token the server ended early (expired in its database; authctl still holds it
#    as valid): 401 invalid_token, one refresh with resource, one retry.
(cd "$here/django_provider" && TOKEN="$token" "$py" manage.py shell -c "
import hashlib, os
from django.utils import timezone
from oauth2_provider.models import AccessToken
checksum = hashlib.sha256(os.environ['TOKEN'].encode()).hexdigest()
assert AccessToken.objects.filter(token_checksum=checksum).update(expires=timezone.now()) == 1
")
check "the ended token is refused by the resource" test "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "$mcp")" = 401
check "request refreshes once and gets the data" test "$("$authctl" request "$mcp" | json 'd["data"]')" = "the data of mcp"
token2="$("$authctl" token --resource "$mcp")"
check "the refreshed token is another, still bound to the resource" sh -c "test '$token2' != '$token' && curl -s -u '$rs_client_id:$E2E_RS_SECRET' -d 'token=$token2' '$E2E_ISSUER/introspect/' | grep -q '\"aud\": \\[\"$mcp\"\\]'"

# 6. Step-up from a narrower scope.
check "login --scope read asks only read" sh -c "'$authctl' login '$mcp' --scope read --browser-command '$browser' --timeout 60 >/dev/null 2>&1 && test \"\$('$authctl' token --resource '$mcp' --format json | '$py' -c 'import json,sys; print(\" \".join(json.load(sys.stdin)[\"scopes\"]))')\" = read"
set +e
"$authctl" request "$mcp/admin" >/dev/null 2>"$work/stepup.err"; status=$?
set -e
check "without a person at the terminal, insufficient_scope exits 21 (step-up-required)" test "$status" -eq 21
check "the message names the command to run" grep -q "authctl login $mcp --scope read --scope write" "$work/stepup.err"
check "with a browser, request steps up to read write and gets the data" sh -c "'$authctl' request '$mcp/admin' --browser-command '$browser' --timeout 60 2>'$work/stepup2.err' | grep -q 'the data of mcp'"
check "the stepped-up grant holds read and write" test "$("$authctl" token --resource "$mcp" --format json | json '" ".join(sorted(d["scopes"]))')" = "read write"

# 6b. A person at the terminal (a pty): the step-up runs without --browser-command, the
#     browser from AUTHCTL_BROWSER.
"$authctl" login "$mcp" --scope read --browser-command "$browser" --timeout 60 >/dev/null 2>&1
check "on a terminal, request steps up by itself" sh -c "AUTHCTL_BROWSER='$browser' script -qec \"'$authctl' request '$mcp/admin' --timeout 60\" /dev/null </dev/null | grep -q 'the data of mcp'"

# 6b2. A 403 insufficient_scope that names no scope (django-oauth-toolkit 3.4 sends none):
#      the resource's scopes_supported that the grant lacks, not the scopes it has.
"$authctl" login "$mcp" --scope read --browser-command "$browser" --timeout 60 >/dev/null 2>&1
set +e
"$authctl" request "$mcp/unnamed" >/dev/null 2>"$work/unnamed.err"; status=$?
set -e
check "an insufficient_scope that names no scope, without a person, exits 21" test "$status" -eq 21
check "the message says the resource did not name the scope, and what the grant lacks" sh -c "grep -q 'did not name the scope' '$work/unnamed.err' && grep -q 'lacks write' '$work/unnamed.err'"
check "the message suggests the sign-in for the lacking scope" grep -q "authctl login $mcp --scope read --scope write" "$work/unnamed.err"
check "with a browser, request steps up to the lacking scope and gets the data" sh -c "'$authctl' request '$mcp/unnamed' --browser-command '$browser' --timeout 60 2>/dev/null | grep -q 'the data of mcp'"

# 6c. RFC 9470: a fresh authentication asked with acr_values and max_age.
set +e
"$authctl" request "$mcp/mfa" >/dev/null 2>"$work/mfa.err"; status=$?
set -e
check "insufficient_user_authentication without a person exits 21" test "$status" -eq 21
check "the command to run asks acr_values and max_age" grep -q -- "--param acr_values=urn:example:mfa --param max_age=0" "$work/mfa.err"
check "with a browser, request signs in again and gets the data" sh -c "'$authctl' request '$mcp/mfa' --browser-command '$browser' --timeout 60 2>/dev/null | grep -q 'the data of mcp'"

# 6d. Several step-ups for one request (MCP: at most three): scopes, then a fresh authentication.
"$authctl" login "$mcp" --scope read --browser-command "$browser" --timeout 60 >/dev/null 2>&1
check "a request that asks for scopes and then a fresh authentication steps up twice and gets the data" \
    sh -c "'$authctl' request '$mcp/ladder' --browser-command '$browser' --timeout 60 2>'$work/ladder.err' | grep -q 'the data of mcp' \
        && test \"\$(grep -c 'signing in again' '$work/ladder.err')\" = 2"
set +e
"$authctl" request "$mcp/never" --browser-command "$browser" --timeout 60 >/dev/null 2>"$work/never.err"; status=$?
set -e
check "a resource that asks again after every step-up: three sign-ins, then exit 21" \
    sh -c "test $status -eq 21 && test \"\$(grep -c 'signing in again' '$work/never.err')\" = 3"

# 6e. A grant that can no longer be renewed (its refresh token gone from the server): request,
#     with a browser, signs in again by itself — for the scopes the grant held, not the
#     resource's defaults (here read alone, where scopes_supported says read write).
"$authctl" login "$mcp" --scope read --browser-command "$browser" --timeout 60 >/dev/null 2>&1
(cd "$here/django_provider" && "$py" manage.py shell -c "from oauth2_provider.models import RefreshToken; RefreshToken.objects.all().delete()" >/dev/null)
"$py" - "$keystore" "$mcp" <<'PY'
import json, os, sys
path, resource = sys.argv[1], sys.argv[2]
document = json.load(open(path))
for user in document["users"]:
    for grant in user.get("resourceGrants", []):
        if grant["resource"] == resource:
            grant["tokens"]["expiresAt"] = "2000-01-01T00:00:00Z"
with open(os.open(path + ".new", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
    json.dump(document, f)
os.replace(path + ".new", path)
PY
check "a grant whose refresh token the server forgot: request signs in again by itself and answers" \
    sh -c "'$authctl' request '$mcp' --browser-command '$browser' --timeout 60 2>'$work/renewed.err' | grep -q 'the data of mcp' \
        && grep -q 'could not be renewed: signing in again' '$work/renewed.err'"
check "the new grant holds the scopes the old one held (read), not the resource's defaults" \
    test "$("$authctl" token --resource "$mcp" --format json | json '" ".join(sorted(d["scopes"]))')" = "read"

# 6f. login URL --remote (docs/remote.md): a host without a browser signs in to the resource;
#     `bootstrap` on another, empty HOME (the laptop) finishes it, and its line goes back.
laptop="$work/laptop"
mkdir -m 700 "$laptop"
mkfifo "$work/remote.in"
"$authctl" login "$mcp" --remote --timeout 60 --json <"$work/remote.in" >"$work/remote.json" 2>"$work/remote.err" &
host_pid=$!
exec 7>"$work/remote.in"
for _ in $(seq 1 100); do grep -q '^authctl bootstrap ' "$work/remote.err" && break; sleep 0.1; done
argument="$("$py" -c 'import shlex, sys; words = shlex.split(sys.argv[1]); print(words[2] if len(words) == 3 else "")' \
    "$(grep '^authctl bootstrap ' "$work/remote.err" || true)")"
check "login <resource URL> --remote prints 'authctl bootstrap' and one argument" test -n "$argument"
pasted="$(env -i HOME="$laptop" PATH="$PATH" E2E_USERNAME="$E2E_USERNAME" E2E_PASSWORD="$E2E_PASSWORD" \
    "$authctl" bootstrap "$argument" --browser-command "$browser" --timeout 60 2>"$work/bootstrap.err" | tail -n 1)"
echo "$pasted" >&7
exec 7>&-
set +e; wait "$host_pid"; status=$?; set -e
remote_resource="$(json 'd["resource"]' <"$work/remote.json" 2>/dev/null || true)"
check "the pasted line finishes the resource's sign-in on the host (exit 0), for the resource" \
    test "$status" -eq 0 -a "$remote_resource" = "$mcp"
check "request works with the grant the remote sign-in got" sh -c "'$authctl' request '$mcp' | grep -q 'the data of mcp'"

# 7. Safety.
set +e
"$authctl" login "http://127.0.0.1:$rs_port/evil" --browser-command "$browser" --timeout 30 >/dev/null 2>"$work/evil.err"; status=$?
set -e
check "metadata naming another resource is refused (RFC 9728 §3.3, exit 7)" sh -c "test $status -eq 7 && grep -q 'somewhere-else' '$work/evil.err'"
set +e
"$authctl" login "http://api.example.com/mcp" >/dev/null 2>"$work/http.err"; status=$?
set -e
check "a plain-http resource off loopback is refused (exit 2)" test "$status" -eq 2
check "the keystore matches docs/keystore.schema.json" "$py" -c "
import json, jsonschema
jsonschema.validate(json.load(open('$keystore')), json.load(open('$here/../../docs/keystore.schema.json')))"
check "no token, secret or password reached stderr or the resource's log" sh -c "! grep -rqF -e '$token' -e '$token2' -e '$E2E_PASSWORD' -e '$E2E_RS_SECRET' '$work'/*.err '$work/resource.log'"
check "-v logs the exchange without the token" sh -c "'$authctl' -v request '$mcp' 2>'$work/verbose.err' >/dev/null && grep -q '/mcp' '$work/verbose.err' && ! grep -qF \"\$('$authctl' token --resource '$mcp')\" '$work/verbose.err'"

# 8. signout --revoke revokes the resource grant's refresh token (RFC 7009 at the server).
check "signout --revoke revokes the grant's refresh token" test "$("$authctl" signout --revoke --json 2>"$work/signout.err" | json '[r["result"] for r in d["revocations"] if r["providerId"] == "oidc.127-0-0-1"]')" = "['revoked']"
check "the keystore keeps no token of the grant" "$py" -c "
import json
users = json.load(open('$keystore'))['users']
assert all('tokens' not in g for u in users for g in u.get('resourceGrants', [])), users"
check "after signout, request says to sign in (exit 16)" sh -c "'$authctl' request '$mcp' >/dev/null 2>&1; test \$? -eq 16"

# 9. providers remove deletes the registration at the server (RFC 7592), at the registration
#    URL kept with its token — not at the one config.json names now (issue 35): an edited
#    registrationClientUri pointing at another server gets nothing (nothing listens on port 9,
#    so a token sent there would fail the deletion).
client_id="$("$py" -c "import json; print(json.load(open('$config'))['providers']['oidc.127-0-0-1']['clientId'])")"
"$py" -c "
import json
config = json.load(open('$config'))
config['providers']['oidc.127-0-0-1']['registrationClientUri'] = 'http://127.0.0.1:9/o/register/elsewhere/'
json.dump(config, open('$config', 'w'))"
check "providers remove deletes the registered client at its server" sh -c "'$authctl' providers remove oidc.127-0-0-1 --yes | grep -q 'deleted its registration'"
check "the server no longer knows the client" sh -c "cd '$here/django_provider' && CLIENT='$client_id' '$py' manage.py shell -c \"
import os
from oauth2_provider.models import Application
assert not Application.objects.filter(client_id=os.environ['CLIENT']).exists()
\""
check "its resource grants went with it, not kept as signed out" "$py" -c "
import json
users = json.load(open('$keystore'))['users']
assert not [g for u in users for g in u.get('resourceGrants', []) if g['providerId'] == 'oidc.127-0-0-1'], users"
check "the registration access token is forgotten" "$py" -c "
import json
assert 'registrations' not in json.load(open('$keystore'))"

# 9b. A client ID metadata document: with no provider configured and the server advertising
#     support, its https URL is the client id (DOT reads the document from a file here).
cimd_url="https://client.authctl.test/metadata.json"
"$py" -c "
import json
json.dump({'client_id': '$cimd_url', 'client_name': 'authctl (test)', 'redirect_uris': ['http://127.0.0.1/callback'],
           'grant_types': ['authorization_code', 'refresh_token'], 'token_endpoint_auth_method': 'none', 'application_type': 'native'},
          open('$E2E_CIMD_DOCUMENT', 'w'))"
check "login <resource URL> --client-metadata-url uses the document's URL as the client id" sh -c "'$authctl' login '$mcp' --client-metadata-url '$cimd_url' --browser-command '$browser' --timeout 60 >/dev/null 2>'$work/cimd.err'"
check "the provider saved names the document's URL, and nothing was registered" sh -c "test \"\$('$py' -c \"import json; print(json.load(open('$config'))['providers']['oidc.127-0-0-1']['clientId'])\")\" = '$cimd_url' && test ! -e '$registrations' && ! grep -q registrations '$keystore'"
check "request works with the document's client" test "$("$authctl" request "$mcp" | json 'd["data"]')" = "the data of mcp"
check "providers remove of a document's client deletes nothing at the server" sh -c "'$authctl' providers remove oidc.127-0-0-1 --yes | grep -qv 'deleted its registration'"
"$authctl" signout >/dev/null 2>&1

# 10. A provider configured for the issuer (on another origin than the resource: borrowed) is
#     used only with consent — --provider, no registration — and with an ID token the identity
#     is linked by the account rules and holds the grant.
"$authctl" providers add oidc.dot --issuer "$E2E_ISSUER" --client-id "$public_client" >/dev/null
set +e
"$authctl" login "$mcp" --scope openid --scope read --browser-command "$browser" --timeout 60 >/dev/null 2>"$work/borrow.err"; status=$?
set -e
check "without a terminal or --provider, the borrowed provider is refused (exit 18)" test "$status" -eq 18
check "the refusal names the resource, the scopes and the command" sh -c "grep -q 'oidc.dot' '$work/borrow.err' && grep -q 'openid read' '$work/borrow.err' && grep -q -- \"authctl login $mcp --provider oidc.dot --scope openid --scope read\" '$work/borrow.err'"
check "nothing was signed in" sh -c "! grep -q oidc.dot '$keystore'"
check "login <resource URL> --provider uses the configured provider" sh -c "'$authctl' login '$mcp' --provider oidc.dot --scope openid --scope read --browser-command '$browser' --timeout 60 --json >'$work/login2.json' 2>'$work/login2.err'"
check "the grant's owner is the identity the server signed in" test "$(json 'd["grantOwner"]' <"$work/login2.json")" = identity
check "no client was registered" sh -c "! grep -q 'Registered authctl' '$work/login2.err' && test \"\$('$py' -c \"import json; print(sorted(json.load(open('$config'))['providers']))\")\" = \"['oidc.dot']\""
check "the ID token's identity is linked to the user" test "$(json 'd["user"]["providerData"][0]["providerId"] + " " + d["user"]["providerData"][0]["issuer"] + " " + str(bool(d["user"]["providerData"][0]["federatedId"]))' <"$work/login2.json")" = "oidc.dot $E2E_ISSUER True"
check "the grant is the identity's user's" test "$(json 'd["user"]["resourceGrants"][0]["resource"] + " " + d["user"]["resourceGrants"][0]["providerId"]' <"$work/login2.json")" = "$mcp oidc.dot"
check "request works with the configured provider's grant" test "$("$authctl" request "$mcp" | json 'd["user"]')" = ada

# 11. A sealed keystore seals the registration access token too: a new registration, the
#     token put back where earlier builds kept it, `keystore seal` moves it in and seals it;
#     no file holds it in the clear; providers remove (with the key) still deletes the client.
"$authctl" signout >/dev/null 2>&1
"$authctl" providers remove oidc.dot --yes >/dev/null 2>&1
check "login <resource URL> registers a client again" sh -c "'$authctl' login '$mcp' --browser-command '$browser' --timeout 60 >/dev/null 2>'$work/login3.err'"
registration_token="$("$py" -c "import json; print(json.load(open('$keystore'))['registrations'][0]['registrationAccessToken'])")"
client_id="$("$py" -c "import json; print(json.load(open('$config'))['providers']['oidc.127-0-0-1']['clientId'])")"
"$py" -c "
import json, os
keystore = json.load(open('$keystore'))
registrations = keystore.pop('registrations')
json.dump(keystore, open('$keystore', 'w'))
fd = os.open('$registrations', os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
os.write(fd, json.dumps({r['providerId']: r['registrationAccessToken'] for r in registrations}).encode())
os.close(fd)"
"$authctl" keystore new-key >"$work/keystore.key"
chmod 600 "$work/keystore.key"
check "keystore seal seals the keystore" sh -c "'$authctl' keystore seal --key-file '$work/keystore.key' >/dev/null 2>'$work/seal.err'"
check "keystore seal moved the old registrations.json into the keystore and removed it" test ! -e "$registrations"
check "the sealed keystore holds the registration access token sealed" "$py" -c "
import json
r = json.load(open('$keystore'))['registrations']
assert len(r) == 1 and r[0]['sealed'] and 'registrationAccessToken' not in r[0], r"
check "no file of authctl's holds the registration access token in the clear" sh -c "test -n '$registration_token' && ! grep -rqF '$registration_token' '$XDG_DATA_HOME' '$XDG_CONFIG_HOME'"
check "the sealed keystore matches docs/keystore.schema.json" "$py" -c "
import json, jsonschema
jsonschema.validate(json.load(open('$keystore')), json.load(open('$here/../../docs/keystore.schema.json')))"
check "request works with the sealed keystore" test "$(AUTHCTL_KEYSTORE_KEY_FILE="$work/keystore.key" "$authctl" request "$mcp" | json 'd["data"]')" = "the data of mcp"
# A token of registrations.json (earlier builds) was kept without the registration URL it was
# issued with: it is sent nowhere (config.json's URL could be anyone's), and forgotten.
check "providers remove does not send a token kept before its registration URL was, and says the registration may remain" sh -c "AUTHCTL_KEYSTORE_KEY_FILE='$work/keystore.key' '$authctl' providers remove oidc.127-0-0-1 --yes 2>&1 | grep -q 'token was not sent'"
check "the server still knows the second client (nothing was sent)" sh -c "cd '$here/django_provider' && CLIENT='$client_id' '$py' manage.py shell -c \"
import os
from oauth2_provider.models import Application
assert Application.objects.filter(client_id=os.environ['CLIENT']).exists()
\""
check "the sealed keystore no longer holds a registration" "$py" -c "
import json
assert 'registrations' not in json.load(open('$keystore'))"


# 9. A machine signs in to the resource by its URL with a client of its own (client
#    credentials, the secret in an environment variable), in a HOME of its own: no browser,
#    no registration; its token is renewed by the grant (there is no refresh token).
ci() {
    env HOME="$work/ci" XDG_DATA_HOME="$work/ci/data" XDG_CONFIG_HOME="$work/ci/config" XDG_CACHE_HOME="$work/ci/cache" \
        WORKLOAD_SECRET="$E2E_WORKLOAD_SECRET" "$authctl" "$@"
}
set +e
ci login "$mcp" --client-credentials --client-id "$workload_client" --client-secret-env WORKLOAD_SECRET --json >"$work/ci-login.json" 2>"$work/ci-login.err"
status=$?
set -e
check "login <resource URL> --client-credentials signs the workload in, for the resource" \
    sh -c "test $status -eq 0 && '$py' -c \"import json; d = json.load(open('$work/ci-login.json')); assert d['resource'] == '$mcp' and d['user']['kind'] == 'workload', d\" || cat '$work/ci-login.err'"
check "request as the workload: the resource answers for no person" \
    test "$(ci request "$mcp" | json 'str(d["data"]) + "|" + str(d["user"])')" = "the data of mcp|None"
ci_token="$(ci token --resource "$mcp" || true)"
check "the workload's token is bound to the resource (RFC 8707 aud)" sh -c "test -n '$ci_token' && curl -s -u '$rs_client_id:$E2E_RS_SECRET' -d 'token=$ci_token' '$E2E_ISSUER/introspect/' | '$py' -c 'import json,sys; d=json.load(sys.stdin); assert d[\"aud\"] == [\"$mcp\"] and d[\"active\"], d'"
ci_token2="$(ci token --resource "$mcp" --force-refresh || true)"
check "token --resource --force-refresh runs the grant again: another token, which works" \
    sh -c "test -n '$ci_token2' -a '$ci_token2' != '$ci_token' && test \"\$(curl -s -u '$rs_client_id:$E2E_RS_SECRET' -d 'token=$ci_token2' '$E2E_ISSUER/introspect/' | '$py' -c 'import json,sys; print(json.load(sys.stdin)[\"active\"])')\" = True"
check "the workload's secret is in no file of authctl's (it is read from the variable each time)" \
    sh -c "! grep -rqF -e '$E2E_WORKLOAD_SECRET' '$work/ci' '$work'/ci-login.*"

summary

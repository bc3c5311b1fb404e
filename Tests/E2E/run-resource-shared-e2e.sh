#!/usr/bin/env bash
# End to end for one sign-in that serves several resources of one authorization server
# (docs/resources.md, "Several resources, one sign-in"), against real servers on 127.0.0.1:
# django-oauth-toolkit 3.4.1, which rotates refresh tokens (ROTATE_REFRESH_TOKEN), and the
# test's own protected resource (resource_server.py: /mcp and /other, two resources of that
# server, tokens checked by introspection and their `aud`).
#
#   run-resource-shared-e2e.sh AUTHCTL     prints "N passed, M failed"
set -euo pipefail

authctl="$(realpath "${1:?usage: run-resource-shared-e2e.sh PATH-TO-AUTHCTL}")"
here="$(cd "$(dirname "$0")" && pwd)"

source "$here/lib.sh"

# django-oauth-toolkit and the resource, started now (dot-resource.sh).
source "$here/dot-resource.sh"
start_dot_and_resource

private_home
keystore="$XDG_DATA_HOME/authctl/keystore.json"
browser="python3 $here/scripted_browser.py"
export E2E_BROWSER_LOG="$work/browser.log"
mcp="http://127.0.0.1:$rs_port/mcp"
other="http://127.0.0.1:$rs_port/other"
json() { "$py" -c "import json, sys; d = json.load(sys.stdin); print($1)"; }
grants() { "$py" -c "import json; g = {x['resource']: x for x in json.load(open('$keystore'))['users'][0]['resourceGrants']}; print($1)"; }
introspect() { curl -s -u "$rs_client_id:$E2E_RS_SECRET" -d "token=$1" "$E2E_ISSUER/introspect/"; }
# Every grant's access token expired in the keystore (the server still holds them as valid).
expire_all() {
    "$py" - "$keystore" <<'PY'
import json, os, sys
path = sys.argv[1]
document = json.load(open(path))
for user in document["users"]:
    for grant in user.get("resourceGrants", []):
        grant["tokens"]["expiresAt"] = "2000-01-01T00:00:00Z"
with open(os.open(path + ".new", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
    json.dump(document, f)
os.replace(path + ".new", path)
PY
}
# The browser sign-ins so far: each opens authctl's one-time start URL once.
browser_sign_ins() { grep -c '/start/' "$E2E_BROWSER_LOG" 2>/dev/null || true; }
# The resources of the refresh tokens the server holds as valid (RFC 8707 at the server).
live_refresh_resources() {
    (cd "$here/django_provider" && "$py" manage.py shell -c "
from oauth2_provider.models import RefreshToken
print(';'.join(sorted(' '.join(r.resource) for r in RefreshToken.objects.filter(revoked__isnull=True))))") | tail -n 1
}

# 1. One browser sign-in for two resources of one server.
check "login <URL> <URL2> signs in to both with one sign-in" \
    sh -c "'$authctl' login '$mcp' '$other' --browser-command '$browser' --timeout 60 --json >'$work/login.json' 2>'$work/login.err' || { cat '$work/login.err'; false; }"
check "--json names both resources" test "$(json '" ".join(d["resources"])' <"$work/login.json" 2>/dev/null)" = "$mcp $other"
check "one browser sign-in" test "$(browser_sign_ins)" = 1
check "the server granted both resources (one authorization request naming both, RFC 8707 §2.1): its refresh token covers both" \
    test "$(live_refresh_resources)" = "$mcp $other"
check "the client authctl registered is registered for both resources" \
    test "$("$py" -c "import json; print(' '.join(json.load(open('$XDG_CONFIG_HOME/authctl/config.json'))['providers']['oidc.127-0-0-1']['registeredFor']))")" = "$mcp $other"
check "the refresh token is kept once, in the first grant; the second names it" \
    test "$(grants "bool(g['$mcp']['tokens'].get('refreshToken')), 'refreshToken' in g['$other']['tokens'], g['$other'].get('refreshTokenOf')" 2>/dev/null)" = "True False $mcp"
check "status shows the second grant as refreshable with the first one's refresh token" \
    sh -c "'$authctl' status | grep -q 'resource $other (oidc.127-0-0-1) — .*refreshable (with the refresh token of $mcp)'"

# 2. request to each: its own grant's token, which the resource accepts.
check "request <URL> gets the first resource's data" test "$("$authctl" request "$mcp" | json 'd["data"]')" = "the data of mcp"
check "request <URL2> gets the second resource's data" test "$("$authctl" request "$other" | json 'd["data"]')" = "the data of other"
check "with no other sign-in" test "$(browser_sign_ins)" = 1
token="$("$authctl" token --resource "$other")"
check "the token names both resources of the sign-in (aud), which the server issued for both" \
    sh -c "introspect() { curl -s -u '$rs_client_id:$E2E_RS_SECRET' -d \"token=\$1\" '$E2E_ISSUER/introspect/'; }; introspect '$token' | '$py' -c 'import json,sys; d=json.load(sys.stdin); assert d[\"active\"] and sorted(d[\"aud\"]) == sorted([\"$mcp\", \"$other\"]), d'"

# 3. Renewal after expiry, with a server that rotates refresh tokens: the second grant's
#    renewal uses the first's refresh token, and both grants take the answer.
rt0="$(grants "g['$mcp']['tokens']['refreshToken']")"
expire_all
check "after expiry, request <URL2> renews and gets the data" test "$("$authctl" request "$other" | json 'd["data"]')" = "the data of other"
rt1="$(grants "g['$mcp']['tokens']['refreshToken']")"
check "the rotated refresh token replaced the old one in the first grant" sh -c "test -n '$rt1' && test '$rt1' != '$rt0'"
check "the server rotated it: one valid refresh token, still for both resources" test "$(live_refresh_resources)" = "$mcp $other"
check "the first grant took the new access token too" test "$("$authctl" token --resource "$mcp")" = "$("$authctl" token --resource "$other")"
check "which works there" test "$("$authctl" request "$mcp" | json 'd["data"]')" = "the data of mcp"
check "with no second refresh" test "$(grants "g['$mcp']['tokens']['refreshToken']")" = "$rt1"
expire_all
check "after expiry again, request <URL> renews with the rotated refresh token" test "$("$authctl" request "$mcp" | json 'd["data"]')" = "the data of mcp"
expire_all
check "and the second is still renewable afterwards" test "$("$authctl" request "$other" | json 'd["data"]')" = "the data of other"
check "token --resource <URL2> --force-refresh renews again" sh -c "'$authctl' token --resource '$other' --force-refresh >/dev/null"
check "still one browser sign-in in all" test "$(browser_sign_ins)" = 1
check "no refresh token was ever written to the second grant" test "$(grants "'refreshToken' in g['$other']['tokens']")" = False

# 4. A new sign-in to the first resource alone: the second keeps the old sign-in's refresh token.
check "login <URL> alone signs in again" sh -c "'$authctl' login '$mcp' --browser-command '$browser' --timeout 60 >/dev/null 2>&1"
check "the second grant now holds the old sign-in's refresh token itself" \
    test "$(grants "bool(g['$other']['tokens'].get('refreshToken')), g['$other'].get('refreshTokenOf')")" = "True None"
expire_all
check "and both still renew, each with its own" \
    sh -c "'$authctl' request '$other' >/dev/null && '$authctl' request '$mcp' >/dev/null"

# 5. Refusals: a second URL that is not a resource of that server leaves the keystore as it was.
cp "$keystore" "$work/before.json"
set +e
"$authctl" login "$mcp" "http://127.0.0.1:$rs_port/evil" --browser-command "$browser" --timeout 60 >/dev/null 2>"$work/evil.err"; status=$?
set -e
check "a second URL whose metadata names another resource is refused (exit 7), before any sign-in" \
    sh -c "test $status -eq 7 && test '$(browser_sign_ins)' = 2"
check "the keystore is as it was" cmp -s "$keystore" "$work/before.json"

# 6. The second resource alone, later: its client was registered for it, so no consent is asked
#    (no terminal here), and its grant becomes its own.
check "login <URL2> alone signs in with no consent asked" sh -c "'$authctl' login '$other' --browser-command '$browser' --timeout 60 >/dev/null 2>'$work/other-alone.err' || { cat '$work/other-alone.err'; false; }"
check "its grant holds its own refresh token" test "$(grants "bool(g['$other']['tokens'].get('refreshToken')), g['$other'].get('refreshTokenOf')")" = "True None"

summary

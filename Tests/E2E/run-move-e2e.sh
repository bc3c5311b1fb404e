#!/usr/bin/env bash
# End to end for a resource that moves to another authorization server (docs/resources.md,
# "When the authorization server changes"; MCP SEP-2352), against real servers on 127.0.0.1:
# two django-oauth-toolkit 3.4.1 instances (each its own database, issuer and signing key; RFC
# 8414 metadata, RFC 7591 registration, RFC 8707 resource, introspection) and a resource of the
# test's own (move_resource.py) whose metadata names the first, then the second. A request whose
# token the resource refuses after the switch moves only with the person's consent: without a
# terminal exit 18 and the keystore byte for byte as it was; on a terminal (a pty) with a yes,
# a registration and a sign-in at the second, the request answered with its token, and the first
# server's token never sent to the resource again.
#
#   run-move-e2e.sh AUTHCTL     prints "N passed, M failed"
set -euo pipefail

authctl="$(realpath "${1:?usage: run-move-e2e.sh PATH-TO-AUTHCTL}")"
here="$(cd "$(dirname "$0")" && pwd)"

source "$here/lib.sh"

# django-oauth-toolkit and the secrets of the run (lib.sh); the second instance gets a
# database, a Django secret and a signing key of its own beside the first's.
django_provider_state
py="$dot_python"
E2E_RS_SECRET="$("$py" -c 'import secrets; print(secrets.token_urlsafe(32))')"
export E2E_RS_SECRET
unset E2E_WORKLOAD_SECRET
first_state="$E2E_STATE_DIR"
second_state="$work/provider2"
mkdir -p "$second_state"
"$py" -c 'import secrets; print(secrets.token_urlsafe(48), end="")' >"$second_state/django-secret"
"$py" -c '
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
print(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode(), end="")
' >"$second_state/oidc-key.pem"

# Starts one instance: migrate, the user and the resource's introspection client (bootstrap.py
# prints the public client's id, then the resource's), then the server. Sets rs_client_id.
start_dot() {
    local state="$1" port="$2" log="$3"
    cd "$here/django_provider"
    E2E_STATE_DIR="$state" E2E_ISSUER="http://127.0.0.1:$port/o" "$py" manage.py migrate --verbosity 0
    { read -r _; read -r rs_client_id; } < <(E2E_STATE_DIR="$state" E2E_ISSUER="http://127.0.0.1:$port/o" "$py" bootstrap.py)
    E2E_STATE_DIR="$state" E2E_ISSUER="http://127.0.0.1:$port/o" "$py" manage.py runserver "127.0.0.1:$port" --noreload --verbosity 0 >"$log" 2>&1 &
    cd "$here"
}

first_port="$(free_port)"
second_port="$(free_port)"
first="http://127.0.0.1:$first_port/o"
second="http://127.0.0.1:$second_port/o"
start_dot "$first_state" "$first_port" "$work/first.log"
first_pid=$!
first_rs_client="$rs_client_id"
start_dot "$second_state" "$second_port" "$work/second.log"
second_pid=$!
second_rs_client="$rs_client_id"

rs_port="$(free_port)"
echo 1 >"$work/server"
RS_PORT="$rs_port" RS_SERVER_FILE="$work/server" RS_ISSUER_1="$first" RS_ISSUER_2="$second" RS_CLIENT_ID_1="$first_rs_client" \
    RS_CLIENT_ID_2="$second_rs_client" RS_SECRET="$E2E_RS_SECRET" RS_LOG="$work/resource.log" \
    python3 "$here/move_resource.py" >"$work/resource.err" 2>&1 &
rs_pid=$!
trap 'status=$?; for pid in "$rs_pid" "$first_pid" "$second_pid"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; (exit "$status"); cleanup' EXIT
wait_for "$first/.well-known/openid-configuration"
wait_for "$second/.well-known/openid-configuration"
for _ in $(seq 1 100); do
    curl --silent --output /dev/null "http://127.0.0.1:$rs_port/.well-known/oauth-protected-resource/mcp" && break
    sleep 0.1
done

private_home
keystore="$XDG_DATA_HOME/authctl/keystore.json"
config="$XDG_CONFIG_HOME/authctl/config.json"
browser="python3 $here/scripted_browser.py"
mcp="http://127.0.0.1:$rs_port/mcp"
json() { "$py" -c "import json, sys; d = json.load(sys.stdin); print($1)"; }
digest() { sha256sum "$@" | cut -d' ' -f1 | tr '\n' ' '; }
# Whether the issuers of the keystore's grants for the resource are exactly ISSUER...
grant_issuers() {
    "$py" - "$keystore" "$mcp" "$@" <<'PY'
import json, sys
path, resource, expected = sys.argv[1], sys.argv[2], sys.argv[3:]
users = json.load(open(path))["users"]
found = [g["issuer"] for u in users for g in u.get("resourceGrants", []) if g["resource"] == resource]
assert sorted(found) == sorted(expected), found
PY
}

# 1. At the first server: login by the resource's URL (registration there), a request.
check "login <resource URL> signs in at the first server" sh -c "'$authctl' login '$mcp' --browser-command '$browser' --timeout 60 >/dev/null 2>'$work/login.err'"
check "the grant is the first server's" grant_issuers "$first"
check "request gets the data with the first server's token" test "$("$authctl" request "$mcp/items" | json 'd["server"]')" = 1
first_token="$("$authctl" token --resource "$mcp")"

# 2. The resource moves: its metadata names the second server, and it refuses the first's tokens.
echo 2 >"$work/server"
before="$(digest "$keystore" "$config")"
set +e
"$authctl" request "$mcp/items" </dev/null >"$work/refused.out" 2>"$work/refused.err"; refused=$?
"$authctl" request "$mcp/items" --browser-command "$browser" --timeout 60 </dev/null >"$work/refused2.out" 2>"$work/refused2.err"; refused2=$?
set -e
check "without a terminal, the move is refused: exit 18 (consent-required)" test "$refused" -eq 18
check "the refusal names the resource, both servers and 'authctl login URL'" sh -c "grep -qF '$first' '$work/refused.err' && grep -qF '$second' '$work/refused.err' && grep -qF 'authctl login $mcp' '$work/refused.err'"
check "a browser command alone is no consent: exit 18 too" test "$refused2" -eq 18
check "nothing was printed on stdout" sh -c "! test -s '$work/refused.out' && ! test -s '$work/refused2.out'"
check "the keystore and config.json are byte for byte as they were" test "$(digest "$keystore" "$config")" = "$before"
check "nothing was registered at the second server" sh -c "cd '$here/django_provider' && E2E_STATE_DIR='$second_state' '$py' manage.py shell -c \"
from oauth2_provider.models import Application, AccessToken
assert Application.objects.count() == 2, list(Application.objects.values_list('name', flat=True))  # bootstrap.py's two
assert AccessToken.objects.count() == 0
\" >/dev/null"

# 3. A person at the terminal (a pty) says no: exit 18, nothing changed; then yes: registration
#    and sign-in at the second server, the request sent again with its token.
set +e
printf 'n\n' | AUTHCTL_BROWSER="$browser" script -qec "'$authctl' request '$mcp/items' --timeout 60" /dev/null >"$work/no.out" 2>&1; answered_no=$?
set -e
check "on a terminal, a no refuses the move: exit 18, naming what was refused" sh -c "test $answered_no -eq 18 && grep -q 'you did not agree' '$work/no.out'"
check "after the no, the keystore and config.json are as they were" test "$(digest "$keystore" "$config")" = "$before"
# 3b. A person at the terminal (a pty) says yes: registration and sign-in at the second server,
#    the request sent again with its token.
marker="$(wc -l <"$work/resource.log")"
check "on a terminal, a yes moves the grant and the request is answered by the second server's token" sh -c "printf 'y\n' | AUTHCTL_BROWSER='$browser' script -qec \"'$authctl' request '$mcp/items' --timeout 60\" /dev/null >'$work/moved.out' 2>&1 && grep -q '\"server\": \"2\"' '$work/moved.out'"
check "the person was asked, naming the resource and both servers" sh -c "grep -qF 'now names the authorization server $second instead of $first' '$work/moved.out' && grep -qF '$mcp' '$work/moved.out'"
check "authctl registered at the second server" sh -c "grep -q 'Registered authctl at' '$work/moved.out' && '$py' -c \"
import json
assert sorted(p['issuer'] for p in json.load(open('$config'))['providers'].values()) == sorted(['$first', '$second'])\""
check "a grant per (issuer, resource): the first server's kept, the second's added" grant_issuers "$first" "$second"
check "later requests use the second server's token" test "$("$authctl" request "$mcp/items" | json 'd["server"]')" = 2
second_token="$("$authctl" token --resource "$mcp")"
check "token --resource gives the second server's token, bound to the resource there (RFC 8707 aud)" sh -c "test -n '$second_token' && curl -s -u '$second_rs_client:$E2E_RS_SECRET' -d 'token=$second_token' '$second/introspect/' | '$py' -c 'import json,sys; d=json.load(sys.stdin); assert d[\"active\"] and d[\"aud\"] == [\"$mcp\"], d'"
check "after the move, the resource saw the first server's token once (the 401 that showed the move), then only the second's" "$py" -c "
lines = open('$work/resource.log').read().splitlines()[$marker:]
tokens = [l.split('token-of=')[1] for l in lines if 'token-of=' in l and not l.endswith('token-of=absent')]
assert tokens[:1] == ['1'] and tokens[1:] and set(tokens[1:]) == {'2'}, lines"
check "no token or password reached stderr, the pty or the resource's log" sh -c "! grep -rqF -e '$first_token' -e '$second_token' -e '$E2E_PASSWORD' -e '$E2E_RS_SECRET' '$work'/*.err '$work'/*.out '$work/resource.log'"
check "the keystore matches docs/keystore.schema.json" "$py" -c "
import json, jsonschema
jsonschema.validate(json.load(open('$keystore')), json.load(open('$here/../../docs/keystore.schema.json')))"

summary

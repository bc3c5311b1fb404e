#!/usr/bin/env bash
# End to end against a real, independent OpenID provider: django-oauth-toolkit with OIDC
# (RS256 key generated here, PKCE required, a public client, loopback redirect on any
# port), started on 127.0.0.1. Drives the real authctl binary with a scripted browser.
#
#   run-django-e2e.sh AUTHCTL            the test: prints "N passed, M failed"
#   run-django-e2e.sh --demo AUTHCTL     the README demo: login, status, token
#   run-django-e2e.sh --demo --keep AUTHCTL   the same, then leaves the provider running and
#                                        writes an environment file to go on with (docs/local-provider.md)
set -euo pipefail

demo=false
keep=false
if [ "${1:-}" = "--demo" ]; then demo=true; shift; fi
if $demo && [ "${1:-}" = "--keep" ]; then keep=true; shift; fi
authctl="$(realpath "${1:?usage: run-django-e2e.sh [--demo] PATH-TO-AUTHCTL}")"
here="$(cd "$(dirname "$0")" && pwd)"

source "$here/lib.sh"

# django-oauth-toolkit and the secrets of the run, generated now, never committed (lib.sh).
django_provider_state
py="$dot_python"

cd "$here/django_provider"
"$py" manage.py migrate --verbosity 0
E2E_WORKLOAD_SECRET="$("$py" -c 'import secrets; print(secrets.token_urlsafe(32))')"
export E2E_WORKLOAD_SECRET
{ read -r client_id; read -r workload_id; } < <("$py" bootstrap.py)
port="$(free_port)"
start_provider "$work/provider.log" "$py" manage.py runserver "127.0.0.1:$port" --noreload --verbosity 0
issuer="http://127.0.0.1:$port/o"
wait_for "$issuer/.well-known/openid-configuration"
cd "$here"

private_home
keystore="$XDG_DATA_HOME/authctl/keystore.json"
browser="python3 $here/scripted_browser.py"

"$authctl" providers add oidc.dot --issuer "$issuer" --client-id "$client_id" >/dev/null

if $demo; then
    echo "demo: a local OpenID provider (django-oauth-toolkit) runs at $issuer" >&2
    echo "\$ authctl login oidc.dot" >&2
    "$authctl" login oidc.dot --browser-command "$browser" --timeout 60
    echo "\$ authctl status" >&2
    "$authctl" status
    echo "\$ authctl token" >&2
    "$authctl" token
    if $keep; then
        # The provider, its database and the keystore stay: nothing is stopped or removed on exit.
        mkdir -p "$work/bin"
        ln -sf "$authctl" "$work/bin/authctl"
        (
            umask 077
            {
                echo "# scripts/demo.sh --keep: source this file to go on where the demo stopped (docs/local-provider.md)."
                printf 'export PATH=%q:"$PATH"\n' "$work/bin"
                printf 'export AUTHCTL_KEYSTORE=%q AUTHCTL_CONFIG=%q\n' "$keystore" "$XDG_CONFIG_HOME/authctl/config.json"
                printf 'export AUTHCTL_BROWSER=%q\n' "$browser"
                printf '# The provider'"'"'s user, for the scripted browser above or your own browser at %s\n' "$issuer"
                printf 'export E2E_USERNAME=%q E2E_PASSWORD=%q\n' "$E2E_USERNAME" "$E2E_PASSWORD"
            } >"$work/env.sh"
        )
        echo "demo: the provider keeps running (pid $server_pid) at $issuer; its log: $work/provider.log" >&2
        echo "demo: to go on in this shell: . $work/env.sh" >&2
        echo "demo: then for example: authctl status; authctl token --force-refresh; authctl login oidc.dot" >&2
        echo "demo: stop it with: kill $server_pid; rm -rf $work" >&2
        server_pid=""
        trap - EXIT
    fi
    exit 0
fi

json() { "$py" -c "import json, sys; d = json.load(sys.stdin); print($1)"; }

check "login signs in through the browser" sh -c "'$authctl' login oidc.dot --browser-command '$browser' --timeout 60 --json >'$work/login.json' 2>'$work/login.err'"
check "login says a new user was created" test "$(json 'd["isNewUser"]' <"$work/login.json")" = True
check "status exits 0 when signed in" sh -c "'$authctl' status --json >'$work/status.json'"
check "status names the oidc.dot identity" test "$(json 'd["user"]["providerData"][0]["providerId"]' <"$work/status.json")" = oidc.dot
check "the user's email comes from the ID token" test "$(json 'd["user"]["email"]' <"$work/status.json")" = ada@example.com
token1="$("$authctl" token)"
check "token prints an access token" test -n "$token1"
idtoken="$("$authctl" token --id-token)"
check "token --id-token prints a JWT" test "$(echo "$idtoken" | tr '.' '\n' | wc -l)" -eq 3
token2="$("$authctl" token --force-refresh)"
check "a forced refresh gives a new access token" test -n "$token2" -a "$token1" != "$token2"
check "the refreshed token is cached" test "$("$authctl" token)" = "$token2"
check "the keystore matches docs/keystore.schema.json" "$py" -c "
import json, sys, jsonschema
schema = json.load(open('$here/../../docs/keystore.schema.json'))
jsonschema.validate(json.load(open('$keystore')), schema)
"
check "the keystore is private (0600)" test "$(stat -c %a "$keystore")" = 600

cp "$keystore" "$work/keystore.before"
set +e
E2E_BROWSER_MODE=wrong-state E2E_BROWSER_LOG="$work/browser.log" \
    "$authctl" login oidc.dot --browser-command "$browser" --timeout 5 2>"$work/wrong-state.err"
status=$?
set -e
check "a redirect with the wrong state ends in web-context-cancelled (exit 5)" test "$status" -eq 5
check "the listener answered the wrong state with a 4xx" grep -qE '127\.0\.0\.1:[0-9]+/callback -> 4[0-9][0-9]' "$work/browser.log"
check "the keystore is byte-identical after the refused sign-in" cmp -s "$keystore" "$work/keystore.before"

refresh_token="$("$py" -c "import json; print(json.load(open('$keystore'))['users'][0]['providerData'][0]['tokens']['refreshToken'])")"
check "signout --revoke succeeds" sh -c "'$authctl' signout --revoke 2>'$work/signout.err'"
check "signout reports the revocation" grep -q "revoked" "$work/signout.err"
set +e; "$authctl" status >/dev/null 2>&1; status=$?; set -e
check "status exits 16 after signout" test "$status" -eq 16
revoked="$(cd "$here/django_provider" && "$py" -c "
import os, django
os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'provider_site.settings'); django.setup()
from oauth2_provider.models import RefreshToken
print(not RefreshToken.objects.filter(token='$refresh_token', revoked__isnull=True).exists())
")"
check "the provider really revoked the refresh token" test "$revoked" = True

# The remote bootstrap (issue 41, docs/remote.md): `login --remote` on this HOME (the host, its
# stdin a pipe), `bootstrap` on another, empty HOME (the laptop); the line it prints goes back.
laptop="$work/laptop"
mkdir -m 700 "$laptop"
mkfifo "$work/remote.in"
"$authctl" login oidc.dot --remote --timeout 60 --json <"$work/remote.in" >"$work/remote.json" 2>"$work/remote.err" &
host_pid=$!
exec 7>"$work/remote.in"
for _ in $(seq 1 100); do grep -q '^authctl bootstrap ' "$work/remote.err" && break; sleep 0.1; done
command_line="$(grep '^authctl bootstrap ' "$work/remote.err" || true)"
argument="$("$py" -c 'import shlex, sys; words = shlex.split(sys.argv[1]); print(words[2] if len(words) == 3 else "")' "$command_line")"
check "login --remote prints 'authctl bootstrap' and one shell-quoted argument" test -n "$argument"
pasted="$(env -i HOME="$laptop" PATH="$PATH" E2E_USERNAME="$E2E_USERNAME" E2E_PASSWORD="$E2E_PASSWORD" \
    "$authctl" bootstrap "$argument" --browser-command "$browser" --timeout 60 2>"$work/bootstrap.err" | tail -n 1)"
check "bootstrap on the other HOME prints the line to paste last" grep -q '^authctl-redirect-' <<<"$pasted"
check "bootstrap wrote nothing in its HOME" test -z "$(ls -A "$laptop")"
echo "$pasted" >&7
exec 7>&-
set +e; wait "$host_pid"; status=$?; set -e
check "the pasted line finishes the sign-in on the host (exit 0)" test "$status" -eq 0
check "the host is signed in again as the same user" test "$(json 'd["isNewUser"]' <"$work/remote.json")" = False
# A workload signs in as itself: django-oauth-toolkit's client-credentials grant (docs/ci.md).
check "login --client-credentials signs in the workload" sh -c "'$authctl' login oidc.dot --client-credentials --client-id '$workload_id' --client-secret-env E2E_WORKLOAD_SECRET --json >'$work/workload.json' 2>'$work/workload.err'"
check "the workload is a user of kind workload" test "$(json 'd["user"]["kind"]' <"$work/workload.json")" = workload
check "its federated id is the client id" test "$(json 'd["user"]["providerData"][0]["federatedId"]' <"$work/workload.json")" = "$workload_id"
workload_token="$("$authctl" token 2>>"$work/workload.err")"
check "token prints the workload's access token" test -n "$workload_token"
issued="$(cd "$here/django_provider" && "$py" -c "
import os, django
os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'provider_site.settings'); django.setup()
from oauth2_provider.models import AccessToken
t = AccessToken.objects.filter(token='$workload_token').first()
print(bool(t) and t.user is None and t.application.client_id == '$workload_id')
")"
check "the provider issued it to the client, with no user" test "$issued" = True
workload_token2="$("$authctl" token --force-refresh 2>>"$work/workload.err")"
check "token --force-refresh runs the grant again" test -n "$workload_token2" -a "$workload_token2" != "$workload_token"
check "the secret is not in the keystore" sh -c "! grep -qF -e '$E2E_WORKLOAD_SECRET' '$keystore'"
check "the keystore with a workload matches docs/keystore.schema.json" "$py" -c "
import json, sys, jsonschema
schema = json.load(open('$here/../../docs/keystore.schema.json'))
jsonschema.validate(json.load(open('$keystore')), schema)
"
cp "$keystore" "$work/keystore.workload"
set +e
E2E_WORKLOAD_SECRET=wrong "$authctl" login oidc.dot --client-credentials --client-id "$workload_id" --client-secret-env E2E_WORKLOAD_SECRET 2>"$work/workload-wrong.err"
status=$?
set -e
check "a wrong secret is invalid-credential (exit 4)" test "$status" -eq 4
check "the keystore is byte-identical after the refused grant" cmp -s "$keystore" "$work/keystore.workload"
check "no workload token or secret reached stderr" sh -c "! cat '$work'/workload*.err | grep -qF -e '$workload_token' -e '$workload_token2' -e '$E2E_WORKLOAD_SECRET'"
check "no token or password reached stderr" sh -c "! cat '$work'/*.err | grep -qF -e '$token1' -e '$token2' -e '$refresh_token' -e '$E2E_PASSWORD'"

summary

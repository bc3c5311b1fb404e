#!/usr/bin/env bash
# End to end against a second independent OpenID provider: oidc-provider-mock (Flask and
# authlib), a confidential client authenticating with client_secret_basic, a provider
# without a revocation endpoint. Prints "N passed, M failed".
#
#   run-oidc-provider-mock-e2e.sh PATH-TO-AUTHCTL
set -euo pipefail

authctl="$(realpath "${1:?usage: run-oidc-provider-mock-e2e.sh PATH-TO-AUTHCTL}")"
source "$(dirname "$0")/lib.sh"

venv="${XDG_CACHE_HOME:-$HOME/.cache}/authctl-e2e/venv-oidc-provider-mock-034"
python_venv "$venv" "oidc_provider_mock" "oidc-provider-mock==0.3.4"

port="$(free_port)"
PYTHONWARNINGS=ignore start_provider "$work/provider.log" "$venv/bin/oidc-provider-mock" --host 127.0.0.1 --port "$port" \
    --require-nonce true --user-claims '{"sub": "alice", "email": "alice@example.com", "email_verified": true, "name": "Alice"}'
issuer="http://127.0.0.1:$port"
wait_for "$issuer/.well-known/openid-configuration"

private_home
# authctl's one-time start URL redirects to the provider; the provider's consent page takes
# the subject in a form field: this "browser" posts it and follows the redirect into
# authctl's listener.
cat >"$work/browser" <<'BROWSER'
#!/bin/sh
authorize=$(curl --silent --max-time 20 --output /dev/null --write-out '%{redirect_url}' "$1")
exec curl --silent --location --max-time 20 --output /dev/null --data sub=alice "$authorize"
BROWSER
chmod +x "$work/browser"
MOCK_SECRET="$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')"
export MOCK_SECRET

run() { "$authctl" "$@" 2>>"$work/stderr"; }

check "providers add keeps the secret's variable name" run providers add oidc.mock --issuer "$issuer" --client-id authctl-e2e --client-secret-env MOCK_SECRET
check "the config file holds no secret" sh -c "! grep -qF '$MOCK_SECRET' '$XDG_CONFIG_HOME/authctl/config.json'"
check "login with client_secret_basic" sh -c "'$authctl' login oidc.mock --browser-command '$work/browser' --timeout 30 -q >/dev/null 2>>'$work/stderr'"
check "status is signed in as alice" sh -c "'$authctl' status --json | grep -q 'alice@example.com'"
token1="$(run token)"
token2="$(run token --force-refresh)"
check "a forced refresh authenticates the client and gives a new token" test -n "$token2" -a "$token1" != "$token2"
check "signout --revoke reports that the provider offers no revocation" sh -c "'$authctl' signout --revoke 2>&1 | grep -q 'offers no revocation'"
set +e; unset MOCK_SECRET; "$authctl" login oidc.mock --browser-command "$work/browser" --timeout 5 >/dev/null 2>"$work/unset.err"; status=$?; set -e
check "an unset secret variable is provider-not-configured (exit 7), naming it" sh -c "[ $status -eq 7 ] && grep -q MOCK_SECRET '$work/unset.err'"
check "no token reached stderr" sh -c "! grep -qF -e '$token1' -e '$token2' '$work/stderr'"

summary

#!/usr/bin/env bash
# Cloud credentials end to end (issue 28, docs/cloud.md), every server on 127.0.0.1:
#   - authgent-server 0.3.4 (../authgent/start-authgent.sh), a real RFC 8693 token exchange
#     server: authctl signs in there as a workload (client credentials, a confidential client
#     registered at start with the token-exchange grant) and exchanges its access token;
#   - the AWS CLI (awscli 1.45.11) with a profile whose credential_process is
#     `authctl aws-credentials`, against moto 5.2.1's server mode as STS;
#   - google-auth 2.63.0 loading a pluggable external-account configuration that runs
#     `authctl gcp-token`, and exchanging its token at a token endpoint of this test's own
#     (sts_server.py);
#   - Azure's token file (`token --output-file`).
# It ends with "N passed, M failed".
#
#   run-cloud-e2e.sh PATH-TO-AUTHCTL
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
authctl="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
if [ -z "${CLOUD_E2E_INSIDE:-}" ]; then
    # Inside start-authgent.sh: AUTHGENT_ISSUER and AUTHGENT_PYTHON are set.
    # One trusted target for identity chaining (requested_token_type jwt), so that a chaining
    # exchange to any other audience is one authgent refuses.
    AUTHGENT_TRUSTED_CHAINING_TARGETS='["https://trusted.cloud-e2e.test"]' CLOUD_E2E_INSIDE=1 \
        exec "$here/../authgent/start-authgent.sh" "$here/$(basename "$0")" "$authctl"
fi

source "$here/../lib.sh"
venv="${XDG_CACHE_HOME:-$HOME/.cache}/authctl-e2e/venv-cloud"
private_home
unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN AWS_PROFILE AWS_DEFAULT_PROFILE AWS_CONFIG_FILE \
    AWS_SHARED_CREDENTIALS_FILE GOOGLE_APPLICATION_CREDENTIALS AWS_ENDPOINT_URL
mkdir -p -m 700 "$HOME"
python_venv "$venv" "awscli, moto, google.auth, requests" \
    "awscli==1.45.11" "moto[server]==5.2.1" "google-auth==2.63.0" "requests==2.34.2"
py="$venv/bin/python"
issuer="$AUTHGENT_ISSUER"
log="$work/log"
mkdir -p "$log"

# A confidential client for the workload, allowed the token-exchange grant.
client="$(curl --silent --fail -H 'Content-Type: application/json' \
    -d '{"client_name": "authctl-cloud-e2e", "grant_types": ["client_credentials", "urn:ietf:params:oauth:grant-type:token-exchange"], "token_endpoint_auth_method": "client_secret_post", "scope": "read write"}' \
    "$issuer/register")"
client_id="$("$py" -c 'import json, sys; print(json.loads(sys.argv[1])["client_id"])' "$client")"
CLOUD_CLIENT_SECRET="$("$py" -c 'import json, sys; print(json.loads(sys.argv[1])["client_secret"])' "$client")"
export CLOUD_CLIENT_SECRET

jwt_claim() {  # jwt_claim TOKEN CLAIM: a claim of a JWT's payload (not verified: only read)
    "$py" - "$1" "$2" <<'PY'
import base64, json, sys
part = sys.argv[1].split(".")[1]
claims = json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
value = claims.get(sys.argv[2])
print(json.dumps(value) if not isinstance(value, str) else value)
PY
}

"$authctl" providers add oidc.authgent --issuer "$issuer" --client-id "$client_id" >/dev/null
check "sign in at authgent as a workload (client credentials)" \
    "$authctl" login oidc.authgent --client-credentials --client-id "$client_id" --client-secret-env CLOUD_CLIENT_SECRET -q
subject="$("$authctl" token)"

# --- Token exchange (RFC 8693) at authgent ---
audience="https://api.cloud-e2e.test"
exchanged="$("$authctl" token --exchange --audience "$audience" 2>"$log/exchange.err")" || true
check "token --exchange: authgent issues a token for the audience (aud), acting for the workload (act)" \
    test "$(jwt_claim "$exchanged" aud)" = "$audience" -a "$(jwt_claim "$exchanged" act)" != "null"
check "token --exchange gives a token other than the subject token" test -n "$exchanged" -a "$exchanged" != "$subject"
"$authctl" -v token --exchange --audience "$audience" >"$log/again.out" 2>"$log/again.err"
check "the same exchange again is served from the cache: the same token, no HTTP request" \
    sh -c '[ "$(cat "$1")" = "$2" ] && ! grep -q "http:" "$3"' _ "$log/again.out" "$exchanged" "$log/again.err"
"$authctl" token --exchange --audience "$audience" --format json >"$log/exchange.json"
check "token --exchange --format json: the token, its type and issued_token_type" "$py" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["accessToken"] == sys.argv[2] and d["issuedTokenType"] == "urn:ietf:params:oauth:token-type:access_token" and d["tokenType"] == "Bearer", d
' "$log/exchange.json" "$exchanged"
check "token --exchange --format header" sh -c '[ "$("$1" token --exchange --audience "$2" --format header)" = "Authorization: Bearer $3" ]' \
    _ "$authctl" "$audience" "$exchanged"
set +e
"$authctl" token --exchange --audience "$audience" --requested-token-type jwt >/dev/null 2>"$log/refused.err"
status=$?
set -e
check "an exchange authgent refuses (identity chaining to an untrusted target) exits 4 with its error" \
    sh -c '[ "$1" = 4 ] && grep -q "token exchange at oidc.authgent was refused" "$2"' _ "$status" "$log/refused.err"

# --- The keystore sealed from here on: the cloud credentials are cached only sealed ---
key_file="$work/keystore.key"
"$authctl" keystore new-key >"$key_file" 2>/dev/null
chmod 600 "$key_file"
"$authctl" keystore seal --key-file "$key_file" -q
export AUTHCTL_KEYSTORE_KEY_FILE="$key_file"

# --- AWS: the AWS CLI with credential_process against moto's STS ---
moto_port="$(free_port)"
start_provider "$log/moto.log" "$venv/bin/moto_server" -H 127.0.0.1 -p "$moto_port"
wait_for "http://127.0.0.1:$moto_port/moto-api/" || { cat "$log/moto.log" >&2; exit 1; }
sts="http://127.0.0.1:$moto_port/"
role="arn:aws:iam::123456789012:role/authctl-e2e"
mkdir -p -m 700 "$HOME/.aws"
cat >"$HOME/.aws/config" <<CONFIG
[profile authctl-e2e]
region = us-east-1
credential_process = $authctl aws-credentials --role-arn $role --sts-endpoint $sts --audience sts.amazonaws.com --session-name authctl-e2e
CONFIG
caller="$("$venv/bin/aws" --profile authctl-e2e --endpoint-url "$sts" sts get-caller-identity --output json 2>"$log/aws.err")" || cat "$log/aws.err" >&2
check "aws sts get-caller-identity through credential_process shows the assumed role" "$py" -c '
import json, sys
arn = json.loads(sys.argv[1])["Arn"]
assert arn == "arn:aws:sts::123456789012:assumed-role/authctl-e2e/authctl-e2e", arn
' "$caller"
"$authctl" -v aws-credentials --role-arn "$role" --sts-endpoint "$sts" --audience sts.amazonaws.com --session-name authctl-e2e \
    >"$log/aws-cached.json" 2>"$log/aws-cached.err"
check "aws-credentials: the credential_process document (Version 1, ISO 8601 Expiration), from the cache (no request)" "$py" -c '
import datetime, json, sys
d = json.load(open(sys.argv[1]))
assert d["Version"] == 1 and d["AccessKeyId"].startswith("ASIA") and d["SecretAccessKey"] and d["SessionToken"], d
datetime.datetime.strptime(d["Expiration"], "%Y-%m-%dT%H:%M:%SZ")
assert "http:" not in open(sys.argv[2]).read()
' "$log/aws-cached.json" "$log/aws-cached.err"
"$authctl" -v aws-credentials --role-arn "$role" --sts-endpoint "$sts" --audience sts.amazonaws.com --session-name authctl-e2e \
    --force-refresh >"$log/aws-fresh.json" 2>"$log/aws-fresh.err"
secret="$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["SecretAccessKey"])' "$log/aws-fresh.json")"
session="$("$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["SessionToken"])' "$log/aws-fresh.json")"
check "-v logs the STS request (method, address, status) and nothing secret" \
    sh -c 'grep -q "http: POST http://127.0.0.1:$1/ → 200" "$2" && ! grep -qF -e "$3" -e "$4" -e "$5" "$2"' \
    _ "$moto_port" "$log/aws-fresh.err" "$secret" "$session" "$exchanged"
check "no file but the (sealed) keystore holds the secret key or session token: not the keystore, not ~/.aws, nothing under HOME" \
    sh -c '! grep -rqF -e "$1" -e "$2" "$3"' _ "$secret" "$session" "$HOME"
set +e
"$authctl" aws-credentials --role-arn "$role" --audience sts.amazonaws.com --sts-endpoint "http://127.0.0.1:$(free_port)/" \
    >/dev/null 2>"$log/down.err"
down=$?
"$authctl" aws-credentials --role-arn "$role" --sts-endpoint "http://sts.example.com/" >/dev/null 2>"$log/plain.err"
plain=$?
set -e
check "STS out of reach exits 3; a plain-http STS off loopback exits 2" test "$down" = 3 -a "$plain" = 2

# --- Google: google-auth runs authctl gcp-token, exchanges its token at our own STS ---
sts_port="$(free_port)"
"$py" "$here/sts_server.py" "$sts_port" "$log/google-sts.json" >"$log/google-sts.log" 2>&1 &
google_sts_pid=$!
trap 'status=$?; kill "$google_sts_pid" 2>/dev/null; (exit "$status"); cleanup' EXIT
wait_for "http://127.0.0.1:$sts_port/health" || { cat "$log/google-sts.log" >&2; exit 1; }
gcp_audience="https://gcp.cloud-e2e.test"
google_config() {  # google_config FILE COMMAND
    "$py" - "$1" "$2" "$sts_port" <<'PY'
import json, sys
json.dump({
    "type": "external_account",
    "audience": "//iam.googleapis.com/projects/123456/locations/global/workloadIdentityPools/authctl/providers/authgent",
    "subject_token_type": "urn:ietf:params:oauth:token-type:jwt",
    "token_url": f"http://127.0.0.1:{sys.argv[3]}/v1/token",
    "credential_source": {"executable": {"command": sys.argv[2], "timeout_millis": 30000}},
}, open(sys.argv[1], "w"), indent=2)
PY
}
google_config "$work/google.json" "$authctl gcp-token --audience $gcp_audience"
export GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES=1
check "google-auth: the pluggable credential runs authctl gcp-token and exchanges its JWT at the STS for an access token" \
    "$py" "$here/google_client.py" "$work/google.json" "$log/google-sts.json" "$gcp_audience"
google_config "$work/google-bad.json" "$authctl gcp-token --provider oidc.nowhere"
check "google-auth reports authctl's failure: non-zero exit, success false with code and message" \
    "$py" "$here/google_client.py" "$work/google-bad.json" "$log/google-sts.json" "--expect-failure"
set +e
GOOGLE_EXTERNAL_ACCOUNT_TOKEN_TYPE=urn:ietf:params:oauth:token-type:saml2 "$authctl" gcp-token --audience "$gcp_audience" \
    >"$log/saml.json" 2>/dev/null
saml=$?
set -e
check "gcp-token asked for SAML: success false, exit 2" "$py" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d == {"version": 1, "success": False, "code": "invalid-argument", "message": d["message"]} and sys.argv[2] == "2", (d, sys.argv[2])
' "$log/saml.json" "$saml"

# --- Azure: a federated token file, 0600, the token alone ---
mkdir -p -m 700 "$HOME/.azure"
"$authctl" token --exchange --audience api://AzureADTokenExchange --output-file "$HOME/.azure/federated-token"
check "token --output-file: mode 0600, the exchanged token alone (no newline)" "$py" -c '
import os, stat, sys
path = sys.argv[1]
assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
token = open(path).read()
assert token and "\n" not in token and token.count(".") == 2, repr(token[:20])
' "$HOME/.azure/federated-token"

# --- signout drops them ---
"$authctl" signout -q
set +e
"$authctl" aws-credentials --role-arn "$role" --sts-endpoint "$sts" --audience sts.amazonaws.com --session-name authctl-e2e \
    >"$log/after-signout.json" 2>/dev/null
after=$?
set -e
check "after signout, aws-credentials prints nothing and exits 16 (no-current-user)" \
    sh -c '[ "$1" = 16 ] && [ ! -s "$2" ]' _ "$after" "$log/after-signout.json"
check "no token or secret reached stderr of any command" \
    sh -c '! cat "$1"/*.err | grep -qF -e "$2" -e "$3" -e "$4" -e "$5"' _ "$log" "$secret" "$session" "$exchanged" "$CLOUD_CLIENT_SECRET"
summary

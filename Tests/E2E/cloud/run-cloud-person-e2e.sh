#!/usr/bin/env bash
# Cloud credentials for a person (docs/cloud.md): ada signs in at django-oauth-toolkit 3.4.1
# (../django_provider, through the scripted browser) and her ID token goes, as it is, to
# moto's STS through the AWS CLI's credential_process, and to google-auth's pluggable
# credential; `exec --id-token` keeps Azure's token file. DOT serves no token exchange, which
# authctl reports as the provider's refusal. The authgent workload side is run-cloud-e2e.sh.
# It ends with "N passed, M failed".
#
#   run-cloud-person-e2e.sh PATH-TO-AUTHCTL
set -euo pipefail
authctl="$(realpath "${1:?usage: run-cloud-person-e2e.sh PATH-TO-AUTHCTL}")"
here="$(cd "$(dirname "$0")" && pwd)"
e2e="$here/.."
source "$e2e/lib.sh"

cloud_venv="${XDG_CACHE_HOME:-$HOME/.cache}/authctl-e2e/venv-cloud"
python_venv "$cloud_venv" "awscli, moto, google.auth, requests" \
    "awscli==1.45.11" "moto[server]==5.2.1" "google-auth==2.63.0" "requests==2.34.2"
py="$cloud_venv/bin/python"

# The provider, as run-django-e2e.sh starts it: its secrets generated now (lib.sh).
django_provider_state
cd "$e2e/django_provider"
"$dot_python" manage.py migrate --verbosity 0
client_id="$("$dot_python" bootstrap.py | head -n 1)"
dot_port="$(free_port)"
start_provider "$work/provider.log" "$dot_python" manage.py runserver "127.0.0.1:$dot_port" --noreload --verbosity 0
issuer="http://127.0.0.1:$dot_port/o"
wait_for "$issuer/.well-known/openid-configuration"
cd "$here"

# moto (STS) and the Google-shaped STS, stopped with the provider.
log="$work/log"
mkdir -p "$log"
moto_port="$(free_port)"
"$cloud_venv/bin/moto_server" -H 127.0.0.1 -p "$moto_port" >"$log/moto.log" 2>&1 &
moto_pid=$!
google_port="$(free_port)"
"$py" "$here/sts_server.py" "$google_port" "$log/google-sts.json" "urn:ietf:params:oauth:token-type:id_token" >"$log/google.log" 2>&1 &
google_pid=$!
trap 'status=$?; kill "$moto_pid" "$google_pid" 2>/dev/null; (exit "$status"); cleanup' EXIT
wait_for "http://127.0.0.1:$moto_port/moto-api/"
wait_for "http://127.0.0.1:$google_port/health"

private_home
unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN AWS_PROFILE AWS_DEFAULT_PROFILE AWS_CONFIG_FILE \
    AWS_SHARED_CREDENTIALS_FILE GOOGLE_APPLICATION_CREDENTIALS AWS_ENDPOINT_URL
mkdir -p -m 700 "$HOME"
"$authctl" providers add oidc.dot --issuer "$issuer" --client-id "$client_id" >/dev/null
check "ada signs in at django-oauth-toolkit through the browser" \
    sh -c '"$1" login oidc.dot --browser-command "python3 $2/scripted_browser.py" --timeout 60 >/dev/null 2>"$3/login.err"' \
    _ "$authctl" "$e2e" "$log"
id_token="$("$authctl" token --id-token)"

# AWS: her ID token, as it is, is the web identity token.
sts="http://127.0.0.1:$moto_port/"
role="arn:aws:iam::123456789012:role/ada-dev"
mkdir -p -m 700 "$HOME/.aws"
cat >"$HOME/.aws/config" <<CONFIG
[profile ada]
region = us-east-1
credential_process = $authctl aws-credentials --role-arn $role --sts-endpoint $sts
CONFIG
caller="$("$cloud_venv/bin/aws" --profile ada --endpoint-url "$sts" sts get-caller-identity --output json 2>"$log/aws.err")" ||
    cat "$log/aws.err" >&2
uid="$("$authctl" status --json | "$py" -c 'import json, sys; print(json.load(sys.stdin)["user"]["uid"])')"
check "aws sts get-caller-identity (credential_process, the ID token) shows the role and the default session name authctl-UID" \
    "$py" -c '
import json, sys
arn = json.loads(sys.argv[1])["Arn"]
assert arn == "arn:aws:sts::123456789012:assumed-role/ada-dev/authctl-" + sys.argv[2][:56], arn
' "$caller" "$uid"

# Google: the ID token, type id_token, exchanged at the Google-shaped STS.
"$py" - "$work/google.json" "$authctl gcp-token" "$google_port" <<'PY'
import json, sys
json.dump({
    "type": "external_account",
    "audience": "//iam.googleapis.com/projects/123456/locations/global/workloadIdentityPools/corp/providers/dot",
    "subject_token_type": "urn:ietf:params:oauth:token-type:id_token",
    "token_url": f"http://127.0.0.1:{sys.argv[3]}/v1/token",
    "credential_source": {"executable": {"command": sys.argv[2], "timeout_millis": 30000}},
}, open(sys.argv[1], "w"), indent=2)
PY
check "google-auth runs authctl gcp-token and gives her ID token (type id_token) to the STS" \
    env GOOGLE_EXTERNAL_ACCOUNT_ALLOW_EXECUTABLES=1 "$py" "$here/google_client.py" "$work/google.json" "$log/google-sts.json" \
    "--token=$id_token"

# Azure: exec keeps the ID token in AUTHCTL_TOKEN_FILE for the child.
check "exec --id-token: the child reads the ID token from AZURE_FEDERATED_TOKEN_FILE=\$AUTHCTL_TOKEN_FILE" \
    sh -c '"$1" exec --id-token -- sh -c '\''AZURE_FEDERATED_TOKEN_FILE="$AUTHCTL_TOKEN_FILE"; [ "$(cat "$AZURE_FEDERATED_TOKEN_FILE")" = "$0" ]'\'' "$2"' \
    _ "$authctl" "$id_token"

# DOT has no token exchange: the provider's refusal, exit 4.
set +e
"$authctl" token --exchange --audience https://api.example.test >/dev/null 2>"$log/exchange.err"
status=$?
set -e
check "token --exchange at a provider without RFC 8693: exit 4, the provider's refusal and what to enable" \
    sh -c '[ "$1" = 4 ] && grep -q "token exchange" "$2"' _ "$status" "$log/exchange.err"
check "no token reached stderr" sh -c '! cat "$1"/*.err | grep -qF "$2"' _ "$log" "$id_token"
summary

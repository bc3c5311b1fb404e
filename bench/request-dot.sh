#!/usr/bin/env bash
# `authctl request URL` against curl with django-oauth-toolkit 3.4.1 as the resource server
# (issue 37's own setting): the same Django project the E2E tests start
# (Tests/E2E/django_provider), with one more route, `/api/hello`, a DOT `ProtectedResourceView`
# that checks the bearer token in DOT's database on every request. The token is made in that
# database at run time (never committed) and stored as the grant of a one-user keystore; then
# paired timings as bench/request-paired.sh takes them (installed layout: the front, the request
# program, the stripped full program), and peak RSS. The server's own time is in both figures.
# Usage: [FRONT=.build/front-release/authctl] bench/request-dot.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
runs="${1:-100}"
release="${AUTHCTL_UNSTRIPPED:-.build/$(uname -m)-unknown-linux-gnu/release/authctl}"
front="${FRONT:-.build/front-release/authctl}"
[[ -x "$release" && -x "$front" ]] || { echo "request-dot: build $release and $front (scripts/build-release.sh) first" >&2; exit 1; }
source Tests/E2E/lib.sh
django_provider_state
chmod 700 "$work"
mkdir -p "$work/inst/bin" "$work/inst/lib/authctl" "$work/ks" "$work/site"
chmod 700 "$work/ks"
cp "$front" "$work/inst/bin/authctl"
cp "$(dirname "$front")/authctl-request" "$work/inst/lib/authctl/authctl-request"
strip --strip-all -o "$work/inst/lib/authctl/authctl" "$release"
# The project's settings and routes, and the protected route.
cat >"$work/site/bench_dot_settings.py" <<'PY'
from provider_site.settings import *  # noqa: F401,F403

ROOT_URLCONF = "bench_dot_urls"
PY
cat >"$work/site/bench_dot_urls.py" <<'PY'
from django.http import JsonResponse
from django.urls import path
from oauth2_provider.views.generic import ProtectedResourceView
from provider_site.urls import urlpatterns as provider_patterns


class Hello(ProtectedResourceView):
    def get(self, request, *args, **kwargs):
        return JsonResponse({"jsonrpc": "2.0", "id": 1, "result": {"ok": True}})


urlpatterns = provider_patterns + [path("api/hello", Hello.as_view())]
PY
port="$(free_port)"
export E2E_ISSUER="http://127.0.0.1:$port/o" DJANGO_SETTINGS_MODULE=bench_dot_settings
export PYTHONPATH="$work/site:$root/Tests/E2E/django_provider"
cd "$root/Tests/E2E/django_provider"
"$dot_python" manage.py migrate --verbosity 0
"$dot_python" bootstrap.py >/dev/null
token="$("$dot_python" - <<'PY'
import datetime, secrets
import django
django.setup()
from django.contrib.auth import get_user_model
from oauth2_provider.models import AccessToken, Application
token = secrets.token_urlsafe(32)
user = get_user_model().objects.get(username="ada")
AccessToken.objects.create(user=user, token=token, application=Application.objects.get(name="authctl"), scope="read",
                           expires=datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=2))
print(token)
PY
)"
start_provider "$work/provider.log" "$dot_python" manage.py runserver "127.0.0.1:$port" --noreload --verbosity 0
cd "$root"
wait_for "$E2E_ISSUER/.well-known/openid-configuration"
url="http://127.0.0.1:$port/api/hello"
python3 bench/make-keystore.py 1 "$work/ks/keystore.json" >/dev/null
python3 - "$work/ks/keystore.json" "http://127.0.0.1:$port/api" "$token" <<'PY'
import json, os, sys
path, resource, token = sys.argv[1:]
document = json.load(open(path))
document["users"][0]["resourceGrants"] = [{
    "resource": resource, "issuer": os.environ["E2E_ISSUER"], "providerId": "oidc.dot", "grantedAt": "2026-11-29T00:00:00Z",
    "tokens": {"accessToken": token, "tokenType": "Bearer", "expiresAt": "2099-12-31T23:59:59Z", "scopes": ["read"]}}]
with open(os.open(path + ".new", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
    json.dump(document, f)
os.replace(path + ".new", path)
PY
printf '{"version": 1, "providers": {}}' >"$work/ks/config.json"
chmod 600 "$work/ks/config.json"
request=("$work/inst/bin/authctl" request "$url" --keystore "$work/ks/keystore.json" --config "$work/ks/config.json")
# The header file keeps the token off curl's command line (other local users can read it).
printf 'Authorization: Bearer %s\n' "$token" >"$work/header"
chmod 600 "$work/header"
curl_command=(curl -s -H "@$work/header" "$url")
cmp <("${request[@]}") <("${curl_command[@]}") || { echo "request-dot: authctl and curl got different answers" >&2; exit 1; }
"${request[@]}" | grep -q '"ok": true' || { echo "request-dot: the protected route did not take the token" >&2; exit 1; }
json() { python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$@"; }
full=("$work/inst/lib/authctl/authctl" "${request[@]:1}")
python3 bench/measure-paired.py "$runs" "curl=$(json "${curl_command[@]}")" "request=$(json "${request[@]}")" \
    "full-program=$(json "${full[@]}")"
for name in curl request full-program; do
    case "$name" in
        curl) command=("${curl_command[@]}") ;;
        request) command=("${request[@]}") ;;
        *) command=("${full[@]}") ;;
    esac
    /usr/bin/time -v "${command[@]}" 2>&1 >/dev/null | sed -n "s/.*Maximum resident set size (kbytes): /peak RSS $name (KiB): /p"
done

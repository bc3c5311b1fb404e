#!/usr/bin/env bash
# `authctl request URL` against curl sending the same bearer token to the same local resource
# (issue 37: the target is ≤ 1.3× curl), paired (bench/measure-paired.py: one of each in turn,
# RUNS rounds), installed as the packages install it (the front as bin/authctl, which runs
# lib/authctl/authctl-request for a cached bearer grant, and the stripped release full program
# as lib/authctl/authctl), a keystore of
# one user holding a valid bearer grant for the resource. The resource is a Python HTTP server
# on 127.0.0.1 answering a small file, the same for both (its own cost is in both figures).
# Then instruction counts (callgrind, when valgrind is installed; the full program's own
# breakdown with `strip --strip-debug`, since valgrind cannot read lld's debug information)
# and peak RSS (/usr/bin/time -v).
# Usage: [AUTHCTL_UNSTRIPPED=release/authctl] [FRONT=.build/front-release/authctl] bench/request-paired.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-200}"
release="${AUTHCTL_UNSTRIPPED:-.build/$(uname -m)-unknown-linux-gnu/release/authctl}"
front="${FRONT:-.build/front-release/authctl}"
[[ -x "$release" && -x "$front" ]] || { echo "request-paired: build $release and $front (scripts/build-release.sh) first" >&2; exit 1; }
command -v curl >/dev/null || { echo "request-paired: curl is needed" >&2; exit 1; }
work="$(mktemp -d)"
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
chmod 700 "$work"
mkdir -p "$work/inst/bin" "$work/inst/lib/authctl" "$work/ks" "$work/www"
chmod 700 "$work/ks"
cp "$front" "$work/inst/bin/authctl"
# The request program (docs/front.md), which the front runs for a cached bearer grant.
cp "$(dirname "$front")/authctl-request" "$work/inst/lib/authctl/authctl-request"
strip --strip-all -o "$work/inst/lib/authctl/authctl" "$release"
strip --strip-debug -o "$work/authctl-symbols" "$release"
printf '{"jsonrpc": "2.0", "id": 1, "result": {"ok": true}}\n' >"$work/www/mcp"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
(cd "$work/www" && exec python3 -m http.server "$port" --bind 127.0.0.1) >"$work/server.log" 2>&1 &
server_pid=$!
url="http://127.0.0.1:$port/mcp"
for _ in $(seq 1 50); do curl -s -o /dev/null "$url" && break; sleep 0.1; done
python3 bench/make-keystore.py 1 "$work/ks/keystore.json" >/dev/null
token="grant-$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')"
python3 - "$work/ks/keystore.json" "$url" "$token" <<'PY'
import json, os, sys
path, url, token = sys.argv[1:]
document = json.load(open(path))
document["users"][0]["resourceGrants"] = [{
    "resource": url, "issuer": "https://auth.example.com", "providerId": "oidc.bench", "grantedAt": "2026-11-28T00:00:00Z",
    "tokens": {"accessToken": token, "tokenType": "Bearer", "expiresAt": "2099-12-31T23:59:59Z", "scopes": ["mcp:read"]}}]
with open(os.open(path + ".new", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
    json.dump(document, f)
os.replace(path + ".new", path)
PY
printf '{"version": 1, "providers": {}}' >"$work/ks/config.json"
chmod 600 "$work/ks/config.json"
authctl="$work/inst/bin/authctl"
request=("$authctl" request "$url" --keystore "$work/ks/keystore.json" --config "$work/ks/config.json")
# The header file keeps the token off curl's command line (other local users can read it).
printf 'Authorization: Bearer %s\n' "$token" >"$work/header"
chmod 600 "$work/header"
curl_command=(curl -s -H "@$work/header" "$url")
cmp <("${request[@]}") <("${curl_command[@]}") || { echo "request-paired: authctl and curl got different answers" >&2; exit 1; }
json() { python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$@"; }
# The full program alone (what `request` cost before the request program, issue 37's first figure).
full=("$work/inst/lib/authctl/authctl" "${request[@]:1}")
python3 bench/measure-paired.py "$runs" "curl=$(json "${curl_command[@]}")" "request=$(json "${request[@]}")" \
    "full-program=$(json "${full[@]}")"
if command -v valgrind >/dev/null; then
    count() {
        rm -f "$work"/cg.*
        valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/cg.%p" "$@" >/dev/null 2>"$work/valgrind.log"
        awk '/^totals:|^summary:/ { sum += $2; nextfile } END { print sum }' "$work"/cg.*
    }
    echo "instructions: curl $(count "${curl_command[@]}"), request $(count "${request[@]}"), full program $(count "${full[@]}")"
    # The full program's own parts, by inclusive cost (the symbols of the unstripped build).
    rm -f "$work"/cg.*
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.symbols" "$work/authctl-symbols" request "$url" \
        --keystore "$work/ks/keystore.json" --config "$work/ks/config.json" >/dev/null 2>"$work/valgrind.log"
    callgrind_annotate --inclusive=yes "$work/cg.symbols" 2>/dev/null | swift demangle --simplified |
        grep -E 'PROGRAM TOTALS|LibCurl.shared|AuthctlInvocation.parse\(\)|KeystoreFile.init\(from:\)|Wiring.configuredSecrets|ResourceRequest.run' |
        sed 's/\[.*//' | head -8
fi
for name in curl request full-program; do
    case "$name" in
        curl) command=("${curl_command[@]}") ;;
        request) command=("${request[@]}") ;;
        *) command=("${full[@]}") ;;
    esac
    /usr/bin/time -v "${command[@]}" 2>&1 >/dev/null | sed -n "s/.*Maximum resident set size (kbytes): /peak RSS $name (KiB): /p"
done

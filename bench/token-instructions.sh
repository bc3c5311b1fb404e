#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind: stable on a shared machine, where wall times
# are not) of the commands that answer from the keystore, for one or more authctl binaries
# side by side (bench/README.md, issue 24):
#   token (1 and 1,000 users), token sealed with a key file (1 and 1,000 users),
#   token --format kubectl-exec, status, git-credential get (https remote), and token with
#   five rules in config.json (docs/identities.md): none holds; the fifth chooses another
#   user by uid; by email (issue 29); token for a user holding a resource's grant, and
#   token --resource URL --format header (issue 37).
# A binary may be an installed token front (bin/authctl beside lib/authctl/authctl, docs/front.md):
# the count of a command it hands over includes the full program it executes.
# Usage: bench/token-instructions.sh BINARY [BINARY…]   (needs valgrind and python3)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { echo "usage: $0 BINARY [BINARY…]" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"
for users in 1 1000; do
    python3 bench/make-keystore.py "$users" "$work/keystore-$users.json" >/dev/null
    cp -p "$work/keystore-$users.json" "$work/sealed-$users.json"
    [[ -s "$work/keystore.key" ]] || (umask 077; "$1" keystore new-key >"$work/keystore.key")
    HOME="$work" "$1" keystore seal --keystore "$work/sealed-$users.json" --key-file "$work/keystore.key" -q
done
mkdir -p "$work/xdg"
# Two users, the second record another user; five rules: four that do not hold (a directory,
# a git remote — this checkout's config is read —, a kube context, a variable), then one that
# holds everywhere and names the other user, by uid or by email; or no rule that holds.
python3 bench/make-keystore.py 2 "$work/keystore-2.json" >/dev/null
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
users = json.load(open(f"{work}/keystore-2.json"))["users"]
other = users[1]
def rules(last):
    return [
        {"name": "work", "user": other["uid"], "directory": "~/work/"},
        {"name": "contoso", "user": other["uid"], "remote": "https://dev.azure.com/contoso/**"},
        {"name": "prod", "user": other["uid"], "kubeContext": "prod-*"},
        {"name": "ci", "user": other["uid"], "env": "AUTHCTL_BENCH_NEVER_SET"},
        last,
    ]
# One user who also holds a resource's grant (`login URL`, docs/resources.md): its bearer token, valid until 2099.
document = json.load(open(f"{work}/keystore-1.json"))
document["users"][0]["resourceGrants"] = [{
    "resource": "https://api.example.com/mcp", "issuer": "https://auth.example.com", "providerId": "oidc.bench",
    "grantedAt": "2026-11-28T00:00:00Z", "tokens": {"accessToken": "grant-" + "a" * 40, "tokenType": "Bearer",
    "expiresAt": "2099-12-31T23:59:59Z", "refreshToken": "grant-rt", "scopes": ["mcp:read"]}}]
fd = os.open(f"{work}/keystore-grant.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
with os.fdopen(fd, "w") as f:
    json.dump(document, f, indent=2, sort_keys=True)
fd = os.open(f"{work}/providers.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
with os.fdopen(fd, "w") as f:
    json.dump({"version": 1, "providers": {"oidc.bench": {"id": "oidc.bench", "clientId": "bench", "issuer": "https://auth.example.com",
              "scopes": ["offline_access"]}}}, f, indent=2, sort_keys=True)
for name, last in [("none", {"name": "five", "user": other["uid"], "env": "AUTHCTL_BENCH_NEVER_SET_EITHER"}),
                   ("uid", {"name": "five", "user": other["uid"], "directory": "/"}),
                   ("provider", {"name": "five", "user": other["uid"], "provider": "oidc.bench", "directory": "/"}),
                   ("email", {"name": "five", "user": other["email"], "directory": "/"})]:
    path = f"{work}/rules-{name}.json"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump({"version": 1, "providers": {}, "rules": rules(last)}, f, indent=2, sort_keys=True)
PY

# count BINARY STDIN ARGS…: the instructions of one run (callgrind's total).
count() {
    local binary="$1" input="$2"
    shift 2
    rm -f "$work"/callgrind.out.*
    # Children too (the token front, docs/front.md, executes the full program for what it does
    # not answer): the count is the sum of every process's.
    printf '%b' "$input" | HOME="$work" XDG_CONFIG_HOME="$work/xdg" AUTHCTL_KEYSTORE_KEY_FILE="${KEY_FILE:-}" \
        valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/callgrind.out.%p" "$binary" "$@" \
        >/dev/null 2>"$work/valgrind.log" ||
        { echo "$binary $* failed:" >&2; cat "$work/valgrind.log" >&2; exit 1; }
    awk '/^totals:|^summary:/ { sum += $2; nextfile } END { print sum }' "$work"/callgrind.out.*
}

cases=(
    "token, 1 user|||token --keystore $work/keystore-1.json --config $work/none.json"
    "token, 1,000 users|||token --keystore $work/keystore-1000.json --config $work/none.json"
    "token sealed (key file), 1 user||$work/keystore.key|token --keystore $work/sealed-1.json --config $work/none.json"
    "token sealed (key file), 1,000 users||$work/keystore.key|token --keystore $work/sealed-1000.json --config $work/none.json"
    "token --format kubectl-exec|||token --format kubectl-exec --keystore $work/keystore-1.json --config $work/none.json"
    "status|||status --keystore $work/keystore-1.json --config $work/none.json"
    "git-credential get|protocol=https\\nhost=git.example.com\\n\\n||git-credential oidc.bench --keystore $work/keystore-1.json --config $work/none.json get"
    "token, a config.json without rules|||token --keystore $work/keystore-1.json --config $work/providers.json"
    "token, 2 users|||token --keystore $work/keystore-2.json --config $work/none.json"
    "token, 5 rules, none holds|||token --keystore $work/keystore-2.json --config $work/rules-none.json"
    "token, 5 rules, the 5th: another uid|||token --keystore $work/keystore-2.json --config $work/rules-uid.json"
    "token, 5 rules, the 5th: a uid and a provider|||token --keystore $work/keystore-2.json --config $work/rules-provider.json"
    "token, 5 rules, the 5th: an email|||token --keystore $work/keystore-2.json --config $work/rules-email.json"
    "token, a user holding a grant|||token --keystore $work/keystore-grant.json --config $work/none.json"
    "token --resource URL --format header|||token --resource https://api.example.com/mcp --format header --keystore $work/keystore-grant.json --config $work/none.json"
)
printf '%-40s' case
for binary in "$@"; do printf ' %16s' "$(basename "$(dirname "$binary")")"; done
echo
for entry in "${cases[@]}"; do
    IFS='|' read -r name input key args <<<"$entry"
    printf '%-40s' "$name"
    for binary in "$@"; do
        # shellcheck disable=SC2086 # the arguments are words without spaces
        KEY_FILE="$key" printf ' %16s' "$(KEY_FILE="$key" count "$binary" "$input" $args | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')"
    done
    echo
done

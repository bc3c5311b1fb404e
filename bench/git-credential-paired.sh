#!/usr/bin/env bash
# `authctl git-credential PROVIDER get` answered by the front (issue 37, docs/front.md) against
# `git credential-cache get` (git's own in-memory cache: the target is ≤ 1.0× it), against
# the full program answering it directly, and against the front handing it over (what ran
# before issue 37, when the front handed every git-credential over: `--keystore=PATH`, a form
# the front leaves to the full program, gives the same answer through the hand-over), paired (bench/measure-paired.py: one of each in turn, RUNS rounds),
# installed as the packages install it (the front as bin/authctl, the stripped release full
# program as lib/authctl/authctl), a keystore of 1 user with a valid token, git announcing
# `capability[]=authtype`. Then instruction counts (callgrind, when valgrind is installed) and
# peak RSS (/usr/bin/time -v).
# Usage: [AUTHCTL_UNSTRIPPED=release/authctl] [FRONT=.build/front/authctl] bench/git-credential-paired.sh [RUNS]
#   (defaults: scripts/build-release.sh's .build/x86_64-unknown-linux-gnu/release/authctl, the
#   front scripts/build-front.sh built; RUNS 300).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-300}"
release="${AUTHCTL_UNSTRIPPED:-.build/$(uname -m)-unknown-linux-gnu/release/authctl}"
front="${FRONT:-.build/front/authctl}"
[[ -x "$release" && -x "$front" ]] || { echo "git-credential-paired: build $release (scripts/build-release.sh) and $front (scripts/build-front.sh) first" >&2; exit 1; }
work="$(mktemp -d)"
socket="$work/cache/socket"
cleanup() {
    git credential-cache --socket "$socket" exit 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
chmod 700 "$work"
mkdir -p "$work/inst/bin" "$work/inst/lib/authctl" "$work/ks" "$work/cache"
chmod 700 "$work/ks" "$work/cache"
cp "$front" "$work/inst/bin/authctl"
strip --strip-all -o "$work/inst/lib/authctl/authctl" "$release"
python3 bench/make-keystore.py 1 "$work/ks/keystore.json" >/dev/null
chmod 600 "$work/ks/keystore.json"
authctl="$work/inst/bin/authctl"
full="$work/inst/lib/authctl/authctl"
printf 'capability[]=authtype\nprotocol=https\nhost=git.example.com\n\n' >"$work/get"
# git's cache, holding a credential for the same host (stored once, then only read).
"$authctl" git-credential oidc.bench get --keystore "$work/ks/keystore.json" <"$work/get" >"$work/answer"
grep -q '^credential=' "$work/answer" || { echo "git-credential-paired: the front did not answer" >&2; exit 1; }
{ printf 'protocol=https\nhost=git.example.com\nusername=u\npassword='; sed -n 's/^credential=//p' "$work/answer"; printf '\n'; } |
    git credential-cache --socket "$socket" --timeout 3600 store
git credential-cache --socket "$socket" get <"$work/get" | grep -q '^password=' || { echo "git-credential-paired: git's cache answered nothing" >&2; exit 1; }
args=(git-credential oidc.bench get --keystore "$work/ks/keystore.json")
json() { python3 -c 'import json,sys; print(json.dumps(sys.argv[1:]))' "$@"; }
python3 bench/measure-paired.py "$runs" \
    "git-credential-cache=$(json "<$work/get" git credential-cache --socket "$socket" get)" \
    "authctl-front=$(json "<$work/get" "$authctl" "${args[@]}")" \
    "full-program=$(json "<$work/get" "$full" "${args[@]}")" \
    "handed-over=$(json "<$work/get" "$authctl" git-credential oidc.bench get "--keystore=$work/ks/keystore.json")" |
    python3 -c '
import json, sys
for name, r in json.load(sys.stdin).items():
    m, lo, hi, q = r["median_ms"], r["p10_ms"], r["p90_ms"], r["median_ratio_to_first"]
    print(f"{name:22} median {m:.3f} ms (p10 {lo:.3f}, p90 {hi:.3f})  paired ratio to git credential-cache {q:.3f}")'
for name in authctl-front full-program; do
    program="$authctl"; [[ "$name" == full-program ]] && program="$full"
    rss=$(/usr/bin/time -v "$program" "${args[@]}" <"$work/get" 2>&1 >/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p')
    line="$name: peak RSS ${rss} KiB"
    if command -v valgrind >/dev/null; then
        valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$program" "${args[@]}" <"$work/get" >/dev/null 2>"$work/cg.log"
        line+=", $(sed -n 's/.*Collected : //p' "$work/cg.log") instructions"
    fi
    echo "$line"
done

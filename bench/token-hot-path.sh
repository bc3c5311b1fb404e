#!/usr/bin/env bash
# The `authctl token` hot path against its floors and its fastest peer (bench/README.md), in one run:
#   - authctl: release build with the Swift standard library linked statically, stripped —
#     the binary scripts/install.sh and package.sh ship;
#   - floor-ess: keystore-floor-essentials, a minimal Swift program that reads and decodes
#     the same keystore with FoundationEssentials only (authctl's floor since issue 14);
#     floor: the same with all of Foundation; floor+net: that, linked with FoundationNetworking;
#   - oidc-token (Debian's oidc-agent-cli), when installed: its agent holds the token in
#     memory. The agent gets its token from a fake issuer on 127.0.0.1 (fake-issuer.py),
#     which is stopped before anything is timed: every timed call is answered from memory;
#   - before (BEFORE=/path/to/authctl): an earlier authctl binary, timed side by side;
#   - authctl-sealed: the same binary on the same keystore sealed with a key file (issue 16:
#     ≤ 1.3× authctl), the key given through AUTHCTL_KEYSTORE_KEY_FILE;
#   - keystores of 1, 100 and 1,000 users whose tokens are valid (no refresh, no network);
#   - median wall time over RUNS runs and peak RSS of each, the binary's size, and the
#     targets of issue 14: stripped ≤ 25 MB and no ICU; authctl / floor-ess at 1 user ≤ 1.2;
#     authctl 1,000 / 1 users ≤ 1.5; peak RSS ≤ 15 MiB.
# Then issue 24's table (bench/README.md): paired runs (one of each in turn, RUNS rounds) of
# authctl's commands that answer from the keystore beside oidc-token and the C floor
# (bench/c-floor.c, static and dynamic), their instruction counts (callgrind, when valgrind
# is installed), peak RSS, and issue 24's targets: token ≤ 0.6× oidc-token at 1 and 1,000
# users, ≤ 2.0 M instructions, sealed ≤ 1.15× plaintext, ≤ 8 MiB, ≤ 25 MB, 1→1,000 users
# ≤ 1.1×, a PIE.
# Usage: [BEFORE=BINARY] [AUTHCTL_UNSTRIPPED=BINARY] bench/token-hot-path.sh [RUNS]   (default 300).
# Not part of CI: it builds in release (authctl too, unless AUTHCTL_UNSTRIPPED names a release
# build of scripts/build-release.sh's flags).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-300}"
before="${BEFORE:-}"
# The flags of scripts/build-release.sh, for authctl and the floors alike.
static_cxx="$(scripts/static-cxx-dir.sh)"
flags=(-c release --static-swift-stdlib --disable-local-rpath -Xlinker --no-export-dynamic -Xswiftc -Osize
    -Xswiftc -L"$static_cxx" -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
    -Xswiftc -use-ld=lld -Xlinker --symbol-ordering-file="$PWD/scripts/authctl-hot-path.order" -Xlinker --no-warn-symbol-ordering)
if [[ -n "${AUTHCTL_UNSTRIPPED:-}" ]]; then
    # A release binary built already (scripts/build-release.sh's .build/…/release/authctl, unstripped).
    authctl_unstripped="$AUTHCTL_UNSTRIPPED"
else
    echo "building authctl (release, static Swift standard library)…" >&2
    swift build "${flags[@]}" --product authctl --scratch-path .build-bench >/dev/null
    authctl_unstripped="$(swift build "${flags[@]}" --scratch-path .build-bench --show-bin-path)/authctl"
fi
echo "building the floors (release, static Swift standard library)…" >&2
swift build "${flags[@]}" --package-path bench/floor --scratch-path .build-bench-floor >/dev/null
floor_bin="$(swift build "${flags[@]}" --package-path bench/floor --scratch-path .build-bench-floor --show-bin-path)"

work="$(mktemp -d)"
agent_pid=""
cleanup() {
    [[ -n "$agent_pid" ]] && kill "$agent_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
chmod 700 "$work"
# Installed as the packages install it (docs/front.md): the token front as bin/authctl, the full
# program (stripped) as lib/authctl/authctl. "authctl" below is the front: what a user runs.
mkdir -p "$work/inst/bin" "$work/inst/lib/authctl"
core="$work/inst/lib/authctl/authctl"
strip --strip-all -o "$core" "$authctl_unstripped"
echo "building the token front (scripts/build-front.sh)…" >&2
cp "$(scripts/build-front.sh "$work/front-build")" "$work/inst/bin/authctl"
authctl="$work/inst/bin/authctl"

# oidc-token: an agent of its own (no config of the user's is read), one account, its token
# fetched once from the fake issuer, which is then stopped.
oidc_token=""
if command -v oidc-agent >/dev/null && command -v oidc-gen >/dev/null && command -v oidc-token >/dev/null; then
    export OIDC_CONFIG_DIR="$work/oidc-agent"
    oidc_expected="bench-$(head -c 600 /dev/urandom | base64 -w0 | tr '+/' '-_' | head -c 1200)"
    python3 bench/fake-issuer.py "$oidc_expected" >"$work/issuer-url" &
    issuer_pid=$!
    for _ in $(seq 50); do [[ -s "$work/issuer-url" ]] && break; sleep 0.1; done
    eval "$(HOME="$work" oidc-agent --no-autoload --lifetime=0 2>/dev/null)" >/dev/null
    agent_pid="${OIDCD_PID:-}"
    HOME="$work" OIDC_ENCRYPTION_PW=bench oidc-gen bench --iss="$(cat "$work/issuer-url")" --client-id=bench --client-secret=bench \
        --rt=bench --flow=refresh --scope=openid --pw-env --confirm-default --prompt=none --no-url-call >/dev/null 2>&1 || true
    kill "$issuer_pid"
    wait "$issuer_pid" 2>/dev/null || true
    if [[ "$(HOME="$work" oidc-token bench 2>/dev/null)" == "$oidc_expected" ]]; then
        oidc_token="$(command -v oidc-token)"
    else
        echo "oidc-agent did not answer from memory; oidc-token is left out" >&2
    fi
else
    echo "oidc-agent-cli is not installed (apt-get install oidc-agent-cli); oidc-token is left out" >&2
fi

declare -A median rss
printf '%-8s %-10s %10s %10s %10s %12s\n' users program median_ms p10_ms p90_ms peak_rss_MiB
for users in 1 100 1000; do
    keystore="$work/keystore-$users.json"
    expected="$(python3 bench/make-keystore.py "$users" "$keystore")"
    programs=(authctl authctl-sealed)
    # The same keystore sealed with a key file (issue 16): token with AUTHCTL_KEYSTORE_KEY_FILE.
    sealed_keystore="$work/keystore-$users-sealed.json"
    cp -p "$keystore" "$sealed_keystore"
    [[ -s "$work/keystore.key" ]] || { (umask 077; "$authctl" keystore new-key >"$work/keystore.key"); }
    HOME="$work" "$authctl" keystore seal --keystore "$sealed_keystore" --key-file "$work/keystore.key" -q
    [[ -n "$before" ]] && programs+=(before)
    programs+=(floor-ess floor floor+net)
    # oidc-token's cost does not depend on authctl's keystore: timed once, beside 1 user.
    [[ -n "$oidc_token" && "$users" == 1 ]] && programs+=(oidc-token)
    for program in "${programs[@]}"; do
        case $program in
            authctl) cmd=(env HOME="$work" "$authctl" token --keystore "$keystore" --config "$work/none.json") ;;
            authctl-sealed)
                cmd=(env HOME="$work" AUTHCTL_KEYSTORE_KEY_FILE="$work/keystore.key" "$authctl" token --keystore "$sealed_keystore"
                    --config "$work/none.json") ;;
            before) cmd=(env HOME="$work" "$before" token --keystore "$keystore" --config "$work/none.json") ;;
            floor-ess) cmd=("$floor_bin/keystore-floor-essentials" "$keystore") ;;
            floor) cmd=("$floor_bin/keystore-floor" "$keystore") ;;
            floor+net) cmd=("$floor_bin/keystore-floor-networking" "$keystore") ;;
            oidc-token) cmd=(env HOME="$work" OIDC_SOCK="$OIDC_SOCK" "$oidc_token" bench) ;;
        esac
        # Each must print the right token, from memory or the keystore alone.
        want="$expected"
        [[ "$program" == oidc-token ]] && want="$oidc_expected"
        [[ "$("${cmd[@]}")" == "$want" ]] || { echo "$program did not print the expected token" >&2; exit 1; }
        # measure.py sets the leading VAR=VALUE words itself: `env` is not timed (its exec
        # costs about 0.3 ms, which the floors, run directly, do not pay).
        [[ "${cmd[0]}" == env ]] && cmd=("${cmd[@]:1}")
        result="$(python3 bench/measure.py "$runs" "${cmd[@]}")"
        median[$program-$users]="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["median_ms"])' "$result")"
        rss[$program-$users]="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["peak_rss_kib"])' "$result")"
        python3 -c '
import json, sys
r = json.loads(sys.argv[3])
print("%-8s %-10s %10.2f %10.2f %10.2f %12.1f" % (sys.argv[1], sys.argv[2], r["median_ms"], r["p10_ms"], r["p90_ms"], r["peak_rss_kib"] / 1024))
' "$users" "$program" "$result"
    done
done

# ICU leaves its data package name (icudtNNl), `ucol_` and FoundationInternationalization's
# metadata in the strings of a binary, stripped or not.
# (grep -c reads to the end: with -q, strings would die of SIGPIPE and pipefail say "no".)
icu() { if [[ "$(strings -n 6 "$1" | grep -Ec 'icudt[0-9]+[lb]|_ZN6icu|ucol_|icu_[0-9]+::|FoundationInternationalization')" != 0 ]]; then echo yes; else echo no; fi; }
echo
printf '%-10s %14s %14s %5s\n' binary stripped_MB unstripped_MB ICU
printf '%-10s %14.1f %14.1f %5s\n' authctl "$(($(stat -c %s "$core") / 1000))e-3" "$(($(stat -c %s "$authctl_unstripped") / 1000))e-3" "$(icu "$core")"
printf '%-10s %14.1f %14.1f %5s\n' front "$(($(stat -c %s "$authctl") / 1000))e-3" "$(($(stat -c %s "$work/front-build/authctl.unstripped") / 1000))e-3" "$(icu "$authctl")"
[[ -n "$before" ]] && printf '%-10s %14.1f %14s %5s\n' before "$(($(stat -c %s "$before") / 1000))e-3" "" "$(icu "$before")"

python3 - "$(stat -c %s "$core")" "$(icu "$core")" "${median[authctl-1]}" "${median[floor-ess-1]}" "${median[authctl-1000]}" \
    "${rss[authctl-1]}" "${rss[authctl-1000]}" "${median[floor-1]}" "${median[floor+net-1]}" "${median[oidc-token-1]:-0}" \
    "${median[before-1]:-0}" "${median[authctl-sealed-1]}" "${median[authctl-sealed-1000]}" "${median[authctl-1000]}" <<'PY'
import sys
size, icu = int(sys.argv[1]), sys.argv[2]
a1, e1, a1000, rss1, rss1000, f1, n1, o1, b1, s1, s1000, p1000 = map(float, sys.argv[3:])
checks = [
    ("stripped binary (MB)", size / 1e6, 25.0),
    ("authctl / floor-ess at 1 user", a1 / e1, 1.2),
    ("authctl 1,000 users / 1 user", a1000 / a1, 1.5),
    ("authctl peak RSS, 1,000 users (MiB)", max(rss1, rss1000) / 1024, 15.0),
    ("sealed (key file) / plaintext, 1 user", s1 / a1, 1.3),
    ("sealed (key file) / plaintext, 1,000 users", s1000 / p1000, 1.3),
]
print()
print(f"{'ICU in the binary':40s} {icu:>8s}   target no      {'ok' if icu == 'no' else 'MISSED'}")
for name, value, target in checks:
    print(f"{name:40s} {value:8.2f}   target ≤ {target:<5} {'ok' if value <= target else 'MISSED'}")
print(f"{'(authctl / floor at 1 user)':40s} {a1 / f1:8.2f}   full Foundation's floor")
print(f"{'(floor / floor-ess at 1 user)':40s} {f1 / e1:8.2f}   what full Foundation costs a start: +{f1 - e1:.1f} ms")
print(f"{'(floor+net / floor at 1 user)':40s} {n1 / f1:8.2f}   linking FoundationNetworking: +{n1 - f1:.1f} ms")
if o1:
    print(f"{'(authctl / oidc-token)':40s} {a1 / o1:8.2f}   oidc-token asks oidc-agent, which holds the token in memory")
if b1:
    print(f"{'(before / authctl at 1 user)':40s} {b1 / a1:8.2f}")
PY

# Issue 24: paired runs beside oidc-token and the C floor, instruction counts, memory.
echo
echo "issue 24: paired runs ($runs rounds), instructions (callgrind), peak RSS"
cc -O2 -static -o "$work/c-floor-static" bench/c-floor.c
cc -O2 -fPIE -pie -o "$work/c-floor-dynamic" bench/c-floor.c
k1="$work/keystore-1.json"
k1000="$work/keystore-1000.json"
printf 'protocol=https\nhost=git.example.com\n\n' >"$work/git-input"
mkdir -p "$work/xdg"
# name → command (JSON list for measure-paired.py: VAR=VALUE and <STDIN words first).
declare -A commands=(
    [token]="[\"HOME=$work\", \"$authctl\", \"token\", \"--keystore\", \"$k1\", \"--config\", \"$work/none.json\"]"
    [token-1000]="[\"HOME=$work\", \"$authctl\", \"token\", \"--keystore\", \"$k1000\", \"--config\", \"$work/none.json\"]"
    [token-core]="[\"HOME=$work\", \"$core\", \"token\", \"--keystore\", \"$k1\", \"--config\", \"$work/none.json\"]"
    [status-core]="[\"HOME=$work\", \"$core\", \"status\", \"--keystore\", \"$k1\", \"--config\", \"$work/none.json\"]"
    [sealed]="[\"HOME=$work\", \"AUTHCTL_KEYSTORE_KEY_FILE=$work/keystore.key\", \"$authctl\", \"token\", \"--keystore\", \"$work/keystore-1-sealed.json\", \"--config\", \"$work/none.json\"]"
    [sealed-1000]="[\"HOME=$work\", \"AUTHCTL_KEYSTORE_KEY_FILE=$work/keystore.key\", \"$authctl\", \"token\", \"--keystore\", \"$work/keystore-1000-sealed.json\", \"--config\", \"$work/none.json\"]"
    [kubectl-exec]="[\"HOME=$work\", \"$authctl\", \"token\", \"--format\", \"kubectl-exec\", \"--keystore\", \"$k1\", \"--config\", \"$work/none.json\"]"
    [status]="[\"HOME=$work\", \"$authctl\", \"status\", \"--keystore\", \"$k1\", \"--config\", \"$work/none.json\"]"
    [git-credential]="[\"HOME=$work\", \"<$work/git-input\", \"$authctl\", \"git-credential\", \"oidc.bench\", \"--keystore\", \"$k1\", \"--config\", \"$work/none.json\", \"get\"]"
    [c-floor-static]="[\"$work/c-floor-static\", \"$k1\"]"
    [c-floor-dynamic]="[\"$work/c-floor-dynamic\", \"$k1\"]"
)
names=(token token-1000 token-core sealed sealed-1000 kubectl-exec status status-core git-credential c-floor-static c-floor-dynamic)
[[ -n "$oidc_token" ]] && { commands[oidc-token]="[\"HOME=$work\", \"OIDC_SOCK=$OIDC_SOCK\", \"$oidc_token\", \"bench\"]"; names=(oidc-token "${names[@]}"); }
[[ -n "$before" ]] && { commands[before]="[\"HOME=$work\", \"$before\", \"token\", \"--keystore\", \"$k1\", \"--config\", \"$work/none.json\"]"; names+=(before); }
specs=()
for name in "${names[@]}"; do specs+=("$name=${commands[$name]}"); done
paired="$(python3 bench/measure-paired.py "$runs" "${specs[@]}")"

# Instructions of one run of each (valgrind --tool=callgrind); 0 when valgrind is missing.
declare -A instructions
for name in "${names[@]}"; do
    instructions[$name]=0
    command -v valgrind >/dev/null || continue
    instructions[$name]="$(python3 - "${commands[$name]}" "$work/callgrind.out" <<'PY'
import json, os, re, subprocess, sys
argv, out = json.loads(sys.argv[1]), sys.argv[2]
environment, stdin = dict(os.environ), None
while argv and ("=" in argv[0] and not argv[0].startswith("/") or argv[0].startswith("<")):
    word = argv.pop(0)
    if word.startswith("<"):
        stdin = word[1:]
    else:
        key, value = word.split("=", 1)
        environment[key] = value
with open(stdin or os.devnull, "rb") as source:
    result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + argv, stdin=source,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment)
match = re.search(r"Collected : (\d+)", result.stderr)
print(match.group(1) if match else 0)
PY
)"
done
# Peak RSS (GNU time) of token at 1 and 1,000 users, as an installed binary that has run before
# shows it: a binary just written has all its pages in the page cache, and the kernel maps up to
# 64 KiB of cached pages around each page fault (1–2 MiB more). So the binary's pages are first
# dropped from the page cache (posix_fadvise DONTNEED, this file only) and it runs once.
for binary in "$authctl" "$core"; do
    python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$binary"
done
HOME="$work" "$authctl" token --keystore "$k1" --config "$work/none.json" >/dev/null
rss_of() { HOME="$work" /usr/bin/time -f %M "$authctl" token --keystore "$1" --config "$work/none.json" 2>&1 >/dev/null | tail -1; }
pie="$(readelf -h "$authctl" | awk '/Type:/ { print $2 }')"
interp="$(readelf -l "$authctl" | grep -c 'Requesting program interpreter' || true)"
python3 - "$paired" "$(declare -p instructions | sed 's/^declare -A instructions=//')" "$(rss_of "$k1")" "$(rss_of "$k1000")" \
    "$(stat -c %s "$core")" "$pie" "$interp" <<'PY'
import json, re, sys
paired = json.loads(sys.argv[1])
instructions = {k: int(v) for k, v in re.findall(r'\[([^\]]+)\]="(\d+)"', sys.argv[2])}
rss1, rss1000, size, pie, interp = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7]
oidc = paired.get("oidc-token", {}).get("median_ms")
print()
print(f"{'program':18s} {'instructions':>14s} {'median ms':>10s} {'p10':>7s} {'p90':>7s} {'vs oidc-token':>14s}")
for name, r in paired.items():
    count = instructions.get(name, 0)
    versus = f"{r['median_ms'] / oidc:.2f}×" if oidc else "—"
    print(f"{name:18s} {count / 1e6:13.2f}M {r['median_ms']:10.2f} {r['p10_ms']:7.2f} {r['p90_ms']:7.2f} {versus:>14s}")
print()
t, t1000, s, s1000 = (paired[n]["median_ms"] for n in ("token", "token-1000", "sealed", "sealed-1000"))
checks = [
    ("token / oidc-token, 1 user", t / oidc if oidc else float("nan"), 0.6),
    ("token / oidc-token, 1,000 users", t1000 / oidc if oidc else float("nan"), 0.6),
    ("token instructions (M), 1 user", instructions.get("token", 0) / 1e6, 2.0),
    ("token instructions (M), 1,000 users", instructions.get("token-1000", 0) / 1e6, 2.0),
    ("sealed / plaintext, 1 user (wall)", s / t, 1.15),
    ("sealed / plaintext, 1,000 users (wall)", s1000 / t1000, 1.15),
    ("sealed / plaintext (instructions)", instructions.get("sealed", 0) / max(1, instructions.get("token", 0)), 1.15),
    ("1,000 users / 1 user (wall)", t1000 / t, 1.1),
    ("peak RSS of token (MiB)", max(rss1, rss1000) / 1024, 8.0),
    ("stripped full program (MiB, issue 24)", size / 2**20, 25.0),
]
for name, value, target in checks:
    print(f"{name:40s} {value:8.2f}   target ≤ {target:<5} {'ok' if value <= target else 'MISSED'}")
print(f"{'front position-independent (ASLR)':40s} {pie + (', dynamic' if interp != '0' else ', static'):>8s}   target DYN     {'ok' if pie == 'DYN' else 'MISSED'}")
PY

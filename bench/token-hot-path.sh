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
# Usage: [BEFORE=BINARY] bench/token-hot-path.sh [RUNS]   (default 200). Not part of CI: it builds in release.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-200}"
before="${BEFORE:-}"
# The flags of scripts/build-release.sh, for authctl and the floors alike.
flags=(-c release --static-swift-stdlib --disable-local-rpath -Xlinker --no-export-dynamic -Xswiftc -Osize)
echo "building authctl (release, static Swift standard library)…" >&2
swift build "${flags[@]}" --product authctl --scratch-path .build-bench >/dev/null
authctl_unstripped="$(swift build "${flags[@]}" --scratch-path .build-bench --show-bin-path)/authctl"
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
authctl="$work/authctl"
strip --strip-all -o "$authctl" "$authctl_unstripped"

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
printf '%-10s %14.1f %14.1f %5s\n' authctl "$(($(stat -c %s "$authctl") / 1000))e-3" "$(($(stat -c %s "$authctl_unstripped") / 1000))e-3" "$(icu "$authctl")"
[[ -n "$before" ]] && printf '%-10s %14.1f %14s %5s\n' before "$(($(stat -c %s "$before") / 1000))e-3" "" "$(icu "$before")"

python3 - "$(stat -c %s "$authctl")" "$(icu "$authctl")" "${median[authctl-1]}" "${median[floor-ess-1]}" "${median[authctl-1000]}" \
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

#!/usr/bin/env bash
# The `authctl token` hot path against its floor (bench/README.md), in one run:
#   - authctl, release build with the Swift standard library linked statically;
#   - keystore-floor: a minimal Swift program that reads and decodes the same keystore;
#   - keystores of 1, 100 and 1,000 users whose tokens are valid (no refresh, no network);
#   - median wall time over RUNS runs and peak RSS of each, and the ratios to check:
#     authctl/floor at 1 user (target ≤ 2), authctl 1,000/1 users (≤ 1.5), peak RSS (≤ 25 MiB).
# Usage: bench/token-hot-path.sh [RUNS]   (default 200). Not part of CI: it builds in release.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-200}"
echo "building authctl (release, static Swift standard library)…" >&2
swift build -c release --static-swift-stdlib --product authctl --scratch-path .build-bench >/dev/null
authctl="$(swift build -c release --static-swift-stdlib --scratch-path .build-bench --show-bin-path)/authctl"
echo "building the floor (release, static Swift standard library)…" >&2
swift build -c release --static-swift-stdlib --package-path bench/floor --scratch-path .build-bench-floor >/dev/null
floor_bin="$(swift build -c release --static-swift-stdlib --package-path bench/floor --scratch-path .build-bench-floor --show-bin-path)"
floor="$floor_bin/keystore-floor"
floor_net="$floor_bin/keystore-floor-networking"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"
declare -A median rss
printf '%-8s %-10s %10s %10s %10s %12s\n' users program median_ms p10_ms p90_ms peak_rss_MiB
for users in 1 100 1000; do
    keystore="$work/keystore-$users.json"
    expected="$(python3 bench/make-keystore.py "$users" "$keystore")"
    # Both must print the current user's token, from the keystore alone.
    [[ "$(HOME="$work" "$authctl" token --keystore "$keystore" --config "$work/none.json")" == "$expected" ]]
    [[ "$("$floor" "$keystore")" == "$expected" ]]
    [[ "$("$floor_net" "$keystore")" == "$expected" ]]
    for program in authctl floor floor+net; do
        case $program in
            authctl) cmd=(env HOME="$work" "$authctl" token --keystore "$keystore" --config "$work/none.json") ;;
            floor) cmd=("$floor" "$keystore") ;;
            floor+net) cmd=("$floor_net" "$keystore") ;;
        esac
        result="$(python3 bench/measure.py "$runs" "${cmd[@]}")"
        m="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["median_ms"])' "$result")"
        median[$program-$users]="$m"
        rss[$program-$users]="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["peak_rss_kib"])' "$result")"
        python3 -c '
import json, sys
r = json.loads(sys.argv[3])
print("%-8s %-10s %10.2f %10.2f %10.2f %12.1f" % (sys.argv[1], sys.argv[2], r["median_ms"], r["p10_ms"], r["p90_ms"], r["peak_rss_kib"] / 1024))
' "$users" "$program" "$result"
    done
done
python3 - "${median[authctl-1]}" "${median[floor-1]}" "${median[authctl-1000]}" "${median[floor-1000]}" "${rss[authctl-1000]}" \
    "${median[floor+net-1]}" "${rss[floor+net-1]}" "${rss[floor-1]}" <<'PY'
import sys
a1, f1, a1000, f1000, peak, n1, nrss, frss = map(float, sys.argv[1:])
checks = [
    ("authctl / floor at 1 user", a1 / f1, 2.0),
    ("authctl 1,000 users / 1 user", a1000 / a1, 1.5),
    ("authctl peak RSS at 1,000 users (MiB)", peak / 1024, 25.0),
]
print()
for name, value, target in checks:
    print(f"{name:40s} {value:8.2f}   target ≤ {target:<5} {'ok' if value <= target else 'MISSED'}")
print(f"{'(floor 1,000 users / 1 user)':40s} {f1000 / f1:8.2f}")
print(f"{'(floor+net / floor at 1 user)':40s} {n1 / f1:8.2f}   linking FoundationNetworking alone: +{n1 - f1:.1f} ms, +{(nrss - frss) / 1024:.1f} MiB")
PY

#!/usr/bin/env bash
# Writes scripts/authctl-hot-path.order: the functions of BINARY (a release build with its
# symbols, e.g. .build/x86_64-unknown-linux-gnu/release/authctl) that `token` (plaintext,
# sealed with a key file, --format kubectl-exec), `status` and `git-credential get` run,
# in the order callgrind lists them. scripts/build-release.sh hands the file to lld
# (--symbol-ordering-file), which lays those functions out together (bench/README.md,
# issue 24). A name the code no longer has is ignored; run this again after large changes.
# Usage: bench/make-order-file.sh BINARY   (needs valgrind)
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 700 "$work"
# Valgrind cannot read the debug information of the toolchain's output: symbols only.
strip --strip-debug -o "$work/authctl" "$binary"
python3 bench/make-keystore.py 1 "$work/k.json" >/dev/null
cp "$work/k.json" "$work/s.json"
(umask 077; "$work/authctl" keystore new-key >"$work/key")
HOME="$work" "$work/authctl" keystore seal --keystore "$work/s.json" --key-file "$work/key" -q
printf 'protocol=https\nhost=git.example.com\n\n' >"$work/git-input"
run() {
    local input="$1"
    shift
    HOME="$work" valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/out.$#.$RANDOM" "$work/authctl" "$@" \
        <"$input" >/dev/null 2>&1
}
run /dev/null token --keystore "$work/k.json" --config "$work/none.json"
AUTHCTL_KEYSTORE_KEY_FILE="$work/key" run /dev/null token --keystore "$work/s.json" --config "$work/none.json"
run /dev/null token --format kubectl-exec --keystore "$work/k.json" --config "$work/none.json"
run /dev/null status --keystore "$work/k.json" --config "$work/none.json"
run "$work/git-input" git-credential oidc.bench --keystore "$work/k.json" --config "$work/none.json" get
for profile in "$work"/out.*; do
    callgrind_annotate --inclusive=no --threshold=100 "$profile" 2>/dev/null |
        sed -nE 's/^ *[0-9,]+ \([ 0-9.%]+\)  \?\?\?:([^ ]+) \[.*\/authctl\]$/\1/p'
done | grep -v '^0x' | awk '!seen[$0]++' >scripts/authctl-hot-path.order
echo "scripts/authctl-hot-path.order: $(wc -l <scripts/authctl-hot-path.order) functions" >&2

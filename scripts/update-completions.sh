#!/usr/bin/env bash
# Regenerates completions/ and the man page docs/authctl.1 from the command definitions.
# (The man page comes from swift-argument-parser's generate-manual plugin, which builds
# authctl in release mode: allow a few minutes. --completions-only skips it.)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product authctl >/dev/null
bin="$(swift build --show-bin-path)/authctl"
"$bin" --generate-completion-script bash >completions/authctl.bash
"$bin" --generate-completion-script zsh >completions/_authctl
"$bin" --generate-completion-script fish >completions/authctl.fish
[[ "${1:-}" == "--completions-only" ]] && exit 0
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# A fixed date keeps the page reproducible; it is the date of the last change to the commands.
swift package --allow-writing-to-directory "$out" generate-manual --output-directory "$out" \
    --date 2026-11-22 --authors "the authctl developers" >/dev/null
cp "$out/authctl.1" docs/authctl.1

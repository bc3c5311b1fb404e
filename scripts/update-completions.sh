#!/usr/bin/env bash
# Regenerates completions/ and the man page docs/authctl.1 from the command definitions
# (scripts/gen-man.py reads them from the binary; --completions-only skips the page).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product authctl >/dev/null
bin="$(swift build --show-bin-path)/authctl"
"$bin" --generate-completion-script bash >completions/authctl.bash
"$bin" --generate-completion-script zsh >completions/_authctl
"$bin" --generate-completion-script fish >completions/authctl.fish
[[ "${1:-}" == "--completions-only" ]] && exit 0
# A fixed date keeps the page reproducible; it is the date of the last change to the commands.
python3 scripts/gen-man.py "$bin" 2026-11-29 >docs/authctl.1

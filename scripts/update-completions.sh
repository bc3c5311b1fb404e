#!/usr/bin/env bash
# Regenerates completions/ from the command definitions.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product authctl >/dev/null
bin="$(swift build --show-bin-path)/authctl"
"$bin" --generate-completion-script bash >completions/authctl.bash
"$bin" --generate-completion-script zsh >completions/_authctl
"$bin" --generate-completion-script fish >completions/authctl.fish

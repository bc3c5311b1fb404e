#!/usr/bin/env bash
# Says how bash, zsh and fish find authctl's completions installed under PREFIX (scripts/install.sh
# calls it after an install): found by the shell itself, or the line to add. For bash, the
# standard places are read by bash-completion only: when it is not installed, says so, how to
# install it, and the line that loads the completion without it (the script needs nothing of it).
#
#   scripts/completion-advice.sh PREFIX
#
# AUTHCTL_BASH_COMPLETION: the bash-completion script to look for instead of the standard ones
# (tests).
set -euo pipefail
prefix="${1:?usage: completion-advice.sh PREFIX}"

bash_completion_installed() {
    local candidates=(/usr/share/bash-completion/bash_completion /etc/bash_completion /usr/local/share/bash-completion/bash_completion)
    if [[ -n "${AUTHCTL_BASH_COMPLETION:-}" ]]; then candidates=("$AUTHCTL_BASH_COMPLETION"); fi
    local file
    for file in "${candidates[@]}"; do [[ -f "$file" ]] && return 0; done
    return 1
}

quoted="$(printf '%q' "$prefix")"
source_line="bash completions: add to ~/.bashrc: source $quoted/share/bash-completion/completions/authctl"
case "$prefix" in
    "$HOME/.local" | /usr | /usr/local)
        if bash_completion_installed; then
            echo "bash completions: found by bash-completion (new shells)"
        else
            echo "bash completions: bash-completion is not installed, so bash will not load them by itself. Install it (Debian and Ubuntu: apt-get install bash-completion), or load them without it:"
            echo "$source_line"
        fi
        ;;
    *) echo "$source_line" ;;
esac
case "$prefix" in
    /usr/local) echo "zsh completions: found by zsh (run compinit again, or open a new shell)" ;;
    *) echo "zsh completions: add to ~/.zshrc, before compinit: fpath=($quoted/share/zsh/site-functions \$fpath)" ;;
esac
case "$prefix" in
    "$HOME/.local" | /usr | /usr/local) echo "fish completions: found by fish (new shells)" ;;
    *) echo "fish completions: add to ~/.config/fish/config.fish: set -p fish_complete_path $quoted/share/fish/vendor_completions.d" ;;
esac

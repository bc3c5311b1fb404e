#!/usr/bin/env bash
# The commit authctl is built from, as `authctl --version` shows it: 12 hex digits, with
# "-dirty" when tracked files have uncommitted changes; "unknown" outside a git checkout.
set -euo pipefail
cd "$(dirname "$0")/.."
commit="$(git rev-parse --short=12 HEAD 2>/dev/null)" || { echo unknown; exit 0; }
git diff --quiet HEAD -- 2>/dev/null || commit="$commit-dirty"
echo "$commit"

#!/usr/bin/env bash
# Installs authctl from this checkout: a release build (static Swift runtime, stripped) as
# lib/authctl/authctl and its token front (docs/front.md) as bin/authctl, the man page, the bash, zsh and fish completions, and the documentation.
#
#   scripts/install.sh                       into ~/.local
#   scripts/install.sh --prefix /usr/local   anywhere else
#   scripts/install.sh --uninstall [--prefix DIR]
#                                            removes exactly what an install there put there
#
# What was installed is listed in PREFIX/share/authctl/installed-files (SHA-256 and path
# under the prefix), which --uninstall reads: it works in a prefix that was moved, and keeps
# any file changed since. Running the install again upgrades in place.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

prefix="$HOME/.local"
uninstall=false
while (($#)); do
    case "$1" in
        --prefix) [[ $# -ge 2 && -n "$2" ]] || { echo "install: --prefix needs a directory" >&2; exit 2; }; prefix="$2"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; [[ -n "$prefix" ]] || { echo "install: --prefix needs a directory" >&2; exit 2; }; shift ;;
        --uninstall) uninstall=true; shift ;;
        -h | --help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "install: unknown option '$1' (see scripts/install.sh --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
manifest="$prefix/share/authctl/installed-files"

if $uninstall; then
    [[ -f "$manifest" ]] || { echo "install: nothing to uninstall: $manifest does not exist" >&2; exit 1; }
    removed=0
    kept=()
    while IFS= read -r line; do
        if [[ "$line" =~ ^([0-9a-f]{64})\ \ (.+)$ ]]; then
            # SHA-256 and a path under the prefix: removed only when it is still what was installed.
            sum="${BASH_REMATCH[1]}" relative="${BASH_REMATCH[2]}"
            [[ "$relative" != /* && "/$relative/" != *"/../"* ]] || continue
            file="$prefix/$relative"
            [[ -f "$file" && ! -L "$file" ]] || continue
            if [[ "$(sha256sum <"$file" | cut -d' ' -f1)" == "$sum" ]]; then
                rm -f "$file" && echo "removed $file" && removed=$((removed + 1))
            else
                echo "kept $file: it changed since it was installed"
                kept+=("$line")
            fi
        elif [[ "$line" == "$prefix"/* && "$line" != *"/../"* ]]; then
            # A manifest of an earlier install.sh: absolute paths, no checksums.
            if [[ -f "$line" || -L "$line" ]]; then rm -f "$line" && echo "removed $line" && removed=$((removed + 1)); fi
        fi
    done <"$manifest"
    if ((removed == 0)); then
        echo "install: removed nothing from $prefix: no file listed in $manifest is there as installed; the list is kept" >&2
        exit 1
    fi
    if ((${#kept[@]})); then
        printf '%s\n' "${kept[@]}" >"$manifest"
        echo "authctl is uninstalled from $prefix, except the files kept above (listed in $manifest)."
        exit 0
    fi
    rm -f "$manifest"
    rmdir "$prefix/share/doc/authctl" "$prefix/share/authctl" "$prefix/lib/authctl" 2>/dev/null || true
    echo "authctl is uninstalled from $prefix (your keystore and configuration are kept)."
    exit 0
fi

"$root/scripts/setup.sh" --install
binary="$("$root/scripts/build-release.sh")"

# source → destination under the prefix
files=(
    "$(dirname "$binary")/authctl-front|bin/authctl|0755"
    "$binary|lib/authctl/authctl|0755"
    "$(dirname "$binary")/authctl-request|lib/authctl/authctl-request|0755"
    "$root/docs/authctl.1|share/man/man1/authctl.1|0644"
    "$root/completions/authctl.bash|share/bash-completion/completions/authctl|0644"
    "$root/completions/_authctl|share/zsh/site-functions/_authctl|0644"
    "$root/completions/authctl.fish|share/fish/vendor_completions.d/authctl.fish|0644"
)
for doc in "$root/LICENSE" "$root/README.md" "$root/CHANGELOG.md" "$root"/docs/*.md "$root/docs/keystore.schema.json"; do
    files+=("$doc|share/doc/authctl/$(basename "$doc")|0644")
done
installed=()
for entry in "${files[@]}"; do
    IFS='|' read -r source destination mode <<<"$entry"
    install -D -m "$mode" "$source" "$prefix/$destination"
    installed+=("$(sha256sum <"$prefix/$destination" | cut -d' ' -f1)  $destination")
    case "$destination" in share/doc/*) ;; *) echo "installed $prefix/$destination" ;; esac
done
echo "installed the documentation in $prefix/share/doc/authctl"
mkdir -p "$(dirname "$manifest")"
printf '%s\n' "${installed[@]}" >"$manifest"

"$prefix/bin/authctl" --version
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "Add $prefix/bin to PATH, e.g. in ~/.profile: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
if command -v manpath >/dev/null 2>&1 && ! manpath 2>/dev/null | tr ':' '\n' | grep -qx "$prefix/share/man"; then
    echo "If 'man authctl' finds nothing, add $prefix/share/man to MANPATH: export MANPATH=\"$prefix/share/man:\$MANPATH\""
fi
# Shell completions: where each shell finds them by itself (bash: when bash-completion is
# installed), and the line to add elsewhere.
"$root/scripts/completion-advice.sh" "$prefix"
ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4' ||
    echo "authctl needs libcurl4 to talk to providers (Debian and Ubuntu: apt-get install libcurl4)."
echo "Uninstall with: scripts/install.sh --uninstall${prefix:+ --prefix $prefix}"

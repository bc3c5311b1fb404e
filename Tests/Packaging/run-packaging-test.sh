#!/usr/bin/env bash
# The release artefacts as a user gets them (issue 14): scripts/package.sh builds
# dist/ from this checkout; the .deb is unpacked into a temporary root (dpkg -x) and its
# binary run; the tarball is checked against SHA256SUMS and run; scripts/install.sh
# installs into a temporary prefix and --uninstall removes exactly what it put there.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=../E2E/lib.sh
. "$here/../E2E/lib.sh"
cd "$root"

commit="$(scripts/commit-id.sh)"
scripts/package.sh 2>"$work/package.log" || { cat "$work/package.log" >&2; exit 1; }
deb="$(ls dist/*.deb)"
tarball="$(ls dist/*.tar.gz)"
private_home

check "SHA256SUMS lists and matches both artefacts" sh -c "cd dist && sha256sum --quiet -c SHA256SUMS && [ \$(wc -l <SHA256SUMS) -eq 2 ]"
check "the .deb depends on libcurl4 and on the packages of every library the binary links" sh -c "
    depends=\$(dpkg-deb --field '$deb' Depends) && echo \"\$depends\" | grep -q libcurl4 &&
    for lib in \$(ldd .build/dist/authctl | awk '/=>/ {print \$3}'); do
        package=\$(dpkg -S \"\$(readlink -f \$lib)\" 2>/dev/null | head -1 | cut -d: -f1) || package=\$(dpkg -S \$lib | head -1 | cut -d: -f1)
        echo \"\$depends\" | grep -qw \"\$package\" || { echo \"missing \$package\" >&2; exit 1; }
    done"
dpkg -x "$deb" "$work/root"
check "the .deb's binary names the version and the commit it was built from" \
    sh -c "'$work/root/usr/bin/authctl' --version | grep -Eq '^authctl [0-9]+\.[0-9]+\.[0-9]+ \(commit $commit\)$'"
check "the .deb's binary runs a command (status: nobody signed in, exit 16)" \
    sh -c "'$work/root/usr/bin/authctl' status >/dev/null 2>&1; [ \$? -eq 16 ]"
check "the .deb holds the man page and the three completions" sh -c "
    test -s '$work/root/usr/share/man/man1/authctl.1.gz' &&
    test -s '$work/root/usr/share/bash-completion/completions/authctl' &&
    test -s '$work/root/usr/share/zsh/vendor-completions/_authctl' &&
    test -s '$work/root/usr/share/fish/vendor_completions.d/authctl.fish'"
check "the binary is stripped" sh -c "! file -L '$work/root/usr/bin/authctl' 2>/dev/null | grep -q 'not stripped'"
# Issue 14: FoundationEssentials only. ICU's data (its package name, icudtNNl, names
# every one of its thousands of entries), ICU's code (`ucol_`, `icu_NN::` symbols and
# messages) and FoundationInternationalization's metadata all leave a trace in the strings
# of a stripped binary; the 68 MB binary of swift-corelibs-foundation holds all of them.
check "the stripped binary is at most 25 MB" sh -c "[ \$(stat -c %s '$work/root/usr/bin/authctl') -le 25000000 ]"
check "the binary holds no ICU (data, code, FoundationInternationalization) and links no libicu" sh -c "
    ! strings -n 6 '$work/root/usr/bin/authctl' | grep -Eq 'icudt[0-9]+[lb]|_ZN6icu|ucol_|icu_[0-9]+::|FoundationInternationalization' &&
    ! ldd '$work/root/usr/bin/authctl' | grep -qi 'libicu\|libFoundation\.so\|libFoundationInternationalization'"

mkdir -p "$work/tar"
tar -C "$work/tar" -xzf "$tarball"
check "the tarball's binary runs" sh -c "'$work/tar'/authctl-*/bin/authctl --version | grep -q '(commit $commit)'"
check "the tarball's entries are owned by root" \
    sh -c "[ \"\$(tar -tvzf '$tarball' | awk '{print \$2}' | sort -u)\" = 0/0 ]"

prefix="$work/prefix with space"
check "install.sh --prefix installs the binary, the man page and the completions" sh -c "
    scripts/install.sh --prefix '$prefix' >'$work/install.out' 2>'$work/install.err' &&
    test -x '$prefix/bin/authctl' && test -s '$prefix/share/man/man1/authctl.1' &&
    test -s '$prefix/share/bash-completion/completions/authctl' && test -s '$prefix/share/zsh/site-functions/_authctl' &&
    test -s '$prefix/share/fish/vendor_completions.d/authctl.fish'"
check "install.sh says what to add to PATH when the prefix is not on it" grep -q "Add $prefix/bin to PATH" "$work/install.out"
check "the installed binary runs" sh -c "'$prefix/bin/authctl' --version | grep -q '(commit $commit)'"
touch "$prefix/bin/mine"
check "install.sh --uninstall removes exactly what it installed" sh -c "
    scripts/install.sh --uninstall --prefix '$prefix' >/dev/null &&
    [ ! -e '$prefix/bin/authctl' ] && [ ! -e '$prefix/share/man/man1/authctl.1' ] &&
    [ ! -e '$prefix/share/authctl/installed-files' ] && [ -e '$prefix/bin/mine' ]"
check "install.sh refuses an unknown option with exit 2" sh -c "scripts/install.sh --prefx /tmp >/dev/null 2>&1; [ \$? -eq 2 ]"
summary

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
# Issue 25, items 15, 17 and 19: a licence, the docs shipped, a version and Depends a user can trust.
check "LICENSE at the root is the Apache License 2.0, and README names it" sh -c "
    grep -q 'Apache License' LICENSE && grep -q 'Version 2.0, January 2004' LICENSE &&
    grep -q 'Apache License 2.0' README.md && grep -q '(LICENSE)' README.md"
deb_version="$(dpkg-deb --field "$deb" Version)"
if git describe --exact-match --tags --match "v*" HEAD >/dev/null 2>&1; then
    check "a tagged release's .deb version is the binary's" sh -c "[ '$deb_version' = \"\$(.build/dist/authctl --version | awk '{print \$2}')\" ]"
else
    check "an unreleased build's .deb version carries the commit and sorts after the release (VERSION+gitYYYYMMDD.COMMIT)" sh -c "
        echo '$deb_version' | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+\+git[0-9]{8}\.[0-9a-f]{12}$' &&
        echo '$deb_version' | grep -q \"\$(git rev-parse --short=12 HEAD)\" &&
        dpkg --compare-versions '$deb_version' gt \"\${deb_version%%+*}\""
fi
check "the .deb's Depends carry the minimum versions the binary needs (libc6 (>= …))" sh -c "
    dpkg-deb --field '$deb' Depends | grep -Eq 'libc6 \(>= [0-9]+\.[0-9]+\)'"
dpkg -x "$deb" "$work/root"
check "the .deb ships the licence as Debian's copyright file and the docs under /usr/share/doc/authctl" sh -c "
    grep -q 'Apache License' '$work/root/usr/share/doc/authctl/copyright' &&
    for page in README.md getting-started.md configuration.md ci.md security.md keystore.md exit-codes.md; do
        test -s '$work/root/usr/share/doc/authctl/'\$page || { echo \"missing \$page\" >&2; exit 1; }
    done"
check "the .deb's binary names the version and the commit it was built from" \
    sh -c "'$work/root/usr/bin/authctl' --version | grep -Eq '^authctl [0-9]+\.[0-9]+\.[0-9]+ \(commit $commit\)$'"
check "the .deb's binary runs a command (status: nobody signed in, exit 16)" \
    sh -c "'$work/root/usr/bin/authctl' status >/dev/null 2>&1; [ \$? -eq 16 ]"
check "the .deb holds the man page and the three completions" sh -c "
    test -s '$work/root/usr/share/man/man1/authctl.1.gz' &&
    test -s '$work/root/usr/share/bash-completion/completions/authctl' &&
    test -s '$work/root/usr/share/zsh/vendor-completions/_authctl' &&
    test -s '$work/root/usr/share/fish/vendor_completions.d/authctl.fish'"
check "the binaries are stripped (the front, the full program and the request program)" sh -c "
    ! file -L '$work/root/usr/bin/authctl' '$work/root/usr/lib/authctl/authctl' '$work/root/usr/lib/authctl/authctl-request' 2>/dev/null |
        grep -q 'not stripped'"
# Issue 14: FoundationEssentials only. ICU's data (its package name, icudtNNl, names
# every one of its thousands of entries), ICU's code (`ucol_`, `icu_NN::` symbols and
# messages) and FoundationInternationalization's metadata all leave a trace in the strings
# of a stripped binary; the 68 MB binary of swift-corelibs-foundation holds all of them.
# Issue 24's bound: 25 MiB (26,214,400 bytes). DPoP, resources, cloud credentials and rules
# took it from 24.5 MB to 25.5 MB (bench/README.md).
check "the stripped full program is at most 25 MiB, the front (BoringSSL's AES-GCM included) at most 3 MiB" sh -c "
    [ \$(stat -c %s '$work/root/usr/lib/authctl/authctl') -le 26214400 ] && [ \$(stat -c %s '$work/root/usr/bin/authctl') -le 3145728 ]"
check "the binary holds no ICU (data, code, FoundationInternationalization) and links no libicu" sh -c "
    ! strings -n 6 '$work/root/usr/lib/authctl/authctl' | grep -Eq 'icudt[0-9]+[lb]|_ZN6icu|ucol_|icu_[0-9]+::|FoundationInternationalization' &&
    ! ldd '$work/root/usr/lib/authctl/authctl' | grep -qi 'libicu\|libFoundation\.so\|libFoundationInternationalization'"

# Issue 24: the shipped binary links libstdc++ statically and keeps glibc shared; what it
# loads at run time with dlopen — libcurl (TLS) and libsecret (the keyring) — must work from it.
# The front (docs/front.md) is a static PIE: ASLR, and no library at all (no interpreter, no NEEDED).
bin="$work/root/usr/bin/authctl"
core="$work/root/usr/lib/authctl/authctl"
check "the .deb's full program is a position-independent executable (ASLR) linking glibc only (no libstdc++, no libgcc_s)" sh -c "
    readelf -h '$core' | grep -q 'Type: *DYN' && ! ldd '$core' | grep -Eq 'libstdc\+\+|libgcc_s' && ldd '$core' | grep -q 'libc.so.6'"
check "the .deb's front (bin/authctl) is a static PIE: position-independent (ASLR), no interpreter, no shared library" sh -c "
    readelf -h '$bin' | grep -q 'Type: *DYN' && ! readelf -l '$bin' | grep -q INTERP && ! readelf -d '$bin' | grep -q NEEDED &&
    readelf -d '$bin' | grep -q 'FLAGS_1.*PIE'"
# The request program (docs/front.md): a PIE that loads libcurl itself, as the full program does.
check "the .deb's request program (lib/authctl/authctl-request) is a PIE linking glibc only (libcurl by dlopen), at most 3 MiB" sh -c "
    readelf -h '$work/root/usr/lib/authctl/authctl-request' | grep -q 'Type: *DYN' &&
    ! ldd '$work/root/usr/lib/authctl/authctl-request' | grep -Eq 'libstdc\+\+|libgcc_s|libcurl' &&
    [ \$(stat -c %s '$work/root/usr/lib/authctl/authctl-request') -le 3145728 ]"
python3 bench/make-keystore.py 1 "$work/hot.json" >"$work/hot.expected"
cp "$work/hot.json" "$work/hot-sealed.json"
(umask 077; "$bin" keystore new-key >"$work/hot.key")
"$bin" keystore seal --keystore "$work/hot-sealed.json" --key-file "$work/hot.key" -q
check "the .deb's binary prints a cached token from a plaintext keystore and from one sealed with a key file" sh -c "
    [ \"\$('$bin' token --keystore '$work/hot.json' --config '$work/none.json')\" = \"\$(cat '$work/hot.expected')\" ] &&
    [ \"\$(AUTHCTL_KEYSTORE_KEY_FILE='$work/hot.key' '$bin' token --keystore '$work/hot-sealed.json' --config '$work/none.json')\" = \"\$(cat '$work/hot.expected')\" ]"
# The front alone (no full program beside it): it answers the cached token itself, and hands
# everything else to lib/authctl/authctl, which it names when it is not there.
mkdir -p "$work/front-only/bin"
cp "$bin" "$work/front-only/bin/authctl"
check "the .deb's front answers a cached token itself, without the full program" sh -c "
    [ \"\$('$work/front-only/bin/authctl' token --keystore '$work/hot.json' --config '$work/none.json')\" = \"\$(cat '$work/hot.expected')\" ]"
check "the .deb's front hands every other command to lib/authctl/authctl, and names it when missing (exit 1)" sh -c "
    '$work/front-only/bin/authctl' status >'$work/front-only.out' 2>'$work/front-only.err'; [ \$? -eq 1 ] &&
    [ ! -s '$work/front-only.out' ] && grep -q '$work/front-only/lib/authctl/authctl.*reinstall authctl' '$work/front-only.err'"
check "the .deb's front passes arguments, stdin and the exit status through (exec -- sh -c 'exit 7': 7)" sh -c "
    '$bin' exec --keystore '$work/hot.json' --config '$work/none.json' -- sh -c 'exit 7'; [ \$? -eq 7 ] &&
    [ \"\$(printf 'in put' | '$bin' exec --keystore '$work/hot.json' --config '$work/none.json' -- sh -c 'cat; printf \"|%s\" \"\$@\"' x 'a b' 'ü')\" = 'in put|a b|ü' ]"

# libcurl over https, to a provider on 127.0.0.1 whose certificate the test's own CA signed:
# the CA is made the system's trust store (/etc/ssl/certs, which libcurl reads) in a private
# mount namespace, so the machine's own is never touched. Needs root (unshare --mount).
if [ "$(id -u)" = 0 ] && command -v openssl >/dev/null && unshare --mount true 2>/dev/null; then
    tls="$work/tls"
    mkdir -p "$tls/certs"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tls/ca.key" -out "$tls/ca.pem" -days 1 -subj "/CN=authctl packaging test CA" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout "$tls/server.key" -out "$tls/server.csr" -subj "/CN=127.0.0.1" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1\n' >"$tls/ext"
    openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -out "$tls/server.pem" -days 1 \
        -extfile "$tls/ext" 2>/dev/null
    cp "$tls/ca.pem" "$tls/certs/ca-certificates.crt"
    cp "$tls/ca.pem" "$tls/certs/$(openssl x509 -hash -noout -in "$tls/ca.pem").0"
    start_provider "$tls/issuer.log" python3 "$here/tls-issuer.py" at-over-tls "$tls/server.pem" "$tls/server.key"
    for _ in $(seq 100); do grep -q '^https://' "$tls/issuer.log" 2>/dev/null && break; sleep 0.1; done
    issuer="$(head -1 "$tls/issuer.log")"
    check "over https with a custom CA, the .deb's binary (libcurl, loaded with dlopen) reads the provider's discovery and adds it" \
        unshare --mount sh -c "mount --bind '$tls/certs' /etc/ssl/certs &&
            '$bin' providers add oidc.tls --issuer '$issuer' --client-id packaging --config '$work/tls.json' >/dev/null"
    check "without that CA in the trust store, the same provider is refused (the certificate is checked)" sh -c "
        ! '$bin' providers add oidc.tls --issuer '$issuer' --client-id packaging --config '$work/tls-untrusted.json' >/dev/null 2>&1"
else
    echo "SKIPPED: https with a custom CA needs root and unshare --mount (a private trust store), and openssl"
fi

# The system keyring: gnome-keyring, unlocked, on a private session bus (dbus-run-session).
if command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null && command -v dbus-send >/dev/null; then
    python3 bench/make-keystore.py 1 "$work/keyring.json" >"$work/keyring.expected"
    mkdir -p "$HOME"  # gnome-keyring-daemon does not start without it
    check "sealed with the system keyring (gnome-keyring), the .deb's binary (libsecret, loaded with dlopen) seals, and prints the token" \
        env -u DBUS_SESSION_BUS_ADDRESS dbus-run-session -- sh -c "
            printf test | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
            keyring=\$!
            trap 'kill \$keyring 2>/dev/null; wait \$keyring 2>/dev/null' EXIT
            tries=0
            until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
                org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true; do
                tries=\$((tries + 1)); [ \$tries -gt 200 ] && exit 97; sleep 0.05
            done
            '$bin' keystore seal --keystore '$work/keyring.json' --keyring -q &&
            '$bin' keystore status --keystore '$work/keyring.json' 2>&1 | grep -qi keyring &&
            [ \"\$(AUTHCTL_KEYSTORE_KEYRING=1 '$bin' token --keystore '$work/keyring.json' --config '$work/none.json')\" = \"\$(cat '$work/keyring.expected')\" ]"
else
    echo "SKIPPED: the keyring needs dbus-run-session, gnome-keyring-daemon and dbus-send (scripts/setup.sh installs them)"
fi

mkdir -p "$work/tar"
tar -C "$work/tar" -xzf "$tarball"
check "the tarball's binary runs (the front, handing --version to lib/authctl/authctl; the request program beside it)" sh -c "
    test -x \"\$(echo '$work/tar'/authctl-*/lib/authctl/authctl)\" && test -x \"\$(echo '$work/tar'/authctl-*/lib/authctl/authctl-request)\" && '$work/tar'/authctl-*/bin/authctl --version | grep -q '(commit $commit)'"
check "the tarball ships LICENSE and the docs under share/doc/authctl" sh -c "
    grep -q 'Apache License' '$work/tar'/authctl-*/share/doc/authctl/LICENSE &&
    test -s \"\$(echo '$work/tar'/authctl-*/share/doc/authctl/getting-started.md)\""
check "the tarball's entries are owned by root" \
    sh -c "[ \"\$(tar -tvzf '$tarball' | awk '{print \$2}' | sort -u)\" = 0/0 ]"

prefix="$work/prefix with space"
check "install.sh --prefix installs the binary, the man page and the completions" sh -c "
    scripts/install.sh --prefix '$prefix' >'$work/install.out' 2>'$work/install.err' &&
    test -x '$prefix/bin/authctl' && test -x '$prefix/lib/authctl/authctl' && test -x '$prefix/lib/authctl/authctl-request' &&
    test -s '$prefix/share/man/man1/authctl.1' &&
    test -s '$prefix/share/bash-completion/completions/authctl' && test -s '$prefix/share/zsh/site-functions/_authctl' &&
    test -s '$prefix/share/fish/vendor_completions.d/authctl.fish'"
check "install.sh says what to add to PATH when the prefix is not on it" grep -q "Add $prefix/bin to PATH" "$work/install.out"
check "install.sh says how bash, zsh and fish find the completions under this prefix (issue 25, item 13)" sh -c "
    grep -q 'bash completions: add to ~/.bashrc: source ' '$work/install.out' &&
    grep -q 'zsh completions: add to ~/.zshrc, before compinit: fpath=(' '$work/install.out' &&
    grep -q 'fish completions: add to ~/.config/fish/config.fish: set -p fish_complete_path ' '$work/install.out'"
check "the bash line install.sh gives, run in bash, loads the completion under a prefix with a space" bash -c "
    line=\$(sed -n 's/^bash completions: add to ~\\/.bashrc: //p' '$work/install.out') &&
    eval \"\$line\" && complete -p authctl >/dev/null"
# Issue 38, item 8: bash-completion missing is said, with the way to load the completion without it.
advice_home="$work/advice home"
mkdir -p "$advice_home/.local/share/bash-completion/completions"
cp completions/authctl.bash "$advice_home/.local/share/bash-completion/completions/authctl"
HOME="$advice_home" AUTHCTL_BASH_COMPLETION=/nonexistent/bash_completion scripts/completion-advice.sh "$advice_home/.local" >"$work/advice-missing.out"
HOME="$advice_home" AUTHCTL_BASH_COMPLETION="$root/README.md" scripts/completion-advice.sh "$advice_home/.local" >"$work/advice-present.out"
check "without bash-completion, install.sh says it is missing and how to install it" sh -c "
    grep -q 'bash-completion is not installed' '$work/advice-missing.out' && grep -q 'apt-get install bash-completion' '$work/advice-missing.out' &&
    ! grep -q 'found by bash-completion' '$work/advice-missing.out'"
check "without bash-completion, the line install.sh gives loads the completion in bash" bash -c "
    line=\$(sed -n 's/^bash completions: add to ~\\/.bashrc: //p' '$work/advice-missing.out') && test -n \"\$line\" &&
    eval \"\$line\" && complete -p authctl >/dev/null"
check "with bash-completion, install.sh says it finds them by itself" grep -q 'bash completions: found by bash-completion' "$work/advice-present.out"
check "install.sh gives the completion advice of scripts/completion-advice.sh" grep -q 'scripts/completion-advice.sh' scripts/install.sh
check "the installed binary runs" sh -c "'$prefix/bin/authctl' --version | grep -q '(commit $commit)'"
touch "$prefix/bin/mine"
check "install.sh --uninstall removes exactly what it installed" sh -c "
    scripts/install.sh --uninstall --prefix '$prefix' >/dev/null &&
    [ ! -e '$prefix/bin/authctl' ] && [ ! -e '$prefix/lib/authctl' ] && [ ! -e '$prefix/share/man/man1/authctl.1' ] &&
    [ ! -e '$prefix/share/authctl/installed-files' ] && [ -e '$prefix/bin/mine' ]"
moved="$work/moved prefix"
check "install.sh --uninstall of a moved prefix removes what it installed there and keeps a file changed since" sh -c "
    scripts/install.sh --prefix '$prefix' >/dev/null 2>&1 && mv '$prefix' '$moved' &&
    echo 'my own page' >'$moved/share/man/man1/authctl.1' &&
    scripts/install.sh --uninstall --prefix '$moved' >'$work/uninstall.out' 2>&1;
    [ ! -e '$moved/bin/authctl' ] && [ -e '$moved/share/man/man1/authctl.1' ] &&
    grep -q 'kept' '$work/uninstall.out' && [ -e '$moved/share/authctl/installed-files' ]"
check "install.sh --uninstall that removes nothing keeps its manifest and says so (exit 1)" sh -c "
    rm -f '$moved/share/man/man1/authctl.1'; cp '$moved/share/authctl/installed-files' '$work/manifest.before';
    scripts/install.sh --uninstall --prefix '$moved' >'$work/uninstall2.out' 2>&1; status=\$?;
    [ \$status -eq 1 ] && cmp -s '$work/manifest.before' '$moved/share/authctl/installed-files'"
check "install.sh refuses an unknown option with exit 2" sh -c "scripts/install.sh --prefx /tmp >/dev/null 2>&1; [ \$? -eq 2 ]"
summary

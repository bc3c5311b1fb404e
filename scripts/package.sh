#!/usr/bin/env bash
# Builds the release artefacts in dist/:
#   authctl-VERSION-linux-ARCH.tar.gz   bin/ (the token front, docs/front.md), lib/authctl/
#                                        (the full program it runs), share/man, share/{bash-completion,zsh,fish},
#                                        share/doc/authctl (LICENSE, README, CHANGELOG, docs/)
#   authctl_VERSION_DEBARCH.deb          the same files under /usr (the licence as Debian's
#                                        copyright file; Depends from dpkg-shlibdeps, libcurl4)
#   SHA256SUMS
# VERSION is the binary's (the newest release of CHANGELOG.md) for the commit tagged
# vVERSION; any other build is VERSION+gitYYYYMMDD.COMMIT (the commit's date and 12 digits),
# which dpkg sorts after that release and every earlier build, and before the next release.
# The archives are deterministic for a given binary: sorted entries, owner root, and
# every time stamp set to the commit's time (SOURCE_DATE_EPOCH).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
command -v dpkg-deb >/dev/null || { echo "package: dpkg-deb is needed (Debian's dpkg package)" >&2; exit 1; }

binary="$(scripts/build-release.sh)"
front="$(dirname "$binary")/authctl-front"
release="$("$binary" --version | awk '{print $2}')"
[[ "$release" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "package: unexpected version '$release'" >&2; exit 1; }
if [[ "$(git describe --exact-match --tags --match "v*" HEAD 2>/dev/null)" == "v$release" ]]; then
    version="$release"
elif commit="$(git rev-parse --short=12 HEAD 2>/dev/null)"; then
    version="$release+git$(git log -1 --format=%cd --date=format:%Y%m%d HEAD).$commit"
    git diff --quiet HEAD -- 2>/dev/null || version="$version.dirty"
else
    version="$release+unknown"
fi
arch="$(uname -m)"
debarch="$(dpkg --print-architecture)"
SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
export SOURCE_DATE_EPOCH

rm -rf dist && mkdir -p dist
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

# The tarball: the layout of `scripts/install.sh --prefix DIR`.
tree="$stage/authctl-$version"
install -D -m 0755 "$front" "$tree/bin/authctl"
install -D -m 0755 "$binary" "$tree/lib/authctl/authctl"
install -D -m 0755 "$(dirname "$binary")/authctl-request" "$tree/lib/authctl/authctl-request"
install -D -m 0644 docs/authctl.1 "$tree/share/man/man1/authctl.1"
install -D -m 0644 completions/authctl.bash "$tree/share/bash-completion/completions/authctl"
install -D -m 0644 completions/_authctl "$tree/share/zsh/site-functions/_authctl"
install -D -m 0644 completions/authctl.fish "$tree/share/fish/vendor_completions.d/authctl.fish"
# The documentation a user reads (authctl(1) names this directory): LICENSE, README, CHANGELOG
# and every page of docs/ with its schema.
docs=(LICENSE README.md CHANGELOG.md docs/*.md docs/keystore.schema.json)
for file in "${docs[@]}"; do install -D -m 0644 "$file" "$tree/share/doc/authctl/$(basename "$file")"; done
find "$tree" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
tarball="dist/authctl-$version-linux-$arch.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" -C "$stage" -cf - "authctl-$version" |
    gzip -9 -n >"$tarball"

# The Debian package: Debian's paths (zsh's vendor-completions, a gzipped man page).
deb="$stage/deb"
install -D -m 0755 "$front" "$deb/usr/bin/authctl"
install -D -m 0755 "$binary" "$deb/usr/lib/authctl/authctl"
install -D -m 0755 "$(dirname "$binary")/authctl-request" "$deb/usr/lib/authctl/authctl-request"
install -d "$deb/usr/share/man/man1"
gzip -9 -n -c docs/authctl.1 >"$deb/usr/share/man/man1/authctl.1.gz"
chmod 0644 "$deb/usr/share/man/man1/authctl.1.gz"
install -D -m 0644 completions/authctl.bash "$deb/usr/share/bash-completion/completions/authctl"
install -D -m 0644 completions/_authctl "$deb/usr/share/zsh/vendor-completions/_authctl"
install -D -m 0644 completions/authctl.fish "$deb/usr/share/fish/vendor_completions.d/authctl.fish"
for file in "${docs[@]}"; do
    case "$file" in
        LICENSE) install -D -m 0644 "$file" "$deb/usr/share/doc/authctl/copyright" ;;
        CHANGELOG.md) install -D -m 0644 "$file" "$deb/usr/share/doc/authctl/changelog" ;;
        *) install -D -m 0644 "$file" "$deb/usr/share/doc/authctl/$(basename "$file")" ;;
    esac
done
# Depends: what dpkg-shlibdeps finds the full program needs (the front is a static PIE), with the minimum versions of the
# symbols it uses (libc6 (>= 2.34), …), and libcurl4, which it loads when it first talks
# to a provider. dpkg-shlibdeps wants a debian/control beside it.
shlibs="$stage/shlibs"
mkdir -p "$shlibs/debian"
printf 'Source: authctl\n\nPackage: authctl\nArchitecture: any\n' >"$shlibs/debian/control"
binary_path="$(readlink -f "$binary")"
depends="$(cd "$shlibs" && dpkg-shlibdeps -O "$binary_path" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')"
[[ "$depends" == *"libc6 (>="* ]] || { echo "package: dpkg-shlibdeps found no versioned libc6 dependency ('$depends')" >&2; exit 1; }
mkdir -p "$deb/DEBIAN"
cat >"$deb/DEBIAN/control" <<CONTROL
Package: authctl
Version: $version
Architecture: $debarch
Maintainer: the authctl developers <authctl@localhost>
Depends: ${depends:+$depends, }libcurl4
Section: utils
Priority: optional
Installed-Size: $(du -sk --exclude=DEBIAN "$deb" | cut -f1)
Description: sign in to identity providers from the command line
 authctl signs in to Microsoft Entra ID, Sign in with Apple and any OpenID Connect
 provider through the system browser and a loopback redirect (OAuth 2.0 with PKCE),
 validates the ID token and keeps the session in a private keystore; later commands
 print fresh tokens for scripts, kubectl and git.
CONTROL
find "$deb" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
dpkg-deb --root-owner-group -Zxz --build "$deb" "dist/authctl_${version}_$debarch.deb" >/dev/null

(cd dist && sha256sum -- *.tar.gz *.deb >SHA256SUMS)
echo "package: built in dist/ (authctl $version, $("$binary" --version | sed 's/.*(\(.*\))/\1/')):" >&2
ls -l dist >&2

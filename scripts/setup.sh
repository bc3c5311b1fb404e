#!/usr/bin/env bash
# Installs with apt what authctl needs on Debian/Ubuntu, when it is missing, saying what and
# why before it does. Idempotent and quiet.
#
#   scripts/setup.sh            everything the test suite uses (scripts/test.sh, package.sh)
#   scripts/setup.sh --demo     only what the demo uses: libcurl, curl, Python with venv
#   scripts/setup.sh --install  only what install.sh needs: libcurl
#   --dry-run                   say what would be installed, install nothing
#
# AUTHCTL_SETUP_ASSUME_MISSING=1 treats every package as missing (with --dry-run: a test of
# what each mode installs on a machine that has nothing).
set -euo pipefail

mode=test
dry_run=false
for argument in "$@"; do
    case "$argument" in
        --demo) mode=demo ;;
        --install) mode=install ;;
        --dry-run) dry_run=true ;;
        *) echo "setup: unknown option '$argument' (see the top of scripts/setup.sh)" >&2; exit 2 ;;
    esac
done

missing=()
reasons=()
# need MODES PACKAGE REASON CHECK...: PACKAGE is installed for the MODES (a space-separated
# list of demo, install, test) when CHECK fails.
need() {
    local modes="$1" package="$2" reason="$3"
    shift 3
    [[ " $modes " == *" $mode "* ]] || return 0
    if [[ "${AUTHCTL_SETUP_ASSUME_MISSING:-}" != 1 ]] && "$@" >/dev/null 2>&1; then return 0; fi
    missing+=("$package")
    reasons+=("$package ($reason)")
}
has() { command -v "$1"; }
has_library() { ldconfig -p 2>/dev/null | grep -q "$1"; }

need "demo install test" libcurl4 "authctl loads it for HTTP" has_library 'libcurl\.so\.4'
need "demo test" curl "the scripted browser" has curl
need "demo test" python3 "the local OpenID provider, django-oauth-toolkit" has python3
need "demo test" python3-venv "the provider's virtual environment" python3 -c 'import venv, ensurepip'
need "test" file "the packaging test" has file
need "test" groff-base "the man page test" has groff
need "test" dpkg-dev "the .deb's versioned Depends (dpkg-shlibdeps)" has dpkg-shlibdeps
need "test" lynx "a text browser the tests sign in with" has lynx
need "test" w3m "a text browser the tests sign in with" has w3m
# A real Secret Service for KeyringBinaryTests: gnome-keyring, dbus-run-session and
# dbus-send (dbus), and libsecret (which authctl loads for `keystore seal --keyring`).
need "test" gnome-keyring "the keyring test's Secret Service" has gnome-keyring-daemon
need "test" dbus "the keyring test's session bus" has dbus-run-session
need "test" dbus-bin "the keyring test's session bus" has dbus-send
need "test" libsecret-1-0 "authctl loads it for keystore seal --keyring" has_library 'libsecret-1\.so\.0'
need "test" zsh "the completion tests" has zsh
need "test" fish "the completion tests" has fish
need "test" keyutils "keyctl, the unlock/lock test's second login session" has keyctl

if ((${#missing[@]})); then
    echo "setup: the $mode needs these Debian packages, which are missing:" >&2
    printf 'setup:   %s\n' "${reasons[@]}" >&2
    if $dry_run; then
        echo "setup: --dry-run: nothing installed" >&2
    else
        echo "setup: installing them with apt-get (a minute or two)" >&2
        sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get update -qq
        $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
fi

command -v swift >/dev/null 2>&1 || { echo "setup: the Swift toolchain (6.0 or later) is needed: https://www.swift.org/install" >&2; exit 1; }

#!/usr/bin/env bash
# Installs what building and testing authctl needs on Debian/Ubuntu, when it is missing:
# libcurl (authctl loads it for HTTP), curl (the scripted browser of the tests),
# Python 3 with venv (the django-oauth-toolkit test provider), file, groff and dpkg-dev (the
# packaging and man page tests), gnome-keyring and dbus (the keyring test), zsh and fish (the
# completion tests). Idempotent and quiet.
set -euo pipefail

missing=()
ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4' || missing+=(libcurl4)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v file >/dev/null 2>&1 || missing+=(file)
command -v groff >/dev/null 2>&1 || missing+=(groff-base)
# dpkg-shlibdeps (dpkg-dev): the .deb's Depends with the minimum versions the binary needs.
command -v dpkg-shlibdeps >/dev/null 2>&1 || missing+=(dpkg-dev)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
# Text browsers a person may sign in with (BrowserCommandTests).
command -v lynx >/dev/null 2>&1 || missing+=(lynx)
command -v w3m >/dev/null 2>&1 || missing+=(w3m)
# A real Secret Service for KeyringBinaryTests: gnome-keyring, dbus-run-session and
# dbus-send (dbus), and libsecret (which authctl loads for `keystore seal --keyring`).
command -v gnome-keyring-daemon >/dev/null 2>&1 || missing+=(gnome-keyring)
command -v dbus-run-session >/dev/null 2>&1 || missing+=(dbus)
command -v dbus-send >/dev/null 2>&1 || missing+=(dbus-bin)
ldconfig -p 2>/dev/null | grep -q 'libsecret-1\.so\.0' || missing+=(libsecret-1-0)
# zsh and fish for CompletionTests: the committed completion scripts run in them.
command -v zsh >/dev/null 2>&1 || missing+=(zsh)
command -v fish >/dev/null 2>&1 || missing+=(fish)

if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

command -v swift >/dev/null 2>&1 || { echo "setup: the Swift toolchain (6.0 or later) is needed: https://www.swift.org/install" >&2; exit 1; }

#!/usr/bin/env python3
"""Writes the authctl(1) man page (mdoc) from the command definitions.

Usage: scripts/gen-man.py AUTHCTL_BINARY DATE > docs/authctl.1

The commands, their arguments and options and every help text come from the binary
(`authctl --experimental-dump-help`, swift-argument-parser's description of the command
tree); the global options are described once, under OPTIONS, and left out of each
command. EXIT STATUS is the table of docs/exit-codes.md (a test holds both to the codes
in Sources/AuthCore/AuthError.swift). ENVIRONMENT, FILES, EXAMPLES and SEE ALSO are
written here.
"""
import datetime
import json
import os
import re
import subprocess
import sys

GLOBAL = {"keystore", "config", "user", "json", "verbose", "quiet"}
HIDDEN = {"help", "version"}


def ascii_roff(text):
    """Non-ASCII characters as groff's Unicode escapes, so that any man(1) shows them."""
    return "".join(ch if ord(ch) < 128 else f"\\[u{ord(ch):04X}]" for ch in text)


def esc(text):
    """Text for a roff text line: backslashes escaped, no line starting with a control character."""
    text = ascii_roff(text.replace("\\", "\\e"))
    lines = []
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(line for line in lines if line)


def arg(text):
    """A macro argument: quoted when it holds spaces, backslashes escaped."""
    text = ascii_roff(text.replace("\\", "\\e").replace('"', '\\(dq'))
    return f'"{text}"' if (" " in text or not text) else text


def long_name(argument):
    for name in argument.get("names", []):
        if name["kind"] in ("long", "longWithSingleDash"):
            return name["name"]
    return None


def short_name(argument):
    for name in argument.get("names", []):
        if name["kind"] == "short":
            return name["name"]
    return None


def item(argument):
    """The `.It` line of an option, flag or positional argument."""
    if argument["kind"] == "positional":
        return f".It Ar {arg(argument['valueName'])}"
    parts = []
    short = short_name(argument)
    if short:
        parts.append(f"Fl {short} ,")
    parts.append(f"Fl -{long_name(argument)}")
    if argument["kind"] == "option":
        parts.append(f"Ar {arg(argument.get('valueName', 'value'))}")
    return ".It " + " ".join(parts)


def shown(argument, skip_global):
    if not argument.get("shouldDisplay", True):
        return False
    name = long_name(argument)
    if name in HIDDEN:
        return False
    return not (skip_global and name in GLOBAL)


def synopsis(command, path):
    words = [".It Nm"] + [f"Cm {word}" for word in path]
    for argument in command.get("arguments", []):
        if argument["kind"] == "positional" and shown(argument, True):
            value = f"Ar {arg(argument['valueName'])}" + (" Ar ..." if argument.get("isRepeating") else "")
            words.append(f"Op {value}" if argument.get("isOptional") else value)
    return " ".join(words)


def commands(command, path, out):
    for sub in command.get("subcommands", []):
        name = sub["commandName"]
        if not sub.get("shouldDisplay", True):
            continue
        here = path + [name]
        arguments = [a for a in sub.get("arguments", []) if shown(a, True)]
        if sub.get("subcommands"):
            # A group: its abstract, then each of its commands.
            out.append(" ".join([".It Nm"] + [f"Cm {word}" for word in here] + ["Ar command"]))
            out.append(esc(sub.get("abstract", "")))
            commands(sub, here, out)
            continue
        out.append(synopsis(sub, here))
        out.append(esc(sub.get("abstract", "")))
        if sub.get("discussion"):
            out.append(".Pp")
            discussion(sub["discussion"], out)
        if arguments:
            out.append(".Bl -tag -width Ds")
            for argument in arguments:
                out.append(item(argument))
                out.append(esc(argument.get("abstract", "")))
            out.append(".El")


def literal_lines(line, width=60):
    """An example for a literal block: a comment that would pass `width` goes on the line above,
    a command that would pass it continues on the next line (backslash), so man never wraps it
    (a command's block starts at column 19 of 80)."""
    command, _, comment = line.partition("  #")
    command = command.rstrip()
    lines = ["# " + comment.strip()] if comment and len(line) > width else []
    if comment and len(line) <= width:
        return [line]
    while len(command) > width and " " in command[: width - 2]:
        cut = command.rfind(" ", 0, width - 2)
        lines.append(command[:cut] + " \\")
        command = "    " + command[cut + 1 :]
    return lines + [command]


def literal(line):
    """A line of a literal block: backslashes escaped, no control character first."""
    line = ascii_roff(line.replace("\\", "\\e"))
    return "\\&" + line if line.startswith((".", "'")) else line


def discussion(text, out):
    """A command's discussion: the prose as a paragraph, its examples one a line (literal)."""
    prose, marker, examples = text.partition("Examples:")
    out.append(esc(prose))
    if not marker:
        return
    out += [".Pp", "Examples:", ".Bd -literal -offset indent"]
    for line in examples.split("\n"):
        if line.strip():
            out += [literal(part) for part in literal_lines(line.strip())]
    out.append(".Ed")


def global_options(command):
    """The global options, as the first command that has them describes them."""
    for sub in command.get("subcommands", []):
        found = [a for a in sub.get("arguments", []) if long_name(a) in GLOBAL]
        if found:
            return found
        deeper = global_options(sub)
        if deeper:
            return deeper
    return []


def exit_table(path):
    rows = []
    for line in open(path, encoding="utf-8"):
        match = re.match(r"\|\s*(\d+)\s*\|\s*`?([a-z-]+|—)`?\s*\|\s*(.*?)\s*\|\s*$", line)
        if match:
            rows.append(match.groups())
    return rows


def main():
    binary, date = sys.argv[1], sys.argv[2]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tree = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout)["command"]
    day = datetime.date.fromisoformat(date)
    out = [
        f".Dd {day.strftime('%B')} {day.day}, {day.year}",
        ".Dt AUTHCTL 1",
        ".Os",
        ".Sh NAME",
        ".Nm authctl",
        ".Nd sign in to identity providers from the command line",
        ".Sh SYNOPSIS",
        ".Nm",
        ".Ar command",
        ".Op Ar arguments",
        ".Op Ar options",
        ".Nm",
        ".Fl -version | -help",
        ".Sh DESCRIPTION",
        esc(tree.get("abstract", "")),
        ".Pp",
        esc("authctl signs a person (or a CI job) in to Microsoft Entra ID, Sign in with Apple or any "
            "OpenID Connect provider through the system browser and a loopback redirect, with PKCE; it "
            "validates the ID token and keeps the user, the providers linked to that user and their tokens "
            "in a private keystore file. Later commands print fresh tokens for scripts, kubectl and git, "
            "link more providers, re-authenticate, unlink and sign out."),
        ".Pp",
        esc("Results go to standard output, progress and errors to standard error. With --json, standard "
            "output carries exactly one JSON document: the result, or the error."),
        ".Sh COMMANDS",
        ".Bl -tag -width Ds",
    ]
    commands(tree, [], out)
    out += [".El", ".Sh OPTIONS", esc("Every command takes these, before or after the command name."), ".Bl -tag -width Ds"]
    # The global options, then authctl's own (--version: the version and the commit; --help).
    for argument in global_options(tree) + [a for a in tree.get("arguments", []) if a.get("shouldDisplay", True)]:
        out.append(item(argument))
        out.append(esc(argument.get("abstract", "")))
    out += [
        ".El",
        ".Sh ENVIRONMENT",
        ".Bl -tag -width Ds",
    ]
    environment = [
        ("AUTHCTL_KEYSTORE", "The keystore file, when --keystore is not given."),
        ("AUTHCTL_CONFIG", "The configuration file, when --config is not given."),
        ("AUTHCTL_USER", "The user to act as (uid or email), when --user is not given; overrides config.json's rules."),
        ("AUTHCTL_BROWSER", "The browser command, when --browser-command is not given."),
        ("BROWSER", "A colon-separated list of browser commands, tried before xdg-open."),
        ("AUTHCTL_ALLOW_ANY_LOCAL_USER", "Set to 1: as --allow-any-local-user on every sign-in."),
        ("AUTHCTL_KEYSTORE_KEY_FILE", "The key file that opens a keystore sealed with one (keystore seal --key-file)."),
        ("AUTHCTL_KEYSTORE_PASSPHRASE", "The passphrase that opens a keystore sealed with one; without it, it is asked on a terminal."),
        ("AUTHCTL_KEYSTORE_KEYRING", "Set to 1: the keystore is sealed with the keyring, so a plaintext one is refused (as when either variable above is set)."),
        ("FIREBASE_AUTH_EMULATOR_HOST", "HOST:PORT of the Firebase Auth emulator (loopback only); overrides backend use firebase --emulator."),
        ("XDG_DATA_HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_RUNTIME_DIR", "The base directories of the files below, and of exec's token file."),
        ("http_proxy, https_proxy, all_proxy, no_proxy", "Proxies for providers off this machine; a loopback provider is never proxied."),
        ("NO_COLOR, TERM", "No colours when NO_COLOR is set and not empty, or TERM is dumb."),
        ("AUTHCTL_TOKEN, AUTHCTL_TOKEN_FILE, AUTHCTL_PROVIDER", "Set by exec for the command it runs."),
    ]
    for name, text in environment:
        out += [f".It Ev {arg(name)}" if "," not in name else ".It Ev " + " , Ev ".join(n.strip() for n in name.split(",")), esc(text)]
    out += [
        ".El",
        ".Sh FILES",
        ".Bl -tag -width Ds",
        ".It Pa $XDG_DATA_HOME/authctl/keystore.json",
        esc("The keystore: users, linked providers and tokens; mode 0600 in a directory only its owner may write "
            "(default $HOME/.local/share/authctl)."),
        ".It Pa $XDG_CONFIG_HOME/authctl/config.json",
        esc("The providers and the rules that choose an identity by directory, git remote, kube context or "
            "environment variable (default $HOME/.config/authctl). Secrets are referenced, never stored."),
        ".It Pa $XDG_CACHE_HOME/authctl/",
        esc("Cached discovery documents and key sets (public)."),
        ".It Pa /usr/share/doc/authctl/",
        esc("The documentation (PREFIX/share/doc/authctl/ when installed by scripts/install.sh or from the tarball); "
            "the pages named in the help, such as ci.md or apple.md, are there."),
        ".El",
        ".Sh EXIT STATUS",
        ".Bl -tag -width Ds",
    ]
    for status, code, text in exit_table(os.path.join(root, "docs", "exit-codes.md")):
        out.append(f".It Sy {status}" + ("" if code == "—" else f" Pq Li {code}"))
        out.append(esc(re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).replace("`", "")))
    out += [
        ".El",
        ".Sh EXAMPLES",
        "Register a provider and sign in through the browser:",
        ".Bd -literal -offset indent",
        "authctl providers add oidc.example \\e",
        "    --issuer https://auth.example.com --client-id my-app",
        "authctl login oidc.example",
        "authctl status",
        ".Ed",
        ".Pp",
        "Microsoft Entra ID for one tenant, then a token for Microsoft Graph:",
        ".Bd -literal -offset indent",
        "authctl providers add microsoft \\e",
        "    --client-id 00000000-0000-0000-0000-000000000000",
        "authctl login microsoft --tenant contoso.onmicrosoft.com",
        "authctl token --scope https://graph.microsoft.com/.default",
        ".Ed",
        ".Pp",
        "A header for curl on a pipe (never in an argument: every local user can read a",
        "process's arguments), and a command run with a token kept fresh:",
        ".Bd -literal -offset indent",
        "authctl token --format header |",
        "    curl -H @- https://api.example.com/",
        "authctl exec -- ./deploy.sh",
        ".Ed",
        ".Pp",
        "The work identity under ~/work and for one Azure DevOps organisation, whatever the current user,",
        "and kubectl set up to get its tokens from authctl:",
        ".Bd -literal -offset indent",
        "authctl rules add --name work --user alice@contoso.com \\e",
        "    --directory ~/work/",
        "authctl rules add --user alice@contoso.com \\e",
        "    --remote 'https://dev.azure.com/contoso/**'",
        "authctl rules explain",
        "authctl kubeconfig set-credentials aks \\e",
        "    --provider microsoft --user alice@contoso.com",
        ".Ed",
        ".Pp",
        "Sign in over SSH without a browser on the machine:",
        ".Bd -literal -offset indent",
        "authctl login oidc.example --device-code",
        ".Ed",
        ".Sh SEE ALSO",
        ".Xr curl 1 ,",
        ".Xr git-credential 1 ,",
        ".Xr kubectl 1 ,",
        ".Xr xdg-open 1",
        ".Pp",
        esc("The documentation, installed in /usr/share/doc/authctl/ by the .deb and in PREFIX/share/doc/authctl/ "
            "by scripts/install.sh and the tarball: getting-started.md, configuration.md, microsoft.md, apple.md, "
            "accounts.md, identities.md, ci.md, git.md, firebase.md, keystore.md, exit-codes.md, security.md."),
    ]
    sys.stdout.write("\n".join(line for line in out if line) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The token front (Sources/authctl-front, docs/front.md) against the full program, both real
binaries, each run as a fresh process.

Usage: agreement.py FRONT CORE [CORPUS_DIR]

Two installs are made in a private temporary directory, as scripts/install.sh lays them out:
`full/` (bin/authctl the front, lib/authctl/authctl the full program) and `front-only/` (the
front alone). For every case:
  - the full install and the full program give the same stdout, stderr and exit status;
  - the front alone either answers — exit 0, and exactly what the full program printed, which
    itself exited 0 with nothing on stderr — or hands over, which with no full program beside it
    is exit 1 and one line naming that program and "reinstall authctl", nothing on stdout.
Cases marked `answer` must be answered by the front, cases marked `hand over` must not be.
The keystores: every keystore the Swift tests know (CORPUS_DIR, written by
KeystoreCorpusExportTests), one and 1,000 users of bench/make-keystore.py, expired tokens, tokens
within --min-ttl, another provider, DPoP, sealed, damaged copies cut or changed anywhere, a
symbolic link, group-writable files and directories; config.json with and without rules;
AUTHCTL_USER and the keystore key variables; then commands that only pass through.
"""
import datetime, json, os, shutil, subprocess, sys, tempfile

front, core = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
corpus = sys.argv[3] if len(sys.argv) > 3 else None
here = os.path.dirname(os.path.abspath(__file__))
root = tempfile.mkdtemp(prefix="authctl-front-")
os.chmod(root, 0o700)
failures, answered, handed, cases = [], 0, 0, 0

def install(name, with_core):
    os.makedirs(f"{root}/{name}/bin")
    shutil.copy(front, f"{root}/{name}/bin/authctl")
    if with_core:
        os.makedirs(f"{root}/{name}/lib/authctl")
        os.symlink(core, f"{root}/{name}/lib/authctl/authctl")
    return f"{root}/{name}/bin/authctl"

full, alone = install("full", True), install("front-only", False)
home = f"{root}/home"
os.makedirs(home, mode=0o700)
base_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8"}

def run(program, args, env, stdin=b"", cwd=None):
    done = subprocess.run([program] + args, env=env, input=stdin, capture_output=True, timeout=60, cwd=cwd or root)
    return done.returncode, done.stdout, done.stderr

def check(name, args, env_extra=None, expect=None, stdin=b"", cwd=None):
    global answered, handed, cases
    cases += 1
    env = dict(base_env)
    for key, value in (env_extra or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    reference = run(core, args, env, stdin, cwd)
    through = run(full, args, env, stdin, cwd)
    alone_result = run(alone, args, env, stdin, cwd)
    # `status` words lifetimes relative to now ("valid for 59 min"): runs a moment apart may
    # straddle a minute (or a second, under two minutes). Such a case runs again once; a real
    # difference shows again.
    if args[:1] == ["status"] and (through != reference or (alone_result[0] == 0 and alone_result != reference)):
        reference = run(core, args, env, stdin, cwd)
        through = run(full, args, env, stdin, cwd)
        alone_result = run(alone, args, env, stdin, cwd)
    if through != reference:
        failures.append(f"{name}: the installed front and the full program differ: {through!r:.300} vs {reference!r:.300}")
    status, out, err = alone_result
    if status == 0:
        answered += 1
        if (status, out, err) != reference:
            failures.append(f"{name}: the front answered {out[:60]!r} (stderr {err[:80]!r}) where the full program gave {reference!r:.300}")
        if expect == "hand over":
            failures.append(f"{name}: the front answered, but this case is the full program's")
    else:
        handed += 1
        missing = f"{root}/front-only/lib/authctl/authctl".encode()
        if status != 1 or out != b"" or missing not in err or b"reinstall authctl" not in err or err.count(b"\n") != 1:
            failures.append(f"{name}: the front alone neither answered nor handed over: {status} {out[:60]!r} {err!r:.300}")
        if expect == "answer":
            failures.append(f"{name}: the front handed over a case it must answer (the full program gave {reference!r:.200})")
    return reference

def place(name, document=None, raw=None, mode=0o600, dir_mode=0o700):
    """A keystore at ks/NAME/keystore.json; returns its path."""
    directory = f"{root}/ks/{name}"
    os.makedirs(directory)
    path = f"{directory}/keystore.json"
    with open(path, "wb") as f:
        f.write(raw if raw is not None else json.dumps(document, indent=2, sort_keys=True).encode())
    os.chmod(path, mode)
    os.chmod(directory, dir_mode)
    return path

def make(n):
    path = f"{root}/made-{n}.json"
    subprocess.run([sys.executable, f"{here}/../../bench/make-keystore.py", str(n), path], check=True, capture_output=True)
    with open(path) as f:
        return json.load(f)

stamp = lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ")
now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)

def jwt(expires_in, **claims):
    """An ID token's shape (unsigned: only its `exp` is read) expiring `expires_in` seconds from now."""
    import base64
    part = lambda value: base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    if expires_in is not None:
        claims["exp"] = expires_in if isinstance(expires_in, str) else (now.timestamp() + expires_in)
        if isinstance(claims["exp"], float) and claims["exp"].is_integer():
            claims["exp"] = int(claims["exp"])
    return part({"alg": "RS256"}) + "." + part({"sub": "s", **claims}) + ".c2ln"

def with_tokens(document, **changes):
    document = json.loads(json.dumps(document))
    tokens = document["users"][0]["providerData"][0]["tokens"]
    for key, value in changes.items():
        if value is None:
            tokens.pop(key, None)
        else:
            tokens[key] = value
    return document

one, thousand = make(1), make(1000)
uid = one["currentUid"]

# The hot path: the front answers.
for label, document in [("1 user", one), ("1,000 users", thousand)]:
    path = place(label.replace(" ", "-").replace(",", ""), document)
    for args in (["token"], ["token", "--format", "raw"], ["token", "--format=raw", "--min-ttl=300"], ["token", "oidc.bench"],
                 ["token", "--min-ttl", "0", "oidc.bench", "--format", "raw"], ["token", "--min-ttl", "86400"],
                 ["token", "--format", "kubectl-exec"], ["token", "--format=kubectl-exec", "--min-ttl", "0", "oidc.bench"],
                 ["token", "--id-token"], ["token", "--format", "header"], ["token", "--id-token", "--format=header"],
                 ["token", "--id-token", "--format", "kubectl-exec"], ["token", "--format", "raw", "--id-token", "--min-ttl", "3600"],
                 ["token", "--format", "headers-json"], ["token", "--id-token", "--format=headers-json", "oidc.bench"]):
        check(f"{label}: {' '.join(args)}", args + ["--keystore", path], expect="answer")
    check(f"{label}: --keystore=PATH first", ["token", f"--keystore={path}"], expect="answer")
    check(f"{label}: AUTHCTL_KEYSTORE", ["token"], {"AUTHCTL_KEYSTORE": path}, expect="answer")
    # What the front leaves to the full program.
    for args in (["token", "--format", "json"], ["token", "--format", "kubectl-exec", "--access-token"], ["token", "--format", "env"],
                 ["token", "--id-token=yes"], ["token", "--id-token", "--access-token"], ["token", "--access-token"],
                 ["token", "--format", "Header"], ["token", "--id-token", "--scope", "openid"], ["token", "-v"], ["token", "-q"], ["token", "--json"],
                 ["token", "--force-refresh"], ["token", "--user", uid], ["token", "--scope", "openid"], ["token", "--min-ttl", "86401"],
                 ["token", "--min-ttl", "+5"], ["token", "--min-ttl", "-5"], ["token", "oidc.other"], ["token", "oidc.Bad"],
                 ["token", "oidc.bench", "oidc.bench"], ["token", "--"], ["token", "--help"], ["--keystore", path, "token"],
                 ["token", "--frobnicate"]):
        check(f"{label}: {' '.join(args)}", args + ["--keystore", path], expect="hand over")
    check(f"{label}: AUTHCTL_USER", ["token", "--keystore", path], {"AUTHCTL_USER": uid}, expect="hand over")
    # status (issue 37): plain and --json, answered; its other forms are the full program's.
    for args in (["status"], ["status", "--json"], ["status", "--json", f"--keystore={path}"], ["status", "--config", f"{root}/none.json"]):
        given = any(argument.startswith("--keystore") for argument in args)
        check(f"{label}: {' '.join(args)}", args if given else args + ["--keystore", path], expect="answer")
    check(f"{label}: status, AUTHCTL_KEYSTORE", ["status"], {"AUTHCTL_KEYSTORE": path}, expect="answer")
    for args in (["status", "--check"], ["status", "--user", uid], ["status", "-v"], ["status", "-q"], ["status", "--json", "--json"],
                 ["status", "--help"], ["status", "oidc.bench"], ["status", "--format", "raw"], ["status", "--json=yes"],
                 ["status", "--keystore", path], ["status", "--id-token"], ["status", "--"], ["--json", "status"]):
        check(f"{label}: {' '.join(args)}", args + ["--keystore", path], expect="hand over")
    check(f"{label}: status, AUTHCTL_USER", ["status", "--keystore", path], {"AUTHCTL_USER": uid}, expect="hand over")
    check(f"{label}: AUTHCTL_USER empty", ["token", "--keystore", path], {"AUTHCTL_USER": ""}, expect="answer")
    # A key configured and a plaintext keystore: refused by the full program (a downgrade).
    for variable in ("AUTHCTL_KEYSTORE_KEY_FILE", "AUTHCTL_KEYSTORE_PASSPHRASE", "AUTHCTL_KEYSTORE_KEYRING"):
        check(f"{label}: {variable}", ["token", "--keystore", path], {variable: f"{root}/nothing"}, expect="hand over")

# The default places: HOME, XDG_DATA_HOME (absolute, or ignored when relative), config.json's.
default = f"{home}/.local/share/authctl/keystore.json"
os.makedirs(os.path.dirname(default), mode=0o700)
shutil.copy(f"{root}/ks/1-user/keystore.json", default)
os.chmod(default, 0o600)
check("HOME's keystore", ["token"], expect="answer")
check("XDG_DATA_HOME relative (ignored)", ["token"], {"XDG_DATA_HOME": "relative/place"}, expect="answer")
xdg = f"{root}/xdg-data"
os.makedirs(f"{xdg}/authctl", mode=0o700)
os.chmod(xdg, 0o700)
shutil.copy(default, f"{xdg}/authctl/keystore.json")
check("XDG_DATA_HOME's keystore", ["token"], {"XDG_DATA_HOME": xdg}, expect="answer")
check("no HOME", ["token"], {"HOME": None}, expect="hand over")
check("HOME empty", ["token"], {"HOME": ""}, expect="hand over")
check("AUTHCTL_KEYSTORE empty", ["token"], {"AUTHCTL_KEYSTORE": ""}, expect="hand over")
check("a keystore path that is not ASCII", ["token", "--keystore", f"{root}/ks/ü/keystore.json"], expect="hand over")
check("no keystore", ["token", "--keystore", f"{root}/nowhere/keystore.json"], expect="hand over")
check("relative --keystore", ["token", "--keystore", "ks/1-user/keystore.json"], expect="answer")
config_dir = f"{home}/.config/authctl"
os.makedirs(config_dir, mode=0o700)
for label, text, expect in [
        ("config.json without rules", '{"providers": {}}', "answer"),
        ("config.json with rules", '{"rules": [{"user": "%s", "when": {"directory": "/"}}]}' % uid, "hand over"),
        ("config.json with the word \"rules\" anywhere", '{"providers": {"oidc.x": {"note": "rules"}}}', "hand over"),
        ("config.json with rules under an escaped key", '{"\\u0072ules": [{"user": "%s", "when": {"directory": "/"}}]}' % uid,
         "hand over")]:
    with open(f"{config_dir}/config.json", "w") as f:
        f.write(text)
    os.chmod(f"{config_dir}/config.json", 0o600)
    check(label, ["token"], expect=expect)
    check(label + " (--config)", ["token", "--config", f"{config_dir}/config.json"], expect=expect)
    check(label + ", status", ["status"], expect=expect)
os.remove(f"{config_dir}/config.json")
os.mkdir(f"{config_dir}/config.json")
check("config.json a directory", ["token"], expect="hand over")
os.rmdir(f"{config_dir}/config.json")

# Tokens the front must not print.
later = lambda seconds: stamp(now + datetime.timedelta(seconds=seconds))
for label, changes, args, expect in [
        ("expired", {"expiresAt": later(-3600)}, [], "hand over"),
        ("expires within --min-ttl", {"expiresAt": later(120)}, ["--min-ttl", "300"], "hand over"),
        ("expires within the default --min-ttl", {"expiresAt": later(30)}, [], "hand over"),
        ("expires after --min-ttl 0", {"expiresAt": later(120)}, ["--min-ttl", "0"], "answer"),
        ("no expiry", {"expiresAt": None}, [], "answer"),
        ("no access token", {"accessToken": None}, [], "hand over"),
        ("DPoP-bound", {"tokenType": "DPoP"}, [], "hand over"),
        ("DPoP-bound, lower case", {"tokenType": "dpop"}, [], "hand over"),
        ("a DPoP key", {"dpopKey": "not-a-key"}, [], "hand over"),
        ("a sealed value beside", {"sealed": "AAAA"}, [], "hand over"),
        ("tokens of other scopes beside", {"additionalTokens": {}}, [], "answer"),
        ("tokens of other scopes, damaged", {"additionalTokens": {"a": {"accessToken": "x"}}}, [], "hand over"),
        ("an unknown member", {"future": 1}, [], "hand over"),
        ("a token with escapes", {"accessToken": "a\\\"b\u00e9\u2028"}, [], None),
        ("an empty token", {"accessToken": ""}, [], None),
        ("an ID token expired, kubectl-exec", {"idToken": jwt(-3600)}, ["--format", "kubectl-exec"], "hand over"),
        ("an ID token expired, raw", {"idToken": jwt(-3600)}, [], "answer"),
        ("an ID token expired, --id-token", {"idToken": jwt(-3600)}, ["--id-token"], "hand over"),
        ("an ID token within --min-ttl, --id-token", {"idToken": jwt(100)}, ["--id-token", "--min-ttl", "200"], "hand over"),
        ("an ID token with a quote, --id-token", {"idToken": jwt(3600) + '"'}, ["--id-token"], None),
        ("an access token expired, --id-token --format header", {"expiresAt": later(-3600)}, ["--id-token", "--format", "header"], "answer"),
        ("DPoP-bound, --format header", {"tokenType": "DPoP"}, ["--format", "header"], "hand over"),
        ("DPoP-bound, --id-token --format header", {"tokenType": "DPoP"}, ["--id-token", "--format", "header"], None),
        ("a token with escapes, --format header", {"accessToken": "a\\\"b\u00e9"}, ["--format", "header"], None),
        ("a token with escapes, --format headers-json", {"accessToken": "a\\\"b\u00e9"}, ["--format", "headers-json"], "hand over"),
        ("DPoP-bound, --format headers-json", {"tokenType": "DPoP"}, ["--format", "headers-json"], "hand over"),
        ("an ID token within --min-ttl", {"idToken": jwt(100)}, ["--format", "kubectl-exec", "--min-ttl", "200"], "hand over"),
        ("an ID token after --min-ttl", {"idToken": jwt(300)}, ["--format", "kubectl-exec", "--min-ttl", "200"], "answer"),
        ("an access token expired, kubectl-exec", {"expiresAt": later(-3600)}, ["--format", "kubectl-exec"], "answer"),
        ("an ID token without exp", {"idToken": jwt(None)}, ["--format", "kubectl-exec"], "hand over"),
        ("an ID token with exp as a string", {"idToken": jwt("1")}, ["--format", "kubectl-exec"], None),
        ("an ID token with a fraction in exp", {"idToken": jwt(3600.5)}, ["--format", "kubectl-exec"], None),
        ("an ID token that is no JWT", {"idToken": "opaque"}, ["--format", "kubectl-exec"], None),
        ("an ID token with a quote", {"idToken": jwt(3600) + '"'}, ["--format", "kubectl-exec"], None),
        ("no ID token", {"idToken": None}, ["--format", "kubectl-exec"], "hand over"),
        ("a DPoP-bound session's ID token", {"tokenType": "DPoP"}, ["--format", "kubectl-exec"], None)]:
    path = place("tokens-" + label.replace(" ", "-").replace(",", ""), with_tokens(one, **changes))
    check(f"token {label}", ["token", "--keystore", path] + args, expect=expect)
    if not args:
        for status_args in (["status"], ["status", "--json"]):
            check(f"{' '.join(status_args)}: tokens {label}", status_args + ["--keystore", path],
                  expect="hand over" if "dpopKey" in changes or "sealed" in changes or "future" in changes else None)
# status: what else an identity's tokens may say.
for label, changes, expect in [
        ("marked for a new sign-in, the access token valid", {"needsSignInSince": later(-60)}, "answer"),
        ("marked for a new sign-in, the access token expired", {"needsSignInSince": later(-60), "expiresAt": later(-30)}, "answer"),
        ("marked for a new sign-in, no expiry", {"needsSignInSince": later(-60), "expiresAt": None}, "answer"),
        ("no refresh token", {"refreshToken": None}, "answer"),
        ("expires in under two minutes", {"expiresAt": later(90)}, "answer"),
        ("expires in under two hours", {"expiresAt": later(5000)}, "answer"),
        ("a token type not ASCII", {"tokenType": "DİPoP"}, "hand over"),
        ("a token type with a quote", {"tokenType": "Bea\"rer"}, "answer"),
        ("authorization details", {"authorizationDetails": [{"type": "x"}]}, "hand over")]:
    path = place("status-tokens-" + label.replace(" ", "-").replace(",", ""), with_tokens(one, **changes))
    for status_args in (["status"], ["status", "--json"]):
        check(f"{' '.join(status_args)}: {label}", status_args + ["--keystore", path], expect=expect)
# status: names and texts as the full program shows them — as they are, JSON-escaped, or (a
# control or bidirectional character, which it escapes) the full program's.
def with_user(document, identity=None, **changes):
    document = json.loads(json.dumps(document))
    target = document["users"][0] if identity is None else document["users"][0]["providerData"][0][identity]
    for key, value in changes.items():
        if value is None:
            target.pop(key, None)
        else:
            target[key] = value
    return document
for label, document, expect in [
        ("a name with accents", with_user(one, displayName="Jos\u00e9 \u00c5ngstr\u00f6m \u6771\u4eac"), "answer"),
        ("a name with a quote and a backslash", with_user(one, displayName='a "b" \\ c /d'), "answer"),
        ("a name with a tab", with_user(one, displayName="a\tb"), "hand over"),
        ("a name with an escape sequence", with_user(one, displayName="a\u001b[31mred"), "hand over"),
        ("a name with DEL", with_user(one, displayName="a\u007fb"), "hand over"),
        ("a name with a C1 control", with_user(one, displayName="a\u0085b"), "hand over"),
        ("a name with a bidirectional override", with_user(one, displayName="a\u202eb"), "hand over"),
        ("a name with an isolate", with_user(one, displayName="a\u2067b"), "hand over"),
        ("a name with a line separator", with_user(one, displayName="a\u2028b"), "hand over"),
        ("a name with the Arabic letter mark", with_user(one, displayName="a\u061cb"), "hand over"),
        ("a name with a zero-width joiner", with_user(one, displayName="a\u200db"), "answer"),
        ("an email of one emoji", with_user(one, email="\U0001f600@example.com"), "answer"),
        ("no email", with_user(one, email=None), "answer"),
        ("no email, no name", with_user(one, email=None, displayName=None), "answer"),
        ("a photo", with_user(one, photoURL="https://example.com/a.png"), "answer"),
        ("email not verified", with_user(one, emailVerified=False), "answer"),
        ("no last provider", with_user(one, lastProviderId=None), "answer"),
        ("a profile without email", with_user(one, "profile", email=None), "answer"),
        ("a profile name with an escape", with_user(one, "profile", displayName="x\u001by"), "hand over"),
        ("a date before 1970 (shown in JSON alone)", with_user(one, createdAt="1969-12-31T23:59:59Z"), None),
        ("a workload", with_user(one, kind="workload"), "hand over")]:
    path = place("status-user-" + label.replace(" ", "-").replace(",", ""), document)
    for status_args in (["status"], ["status", "--json"]):
        check(f"{' '.join(status_args)}: {label}", status_args + ["--keystore", path], expect=expect)
signed_out = json.loads(json.dumps(one))
signed_out["users"][0]["providerData"][0].pop("tokens")
path = place("status-signed-out", signed_out)
for status_args in (["status"], ["status", "--json"]):
    check(f"{' '.join(status_args)}: an identity signed out", status_args + ["--keystore", path], expect="answer")
other = json.loads(json.dumps(one))
other["users"][0]["lastProviderId"] = "oidc.elsewhere"
check("the last sign-in's provider is another", ["token", "--keystore", place("other-provider", other)], expect="hand over")
check("another provider, asked for the one it has", ["token", "oidc.bench", "--keystore", f"{root}/ks/other-provider/keystore.json"],
      expect="answer")
nobody = json.loads(json.dumps(one))
nobody.pop("currentUid")
check("nobody signed in", ["token", "--keystore", place("nobody", nobody)], expect="hand over")
firebase = json.loads(json.dumps(one))
firebase["users"][0]["backend"] = {"kind": "firebase", "projectId": "p"}
check("a Firebase user", ["token", "--keystore", place("firebase", firebase)], expect="hand over")
check("status: a Firebase user", ["status", "--keystore", f"{root}/ks/firebase/keystore.json"], expect="hand over")
check("status: nobody signed in", ["status", "--keystore", f"{root}/ks/nobody/keystore.json"], expect="hand over")
check("status --json: nobody signed in", ["status", "--json", "--keystore", f"{root}/ks/nobody/keystore.json"], expect="hand over")

# A user who also holds resources' grants (`login URL`, docs/resources.md): the front answers
# for the user's identities and checks the grants as the full program reads them; a grant it
# cannot read as the full program would (a missing or mistyped member, an unknown one, DPoP)
# goes to the full program. `token --resource` is the full program's.
grant_tokens = {"accessToken": "grant-at", "tokenType": "Bearer", "expiresAt": later(3600), "scopes": ["mcp:read"],
                "refreshToken": "grant-rt"}
def grant(**changes):
    value = {"resource": "https://api.example/mcp", "issuer": "https://as.example", "providerId": "oidc.as-example",
             "grantedAt": stamp(now), "tokens": dict(grant_tokens)}
    for key, change in changes.items():
        if change is None:
            value.pop(key, None)
        else:
            value[key] = change
    return value
def with_grants(grants):
    document = json.loads(json.dumps(one))
    document["users"][0]["resourceGrants"] = grants
    return document
for label, grants, expect in [
        ("one grant", [grant()], "answer"),
        ("two grants", [grant(), grant(resource="https://api.example/other", tokens=None)], "answer"),
        ("two grants of one sign-in", [grant(), grant(resource="https://api.example/other", refreshTokenOf="https://api.example/mcp",
                                                      tokens={k: v for k, v in grant_tokens.items() if k != "refreshToken"})], "answer"),
        ("a grant naming another's refresh token, a number", [grant(refreshTokenOf=7)], "hand over"),
        ("no grant (an empty list)", [], "answer"),
        ("a grant without tokens", [grant(tokens=None)], "answer"),
        ("a grant's tokens expired", [grant(tokens={**grant_tokens, "expiresAt": later(-3600)})], "answer"),
        ("a grant without its resource", [grant(resource=None)], "hand over"),
        ("a grant without grantedAt", [grant(grantedAt=None)], "hand over"),
        ("a grant's resource a number", [grant(resource=7)], "hand over"),
        ("a grant's date malformed", [grant(grantedAt="yesterday")], "hand over"),
        ("a grant with an unknown member", [grant(future=1)], "hand over"),
        ("a grant's tokens without scopes", [grant(tokens={"accessToken": "a", "tokenType": "Bearer"})], "hand over"),
        ("a DPoP grant", [grant(tokens={**grant_tokens, "tokenType": "DPoP", "dpopKey": "not-a-key"})], "hand over"),
        ("a grant's tokens null", [grant(tokens="null")], "hand over"),
        ("grants null", None, "hand over"),
        ("grants an object", {"a": grant()}, "hand over")]:
    document = with_grants(grants)
    if label == "a grant's tokens null":
        document["users"][0]["resourceGrants"][0]["tokens"] = None
    path = place("grants-" + label.replace(" ", "-").replace("'", "").replace("(", "").replace(")", ""), document)
    check(f"resource grants: {label}", ["token", "--keystore", path], expect=expect)
    check(f"resource grants: {label}, kubectl-exec", ["token", "--format", "kubectl-exec", "--keystore", path], expect=expect)
    for status_args in (["status"], ["status", "--json"]):
        check(f"{' '.join(status_args)}: resource grants: {label}", status_args + ["--keystore", path], expect=expect)
    check(f"resource grants: {label}, token --resource", ["token", "--resource", "https://api.example/mcp", "--keystore", path],
          expect="answer" if label in ("one grant", "two grants", "two grants of one sign-in") else "hand over")

# status of grants: chained (identity chaining), refreshable or not, scopes.
for label, grants in [
        ("a chained grant", [grant(viaProviderId="oidc.bench", viaTokenType="urn:ietf:params:oauth:token-type:jwt",
                                   tokens={k: v for k, v in grant_tokens.items() if k != "refreshToken"})]),
        ("a grant without scopes or refresh token", [grant(tokens={"accessToken": "a", "tokenType": "Bearer", "scopes": []})]),
        ("a grant of two scopes", [grant(tokens={**grant_tokens, "scopes": ["a", "b c"]})]),
        ("a grant renewed with another's refresh token",
         [grant(resource="https://api.example/other"), grant(refreshTokenOf="https://api.example/other",
                                                             tokens={k: v for k, v in grant_tokens.items() if k != "refreshToken"})]),
        ("a grant naming another's refresh token, signed out", [grant(refreshTokenOf="https://api.example/other", tokens=None)]),
        ("a grant with an escape in its resource", [grant(resource="https://api.example/\u001b")])]:
    path = place("status-grants-" + label.replace(" ", "-"), with_grants(grants))
    for status_args in (["status"], ["status", "--json"]):
        check(f"{' '.join(status_args)}: {label}", status_args + ["--keystore", path],
              expect="hand over" if "escape" in label else "answer")

# token --resource URL (docs/front.md): the front answers a plain URL covered by a grant whose
# bearer token is valid (and, a JWT, names the resource); everything else is the full program's.
def grants_keystore(name, grants):
    return place("resource-" + name, with_grants(grants))
mcp = "https://api.example/mcp"
opaque = grants_keystore("opaque", [grant()])
for label, args, expect in [
        ("raw", [], "answer"), ("--format raw", ["--format", "raw"], "answer"), ("header", ["--format", "header"], "answer"),
        ("headers-json", ["--format=headers-json"], "answer"), ("--min-ttl 0", ["--min-ttl", "0"], "answer"),
        ("--min-ttl beyond the token", ["--min-ttl", "7200"], "hand over"), ("kubectl-exec", ["--format", "kubectl-exec"], "hand over"),
        ("a provider too", ["oidc.bench"], "hand over"), ("--id-token too", ["--id-token"], "hand over"),
        ("--scope too", ["--scope", "openid"], "hand over"), ("--user too", ["--user", uid], "hand over"),
        ("--force-refresh", ["--force-refresh"], "hand over"), ("--json", ["--json"], "hand over"),
        ("--resource twice", ["--resource", "https://api.example/other"], None)]:
    check(f"token --resource: {label}", ["token", "--resource", mcp, "--keystore", opaque] + args, expect=expect)
check("token --resource=URL", ["token", f"--resource={mcp}", "--keystore", opaque], expect="answer")
check("token --resource: AUTHCTL_USER", ["token", "--resource", mcp, "--keystore", opaque], {"AUTHCTL_USER": uid}, expect="hand over")
for label, url, expect in [
        ("a path below the resource", mcp + "/tools/call", "answer"), ("a path beside it", "https://api.example/mcpx", "hand over"),
        ("another path", "https://api.example/other", "hand over"), ("the origin above it", "https://api.example", "hand over"),
        ("a host in capitals", "https://API.example/mcp", "hand over"), ("a trailing slash", mcp + "/", "hand over"),
        ("a query", mcp + "?x=1", "hand over"), ("a fragment", mcp + "#x", "hand over"), ("dot segments", mcp + "/../mcp", "hand over"),
        ("an escape", "https://api.example/m%63p", "hand over"), ("the default port written", "https://api.example:443/mcp", "hand over"),
        ("a port with a leading zero", "https://api.example:0443/mcp", "hand over"), ("plain http", "http://api.example/mcp", "hand over"),
        ("a user", "https://me@api.example/mcp", "hand over"), ("no scheme", "api.example/mcp", "hand over"),
        ("an empty URL", "", "hand over"), ("a URL with a space", "https://api.example/m cp", "hand over")]:
    check(f"token --resource: {label}", ["token", "--resource", url, "--keystore", opaque], expect=expect)
for label, grants, url, expect in [
        ("expired", [grant(tokens={**grant_tokens, "expiresAt": later(-60)})], mcp, "hand over"),
        ("no expiry", [grant(tokens={k: v for k, v in grant_tokens.items() if k != "expiresAt"})], mcp, "answer"),
        ("no access token", [grant(tokens={"tokenType": "Bearer", "scopes": [], "refreshToken": "r"})], mcp, "hand over"),
        ("no tokens", [grant(tokens=None)], mcp, "hand over"),
        ("marked for a new sign-in", [grant(tokens={**grant_tokens, "needsSignInSince": stamp(now)})], mcp, "hand over"),
        ("DPoP-bound", [grant(tokens={**grant_tokens, "tokenType": "DPoP"})], mcp, "hand over"),
        ("a token type in lower case", [grant(tokens={**grant_tokens, "tokenType": "bearer"})], mcp, "answer"),
        ("a JWT for the resource", [grant(tokens={**grant_tokens, "accessToken": jwt(3600, aud=mcp)})], mcp, "answer"),
        ("a JWT for the resource, among others", [grant(tokens={**grant_tokens, "accessToken": jwt(3600, aud=["x", mcp])})], mcp, "answer"),
        ("a JWT for the resource's origin", [grant(tokens={**grant_tokens, "accessToken": jwt(3600, aud="https://api.example")})], mcp, "answer"),
        ("a JWT for another resource", [grant(tokens={**grant_tokens, "accessToken": jwt(3600, aud="https://other.example")})], mcp, "hand over"),
        ("a JWT for a path beside it", [grant(tokens={**grant_tokens, "accessToken": jwt(3600, aud="https://api.example/mc")})], mcp, "hand over"),
        ("a JWT without aud", [grant(tokens={**grant_tokens, "accessToken": jwt(3600)})], mcp, "hand over"),
        ("a JWT with aud a number", [grant(tokens={**grant_tokens, "accessToken": jwt(3600, aud=7)})], mcp, "hand over"),
        ("a JWT with aud of mixed types", [grant(tokens={**grant_tokens, "accessToken": jwt(3600, aud=[7, mcp])})], mcp, None),
        ("a JWT with aud in capitals", [grant(tokens={**grant_tokens, "accessToken": jwt(3600, aud="https://API.example/mcp")})], mcp, None),
        ("four parts", [grant(tokens={**grant_tokens, "accessToken": "a.b.c.d"})], mcp, "answer"),
        # A `.` and a combining mark is one character to the full program: three parts, whose aud it checks.
        ("three parts and a dot with a combining mark", [grant(tokens={**grant_tokens, "accessToken": jwt(3600, aud="https://other.example") + ".\u0301"})], mcp, "hand over"),
        ("four parts and a zero-width joiner", [grant(tokens={**grant_tokens, "accessToken": "a.b.c.\u200d"})], mcp, "hand over"),
        ("three parts, not base64", [grant(tokens={**grant_tokens, "accessToken": "a!.b.c"})], mcp, None),
        ("three parts, a header without alg", [grant(tokens={**grant_tokens, "accessToken": "e30.eyJhdWQiOiJ4In0.c2ln"})], mcp, None),
        ("the longest grant wins", [grant(resource="https://api.example", tokens={**grant_tokens, "accessToken": "origin-at"}),
                                    grant(tokens={**grant_tokens, "accessToken": "mcp-at"})], mcp + "/x", "answer"),
        ("the longest grant wins, listed first", [grant(tokens={**grant_tokens, "accessToken": "mcp-at"}),
                                                  grant(resource="https://api.example", tokens={**grant_tokens, "accessToken": "origin-at"})],
         mcp, "answer"),
        ("the newest of two for one resource", [grant(issuer="https://old.example", grantedAt=stamp(now - datetime.timedelta(days=1)),
                                                      tokens={**grant_tokens, "accessToken": "old-at"}),
                                                grant(tokens={**grant_tokens, "accessToken": "new-at"})], mcp, "answer"),
        ("the newest of two, listed first", [grant(tokens={**grant_tokens, "accessToken": "new-at"}),
                                             grant(issuer="https://old.example", grantedAt=stamp(now - datetime.timedelta(days=1)),
                                                   tokens={**grant_tokens, "accessToken": "old-at"})], mcp, "answer"),
        ("two for one resource granted at once", [grant(tokens={**grant_tokens, "accessToken": "first-at"}),
                                                  grant(issuer="https://other.example", tokens={**grant_tokens, "accessToken": "second-at"})],
         mcp, "answer"),
        ("the newest expired, the older valid", [grant(tokens={**grant_tokens, "expiresAt": later(-60)}),
                                                 grant(issuer="https://old.example", grantedAt=stamp(now - datetime.timedelta(days=1)))],
         mcp, "hand over"),
        ("a grant of a form the front does not judge", [grant(resource="https://api.example/a%20b"), grant()], mcp, "hand over"),
        ("loopback http", [grant(resource="http://127.0.0.1:8080/mcp")], "http://127.0.0.1:8080/mcp", "answer"),
        ("localhost", [grant(resource="http://localhost:8080/mcp")], "http://localhost:8080/mcp", "hand over")]:
    path = grants_keystore(label.replace(" ", "-").replace(",", "").replace("'", ""), grants)
    check(f"token --resource: {label}", ["token", "--resource", url, "--keystore", path], expect=expect)
    check(f"token --resource: {label}, header", ["token", "--resource", url, "--format", "header", "--keystore", path],
          expect=expect)
# What is not the user's (another user's record, a registration) damaged: token --resource reads
# the user alone in both programs, as token does (the full program reported the keystore corrupt).
for label, damage in [("another user without createdAt", "user"), ("a damaged registration", "registration")]:
    document = with_grants([grant()])
    if damage == "user":
        other_user = json.loads(json.dumps(document["users"][0]))
        other_user["uid"] = "someone-else"
        other_user.pop("createdAt")
        document["users"].append(other_user)
    else:
        document["registrations"] = [{"providerId": 5}]
    path = place("resource-damaged-" + damage, document)
    check(f"token --resource: {label}", ["token", "--resource", mcp, "--keystore", path], expect="answer")
    check(f"token: {label}", ["token", "--keystore", path], expect="answer")

# A sealed keystore: its grants' tokens are opened by the full program alone.
directory = f"{root}/sealed-grants"
os.makedirs(directory, mode=0o700)
sealed_grants, grants_key = f"{directory}/keystore.json", f"{directory}/key"
shutil.copy(opaque, sealed_grants)
os.chmod(sealed_grants, 0o600)
with open(os.open(grants_key, os.O_WRONLY | os.O_CREAT, 0o600), "wb") as f:
    f.write(subprocess.run([core, "keystore", "new-key"], capture_output=True, check=True).stdout)
subprocess.run([core, "keystore", "seal", "--keystore", sealed_grants, "--key-file", grants_key, "-q"], check=True, env=dict(base_env),
               capture_output=True)
check("sealed, with a grant: token", ["token", "--keystore", sealed_grants], expect="hand over")
check("sealed, with a grant: token --resource", ["token", "--resource", mcp, "--keystore", sealed_grants], expect="hand over")

# Files the core's SafeFile refuses.
good = f"{root}/ks/1-user/keystore.json"
os.makedirs(f"{root}/ks/link", mode=0o700)
os.symlink(good, f"{root}/ks/link/keystore.json")
check("a symbolic link", ["token", "--keystore", f"{root}/ks/link/keystore.json"], expect="hand over")
with open(good, "rb") as f:
    good_bytes = f.read()
check("group-readable", ["token", "--keystore", place("group-readable", raw=good_bytes, mode=0o640)], expect="hand over")
check("world-writable", ["token", "--keystore", place("world-writable", raw=good_bytes, mode=0o606)], expect="hand over")
check("a group-writable directory", ["token", "--keystore", place("group-dir", raw=good_bytes, dir_mode=0o770)], expect="hand over")
check("a sticky shared directory", ["token", "--keystore", place("sticky-dir", raw=good_bytes, dir_mode=0o1777)], expect="hand over")
os.makedirs(f"{root}/ks/fifo", mode=0o700)
os.mkfifo(f"{root}/ks/fifo/keystore.json", 0o600)
check("a FIFO", ["token", "--keystore", f"{root}/ks/fifo/keystore.json"], expect="hand over")
if os.geteuid() == 0:
    path = place("another-owner", raw=good_bytes)
    os.chown(path, 12345, 12345)
    check("another user's file", ["token", "--keystore", path], expect="hand over")

# Sealed with a key file (docs/keystore.md): the key given by AUTHCTL_KEYSTORE_KEY_FILE or
# named by the keystore, raw or in base64; a wrong, unsafe or missing key, a passphrase, a
# sealed value or a readable field changed without the key: the full program's.
def sealed_copy(name, key_name="key", key_text=None, **seal_args):
    directory = f"{root}/sealed/{name}"
    os.makedirs(directory, mode=0o700)
    path, key = f"{directory}/keystore.json", f"{directory}/{key_name}"
    shutil.copy(good, path)
    os.chmod(path, 0o600)
    if key_text is None:
        done = subprocess.run([core, "keystore", "new-key"], capture_output=True, check=True)
        key_text = done.stdout
    with open(os.open(key, os.O_WRONLY | os.O_CREAT, 0o600), "wb") as f:
        f.write(key_text)
    subprocess.run([core, "keystore", "seal", "--keystore", path, "--key-file", key, "-q"], check=True, env=dict(base_env), capture_output=True)
    return path, key

path, key = sealed_copy("base64")
check("sealed: AUTHCTL_KEYSTORE_KEY_FILE", ["token", "--keystore", path], {"AUTHCTL_KEYSTORE_KEY_FILE": key}, expect="answer")
check("sealed: the key file the keystore names", ["token", "--keystore", path], expect="answer")
check("sealed: kubectl-exec", ["token", "--keystore", path, "--format", "kubectl-exec"], expect="answer")
check("sealed: AUTHCTL_KEYSTORE_KEY_FILE empty", ["token", "--keystore", path], {"AUTHCTL_KEYSTORE_KEY_FILE": ""}, expect="answer")
other_path, other_key = sealed_copy("other")
check("sealed: another keystore's key", ["token", "--keystore", path], {"AUTHCTL_KEYSTORE_KEY_FILE": other_key}, expect="hand over")
check("sealed: a missing key file", ["token", "--keystore", path], {"AUTHCTL_KEYSTORE_KEY_FILE": f"{root}/no.key"}, expect="hand over")
check("sealed: a passphrase given too", ["token", "--keystore", path],
      {"AUTHCTL_KEYSTORE_KEY_FILE": key, "AUTHCTL_KEYSTORE_PASSPHRASE": "x"}, expect="hand over")
os.chmod(key, 0o640)
check("sealed: a group-readable key file", ["token", "--keystore", path], {"AUTHCTL_KEYSTORE_KEY_FILE": key}, expect="hand over")
os.chmod(key, 0o600)
os.symlink(key, f"{root}/sealed/base64/link.key")
check("sealed: a key file that is a symbolic link", ["token", "--keystore", path],
      {"AUTHCTL_KEYSTORE_KEY_FILE": f"{root}/sealed/base64/link.key"}, expect="hand over")
raw_path, raw_key = sealed_copy("raw", key_text=os.urandom(32))
check("sealed: a raw key file", ["token", "--keystore", raw_path], {"AUTHCTL_KEYSTORE_KEY_FILE": raw_key}, expect="answer")
check("sealed: status", ["status", "--keystore", path], expect="hand over")
check("sealed: status --json", ["status", "--json", "--keystore", path], {"AUTHCTL_KEYSTORE_KEY_FILE": key}, expect="hand over")
import base64 as b64
spaced_path, _ = sealed_copy("spaced", key_text=b"  " + b64.b64encode(os.urandom(32)) + b"\r\n\n")
check("sealed: a key in base64 among white space", ["token", "--keystore", spaced_path], expect="answer")
with open(path, "rb") as f:
    sealed_bytes = f.read()
sealed_text = sealed_bytes.decode()
start = sealed_text.index('"sealed" : "') + len('"sealed" : "')
for offset in (0, 5, 20, 40):
    index = start + offset
    flipped = sealed_text[:index] + ("A" if sealed_text[index] != "A" else "B") + sealed_text[index + 1:]
    check(f"sealed: a sealed value changed at {offset}", ["token", "--keystore", place(f"sealed-flip-{offset}", raw=flipped.encode())],
          {"AUTHCTL_KEYSTORE_KEY_FILE": key}, expect="hand over")
escaped = sealed_text[:start] + sealed_text[start:].replace("/", "\\/", 1)
if escaped != sealed_text:
    check("sealed: a sealed value with an escaped slash (as JSON may write it)", ["token", "--keystore", place("sealed-escaped", raw=escaped.encode())],
          {"AUTHCTL_KEYSTORE_KEY_FILE": key}, expect="hand over")
document = json.loads(sealed_bytes)
document["users"][0]["providerData"][0]["tokens"]["expiresAt"] = later(2 * 365 * 86400)
check("sealed: a later expiry written without the key", ["token", "--keystore", place("sealed-later", document)],
      {"AUTHCTL_KEYSTORE_KEY_FILE": key}, expect="hand over")
document = json.loads(sealed_bytes)
document["users"][0]["providerData"][0]["tokens"]["accessToken"] = "planted"
check("sealed: a plaintext token beside the sealed one", ["token", "--keystore", place("sealed-planted", document)],
      {"AUTHCTL_KEYSTORE_KEY_FILE": key}, expect="hand over")
document = json.loads(sealed_bytes)
document["users"][0]["providerData"][0]["federatedId"] = "someone-else"
check("sealed: another identity's place", ["token", "--keystore", place("sealed-moved", document)],
      {"AUTHCTL_KEYSTORE_KEY_FILE": key}, expect="hand over")
document = json.loads(sealed_bytes)
document["sealing"]["keyCheck"] = b64.b64encode(bytes(16)).decode()
check("sealed: another key check", ["token", "--keystore", place("sealed-check", document)],
      {"AUTHCTL_KEYSTORE_KEY_FILE": key}, expect="hand over")
document = json.loads(sealed_bytes)
document["version"] = 1
check("sealed: version 1 with a sealing", ["token", "--keystore", place("sealed-v1", document)],
      {"AUTHCTL_KEYSTORE_KEY_FILE": key}, expect="hand over")
size = len(sealed_bytes)
for cut in range(0, size, max(1, size // 25)):
    check(f"sealed: cut at {cut}", ["token", "--keystore", place(f"sealed-cut-{cut}", raw=sealed_bytes[:cut])],
          {"AUTHCTL_KEYSTORE_KEY_FILE": key})
passphrase_path = place("passphrase", raw=good_bytes)
subprocess.run([core, "keystore", "seal", "--keystore", passphrase_path, "--passphrase-env", "PW", "-q"], env=dict(base_env, PW="a long passphrase"),
               capture_output=True)
check("sealed with a passphrase", ["token", "--keystore", passphrase_path], {"AUTHCTL_KEYSTORE_PASSPHRASE": "a long passphrase"},
      expect="hand over")
check("sealed with a passphrase, none given", ["token", "--keystore", passphrase_path], expect="hand over")
# The format 2 fixture (Tests/Fixtures/sealed-keystore-v2.json): its key file holds the bytes 32…63.
with open(f"{here}/../Fixtures/sealed-keystore-v2.json", "rb") as f:
    v2 = place("sealed-v2", raw=f.read())
v2_key = f"{root}/ks/sealed-v2/key"
with open(os.open(v2_key, os.O_WRONLY | os.O_CREAT, 0o600), "wb") as f:
    f.write(bytes(range(32, 64)))
for args in (["token"], ["token", "--min-ttl", "0"], ["token", "--format", "kubectl-exec"]):
    check(f"the format 2 fixture: {' '.join(args)}", args + ["--keystore", v2], {"AUTHCTL_KEYSTORE_KEY_FILE": v2_key})

# Damaged copies: cut anywhere, a byte changed anywhere (the first 4 KB, the record, the tail).
size = len(good_bytes)
cuts = sorted(set(list(range(0, 200, 7)) + list(range(200, size, max(1, size // 60))) + [size - k for k in range(1, 40)]))
for cut in cuts:
    check(f"cut at {cut}", ["token", "--keystore", place(f"cut-{cut}", raw=good_bytes[:cut])])
    check(f"status: cut at {cut}", ["status", "--keystore", f"{root}/ks/cut-{cut}/keystore.json"])
for offset in sorted(set(list(range(0, size, max(1, size // 50))) + [size - k for k in range(1, 30)])):
    for replacement in (b"\"", b"}", b"\\", b"\x00", b"7"):
        damaged = good_bytes[:offset] + replacement + good_bytes[offset + 1:]
        if damaged != good_bytes:
            check(f"byte {offset} as {replacement!r}", ["token", "--keystore", place(f"byte-{offset}-{replacement[0]}", raw=damaged)])
            if replacement in (b"\"", b"7"):
                check(f"status: byte {offset} as {replacement!r}", ["status", "--json", "--keystore", f"{root}/ks/byte-{offset}-{replacement[0]}/keystore.json"])

# Every keystore the Swift tests know, each user current in turn. Each case states what the
# front must do (Tests/Front/corpus-expected.txt: `answer` or `hand over`, then the case), so a
# drift between the front and the full program fails instead of silently handing over; a case
# the file does not name fails too. AUTHCTL_FRONT_WRITE_EXPECTED=1 writes the file from this run
# (review its diff: every line that changes is a change of what the front answers).
corpus_answered = 0
expected_path = f"{here}/corpus-expected.txt"
write_expected = os.environ.get("AUTHCTL_FRONT_WRITE_EXPECTED") == "1"
expected = {}
if os.path.exists(expected_path) and not write_expected:
    with open(expected_path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                verdict, case = line.rstrip("\n").split("\t", 1)
                expected[case] = verdict
written = []
if corpus:
    for name in sorted(os.listdir(corpus)):
        with open(f"{corpus}/{name}", "rb") as f:
            data = f.read()
        # As written (their tokens expired long ago), and with every expiry in 2099.
        import re
        future = re.sub(rb'("expiresAt" *: *")[0-9T:Z-]{20}"', rb'\g<1>2099-12-31T23:59:59Z"', data)
        for variant, raw in (("", data), ("future-", future)):
            path = place(f"corpus-{variant}{name}", raw=raw)
            # git-credential get (issue 37) for the current user's first provider, git announcing authtype.
            try:
                document = json.loads(data)
                current = [u for u in document["users"] if u["uid"] == document["currentUid"]][0]
                provider = current["providerData"][0]["providerId"]
            except Exception:
                provider = "oidc.bench"
            git = b"capability[]=authtype\nprotocol=https\nhost=git.example.com\n\n"
            for args, stdin in ((["token"], b""), (["token", "--min-ttl", "0"], b""), (["token", "--format", "kubectl-exec"], b""),
                                (["git-credential", provider, "get"], git), (["status"], b""), (["status", "--json"], b"")):
                case = f"corpus {variant}{name}: {' '.join(args)}"
                if not write_expected and case not in expected:
                    failures.append(f"{case}: {expected_path} does not say whether the front answers it")
                before = answered
                check(case, args + ["--keystore", path], expect=expected.get(case), stdin=stdin)
                corpus_answered += answered - before
                written.append(("answer" if answered > before else "hand over") + "\t" + case)
    if corpus_answered == 0:
        failures.append("the front answered none of the Swift tests' keystores")
    if write_expected:
        with open(expected_path, "w") as f:
            f.write("# What the token front does with each keystore of the Swift tests (Tests/Front/agreement.py).\n")
            f.write("\n".join(written) + "\n")
    elif len(expected) != len(written):
        failures.append(f"{expected_path} names {len(expected)} cases, the corpus made {len(written)}: write it again")

# The hand-over runs only a full program that no one but root, this user or the front's own
# owner could have put there: a front copied into a directory of ours inside a shared one (a
# build in /tmp/x/) must not run the `lib/authctl/authctl` another user planted beside it.
shared = f"{root}/shared"
os.makedirs(f"{shared}/mine", mode=0o700)
os.chmod(shared, 0o1777)
shutil.copy(front, f"{shared}/mine/authctl")
os.makedirs(f"{shared}/lib/authctl")
shutil.copy(core, f"{shared}/lib/authctl/authctl")
planted = [f"{shared}/lib", f"{shared}/lib/authctl", f"{shared}/lib/authctl/authctl"]
if os.geteuid() == 0:
    for planted_path in planted:
        os.chown(planted_path, 12345, 12345)
else:
    os.chmod(f"{shared}/lib", 0o777)
for planted_args in (["--version"], ["token", "--keystore", f"{root}/nowhere/keystore.json"]):
    cases += 1
    status, out, err = run(f"{shared}/mine/authctl", planted_args, dict(base_env))
    if status != 1 or out != b"" or b"reinstall authctl" not in err or f"{shared}/lib/authctl/authctl".encode() not in err:
        failures.append(f"a full program planted by another user beside a copied front ran: {planted_args} gave {status} {out[:60]!r} {err[:200]!r}")
if os.geteuid() == 0:
    # Ours again, but writable by every user: refused too.
    for planted_path in planted:
        os.chown(planted_path, 0, 0)
    os.chmod(f"{shared}/lib/authctl", 0o777)
    cases += 1
    status, out, err = run(f"{shared}/mine/authctl", ["--version"], dict(base_env))
    if status != 1 or out != b"" or b"reinstall authctl" not in err:
        failures.append(f"a full program in a directory every user may write to ran: {status} {out[:60]!r} {err[:200]!r}")
    os.chmod(f"{shared}/lib/authctl", 0o755)
    cases += 1
    status, out, err = run(f"{shared}/mine/authctl", ["--version"], dict(base_env))
    reference = run(core, ["--version"], dict(base_env))
    if (status, out, err) != reference:
        failures.append(f"the full program beside a copied front, ours again, did not run: {status} {out[:60]!r} {err[:200]!r}")

# Commands that pass through: arguments, stdin, exit statuses, as the full program gives them.
for args, stdin in [(["--version"], b""), (["version", "--json"], b""), (["status", "--check", "--keystore", good], b""),
                    (["exec", "--keystore", good, "--", "sh", "-c", "exit 7"], b""),
                    (["exec", "--keystore", good, "--", "printf", "%s|", "a b", "ü", "*", ""], b""),
                    (["exec", "--keystore", good, "--", "cat"], b"from stdin\n\xff\n"),
                    (["frobnicate", "ünïcode"], b""), ([], b""), (["token", "oidc.ü"], b""),
                    (["git-credential", "get"], b"protocol=https\nhost=example.com\n\n"),
                    # Options the front does not know (a resource's grant is the full program's; headers-json is
                    # answered: the hot path's cases above).
                    (["token", "--keystore", good, "--resource", "https://api.example.com/", "--format", "header"], b"")]:
    reference = check(f"passes through: {args}", args, stdin=stdin, expect="hand over")
    if args[:1] == ["exec"] and "exit 7" in args and reference[0] != 7:
        failures.append(f"exec -- sh -c 'exit 7' gave {reference[0]}, not 7")

shutil.rmtree(root, ignore_errors=True)
for failure in failures:
    print("FAIL", failure, file=sys.stderr)
print(f"front agreement: {cases} cases, the front answered {answered}, handed over {handed}"
      f"{f', {corpus_answered} of them from the Swift tests keystores' if corpus else ''}; {len(failures)} failures", file=sys.stderr)
sys.exit(1 if failures else 0)

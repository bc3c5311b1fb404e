#!/usr/bin/env python3
"""`authctl git-credential PROVIDER get` through the front (issue 37, docs/front.md) against the
full program: the same stdout, stderr and exit status for each of git's descriptions, the front
answering exactly the cases marked "answer" and handing the others over — with git's stdin,
which it has read, given to the full program byte for byte.
Usage: git-agreement.py FRONT FULL_PROGRAM"""
import datetime, json, os, shutil, subprocess, sys, tempfile

front, core = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))
root = tempfile.mkdtemp(prefix="authctl-git-front-")
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

def run(program, args, env, stdin):
    done = subprocess.run([program] + args, env=env, input=stdin, capture_output=True, timeout=60, cwd=root)
    return done.returncode, done.stdout, done.stderr

def check(name, args, stdin, expect, env_extra=None):
    global answered, handed, cases
    cases += 1
    env = dict(base_env, **(env_extra or {}))
    reference = run(core, args, env, stdin)
    through = run(full, args, env, stdin)
    if through != reference:
        failures.append(f"{name}: the installed front and the full program differ: {through!r:.300} vs {reference!r:.300}")
    status, out, err = run(alone, args, env, stdin)
    if status == 0:
        answered += 1
        if (status, out, err) != reference:
            failures.append(f"{name}: the front answered {out[:80]!r} where the full program gave {reference!r:.300}")
        if expect != "answer":
            failures.append(f"{name}: the front answered, but this case is the full program's")
    else:
        handed += 1
        if status != 1 or out != b"" or b"reinstall authctl" not in err:
            failures.append(f"{name}: the front alone neither answered nor handed over: {status} {out[:60]!r} {err!r:.300}")
        if expect == "answer":
            failures.append(f"{name}: the front handed over a case it must answer (the full program gave {reference!r:.200})")

def place(name, document, mode=0o600):
    directory = f"{root}/ks/{name}"
    os.makedirs(directory, mode=0o700)
    path = f"{directory}/keystore.json"
    with open(path, "w") as f:
        json.dump(document, f, indent=2, sort_keys=True)
    os.chmod(path, mode)
    return path

made = f"{root}/made.json"
subprocess.run([sys.executable, f"{here}/../../bench/make-keystore.py", "1", made], check=True, capture_output=True)
with open(made) as f:
    one = json.load(f)
stamp = lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ")
now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)

def with_tokens(**changes):
    document = json.loads(json.dumps(one))
    tokens = document["users"][0]["providerData"][0]["tokens"]
    for key, value in changes.items():
        if value is None:
            tokens.pop(key, None)
        else:
            tokens[key] = value
    return document

good = place("good", one)
get = ["git-credential", "oidc.bench", "get", "--keystore", good]
authtype = b"capability[]=authtype\nprotocol=https\nhost=git.example.com\n\n"
# Answered: a cached bearer token, git announcing authtype or sending its username.
for name, stdin in [("authtype", authtype),
                    ("authtype, path and wwwauth", b"capability[]=authtype\nprotocol=https\nhost=git.example.com\npath=a/b.git\nwwwauth[]=Bearer realm=\"x\"\n\n"),
                    ("authtype at the end of input", b"protocol=https\nhost=git.example.com\ncapability[]=authtype\n"),
                    ("authtype, bytes after the blank line", authtype + b"protocol=http\nrest\xff"),
                    ("no username, no authtype (the profile's email)", b"protocol=https\nhost=git.example.com\n\n"),
                    ("authtype cleared", b"capability[]=authtype\ncapability[]=\nprotocol=https\nhost=git.example.com\n\n"),
                    ("username", b"protocol=https\nhost=git.example.com\nusername=me\n\n"),
                    ("empty username", b"protocol=https\nhost=git.example.com\nusername=\n\n"),
                    ("HTTPS in capitals", b"protocol=HTTPS\nhost=git.example.com\nusername=me\n\n"),
                    ("http to localhost", b"capability[]=authtype\nprotocol=http\nhost=localhost:8080\n\n"),
                    ("http to [::1]", b"capability[]=authtype\nprotocol=http\nhost=[::1]:3000\n\n")]:
    check(f"git-credential get: {name}", get, stdin, "answer")
check("git-credential get: --keystore first", ["git-credential", "--keystore", good, "oidc.bench", "get"], authtype, "answer")
check("git-credential get: AUTHCTL_KEYSTORE", ["git-credential", "oidc.bench", "get"], authtype, "answer", {"AUTHCTL_KEYSTORE": good})
# Handed over, git's stdin with it.
for name, stdin in [("plain http elsewhere", b"capability[]=authtype\nprotocol=http\nhost=git.example.com\n\n"),
                    ("ssh", b"capability[]=authtype\nprotocol=ssh\nhost=git.example.com\n\n"),
                    ("no protocol", b"capability[]=authtype\nhost=git.example.com\n\n"),
                    ("nothing", b""), ("a blank line", b"\n"),
                    ("CRLF", b"capability[]=authtype\r\nprotocol=https\r\nhost=git.example.com\r\n\r\n"),
                    ("no final newline", b"protocol=https\nhost=git.example.com\ncapability[]=authtype"),
                    ("not key=value", b"capability[]=authtype\nprotocol=https\nhost\n\n"),
                    ("NUL", b"capability[]=authtype\nprotocol=https\nhost=a\x00b\n\n"),
                    ("non-ASCII", b"capability[]=authtype\nprotocol=https\nhost=g\xc3\xaft.example.com\n\n"),
                    ("a long line", b"capability[]=authtype\nprotocol=https\nhost=" + b"a" * 9000 + b"\n\n"),
                    ("70 KB of lines", b"capability[]=authtype\nprotocol=https\n" + b"wwwauth[]=" + b"b" * 990 + b"\n" * 1 + (b"wwwauth[]=" + b"b" * 990 + b"\n") * 70 + b"\n"),
                    ("200 KB without end", b"capability[]=authtype\n" + (b"x=" + b"y" * 998 + b"\n") * 200)]:
    check(f"git-credential get: {name}", get, stdin, "hand over")
for name, args, env in [("store", ["git-credential", "oidc.bench", "store", "--keystore", good], None),
                        ("erase of another token", ["git-credential", "oidc.bench", "erase", "--keystore", good], None),
                        ("--scope", ["git-credential", "oidc.bench", "--scope", "s", "get", "--keystore", good], None),
                        ("--user", get + ["--user", one["currentUid"]], None),
                        ("AUTHCTL_USER", get, {"AUTHCTL_USER": one["currentUid"]}),
                        ("another provider", ["git-credential", "oidc.other", "get", "--keystore", good], None),
                        ("--keystore=PATH", ["git-credential", "oidc.bench", "get", f"--keystore={good}"], None),
                        ("--json", get + ["--json"], None)]:
    check(f"git-credential: {name}", args, authtype + b"password=not-the-token\n", "hand over", env)
soon = stamp(now + datetime.timedelta(seconds=200))
for name, document in [("expires within 300 s, no refresh token", with_tokens(expiresAt=soon, refreshToken=None)),
                       ("expired", with_tokens(expiresAt=stamp(now - datetime.timedelta(days=1)), refreshToken=None)),
                       ("DPoP", with_tokens(tokenType="DPoP", refreshToken=None)),
                       ("token type MAC", with_tokens(tokenType="MAC")),
                       ("token type bearer", with_tokens(tokenType="bearer")),
                       ("no expiry", with_tokens(expiresAt=None))]:
    path = place(name.replace(" ", "-").replace(",", ""), document)
    expect = "answer" if name in ("token type bearer", "no expiry") else "hand over"
    check(f"git-credential get: {name}", ["git-credential", "oidc.bench", "get", "--keystore", path], authtype, expect)
# The username without authtype: the profile's email, else the user's, else the federated id.
def without_emails(profile, user, federated="100000"):
    document = json.loads(json.dumps(one))
    record = document["users"][0]
    record["providerData"][0]["federatedId"] = federated
    for target, value in ((record["providerData"][0]["profile"], profile), (record, user)):
        if value is None:
            target.pop("email", None)
        else:
            target["email"] = value
    return document
plain = b"protocol=https\nhost=git.example.com\n\n"
for name, document, expect in [("the user's email", without_emails(None, "u@example.com"), "answer"),
                               ("the federated id", without_emails(None, None), "answer"),
                               ("an empty federated id", without_emails(None, None, ""), "answer"),
                               ("an empty profile email", without_emails("", "u@example.com"), "answer"),
                               ("a non-ASCII email", without_emails("\u00fc@example.com", None), "hand over")]:
    path = place("username-" + name.replace(" ", "-").replace("'", ""), document)
    check(f"git-credential get, username from {name}", ["git-credential", "oidc.bench", "get", "--keystore", path], plain, expect)
check("git-credential get: a keystore others may read", get[:3] + ["--keystore", place("0644", one, 0o644)], authtype, "hand over")

shutil.rmtree(root, ignore_errors=True)
for failure in failures:
    print("FAIL", failure, file=sys.stderr)
print(f"git-credential front agreement: {cases} cases, the front answered {answered}, handed over {handed}; {len(failures)} failures", file=sys.stderr)
sys.exit(1 if failures else 0)

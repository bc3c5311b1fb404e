#!/usr/bin/env python3
"""authctl's sign-ins for a host without a browser (issue 41), end to end against Glewlwyd:
CIBA in poll mode (approved and denied through Glewlwyd's user API, with a client secret and
with private_key_jwt), and the remote bootstrap (`login --remote` on one HOME, `bootstrap` on
another, the host's stdin a pipe).

Run by run-headless-e2e.sh inside start-glewlwyd.sh (GLEWLWYD_SETTINGS, E2E_USERNAME, …); the
binary is argv[1]. Each check prints `ok`/`FAIL`; the script ends with a summary and fails
when any check failed. Every HOME is made here and removed at exit.
"""
import base64
import json
import os
import queue
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback

import requests

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from oauth_probe import Checks  # noqa: E402

authctl = os.path.abspath(sys.argv[1])
settings = json.load(open(os.environ["GLEWLWYD_SETTINGS"]))
t = Checks()
http = requests.Session()
issuer = settings["issuer"]
meta = http.get(issuer + "/.well-known/openid-configuration", timeout=20).json()
browser = f"{sys.executable} {os.path.join(here, 'glewlwyd_browser.py')}"
workdir = tempfile.mkdtemp(prefix="authctl-glewlwyd-headless-")
os.chmod(workdir, 0o700)
hint = json.dumps({"username": settings["username"]})


def crashed(kind, value, trace):
    traceback.print_exception(kind, value, trace)
    t.check("the end-to-end test ran to its end", False, repr(value))
    t.summary()
    shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(1)


sys.excepthook = crashed


def home(name):
    path = os.path.join(workdir, name)
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def environment(home_dir, **extra):
    env = {"HOME": home_dir, "PATH": os.environ["PATH"], "XDG_CONFIG_HOME": os.path.join(home_dir, ".config"),
           "XDG_DATA_HOME": os.path.join(home_dir, ".local/share"), "XDG_CACHE_HOME": os.path.join(home_dir, ".cache"),
           "E2E_USERNAME": os.environ["E2E_USERNAME"], "E2E_PASSWORD": os.environ["E2E_PASSWORD"], "LANG": "C.UTF-8"}
    env.update(extra)
    return env


def run(home_dir, *args, stdin=None, timeout=120, **extra):
    return subprocess.run([authctl, *args], env=environment(home_dir, **extra), input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def start(home_dir, *args, **extra):
    """authctl in the background, stdin a pipe; its stderr lines arrive on a queue."""
    process = subprocess.Popen([authctl, *args], env=environment(home_dir, **extra), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = queue.Queue()
    process.collected_stdout = []

    def pump():
        for line in process.stderr:
            lines.put(line)
        lines.put(None)

    def collect():
        process.collected_stdout.append(process.stdout.read())
    threading.Thread(target=pump, daemon=True).start()
    process.stdout_reader = threading.Thread(target=collect, daemon=True)
    process.stdout_reader.start()
    return process, lines


def wait_for(lines, seen, marker, seconds=30):
    """The first stderr line holding `marker` (collecting every line into `seen`), or None."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if line is None:
            return None
        seen.append(line)
        if marker in line:
            return line
    return None


def finish(process, lines, seen, seconds=60):
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    process.stdout_reader.join(timeout=5)
    out = "".join(process.collected_stdout)
    while True:
        try:
            line = lines.get(timeout=2)
        except queue.Empty:
            break
        if line is None:
            break
        seen.append(line)
    return out, "".join(seen)


def keystore_text(home_dir):
    path = os.path.join(home_dir, ".local/share/authctl/keystore.json")
    return open(path).read() if os.path.exists(path) else ""


def person():
    """The user's own session at Glewlwyd (what its login page makes), with consent for the clients."""
    session = requests.Session()
    api = settings["base_url"] + "/api/"
    session.post(api + "auth/", json={"username": settings["username"], "password": settings["password"]}, timeout=20)
    for client in (settings["ciba_client_id"], settings["pkjwt_client_id"]):
        session.put(api + "auth/grant/" + client, json={"scope": "openid g_profile"}, timeout=20)
    return session


def answer_on_device(binding_message, approve):
    """The person's device: the pending request with this binding message, approved or cancelled."""
    session = person()
    pending = session.get(issuer + "/ciba_user_list", timeout=20).json()
    request = next((r for r in pending if r.get("binding_message") == binding_message), None)
    if request is None:
        return False, f"no pending request shows {binding_message!r}: {[r.get('binding_message') for r in pending]}"
    url = request["connect_uri"] + "&g_continue" if approve else request["cancel_uri"]
    answered = session.get(url, allow_redirects=False, timeout=20)
    location = answered.headers.get("Location", "")
    expected = "ciba_message=complete" if approve else "ciba_message=cancelled"
    return answered.status_code == 302 and expected in location, location[-80:]


def ciba_login(home_dir, provider, approve, *extra, **env):
    process, lines = start(home_dir, "-v", "login", provider, "--ciba", "--login-hint", hint, "--timeout", "60", *extra, **env)
    process.stdin.close()  # no terminal, nothing on stdin: CIBA needs neither
    seen = []
    shown = wait_for(lines, seen, "Approve it only if your device shows: ")
    message = shown.split("Approve it only if your device shows: ", 1)[1].strip() if shown else None
    answered, detail = answer_on_device(message, approve) if message else (False, "no binding message shown")
    out, err = finish(process, lines, seen)
    return process.returncode, out, err, message, answered, detail


print(f"# authctl without a browser on its host, against Glewlwyd at {issuer}")
t.check("Glewlwyd's discovery names its backchannel endpoint and the poll mode",
        meta.get("backchannel_authentication_endpoint") and "poll" in meta.get("backchannel_token_delivery_modes_supported", []),
        {k: v for k, v in meta.items() if k.startswith("backchannel")})

# --- doctor says whether the provider offers CIBA ---------------------------------------------
ciba_env = {"CIBA_SECRET": settings["ciba_secret"]}
ivy = home("ivy")
added = run(ivy, "providers", "add", "oidc.ciba", "--issuer", issuer, "--client-id", settings["ciba_client_id"],
            "--client-secret-env", "CIBA_SECRET", **ciba_env)
t.check("providers add oidc.ciba (a confidential client, its secret in a variable)", added.returncode == 0, added.stderr)
doctor = run(ivy, "doctor", **ciba_env)
t.check("doctor says the provider offers CIBA in poll mode", "CIBA" in doctor.stdout + doctor.stderr
        and "poll" in doctor.stdout + doctor.stderr, (doctor.stdout + doctor.stderr)[-600:])

# --- CIBA approved (client secret) -------------------------------------------------------------
code, out, err, message, answered, detail = ciba_login(ivy, "oidc.ciba", True, **ciba_env)
t.check("login --ciba shows a generated binding message (two words and a number) before polling",
        message is not None and len(message.split("-")) == 3 and message.split("-")[2].isdigit(), err[-600:])
t.check("the person approves on their device (ciba_user_check, with their session)", answered, detail)
t.check("login --ciba exits 0 once approved, polling at Glewlwyd's interval", code == 0 and "Signed in to oidc.ciba" in out,
        f"{code} {err[-800:]}")
stored = json.loads(keystore_text(ivy) or "{}")
users = stored.get("users", [])
identity = users[0]["providerData"][0] if users else {}
t.check("the keystore holds one user with the oidc.ciba identity (issuer, pairwise sub) and its tokens",
        len(users) == 1 and identity.get("providerId") == "oidc.ciba" and identity.get("issuer") == issuer
        and identity.get("tokens", {}).get("accessToken"), json.dumps(identity)[:300])
t.check("the -v log shows the backchannel request and the polls, and no secret",
        "/ciba" in err and "/token" in err and settings["ciba_secret"] not in err
        and identity.get("tokens", {}).get("accessToken", "x") not in err and "auth_req_id" not in err, err[-600:])
status = run(ivy, "status", "--json", **ciba_env)
t.check("status --json: signed in through oidc.ciba", status.returncode == 0 and json.loads(status.stdout or "{}").get("signedIn") is True,
        status.stdout[-300:])
token = run(ivy, "token", "--force-refresh", **ciba_env)
t.check("the CIBA grant's refresh token refreshes (token --force-refresh)", token.returncode == 0 and token.stdout.strip(),
        token.stderr[-300:])
reauth_code, _, reauth_err, _, reauth_answered, _ = ciba_login(ivy, "oidc.ciba", True, "--binding-message", "reauth 7", **ciba_env)
t.check("login --ciba again (--binding-message given) signs in to the same user", reauth_answered and reauth_code == 0
        and len(json.loads(keystore_text(ivy))["users"]) == 1, reauth_err[-400:])
reauth = start(ivy, "reauth", "oidc.ciba", "--ciba", "--login-hint", hint, "--binding-message", "reauth-check", "--timeout", "60",
               **ciba_env)
reauth[0].stdin.close()
seen = []
wait_for(reauth[1], seen, "Approve it only if your device shows")
ok, detail = answer_on_device("reauth-check", True)
_, reauth_err = finish(*reauth, seen)
t.check("reauth oidc.ciba --ciba works the same way", ok and reauth[0].returncode == 0, reauth_err[-400:])

# --- CIBA denied: a typed error, the keystore unchanged -----------------------------------------
before = keystore_text(ivy)
code, out, err, message, answered, detail = ciba_login(ivy, "oidc.ciba", False, **ciba_env)
t.check("the person cancels on their device", answered, detail)
t.check("a denied CIBA sign-in is invalid-credential (exit 4), saying it was refused on the device",
        code == 4 and "refused" in err and "access_denied" in err, f"{code} {err[-500:]}")
t.check("a denied CIBA sign-in leaves the keystore byte for byte as it was", keystore_text(ivy) == before)

# --- Ctrl-C while polling: a cancelled sign-in (exit 5), nothing stored --------------------------
process, lines = start(ivy, "login", "oidc.ciba", "--ciba", "--login-hint", hint, "--timeout", "60", **ciba_env)
process.stdin.close()
seen = []
shown = wait_for(lines, seen, "Approve it only if your device shows")
process.send_signal(signal.SIGINT)
_, err = finish(process, lines, seen, seconds=20)
t.check("Ctrl-C while login --ciba polls ends it at once as a cancelled sign-in (exit 5), keystore unchanged",
        shown is not None and process.returncode == 5 and keystore_text(ivy) == before, f"{process.returncode} {err[-300:]}")

# --- CIBA refused before anything is sent -------------------------------------------------------
long = run(ivy, "login", "oidc.ciba", "--ciba", "--login-hint", hint, "--binding-message", "x" * 257, **ciba_env)
t.check("a binding message over 256 characters is refused before anything is sent (exit 2)", long.returncode == 2,
        long.stderr[-300:])
nobody = run(ivy, "login", "oidc.ciba", "--ciba", "--login-hint", json.dumps({"username": "nobody-here"}), **ciba_env)
t.check("a login hint Glewlwyd does not know: the provider's refusal, exit 4, keystore unchanged",
        nobody.returncode == 4 and keystore_text(ivy) == before, nobody.stderr[-300:])
public = home("public")
run(public, "providers", "add", "oidc.pub", "--issuer", issuer, "--client-id", settings["public_client_id"])
refused = run(public, "login", "oidc.pub", "--ciba", "--login-hint", hint)
t.check("a public client's CIBA request is refused by Glewlwyd (confidential clients only), nothing stored",
        refused.returncode == 4 and not keystore_text(public), refused.stderr[-300:])

# --- CIBA with private_key_jwt (the poll names client_id in its form) ---------------------------
jan = home("jan")
added = run(jan, "providers", "add", "oidc.cibakey", "--issuer", issuer, "--client-id", settings["pkjwt_client_id"],
            "--client-certificate-file", settings["pkjwt_key_file"])
t.check("providers add oidc.cibakey (private_key_jwt)", added.returncode == 0, added.stderr)
code, out, err, message, answered, detail = ciba_login(jan, "oidc.cibakey", True)
stored = json.loads(keystore_text(jan) or "{}")
cibakey_tokens = stored.get("users", [{}])[0].get("providerData", [{}])[0].get("tokens", {}) if stored.get("users") else {}
t.check("login --ciba with private_key_jwt: approved, signed in, the polls proving a DPoP key (token type DPoP)",
        answered and code == 0 and cibakey_tokens.get("tokenType") == "DPoP", f"{code} {detail} {err[-600:]}")

# --- The remote bootstrap: host and laptop as two HOMEs, the host's stdin a pipe -----------------


def remote(provider, host_dir, laptop_dir, paste=None, *extra):
    """login --remote on the host; bootstrap on the laptop; the laptop's last line (or `paste`) to the host."""
    host, lines = start(host_dir, "-v", "login", provider, "--remote", "--redirect-uri", settings["redirect_uri"], "--timeout", "60",
                        *extra)
    seen = []
    line = wait_for(lines, seen, "authctl bootstrap ")
    words = shlex.split(line) if line else []
    boot = None
    # The host does not listen on the redirect URI's port: the laptop's bootstrap does.
    port = int(requests.utils.urlparse(settings["redirect_uri"]).port)
    probe = socket.socket()
    probe.settimeout(2)
    host.listened = probe.connect_ex(("127.0.0.1", port)) == 0
    probe.close()
    if len(words) == 3 and paste is None:
        boot = run(laptop_dir, "bootstrap", words[2], "--browser-command", browser, "--timeout", "60")
        last = boot.stdout.strip().splitlines()[-1] if boot.stdout.strip() else ""
    else:
        last = paste or ""
    try:
        host.stdin.write(last + "\n")
        host.stdin.flush()
    except BrokenPipeError:
        pass
    out, err = finish(host, lines, seen)
    return host.returncode, out, err, words, boot, host.listened


ken = home("ken")
laptop = home("laptop")
run(ken, "providers", "add", "oidc.glew", "--issuer", issuer, "--client-id", settings["public_client_id"])
code, out, err, words, boot, listened = remote("oidc.glew", ken, laptop)
argument = words[2] if len(words) == 3 else "b1."
carried = json.loads(base64.urlsafe_b64decode(argument[3:] + "=" * (-len(argument[3:]) % 4)) or b"{}")
t.check("login --remote prints one line: authctl bootstrap and one shell-quoted argument", len(words) == 3, err[-600:])
t.check("the argument carries the authorization URL, the redirect URI and the state, and nothing else (no verifier, no key)",
        set(carried) <= {"v", "provider", "url", "redirect", "state", "formPost", "listen"} and carried.get("redirect") == settings["redirect_uri"]
        and "code_verifier" not in carried.get("url", "code_verifier"), sorted(carried))
t.check("bootstrap on the laptop (no configuration, no keystore) opens the browser and prints the line to paste",
        boot is not None and boot.returncode == 0 and boot.stdout.strip().splitlines()[-1].startswith("authctl-redirect-"),
        (boot.stderr[-600:] if boot else "not run"))
t.check("bootstrap wrote nothing on the laptop (no config, keystore or cache directory)", os.listdir(laptop) == [], os.listdir(laptop))
t.check("the pasted line completes the sign-in on the host (state and iss checked, code exchanged with its verifier)",
        code == 0 and "Signed in to oidc.glew" in out, f"{code} {err[-800:]}")
t.check("the host did not listen on the redirect URI's port while it waited (the laptop's bootstrap did)", not listened)
tokens = json.loads(keystore_text(ken) or "{}").get("users", [{}])[0].get("providerData", [{}])[0].get("tokens", {})
par_path = requests.utils.urlparse(meta.get("pushed_authorization_request_endpoint", "/par")).path
t.check("the remote sign-in went through the pushed request and is DPoP-bound to the host's key (never in the argument)",
        par_path in err and tokens.get("tokenType") == "DPoP" and "dpopKey" in tokens and tokens["dpopKey"] not in argument,
        {k: tokens.get(k) for k in ("tokenType",)})

before = keystore_text(ken)
code, out, err, words, _, _ = remote("oidc.glew", ken, laptop, paste="authctl-redirect-b1.!!not-base64!!")
t.check("a cut or changed pasted line: invalid-argument (exit 2) saying so, keystore unchanged",
        code == 2 and "cut or changed" in err and keystore_text(ken) == before, f"{code} {err[-400:]}")
stale = settings["redirect_uri"] + "?code=abc&state=not-this-one&iss=" + requests.utils.quote(issuer, safe="")
code, out, err, words, _, _ = remote("oidc.glew", ken, laptop, paste="authctl-redirect-b1." + base64.urlsafe_b64encode(
    stale.encode()).decode().rstrip("="))
t.check("a line from another sign-in (another state): refused with exit 2 naming what was expected, keystore unchanged",
        code == 2 and "not the redirect of this sign-in" in err and keystore_text(ken) == before, f"{code} {err[-400:]}")
bad = run(laptop, "bootstrap", "b1.nonsense", "--browser-command", browser)
t.check("bootstrap with a malformed argument fails before any browser opens (exit 2)", bad.returncode == 2 and "cut or changed" in bad.stderr,
        bad.stderr[-300:])

ok = t.summary()
shutil.rmtree(workdir, ignore_errors=True)
sys.exit(0 if ok else 1)

#!/usr/bin/env python3
"""authctl end to end against Glewlwyd (issue 26): DPoP-bound tokens, pushed authorization
requests, rich authorization requests and one-time refresh-token chains, with the real
`authctl` binary and the scripted browser.

Run by run-authctl-e2e.sh inside start-glewlwyd.sh (GLEWLWYD_SETTINGS, E2E_USERNAME, …);
the binary is argv[1]. Each check prints `ok`/`FAIL`; the script ends with a summary and
fails when any check failed. Every HOME, key and secret is made here and removed at exit.
"""
import base64
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

import requests
from cryptography.hazmat.primitives.asymmetric import ec

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from oauth_probe import Checks, DPoPClient, DPoPKey, b64u, jwt_claims  # noqa: E402

authctl = os.path.abspath(sys.argv[1])
settings = json.load(open(os.environ["GLEWLWYD_SETTINGS"]))
nonce_mode = settings["dpop_nonce_mandatory"]
par_required = bool(settings.get("par_required"))
t = Checks()
http = requests.Session()
meta = http.get(settings["issuer"] + "/.well-known/openid-configuration", timeout=20).json()
token_endpoint, userinfo = meta["token_endpoint"], meta["userinfo_endpoint"]
browser = f"{sys.executable} {os.path.join(here, 'glewlwyd_browser.py')}"
workdir = tempfile.mkdtemp(prefix="authctl-glewlwyd-e2e-")
os.chmod(workdir, 0o700)
rar = [{"type": settings["rar_type"], "actions": ["read"], "locations": ["https://api.example.com/accounts"]}]


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


def run(home_dir, *args, stdin=None, timeout=120):
    env = {"HOME": home_dir, "PATH": os.environ["PATH"], "XDG_CONFIG_HOME": os.path.join(home_dir, ".config"),
           "XDG_DATA_HOME": os.path.join(home_dir, ".local/share"), "XDG_CACHE_HOME": os.path.join(home_dir, ".cache"),
           "E2E_USERNAME": os.environ["E2E_USERNAME"], "E2E_PASSWORD": os.environ["E2E_PASSWORD"], "LANG": "C.UTF-8"}
    return subprocess.run([authctl, *args], env=env, input=stdin, capture_output=True, text=True, timeout=timeout)


def keystore(home_dir):
    with open(os.path.join(home_dir, ".local/share/authctl/keystore.json")) as f:
        return json.load(f)


def tokens_of(home_dir, provider):
    user = keystore(home_dir)["users"][0]
    return next(i for i in user["providerData"] if i["providerId"] == provider)["tokens"]


def thumbprint_of(stored):
    """The RFC 7638 thumbprint of the key the keystore holds (its private scalar, base64url)."""
    scalar = int.from_bytes(base64.urlsafe_b64decode(stored + "=" * (-len(stored) % 4)), "big")
    numbers = ec.derive_private_key(scalar, ec.SECP256R1()).public_key().public_numbers()
    canonical = json.dumps({"crv": "P-256", "kty": "EC", "x": b64u(numbers.x.to_bytes(32, "big")),
                            "y": b64u(numbers.y.to_bytes(32, "big"))}, separators=(",", ":"), sort_keys=True)
    import hashlib
    return b64u(hashlib.sha256(canonical.encode()).digest())


def introspect(token):
    cc = http.post(token_endpoint, data={"grant_type": "client_credentials", "scope": settings["introspect_scope"]},
                   auth=(settings["introspector_client_id"], settings["introspector_secret"]), timeout=20).json()
    return http.post(meta["introspection_endpoint"], data={"token": token},
                     headers={"Authorization": "Bearer " + cc["access_token"]}, timeout=20).json()


def login(home_dir, provider, *extra):
    return run(home_dir, "-v", "login", provider, "--redirect-uri", settings["redirect_uri"], "--browser-command", browser,
               "--timeout", "60", *extra)


def add_provider(home_dir, provider, *extra):
    return run(home_dir, "providers", "add", provider, "--issuer", settings["issuer"], "--client-id",
               settings["public_client_id"], *extra)


mode = "nonces mandatory" if nonce_mode else "PAR required" if par_required else "nonces off"
print(f"# authctl against Glewlwyd at {settings['issuer']} ({mode})")

# --- DPoP through a pushed request, with rich authorization ---------------------------------
ada = home("ada")
added = add_provider(ada, "oidc.glew")
t.check("providers add oidc.glew", added.returncode == 0, added.stderr)
signed = login(ada, "oidc.glew", "--authorization-details", json.dumps(rar))
t.check("login through Glewlwyd's pushed authorization request endpoint exits 0", signed.returncode == 0, signed.stderr[-2000:])
par_path = requests.utils.urlparse(meta["pushed_authorization_request_endpoint"]).path
t.check("the authorization request was pushed (-v names the PAR endpoint)", par_path in signed.stderr, par_path)
stored = tokens_of(ada, "oidc.glew")
t.check("the keystore keeps token type DPoP and the identity's key", stored.get("tokenType") == "DPoP" and "dpopKey" in stored,
        {k: v for k, v in stored.items() if k in ("tokenType",)})
t.check("the grant's authorization_details are kept", stored.get("authorizationDetails", [{}])[0].get("type") == settings["rar_type"],
        stored.get("authorizationDetails"))
status = run(ada, "status", "--json")
t.check("status --json shows the authorization details", settings["rar_type"] in status.stdout, status.stdout[-500:])
jkt = thumbprint_of(stored["dpopKey"])
info = introspect(stored["accessToken"])
t.check("introspection: the access token is active and bound to the keystore's key (cnf.jkt)",
        info.get("active") is True and (info.get("cnf") or {}).get("jkt") == jkt, {k: info.get(k) for k in ("active", "cnf", "token_type")})
t.check("no secret in the -v log", stored["accessToken"] not in signed.stderr and stored["refreshToken"] not in signed.stderr
        and stored["dpopKey"] not in signed.stderr)

if par_required:
    # Pushed requests required: the sign-in above is what changes; the rest is the plain run's.
    ok = t.summary()
    shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(0 if ok else 1)

if not nonce_mode:
    header = run(ada, "token", "--format", "header", "--method", "GET", "--url", userinfo)
    lines = dict(line.split(": ", 1) for line in header.stdout.strip().splitlines() if ": " in line)
    t.check("token --format header --method --url prints Authorization: DPoP and a DPoP proof",
            header.returncode == 0 and lines.get("Authorization", "").startswith("DPoP ") and "DPoP" in lines, header.stderr)
    answer = http.get(userinfo, headers=lines, timeout=20)
    t.check("userinfo accepts authctl's header lines (200)", answer.status_code == 200, answer.status_code)
    replay = http.get(userinfo, headers={"Authorization": "Bearer " + stored["accessToken"]}, timeout=20)
    t.check("a bearer replay of the DPoP token is refused by the provider (401)", replay.status_code == 401, replay.status_code)
    proof_claims = jwt_claims(lines.get("DPoP", "x.e30.x"))
    t.check("the proof names GET, the URL, and the token's hash", proof_claims.get("htm") == "GET" and proof_claims.get("htu") == userinfo
            and "ath" in proof_claims, proof_claims)
    # The same for agents' header helpers: one JSON object (its own proof, a new jti).
    helper = run(ada, "token", "--format", "headers-json", "--method", "GET", "--url", userinfo)
    try:
        helper_headers = json.loads(helper.stdout)
    except ValueError:
        helper_headers = {}
    t.check("token --format headers-json --method --url prints one JSON object: Authorization DPoP and a DPoP proof",
            helper.returncode == 0 and helper_headers.get("Authorization", "").startswith("DPoP ") and "DPoP" in helper_headers
            and helper_headers.get("DPoP") != lines.get("DPoP"), helper.stderr)
    answer = http.get(userinfo, headers=helper_headers, timeout=20)
    t.check("userinfo accepts the headers-json headers (200)", answer.status_code == 200, answer.status_code)
    plain = run(ada, "token", "--format", "header")
    t.check("token --format header without --method/--url refuses a DPoP token (exit 2), printing nothing",
            plain.returncode == 2 and plain.stdout == "" and "--method" in plain.stderr, plain.stderr)

# A proof by another key cannot use the refresh token, and does not use it up.
other = DPoPKey()
stolen = DPoPClient(http).send("POST", token_endpoint, other, data={
    "grant_type": "refresh_token", "refresh_token": stored["refreshToken"], "client_id": settings["public_client_id"]})
t.check("the refresh token with a proof by another key is refused (invalid_dpop_proof)", stolen.status_code in (400, 401, 403)
        and "invalid_dpop_proof" in stolen.text, f"{stolen.status_code} {stolen.text[:200]}")
bare = http.post(token_endpoint, data={"grant_type": "refresh_token", "refresh_token": stored["refreshToken"],
                                       "client_id": settings["public_client_id"]}, timeout=20)
t.check("the refresh token without any proof is refused", bare.status_code >= 400, bare.status_code)

refreshed = run(ada, "token", "--force-refresh")
after = tokens_of(ada, "oidc.glew")
t.check("token --force-refresh (with a proof, " + ("after a nonce retry" if nonce_mode else "no nonce") + ") exits 0 and rotates",
        refreshed.returncode == 0 and after["refreshToken"] != stored["refreshToken"], refreshed.stderr)
info = introspect(after["accessToken"])
t.check("the refreshed token is bound to the same key", (info.get("cnf") or {}).get("jkt") == jkt and after["dpopKey"] == stored["dpopKey"],
        info.get("cnf"))

for command in (["exec", "--", "true"], ["git-credential", "oidc.glew", "get"], ["token", "--format", "kubectl-exec", "--access-token"]):
    refused = run(ada, *command, stdin="protocol=https\nhost=example.com\n\n")
    t.check(f"{command[0]} refuses a DPoP token with a message naming what to do (exit 2)",
            refused.returncode == 2 and "DPoP" in refused.stderr and after["accessToken"] not in refused.stdout + refused.stderr,
            refused.stderr[-400:])

# A sealed keystore copied elsewhere without its key gives nothing.
key_file = os.path.join(ada, "keystore.key")
new_key = run(ada, "keystore", "new-key")
with open(os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
    f.write(new_key.stdout)
sealed = run(ada, "keystore", "seal", "--key-file", key_file)
t.check("keystore seal --key-file", sealed.returncode == 0, sealed.stderr)
t.check("the sealed keystore holds no DPoP key in the clear", "dpopKey" not in json.dumps(keystore(ada)))
works = run(ada, "token", "--format", "json", "--method", "POST", "--url", "https://api.example.com/v1/items")
document = json.loads(works.stdout or "{}")
t.check("the sealed keystore still gives the token and a proof (--format json)",
        works.returncode == 0 and document.get("tokenType") == "DPoP" and document.get("dpopProof"), works.stderr)
thief = home("thief")
os.makedirs(os.path.join(thief, ".local/share/authctl"), mode=0o700)
shutil.copy(os.path.join(ada, ".local/share/authctl/keystore.json"), os.path.join(thief, ".local/share/authctl/keystore.json"))
os.makedirs(os.path.join(thief, ".config/authctl"), mode=0o700)
shutil.copy(os.path.join(ada, ".config/authctl/config.json"), os.path.join(thief, ".config/authctl/config.json"))
# Another machine: the key file is not there (the keystore names its path; this user could read it).
os.rename(key_file, key_file + ".away")
stolen = run(thief, "token", "--format", "header", "--method", "GET", "--url", userinfo)
os.rename(key_file + ".away", key_file)
t.check("the keystore copied to another HOME without its key file gives no token (keystore-error, exit 6)",
        stolen.returncode == 6 and stolen.stdout == "", f"{stolen.returncode} {stolen.stderr[-300:]}")
unsealed = run(ada, "keystore", "unseal")
t.check("keystore unseal", unsealed.returncode == 0, unsealed.stderr)

# --- Refresh chains: many processes at once never present a used refresh token ---------------
bob = home("bob")
add_provider(bob, "oidc.glew", "--dpop", "never")
signed = login(bob, "oidc.glew")
t.check("a bearer sign-in (--dpop never) for the chain test", signed.returncode == 0 and tokens_of(bob, "oidc.glew")["tokenType"] == "Bearer",
        signed.stderr[-800:])
chains = [("bearer", bob), ("DPoP", ada)]
for kind, who in chains:
    commands = []
    for index in range(32):
        if index % 4 == 0:
            commands.append(["token", "--force-refresh"])
        elif index % 4 == 1:
            commands.append(["token", "--min-ttl", "86400"])  # always "about to expire": a refresh
        elif kind == "bearer" and index % 4 == 2:
            commands.append(["exec", "--", "sh", "-c", "test -n \"$AUTHCTL_TOKEN\""])
        elif kind == "bearer":
            commands.append(["git-credential", "oidc.glew", "get"])
        else:
            commands.append(["token", "--format", "header", "--method", "GET", "--url", userinfo])
    with concurrent.futures.ThreadPoolExecutor(max_workers=32) as pool:
        results = list(pool.map(lambda c: run(who, *c, stdin="protocol=https\nhost=git.example.com\n\n", timeout=300), commands))
    failed = [(c, r.returncode, r.stderr[-200:]) for c, r in zip(commands, results) if r.returncode != 0]
    t.check(f"{kind}: 32 processes mixing token, --force-refresh, --min-ttl and {'exec, git-credential' if kind == 'bearer' else 'header'}"
            " all succeed", not failed, failed[:3])
    final = run(who, "token", "--force-refresh")
    t.check(f"{kind}: the refresh chain is alive afterwards (one more refresh works)", final.returncode == 0, final.stderr[-300:])

# --- A process stopped after the provider answered and before it stored the new token --------
before = tokens_of(bob, "oidc.glew")
lost = http.post(token_endpoint, data={"grant_type": "refresh_token", "refresh_token": before["refreshToken"],
                                       "client_id": settings["public_client_id"]}, timeout=20)
t.check("(the lost refresh: the provider rotated the token, nothing stored it)", lost.status_code == 200, lost.status_code)
dead = run(bob, "token", "--force-refresh")
t.check("the next refresh presents the used token: invalid-credential (exit 4) saying the session ended and to sign in again",
        dead.returncode == 4 and "Sign in again" in dead.stderr and "used already" in dead.stderr, dead.stderr[-500:])
status = run(bob, "status")
t.check("status then says the session needs a sign-in", "needs sign-in" in status.stdout + status.stderr, status.stdout[-300:])
again = login(bob, "oidc.glew")
t.check("signing in again works", again.returncode == 0, again.stderr[-300:])

# --- FAPI 2.0: Glewlwyd does not announce iss on the redirect, so authctl refuses to go on -----
carol = home("carol")
add_provider(carol, "oidc.fapi", "--profile", "fapi2")
fapi = login(carol, "oidc.fapi")
t.check("--profile fapi2 refuses a provider whose metadata lacks a FAPI 2.0 requirement (exit 7), naming it",
        fapi.returncode == 7 and "authorization_response_iss_parameter_supported" in fapi.stderr, fapi.stderr[-400:])

# --- The device flow: the device code bound to the key (dpop_jkt), each poll with a proof ------
frank = home("frank")
add_provider(frank, "oidc.glew")
device = subprocess.Popen([authctl, "login", "oidc.glew", "--device-code", "--timeout", "60"], env={
    "HOME": frank, "PATH": os.environ["PATH"], "XDG_CONFIG_HOME": frank + "/.config", "XDG_DATA_HOME": frank + "/.local/share",
    "XDG_CACHE_HOME": frank + "/.cache"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
user_code, seen = None, []
for line in device.stderr:
    seen.append(line)
    if "enter the code" in line:
        user_code = line.rsplit("enter the code", 1)[1].strip().rstrip(")")
        break
approved = False
if user_code:
    person = requests.Session()
    api = settings["base_url"] + "/api/"
    person.post(api + "auth/", json={"username": settings["username"], "password": settings["password"]}, timeout=20)
    person.put(api + "auth/grant/" + settings["public_client_id"], json={"scope": "openid g_profile"}, timeout=20)
    entered = person.get(meta["device_authorization_endpoint"].replace("/device_authorization", "/device"),
                         params={"code": user_code, "g_continue": ""}, allow_redirects=False, timeout=20)
    approved = entered.status_code == 302
try:
    _, rest = device.communicate(timeout=90)
except subprocess.TimeoutExpired:
    device.kill()
    _, rest = device.communicate()
stored = tokens_of(frank, "oidc.glew") if device.returncode == 0 else {}
t.check("login --device-code: the person enters the code, the polls prove the key, the tokens are DPoP-bound to it",
        approved and device.returncode == 0 and stored.get("tokenType") == "DPoP"
        and (introspect(stored["accessToken"]).get("cnf") or {}).get("jkt") == thumbprint_of(stored["dpopKey"]),
        "".join(seen)[-300:] + rest[-300:])

# --- A workload: client credentials with private_key_jwt, its token DPoP-bound -----------------
dave = home("dave")
added = run(dave, "providers", "add", "oidc.glewpk", "--issuer", settings["issuer"], "--client-id", settings["pkjwt_client_id"])
t.check("providers add oidc.glewpk", added.returncode == 0, added.stderr)
workload = ["--client-credentials", "--client-id", settings["pkjwt_client_id"], "--certificate-file", settings["pkjwt_key_file"],
            "--scope", "openid"]
signed = run(dave, "login", "oidc.glewpk", *workload)
stored = tokens_of(dave, "oidc.glewpk") if signed.returncode == 0 else {}
t.check("a workload signs in with private_key_jwt and gets a DPoP-bound token", signed.returncode == 0
        and stored.get("tokenType") == "DPoP" and "dpopKey" in stored, signed.stderr[-500:])
if stored:
    info = introspect(stored["accessToken"])
    t.check("introspection: the workload's token is bound to its key", (info.get("cnf") or {}).get("jkt") == thumbprint_of(stored["dpopKey"]),
            info.get("cnf"))
    renewed = run(dave, "token", "--force-refresh")
    again = tokens_of(dave, "oidc.glewpk")
    t.check("the workload's grant runs again with a proof of the same key" + (" (after a nonce retry)" if nonce_mode else ""),
            renewed.returncode == 0 and again["accessToken"] != stored["accessToken"] and again["dpopKey"] == stored["dpopKey"]
            and (introspect(again["accessToken"]).get("cnf") or {}).get("jkt") == thumbprint_of(stored["dpopKey"]), renewed.stderr[-300:])
# --- A person's sign-in with a confidential client authenticated by private_key_jwt -------------
grace = home("grace")
added = run(grace, "providers", "add", "oidc.glewkey", "--issuer", settings["issuer"], "--client-id", settings["pkjwt_client_id"],
            "--client-certificate-file", settings["pkjwt_key_file"])
config_text = open(os.path.join(grace, ".config/authctl/config.json")).read()
t.check("providers add --client-certificate-file keeps the key file's path, never the key",
        added.returncode == 0 and settings["pkjwt_key_file"] in config_text and "PRIVATE KEY" not in config_text, added.stderr)
signed = login(grace, "oidc.glewkey")
stored = tokens_of(grace, "oidc.glewkey") if signed.returncode == 0 else {}
t.check("a person signs in through the browser with the client's private_key_jwt (pushed request, code exchange)",
        signed.returncode == 0 and stored.get("tokenType") == "DPoP" and par_path in signed.stderr, signed.stderr[-600:])
if stored:
    info = introspect(stored["accessToken"])
    t.check("introspection: the person's token was issued to the confidential client", info.get("client_id") == settings["pkjwt_client_id"]
            and info.get("active") is True, {k: info.get(k) for k in ("active", "client_id")})
    renewed = run(grace, "token", "--force-refresh")
    t.check("the refresh authenticates with a new assertion" + (" (after a nonce retry)" if nonce_mode else ""),
            renewed.returncode == 0 and tokens_of(grace, "oidc.glewkey")["refreshToken"] != stored["refreshToken"], renewed.stderr[-300:])
    os.rename(settings["pkjwt_key_file"], settings["pkjwt_key_file"] + ".away")
    before = json.dumps(keystore(grace), sort_keys=True)
    missing = run(grace, "token", "--force-refresh")
    os.rename(settings["pkjwt_key_file"] + ".away", settings["pkjwt_key_file"])
    t.check("without its key file the refresh stops before sending anything, names the file, and changes nothing",
            missing.returncode != 0 and settings["pkjwt_key_file"] in missing.stderr and json.dumps(keystore(grace), sort_keys=True) == before,
            f"{missing.returncode} {missing.stderr[-300:]}")
    held = tokens_of(grace, "oidc.glewkey")["refreshToken"]
    revoked = run(grace, "signout", "--revoke")
    t.check("signout --revoke revokes the refresh token as the confidential client (its assertion names the revocation endpoint)",
            revoked.returncode == 0 and introspect(held).get("active") is not True, f"{revoked.returncode} {revoked.stderr[-300:]}")

# FAPI 2.0 for the workload: the assertion's audience is the issuer, which Glewlwyd 2.7.5 refuses (README.md, deviation 7).
erin = home("erin")
added = run(erin, "providers", "add", "oidc.glewfapi", "--issuer", settings["issuer"], "--client-id", settings["pkjwt_client_id"],
            "--profile", "fapi2")
t.check("providers add --profile fapi2", added.returncode == 0, added.stderr)
fapi = run(erin, "login", "oidc.glewfapi", *workload)
no_keystore = not os.path.exists(os.path.join(erin, ".local/share/authctl/keystore.json"))
t.check("--profile fapi2 workload: the issuer as the assertion's audience, which Glewlwyd refuses; nothing is stored",
        fapi.returncode != 0 and "HTTP 403" in fapi.stderr and (no_keystore or not keystore(erin).get("users")),
        f"{fapi.returncode} {fapi.stderr[-300:]}")

ok = t.summary()
shutil.rmtree(workdir, ignore_errors=True)
sys.exit(0 if ok else 1)

#!/usr/bin/env python3
"""authctl end to end against authgent-server (issue 26), the second, independent DPoP
server: a workload (client credentials, a client registered here through RFC 7591) gets a
DPoP-bound token, and with `AUTHGENT_REQUIRE_DPOP=true` every grant first meets authgent's
RFC-shaped nonce challenge (401 `use_dpop_nonce` with `DPoP-Nonce`), which authctl answers
once. authgent issues no ID token, so a person's sign-in is not tried here (README.md).

Run by run-authctl-e2e.sh inside start-authgent.sh; the binary is argv[1].
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import requests

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "glewlwyd"))
from oauth_probe import Checks  # noqa: E402

authctl = os.path.abspath(sys.argv[1])
issuer = os.environ["AUTHGENT_ISSUER"]
required = os.environ.get("AUTHGENT_REQUIRE_DPOP") == "true"
t = Checks()
http = requests.Session()
meta = http.get(issuer + "/.well-known/openid-configuration", timeout=20).json()
workdir = tempfile.mkdtemp(prefix="authctl-authgent-e2e-")
os.chmod(workdir, 0o700)

registered = http.post(issuer + "/register", json={
    "client_name": "authctl workload", "grant_types": ["client_credentials"], "token_endpoint_auth_method": "client_secret_post",
    "scope": "read"}, timeout=20).json()
client_id, secret = registered["client_id"], registered.get("client_secret", "")


def run(*args):
    env = {"HOME": workdir, "PATH": os.environ["PATH"], "XDG_CONFIG_HOME": workdir + "/.config",
           "XDG_DATA_HOME": workdir + "/.local/share", "XDG_CACHE_HOME": workdir + "/.cache", "AGENT_SECRET": secret}
    return subprocess.run([authctl, *args], env=env, capture_output=True, text=True, timeout=120)


def tokens():
    with open(workdir + "/.local/share/authctl/keystore.json") as f:
        return json.load(f)["users"][0]["providerData"][0]["tokens"]


print(f"# authctl against authgent-server at {issuer} (DPoP {'required, with nonces' if required else 'optional'})")
t.check("a confidential client registered (RFC 7591) with a secret", bool(client_id and secret), sorted(registered))
added = run("providers", "add", "oidc.agent", "--issuer", issuer, "--client-id", client_id)
t.check("providers add oidc.agent", added.returncode == 0, added.stderr)
signed = run("-v", "login", "oidc.agent", "--client-credentials", "--client-id", client_id, "--client-secret-env", "AGENT_SECRET",
             "--scope", "read")
stored = tokens() if signed.returncode == 0 else {}
t.check("the workload signs in and its token is DPoP-bound" + (" (after authgent's 401 use_dpop_nonce)" if required else ""),
        signed.returncode == 0 and stored.get("tokenType") == "DPoP" and "dpopKey" in stored, signed.stderr[-600:])
if required:
    t.check("-v shows the nonce challenge answered once (two token requests)", signed.stderr.count("/token") == 2, signed.stderr[-600:])
seen = http.post(meta["introspection_endpoint"], data={"token": stored.get("accessToken", "")}, timeout=20).json()
t.check("introspection: active, token_type DPoP", seen.get("active") is True and seen.get("token_type") == "DPoP", seen)
t.check("no secret in the -v log", secret not in signed.stderr and stored.get("accessToken", "-") not in signed.stderr)
again = run("token", "--force-refresh", "--format", "json", "--method", "GET", "--url", issuer + "/userinfo")
document = json.loads(again.stdout or "{}")
t.check("the grant runs again with a proof of the same key, and json gives the token and a proof",
        again.returncode == 0 and document.get("tokenType") == "DPoP" and document.get("dpopProof") and tokens()["dpopKey"] == stored.get("dpopKey"),
        again.stderr[-400:])
refused = run("exec", "--", "true")
t.check("exec refuses the DPoP token (exit 2)", refused.returncode == 2 and "DPoP" in refused.stderr, refused.stderr[-300:])
ok = t.summary()
shutil.rmtree(workdir, ignore_errors=True)
sys.exit(0 if ok else 1)

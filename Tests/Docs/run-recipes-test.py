#!/usr/bin/env python3
"""Runs every recipe in docs/*.md as written, against a local provider. Prints "N passed, M failed".

    Tests/Docs/run-recipes-test.py PATH-TO-AUTHCTL

A recipe is a fenced code block preceded by a marker line:

    <!-- recipe: NAME -->            a ```sh block: run with bash -e in a private HOME
    <!-- recipe: NAME github -->     a GitHub Actions workflow: each job's steps are run
    <!-- recipe: NAME gitlab -->     a .gitlab-ci.yml: each job's before_script + script
    <!-- recipe: NAME after:OTHER --> a ```sh block run in the HOME the sh recipe OTHER ran in, after it
                                     (a recipe that goes on from the files another one made)

Substitutions (the only changes made to a recipe's text before it runs):
    https://auth.example.com                  -> the local issuer: oidc-provider-mock on 127.0.0.1 behind a small
                                                 server of this driver that adds the device flow (RFC 8628)
    https://api.example.com                   -> a local API that accepts a Bearer token the issuer issued
    https://downloads.example.com/authctl/releases/download
                                              -> a local server handing out a release archive in the
                                                 layout of scripts/package.sh, built from PATH-TO-AUTHCTL

What the CI emulation provides, as the runners do:
  GitHub Actions: RUNNER_TEMP, GITHUB_ENV, GITHUB_PATH, GITHUB_WORKSPACE (the checkout: actions/checkout
    is the only action allowed), HOME; `${{ secrets.X }}`, `${{ env.X }}`, `${{ runner.temp }}`, `${{ github.X }}`
    expressions are substituted as text (as GitHub does, also inside `run:` scripts) and an expression using a
    context where GitHub does not offer it (e.g. `runner` in a job's `env:`) fails the test. Each `run:` is
    `bash --noprofile --norc -eo pipefail FILE`, with workflow, job and step `env:`; umask 022.
  GitLab CI: `variables:` (with $VAR expansion), the CI/CD variables as project variables; a variable of
    type File (named *_FILE here) is a path to a temporary file written with the runner's umask (0644: GitLab
    documents no mode for it); before_script and script lines run in one `bash -eo pipefail`.
  Neither puts authctl on PATH: a recipe must install it.

Secrets: AUTHCTL_KEYSTORE_JSON (GitHub) and AUTHCTL_KEYSTORE_FILE (GitLab) hold the keystore that the
"keystore as a CI secret" recipe wrote, for a user whose name has a `'` ("Ada O'Brien"): a recipe that
quotes a secret into shell text breaks. Every file a recipe leaves (in its HOME, workspace, RUNNER_TEMP
or /tmp) that holds a token or the keystore must have mode 0600.
Only 127.0.0.1 is used; no terminal is needed. Each job gets its own TMPDIR (a container's own /tmp).

RECIPES_DIAGNOSE=1 shows every problem of a recipe at once instead of the first: authctl is on PATH from
the start, an expression in the wrong place is reported (and evaluated anyway), and every step (GitHub) or
script line (GitLab) runs even after one failed, each failure a FAIL line of its own.
"""
import base64
import hashlib
import http.client
import http.server
import json
import os
import re
import secrets
import shutil
import socket
import stat
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ISSUER_PLACEHOLDER = "https://auth.example.com"
API_PLACEHOLDER = "https://api.example.com"
RELEASES_PLACEHOLDER = "https://downloads.example.com/authctl/releases/download"
BASE_PATH = "/usr/local/bin:/usr/bin:/bin"
DIAGNOSE = os.environ.get("RECIPES_DIAGNOSE") == "1"

passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   - {name}")
    else:
        failed += 1
        print(f"FAIL - {name}" + (f"\n       {detail}" if detail else ""))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# name -> the sh recipe whose HOME it goes on in (`after:OTHER`).
AFTER = {}


def recipes():
    """(file, name, kind, text) for every marked block in docs/*.md."""
    found = []
    marker = re.compile(r"^<!-- recipe: ([a-z0-9-]+)(?: (github|gitlab))?(?: after:([a-z0-9-]+))? -->\s*$")
    for doc in sorted(os.listdir(os.path.join(ROOT, "docs"))):
        if not doc.endswith(".md"):
            continue
        lines = open(os.path.join(ROOT, "docs", doc), encoding="utf-8").read().split("\n")
        i = 0
        while i < len(lines):
            m = marker.match(lines[i])
            if m:
                j = i + 1
                if j >= len(lines) or not lines[j].startswith("```"):
                    found.append((doc, m.group(1), "broken", f"line {i + 1}: the marker is not followed by a fenced block"))
                    i += 1
                    continue
                k = j + 1
                while k < len(lines) and not lines[k].startswith("```"):
                    k += 1
                found.append((doc, m.group(1), m.group(2) or "sh", "\n".join(lines[j + 1:k]) + "\n"))
                if m.group(3):
                    AFTER[m.group(1)] = m.group(3)
                i = k
            i += 1
    return found


class Local:
    """The provider, the API and the release server; the tokens seen."""

    def __init__(self, authctl, work):
        self.work = work
        self.issuer = None
        self.api_tokens = []
        self.provider = None
        self.tarball = os.path.join(work, "authctl.tar.gz")
        self.make_tarball(authctl)

    def make_tarball(self, authctl):
        # The layout of scripts/package.sh's archive: authctl-VERSION/{bin,share/...}.
        with tarfile.open(self.tarball, "w:gz") as tar:
            tar.add(authctl, "authctl-0.0.0/bin/authctl")
            tar.add(os.path.join(ROOT, "docs", "authctl.1"), "authctl-0.0.0/share/man/man1/authctl.1")

    def start_provider(self):
        venv = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                            "authctl-e2e", "venv-oidc-provider-mock-034")
        self.venv = venv
        exe = os.path.join(venv, "bin", "oidc-provider-mock")
        if not os.access(exe, os.X_OK):
            print(f"recipes: installing oidc-provider-mock into {venv}", file=sys.stderr)
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
            subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "--disable-pip-version-check",
                            "oidc-provider-mock==0.3.4"], check=True)
        port = free_port()
        claims = {"sub": "ada", "email": "ada@example.com", "email_verified": True, "name": "Ada O'Brien"}
        # The recipes' clients are public (no secret, PKCE): let the mock's token endpoint accept
        # token_endpoint_auth_method "none" (it offers only client_secret_basic/post otherwise).
        launcher = ("import sys\n"
                    "from oidc_provider_mock import _app\n"
                    "for grant in (_app.AuthorizationCodeGrant, _app.RefreshTokenGrant):\n"
                    "    grant.TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none']\n"
                    "from oidc_provider_mock.__main__ import run\n"
                    "sys.argv[0] = 'oidc-provider-mock'\n"
                    "run()\n")
        self.provider = subprocess.Popen(
            [os.path.join(venv, "bin", "python"), "-c", launcher, "--host", "127.0.0.1", "--port", str(port), "--require-nonce", "true", "--user-claims", json.dumps(claims)],
            stdout=open(os.path.join(self.work, "provider.log"), "w"), stderr=subprocess.STDOUT,
            env=dict(os.environ, PYTHONWARNINGS="ignore"))
        self.provider_url = self.issuer = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(self.issuer + "/.well-known/openid-configuration", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("recipes: the provider did not start")

    def start_server(self):
        local = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                if re.fullmatch(r"/releases/download/v[^/]+/authctl-[^/]+-linux-[^/]+\.tar\.gz", self.path):
                    body = open(local.tarball, "rb").read()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                m = re.fullmatch(r"/releases/download/v([^/]+)/SHA256SUMS", self.path)
                if m:  # as scripts/package.sh writes it, for this machine's archive
                    digest = hashlib.sha256(open(local.tarball, "rb").read()).hexdigest()
                    body = f"{digest}  authctl-{m.group(1)}-linux-{os.uname().machine}.tar.gz\n".encode()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                if self.path.startswith("/api/"):
                    self.api()
                    return
                self.proxy()

            def do_POST(self):
                if self.path.startswith("/api/"):
                    self.api()
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                form = dict(urllib.parse.parse_qsl(body.decode("utf-8", "replace")))
                if self.path == "/device":
                    self.reply_json(200, local.device_authorize(form))
                    return
                if form.get("grant_type") == "urn:ietf:params:oauth:grant-type:device_code":
                    self.reply_json(*local.device_token(form))
                    return
                self.proxy(body)

            def reply_json(self, status, obj):
                body = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def proxy(self, body=b""):
                # Everything else goes to the provider, with this server's Host: the provider's
                # issuer and endpoints are this server's URL.
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "content-length")}
                status, out_headers, out = local.provider_request(self.command, self.path, body, headers)
                if self.path == "/.well-known/openid-configuration" and status == 200:
                    doc = json.loads(out)
                    doc["device_authorization_endpoint"] = local.base + "/device"
                    doc.setdefault("grant_types_supported", []).append("urn:ietf:params:oauth:grant-type:device_code")
                    out = json.dumps(doc).encode()
                self.send_response(status)
                for k, v in out_headers:
                    if k.lower() not in ("content-length", "transfer-encoding", "connection", "server", "date"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            def api(self):
                auth = self.headers.get("Authorization", "")
                token = auth[len("Bearer "):] if auth.startswith("Bearer ") else ""
                # Only a token the local issuer issued: its userinfo endpoint accepts it.
                ok = False
                if token:
                    try:
                        req = urllib.request.Request(local.issuer + "/userinfo", headers={"Authorization": "Bearer " + token})
                        ok = urllib.request.urlopen(req, timeout=5).status == 200
                    except OSError:
                        ok = False
                if ok:
                    local.api_tokens.append(token)
                self.send_response(200 if ok else 401)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.devices = {}
        self.issuer = self.base  # the provider as the recipes see it: through this server
        discovery = json.loads(self.provider_request("GET", "/.well-known/openid-configuration", b"", {})[2])
        self.token_path = urllib.parse.urlsplit(discovery["token_endpoint"]).path

    def provider_request(self, method, path, body, headers):
        conn = http.client.HTTPConnection("127.0.0.1", int(self.provider_url.rsplit(":", 1)[1]), timeout=20)
        headers = dict(headers, Host=self.base[len("http://"):])
        if body:
            headers["Content-Length"] = str(len(body))
        conn.request(method, path, body=body or None, headers=headers)
        resp = conn.getresponse()
        out = resp.read()
        conn.close()
        return resp.status, resp.getheaders(), out

    # The device flow (RFC 8628), which oidc-provider-mock does not offer: the "person" approving
    # the code is this server, which signs in at the provider with a code flow for the same
    # client and hands the tokens to the device's next poll.
    def device_authorize(self, form):
        device_code = secrets.token_urlsafe(24)
        self.devices[device_code] = None
        threading.Thread(target=self.approve, args=(device_code, form.get("client_id", ""), form.get("scope", "openid")),
                         daemon=True).start()
        return {"device_code": device_code, "user_code": "WDJB-MJHT", "verification_uri": self.base + "/activate",
                "expires_in": 600, "interval": 1}

    def approve(self, device_code, client_id, scope):
        verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        redirect = "http://127.0.0.1:9/callback"
        query = urllib.parse.urlencode({"response_type": "code", "client_id": client_id, "redirect_uri": redirect,
                                        "scope": scope, "state": "s", "nonce": secrets.token_urlsafe(8),
                                        "code_challenge": challenge, "code_challenge_method": "S256"})
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        _, headers, _ = self.provider_request("POST", "/oauth2/authorize?" + query, b"sub=ada", form)
        location = dict((k.lower(), v) for k, v in headers).get("location", "")
        code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query)).get("code", "")
        body = urllib.parse.urlencode({"grant_type": "authorization_code", "code": code, "redirect_uri": redirect,
                                       "client_id": client_id, "code_verifier": verifier}).encode()
        status, _, out = self.provider_request("POST", self.token_path, body, form)
        self.devices[device_code] = (status, json.loads(out or b"{}"))

    def device_token(self, form):
        result = self.devices.get(form.get("device_code", ""), "unknown")
        if result == "unknown":
            return 400, {"error": "invalid_grant"}
        if result is None:
            return 400, {"error": "authorization_pending"}
        del self.devices[form["device_code"]]
        return result

    def substitute(self, text):
        return (text.replace(RELEASES_PLACEHOLDER, self.base + "/releases/download")
                .replace(ISSUER_PLACEHOLDER, self.base)
                .replace(API_PLACEHOLDER, self.base + "/api"))

    def stop(self):
        if self.provider:
            self.provider.terminate()
            self.provider.wait()
        if hasattr(self, "server"):
            self.server.shutdown()


def private_env(home, path):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("AUTHCTL_", "XDG_", "GITHUB_", "RUNNER_", "CI_")) and k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(HOME=home, PATH=path, LANG="C.UTF-8")
    return env


def secret_values(keystore_text):
    """The tokens in a keystore: what no world-readable file may hold."""
    values = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(value, str) and re.search(r"token|secret", key, re.I) and len(value) >= 16:
                    values.add(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
    try:
        walk(json.loads(keystore_text))
    except ValueError:
        pass
    return values


def files_under(dirs):
    out = set()
    for d in dirs:
        for base, _, names in os.walk(d):
            out.update(os.path.join(base, n) for n in names)
    return out


def check_secret_files(name, dirs, before, secrets):
    """Every new file holding a secret must be private (0600 or stricter)."""
    leaks = []
    for path in sorted(files_under(dirs) - before):
        try:
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode):
                continue
            data = open(path, "rb").read(1 << 20).decode("utf-8", "replace")
        except OSError:
            continue
        if any(s in data for s in secrets) and st.st_mode & 0o077:
            leaks.append(f"{path} ({oct(st.st_mode & 0o777)})")
    check(f"{name}: files holding a token or the keystore are 0600", not leaks, "; ".join(leaks))


def remove_secret_files(paths, secrets):
    """Removes the files a recipe left in the shared /tmp: only those holding this run's secrets
    (other files that appeared meanwhile belong to other processes)."""
    for path in paths:
        try:
            if stat.S_ISREG(os.lstat(path).st_mode) and any(s in open(path, "rb").read(1 << 20).decode("utf-8", "replace")
                                                           for s in secrets):
                os.unlink(path)
        except OSError:
            pass


def run_script(script, env, cwd, log):
    with tempfile.NamedTemporaryFile("w", dir=os.path.dirname(log), suffix=".sh", delete=False) as f:
        f.write(script)
    proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", f.name], env=env, cwd=cwd,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=120, preexec_fn=lambda: os.umask(0o022))
    os.unlink(f.name)
    with open(log, "a") as out:
        out.write(proc.stdout)
    return proc.returncode, proc.stdout


# --- GitHub Actions -------------------------------------------------------------------------------------------

# Contexts GitHub makes available, per place (docs: "Contexts" -> "Context availability").
GH_JOB_ENV = {"github", "needs", "strategy", "matrix", "vars", "secrets", "inputs"}
GH_STEP = {"github", "needs", "strategy", "matrix", "job", "runner", "env", "vars", "secrets", "steps", "inputs"}
EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def gh_expand(text, where, allowed, ctx, errors):
    def one(m):
        expr = m.group(1)
        head = re.match(r"([A-Za-z_]+)\.([A-Za-z0-9_.]+)$", expr)
        if not head:
            errors.append(f"{where}: expression '{expr}' is not one this emulation knows")
            return ""
        context, key = head.group(1), head.group(2)
        if context not in allowed:
            errors.append(f"{where}: the '{context}' context is not available here (in '${{{{ {expr} }}}}')")
            if not DIAGNOSE:
                return ""
        return str(ctx.get(context, {}).get(key, ""))
    return EXPR.sub(one, str(text))


def run_github(local, name, text, secrets, workspace_files):
    import yaml
    wf = yaml.safe_load(local.substitute(text))
    for job_id, job in wf.get("jobs", {}).items():
        label = f"{name}: job {job_id}"
        work = tempfile.mkdtemp(prefix="gh-", dir=local.work)
        home, temp, ws, jobtmp = (os.path.join(work, d) for d in ("home", "runner-temp", "workspace", "tmp"))
        for d in (home, temp, ws, jobtmp):
            os.makedirs(d)
        for rel, content in workspace_files.items():
            p = os.path.join(ws, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            open(p, "w").write(content)
            os.chmod(p, 0o755)
        genv, gpath = os.path.join(temp, "_github_env"), os.path.join(temp, "_github_path")
        open(genv, "w").close()
        open(gpath, "w").close()
        errors = []
        ctx = {"secrets": secrets, "runner": {"temp": temp, "os": "Linux"}, "github": {"workspace": ws}, "env": {}}
        env = {}
        for k, v in (wf.get("env") or {}).items():
            env[k] = gh_expand(v, f"{label} workflow env {k}", GH_JOB_ENV, ctx, errors)
        for k, v in (job.get("env") or {}).items():
            env[k] = gh_expand(v, f"{label} job env {k}", GH_JOB_ENV, ctx, errors)
        log = os.path.join(work, "log")
        tmp_before = files_under(["/tmp"])
        api_before = len(local.api_tokens)
        extra_path = []
        ok, detail = True, ""
        for n, step in enumerate(job.get("steps", [])):
            where = f"{label} step {n + 1} ({step.get('name') or step.get('uses') or 'run'})"
            if "uses" in step:
                if not str(step["uses"]).startswith("actions/checkout@"):
                    ok, detail = False, f"{where}: only actions/checkout is emulated"
                    break
                continue
            for line in open(genv).read().splitlines():  # the simple NAME=value form
                if "=" in line:
                    k, v = line.split("=", 1)
                    env[k] = v
            extra_path = [p for p in reversed(open(gpath).read().splitlines()) if p]
            ctx["env"] = dict(env)
            step_env = dict(env)
            for k, v in (step.get("env") or {}).items():
                step_env[k] = gh_expand(v, f"{where} env {k}", GH_STEP, ctx, errors)
            ctx["env"] = dict(step_env)
            script = gh_expand(step.get("run", ""), f"{where} run", GH_STEP, ctx, errors)
            if errors and not DIAGNOSE:
                ok, detail = False, "; ".join(errors)
                break
            penv = private_env(home, ":".join(extra_path + ([local.bindir] if DIAGNOSE else []) + [BASE_PATH]))
            penv.update(step_env)
            penv.update(RUNNER_TEMP=temp, GITHUB_ENV=genv, GITHUB_PATH=gpath, GITHUB_WORKSPACE=ws, CI="true",
                        GITHUB_ACTIONS="true", RUNNER_OS="Linux", TMPDIR=jobtmp)
            status, out = run_script(script, penv, ws, log)
            if status != 0:
                ok, detail = False, f"{where} exited {status}: " + " | ".join(out.strip().splitlines()[-3:])
                if not DIAGNOSE:
                    break
                check(f"{where} runs", False, detail)
        check(f"{label}: expressions only where GitHub offers their contexts", not errors, "; ".join(errors))
        check(f"{label} runs", ok, detail)
        if "/api/" in json.dumps(job):
            check(f"{label}: the API got a token the provider issued", len(local.api_tokens) > api_before)
        keystore_secrets = set()
        for v in secrets.values():
            keystore_secrets |= secret_values(v)
        check_secret_files(label, [home, temp, ws, jobtmp, "/tmp"], tmp_before, keystore_secrets | set(local.api_tokens))
        remove_secret_files(files_under(["/tmp"]) - tmp_before, keystore_secrets | set(local.api_tokens))


# --- GitLab CI ------------------------------------------------------------------------------------------------

GL_RESERVED = {"stages", "variables", "default", "include", "workflow", "image", "services", "before_script", "after_script", "cache"}


def gl_expand(value, env):
    return re.sub(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))",
                  lambda m: env.get(m.group(1) or m.group(2), ""), str(value))


def run_gitlab(local, name, text, variables, workspace_files):
    import yaml
    ci = yaml.safe_load(local.substitute(text))
    for job_id, job in ci.items():
        if job_id in GL_RESERVED or job_id.startswith(".") or not isinstance(job, dict):
            continue
        label = f"{name}: job {job_id}"
        work = tempfile.mkdtemp(prefix="gl-", dir=local.work)
        home, ws, vartmp, jobtmp = (os.path.join(work, d) for d in ("home", "project", "project.tmp", "tmp"))
        for d in (home, ws, vartmp, jobtmp):
            os.makedirs(d)
        for rel, content in workspace_files.items():
            p = os.path.join(ws, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            open(p, "w").write(content)
            os.chmod(p, 0o755)
        env = {"CI": "true", "GITLAB_CI": "true", "CI_PROJECT_DIR": ws, "CI_BUILDS_DIR": work}
        for k, v in variables.items():
            if k.endswith("_FILE"):  # a variable of type File: a path to a file holding the value
                p = os.path.join(vartmp, k)
                old = os.umask(0o022)
                open(p, "w").write(v)
                os.umask(old)
                env[k] = p
            else:
                env[k] = v
        for scope in (ci.get("variables") or {}, job.get("variables") or {}):
            for k, v in scope.items():
                env[k] = gl_expand(v, env)
        lines = list(job.get("before_script") or ci.get("before_script") or []) + list(job.get("script") or [])
        tmp_before = files_under(["/tmp"])
        api_before = len(local.api_tokens)
        penv = private_env(home, (local.bindir + ":" if DIAGNOSE else "") + BASE_PATH)
        penv.update(env, TMPDIR=jobtmp)
        if DIAGNOSE:  # every line, each failure reported
            script = "set +e\n" + "".join(f"{{ {x}\n}} || echo \"recipe: line {n + 1} failed ($?): {x}\"\n"
                                          for n, x in enumerate(str(x) for x in lines))
        else:
            script = "\n".join(str(x) for x in lines) + "\n"
        status, out = run_script(script, penv, ws, os.path.join(work, "log"))
        for line in out.splitlines():
            if line.startswith("recipe: line "):
                status = status or 1
                check(f"{label} {line[len('recipe: '):]}", False, " | ".join(out.strip().splitlines()[-3:]))
        check(f"{label} runs", status == 0, f"exited {status}: " + " | ".join(out.strip().splitlines()[-3:]))
        if "/api/" in json.dumps(job):
            check(f"{label}: the API got a token the provider issued", len(local.api_tokens) > api_before)
        keystore_secrets = set()
        for v in variables.values():
            keystore_secrets |= secret_values(v)
        check_secret_files(label, [home, ws, jobtmp, "/tmp"], tmp_before, keystore_secrets | set(local.api_tokens))
        remove_secret_files(files_under(["/tmp"]) - tmp_before, keystore_secrets | set(local.api_tokens))


# --- main -----------------------------------------------------------------------------------------------------

def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: run-recipes-test.py PATH-TO-AUTHCTL")
    authctl = os.path.realpath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="authctl-recipes-")
    local = Local(authctl, work)
    try:
        local.start_provider()
        try:
            import yaml  # noqa: F401
        except ImportError:  # PyYAML (pinned) into the provider's venv, used from there
            subprocess.run([os.path.join(local.venv, "bin", "pip"), "install", "--quiet", "--disable-pip-version-check",
                            "PyYAML==6.0.3"], check=True)
            sys.path[:0] = [subprocess.run(
                [os.path.join(local.venv, "bin", "python"), "-c", "import yaml, os; print(os.path.dirname(os.path.dirname(yaml.__file__)))"],
                check=True, capture_output=True, text=True).stdout.strip()]
        local.start_server()
        bindir = local.bindir = os.path.join(work, "bin")
        os.makedirs(bindir)
        os.symlink(authctl, os.path.join(bindir, "authctl"))
        # The scripted browser: takes authctl's start URL, posts the subject at the provider's consent page.
        browser = os.path.join(work, "browser")
        open(browser, "w").write(
            "#!/bin/sh\n"
            "authorize=$(curl --silent --max-time 20 --output /dev/null --write-out '%{redirect_url}' \"$1\")\n"
            "exec curl --silent --location --max-time 20 --output /dev/null --data sub=ada \"$authorize\"\n")
        os.chmod(browser, 0o755)
        # Scripts the CI recipes call from the checkout: use the token authctl exec hands them.
        api = local.base + "/api"
        workspace_files = {
            "scripts/long-migration.sh": f'#!/bin/sh\nset -e\ncurl --silent --fail -H "Authorization: Bearer $(cat "$AUTHCTL_TOKEN_FILE")" {api}/migrate\n',
            "scripts/deploy.sh": f'#!/bin/sh\nset -e\ncurl --silent --fail -H "Authorization: Bearer $AUTHCTL_TOKEN" {api}/deploy\n',
        }
        found = recipes()
        check("docs/ci.md has marked recipes", any(doc == "ci.md" for doc, *_ in found))
        keystore = None
        homes = {}
        # The shell recipes first: the workstation sign-in writes the keystore the CI recipes use;
        # a recipe that goes on from another (`after:`) runs after it, in its HOME.
        for doc, name, kind, text in sorted(found, key=lambda r: (r[2] != "sh", r[1] in AFTER)):
            if kind == "broken":
                check(f"{doc} {name}", False, text)
                continue
            if kind == "sh":
                if name in AFTER:
                    home = homes.get(AFTER[name])
                    if home is None:
                        check(f"{doc} {name}: the recipe it goes on from ({AFTER[name]}) ran", False)
                        continue
                else:
                    home = homes[name] = tempfile.mkdtemp(prefix="sh-", dir=work)
                env = private_env(home, bindir + ":" + BASE_PATH)
                env["AUTHCTL_BROWSER"] = browser
                status, out = run_script(local.substitute(text), env, home, os.path.join(home, "..", f"{name}.log"))
                check(f"{doc} {name} runs", status == 0, f"exited {status}: " + " | ".join(out.strip().splitlines()[-3:]))
                ks = os.path.join(home, "ci-keystore.json")
                if name == "ci-keystore-secret" and os.path.exists(ks):
                    keystore = open(ks).read()
                if name == "ci-keystore-sealed" and keystore is not None and os.path.exists(ks):
                    sealed = open(ks).read()
                    check(f"{doc} {name}: the keystore is sealed and holds none of its tokens",
                          '"sealing"' in sealed and not any(v in sealed for v in secret_values(keystore)))
                    key = os.path.join(home, "ci-keystore.key")
                    check(f"{doc} {name}: the key file is 0600",
                          os.path.exists(key) and stat.S_IMODE(os.stat(key).st_mode) == 0o600)
        check("the workstation recipe (ci-keystore-secret) wrote ci-keystore.json", keystore is not None)
        if keystore is None:  # still test the CI recipes: sign in the way the recipe should have
            home = tempfile.mkdtemp(prefix="sh-", dir=work)
            env = private_env(home, bindir + ":" + BASE_PATH)
            subprocess.run(["authctl", "providers", "add", "oidc.build", "--issuer", local.issuer, "--client-id", "build-bot"],
                           env=env, cwd=home, check=True, capture_output=True)
            subprocess.run(["authctl", "login", "oidc.build", "--scope", "offline_access", "--browser-command", browser,
                            "--timeout", "30"], env=dict(env, AUTHCTL_KEYSTORE="./ci-keystore.json"), cwd=home,
                           check=True, capture_output=True, stdin=subprocess.DEVNULL)
            keystore = open(os.path.join(home, "ci-keystore.json")).read()
        check("the secret holds a ' (the user's name)", "'" in keystore)
        for doc, name, kind, text in found:
            if kind == "github":
                run_github(local, f"{doc} {name}", text, {"AUTHCTL_KEYSTORE_JSON": keystore}, workspace_files)
            elif kind == "gitlab":
                run_gitlab(local, f"{doc} {name}", text, {"AUTHCTL_KEYSTORE_FILE": keystore}, workspace_files)
        check("the API got tokens from the recipes", len(local.api_tokens) > 0)
    finally:
        local.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    finally:
        print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)

#!/usr/bin/env python3
"""`authctl request` through the front and the request program (docs/front.md) against the full
program, all real binaries, against a resource on 127.0.0.1 that records what it receives.

Usage: request-agreement.py FRONT REQUEST_PROGRAM CORE

Two installs in a private temporary directory: `full/` (bin/authctl the front,
lib/authctl/authctl-request, lib/authctl/authctl the full program) and `no-core/` (the front
and the request program alone). For every case:
  - the full install and the full program alone give the same stdout, stderr (libcurl's
    "after N ms" aside) and exit status, and the resource receives the same request (method,
    path, body, Authorization, Content-Type and the test's own headers);
  - cases marked `answer` are answered without the full program (`no-core/` gives the full
    program's output), cases marked `hand over` are not (`no-core/` exits 1 naming the full
    program and "reinstall authctl", having sent nothing — or, for a 401 or a challenged 403,
    the one request whose answer it left to the full program).
"""
import http.server, json, os, pty, re, secrets, shutil, signal, socket, subprocess, sys, tempfile, threading, time

front, request_program, core = (os.path.abspath(path) for path in sys.argv[1:4])
root = tempfile.mkdtemp(prefix="authctl-request-")
os.chmod(root, 0o700)
failures, answered, handed, cases = [], 0, 0, 0


def install(name, with_core):
    os.makedirs(f"{root}/{name}/bin")
    os.makedirs(f"{root}/{name}/lib/authctl")
    shutil.copy(front, f"{root}/{name}/bin/authctl")
    shutil.copy(request_program, f"{root}/{name}/lib/authctl/authctl-request")
    if with_core:
        os.symlink(core, f"{root}/{name}/lib/authctl/authctl")
    return f"{root}/{name}/bin/authctl"


full, alone = install("full", True), install("no-core", False)
seen, seen_lock = [], threading.Lock()


class Resource(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        kept = {name.lower(): value for name, value in self.headers.items()
                if name.lower() in ("authorization", "content-type", "user-agent") or name.lower().startswith("x-")}
        with seen_lock:
            seen.append({"method": self.command, "path": self.path, "body": body.decode("latin-1"), "headers": kept})
        path = self.path
        if path.startswith("/api/status/"):
            status, payload, extra = int(path.rsplit("/", 1)[1]), f"status {path.rsplit('/', 1)[1]}\n".encode(), {}
        elif path == "/api/401":
            status, payload, extra = 401, b"no\n", {"WWW-Authenticate": 'Bearer error="invalid_token"'}
        elif path == "/api/403-scope":
            status, payload, extra = 403, b"more\n", {"WWW-Authenticate": 'Bearer error="insufficient_scope", scope="more"'}
        elif path == "/api/403":
            status, payload, extra = 403, b"forbidden\n", {}
        elif path == "/api/403-basic":
            status, payload, extra = 403, b"basic\n", {"WWW-Authenticate": 'Basic realm="api"'}
        elif path == "/api/403-invalid":
            status, payload, extra = 403, b"invalid\n", {"WWW-Authenticate": 'Bearer error="invalid_token"'}
        elif path.startswith("/api/raw/"):
            # A status line libcurl takes and authctl does not read a status from.
            line = {"200OK": b"HTTP/1.1 200OK", "200tab": b"HTTP/1.1 200\tOK", "401x": b"HTTP/1.1 401x"}[path.rsplit("/", 1)[1]]
            self.wfile.write(line + b"\r\nContent-Length: 3\r\n\r\nok\n")
            self.wfile.flush()
            self.close_connection = True
            return
        elif path == "/api/204":
            status, payload, extra = 204, b"", {}
        elif path == "/api/big":
            status, payload, extra = 200, bytes(range(256)) * (12 << 10), {}
        elif path == "/api/cut":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"only this")
            self.wfile.flush()
            self.close_connection = True
            return
        elif path == "/api/stream":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for index in range(100):
                try:
                    self.wfile.write(f"data: {index}\n\n".encode())
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.1)
            self.close_connection = True
            return
        else:
            status, payload, extra = 200, (json.dumps(seen[-1], sort_keys=True) + "\n").encode(), {}
        self.send_response(status)
        for name, value in extra.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

    def date_time_string(self, timestamp=None):
        return "Thu, 01 Jan 2026 00:00:00 GMT"  # `--include` and `--json` show the head: one date for both runs

    def log_message(self, *arguments):
        pass


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a client that went away (a closed stdout, Ctrl-C) is part of the test


server = Server(("127.0.0.1", 0), Resource)
threading.Thread(target=server.serve_forever, daemon=True).start()
port = server.server_address[1]
api = f"http://127.0.0.1:{port}/api"
closed = socket.socket()
closed.bind(("127.0.0.1", 0))
closed_port = closed.getsockname()[1]  # bound, never listening: connection refused

home = f"{root}/home"
os.makedirs(home, mode=0o700)
store = f"{root}/store"
os.makedirs(store, mode=0o700)
token = "at-" + secrets.token_urlsafe(24)
config = f"{store}/config.json"
with open(os.open(config, os.O_WRONLY | os.O_CREAT, 0o600), "w") as handle:
    handle.write('{"version": 1, "providers": {}}')


here = os.path.dirname(os.path.abspath(__file__))
template = f"{store}/template.json"
subprocess.run([sys.executable, f"{here}/../../bench/make-keystore.py", "1", template], check=True, capture_output=True)


def keystore(name, grants):
    """The one user of bench/make-keystore.py, holding `grants`."""
    path = f"{store}/{name}.json"
    with open(template) as handle:
        document = json.load(handle)
    document["users"][0]["resourceGrants"] = grants
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as handle:
        json.dump(document, handle)
    return path


def grant(resource=api, tokens=None, **more):
    value = {"accessToken": token, "tokenType": "Bearer", "expiresAt": "2099-12-31T23:59:59Z", "scopes": ["read"]}
    value.update(tokens or {})
    return dict({"resource": resource, "issuer": "https://as.example", "providerId": "oidc.as",
                 "grantedAt": "2026-01-01T00:00:00Z", "tokens": value}, **more)


stores = {
    "plain": keystore("plain", [grant()]),
    "expired": keystore("expired", [grant(tokens={"expiresAt": "2020-01-01T00:00:00Z"})]),
    "soon": keystore("soon", [grant(tokens={"expiresAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 30))})]),
    "dpop": keystore("dpop", [grant(tokens={"tokenType": "DPoP"})]),
    "bound": keystore("bound", [grant(tokens={"egress": {"issuer": "https://as.example",
                                                         "origins": ["https://as.example:443", f"http://127.0.0.1:{port}"]}})]),
    "elsewhere": keystore("elsewhere", [grant(tokens={"egress": {"issuer": "https://as.example", "origins": ["https://as.example:443"]}})]),
    "refused": keystore("refused", [grant(resource=f"http://127.0.0.1:{closed_port}/api")]),
    "two": keystore("two", [grant(resource=f"http://127.0.0.1:{port}"), grant(resource=api + "/items")]),
}
body_file = f"{store}/body.json"
with open(body_file, "w") as handle:
    handle.write('{"from": "a file"}')
base_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8"}


def run(program, args, env, stdin=b""):
    done = subprocess.run([program] + args, env=env, input=stdin, capture_output=True, timeout=20, cwd=root)
    # libcurl's "after 3 ms" and `-v`'s "(7 ms)" are times, not words.
    return done.returncode, done.stdout, re.sub(rb"\b\d+ ms\b", b"N ms", done.stderr)


def check(name, args, expect, store_name="plain", env_extra=None, stdin=b"", sends=True):
    """`sends`: the resource gets the request (once from each program; twice through the full
    install when the request program leaves the answer to the full program)."""
    global answered, handed, cases
    cases += 1
    env = dict(base_env, **(env_extra or {}))
    args = args + ["--keystore", stores[store_name], "--config", config]
    with seen_lock:
        seen.clear()
    reference = run(core, args, env, stdin)
    with seen_lock:
        by_core = list(seen)
        seen.clear()
    through = run(full, args, env, stdin)
    with seen_lock:
        by_front = list(seen)
        seen.clear()
    result = run(alone, args, env, stdin)
    with seen_lock:
        by_alone = list(seen)
    problems = []
    if through != reference:
        problems.append(f"full install {through!r} != full program {reference!r}")
    # A hand-over after the head: exactly the request program's one request, then the full
    # program's; otherwise exactly the full program's.
    if expect == "hand over" and sends:
        if len(by_front) != len(by_core) + 1 or by_front[1:] != by_core:
            problems.append(f"the resource got {by_front} through the front, {by_core} from the full program")
    elif by_front != by_core:
        problems.append(f"the resource got {by_front} through the front, {by_core} from the full program")
    if result[0] == 1 and b"reinstall authctl" in result[2] and not result[1]:
        handed += 1
        if expect == "answer":
            problems.append(f"handed over, expected an answer: {result!r}")
        if len(by_alone) > (1 if sends else 0):
            problems.append(f"handed over after sending {len(by_alone)} requests")
    else:
        answered += 1
        if expect == "hand over":
            problems.append(f"answered, expected a hand-over: {result!r}")
        elif result != reference:
            problems.append(f"answered {result!r}, the full program {reference!r}")
    if problems:
        failures.append(f"{name}: " + "; ".join(problems))


# Answered: what a cached bearer grant sends, and every ending of the transfer.
check("GET", ["request", api + "/ok"], "answer")
check("GET below the resource, the --name=value forms", ["request", api + "/a/b", "--method=get", "--header=X-One: 1"], "answer")
check("POST with --data", ["request", api + "/ok", "--data", '{"a": 1}'], "answer")
check("PUT with --data and headers", ["request", "-X", "PUT", api + "/items/1", "--data", "x=1", "-H", "X-A: 1", "-H", "Content-Type: text/plain"], "answer")
check("PATCH, DELETE", ["request", "-X", "patch", api + "/items/1", "--data", "p"], "answer")
check("DELETE without a body", ["request", "-X", "DELETE", api + "/items/1"], "answer")
check("a header given twice keeps the last value", ["request", api + "/ok", "-H", "X-A: 1", "-H", "X-B:  spaced ", "-H", "X-A: 2"], "answer")
check("--data @FILE", ["request", api + "/ok", "--data", "@" + body_file], "answer")
check("404: the body, then exit 22", ["request", api + "/status/404"], "answer")
check("500", ["request", "-X", "POST", api + "/status/500", "--data", "z"], "answer")
check("403 without a challenge is an answer", ["request", api + "/403"], "answer")
check("204", ["request", api + "/204"], "answer")
check("403 with a Basic challenge is an answer", ["request", "-X", "POST", api + "/403-basic", "--data", "once"], "answer")
check("403 with invalid_token is an answer", ["request", "-X", "POST", api + "/403-invalid", "--data", "once"], "answer")
for raw in ["200OK", "200tab", "401x"]:
    check(f"a status line without a status ({raw}): exit 3, sent once", ["request", api + "/raw/" + raw, "--data", "once"], "answer")
check("--data @ a file of /proc (st_size 0)", ["request", api + "/ok", "--data", "@/proc/sys/kernel/ostype"], "answer")
check("a 3 MiB body", ["request", api + "/big"], "answer")
check("a body cut short: exit 3, the full program's words", ["request", api + "/cut"], "answer")
check("connection refused: exit 3, the full program's words", ["request", f"http://127.0.0.1:{closed_port}/api/x"], "answer", "refused", sends=False)
check("an egress record naming the origin", ["request", api + "/ok"], "answer", "bound")
check("the longest grant", ["request", api + "/items/2"], "answer", "two")
# Handed over before anything is sent.
for name, args in [
    ("--include", ["request", api + "/ok", "--include"]), ("--json", ["request", api + "/ok", "--json"]),
    ("-v", ["request", api + "/ok", "-v"]), ("--data -", ["request", api + "/ok", "--data", "-"]),
    ("--data @ a missing file", ["request", api + "/ok", "--data", "@" + store + "/missing"]),
    ("--data @ a directory", ["request", api + "/ok", "--data", "@" + store]),
    ("--data @ a device", ["request", api + "/ok", "--data", "@/dev/null"]),
    ("an Authorization header", ["request", api + "/ok", "-H", "authorization: Bearer other"]),
    ("a DPoP header", ["request", api + "/ok", "-H", "DPoP: x"]),
    ("a header name that is not a token", ["request", api + "/ok", "-H", "X(A): 1"]),
    ("a header that is not Name: value", ["request", api + "/ok", "-H", "nocolon"]),
    ("a method that is not letters", ["request", "-X", "G3T", api + "/ok"]),
    ("a query", ["request", api + "/ok?q=1"]), ("dot segments", ["request", api + "/x/../ok"]),
    ("a URL below no grant", ["request", f"http://127.0.0.1:{port}/other"]),
    ("two URLs", ["request", api + "/ok", api + "/ok"]), ("--timeout", ["request", api + "/ok", "--timeout", "5"]),
    ("--user", ["request", api + "/ok", "--user", "u1234567890abcdefghijklmnop"]),
]:
    check(name, args, "hand over", sends=False)
check("an expired token", ["request", api + "/ok"], "hand over", "expired", sends=False)
check("a token within 60 s of expiry (refreshed first)", ["request", api + "/ok"], "hand over", "soon", sends=False)
check("a DPoP-bound grant", ["request", api + "/ok"], "hand over", "dpop", sends=False)
check("an origin outside the grant's binding", ["request", api + "/ok"], "hand over", "elsewhere", sends=False)
check("a proxy variable", ["request", api + "/ok"], "hand over", env_extra={"https_proxy": "http://127.0.0.1:1"}, sends=False)
check("NO_PROXY", ["request", api + "/ok"], "hand over", env_extra={"NO_PROXY": "example.com"}, sends=False)
check("AUTHCTL_USER", ["request", api + "/ok"], "hand over", env_extra={"AUTHCTL_USER": "u1234567890abcdefghijklmnop"}, sends=False)
# Handed over after the answer's head: the full program sends again and decides.
check("401 invalid_token", ["request", api + "/401"], "hand over")
check("403 insufficient_scope", ["request", "-X", "POST", api + "/403-scope", "--data", "once"], "hand over")


def fifo_body():
    """`--data @FIFO`: the full program's (it reads FIFOs); the request program must not open it."""
    global cases
    cases += 1
    fifo = f"{store}/body.fifo"
    os.mkfifo(fifo, 0o600)

    def feed():
        with open(fifo, "w") as handle:
            handle.write("from a fifo")

    args = ["request", api + "/ok", "--data", "@" + fifo, "--keystore", stores["plain"], "--config", config]
    outcomes = []
    for program in (core, full, alone):
        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        with seen_lock:
            seen.clear()
        try:
            outcome = run(program, args, dict(base_env))
        except subprocess.TimeoutExpired:
            outcome = (None, b"", b"timed out (the FIFO's writer gone, the full program waiting for it)")
        if program == alone:
            # Still waiting for a reader unless the request program opened the FIFO.
            still = writer.is_alive()
            reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
            writer.join(5)
            os.close(reader)
            outcome = outcome + (still,)
        writer.join(5)
        with seen_lock:
            outcomes.append((outcome, [entry["body"] for entry in seen]))
    (reference, sent), (through, sent_through), (result, sent_alone) = outcomes
    if through != reference or sent != ["from a fifo"] or sent_through != sent:
        failures.append(f"--data @FIFO: {through!r} {sent_through} through the front, {reference!r} {sent} from the full program")
    if result[0] != 1 or b"reinstall authctl" not in result[2] or not result[3] or sent_alone:
        failures.append(f"--data @FIFO, the request program alone: {result!r}, sent {sent_alone}")


fifo_body()


def stdout_closed_at_start(program):
    """`authctl request URL >&-`: the full program's (a closed descriptor is libcurl's next one)."""
    args = [program, "request", api + "/ok", "--keystore", stores["plain"], "--config", config]
    done = subprocess.run(args, env=dict(base_env), preexec_fn=lambda: os.close(1), capture_output=False,
                          stderr=subprocess.PIPE, timeout=60, cwd=root)
    return done.returncode, done.stderr


cases += 1
closed_core, closed_full, closed_alone = (stdout_closed_at_start(program) for program in (core, full, alone))
if closed_full != closed_core or closed_alone[0] != 1 or b"reinstall authctl" not in closed_alone[1]:
    failures.append(f"stdout closed at the start: {closed_full!r} through the front, {closed_core!r} from the full program, {closed_alone!r} alone")


def closed_stdout(program):
    """Exit status when stdout closes after the first bytes of a large answer (141, silently)."""
    env = dict(base_env)
    args = [program, "request", api + "/big", "--keystore", stores["plain"], "--config", config]
    reader, writer = os.pipe()
    process = subprocess.Popen(args, env=env, stdout=writer, stderr=subprocess.PIPE, cwd=root)
    os.close(writer)
    os.read(reader, 16)
    os.close(reader)
    _, error = process.communicate(timeout=30)
    return process.returncode, error


for program, label in [(full, "full install"), (alone, "request program alone")]:
    cases += 1
    got, expected = closed_stdout(program), closed_stdout(core)
    if got != expected or expected[0] != 141:
        failures.append(f"a closed stdout ({label}): {got!r}, the full program {expected!r}")


def interrupted(program):
    """Ctrl-C (SIGINT) while an event stream comes: exit 130 and the full program's words."""
    args = [program, "request", api + "/stream", "--keystore", stores["plain"], "--config", config]
    process = subprocess.Popen(args, env=dict(base_env), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=root)
    assert process.stdout is not None
    process.stdout.read(len("data: 0\n\n"))
    process.send_signal(signal.SIGINT)
    _, error = process.communicate(timeout=30)
    return process.returncode, error


for program, label in [(full, "full install"), (alone, "request program alone")]:
    cases += 1
    got, expected = interrupted(program), interrupted(core)
    if got != expected or expected[0] != 130:
        failures.append(f"Ctrl-C ({label}): {got!r}, the full program {expected!r}")

# A terminal on stdout: the full program's (its body filter), handed over before anything is sent.
cases += 1
with seen_lock:
    seen.clear()
pid, terminal = pty.fork()
if pid == 0:
    os.execve(alone, [alone, "request", api + "/ok", "--keystore", stores["plain"], "--config", config], base_env)
output = b""
while True:
    try:
        chunk = os.read(terminal, 4096)
    except OSError:
        break
    if not chunk:
        break
    output += chunk
_, status = os.waitpid(pid, 0)
if os.waitstatus_to_exitcode(status) != 1 or b"reinstall authctl" not in output or seen:
    failures.append(f"stdout a terminal: {os.waitstatus_to_exitcode(status)} {output!r}, sent {seen}")

server.shutdown()
shutil.rmtree(root, ignore_errors=True)
for failure in failures:
    print("FAIL", failure)
print(f"request agreement: {cases} cases, {answered} answered by the request program, {handed} handed over, {len(failures)} failures")
sys.exit(1 if failures else 0)

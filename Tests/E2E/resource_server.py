#!/usr/bin/env python3
"""A small protected resource for authctl's end-to-end test of resources (docs/resources.md),
Python standard library only, on 127.0.0.1.

Two resources of one authorization server (the django-oauth-toolkit of run-resource-e2e.sh):

  /mcp    (resource http://127.0.0.1:PORT/mcp)    GET needs scope `read`; /mcp/admin needs `write`;
                                                   /mcp/unnamed too, but its 403 names no scope
                                                   (as django-oauth-toolkit 3.4's views answer);
                                                   POST /mcp/echo echoes the body (scope `read`)
  /other  (resource http://127.0.0.1:PORT/other)  GET needs scope `read`

Each publishes its RFC 9728 metadata at /.well-known/oauth-protected-resource/<path>; a request
without a token gets 401 `WWW-Authenticate: Bearer resource_metadata="…"`. A token is checked by
introspection (RFC 7662) at the server, as a confidential client: it must be active and its
`aud` (RFC 8707) must name this resource exactly; else 401 `invalid_token`. Too narrow a scope
gets 403 `insufficient_scope` with the scopes needed (RFC 6750 §3.1).

/mcp/mfa asks the first token it sees for a fresh authentication (RFC 9470) and takes the next.

/mcp/events answers a Server-Sent Events stream (text/event-stream, the body ended by closing
the connection): one event, then — with ?gate=NAME — it waits until the file RS_GATES/NAME
exists (30 s at most) before it sends the second, so that a test can show the first reached
authctl's stdout while the resource still held the second. /mcp/big answers BIG_SIZE bytes
(over 16 MiB) in 64 KiB writes.

/evil publishes metadata that names another resource (RFC 9728 §3.3 says: refuse it).

Environment: RS_PORT, RS_ISSUER, RS_INTROSPECT, RS_CLIENT_ID, RS_SECRET, RS_LOG (paths and
statuses only, never a token).
"""
import base64
import http.server
import json
import os
import time
import urllib.parse
import urllib.request

PORT = int(os.environ["RS_PORT"])
BASE = f"http://127.0.0.1:{PORT}"
ISSUER = os.environ["RS_ISSUER"]
RESOURCES = {"mcp": f"{BASE}/mcp", "other": f"{BASE}/other"}
# /mcp/mfa (RFC 9470): the first token it sees is asked for a fresh authentication
# (`insufficient_user_authentication`, acr_values and max_age); a token issued after that, by
# a new sign-in, is taken. The server cannot see how the person authenticated: it takes the
# new token as the sign-in the challenge asked for.
MFA_CHALLENGED = set()
# /mcp/ladder: read and write, then a fresh authentication — two step-ups for one request.
LADDER_CHALLENGED = set()
# /mcp/never: a new acr_values at every call — the step-ups never end (authctl stops at three).
NEVER_COUNT = [0]
BIG_SIZE = (16 << 20) + 4099
BIG_BLOCK = bytes(range(256)) * 256


def log(line):
    path = os.environ.get("RS_LOG")
    if path:
        with open(path, "a") as handle:
            handle.write(line + "\n")


def introspect(token):
    credentials = base64.b64encode(f"{os.environ['RS_CLIENT_ID']}:{os.environ['RS_SECRET']}".encode()).decode()
    request = urllib.request.Request(
        os.environ["RS_INTROSPECT"],
        data=urllib.parse.urlencode({"token": token}).encode(),
        headers={"Authorization": f"Basic {credentials}", "Content-Type": "application/x-www-form-urlencoded"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, document, headers=()):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
        log(f"{self.command} {self.path.split('?')[0]} -> {status}")

    def events(self, gate):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        try:
            self.wfile.write(b"event: message\ndata: first\n\n")
            self.wfile.flush()
            log("GET /mcp/events -> 200, first event sent")
            released = True
            if gate:
                path = os.path.join(os.environ["RS_GATES"], os.path.basename(gate))
                deadline = time.monotonic() + 30
                while not os.path.exists(path) and time.monotonic() < deadline:
                    time.sleep(0.05)
                released = os.path.exists(path)
            self.wfile.write(b"event: message\ndata: second\n\n" if released else b"event: message\ndata: the gate never opened\n\n")
            self.wfile.flush()
            log(f"GET /mcp/events -> second event sent (gate {gate})" if released else f"GET /mcp/events -> the gate {gate} never opened")
        except (BrokenPipeError, ConnectionResetError):
            log("GET /mcp/events -> the client went away")

    def big(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(BIG_SIZE))
        self.end_headers()
        sent = 0
        try:
            while sent < BIG_SIZE:
                chunk = BIG_BLOCK[: min(len(BIG_BLOCK), BIG_SIZE - sent)]
                self.wfile.write(chunk)
                sent += len(chunk)
            log(f"GET /mcp/big -> 200, {sent} bytes sent")
        except (BrokenPipeError, ConnectionResetError):
            log(f"GET /mcp/big -> the client went away after {sent} bytes")

    def do_GET(self):
        self.handle_request(None)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.handle_request(self.rfile.read(length) if length else b"")

    def handle_request(self, body):
        path = urllib.parse.urlsplit(self.path).path
        well_known = "/.well-known/oauth-protected-resource/"
        if path.startswith(well_known):
            name = path[len(well_known):]
            if name == "evil":
                return self.answer(200, {"resource": f"{BASE}/somewhere-else", "authorization_servers": [ISSUER]})
            if name in RESOURCES:
                return self.answer(
                    200,
                    {
                        "resource": RESOURCES[name],
                        "authorization_servers": [ISSUER],
                        "scopes_supported": ["read", "write"],
                        "resource_name": f"the test's {name} resource",
                    },
                )
            return self.answer(404, {"error": "not_found"})
        name = path.strip("/").split("/")[0]
        if name == "evil":
            challenge = f'Bearer resource_metadata="{BASE}{well_known}evil"'
            return self.answer(401, {"error": "unauthorized"}, [("WWW-Authenticate", challenge)])
        if name not in RESOURCES:
            return self.answer(404, {"error": "not_found"})
        resource = RESOURCES[name]
        metadata = f'resource_metadata="{BASE}{well_known}{name}"'
        authorization = self.headers.get("Authorization", "")
        if not authorization.startswith("Bearer "):
            return self.answer(401, {"error": "unauthorized"}, [("WWW-Authenticate", f"Bearer {metadata}")])
        info = introspect(authorization[len("Bearer "):])
        audiences = info.get("aud", [])
        if isinstance(audiences, str):
            audiences = [audiences]
        if not info.get("active") or resource not in audiences:
            challenge = f'Bearer error="invalid_token", error_description="the token is not valid for this resource", {metadata}'
            return self.answer(401, {"error": "invalid_token"}, [("WWW-Authenticate", challenge)])
        needed = ["read", "write"] if path.startswith(("/mcp/admin", "/mcp/unnamed", "/mcp/ladder")) else ["read"]
        granted = info.get("scope", "").split()
        if not set(needed) <= set(granted):
            challenge = f'Bearer error="insufficient_scope", scope="{" ".join(needed)}", {metadata}'
            if path.startswith("/mcp/unnamed"):
                # As django-oauth-toolkit 3.4's own protected views answer: no scope named.
                challenge = f'Bearer error="insufficient_scope", {metadata}'
            return self.answer(403, {"error": "insufficient_scope"}, [("WWW-Authenticate", challenge)])
        if path == "/mcp/mfa":
            token = authorization[len("Bearer "):]
            if not MFA_CHALLENGED or token in MFA_CHALLENGED:
                MFA_CHALLENGED.add(token)
                challenge = f'Bearer error="insufficient_user_authentication", acr_values="urn:example:mfa", max_age="0", {metadata}'
                return self.answer(401, {"error": "insufficient_user_authentication"}, [("WWW-Authenticate", challenge)])
        if path == "/mcp/ladder":
            token = authorization[len("Bearer "):]
            if not LADDER_CHALLENGED or token in LADDER_CHALLENGED:
                LADDER_CHALLENGED.add(token)
                challenge = f'Bearer error="insufficient_user_authentication", acr_values="urn:example:mfa", {metadata}'
                return self.answer(401, {"error": "insufficient_user_authentication"}, [("WWW-Authenticate", challenge)])
        if path == "/mcp/never":
            NEVER_COUNT[0] += 1
            challenge = f'Bearer error="insufficient_user_authentication", acr_values="urn:example:level-{NEVER_COUNT[0]}", {metadata}'
            return self.answer(401, {"error": "insufficient_user_authentication"}, [("WWW-Authenticate", challenge)])
        if path == "/mcp/events":
            gate = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query).get("gate", [None])[0]
            return self.events(gate)
        if path == "/mcp/big":
            return self.big()
        if path == "/mcp/missing":
            return self.answer(404, {"error": "no such item"})
        document = {"resource": resource, "path": path, "data": f"the data of {name}", "user": info.get("username")}
        if body is not None:
            document["echo"] = body.decode("utf-8", "replace")
        return self.answer(200, document)


if __name__ == "__main__":
    http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()

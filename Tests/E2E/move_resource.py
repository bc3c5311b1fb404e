#!/usr/bin/env python3
"""A protected resource that moves from one authorization server to another, for authctl's
end-to-end test of the move (run-move-e2e.sh; docs/resources.md, "When the authorization server
changes"; MCP SEP-2352). Python standard library only, on 127.0.0.1.

The resource http://127.0.0.1:PORT/mcp publishes its RFC 9728 metadata at
/.well-known/oauth-protected-resource/mcp, naming one authorization server: the first while the
file RS_SERVER_FILE holds "1", the second once it holds "2" (the test writes it between
requests). A request without a token gets 401 `WWW-Authenticate: Bearer resource_metadata="…"`.
A token is checked by introspection (RFC 7662) at both servers, as a confidential client of
each: it is taken only when the server named now says it is active and its `aud` (RFC 8707)
names this resource; any other gets 401 `invalid_token` with the metadata's URL.

Each request is logged to RS_LOG as `METHOD PATH -> STATUS token-of=1|2|none|absent` (which
server issued the token, never the token itself).

Environment: RS_PORT, RS_SERVER_FILE, RS_ISSUER_1, RS_ISSUER_2, RS_CLIENT_ID_1, RS_CLIENT_ID_2,
RS_SECRET (the same secret for both clients), RS_LOG.
"""
import base64
import http.server
import json
import os
import urllib.parse
import urllib.request

PORT = int(os.environ["RS_PORT"])
BASE = f"http://127.0.0.1:{PORT}"
RESOURCE = f"{BASE}/mcp"
WELL_KNOWN = "/.well-known/oauth-protected-resource/mcp"
SERVERS = {
    "1": (os.environ["RS_ISSUER_1"], os.environ["RS_CLIENT_ID_1"]),
    "2": (os.environ["RS_ISSUER_2"], os.environ["RS_CLIENT_ID_2"]),
}


def current():
    with open(os.environ["RS_SERVER_FILE"]) as handle:
        return handle.read().strip()


def log(line):
    with open(os.environ["RS_LOG"], "a") as handle:
        handle.write(line + "\n")


def introspect(name, token):
    issuer, client_id = SERVERS[name]
    credentials = base64.b64encode(f"{client_id}:{os.environ['RS_SECRET']}".encode()).decode()
    request = urllib.request.Request(
        f"{issuer}/introspect/",
        data=urllib.parse.urlencode({"token": token}).encode(),
        headers={"Authorization": f"Basic {credentials}", "Content-Type": "application/x-www-form-urlencoded"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def issuer_of(token):
    """Which server issued `token` for this resource (active, `aud` naming it), or "none"."""
    for name in SERVERS:
        info = introspect(name, token)
        audiences = info.get("aud", [])
        if isinstance(audiences, str):
            audiences = [audiences]
        if info.get("active") and RESOURCE in audiences:
            return name
    return "none"


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, document, headers=(), token_of="absent"):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
        log(f"{self.command} {urllib.parse.urlsplit(self.path).path} -> {status} token-of={token_of}")

    def do_GET(self):
        self.handle_request()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.handle_request()

    def handle_request(self):
        path = urllib.parse.urlsplit(self.path).path
        named = current()
        if path == WELL_KNOWN:
            issuer = SERVERS[named][0]
            return self.answer(200, {"resource": RESOURCE, "authorization_servers": [issuer], "scopes_supported": ["read"]})
        if path != "/mcp" and not path.startswith("/mcp/"):
            return self.answer(404, {"error": "not_found"})
        metadata = f'resource_metadata="{BASE}{WELL_KNOWN}"'
        authorization = self.headers.get("Authorization", "")
        if not authorization.startswith("Bearer "):
            return self.answer(401, {"error": "unauthorized"}, [("WWW-Authenticate", f"Bearer {metadata}")])
        token_of = issuer_of(authorization[len("Bearer "):])
        if token_of != named:
            challenge = f'Bearer error="invalid_token", error_description="the token is not valid for this resource", {metadata}'
            return self.answer(401, {"error": "invalid_token"}, [("WWW-Authenticate", challenge)], token_of)
        return self.answer(200, {"data": "the data of mcp", "server": named}, token_of=token_of)


if __name__ == "__main__":
    http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()

#!/usr/bin/env python3
"""A protected resource of the identity-chaining end-to-end test (run-chaining-e2e.sh): one
resource, http://127.0.0.1:PORT/api, whose authorization server is AS-B (an authgent-server).

GET /.well-known/oauth-protected-resource/api   RFC 9728 metadata naming AS-B, scope `read`
GET /api[/…]                                    200 with the token's sub, chained_from and iss
                                                when it carries AS-B's JWT for this resource;
                                                else 401 with `resource_metadata`

A token is checked here, not by introspection: an ES256/RS256 JWT signed by a key of AS-B's
JWKS, `iss` AS-B, `aud` this resource, not expired. Every token presented is logged as its
`iss` (never the token) to CR_LOG, so the test can show that no token of AS-A reached it.

Environment: CR_PORT, CR_ISSUER (AS-B), CR_LOG. The venv's PyJWT does the checking.
"""
import http.server
import json
import os

import jwt

PORT = int(os.environ["CR_PORT"])
BASE = f"http://127.0.0.1:{PORT}"
RESOURCE = f"{BASE}/api"
ISSUER = os.environ["CR_ISSUER"]
KEYS = jwt.PyJWKClient(ISSUER + "/.well-known/jwks.json")


def log(line):
    with open(os.environ["CR_LOG"], "a") as handle:
        handle.write(line + "\n")


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

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/.well-known/oauth-protected-resource/api":
            return self.answer(200, {"resource": RESOURCE, "authorization_servers": [ISSUER], "scopes_supported": ["read"],
                                     "bearer_methods_supported": ["header"]})
        if path != "/api" and not path.startswith("/api/"):
            return self.answer(404, {"error": "not_found"})
        challenge = ("WWW-Authenticate",
                     f'Bearer resource_metadata="{BASE}/.well-known/oauth-protected-resource/api"')
        header = self.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            log("no token")
            return self.answer(401, {"error": "invalid_request"}, [challenge])
        token = header[len("Bearer "):]
        try:
            log("iss " + str(jwt.decode(token, options={"verify_signature": False}).get("iss")))
        except jwt.PyJWTError:
            log("iss unreadable")
        try:
            key = KEYS.get_signing_key_from_jwt(token)
            claims = jwt.decode(token, key.key, algorithms=["ES256", "RS256"], audience=RESOURCE, issuer=ISSUER,
                                options={"require": ["exp", "iss", "aud", "sub"]})
        except jwt.PyJWTError as error:
            log("refused " + type(error).__name__)
            return self.answer(401, {"error": "invalid_token"},
                               [(challenge[0], challenge[1] + ', error="invalid_token"')])
        log("ok " + path)
        return self.answer(200, {"sub": claims.get("sub"), "iss": claims.get("iss"),
                                 "chained_from": claims.get("chained_from"), "scope": claims.get("scope")})


http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()

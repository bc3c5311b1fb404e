#!/usr/bin/env python3
"""A minimal OpenID provider on 127.0.0.1 for the oidc-agent peer of token-hot-path.sh:
discovery, and a token endpoint that answers every grant with the same access token, valid
for a year, so that oidc-agent then answers `oidc-token` from memory with no request.
Usage: fake-issuer.py ACCESS_TOKEN  → prints the issuer URL, serves until killed."""
import json, sys
from http.server import BaseHTTPRequestHandler, HTTPServer

token = sys.argv[1]

class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.startswith("/.well-known/openid-configuration"):
            self.answer({"issuer": issuer, "authorization_endpoint": issuer + "authorize", "token_endpoint": issuer + "token",
                         "jwks_uri": issuer + "jwks", "userinfo_endpoint": issuer + "userinfo",
                         "response_types_supported": ["code"], "subject_types_supported": ["public"],
                         "id_token_signing_alg_values_supported": ["RS256"], "scopes_supported": ["openid", "profile", "email"],
                         "grant_types_supported": ["authorization_code", "refresh_token"]})
        elif self.path.startswith("/jwks"):
            self.answer({"keys": []})
        else:
            self.answer({"sub": "bench"})

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.answer({"access_token": token, "token_type": "Bearer", "expires_in": 31536000,
                     "refresh_token": "bench-refresh-token", "scope": "openid"})

server = HTTPServer(("127.0.0.1", 0), Handler)
issuer = f"http://127.0.0.1:{server.server_port}/"
print(issuer, flush=True)
server.serve_forever()

#!/usr/bin/env python3
"""An OpenID provider on 127.0.0.1 over TLS, for the packaging test: discovery, and a token
endpoint that answers every grant with ACCESS_TOKEN (valid for an hour). Its certificate is
CERT/KEY (signed by the test's own CA). Prints the issuer URL, serves until killed.
Usage: tls-issuer.py ACCESS_TOKEN CERT KEY"""
import json, ssl, sys
from http.server import BaseHTTPRequestHandler, HTTPServer

token, cert, key = sys.argv[1:4]


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
                         "jwks_uri": issuer + "jwks", "response_types_supported": ["code"],
                         "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["RS256"],
                         "scopes_supported": ["openid"], "grant_types_supported": ["authorization_code", "refresh_token"],
                         "code_challenge_methods_supported": ["S256"]})
        elif self.path.startswith("/jwks"):
            self.answer({"keys": []})
        else:
            self.send_error(404)

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.answer({"access_token": token, "token_type": "Bearer", "expires_in": 3600, "scope": "openid"})


server = HTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
issuer = f"https://127.0.0.1:{server.server_port}/"
print(issuer, flush=True)
server.serve_forever()

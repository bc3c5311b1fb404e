#!/usr/bin/env python3
"""A company identity provider (AS-A) of the tests' own that issues Identity Assertion JWT
Authorization Grants (draft-ietf-oauth-identity-assertion-authz-grant, "ID-JAG") for
run-idjag-e2e.sh, since no server here issues them. AS-B is a real authgent-server.

GET  /.well-known/openid-configuration   its metadata (issuer, token endpoint, JWKS,
                                         identity_chaining_requested_token_types_supported)
GET  /.well-known/jwks.json              its ES256 public key (made at start)
POST /token                              client_credentials: an opaque access token for the
                                         configured client (a workload's identity);
                                         token exchange (RFC 8693) of such a token with
                                         requested_token_type …:id-jag and audience: an
                                         ID-JAG — typ oauth-id-jag+jwt; iss, sub, aud (the
                                         audience asked), client_id (the client's id at
                                         AS-B, known out of band as the draft's §7 says:
                                         IDP_CLIENT_AT_B), jti, exp, iat, resource, scope —
                                         answered with issued_token_type …:id-jag,
                                         token_type N_A, no refresh token
GET  /_mode/NAME                         how the next exchanges answer: good, wrong-aud (the
                                         resource as aud), wrong-typ (typ JWT),
                                         wrong-issued-type (issued_token_type access_token)

The client authenticates with client_secret_post or Basic. Each exchange's form is logged to
IDP_LOG as JSON without the subject token or the secret (the test checks what the client
sent). Environment: IDP_PORT, IDP_CLIENT_ID, IDP_CLIENT_SECRET, IDP_CLIENT_AT_B, IDP_LOG.
Only 127.0.0.1. The authgent venv's PyJWT and cryptography sign the grants.
"""
import base64
import http.server
import json
import os
import secrets
import time
import urllib.parse

import jwt
from cryptography.hazmat.primitives.asymmetric import ec

PORT = int(os.environ["IDP_PORT"])
ISSUER = f"http://127.0.0.1:{PORT}"
CLIENT_ID = os.environ["IDP_CLIENT_ID"]
CLIENT_SECRET = os.environ["IDP_CLIENT_SECRET"]
CLIENT_AT_B = os.environ["IDP_CLIENT_AT_B"]
KEY = ec.generate_private_key(ec.SECP256R1())
KID = "idp-" + secrets.token_hex(4)
ISSUED = {}  # access token -> its subject
MODE = {"name": "good"}
EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_JAG = "urn:ietf:params:oauth:token-type:id-jag"
ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token"


def b64url_int(number):
    return base64.urlsafe_b64encode(number.to_bytes(32, "big")).rstrip(b"=").decode()


def jwks():
    numbers = KEY.public_key().public_numbers()
    return {"keys": [{"kty": "EC", "crv": "P-256", "x": b64url_int(numbers.x), "y": b64url_int(numbers.y),
                      "kid": KID, "alg": "ES256", "use": "sig"}]}


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, document):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def error(self, code, description, status=400):
        return self.answer(status, {"error": code, "error_description": description})

    def do_GET(self):
        if self.path == "/.well-known/openid-configuration":
            return self.answer(200, {
                "issuer": ISSUER, "authorization_endpoint": ISSUER + "/authorize", "token_endpoint": ISSUER + "/token",
                "jwks_uri": ISSUER + "/.well-known/jwks.json", "response_types_supported": ["code"],
                "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["ES256"],
                "grant_types_supported": ["client_credentials", EXCHANGE],
                "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
                "identity_chaining_requested_token_types_supported": [ID_JAG]})
        if self.path == "/.well-known/jwks.json":
            return self.answer(200, jwks())
        if self.path.startswith("/_mode/"):
            MODE["name"] = self.path[len("/_mode/"):]
            return self.answer(200, {"mode": MODE["name"]})
        return self.answer(404, {"error": "not_found"})

    def do_POST(self):
        if self.path != "/token":
            return self.answer(404, {"error": "not_found"})
        length = int(self.headers.get("Content-Length", "0"))
        if length > 65536:
            return self.error("invalid_request", "too large")
        form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode(), keep_blank_values=True))
        client_id, secret = form.get("client_id"), form.get("client_secret")
        basic = self.headers.get("Authorization", "")
        if basic.startswith("Basic "):
            client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
            client_id, secret = urllib.parse.unquote_plus(client_id), urllib.parse.unquote_plus(secret)
        if client_id != CLIENT_ID or not secrets.compare_digest(secret or "", CLIENT_SECRET):
            return self.error("invalid_client", "unknown client or wrong secret", 401)
        grant = form.get("grant_type")
        if grant == "client_credentials":
            token = secrets.token_urlsafe(32)
            ISSUED[token] = "workload:" + client_id
            return self.answer(200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600})
        if grant != EXCHANGE:
            return self.error("unsupported_grant_type", grant or "none")
        with open(os.environ["IDP_LOG"], "a") as log:
            log.write(json.dumps({k: v for k, v in form.items() if k not in ("subject_token", "client_secret")}) + "\n")
        subject = ISSUED.get(form.get("subject_token", ""))
        if subject is None or form.get("subject_token_type") != ACCESS_TOKEN:
            return self.error("invalid_grant", "the subject token is not one of ours")
        if form.get("requested_token_type") != ID_JAG:
            return self.error("invalid_request", "this provider issues ID-JAGs only")
        audience = form.get("audience")
        if not audience:
            return self.error("invalid_request", "audience (the resource authorization server's issuer) is required")
        mode = MODE["name"]
        now = int(time.time())
        claims = {"iss": ISSUER, "sub": subject, "aud": form.get("resource") if mode == "wrong-aud" else audience,
                  "client_id": CLIENT_AT_B, "jti": secrets.token_urlsafe(16), "iat": now, "exp": now + 60}
        if form.get("resource"):
            claims["resource"] = form["resource"]
        if form.get("scope"):
            claims["scope"] = form["scope"]
        grant_jwt = jwt.encode(claims, KEY, algorithm="ES256",
                               headers={"kid": KID, "typ": "JWT" if mode == "wrong-typ" else "oauth-id-jag+jwt"})
        answer = {"access_token": grant_jwt, "token_type": "N_A", "expires_in": 60,
                  "issued_token_type": ACCESS_TOKEN if mode == "wrong-issued-type" else ID_JAG}
        if form.get("scope"):
            answer["scope"] = form["scope"]
        return self.answer(200, answer)


http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()

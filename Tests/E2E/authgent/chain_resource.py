#!/usr/bin/env python3
"""A protected resource of the identity-chaining end-to-end test (run-chaining-e2e.sh): one
resource, http://127.0.0.1:PORT/api, whose authorization server is AS-B (an authgent-server).

GET /.well-known/oauth-protected-resource/api   RFC 9728 metadata naming AS-B, scope `read`
GET /api[/…]                                    200 with the token's sub, chained_from, iss
                                                and whether it was DPoP-bound, when it carries
                                                AS-B's JWT for this resource; else 401 with
                                                `resource_metadata`

A token is checked here, not by introspection: an ES256/RS256 JWT signed by a key of AS-B's
JWKS, `iss` AS-B, `aud` this resource, not expired. A token with `cnf.jkt` is DPoP-bound (RFC
9449 §7): it must come as `Authorization: DPoP`, never `Bearer`, with a proof whose `jwk`
has the RFC 7638 thumbprint `cnf.jkt`, signed by it (ES256), `typ` `dpop+jwt`, `htm`/`htu`
this request, `iat` within a minute, a `jti` not seen before, `ath` the token's SHA-256, and
the resource's own nonce (§9: a proof without it gets `use_dpop_nonce` and a `DPoP-Nonce`).
Every token presented is logged as its `iss` (never the token) to CR_LOG, so the test can
show that no token of AS-A reached it; a bound token accepted is logged `ok dpop PATH`.

Environment: CR_PORT, CR_ISSUER (AS-B), CR_LOG. The venv's PyJWT does the checking.
"""
import base64
import hashlib
import http.server
import json
import os
import secrets
import time

import jwt

PORT = int(os.environ["CR_PORT"])
BASE = f"http://127.0.0.1:{PORT}"
RESOURCE = f"{BASE}/api"
ISSUER = os.environ["CR_ISSUER"]
KEYS = jwt.PyJWKClient(ISSUER + "/.well-known/jwks.json")
NONCE = secrets.token_urlsafe(16)
SEEN_JTI = set()


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def dpop_problem(proof, token, jkt, method, url):
    """None when `proof` proves possession of the key `jkt` for this request and `token`;
    else what is wrong with it."""
    if not proof:
        return "no DPoP proof"
    try:
        header = jwt.get_unverified_header(proof)
        key = header.get("jwk") or {}
        if header.get("typ") != "dpop+jwt" or header.get("alg") != "ES256" or key.get("kty") != "EC" or "d" in key:
            return "proof header"
        members = json.dumps({"crv": key["crv"], "kty": key["kty"], "x": key["x"], "y": key["y"]},
                             separators=(",", ":"), sort_keys=True)
        if b64url(hashlib.sha256(members.encode()).digest()) != jkt:
            return "proof key is not cnf.jkt"
        claims = jwt.decode(proof, jwt.PyJWK(key).key, algorithms=["ES256"])
    except (jwt.PyJWTError, KeyError, TypeError, ValueError) as error:
        return "proof unreadable " + type(error).__name__
    if claims.get("htm") != method or claims.get("htu") != url:
        return "htm/htu"
    if not isinstance(claims.get("iat"), int) or abs(time.time() - claims["iat"]) > 60:
        return "iat"
    if claims.get("ath") != b64url(hashlib.sha256(token.encode()).digest()):
        return "ath"
    if not claims.get("jti") or claims["jti"] in SEEN_JTI:
        return "jti"
    SEEN_JTI.add(claims["jti"])
    if claims.get("nonce") != NONCE:
        return "nonce"
    return None


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
        scheme, _, token = header.partition(" ")
        if scheme not in ("Bearer", "DPoP") or not token:
            log("no token")
            return self.answer(401, {"error": "invalid_request"}, [challenge])
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
        jkt = (claims.get("cnf") or {}).get("jkt")
        if jkt or scheme == "DPoP":
            if not jkt or scheme != "DPoP":
                log("refused " + ("a bound token as Bearer" if jkt else "an unbound token as DPoP"))
                return self.answer(401, {"error": "invalid_token"},
                                   [(challenge[0], challenge[1] + ', error="invalid_token"')])
            problem = dpop_problem(self.headers.get("DPoP"), token, jkt, "GET", BASE + path)
            if problem == "nonce":
                log("nonce asked")
                return self.answer(401, {"error": "use_dpop_nonce"},
                                   [("WWW-Authenticate", 'DPoP error="use_dpop_nonce", algs="ES256"'), ("DPoP-Nonce", NONCE)])
            if problem:
                log("refused DPoP: " + problem)
                return self.answer(401, {"error": "invalid_dpop_proof"},
                                   [("WWW-Authenticate", 'DPoP error="invalid_dpop_proof", algs="ES256"')])
            log("ok dpop " + path)
        else:
            log("ok " + path)
        return self.answer(200, {"sub": claims.get("sub"), "iss": claims.get("iss"), "dpop": bool(jkt),
                                 "chained_from": claims.get("chained_from"), "scope": claims.get("scope")})


http.server.ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()

#!/usr/bin/env python3
"""More of the MCP conformance suite's client auth scenarios (modelcontextprotocol/conformance,
src/scenarios/client/auth/): a closer port of its helpers createAuthServer.ts and createServer.ts
with the options these scenarios set — where each metadata document is (or is not), a route
prefix, one origin for resource and server, DPoP — in the Python standard library, on 127.0.0.1.

  suite_server.py SCENARIO EVENTS-FILE PORTS-FILE

As conformance_server.py: "RESOURCE-ORIGIN AS-ORIGIN" to PORTS-FILE once both listen, one JSON
line per request to EVENTS-FILE (never a token). As in the suite's express apps, a path or a
method nobody serves is a 404 (GET /mcp too: the suite's MCP servers serve POST only).
Scenarios:
  2025-03-26-oauth-metadata-backcompat  march-spec-backcompat.ts: one origin, no resource
      metadata, the server's RFC 8414 metadata at the origin (endpoints under /oauth)
  2025-03-26-oauth-endpoint-fallback    no metadata at all: /authorize, /token, /register
  metadata-default, metadata-var1, metadata-var2, metadata-var3   discovery-metadata.ts
  basic-cimd                            basic-cimd.ts: client_id_metadata_document_supported
  dpop, dpop-nonce                      dpop.ts: DPoP-bound tokens (ES256 proofs, es256.py)
"""
import hashlib
import http.server
import json
import os
import secrets
import sys
import threading
import time
import urllib.parse

import es256
from json_handler import JSONHandler

SCENARIO, EVENTS, PORTS = sys.argv[1], sys.argv[2], sys.argv[3]
ROOT_PRM = "/.well-known/oauth-protected-resource"
PATH_PRM = "/.well-known/oauth-protected-resource/mcp"
# discovery-metadata.ts's table: (PRM location, named in WWW-Authenticate, AS metadata, prefix).
DISCOVERY = {
    "metadata-default": (PATH_PRM, True, "/.well-known/oauth-authorization-server", ""),
    "metadata-var1": (PATH_PRM, False, "/.well-known/openid-configuration", ""),
    "metadata-var2": (ROOT_PRM, False, "/.well-known/oauth-authorization-server/tenant1", "/tenant1"),
    "metadata-var3": ("/custom/metadata/location.json", True, "/tenant1/.well-known/openid-configuration", "/tenant1"),
}
ONE_ORIGIN = SCENARIO.startswith("2025-03-26-")
if SCENARIO in DISCOVERY:
    PRM_PATH, PRM_IN_CHALLENGE, AS_METADATA, PREFIX = DISCOVERY[SCENARIO]
elif ONE_ORIGIN:
    PRM_PATH, PRM_IN_CHALLENGE, PREFIX = None, False, "/oauth"
    AS_METADATA = "/.well-known/oauth-authorization-server" if SCENARIO.endswith("backcompat") else None
    if SCENARIO.endswith("fallback"):
        PREFIX = ""
else:
    PRM_PATH, PRM_IN_CHALLENGE, AS_METADATA, PREFIX = PATH_PRM, True, "/.well-known/oauth-authorization-server", ""
DPOP = SCENARIO in ("dpop", "dpop-nonce")
NONCE = SCENARIO == "dpop-nonce"
AS_NONCE, RS_NONCE = "conformance-as-dpop-nonce", "conformance-rs-dpop-nonce"
DPOP_ALGS = ("ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA")
lock = threading.Lock()
origins, codes, tokens = {}, {}, {}  # tokens: access token -> the jkt it is bound to (or None)
jtis, refresh_tokens = set(), set()
REFRESH = SCENARIO == "2025-03-26-oauth-endpoint-fallback"


def record(**event):
    with lock, open(EVENTS, "a") as handle:
        handle.write(json.dumps(event) + "\n")


def issuer():
    # march-spec-backcompat.ts: metadata at the root well-known path, so the issuer is the origin.
    return origins["as"] if ONE_ORIGIN else origins["as"] + PREFIX


def normalize_htu(url):
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{parts.path.rstrip('/')}"


def check_proof(proof, method, url, token=None):
    """RFC 9449 §4.3 as createAuthServer.ts and dpopResourceAuth.ts check it: (claims, None) or
    (None, the reason)."""
    if not proof:
        return None, "missing DPoP proof header"
    if "," in proof:
        return None, "multiple DPoP proof headers"
    try:
        header_part, payload_part, _ = proof.split(".")
        header = json.loads(es256.b64url_decode(header_part))
        claims = json.loads(es256.b64url_decode(payload_part))
    except ValueError:
        return None, "DPoP proof is not a well-formed JWT"
    if header.get("typ") != "dpop+jwt":
        return None, "typ must be dpop+jwt"
    if header.get("alg") not in DPOP_ALGS:
        return None, "alg must be a supported asymmetric algorithm"
    jwk = header.get("jwk")
    if not isinstance(jwk, dict):
        return None, "missing jwk header parameter"
    if "d" in jwk:
        return None, "jwk must not contain a private key"
    if header["alg"] != "ES256" or not es256.verify(proof, jwk):
        return None, "DPoP proof signature does not verify (this port checks ES256 only)"
    if not isinstance(claims.get("jti"), str):
        return None, "missing jti claim"
    if claims.get("htm") != method:
        return None, "htm does not match the request method"
    htu = claims.get("htu")
    if not isinstance(htu, str) or "?" in htu or "#" in htu or normalize_htu(htu) != normalize_htu(url):
        return None, "htu does not match the request URI (or has a query or fragment)"
    if not isinstance(claims.get("iat"), (int, float)) or abs(time.time() - claims["iat"]) > 300:
        return None, "iat outside the acceptable window"
    claims["jkt"] = es256.thumbprint(jwk)
    if token is not None:
        ath = es256.b64url(hashlib.sha256(token.encode("ascii")).digest())
        if claims.get("ath") != ath:
            return None, "ath does not match the presented access token"
        if tokens.get(token) != claims["jkt"]:
            return None, "proof key thumbprint does not match the token's binding"
    return claims, None


class Base(JSONHandler):
    def not_found(self, path, side):
        # discovery-metadata.ts's traps: a root location asked when the server has a path-based one.
        if side == "rs" and SCENARIO == "metadata-default" and path == ROOT_PRM:
            record(side=side, id="prm-priority-order", path=path)
        elif side == "as" and PREFIX == "/tenant1" and path == "/.well-known/oauth-authorization-server":
            record(side=side, id="authorization-server-metadata-wrong-path", path=path)
        else:
            record(side=side, id="not-found", path=path, method=self.command)
        self.send_json(404, {"error": "not_found"})


class AuthServer(Base):
    side = "as"

    def metadata(self):
        base = origins["as"]
        document = {
            "issuer": issuer(),
            "authorization_endpoint": f"{base}{PREFIX}/authorize",
            "token_endpoint": f"{base}{PREFIX}/token",
            "registration_endpoint": f"{base}{PREFIX}/register",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "authorization_response_iss_parameter_supported": True,
            "token_endpoint_auth_methods_supported": ["none"],
        }
        if SCENARIO == "basic-cimd":
            document["client_id_metadata_document_supported"] = True
        if DPOP:
            document["dpop_signing_alg_values_supported"] = ["ES256"]
        if "openid-configuration" in AS_METADATA:
            document.update(jwks_uri=f"{base}/.well-known/jwks.json", subject_types_supported=["public"],
                            id_token_signing_alg_values_supported=["RS256"])
        return document

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if AS_METADATA and url.path == AS_METADATA:
            record(side="as", id="authorization-server-metadata", path=url.path)
            self.send_json(200, self.metadata())
        elif url.path == f"{PREFIX}/authorize":
            record(side="as", id="authorization-request", path=url.path, client_id=query.get("client_id"),
                   code_challenge_method=query.get("code_challenge_method"),
                   has_code_challenge="code_challenge" in query, resource=query.get("resource"),
                   scope=query.get("scope"), redirect_uri=query.get("redirect_uri"))
            code = secrets.token_urlsafe(24)
            codes[code] = query
            params = {"code": code, "state": query.get("state", "")}
            if AS_METADATA:  # the suite's default: iss in the redirect, as advertised
                params["iss"] = issuer()
            target = query.get("redirect_uri", "")
            self.send_response(302)
            self.send_header("Location", target + ("&" if "?" in target else "?") + urllib.parse.urlencode(params))
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.not_found(url.path, self.side)

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        raw = self.body()
        if url.path == f"{PREFIX}/register":
            try:
                request = json.loads(raw or "{}")
            except ValueError:
                request = {}
            record(side="as", id="client-registration", path=url.path, redirect_uris=request.get("redirect_uris"),
                   token_endpoint_auth_method=request.get("token_endpoint_auth_method"),
                   application_type=request.get("application_type"))
            # The suite's answer: a client id and a secret, no token_endpoint_auth_method.
            self.send_json(201, {"client_id": "test-client-" + secrets.token_hex(4), "client_secret": secrets.token_urlsafe(24),
                                 "client_name": request.get("client_name") or "test-client",
                                 "redirect_uris": request.get("redirect_uris") or []})
        elif url.path == f"{PREFIX}/token":
            self.token(dict(urllib.parse.parse_qsl(raw)), f"{origins['as']}{url.path}")
        else:
            self.not_found(url.path, self.side)

    def token(self, form, endpoint):
        grant = form.get("grant_type")
        # The code is spent by the answer that issues a token (not by a nonce challenge).
        asked = codes.get(form.get("code", "")) if grant == "authorization_code" else None
        verifier = form.get("code_verifier") or ""
        challenge = es256.b64url(hashlib.sha256(verifier.encode()).digest())
        pkce_ok = asked is not None and bool(verifier) and challenge == asked.get("code_challenge")
        event = dict(side="as", id="token-request", path="/token", grant_type=grant, code_known=asked is not None,
                     pkce_verified=pkce_ok, client_id=form.get("client_id"), resource=form.get("resource"))
        jkt = None
        if DPOP:
            claims, error = check_proof(self.headers.get("DPoP"), "POST", endpoint)
            event.update(dpop_ok=error is None, dpop_error=error)
            if claims and NONCE and claims.get("nonce") != AS_NONCE:
                record(**event, dpop_nonce_challenged=True)
                self.send_json(400, {"error": "use_dpop_nonce", "error_description": "Authorization server requires a DPoP nonce"},
                               [("DPoP-Nonce", AS_NONCE)])
                return
            if error and self.headers.get("DPoP"):
                record(**event)
                self.send_json(400, {"error": "invalid_dpop_proof", "error_description": error})
                return
            jkt = claims and claims["jkt"]
            event.update(dpop_nonce_honored=NONCE and jkt is not None)
        if grant == "refresh_token":
            event.update(refresh_ok=form.get("refresh_token") in refresh_tokens)
        record(**event)
        if not (pkce_ok if grant == "authorization_code" else event.get("refresh_ok")):
            self.send_json(400, {"error": "invalid_grant"})
            return
        codes.pop(form.get("code", ""), None)
        refresh_tokens.discard(form.get("refresh_token"))
        token = secrets.token_urlsafe(24)
        tokens[token] = jkt
        answer = {"access_token": token, "token_type": "DPoP" if jkt else "Bearer", "expires_in": 3600}
        if REFRESH:  # not the suite's: a refresh at the default token endpoint (authctl's own check)
            answer["refresh_token"] = secrets.token_urlsafe(24)
            refresh_tokens.add(answer["refresh_token"])
        self.send_json(200, answer)


class Resource(AuthServer):
    """The MCP server; on one origin (2025-03-26) it is the authorization server too."""
    side = "rs"

    def prm_url(self):
        return origins["rs"] + PRM_PATH

    def challenge(self):
        if DPOP:
            return f'DPoP resource_metadata="{self.prm_url()}"'
        named = f', resource_metadata="{self.prm_url()}"' if PRM_IN_CHALLENGE and PRM_PATH else ""
        return f'Bearer error="invalid_token", error_description="Missing Authorization header"{named}'

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if PRM_PATH and path == PRM_PATH:
            # createServer.ts's check id, whichever the location.
            record(side="rs", id="prm-pathbased-requested", path=path)
            resource = origins["rs"] if PRM_PATH == ROOT_PRM else origins["rs"] + "/mcp"
            self.send_json(200, {"resource": resource, "authorization_servers": [issuer()]})
        elif ONE_ORIGIN:
            super().do_GET()
        else:
            self.not_found(path, self.side)

    def do_POST(self):
        path = urllib.parse.urlsplit(self.path).path
        if path != "/mcp":
            super().do_POST() if ONE_ORIGIN else self.not_found(path, self.side)
            return
        raw = self.body()
        scheme, _, token = self.headers.get("Authorization", "").partition(" ")
        token = token.strip()
        if token not in tokens:
            record(side="rs", id="mcp-unauthorized", path=path, had_token=bool(token))
            self.send_json(401, {"error": "invalid_token"}, [("WWW-Authenticate", self.challenge())])
            return
        try:
            message = json.loads(raw)
        except ValueError:
            message = {}
        event = dict(side="rs", id="valid-bearer-token", path=path, method=message.get("method"), scheme=scheme)
        if DPOP:
            claims, error = check_proof(self.headers.get("DPoP"), "POST", origins["rs"] + "/mcp", token)
            replay = claims is not None and claims["jti"] in jtis
            if claims:
                jtis.add(claims["jti"])
            event.update(id="dpop-resource-request", proof_ok=error is None, proof_error=error, replay=replay)
            if claims and NONCE and claims.get("nonce") != RS_NONCE:
                record(**event, rs_nonce_challenged=True)
                self.send_json(401, {"error": "use_dpop_nonce"}, [
                    ("WWW-Authenticate", f'DPoP error="use_dpop_nonce", resource_metadata="{self.prm_url()}"'),
                    ("DPoP-Nonce", RS_NONCE)])
                return
            event.update(rs_nonce_honored=NONCE and claims is not None)
        record(**event)
        self.send_json(200, {"jsonrpc": "2.0", "id": message.get("id"),
                             "result": {"serverInfo": {"name": "conformance-" + SCENARIO, "version": "1"},
                                        "protocolVersion": "2025-06-18", "capabilities": {}}})


def serve(handler):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


origins["rs"] = serve(Resource)
origins["as"] = origins["rs"] if ONE_ORIGIN else serve(AuthServer)
with open(PORTS + ".tmp", "w") as handle:
    handle.write(f"{origins['rs']} {origins['as']}\n")
os.replace(PORTS + ".tmp", PORTS)
threading.Event().wait()

#!/usr/bin/env python3
"""A port of the MCP conformance suite's client auth scenarios (modelcontextprotocol/conformance,
src/scenarios/client/auth/*.ts) to the Python standard library: one scenario's authorization
server and MCP resource, each on its own ephemeral port bound to 127.0.0.1.

  conformance_server.py SCENARIO EVENTS-FILE PORTS-FILE

It writes "RESOURCE-ORIGIN AS-ORIGIN" to PORTS-FILE once both listen, and one JSON line per
request to EVENTS-FILE (path, method, the parameters that the checks read; never a token).
Scenarios: basic-dcr, prm-pathbased, pkce-no-support, resource-mismatch,
scope-from-www-authenticate, scope-from-scopes-supported, scope-omitted-when-undefined,
offline-access-scope, offline-access-not-supported, iss-supported, iss-not-advertised,
iss-supported-missing, iss-wrong-issuer, iss-unexpected, token-endpoint-auth-basic,
token-endpoint-auth-post, token-endpoint-auth-none, token-refresh-rotation, scope-step-up,
client-credentials and wif-jwt-bearer (the pre-registered client "ci-job", its secret in the
environment variable CONFORMANCE_SECRET; the workload's token in CONFORMANCE_ASSERTION).
"""
import base64
import hashlib
import http.server
import json
import os
import secrets
import sys
import threading
import urllib.parse

from json_handler import JSONHandler

SCENARIO, EVENTS, PORTS = sys.argv[1], sys.argv[2], sys.argv[3]
lock = threading.Lock()
codes, tokens = {}, set()
granted = {}  # access token -> its scopes (scope-step-up)
refresh_tokens, refreshed = set(), set()  # token-refresh.ts: rotated at each use
origins = {}
# The scope-handling scenarios: the PRM's scopes_supported, the 401 challenge's scope.
SCOPES_SUPPORTED = {
    "scope-from-www-authenticate": ["mcp:basic", "mcp:admin"],
    "scope-from-scopes-supported": ["mcp:basic", "mcp:read", "mcp:write"],
    "offline-access-scope": ["mcp:basic"],
    "offline-access-not-supported": ["mcp:basic", "mcp:read"],
    "scope-step-up": ["mcp:unrelated"],  # disjoint, as in the .ts: a union must come from the grant
}.get(SCENARIO)
# offline-access.ts: the authorization server's scopes_supported.
AS_SCOPES = {
    "offline-access-scope": ["mcp:basic", "offline_access"],
    "offline-access-not-supported": ["mcp:basic", "mcp:read"],
}.get(SCENARIO)
# token-endpoint-auth.ts: the one method the server supports, and its registration returns.
AUTH_METHOD = {
    "token-endpoint-auth-basic": "client_secret_basic",
    "token-endpoint-auth-post": "client_secret_post",
}.get(SCENARIO, "none")
clients = {}
if SCENARIO == "client-credentials":
    AUTH_METHOD = "client_secret_basic"
    clients["ci-job"] = os.environ["CONFORMANCE_SECRET"]
MACHINE_GRANTS = ("client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer")
# issuer-parameter.ts (RFC 9207): advertised or not, and the iss put in the redirect.
ISS_ADVERTISED = SCENARIO in ("iss-supported", "iss-supported-missing", "iss-wrong-issuer")
ISS_IN_REDIRECT = {"iss-supported": "correct", "iss-wrong-issuer": "wrong", "iss-unexpected": "wrong"}.get(SCENARIO)
CHALLENGE_SCOPE = "mcp:basic" if SCENARIO in ("scope-from-www-authenticate", "scope-step-up") else None


def record(**event):
    with lock, open(EVENTS, "a") as handle:
        handle.write(json.dumps(event) + "\n")


Base = JSONHandler


class AuthServer(Base):
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        as_origin = origins["as"]
        if url.path == "/.well-known/oauth-authorization-server":
            record(side="as", id="authorization-server-metadata", path=url.path)
            methods = [] if SCENARIO == "pkce-no-support" else ["S256"]
            metadata = {
                "issuer": as_origin,
                "authorization_endpoint": f"{as_origin}/authorize",
                "token_endpoint": f"{as_origin}/token",
                "registration_endpoint": f"{as_origin}/register",
                "response_types_supported": ["code"],
                "grant_types_supported": ["authorization_code", "refresh_token", *MACHINE_GRANTS],
                "code_challenge_methods_supported": methods,
                "token_endpoint_auth_methods_supported": [AUTH_METHOD],
            }
            if AS_SCOPES:
                metadata["scopes_supported"] = AS_SCOPES
            if ISS_ADVERTISED:
                metadata["authorization_response_iss_parameter_supported"] = True
            self.send_json(200, metadata)
        elif url.path == "/authorize":
            record(side="as", id="authorization-request", path=url.path,
                   code_challenge_method=query.get("code_challenge_method"),
                   has_code_challenge="code_challenge" in query, resource=query.get("resource"),
                   client_id=query.get("client_id"), scope=query.get("scope"))
            code = secrets.token_urlsafe(24)
            codes[code] = query
            target = query["redirect_uri"]
            params = {"code": code, "state": query.get("state", "")}
            if ISS_IN_REDIRECT:
                params["iss"] = as_origin if ISS_IN_REDIRECT == "correct" else "https://evil.example.com"
            separator = "&" if "?" in target else "?"
            self.send_response(302)
            self.send_header("Location", target + separator + urllib.parse.urlencode(params))
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            record(side="as", id="not-found", path=url.path)
            self.send_json(404, {"error": "not_found"})

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        raw = self.body()
        if url.path == "/register":
            request = json.loads(raw or "{}")
            record(side="as", id="client-registration", path=url.path,
                   redirect_uris=request.get("redirect_uris"),
                   token_endpoint_auth_method=request.get("token_endpoint_auth_method"),
                   grant_types=request.get("grant_types"))
            client_id = "test-client-" + secrets.token_hex(4)
            answer = {"client_id": client_id, "token_endpoint_auth_method": AUTH_METHOD}
            if AUTH_METHOD != "none":
                answer["client_secret"] = clients[client_id] = secrets.token_urlsafe(32)
            self.send_json(201, {**answer,
                                 "redirect_uris": request.get("redirect_uris", []),
                                 "grant_types": ["authorization_code", "refresh_token"],
                                 "response_types": ["code"]})
        elif url.path == "/token":
            form = dict(urllib.parse.parse_qsl(raw))
            if form.get("grant_type") == "refresh_token":
                self.refresh(form)
                return
            asked = codes.pop(form.get("code", ""), None)
            verifier_ok = False
            if asked is not None and form.get("code_verifier"):
                digest = hashlib.sha256(form["code_verifier"].encode()).digest()
                verifier_ok = base64.urlsafe_b64encode(digest).rstrip(b"=").decode() == asked.get("code_challenge")
            authorization = self.headers.get("Authorization", "")
            if authorization.startswith("Basic "):
                method = "client_secret_basic"
                try:
                    user, _, password = base64.b64decode(authorization[6:]).decode().partition(":")
                    user, password = urllib.parse.unquote_plus(user), urllib.parse.unquote_plus(password)
                except ValueError:
                    user, password = "", ""
            elif form.get("client_secret"):
                method, user, password = "client_secret_post", form.get("client_id", ""), form["client_secret"]
            else:
                method, user, password = "none", form.get("client_id", ""), None
            credentials_ok = clients.get(user) == password if method != "none" else user.startswith("test-client-")
            if form.get("grant_type") in MACHINE_GRANTS:
                self.machine_grant(form, method, credentials_ok)
                return
            record(side="as", id="token-request", path=url.path, grant_type=form.get("grant_type"),
                   auth_method=method, credentials_ok=credentials_ok,
                   code_known=asked is not None, pkce_verified=verifier_ok, resource=form.get("resource"))
            if asked is None or not verifier_ok:
                self.send_json(400, {"error": "invalid_grant"})
                return
            token = secrets.token_urlsafe(24)
            tokens.add(token)
            granted[token] = (asked.get("scope") or "").split()
            answer = {"access_token": token, "token_type": "Bearer", "expires_in": 3600}
            if asked.get("scope"):
                answer["scope"] = asked["scope"]
            if SCENARIO == "token-refresh-rotation":
                answer["refresh_token"] = secrets.token_urlsafe(24)
                refresh_tokens.add(answer["refresh_token"])
            self.send_json(200, answer)
        else:
            self.send_json(404, {"error": "not_found"})


    def machine_grant(self, form, method, credentials_ok):
        """client-credentials.ts and wif-jwt-bearer.ts: no browser, no registration."""
        jwt_bearer = form["grant_type"] != "client_credentials"
        assertion_ok = form.get("assertion") == os.environ.get("CONFORMANCE_ASSERTION") if jwt_bearer else None
        record(side="as", id="token-request", path="/token", grant_type=form["grant_type"],
               auth_method=method, credentials_ok=credentials_ok, assertion_ok=assertion_ok,
               client_id=form.get("client_id"), resource=form.get("resource"))
        if not (assertion_ok if jwt_bearer else credentials_ok):
            self.send_json(400 if jwt_bearer else 401, {"error": "invalid_grant" if jwt_bearer else "invalid_client"})
            return
        token = secrets.token_urlsafe(24)
        tokens.add(token)
        self.send_json(200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600})

    def refresh(self, form):
        known = form.get("refresh_token", "") in refresh_tokens
        record(side="as", id="refresh-token-grant-used" if known else "refresh-token-invalid",
               path="/token", resource=form.get("resource"))
        if not known:
            self.send_json(400, {"error": "invalid_grant"})
            return
        refresh_tokens.discard(form["refresh_token"])
        token, rotated = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        tokens.add(token)
        refreshed.add(token)
        refresh_tokens.add(rotated)
        self.send_json(200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600,
                             "refresh_token": rotated})


class Resource(Base):
    def prm(self):
        resource = "https://evil.example.com/mcp" if SCENARIO == "resource-mismatch" else f"{origins['rs']}/mcp"
        metadata = {"resource": resource, "authorization_servers": [origins["as"]]}
        if SCOPES_SUPPORTED:
            metadata["scopes_supported"] = SCOPES_SUPPORTED
        return metadata

    def challenge(self):
        # prm-pathbased: no resource_metadata, so the client finds the metadata itself.
        if SCENARIO == "prm-pathbased":
            return 'Bearer error="invalid_token"'
        scope = f'scope="{CHALLENGE_SCOPE}", ' if CHALLENGE_SCOPE else ""
        return f'Bearer error="invalid_token", {scope}resource_metadata="{origins["rs"]}/.well-known/oauth-protected-resource/mcp"'

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path == "/.well-known/oauth-protected-resource/mcp":
            record(side="rs", id="prm-pathbased-requested", path=path)
            if SCENARIO == "prm-pathbased":
                self.send_json(404, {"error": "not_found"})
            else:
                self.send_json(200, self.prm())
        elif path == "/.well-known/oauth-protected-resource":
            record(side="rs", id="prm-root-requested", path=path)
            if SCENARIO == "prm-pathbased":
                self.send_json(200, self.prm())
            else:
                self.send_json(404, {"error": "not_found"})
        elif path == "/mcp":
            record(side="rs", id="mcp-get", path=path)
            self.send_json(401, {"error": "invalid_token"}, [("WWW-Authenticate", self.challenge())])
        else:
            self.send_json(404, {"error": "not_found"})

    def do_POST(self):
        path = urllib.parse.urlsplit(self.path).path
        raw = self.body()
        authorization = self.headers.get("Authorization", "")
        token = authorization[7:] if authorization.startswith("Bearer ") else ""
        if path != "/mcp":
            self.send_json(404, {"error": "not_found"})
            return
        if token not in tokens:
            record(side="rs", id="mcp-unauthorized", path=path, had_token=bool(token))
            self.send_json(401, {"error": "invalid_token"}, [("WWW-Authenticate", self.challenge())])
            return
        try:
            message = json.loads(raw)
        except ValueError:
            message = {}
        if SCENARIO == "scope-step-up" and message.get("method") == "tools/call" and "mcp:write" not in granted.get(token, []):
            record(side="rs", id="insufficient-scope", path=path, method="tools/call")
            challenge = ('Bearer error="insufficient_scope", scope="mcp:write", '
                         f'resource_metadata="{origins["rs"]}/.well-known/oauth-protected-resource/mcp"')
            self.send_json(403, {"error": "insufficient_scope"}, [("WWW-Authenticate", challenge)])
            return
        record(side="rs", id="valid-bearer-token", path=path, method=message.get("method"),
               refreshed=token in refreshed)
        self.send_json(200, {"jsonrpc": "2.0", "id": message.get("id"),
                             "result": {"serverInfo": {"name": "conformance-" + SCENARIO, "version": "1"},
                                        "protocolVersion": "2025-06-18", "capabilities": {}}})


# --- authorization-server-migration.ts (SEP-2352), self-contained: two authorization servers
#     and a resource whose metadata names the first until one authorized call went through,
#     then the second, refusing the first's tokens from then on. The first issues the
#     recognizable client id of the .ts, so that the second can tell its reuse. Events carry
#     `side` "as1", "as2" or "rs". PORTS-FILE gets "RESOURCE-ORIGIN AS1-ORIGIN AS2-ORIGIN".
#     authorization-server-migration-refresh (not in the .ts): the servers also issue refresh
#     tokens, and the first still honours them after the move — a client that refreshes on a
#     401 gets a token the resource refuses again, so only the resource's metadata shows the move.
if SCENARIO in ("authorization-server-migration", "authorization-server-migration-refresh"):
    AS1_CLIENT_ID = "as1-client-id-LEAKED-IF-SEEN-AT-AS2"
    migration = {"migrated": False, "issued": {"as1": set(), "as2": set()}, "codes": {}, "secrets": {}, "refresh": {}}

    class MigrationAuthServer(Base):
        side = "as1"

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = dict(urllib.parse.parse_qsl(url.query))
            origin = origins[self.side]
            if url.path == "/.well-known/oauth-authorization-server":
                record(side=self.side, id="authorization-server-metadata", path=url.path)
                self.send_json(200, {
                    "issuer": origin, "authorization_endpoint": f"{origin}/authorize", "token_endpoint": f"{origin}/token",
                    "registration_endpoint": f"{origin}/register", "response_types_supported": ["code"],
                    "grant_types_supported": ["authorization_code", "refresh_token"],
                    "code_challenge_methods_supported": ["S256"], "token_endpoint_auth_methods_supported": ["client_secret_basic"]})
            elif url.path == "/authorize":
                record(side=self.side, id="authorization-request", path=url.path, client_id=query.get("client_id"),
                       resource=query.get("resource"), scope=query.get("scope"))
                code = secrets.token_urlsafe(24)
                migration["codes"][code] = query
                target = query["redirect_uri"]
                params = urllib.parse.urlencode({"code": code, "state": query.get("state", "")})
                self.send_response(302)
                self.send_header("Location", target + ("&" if "?" in target else "?") + params)
                self.send_header("Content-Length", "0")
                self.end_headers()
            else:
                self.send_json(404, {"error": "not_found"})

        def do_POST(self):
            url = urllib.parse.urlsplit(self.path)
            raw = self.body()
            if url.path == "/register":
                request = json.loads(raw or "{}")
                record(side=self.side, id="client-registration", path=url.path, redirect_uris=request.get("redirect_uris"))
                client_id = AS1_CLIENT_ID if self.side == "as1" else "as2-client-id"
                secret = migration["secrets"][client_id] = secrets.token_urlsafe(32)
                self.send_json(201, {"client_id": client_id, "client_secret": secret, "token_endpoint_auth_method": "client_secret_basic",
                                     "redirect_uris": request.get("redirect_uris", []),
                                     "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"]})
            elif url.path == "/token":
                form = dict(urllib.parse.parse_qsl(raw))
                authorization = self.headers.get("Authorization", "")
                client_id, password = form.get("client_id"), form.get("client_secret")
                if authorization.startswith("Basic "):
                    user, _, secret = base64.b64decode(authorization[6:]).decode("utf-8", "replace").partition(":")
                    client_id, password = urllib.parse.unquote_plus(user), urllib.parse.unquote_plus(secret)
                if form.get("grant_type") == "refresh_token":
                    side = migration["refresh"].pop(form.get("refresh_token", ""), None)
                    record(side=self.side, id="refresh-token-grant-used" if side == self.side else "refresh-token-invalid",
                           path=url.path, client_id=client_id)
                    if side != self.side:
                        self.send_json(400, {"error": "invalid_grant"})
                        return
                    self.issue()
                    return
                asked = migration["codes"].pop(form.get("code", ""), None)
                digest = hashlib.sha256(form.get("code_verifier", "").encode()).digest()
                verified = asked is not None and base64.urlsafe_b64encode(digest).rstrip(b"=").decode() == asked.get("code_challenge")
                record(side=self.side, id="token-request", path=url.path, client_id=client_id, grant_type=form.get("grant_type"),
                       credentials_ok=migration["secrets"].get(client_id) == password, pkce_verified=verified,
                       resource=form.get("resource"))
                if not verified or migration["secrets"].get(client_id) != password:
                    self.send_json(400, {"error": "invalid_grant"})
                    return
                self.issue()
            else:
                self.send_json(404, {"error": "not_found"})

        def issue(self):
            token = f"test-token-{self.side}-{secrets.token_urlsafe(16)}"
            migration["issued"][self.side].add(token)
            answer = {"access_token": token, "token_type": "Bearer", "expires_in": 3600, "scope": "mcp:basic"}
            if SCENARIO.endswith("-refresh"):
                answer["refresh_token"] = secrets.token_urlsafe(24)
                migration["refresh"][answer["refresh_token"]] = self.side
            self.send_json(200, answer)

    class SecondAuthServer(MigrationAuthServer):
        side = "as2"

    class MigrationResource(Base):
        def metadata_url(self):
            return f"{origins['rs']}/.well-known/oauth-protected-resource/mcp"

        def refuse(self, **event):
            record(side="rs", id="mcp-unauthorized", path="/mcp", **event)
            challenge = f'Bearer error="invalid_token", scope="mcp:basic", resource_metadata="{self.metadata_url()}"'
            self.send_json(401, {"error": "invalid_token"}, [("WWW-Authenticate", challenge)])

        def do_GET(self):
            path = urllib.parse.urlsplit(self.path).path
            if path == "/.well-known/oauth-protected-resource/mcp":
                named = origins["as2" if migration["migrated"] else "as1"]
                record(side="rs", id="prm-requested", path=path, names=named)
                self.send_json(200, {"resource": f"{origins['rs']}/mcp", "authorization_servers": [named], "scopes_supported": ["mcp:basic"]})
            elif path == "/mcp":
                self.refuse(had_token=False)
            else:
                self.send_json(404, {"error": "not_found"})

        def do_POST(self):
            raw = self.body()
            if urllib.parse.urlsplit(self.path).path != "/mcp":
                self.send_json(404, {"error": "not_found"})
                return
            try:
                message = json.loads(raw)
            except ValueError:
                message = {}
            method = message.get("method") or ""
            authorization = self.headers.get("Authorization", "")
            token = authorization[7:] if authorization.startswith("Bearer ") else ""
            issuer = next((side for side, issued in migration["issued"].items() if token in issued), None)
            # initialize and notifications need no token, as in the .ts.
            if method != "initialize" and not method.startswith("notifications/"):
                if issuer is None:
                    self.refuse(had_token=bool(token))
                    return
                if not migration["migrated"]:
                    # Phase 1: any verified token, and the metadata names the second server from now on.
                    migration["migrated"] = True
                elif issuer != "as2":
                    # Phase 2: only the second server's tokens.
                    self.refuse(had_token=True, token_of=issuer)
                    return
            record(side="rs", id="valid-bearer-token" if issuer else "unauthenticated-call", path="/mcp", method=method,
                   token_of=issuer)
            self.send_json(200, {"jsonrpc": "2.0", "id": message.get("id"),
                                 "result": {"serverInfo": {"name": "conformance-" + SCENARIO, "version": "1"},
                                            "tokenOf": issuer, "tools": []}})

    def migration_serve(handler):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{server.server_address[1]}"

    origins["as1"] = migration_serve(MigrationAuthServer)
    origins["as2"] = migration_serve(SecondAuthServer)
    origins["rs"] = migration_serve(MigrationResource)
    with open(PORTS + ".tmp", "w") as handle:
        handle.write(f"{origins['rs']} {origins['as1']} {origins['as2']}\n")
    os.replace(PORTS + ".tmp", PORTS)
    threading.Event().wait()


def serve(handler):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}"


origins["as"] = serve(AuthServer)
origins["rs"] = serve(Resource)
with open(PORTS + ".tmp", "w") as handle:
    handle.write(f"{origins['rs']} {origins['as']}\n")
os.replace(PORTS + ".tmp", PORTS)
threading.Event().wait()

#!/usr/bin/env python3
"""An MCP server built with the official MCP Python SDK (PyPI `mcp`), as MCP servers are
deployed: streamable HTTP at /mcp, its resource-server auth (RFC 9728 metadata, 401 with
`resource_metadata`, bearer tokens checked for this resource, RFC 8707) and the SDK's own
authorization server at the same origin (RFC 8414 metadata without `jwks_uri`: it issues no
ID token; RFC 7591 registration; PKCE S256 only; refresh tokens).

The SDK leaves storage and the person's approval to the server: here they are in memory,
and the person approves at once (the SDK's simple-auth example does the same behind a
login page). Bound to 127.0.0.1.

  MCP_PORT=N MCP_SCOPES="mcp:read mcp:write" MCP_TOKEN_SECONDS=300 python3 mcp_server.py

MCP_SECRET_SECONDS=N: the client secrets its registration issues expire after N seconds.

MCP_LEGACY=1: a server of MCP's 2025-03-26 revision — no protected-resource metadata and no
`resource_metadata` in its challenge; its authorization server's metadata at its origin.
"""
import os
import secrets
import time

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

PORT = int(os.environ["MCP_PORT"])
ORIGIN = f"http://127.0.0.1:{PORT}"
SCOPES = os.environ.get("MCP_SCOPES", "mcp:read mcp:write").split()
TOKEN_SECONDS = int(os.environ.get("MCP_TOKEN_SECONDS", "300"))
LEGACY = os.environ.get("MCP_LEGACY") == "1"
SECRET_SECONDS = int(os.environ["MCP_SECRET_SECONDS"]) if os.environ.get("MCP_SECRET_SECONDS") else None


class InMemoryServer:
    """OAuthAuthorizationServerProvider: clients, codes and tokens in memory."""

    def __init__(self):
        self.clients = {}
        self.codes = {}
        self.access = {}
        self.refresh = {}

    async def get_client(self, client_id):
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull):
        self.clients[client_info.client_id] = client_info

    async def authorize(self, client, params: AuthorizationParams):
        code = secrets.token_urlsafe(32)
        self.codes[code] = AuthorizationCode(
            code=code,
            # No scope asked: the client's registered ones, the default (RFC 6749 §3.3).
            scopes=params.scopes or (client.scope.split() if client.scope else []),
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
            subject="ada",
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(self, client, authorization_code):
        found = self.codes.get(authorization_code)
        return found if found and found.client_id == client.client_id else None

    def issue(self, client_id, scopes, resource, subject):
        access, refresh = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        expires = int(time.time()) + TOKEN_SECONDS
        self.access[access] = AccessToken(
            token=access, client_id=client_id, scopes=scopes, expires_at=expires, resource=resource, subject=subject
        )
        self.refresh[refresh] = RefreshToken(
            token=refresh, client_id=client_id, scopes=scopes, resource=resource, subject=subject
        )
        return OAuthToken(
            access_token=access, token_type="Bearer", expires_in=TOKEN_SECONDS, refresh_token=refresh, scope=" ".join(scopes)
        )

    async def exchange_authorization_code(self, client, authorization_code):
        self.codes.pop(authorization_code.code, None)
        return self.issue(
            client.client_id, authorization_code.scopes, authorization_code.resource, authorization_code.subject
        )

    async def load_refresh_token(self, client, refresh_token):
        found = self.refresh.get(refresh_token)
        return found if found and found.client_id == client.client_id else None

    async def exchange_refresh_token(self, client, refresh_token, scopes):
        # One-time use: the old refresh token is spent.
        self.refresh.pop(refresh_token.token, None)
        if any(scope not in refresh_token.scopes for scope in scopes):
            raise TokenError("invalid_scope", "more scopes than were granted")
        return self.issue(client.client_id, scopes or refresh_token.scopes, refresh_token.resource, refresh_token.subject)

    async def load_access_token(self, token):
        found = self.access.get(token)
        if found and found.expires_at and found.expires_at < time.time():
            return None
        return found

    async def revoke_token(self, token):
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)


server = MCPServer(
    "authctl-e2e",
    auth_server_provider=InMemoryServer(),
    auth=AuthSettings(
        issuer_url=ORIGIN,
        resource_server_url=None if LEGACY else f"{ORIGIN}/mcp",
        required_scopes=SCOPES,
        validate_token_resource=not LEGACY,
        client_registration_options=ClientRegistrationOptions(
            enabled=True, valid_scopes=SCOPES, default_scopes=SCOPES, client_secret_expiry_seconds=SECRET_SECONDS
        ),
        revocation_options=RevocationOptions(enabled=True),
    ),
)


@server.tool()
def whoami() -> str:
    """Who the token speaks for."""
    from mcp.server.auth.middleware.auth_context import get_access_token

    token = get_access_token()
    return f"{token.subject} {' '.join(sorted(token.scopes))}" if token else "nobody"


if __name__ == "__main__":
    import uvicorn

    app = server.streamable_http_app(stateless_http=True, json_response=True, host="127.0.0.1")
    uvicorn.run(app, host="127.0.0.1", port=PORT, log_level="warning")

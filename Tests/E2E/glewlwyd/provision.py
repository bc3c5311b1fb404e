#!/usr/bin/env python3
"""Provisions a fresh Glewlwyd (started by start-glewlwyd.sh) through its admin REST API.

Usage: provision.py BASE_URL STATE_DIR REDIRECT_URI

Everything secret is made here, at test time, and kept under STATE_DIR (mode 0700):
the admin's new password (the database ships admin/password; it is changed first),
the user's password, the OIDC plugin's RS256 signing key, the confidential client's
ES256 key (private_key_jwt). Writes STATE_DIR/glewlwyd.json (read by the smoke test
and later by authctl's end-to-end driver) and prints nothing secret.
"""
import base64
import hashlib
import json
import os
import secrets
import sys

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

PLUGIN = "oidc"
USERNAME = "ada"
PUBLIC_CLIENT = "authctl-public"
JWT_CLIENT = "authctl-pkjwt"
INTROSPECTOR = "e2e-introspector"
CIBA_CLIENT = "authctl-ciba"
CIBA_GRANT = "urn:openid:params:grant-type:ciba"
INTROSPECT_SCOPE = "e2e_introspect"
RAR_TYPE = "account_information"


def b64u_int(value, length=None):
    length = length or (value.bit_length() + 7) // 8
    return base64.urlsafe_b64encode(value.to_bytes(length, "big")).rstrip(b"=").decode()


def rsa_jwk(key, kid):
    pub = key.public_key().public_numbers()
    priv = key.private_numbers()
    public = {"kty": "RSA", "kid": kid, "alg": "RS256", "use": "sig", "n": b64u_int(pub.n), "e": b64u_int(pub.e)}
    private = dict(public, d=b64u_int(priv.d), p=b64u_int(priv.p), q=b64u_int(priv.q),
                   dp=b64u_int(priv.dmp1), dq=b64u_int(priv.dmq1), qi=b64u_int(priv.iqmp))
    return public, private


def ec_jwk(key, kid):
    pub = key.public_key().public_numbers()
    return {"kty": "EC", "crv": "P-256", "kid": kid, "alg": "ES256", "use": "sig",
            "x": b64u_int(pub.x, 32), "y": b64u_int(pub.y, 32)}


def check(response, what):
    if response.status_code != 200:
        sys.exit(f"provision: {what} failed: HTTP {response.status_code} {response.text[:500]}")
    return response


def main():
    base, state, redirect_uri = sys.argv[1], sys.argv[2], sys.argv[3]
    api = f"{base}/api"
    issuer = f"{api}/{PLUGIN}"
    admin = requests.Session()
    # The shipped database's admin password is "password": replace it before anything else.
    check(admin.post(f"{api}/auth/", json={"username": "admin", "password": "password"}), "admin login")
    admin_password = secrets.token_urlsafe(24)
    check(admin.put(f"{api}/profile/password", json={"username": "admin", "old_password": "password", "password": admin_password}), "admin password change")

    user_password = secrets.token_urlsafe(18)
    check(admin.post(f"{api}/user/", json={
        "username": USERNAME, "name": "Ada Lovelace", "email": "ada@example.com", "enabled": True,
        "password": user_password, "scope": ["openid", "g_profile"],
    }), "user creation")

    # Introspection of any client's token: a bearer token with this scope (Glewlwyd's
    # "introspection-revocation-auth-scope"); a client can only introspect its own tokens.
    check(admin.post(f"{api}/scope/", json={"name": INTROSPECT_SCOPE, "display_name": "introspect any token",
                                            "description": "the tests' introspection", "password_required": False,
                                            "scheme": {}}), "introspection scope creation")

    signing_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    _, signing_private = rsa_jwk(signing_key, "glewlwyd-rs256")
    parameters = {
        "iss": issuer,
        "jwt-type": "rsa", "jwt-key-size": "256",
        "jwks-private": json.dumps({"keys": [signing_private]}), "default-kid": "glewlwyd-rs256",
        "jwks-show": True, "jwks-x5c": [],
        "access-token-duration": 3600, "refresh-token-duration": 1209600, "code-duration": 600,
        "refresh-token-rolling": True,
        "refresh-token-one-use": "always",
        "client-refresh-token-one-use-parameter": "refresh-token-one-use",
        "allow-non-oidc": True,  # the client-credentials grant needs it
        "auth-type-code-enabled": True, "auth-type-code-revoke-replayed": True,
        "auth-type-token-enabled": False, "auth-type-id-token-enabled": True, "auth-type-none-enabled": False,
        "auth-type-password-enabled": False, "auth-type-client-enabled": True,
        "auth-type-device-enabled": True, "auth-type-refresh-enabled": True,
        "scope": [], "additional-parameters": [], "claims": [],
        "name-claim": "on-demand", "name-claim-scope": [],
        "email-claim": "mandatory", "email-claim-scope": [],
        "scope-claim": "no", "scope-claim-scope": [],
        "address-claim": {"type": "no", "formatted": "", "street_address": "", "locality": "", "region": "",
                          "postal_code": "", "country": "", "mandatory": False},
        "allowed-scope": ["openid", "g_profile", INTROSPECT_SCOPE],
        "secret-type": "pairwise",
        "service-documentation": "", "op-policy-uri": "", "op-tos-uri": "",
        "request-parameter-allow": True, "request-uri-allow-https-non-secure": False,
        "request-parameter-allow-encrypted": False, "request-parameter-ietf-strict": False,
        "request-maximum-exp": 3600,
        "client-pubkey-parameter": "", "client-jwks-parameter": "jwks", "client-jwks_uri-parameter": "jwks_uri",
        "client-sign_kid-parameter": "",
        "encrypt-out-token-allow": False,
        "pkce-allowed": True, "pkce-method-plain-allowed": False, "pkce-required": True,
        "pkce-required-public-client": True, "pkce-scopes": [],
        "introspection-revocation-allowed": True, "introspection-revocation-auth-scope": [INTROSPECT_SCOPE],
        "introspection-revocation-allow-target-client": True,
        "register-client-allowed": False,
        "session-management-allowed": False,
        "device-authorization-expiration": 600, "device-authorization-interval": 5,
        "oauth-dpop-allowed": True,
        "oauth-dpop-iat-duration": 60, "oauth-dpop-iat-gap-duration": 5,
        "oauth-dpop-dpop_bound_access_tokens-property": "dpop_bound_access_tokens",
        "oauth-dpop-nonce-mandatory": os.environ.get("GLEWLWYD_DPOP_NONCE", "0") == "1",
        "oauth-dpop-nonce-counter": 10,
        "resource-allowed": False,
        "oauth-rar-allowed": True, "rar-types-client-property": "authorization_details_types",
        "rar-allow-auth-unsigned": True, "rar-allow-auth-unencrypted": True,
        "rar-types": {RAR_TYPE: {"scopes": ["openid"], "description": "Read account information",
                                 "locations": ["https://api.example.com/accounts"],
                                 "actions": ["read", "list"], "datatypes": ["balances", "transactions"],
                                 "enriched": []}},
        "oauth-par-allowed": True, "oauth-par-required": os.environ.get("GLEWLWYD_PAR_REQUIRED", "0") == "1",
        "oauth-par-request_uri-prefix": "urn:ietf:params:oauth:request_uri:", "oauth-par-duration": 90,
        "oauth-as-iss-id": True,
        # CIBA (issue 41), poll mode only, no e-mail: the tests approve through the user API
        # (ciba_user_list, then ciba_user_check with the session cookie).
        "oauth-ciba-allowed": True, "oauth-ciba-mode-poll-allowed": True,
        "oauth-ciba-mode-ping-allowed": False, "oauth-ciba-mode-push-allowed": False,
        "oauth-ciba-allow-https-non-secure": False, "oauth-ciba-default-expiry": 600, "oauth-ciba-maximum-expiry": 1200,
        "oauth-ciba-user-code-allowed": False, "oauth-ciba-email-allowed": False,
        "oauth-fapi-ciba-confidential-client": True, "oauth-fapi-ciba-push-forbidden": True,
        "oauth-fapi-check-all": False,
    }
    check(admin.post(f"{api}/mod/plugin/", json={
        "module": "oidc", "name": PLUGIN, "display_name": "OpenID Connect", "parameters": parameters,
    }), "OIDC plugin creation")

    common = {"enabled": True, "scope": ["openid", "g_profile"], "redirect_uri": [redirect_uri],
              "authorization_type": ["code", "refresh_token", "device_authorization"],
              "authorization_details_types": [RAR_TYPE]}
    check(admin.post(f"{api}/client/", json=dict(common,
        client_id=PUBLIC_CLIENT, name="authctl (public, PKCE)", confidential=False,
        token_endpoint_auth_method=["none"])), "public client creation")

    client_key = ec.generate_private_key(ec.SECP256R1())
    # Registered under its RFC 7638 thumbprint, the kid authctl's client assertions name
    # (Glewlwyd finds a client's key by kid and refuses an assertion without one).
    unnamed = ec_jwk(client_key, "")
    canonical = json.dumps({k: unnamed[k] for k in ("crv", "kty", "x", "y")}, separators=(",", ":"), sort_keys=True)
    client_jwk = ec_jwk(client_key, base64.urlsafe_b64encode(hashlib.sha256(canonical.encode()).digest()).rstrip(b"=").decode())
    key_path = os.path.join(state, "pkjwt-client-key.pem")
    with open(os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as handle:
        handle.write(client_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption()))
    check(admin.post(f"{api}/client/", json=dict(common,
        client_id=JWT_CLIENT, name="authctl (private_key_jwt)", confidential=True,
        authorization_type=common["authorization_type"] + ["client_credentials", CIBA_GRANT],
        backchannel_token_delivery_mode="poll",
        token_endpoint_auth_method=["private_key_jwt"], token_endpoint_signing_alg="ES256",
        jwks={"keys": [client_jwk]})), "private_key_jwt client creation")

    introspector_secret = secrets.token_urlsafe(32)
    check(admin.post(f"{api}/client/", json={
        "client_id": INTROSPECTOR, "name": "the tests' introspection", "enabled": True, "confidential": True,
        "client_secret": introspector_secret, "token_endpoint_auth_method": ["client_secret_basic"],
        "authorization_type": ["client_credentials"], "scope": [INTROSPECT_SCOPE], "redirect_uri": []}),
        "introspector client creation")

    # CIBA's confidential client with a secret (client_secret_basic or _post).
    ciba_secret = secrets.token_urlsafe(32)
    check(admin.post(f"{api}/client/", json={
        "client_id": CIBA_CLIENT, "name": "authctl (CIBA, client secret)", "enabled": True, "confidential": True,
        "client_secret": ciba_secret, "token_endpoint_auth_method": ["client_secret_basic", "client_secret_post"],
        "authorization_type": [CIBA_GRANT, "refresh_token"], "backchannel_token_delivery_mode": "poll",
        "scope": ["openid", "g_profile"], "redirect_uri": []}), "CIBA client creation")

    # The admin session is ended; the admin password is not written anywhere.
    admin.delete(f"{api}/auth/")
    config = {
        "base_url": base, "issuer": issuer, "redirect_uri": redirect_uri,
        "username": USERNAME, "password": user_password,
        "public_client_id": PUBLIC_CLIENT,
        "pkjwt_client_id": JWT_CLIENT, "pkjwt_key_file": key_path, "pkjwt_kid": client_jwk["kid"],
        "rar_type": RAR_TYPE,
        "introspector_client_id": INTROSPECTOR, "introspector_secret": introspector_secret,
        "introspect_scope": INTROSPECT_SCOPE,
        "ciba_client_id": CIBA_CLIENT, "ciba_secret": ciba_secret,
        "dpop_nonce_mandatory": parameters["oauth-dpop-nonce-mandatory"],
        "par_required": parameters["oauth-par-required"],
    }
    path = os.path.join(state, "glewlwyd.json")
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
        json.dump(config, handle, indent=2)


if __name__ == "__main__":
    main()

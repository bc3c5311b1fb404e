"""What the smoke tests share: DPoP proofs (RFC 9449), PKCE, client assertions (RFC 7523),
a check counter that prints `ok`/`FAIL`/`note` lines and ends with "N passed, M failed".

Needs requests and cryptography (start-glewlwyd.sh's venv has both).
"""
import base64
import hashlib
import json
import secrets
import time
import uuid

import requests
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64u_json(value):
    return b64u(json.dumps(value, separators=(",", ":")).encode())


def jwt_claims(token):
    """The payload of a JWS (unverified: the tests only read what the provider put in)."""
    try:
        payload = token.split(".")[1]
        return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (IndexError, ValueError, AttributeError):
        return None


def pkce_pair():
    verifier = b64u(secrets.token_bytes(32))
    return verifier, b64u(hashlib.sha256(verifier.encode()).digest())


def es256_sign(key, header, claims):
    signing_input = f"{b64u_json(header)}.{b64u_json(claims)}".encode()
    r, s = decode_dss_signature(key.sign(signing_input, ec.ECDSA(hashes.SHA256())))
    return signing_input.decode() + "." + b64u(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


class DPoPKey:
    """An ES256 key pair and its proofs: typ dpop+jwt, the public jwk in the header, htm,
    htu, iat, a fresh jti, ath when a token is presented, nonce when the server gave one."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        numbers = self.key.public_key().public_numbers()
        self.jwk = {"kty": "EC", "crv": "P-256", "x": b64u(numbers.x.to_bytes(32, "big")),
                    "y": b64u(numbers.y.to_bytes(32, "big"))}

    @property
    def thumbprint(self):
        """RFC 7638: SHA-256 of the required members in lexicographic order, no whitespace."""
        canonical = json.dumps({k: self.jwk[k] for k in ("crv", "kty", "x", "y")}, separators=(",", ":"), sort_keys=True)
        return b64u(hashlib.sha256(canonical.encode()).digest())

    def proof(self, method, url, access_token=None, nonce=None, iat=None, jti=None, omit=()):
        claims = {"jti": jti or str(uuid.uuid4()), "htm": method, "htu": url, "iat": int(iat if iat is not None else time.time())}
        if access_token is not None:
            claims["ath"] = b64u(hashlib.sha256(access_token.encode()).digest())
        if nonce is not None:
            claims["nonce"] = nonce
        for name in omit:
            claims.pop(name, None)
        return es256_sign(self.key, {"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk}, claims)


def client_assertion(pem_path, kid, client_id, audience, jti=None, lifetime=300):
    with open(pem_path, "rb") as handle:
        key = serialization.load_pem_private_key(handle.read(), password=None)
    now = int(time.time())
    claims = {"iss": client_id, "sub": client_id, "aud": audience, "jti": jti or str(uuid.uuid4()),
              "iat": now, "exp": now + lifetime}
    return es256_sign(key, {"typ": "JWT", "alg": "ES256", "kid": kid}, claims)


def describe(response):
    """Status, the OAuth error and the headers that matter: what the README records."""
    parts = [f"HTTP {response.status_code}"]
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and "error" in body:
        parts.append(f"error={body['error']}")
    elif not response.content:
        parts.append("empty body")
    for header in ("WWW-Authenticate", "DPoP-Nonce"):
        if header in response.headers:
            value = response.headers[header] if header != "DPoP-Nonce" else "<nonce>"
            parts.append(f"{header}: {value}")
    return ", ".join(parts)


def oauth_error(response):
    try:
        body = response.json()
        return body.get("error") if isinstance(body, dict) else None
    except ValueError:
        return None


def needs_nonce(response):
    """RFC 9449 §8 (authorization server: 400 error=use_dpop_nonce) and §9 (resource server:
    401, WWW-Authenticate: DPoP error="use_dpop_nonce"), with a DPoP-Nonce header."""
    if "DPoP-Nonce" not in response.headers:
        return False
    return oauth_error(response) == "use_dpop_nonce" or "use_dpop_nonce" in response.headers.get("WWW-Authenticate", "")


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.notes = []

    def check(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print(f"ok   - {name}")
        else:
            self.failed += 1
            print(f"FAIL - {name}" + (f" ({detail})" if detail else ""))
        return bool(condition)

    def note(self, text):
        self.notes.append(text)
        print(f"note - {text}")

    def summary(self):
        print(f"{self.passed} passed, {self.failed} failed")
        return self.failed == 0


class DPoPClient:
    """Sends requests with proofs; remembers the last DPoP-Nonce per server (origin) and, on
    a use_dpop_nonce answer, retries once with it, as the Swift client will."""

    def __init__(self, session=None):
        self.session = session or requests.Session()
        self.nonces = {}
        self.nonce_retries = 0

    @staticmethod
    def origin(url):
        return "/".join(url.split("/")[:3])

    def send(self, method, url, key, access_token=None, scheme="DPoP", retry=True, data=None, **kwargs):
        """`data` may be a function: it is called for each attempt, so that a retry carries a
        fresh client assertion (a replayed assertion jti is refused)."""
        headers = dict(kwargs.pop("headers", {}))
        if access_token is not None:
            headers["Authorization"] = f"{scheme} {access_token}"
        for attempt in (1, 2):
            headers["DPoP"] = key.proof(method, url, access_token, nonce=self.nonces.get(self.origin(url)))
            body = data() if callable(data) else data
            response = self.session.request(method, url, headers=headers, data=body, timeout=20, **kwargs)
            if "DPoP-Nonce" in response.headers:
                self.nonces[self.origin(url)] = response.headers["DPoP-Nonce"]
            if attempt == 1 and retry and needs_nonce(response):
                self.nonce_retries += 1
                continue
            return response

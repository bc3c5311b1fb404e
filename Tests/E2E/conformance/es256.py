"""ES256 (ECDSA with P-256 and SHA-256, RFC 7518 §3.4) signature verification and RFC 7638 JWK
thumbprints, in the Python standard library: the DPoP scenarios' judge (dpop.ts checks each
proof with jose; this is an independent path, as the suite's own judge is from its builder).
Verification only: nothing here is secret, so plain affine arithmetic is enough.
"""
import base64
import hashlib
import json

P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
     0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _add(p, q):
    if p is None:
        return q
    if q is None:
        return p
    if p[0] == q[0] and (p[1] + q[1]) % P == 0:
        return None
    if p == q:
        slope = (3 * p[0] * p[0] + A) * pow(2 * p[1], -1, P) % P
    else:
        slope = (q[1] - p[1]) * pow(q[0] - p[0], -1, P) % P
    x = (slope * slope - p[0] - q[0]) % P
    return x, (slope * (p[0] - x) - p[1]) % P


def _multiply(k, point):
    result = None
    while k:
        if k & 1:
            result = _add(result, point)
        point = _add(point, point)
        k >>= 1
    return result


def public_point(jwk):
    """The P-256 point of a public EC JWK, or None when it is not one (or not on the curve)."""
    if not isinstance(jwk, dict) or jwk.get("kty") != "EC" or jwk.get("crv") != "P-256":
        return None
    try:
        x, y = (int.from_bytes(b64url_decode(jwk[name]), "big") for name in ("x", "y"))
    except (KeyError, TypeError, ValueError):
        return None
    if not (0 <= x < P and 0 <= y < P) or (y * y - x * x * x - A * x - B) % P:
        return None
    return x, y


def verify(jws, jwk):
    """True when the compact JWS is signed with ES256 by the key `jwk`."""
    point = public_point(jwk)
    try:
        header, payload, signature = jws.split(".")
        raw = b64url_decode(signature)
    except ValueError:
        return False
    if point is None or len(raw) != 64:
        return False
    r, s = int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
    if not (0 < r < N and 0 < s < N):
        return False
    z = int.from_bytes(hashlib.sha256(f"{header}.{payload}".encode()).digest(), "big")
    w = pow(s, -1, N)
    total = _add(_multiply(z * w % N, G), _multiply(r * w % N, point))
    return total is not None and total[0] % N == r


def thumbprint(jwk):
    """RFC 7638: the SHA-256 of the required members in lexicographic order, base64url."""
    members = {name: jwk[name] for name in ("crv", "kty", "x", "y")}
    canonical = json.dumps(members, separators=(",", ":"), sort_keys=True)
    return b64url(hashlib.sha256(canonical.encode()).digest())

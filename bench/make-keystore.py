#!/usr/bin/env python3
"""Writes a keystore of N users (docs/keystore.md, version 1) whose tokens are valid for a
year, with realistic token sizes, the last user created current — its record first in
`users`, as authctl writes it (KeystoreFile). Usage: make-keystore.py N PATH"""
import base64, json, os, random, string, sys, datetime

def token(n):
    return "".join(random.choices(string.ascii_letters + string.digits + "-_", k=n))

def id_token(subject, expires):
    """A JWT's shape (about 900 bytes, as the access token's 1.2 KB): header, a payload with
    `exp` (what `token --id-token` and `--format kubectl-exec` read), a signature."""
    part = lambda value: base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).rstrip(b"=").decode()
    claims = {"iss": "https://auth.example.com", "sub": subject, "aud": "bench", "exp": int(expires.timestamp()),
              "iat": int(expires.timestamp()) - 31536000, "name": "Bench User", "groups": ["a", "b"], "pad": token(300)}
    return part({"alg": "RS256", "kid": "bench", "typ": "JWT"}) + "." + part(claims) + "." + token(342)

n, path = int(sys.argv[1]), sys.argv[2]
random.seed(n)
now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
stamp = lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ")
users = []
for i in range(n):
    uid = token(28)
    users.append({
        "uid": uid, "email": f"user{i}@example.com", "emailVerified": True, "displayName": f"User {i}",
        "createdAt": stamp(now), "lastSignInAt": stamp(now), "lastAuthAt": stamp(now), "lastProviderId": "oidc.bench",
        "providerData": [{
            "providerId": "oidc.bench", "issuer": "https://auth.example.com", "federatedId": str(100000 + i),
            "linkedAt": stamp(now), "profile": {"email": f"user{i}@example.com", "emailVerified": True, "displayName": f"User {i}"},
            "tokens": {
                "accessToken": "at-" + token(1200), "tokenType": "Bearer",
                "expiresAt": stamp(now + datetime.timedelta(days=365)),
                "refreshToken": "rt-" + token(400), "idToken": id_token(uid, now + datetime.timedelta(days=365)), "scopes": ["openid", "profile", "email"],
            },
        }],
    })
document = {"version": 1, "currentUid": users[-1]["uid"], "users": [users[-1]] + users[:-1]}
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
with os.fdopen(fd, "w") as f:
    json.dump(document, f, indent=2, sort_keys=True)
print(users[-1]["providerData"][0]["tokens"]["accessToken"])

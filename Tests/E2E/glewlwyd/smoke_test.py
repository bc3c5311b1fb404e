#!/usr/bin/env python3
"""Smoke test of Glewlwyd's OIDC plugin without authctl: what it really does with pushed
authorization requests (RFC 9126), DPoP (RFC 9449), rich authorization requests
(RFC 9396), private_key_jwt (RFC 7523) and one-time-use refresh tokens.

Run by run-smoke.sh inside start-glewlwyd.sh (which exports GLEWLWYD_SETTINGS). `ok`/`FAIL`
lines are what the Swift client will rely on; `note` lines record measured behaviour that
differs from the RFCs or that the client must cope with (README.md collects them).
"""
import concurrent.futures
import json
import os
import sys
import traceback
import urllib.parse

import requests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import glewlwyd_browser  # noqa: E402
from oauth_probe import (Checks, DPoPClient, DPoPKey, client_assertion, describe, jwt_claims,  # noqa: E402
                         oauth_error, pkce_pair)

settings = json.load(open(os.environ["GLEWLWYD_SETTINGS"]))
nonce_mode = settings["dpop_nonce_mandatory"]
t = Checks()


def crashed(kind, value, trace):
    """An unexpected answer that breaks the script still ends in a counted failure."""
    traceback.print_exception(kind, value, trace)
    t.check("the smoke test ran to its end", False, repr(value))
    t.summary()
    sys.exit(1)


sys.excepthook = crashed
http = requests.Session()
meta = http.get(settings["issuer"] + "/.well-known/openid-configuration", timeout=20).json()
token_endpoint, userinfo = meta.get("token_endpoint"), meta.get("userinfo_endpoint")
client_id, redirect_uri = settings["public_client_id"], settings["redirect_uri"]
rar = [{"type": settings["rar_type"], "actions": ["read"], "locations": ["https://api.example.com/accounts"]}]


def introspect(token):
    """With the introspector's client-credentials token (scope e2e_introspect)."""
    cc = http.post(token_endpoint, data={"grant_type": "client_credentials", "scope": settings["introspect_scope"]},
                   auth=(settings["introspector_client_id"], settings["introspector_secret"]), timeout=20).json()
    return http.post(meta["introspection_endpoint"], data={"token": token},
                     headers={"Authorization": "Bearer " + cc["access_token"]}, timeout=20)


def push(params, client=None, dpop_key=None):
    data = dict(params)
    if client is None:
        data["client_id"] = client_id
    else:
        data.update(client)
    headers = {}
    if dpop_key is not None:
        headers["DPoP"] = dpop_key.proof("POST", meta["pushed_authorization_request_endpoint"])
    return http.post(meta["pushed_authorization_request_endpoint"], data=data, headers=headers, timeout=20)


def authorization_params(challenge, state, nonce, **extra):
    params = {"response_type": "code", "redirect_uri": redirect_uri, "scope": "openid", "state": state,
              "nonce": nonce, "code_challenge": challenge, "code_challenge_method": "S256"}
    params.update(extra)
    return params


def sign_in(key=None, use_par=True, extra=None, client=None):
    """PAR (or a plain request), the scripted browser, returns (redirect query, verifier)."""
    verifier, challenge = pkce_pair()
    state, nonce = os.urandom(16).hex(), os.urandom(16).hex()
    params = authorization_params(challenge, state, nonce, **(extra or {}))
    if key is not None:
        params["dpop_jkt"] = key.thumbprint
    if use_par:
        pushed = push(params, client)
        if pushed.status_code != 201:
            return None, verifier, pushed
        auth_query = {"client_id": (client or {}).get("client_id", client_id), "request_uri": pushed.json()["request_uri"]}
    else:
        auth_query = dict(params, client_id=client_id)
        pushed = None
    url = meta["authorization_endpoint"] + "?" + urllib.parse.urlencode(auth_query)
    redirect = glewlwyd_browser.authorize(url, settings["username"], settings["password"])
    if redirect is None:
        return None, verifier, pushed
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(redirect).query))
    query["_state_sent"] = state
    query["_url"] = url
    return query, verifier, pushed


def exchange(dpop, key, code, verifier, client=None):
    data = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "code_verifier": verifier}
    data.update(client or {"client_id": client_id})
    if key is None:
        return http.post(token_endpoint, data=data, timeout=20)
    return dpop.send("POST", token_endpoint, key, data=data)


def refresh(dpop, key, refresh_token, retry=True):
    data = {"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": client_id}
    if key is None:
        return http.post(token_endpoint, data=data, timeout=20)
    return dpop.send("POST", token_endpoint, key, retry=retry, data=data)


print(f"# Glewlwyd at {settings['issuer']} (DPoP nonces {'mandatory' if nonce_mode else 'off'}"
      f"{', PAR required' if settings.get('par_required') else ''})")

if settings.get("par_required"):
    # GLEWLWYD_PAR_REQUIRED=1: only what changes when pushed requests are mandatory.
    t.check("discovery says require_pushed_authorization_requests: true", meta.get("require_pushed_authorization_requests") is True)
    verifier, challenge = pkce_pair()
    plain = meta["authorization_endpoint"] + "?" + urllib.parse.urlencode(dict(authorization_params(challenge, "s", "n"), client_id=client_id))
    status, location = glewlwyd_browser.Browser().send("GET", plain)
    t.check("a plain authorization request is refused", status >= 400 and not location, f"HTTP {status} {location}")
    t.note(f"PAR required, a plain authorization request: HTTP {status}, {'a redirect' if location else 'no redirect'} "
           "(a bare error page: the client gets no error on its redirect URI)")
    key = DPoPKey()
    query, verifier, pushed = sign_in(key)
    answer = exchange(DPoPClient(http), key, query["code"], verifier) if query else None
    t.check("a pushed request still signs in and gives DPoP tokens", answer is not None and answer.status_code == 200
            and answer.json().get("token_type") == "DPoP", answer is not None and describe(answer))
    sys.exit(0 if t.summary() else 1)

# --- Discovery ---------------------------------------------------------------------------
t.check("discovery lists pushed_authorization_request_endpoint", meta.get("pushed_authorization_request_endpoint"))
t.check("discovery lists require_pushed_authorization_requests (false here)", meta.get("require_pushed_authorization_requests") is False)
t.check("discovery lists ES256 in dpop_signing_alg_values_supported", "ES256" in meta.get("dpop_signing_alg_values_supported", []))
t.check("discovery lists the rich authorization type", settings["rar_type"] in meta.get("authorization_details_types_supported", []))
t.check("discovery lists introspection and revocation", meta.get("introspection_endpoint") and meta.get("revocation_endpoint"))
t.check("discovery lists private_key_jwt", "private_key_jwt" in meta.get("token_endpoint_auth_methods_supported", []))
if not meta.get("authorization_response_iss_parameter_supported"):
    t.note("discovery has no authorization_response_iss_parameter_supported, yet `iss` is sent on the redirect (oauth-as-iss-id)")
if "code_challenge_methods_supported" not in meta:
    t.note(f"discovery has no code_challenge_methods_supported; it says require_code_challenge={meta.get('require_code_challenge')} (non-standard)")
t.note(f"introspection/revocation auth methods listed: {meta.get('introspection_endpoint_auth_methods_supported')} / {meta.get('revocation_endpoint_auth_methods_supported')}")

# --- PAR, authorization code with PKCE, DPoP-bound tokens ----------------------------------
dpop = DPoPClient(http)
key1, key2 = DPoPKey(), DPoPKey()
query, verifier, pushed = sign_in(key1, extra={"authorization_details": json.dumps(rar)})
t.check("PAR answers 201 with a request_uri and expires_in", pushed is not None and pushed.status_code == 201
        and pushed.json().get("request_uri", "").startswith("urn:ietf:params:oauth:request_uri:") and pushed.json().get("expires_in"),
        pushed is not None and describe(pushed))
t.check("the browser, given only client_id and request_uri, comes back with a code", query and query.get("code"))
t.check("the redirect carries the state sent", query and query.get("state") == query.get("_state_sent"))
t.check("the redirect carries iss = the issuer (RFC 9207)", query and query.get("iss") == settings["issuer"])
if query:
    again = glewlwyd_browser.authorize(query["_url"], settings["username"], settings["password"])
    if again and "code=" in again:
        t.note("a request_uri can be used twice at the authorization endpoint within its lifetime (RFC 9126 §4: one-time use expected)")
    else:
        t.check("a request_uri is refused the second time (one-time use)", True)
answer = exchange(dpop, key1, query["code"], verifier) if query else None
tokens = answer.json() if answer is not None and answer.status_code == 200 else {}
t.check("the code exchange with a DPoP proof gives tokens", tokens.get("access_token"), answer is not None and describe(answer))
t.check("token_type is DPoP", tokens.get("token_type") == "DPoP", tokens.get("token_type"))
t.check("a refresh token and an ID token come with it", tokens.get("refresh_token") and tokens.get("id_token"))
if nonce_mode:
    t.check("Glewlwyd asked for a DPoP nonce (use_dpop_nonce, one retry)", dpop.nonce_retries >= 1, dpop.nonce_retries)
t.check("the token response carries the authorization_details granted", tokens.get("authorization_details") == rar or
        (isinstance(tokens.get("authorization_details"), list) and tokens["authorization_details"] and tokens["authorization_details"][0].get("type") == settings["rar_type"]),
        json.dumps(tokens.get("authorization_details")))
at = tokens.get("access_token", "")
claims = jwt_claims(at) or {}
t.check("the access token (a JWT) carries cnf.jkt = the key's thumbprint", claims.get("cnf", {}).get("jkt") == key1.thumbprint, claims.get("cnf"))
t.check("the access token carries the authorization_details", bool(claims.get("authorization_details")))
seen = introspect(at)
info = seen.json() if seen.status_code == 200 else {}
t.check("introspection says active with cnf.jkt = the thumbprint", info.get("active") is True and info.get("cnf", {}).get("jkt") == key1.thumbprint,
        describe(seen) + " " + json.dumps(info)[:300])
t.note(f"introspection of a DPoP token says token_type={info.get('token_type')!r}")

# --- Using the DPoP token at a resource (userinfo) ------------------------------------------
ok = dpop.send("GET", userinfo, key1, at)
t.check("userinfo with Authorization: DPoP and a proof with ath answers 200", ok.status_code == 200 and ok.json().get("sub"), describe(ok))
bearer = http.get(userinfo, headers={"Authorization": "Bearer " + at}, timeout=20)
t.check("a bearer replay of the DPoP token at userinfo is refused", bearer.status_code in (400, 401, 403), describe(bearer))
t.note(f"bearer replay at userinfo: {describe(bearer)}")
no_proof = http.get(userinfo, headers={"Authorization": "DPoP " + at}, timeout=20)
t.check("Authorization: DPoP without a DPoP header is refused", no_proof.status_code in (400, 401, 403), describe(no_proof))
other = dpop.send("GET", userinfo, key2, at)
# RFC 9449 §7.1: the resource must check that the proof's key is the token's cnf.jkt.
# Glewlwyd 2.7.5's userinfo (and introspect/revoke) verify the proof but never compare its
# key with the token's (oidc_verify_dpop_proof is called with previous_jkt = NULL there).
t.check("DEVIATION as measured: userinfo accepts a proof made by another key (RFC 9449 §7.1 says refuse)",
        other.status_code == 200, describe(other))
t.note(f"proof by another key at userinfo: {describe(other)} -- Glewlwyd's resource side does not check the key binding")
headers = {"Authorization": "DPoP " + at, "DPoP": key1.proof("GET", userinfo, nonce=dpop.nonces.get(dpop.origin(userinfo)))}
no_ath = http.get(userinfo, headers=headers, timeout=20)
t.check("a proof without ath is refused at userinfo", no_ath.status_code in (400, 401, 403), describe(no_ath))
proof = key1.proof("GET", userinfo, at, nonce=dpop.nonces.get(dpop.origin(userinfo)))
first = http.get(userinfo, headers={"Authorization": "DPoP " + at, "DPoP": proof}, timeout=20)
replayed = http.get(userinfo, headers={"Authorization": "DPoP " + at, "DPoP": proof}, timeout=20)
t.check("a replayed proof (same jti) is refused", first.status_code == 200 and replayed.status_code in (400, 401, 403),
        f"{describe(first)} then {describe(replayed)}")
wrong_htu = http.get(userinfo, headers={"Authorization": "DPoP " + at, "DPoP": key1.proof("GET", userinfo + "?x=1", at, nonce=dpop.nonces.get(dpop.origin(userinfo)))}, timeout=20)
t.check("a proof whose htu names another URL is refused", wrong_htu.status_code in (400, 401, 403), describe(wrong_htu))
query_htu = http.get(userinfo + "?x=1", headers={"Authorization": "DPoP " + at, "DPoP": key1.proof("GET", userinfo, at, nonce=dpop.nonces.get(dpop.origin(userinfo)))}, timeout=20)
t.note(f"a request to userinfo?x=1 with htu = userinfo without the query (RFC 9449 §4.3: htu has no query): {describe(query_htu)}")
old = http.get(userinfo, headers={"Authorization": "DPoP " + at, "DPoP": key1.proof("GET", userinfo, at, iat=__import__('time').time() - 600, nonce=dpop.nonces.get(dpop.origin(userinfo)))}, timeout=20)
t.check("a proof with an iat 10 minutes old is refused", old.status_code in (400, 401, 403), describe(old))

# --- Refresh: bound to the key, one-time use, the chain revoked on reuse ---------------------
rt1 = tokens.get("refresh_token")
no_dpop = refresh(dpop, None, rt1)
t.check("refreshing a DPoP-bound refresh token without a proof is refused", no_dpop.status_code in (400, 401, 403), describe(no_dpop))
t.note(f"refresh without a proof: {describe(no_dpop)}")
by_key2 = refresh(dpop, key2, rt1)
t.check("refreshing with a proof by another key is refused", by_key2.status_code in (400, 401, 403), describe(by_key2))
t.note(f"refresh with a proof by another key: {describe(by_key2)}")
r2 = refresh(dpop, key1, rt1)
second = r2.json() if r2.status_code == 200 else {}
t.check("the refused attempts did not use up the refresh token: a refresh with the right key works", r2.status_code == 200, describe(r2))
t.check("the refresh answer is token_type DPoP", second.get("token_type") == "DPoP", second.get("token_type"))
rt2 = second.get("refresh_token")
t.check("one-time use: the refresh answer carries a new refresh token", rt2 and rt2 != rt1)
t.check("the refreshed access token stays bound to the same key", (jwt_claims(second.get("access_token", "")) or {}).get("cnf", {}).get("jkt") == key1.thumbprint)
if "id_token" not in second:
    t.note("a refresh answer carries no id_token")
t.note(f"refresh answer members: {sorted(second)}")
reused = refresh(dpop, key1, rt1)
t.check("presenting the used refresh token again is refused", reused.status_code in (400, 401), describe(reused))
t.note(f"a used one-time refresh token presented again: {describe(reused)} (RFC 6749 §5.2 expects 400 with error=invalid_grant)")
after = refresh(dpop, key1, rt2)
t.check("... and that revoked the chain: the newest refresh token is refused too", after.status_code in (400, 401), describe(after))
still = dpop.send("GET", userinfo, key1, second.get("access_token", ""))
t.note(f"the access token issued with the revoked chain's last refresh, at userinfo: {describe(still)}")

# --- Two refreshes of the same one-time token at once ----------------------------------------
query, verifier, _ = sign_in(key1)
race_tokens = exchange(dpop, key1, query["code"], verifier).json() if query else {}
rt = race_tokens.get("refresh_token")
if rt:
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: refresh(DPoPClient(), key1, rt), range(8)))
    won = [a for a in answers if a.status_code == 200]
    t.check("8 concurrent refreshes of one one-time refresh token: at least one succeeds", len(won) >= 1,
            ", ".join(describe(a) for a in answers))
    t.note(f"8 concurrent refreshes of one one-time refresh token: {len(won)} answered 200, the others "
           f"{sorted(set(describe(a) for a in answers if a.status_code != 200))}")
    alive = [refresh(dpop, key1, a.json()["refresh_token"]).status_code for a in won]
    t.note(f"after that race, refreshing each winner's new refresh token answered {alive}")

# --- A plain authorization request (no PAR) with DPoP at the token endpoint only ------------
query, verifier, _ = sign_in(None, use_par=False)
plain = exchange(dpop, key2, query["code"], verifier) if query else None
t.check("without PAR or dpop_jkt, a proof at the token endpoint alone binds the tokens", plain is not None and plain.status_code == 200
        and plain.json().get("token_type") == "DPoP", plain is not None and describe(plain))
query, verifier, _ = sign_in(None, use_par=False)
bearer_tokens = exchange(dpop, None, query["code"], verifier) if query else None
t.check("without any proof the same client gets a Bearer token (DPoP is optional per client)",
        bearer_tokens is not None and bearer_tokens.status_code == 200 and bearer_tokens.json().get("token_type", "").lower() == "bearer",
        bearer_tokens is not None and describe(bearer_tokens))
query, verifier, _ = sign_in(key1)
wrong = exchange(dpop, key2, query["code"], verifier) if query else None
t.check("a code pushed with dpop_jkt of one key is refused with a proof of another key", wrong is not None and wrong.status_code in (400, 401, 403),
        wrong is not None and describe(wrong))
t.note(f"code bound by dpop_jkt, proof by another key: {describe(wrong)}")
verifier, challenge = pkce_pair()
mismatch = push(dict(authorization_params(challenge, "s", "n"), dpop_jkt=key1.thumbprint), dpop_key=key2)
t.check("PAR with a DPoP header whose key differs from dpop_jkt is refused", mismatch.status_code in (400, 401, 403), describe(mismatch))
with_header = push(authorization_params(challenge, "s", "n"), dpop_key=key1)
t.note(f"PAR with a DPoP header (RFC 9449 §10.1) and no dpop_jkt: {describe(with_header)}")
unknown_type = push(dict(authorization_params(challenge, "s", "n"), authorization_details=json.dumps([{"type": "payment_initiation"}])))
if unknown_type.status_code == 201:
    later = glewlwyd_browser.authorize(meta["authorization_endpoint"] + "?" + urllib.parse.urlencode(
        {"client_id": client_id, "request_uri": unknown_type.json()["request_uri"]}), settings["username"], settings["password"])
    t.note(f"PAR accepts an authorization_details type the plugin does not define (HTTP 201); the authorization "
           f"endpoint then answers {'a redirect with ' + ','.join(k for k, _ in urllib.parse.parse_qsl(urllib.parse.urlsplit(later).query)) if later else 'no redirect'}")
else:
    t.note(f"PAR with an unknown authorization_details type: {describe(unknown_type)}")
no_pkce = push({"response_type": "code", "redirect_uri": redirect_uri, "scope": "openid", "state": "s", "nonce": "n"})
t.check("PAR without PKCE is refused (PKCE required)", no_pkce.status_code >= 400, describe(no_pkce))

# --- Device authorization (RFC 8628) with DPoP ------------------------------------------------
device_endpoint = meta.get("device_authorization_endpoint")


def device_flow(extra):
    """Device authorization (with a proof by key1 and EXTRA), the user enters the code;
    returns the device_code or None."""
    answer = dpop.send("POST", device_endpoint, key1, data=dict({"client_id": client_id, "scope": "openid"}, **extra))
    if answer.status_code != 200 or not answer.json().get("device_code"):
        t.check("device authorization answers device_code and user_code", False, describe(answer))
        return None
    grant = answer.json()
    user = requests.Session()
    api = settings["base_url"] + "/api/"
    user.post(api + "auth/", json={"username": settings["username"], "password": settings["password"]}, timeout=20)
    user.put(api + "auth/grant/" + client_id, json={"scope": "openid"}, timeout=20)
    verified = user.get(device_endpoint.replace("/device_authorization", "/device"), params={"code": grant["user_code"], "g_continue": ""},
                        allow_redirects=False, timeout=20)
    t.check("the user enters the code (GET …/device?code=USER_CODE&g_continue with the session): 302 prompt=deviceComplete",
            verified.status_code == 302 and "deviceComplete" in verified.headers.get("Location", ""), describe(verified))
    return grant["device_code"]


def poll(key, device_code):
    return dpop.send("POST", token_endpoint, key, data={"grant_type": "urn:ietf:params:oauth:grant-type:device_code",
                                                        "device_code": device_code, "client_id": client_id})


device_code = device_flow({"dpop_jkt": key1.thumbprint})
if device_code:
    by_key2 = poll(key2, device_code)
    t.check("device flow with dpop_jkt: a poll with a proof by another key is refused", by_key2.status_code in (400, 401, 403), describe(by_key2))
    t.note(f"device poll with another key than dpop_jkt: {describe(by_key2)}")
    polled = poll(key1, device_code)
    t.check("... and the poll with the dpop_jkt key gives DPoP tokens bound to it", polled.status_code == 200 and polled.json().get("token_type") == "DPoP"
            and (jwt_claims(polled.json().get("access_token", "")) or {}).get("cnf", {}).get("jkt") == key1.thumbprint, describe(polled))
device_code = device_flow({})
if device_code:
    polled = poll(key2, device_code)
    t.note("device authorization sent with a DPoP header (key A) but no dpop_jkt, polled with key B: "
           f"{describe(polled)}" + (", tokens bound to key B: the header at device_authorization is ignored, only dpop_jkt binds"
                                     if polled.status_code == 200 and (jwt_claims(polled.json().get("access_token", "")) or {}).get("cnf", {}).get("jkt") == key2.thumbprint else ""))

# --- private_key_jwt (RFC 7523) --------------------------------------------------------------
pk = lambda aud, jti=None: {"client_id": settings["pkjwt_client_id"],  # noqa: E731
                            "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                            "client_assertion": client_assertion(settings["pkjwt_key_file"], settings["pkjwt_kid"], settings["pkjwt_client_id"], aud, jti)}
cc = dpop.send("POST", token_endpoint, key1, data=lambda: dict(pk(token_endpoint), grant_type="client_credentials", scope="openid"))
t.check("private_key_jwt (aud = token endpoint) with a DPoP proof: client credentials give a DPoP token",
        cc.status_code == 200 and cc.json().get("token_type") == "DPoP", describe(cc))
by_issuer = http.post(token_endpoint, data=dict(pk(settings["issuer"]), grant_type="client_credentials", scope="openid"), timeout=20)
t.note(f"private_key_jwt with aud = the issuer (RFC 7523bis / FAPI 2.0 audience fix): {describe(by_issuer)}")
jti = os.urandom(8).hex()
first = http.post(token_endpoint, data=dict(pk(token_endpoint, jti), grant_type="client_credentials", scope="openid"), timeout=20)
replay = http.post(token_endpoint, data=dict(pk(token_endpoint, jti), grant_type="client_credentials", scope="openid"), timeout=20)
t.check("a client assertion's jti is single-use", first.status_code == 200 and replay.status_code >= 400, f"{describe(first)} then {describe(replay)}")
pkjwt_client = lambda aud: pk(aud)  # noqa: E731
for name, aud in (("the PAR endpoint", meta["pushed_authorization_request_endpoint"]), ("the token endpoint", token_endpoint), ("the issuer", settings["issuer"])):
    answer = push(dict(authorization_params(challenge, "s", "n"), dpop_jkt=key1.thumbprint), client=pkjwt_client(aud))
    t.note(f"PAR by the private_key_jwt client with aud = {name}: {describe(answer)}")
query, verifier, pushed = sign_in(key1, client=pkjwt_client(meta["pushed_authorization_request_endpoint"]))
confidential = dpop.send("POST", token_endpoint, key1, data=lambda: dict(pk(token_endpoint), grant_type="authorization_code", code=query["code"],
                                                                      redirect_uri=redirect_uri, code_verifier=verifier)) if query else None
t.check("the private_key_jwt client: PAR, code, DPoP tokens", confidential is not None and confidential.status_code == 200
        and confidential.json().get("token_type") == "DPoP", confidential is not None and describe(confidential) or (pushed is not None and describe(pushed)))

# --- Revocation ------------------------------------------------------------------------------
if confidential is not None and confidential.status_code == 200:
    ctok = confidential.json()
    revoked = http.post(meta["revocation_endpoint"], data=dict(pk(meta["revocation_endpoint"]), token=ctok["refresh_token"], token_type_hint="refresh_token"), timeout=20)
    t.check("revocation of the confidential client's refresh token (private_key_jwt, aud = revocation endpoint) answers 200", revoked.status_code == 200, describe(revoked))
    gone = dpop.send("POST", token_endpoint, key1, data=lambda: dict(pk(token_endpoint), grant_type="refresh_token", refresh_token=ctok["refresh_token"]))
    t.check("the revoked refresh token is refused", gone.status_code in (400, 401, 403), describe(gone))

if nonce_mode:
    bare = DPoPClient(http).send("GET", userinfo, key1, second.get("access_token", "") or at, retry=False)
    t.check("nonce mode: userinfo without a nonce answers 401 with WWW-Authenticate: DPoP error=\"use_dpop_nonce\" and a DPoP-Nonce",
            bare.status_code == 401 and "use_dpop_nonce" in bare.headers.get("WWW-Authenticate", "") and "DPoP-Nonce" in bare.headers, describe(bare))
    query, verifier, _ = sign_in(key1)
    data = {"grant_type": "authorization_code", "code": query["code"], "redirect_uri": redirect_uri, "code_verifier": verifier, "client_id": client_id}
    fresh = DPoPClient(http)
    first = fresh.send("POST", token_endpoint, key1, retry=False, data=data)
    t.check("nonce mode: a token request without a nonce gets 400 use_dpop_nonce and a DPoP-Nonce header",
            first.status_code == 400 and oauth_error(first) == "use_dpop_nonce" and "DPoP-Nonce" in first.headers, describe(first))
    given = fresh.nonces.get(fresh.origin(token_endpoint))
    again = fresh.send("POST", token_endpoint, key1, retry=False, data=data)
    t.check("... and the same code still works with the nonce (the refusal did not use it up)", again.status_code == 200, describe(again))
    t.note("nonce mode: the successful token answer " + ("carries a DPoP-Nonce" if "DPoP-Nonce" in again.headers else "carries no DPoP-Nonce")
           + " (Glewlwyd keeps one nonce per client, shared by the token endpoint and userinfo, and sends a new one"
           + " only when it renews it, after oauth-dpop-nonce-counter uses)")
    other_client = DPoPClient(http)
    other_client.nonces = dict(fresh.nonces)
    cc = other_client.send("POST", token_endpoint, key1, retry=False, data=dict(pk(token_endpoint), grant_type="client_credentials", scope="openid"))
    t.note(f"nonce mode: the public client's nonce presented by the private_key_jwt client: {describe(cc)} (nonces are per client)")
    if again.status_code == 200:
        rt = again.json()["refresh_token"]
        refused = DPoPClient(http).send("POST", token_endpoint, key1, retry=False, data={"grant_type": "refresh_token", "refresh_token": rt, "client_id": client_id})
        retried = fresh.send("POST", token_endpoint, key1, data={"grant_type": "refresh_token", "refresh_token": rt, "client_id": client_id})
        t.check("nonce mode: a refresh refused for want of a nonce does not use up the one-time refresh token",
                refused.status_code == 400 and oauth_error(refused) == "use_dpop_nonce" and retried.status_code == 200,
                f"{describe(refused)} then {describe(retried)}")

sys.exit(0 if t.summary() else 1)

#!/usr/bin/env python3
"""google-auth as a Google Cloud client would use it: load an external-account credential
configuration whose credential source is an executable (authctl gcp-token), and refresh it,
which runs the executable and exchanges its token at the configuration's token_url.

    google_client.py CONFIG RECORD AUDIENCE     the token google-auth sent to the STS is a JWT
                                                for AUDIENCE, and the access token came back
    google_client.py CONFIG RECORD --token=TOKEN the token google-auth sent to the STS is TOKEN
    google_client.py CONFIG RECORD --expect-failure
                                                the refresh fails with authctl's error response
"""
import base64
import json
import sys

import google.auth.exceptions
import google.auth.transport.requests
from google.auth import pluggable

config, record, expected = sys.argv[1], sys.argv[2], sys.argv[3]
# pluggable.Credentials, as google.auth.default() builds it for this configuration (without its
# project lookup at cloudresourcemanager.googleapis.com, which is not on this machine's loopback).
credentials = pluggable.Credentials.from_file(config, scopes=["https://www.googleapis.com/auth/cloud-platform"])
try:
    credentials.refresh(google.auth.transport.requests.Request())
except google.auth.exceptions.RefreshError as error:
    if expected != "--expect-failure":
        raise
    text = str(error)
    assert "non-zero return code" in text and '"success" : false' in text and '"code"' in text and '"message"' in text, text
    print("google-auth refused as expected:", text[:160])
    sys.exit(0)
assert expected != "--expect-failure", "the refresh should have failed"
assert credentials.token == "ya29.cloud-e2e-access-token", credentials.token
form = json.load(open(record))
if expected.startswith("--token="):
    assert form["subject_token"] == expected[len("--token="):], "the STS got another subject token"
    print("google-auth got", credentials.token, "for the subject token authctl gave")
    sys.exit(0)
payload = form["subject_token"].split(".")[1]
claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
assert claims["aud"] == expected, claims
assert form["audience"].startswith("//iam.googleapis.com/"), form
print("google-auth got", credentials.token, "for a subject token with aud", claims["aud"])

#!/usr/bin/env python3
"""A token endpoint in the shape of Google's Security Token Service (sts.googleapis.com/v1/token,
RFC 8693 token exchange) for run-cloud-e2e.sh, on 127.0.0.1: it checks the form google-auth
sends, records the subject token it was given (to RECORD, a JSON file), and answers with an
access token of its own.

    sts_server.py PORT RECORD [SUBJECT-TOKEN-TYPE]   (default urn:ietf:params:oauth:token-type:jwt)
"""
import json
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, record = int(sys.argv[1]), sys.argv[2]
subject_token_type = sys.argv[3] if len(sys.argv) > 3 else "urn:ietf:params:oauth:token-type:jwt"


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.answer(200 if self.path == "/health" else 404, {"ok": self.path == "/health"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        form = dict(urllib.parse.parse_qsl(self.rfile.read(min(length, 1 << 20)).decode()))
        if self.path != "/v1/token" or form.get("grant_type") != "urn:ietf:params:oauth:grant-type:token-exchange":
            return self.answer(400, {"error": "unsupported_grant_type"})
        if form.get("subject_token_type") != subject_token_type or not form.get("subject_token"):
            return self.answer(400, {"error": "invalid_request", "error_description": "subject_token_type"})
        with open(record, "w") as out:
            json.dump(form, out)
        self.answer(200, {
            "access_token": "ya29.cloud-e2e-access-token", "issued_token_type": "urn:ietf:params:oauth:token-type:access_token",
            "token_type": "Bearer", "expires_in": 3600,
        })


ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()

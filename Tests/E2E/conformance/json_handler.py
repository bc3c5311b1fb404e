"""The request handler both conformance harnesses (conformance_server.py, suite_server.py)
build their servers on: quiet, a bounded body, JSON answers."""
import http.server
import json


class JSONHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def body(self):
        length = min(int(self.headers.get("Content-Length") or 0), 65536)
        return self.rfile.read(length).decode("utf-8", "replace")

    def send_json(self, status, value, headers=()):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, text in headers:
            self.send_header(name, text)
        self.end_headers()
        self.wfile.write(data)

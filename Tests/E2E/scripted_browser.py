#!/usr/bin/env python3
"""A scripted browser for authctl's end-to-end tests (Python standard library only).

authctl runs it as `--browser-command "python3 scripted_browser.py"` with the
authorization URL appended. It follows redirects one by one, signs in to a login form
(E2E_USERNAME / E2E_PASSWORD), submits auto-posting forms (response_mode=form_post) and
finally delivers the provider's redirect to authctl's loopback listener.

E2E_BROWSER_MODE=wrong-state replaces `state` in that last redirect, to prove the
listener refuses it. Each step is logged to E2E_BROWSER_LOG (paths and statuses only,
never codes or tokens).
"""
import html.parser
import http.cookiejar
import os
import sys
import urllib.error
import urllib.parse
import urllib.request


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Forms(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"action": attrs.get("action", ""), "method": attrs.get("method", "get").lower(), "fields": {}})
        elif tag == "input" and self.forms and attrs.get("name"):
            self.forms[-1]["fields"][attrs["name"]] = attrs.get("value", "")


def log(line):
    path = os.environ.get("E2E_BROWSER_LOG")
    if path:
        with open(path, "a") as handle:
            handle.write(line + "\n")


def describe(url):
    parts = urllib.parse.urlsplit(url)
    return f"{parts.netloc}{parts.path}"


def main():
    url = sys.argv[-1]
    mode = os.environ.get("E2E_BROWSER_MODE", "normal")
    opener = urllib.request.build_opener(NoRedirects, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    # authctl gives the browser a one-time local start URL that redirects to the provider.
    if urllib.parse.urlsplit(url).path.startswith("/start/"):
        try:
            opener.open(url, timeout=20)
            log(f"GET {describe(url)} -> no redirect")
            return
        except urllib.error.HTTPError as error:
            log(f"GET {describe(url)} -> {error.code}")
            if not (300 <= error.code < 400 and error.headers.get("Location")):
                return
            url = urllib.parse.urljoin(url, error.headers["Location"])
    provider = urllib.parse.urlsplit(url).netloc
    method, body = "GET", None
    for _ in range(12):
        target = urllib.parse.urlsplit(url)
        if target.netloc != provider:  # the redirect back to the application (authctl)
            if mode == "wrong-state":
                query = urllib.parse.parse_qsl(target.query, keep_blank_values=True)
                query = [(k, "forged-" + v if k == "state" else v) for k, v in query]
                url = urllib.parse.urlunsplit(target._replace(query=urllib.parse.urlencode(query)))
        request = urllib.request.Request(url, data=body, method=method)
        if body is not None:
            request.add_header("Content-Type", "application/x-www-form-urlencoded")
        try:
            response = opener.open(request, timeout=20)
            status, headers, page = response.status, response.headers, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            status, headers, page = error.code, error.headers, error.read().decode("utf-8", "replace")
        except urllib.error.URLError as error:
            log(f"{method} {describe(url)} -> failed ({error.reason})")
            return
        log(f"{method} {describe(url)} -> {status}")
        if target.netloc != provider:
            return  # authctl answered; the browser's job is done
        if 300 <= status < 400 and headers.get("Location"):
            url, method, body = urllib.parse.urljoin(url, headers["Location"]), "GET", None
            continue
        forms = Forms()
        forms.feed(page)
        if status == 200 and forms.forms:
            form = forms.forms[0]
            fields = form["fields"]
            if "password" in fields:
                fields["username"] = os.environ.get("E2E_USERNAME", "")
                fields["password"] = os.environ.get("E2E_PASSWORD", "")
            if "allow" in page.lower() and "allow" not in fields:
                fields["allow"] = "Authorize"
            url = urllib.parse.urljoin(url, form["action"] or url)
            method = "POST" if form["method"] == "post" else "GET"
            body = urllib.parse.urlencode(fields).encode() if method == "POST" else None
            continue
        return


if __name__ == "__main__":
    main()

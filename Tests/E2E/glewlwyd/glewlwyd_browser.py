#!/usr/bin/env python3
"""A scripted browser for Glewlwyd (Python standard library only).

authctl runs it as `--browser-command "python3 glewlwyd_browser.py"` with the URL
appended (authctl's one-time local start URL, or the provider's authorization URL).
Glewlwyd's login page is a JavaScript application over a REST API, so instead of
filling a form this browser does what that application does:

  1. GET the authorization URL; Glewlwyd answers 302 to
     `login.html?client_id=…&scope=…&callback_url=<the authorization URL>` when there is
     no session (or no consent for those scopes);
  2. POST /api/auth/ {"username", "password"} (E2E_USERNAME / E2E_PASSWORD): the
     answer sets the session cookie;
  3. PUT /api/auth/grant/CLIENT_ID {"scope": "…"}: the user's consent; for a rich
     authorization request the login URL also names `authorization_details=TYPE,…` and
     `plugin=NAME`: PUT /api/NAME/rar/CLIENT_ID/TYPE/1 consents to each type;
  4. GET callback_url again with `g_continue` added (what the login page's "Continue"
     button does; without it Glewlwyd sends every request to the login page, even with
     a valid session): 302 to the redirect URI with the code (and `iss`, RFC 9207);
  5. deliver that redirect to authctl's loopback listener.

E2E_BROWSER_MODE=wrong-state forges `state` in the last redirect. Each step is logged to
E2E_BROWSER_LOG (paths and statuses only, never codes or tokens).
`authorize(url, username, password)` does steps 1–4 for the smoke test and returns the
redirect URL without fetching it.
"""
import http.cookiejar
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def log(line):
    path = os.environ.get("E2E_BROWSER_LOG")
    if path:
        with open(path, "a") as handle:
            handle.write(line + "\n")


def describe(url):
    parts = urllib.parse.urlsplit(url)
    return f"{parts.netloc}{parts.path}"


class Browser:
    def __init__(self):
        self.opener = urllib.request.build_opener(NoRedirects, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def send(self, method, url, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            response = self.opener.open(request, timeout=20)
            status, headers = response.status, response.headers
            response.read()
        except urllib.error.HTTPError as error:
            status, headers = error.code, error.headers
            error.read()
        log(f"{method} {describe(url)} -> {status}")
        return status, headers.get("Location")


def authorize(url, username, password, browser=None):
    """Follows the provider's pages from URL until a redirect leaves the provider; returns
    that redirect's URL (or None when the provider stops elsewhere)."""
    browser = browser or Browser()
    provider = urllib.parse.urlsplit(url).netloc
    logged_in = False
    for _ in range(12):
        if urllib.parse.urlsplit(url).netloc != provider:
            return url
        status, location = browser.send("GET", url)
        if not (300 <= status < 400 and location):
            return None
        location = urllib.parse.urljoin(url, location)
        target = urllib.parse.urlsplit(location)
        if target.netloc == provider and target.path.endswith("/login.html"):
            query = dict(urllib.parse.parse_qsl(target.query))
            if logged_in:
                return None  # asked to log in again: the login or the consent did not take
            api = urllib.parse.urljoin(location, "api/")
            status, _ = browser.send("POST", api + "auth/", {"username": username, "password": password})
            if status != 200:
                return None
            status, _ = browser.send("PUT", api + "auth/grant/" + urllib.parse.quote(query.get("client_id", ""), safe=""),
                                     {"scope": query.get("scope", "")})
            if status != 200:
                return None
            for kind in filter(None, query.get("authorization_details", "").split(",")):
                status, _ = browser.send("PUT", api + "/".join(urllib.parse.quote(part, safe="") for part in
                                                               (query.get("plugin", ""), "rar", query.get("client_id", ""), kind, "1")))
                if status != 200:
                    return None
            logged_in = True
            url = query.get("callback_url") or url
            url += ("&" if "?" in url else "?") + "g_continue"
            continue
        url = location
    return None


def main():
    url = sys.argv[-1]
    browser = Browser()
    # authctl gives the browser a one-time local start URL that redirects to the provider.
    if urllib.parse.urlsplit(url).path.startswith("/start/"):
        status, location = browser.send("GET", url)
        if not (300 <= status < 400 and location):
            return
        url = urllib.parse.urljoin(url, location)
    redirect = authorize(url, os.environ.get("E2E_USERNAME", ""), os.environ.get("E2E_PASSWORD", ""), browser)
    if redirect is None:
        log("the provider did not redirect back")
        return
    if os.environ.get("E2E_BROWSER_MODE") == "wrong-state":
        target = urllib.parse.urlsplit(redirect)
        query = [(k, "forged-" + v if k == "state" else v) for k, v in urllib.parse.parse_qsl(target.query, keep_blank_values=True)]
        redirect = urllib.parse.urlunsplit(target._replace(query=urllib.parse.urlencode(query)))
    try:
        browser.send("GET", redirect)
    except urllib.error.URLError as error:
        log(f"GET {describe(redirect)} -> failed ({error.reason})")


if __name__ == "__main__":
    main()

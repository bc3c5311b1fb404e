/// The authorization response as it reached the redirect URI (RFC 6749 §4.1.2,
/// OpenID Connect Core 3.1.2.5, RFC 9207).
public struct AuthorizationResponse: Sendable, Equatable {
    /// `code` (code flow).
    public var code: String?
    /// `id_token` (implicit flow, form_post).
    public var idToken: String?
    /// `iss` (RFC 9207), when the provider sent it.
    public var issuer: String?
    /// All other parameters (Apple's `user`, …), untrusted.
    public var extraParameters: [String: String]

    public init(code: String? = nil, idToken: String? = nil, issuer: String? = nil, extraParameters: [String: String] = [:]) {
        self.code = code
        self.idToken = idToken
        self.issuer = issuer
        self.extraParameters = extraParameters
    }
}

/// The redirect handling of the loopback listener as a value-type state machine: a
/// received request goes in, an HTTP response and a decision come out. No I/O.
///
/// Rules (docs/security.md, RFC 6749 §10.12, RFC 8252 §8.3, RFC 9207):
/// - only `GET` (query) and `POST` (`form_post` body) on the redirect path count;
///   anything else gets a 4xx and the listener keeps waiting;
/// - the `state` must match exactly; a wrong or missing state never ends the flow;
/// - a repeated parameter, or `code` together with `error`, is refused;
/// - a provider `error` ends the flow only with the right state;
/// - `iss`, when present, must equal the issuer the request went to; when the provider
///   advertised `authorization_response_iss_parameter_supported`, it must be present;
/// - one use only: once finished, every further request is refused;
/// - the one-time start URL (`/start/<random>`, docs/authctl.1) redirects to the authorization
///   URL once; a second request for it ends the sign-in, since another program has it;
/// - a served start URL may be renewed once its browser has gone (`renewStart(to:)`): a new
///   path to a new authorization request (a new `state`), one-time in turn; the served path
///   stays spent, and the old `state` is no longer accepted.
public struct CallbackStateMachine: Sendable, Equatable {
    /// The one-time local start URL given to the browser instead of the authorization URL,
    /// so that `state`, `nonce` and the PKCE challenge never appear on a command line.
    public struct StartPage: Sendable, Equatable {
        /// `/start/<random>`: at least 128 bits, compared in constant time.
        public var path: String
        /// Where the start URL redirects (302): the authorization request.
        public var authorizationURL: URL

        public init(path: String, authorizationURL: URL) {
            self.path = path
            self.authorizationURL = authorizationURL
        }
    }

    public struct Expectation: Sendable, Equatable {
        public var path: String
        public var state: String
        /// The issuer the request went to; empty when a broker made the request and checks
        /// `iss` itself (docs/firebase.md: the parameter is passed on to Firebase with the redirect).
        public var issuer: String
        public var issuerParameterRequired: Bool
        /// The parameter that carries the result: `code` (code flow) or `id_token` (implicit).
        public var resultParameter: String
        /// The start URL the browser was given (nil: the URL was shown to a person instead).
        public var start: StartPage?

        public init(
            path: String, state: String, issuer: String, issuerParameterRequired: Bool = false, resultParameter: String = "code",
            start: StartPage? = nil
        ) {
            self.path = path.isEmpty ? "/" : path
            self.state = state
            self.issuer = issuer
            self.issuerParameterRequired = issuerParameterRequired
            self.resultParameter = resultParameter
            self.start = start
        }
    }

    public enum Outcome: Sendable, Equatable {
        /// The right state and a code (or ID token): the flow goes on.
        case authorized(AuthorizationResponse)
        /// The right state and a provider error (`access_denied`, …).
        case denied(OAuthErrorResponse)
        /// The right state but a response that must not be used (mix-up defence).
        case refused(reason: String)
        /// The one-time start URL was requested a second time: another program has it, so
        /// the sign-in is ended before anyone can finish it.
        case startURLReused
    }

    public enum Decision: Sendable, Equatable {
        case keepWaiting
        case finish(Outcome)
    }

    public struct Action: Sendable, Equatable {
        public var response: ListenerResponse
        public var decision: Decision
    }

    public private(set) var expectation: Expectation
    public private(set) var isFinished = false
    /// True once the start URL has redirected the browser to the provider.
    public private(set) var startServed = false
    /// Start paths served and then renewed: a request for one ends the sign-in, as a second
    /// request for the current one does.
    public private(set) var spentStartPaths: [String] = []

    public init(expectation: Expectation) {
        self.expectation = expectation
    }

    public mutating func receive(_ request: ReceivedRequest) -> Action {
        guard !isFinished else { return refuse(410, "This sign-in has already finished.") }
        if let start = expectation.start, constantTimeEquals(request.path, start.path) {
            return receiveStart(request, start)
        }
        if spentStartPaths.contains(where: { constantTimeEquals(request.path, $0) }) {
            guard request.method == "GET" else { return refuse(405, "Method not allowed.") }
            isFinished = true
            return Action(response: .page(status: 410, SignInPage.startReused), decision: .finish(.startURLReused))
        }
        guard request.path == expectation.path else { return refuse(404, "Not found.") }
        let encoded: String?
        switch request.method {
        case "GET":
            encoded = request.query
        case "POST":
            guard request.headers["content-type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
                return refuse(415, "Unsupported form encoding.")
            }
            guard request.query == nil || request.query == "" else { return refuse(400, "Unexpected query on a form post.") }
            encoded = String(data: request.body, encoding: .utf8)
        default:
            return refuse(405, "Method not allowed.")
        }
        guard let encoded, let pairs = FormURLEncoding.decode(encoded), !pairs.isEmpty else {
            return refuse(400, "This is not an authorization response.")
        }
        var parameters: [String: String] = [:]
        for (name, value) in pairs {
            guard parameters[name] == nil else { return refuse(400, "A parameter is repeated.") }
            parameters[name] = value
        }
        guard let state = parameters["state"], constantTimeEquals(state, expectation.state) else {
            return refuse(400, "This response does not belong to the sign-in in progress.")
        }
        let result = parameters[expectation.resultParameter]
        if result != nil, parameters["error"] != nil {
            return refuse(400, "The response carries both a result and an error.")
        }
        if let error = parameters["error"] {
            isFinished = true
            return Action(
                response: .page(status: 200, SignInPage.failure),
                decision: .finish(.denied(OAuthErrorResponse(error: error, errorDescription: parameters["error_description"]))))
        }
        guard let result, !result.isEmpty else { return refuse(400, "The response carries no \(expectation.resultParameter).") }

        let issuer = parameters["iss"]
        if let issuer, !expectation.issuer.isEmpty, issuer != expectation.issuer {
            isFinished = true
            return Action(
                response: .page(status: 400, SignInPage.failure),
                decision: .finish(.refused(reason: "the authorization response came from another issuer (RFC 9207 mix-up defence)")))
        }
        if issuer == nil, expectation.issuerParameterRequired {
            isFinished = true
            return Action(
                response: .page(status: 400, SignInPage.failure),
                decision: .finish(.refused(reason: "the authorization response has no 'iss' although the provider promises one (RFC 9207)"))
            )
        }
        isFinished = true
        var extra = parameters
        for known in ["state", "code", "id_token", "iss"] { extra.removeValue(forKey: known) }
        let response = AuthorizationResponse(
            code: expectation.resultParameter == "code" ? result : nil,
            idToken: expectation.resultParameter == "id_token" ? result : parameters["id_token"],
            issuer: issuer, extraParameters: extra)
        return Action(response: .page(status: 200, SignInPage.success), decision: .finish(.authorized(response)))
    }

    /// `GET /start/<random>`: the first request is redirected to the provider; a second one
    /// means that someone else has the start URL, and ends the sign-in.
    private mutating func receiveStart(_ request: ReceivedRequest, _ start: StartPage) -> Action {
        guard request.method == "GET" else { return refuse(405, "Method not allowed.") }
        guard !startServed else {
            isFinished = true
            return Action(response: .page(status: 410, SignInPage.startReused), decision: .finish(.startURLReused))
        }
        startServed = true
        return Action(response: .redirect(to: start.authorizationURL), decision: .keepWaiting)
    }

    /// Judges by `replacement` from now on: a new authorization request (its own `state`)
    /// behind a new one-time start path (at least 128 random bits, like the first). The
    /// served path stays spent, and what was sent with the old `state` no longer counts: a
    /// program that took the served start URL first holds nothing usable. Only once the start
    /// URL was served and while nothing has finished: false (nothing changed) otherwise.
    @discardableResult
    public mutating func renewStart(to replacement: Expectation) -> Bool {
        guard !isFinished, startServed, let served = expectation.start, let fresh = replacement.start,
            !constantTimeEquals(fresh.path, served.path), !spentStartPaths.contains(fresh.path)
        else { return false }
        spentStartPaths.append(served.path)
        expectation = replacement
        startServed = false
        return true
    }

    private func refuse(_ status: Int, _ text: String) -> Action {
        Action(response: .text(status: status, text), decision: .keepWaiting)
    }
}

/// An HTTP response the listener writes back: static content only.
public struct ListenerResponse: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: String
    /// `Location` of a redirect (the start URL's 302 to the provider).
    public var location: String?

    public static func page(status: Int, _ html: String) -> ListenerResponse {
        ListenerResponse(status: status, contentType: "text/html; charset=utf-8", body: html)
    }

    public static func text(status: Int, _ text: String) -> ListenerResponse {
        ListenerResponse(status: status, contentType: "text/plain; charset=utf-8", body: text + "\n")
    }

    /// A 302 to `url`, with a short page for clients that do not follow redirects.
    public static func redirect(to url: URL) -> ListenerResponse {
        ListenerResponse(
            status: 302, contentType: "text/plain; charset=utf-8", body: "Continue to the sign-in page.\n", location: url.absoluteString)
    }

    /// The bytes on the wire, with the headers docs/security.md asks for.
    public var bytes: [UInt8] {
        let reason =
            [
                200: "OK", 302: "Found", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
                408: "Request Timeout", 410: "Gone", 413: "Content Too Large", 415: "Unsupported Media Type",
                431: "Request Header Fields Too Large", 501: "Not Implemented",
            ][status] ?? "Error"
        let payload = Array(body.utf8)
        let head =
            "HTTP/1.1 \(status) \(reason)\r\n"
            + "Content-Type: \(contentType)\r\n"
            + "Content-Length: \(payload.count)\r\n"
            + (location.map { "Location: \($0)\r\n" } ?? "")
            + "Cache-Control: no-store\r\n"
            + "Referrer-Policy: no-referrer\r\n"
            + "X-Content-Type-Options: nosniff\r\n"
            + "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'\r\n"
            + "Connection: close\r\n\r\n"
        return Array(head.utf8) + payload
    }
}

/// The pages the browser sees at the end: static, self-contained, never echoing input.
public enum SignInPage {
    /// The redirect arrived; what happens next (the code exchange, the ID token, the account
    /// rules) decides the page. Sent only when that page is late: it claims nothing.
    public static let success = page(
        title: "Return to the terminal",
        text: "authctl received the provider's answer and is finishing the sign-in. Return to the terminal to see how it ended.")
    public static let failure = page(title: "Sign-in failed", text: "The sign-in did not complete. Return to the terminal to see why.")
    /// The start URL was opened a second time.
    public static let startReused = page(
        title: "Sign-in stopped",
        text:
            "This sign-in link was opened twice, so another program may have it. authctl stopped the sign-in to be safe. Return to the terminal and sign in again."
    )
    /// A connection from another local user (docs/sign-in.md step 3), naming how that user allows it
    /// (`allowedBy`: the option and variable, as the command line spells them), or sending
    /// to the terminal when nothing is given.
    public static func otherUser(allowedBy: String?) -> String {
        page(
            title: "Forbidden",
            text:
                "This sign-in belongs to another user of this computer, and only that user's programs may reach it. If your browser runs through another user's process (WSL, some containers), "
                + (allowedBy.map { "sign in again with \(escape($0))." } ?? "the terminal says how to allow it."))
    }

    /// The page of a sign-in that completed: the code exchanged and the ID token valid.
    public static func signedIn(to providerID: String) -> String {
        page(
            title: "Signed in",
            text: "You are signed in to \(escape(providerID)) with authctl. You can close this window and return to the terminal.")
    }

    /// The page of `bootstrap` (docs/remote.md): the redirect is on its way to the host, which
    /// finishes the sign-in.
    public static let returnToHost = page(
        title: "Return to the other machine",
        text:
            "authctl received the provider's answer. Paste the last line the bootstrap command printed into the sign-in waiting on the other machine; it finishes the sign-in there. You can close this window."
    )

    /// The page of a sign-in whose credential is valid but which the account rules refused
    /// (docs/accounts.md: an account exists for that email, the identity is another user's), with
    /// authctl's own message, escaped for HTML: the terminal says how to go on.
    public static func notFinished(because message: String?) -> String {
        let reason = message.map { ": \(escape($0))." } ?? "."
        return page(title: "Sign-in not finished", text: "authctl did not finish the sign-in\(reason) The terminal says what to do next.")
    }

    /// The page of a sign-in that failed after the redirect arrived, with authctl's own
    /// message (what failed and what to do; never a secret), escaped for HTML.
    public static func failed(because message: String?) -> String {
        guard let message else { return failure }
        return page(title: "Sign-in failed", text: "The sign-in did not complete: \(escape(message)). The terminal says what to do next.")
    }

    static func page(title: String, text: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><title>authctl: \(title)</title>
        <style>body{font-family:system-ui,sans-serif;margin:4rem auto;max-width:32rem;color:#222}</style></head>
        <body><h1>\(title)</h1><p>\(text)</p></body></html>
        """
    }

    /// Text as HTML character data: `&`, `<`, `>`, `"` and `'` escaped.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

/// A successful token response (RFC 6749 §5.1, OpenID Connect Core 3.1.3.3).
public struct TokenResponse: Sendable, Equatable {
    /// `access_token` (required).
    public var accessToken: String
    /// `token_type`: `Bearer`, or `DPoP` for a token bound to a DPoP key (RFC 9449 §5), in
    /// any case as sent (RFC 6749 §7.1 says case-insensitive) and kept in this spelling.
    public var tokenType: String
    /// `expires_in` in seconds, as a number or a numeric string, bounded to 1 s … 1 year.
    public var expiresIn: TimeInterval?
    /// `refresh_token`.
    public var refreshToken: String?
    /// `id_token`.
    public var idToken: String?
    /// `scope` as granted, when the provider says.
    public var scopes: [String]?
    /// `authorization_details` as granted (RFC 9396 §7): a JSON array of objects, when the
    /// provider says.
    public var authorizationDetails: AuthorizationDetails?
    /// `issued_token_type` of a token exchange (RFC 8693 §2.2.1), when the provider says.
    public var issuedTokenType: String?

    /// The spelling of `token_type` for a DPoP-bound token (RFC 9449 §5).
    public static let dpopTokenType = "DPoP"

    public init(
        accessToken: String, tokenType: String = "Bearer", expiresIn: TimeInterval? = nil,
        refreshToken: String? = nil, idToken: String? = nil, scopes: [String]? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scopes = scopes
    }

    /// The longest lifetime believed from `expires_in`.
    static let maximumLifetime: TimeInterval = 365 * 24 * 3600

    /// Interprets an HTTP response from the token endpoint: a JSON body with an `error`
    /// member is the provider's refusal (`invalid-credential`) whatever the status — RFC 6749
    /// §5.2 says 400, GitHub's OAuth server answers 200 —, a 200 with a JSON body is a token
    /// response, anything else is not the protocol (`network-request-failed`).
    ///
    /// - Parameter nextStep: the provider's advice for an error it explains better than
    ///   RFC 6749 (`ErrorAdvice.nextStep(for:)`).
    /// - Parameter exchange: the answer to a token exchange (RFC 8693 §2.2.1): `token_type`
    ///   may be `N_A` (the issued token is not an access token), and `issued_token_type` is read.
    public static func parse(
        _ response: HTTPResponse, host: String, nextStep: (OAuthErrorResponse) -> Message? = { _ in nil }, exchange: Bool = false
    ) throws -> TokenResponse {
        let json = JSONValue.object(from: response.body)
        if let json, let error = OAuthErrorResponse(json) {
            var details: [String: JSONValue] = [:]
            if !error.errorCodes.isEmpty { details["errorCodes"] = .array(error.errorCodes.map { .number(Double($0)) }) }
            throw AuthError.invalidCredential(
                "\(host) refused the token request: \(error.summary). \(nextStep(error) ?? error.nextStep)",
                oauthError: error.code, details: details)
        }
        if response.status != 200 {
            throw AuthError.network(
                "the token endpoint at \(host) answered HTTP \(response.status) without an OAuth response. The provider may be down or misconfigured; try again later"
            )
        }
        guard let json else {
            throw AuthError.network("the token endpoint at \(host) did not answer with JSON. Check the provider's configuration")
        }
        guard let accessToken = json["access_token"]?.stringValue, !accessToken.isEmpty else {
            throw AuthError.network("the token response from \(host) has no access_token. Check the provider's configuration")
        }
        // RFC 6749 Appendix A.12: an access token is visible ASCII (VSCHAR, with the space). One
        // with a control character (a line break to inject a header where it is later sent, or
        // to break a script that prints it) is a provider that lies; one beyond ASCII is no
        // HTTP header value, and reads differently to a program that splits it on characters
        // than to one that splits it on bytes (a `.` and a combining mark).
        guard accessToken.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else {
            throw AuthError.invalidCredential(
                "the token response from \(host) holds an access token with characters RFC 6749 does not allow (control characters, or any beyond visible ASCII); authctl refused it and sent it nowhere. Sign in again; if it keeps happening, the provider is misbehaving"
            )
        }
        guard let tokenType = json["token_type"]?.stringValue else {
            throw AuthError.network("the token response from \(host) has no token_type. Check the provider's configuration")
        }
        let type: String
        switch tokenType.lowercased() {
        case "bearer": type = "Bearer"
        case "dpop": type = Self.dpopTokenType
        // RFC 8693 §2.2.1: the issued token is not an access token (a token exchange only).
        case "n_a" where exchange: type = "N_A"
        default:
            throw AuthError.network(
                "the token response from \(host) has token_type '\(Sanitize.text(tokenType))'; authctl uses Bearer and DPoP tokens only")
        }
        var details: AuthorizationDetails?
        if let value = json["authorization_details"] {
            guard let parsed = AuthorizationDetails(value) else {
                throw AuthError.network(
                    "the token response from \(host) has authorization_details that are not a list of objects with a type (RFC 9396). Check the provider's configuration"
                )
            }
            details = parsed
        }
        var response = TokenResponse(
            accessToken: accessToken,
            tokenType: type,
            expiresIn: lifetime(json["expires_in"]),
            refreshToken: json["refresh_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 },
            idToken: json["id_token"]?.stringValue,
            scopes: json["scope"]?.stringValue.map { $0.split(separator: " ").map(String.init) })
        response.authorizationDetails = details
        if exchange { response.issuedTokenType = json["issued_token_type"]?.stringValue }
        return response
    }

    /// `expires_in` as a number of seconds, or nil ("unknown lifetime", as when it is
    /// absent) when it says nothing: NaN, or text that is not a decimal number (`nan`,
    /// `0x10`, a hundred digits). A number is bounded to 1 s … 1 year — a negative one (the
    /// token expired already) to 1 s, an infinite or absurd one to a year —, so that the
    /// expiry date stays one the keystore can hold.
    static func lifetime(_ value: JSONValue?) -> TimeInterval? {
        let seconds: TimeInterval?
        switch value {
        case .number(let n): seconds = n
        case .string(let s): seconds = decimalSeconds(s)
        default: seconds = nil
        }
        guard let seconds, !seconds.isNaN else { return nil }
        return min(max(seconds, 1), maximumLifetime)
    }

    /// A decimal number of seconds sent as text (`"3599"`, `"3599.5"`, `"-5"`, `"1e3"`):
    /// an optional sign, digits, a point and an exponent; no `nan`/`inf` spellings, no hex,
    /// at most 32 characters.
    static func decimalSeconds(_ text: String) -> TimeInterval? {
        let trimmed = text.trimming(.whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 32,
            trimmed.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || ".eE+-".unicodeScalars.contains($0) })
        else { return nil }
        return TimeInterval(trimmed).flatMap { $0.isFinite ? $0 : nil }
    }
}

/// An OAuth error response (RFC 6749 §4.1.2.1, §5.2). Its description is untrusted text.
public struct OAuthErrorResponse: Sendable, Equatable {
    public var error: String
    public var errorDescription: String?
    /// `error_codes`: numeric codes some providers add (Microsoft's AADSTS numbers).
    public var errorCodes: [Int]

    public init(error: String, errorDescription: String? = nil, errorCodes: [Int] = []) {
        self.error = error
        self.errorDescription = errorDescription
        self.errorCodes = errorCodes
    }

    init?(_ json: [String: JSONValue]) {
        guard let error = json["error"]?.stringValue else { return nil }
        self.init(
            error: error, errorDescription: json["error_description"]?.stringValue,
            errorCodes: json["error_codes"]?.arrayValue?.compactMap { $0.numberValue.flatMap { Int(exactly: $0) } } ?? [])
    }

    /// `error` as a value to compare.
    public var code: OAuthErrorCode { OAuthErrorCode(rawValue: error) }

    /// What to do about this error (RFC 6749 §5.2 codes).
    public var nextStep: Message {
        switch error {
        case "invalid_client", "unauthorized_client":
            "Check the client id and its secret (\(command: .providersAdd, "ID", .input(.clientID, "…"), .input(.clientSecretEnv, "VAR"))) against the app's registration at the provider"
        case "invalid_scope":
            "Ask only for scopes the app may use (\(input: .scope))"
        case "invalid_grant":
            "Sign in again"
        default:
            "Sign in again; if it keeps failing, check the app's registration at the provider"
        }
    }

    /// `error` and a sanitized, shortened description, fit for a terminal: its first line
    /// only (Microsoft appends trace and correlation ids on further lines).
    public var summary: String {
        let code = Sanitize.text(error, limit: 64)
        guard let description = errorDescription?.split(whereSeparator: \.isNewline).first.map(String.init), !description.isEmpty
        else { return code }
        return "\(code) (\(Sanitize.text(description, limit: 200)))"
    }
}

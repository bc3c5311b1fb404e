import Foundation

/// A successful token response (RFC 6749 §5.1, OpenID Connect Core 3.1.3.3).
public struct TokenResponse: Sendable, Equatable {
    /// `access_token` (required).
    public var accessToken: String
    /// `token_type`: `Bearer` in any case (RFC 6749 §7.1 says case-insensitive).
    public var tokenType: String
    /// `expires_in` in seconds, as a number or a numeric string, bounded to 1 s … 1 year.
    public var expiresIn: TimeInterval?
    /// `refresh_token`.
    public var refreshToken: String?
    /// `id_token`.
    public var idToken: String?
    /// `scope` as granted, when the provider says.
    public var scopes: [String]?

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

    /// Interprets an HTTP response from the token endpoint: a 200 with a JSON body is a
    /// token response, a 400/401 with an OAuth error body is the provider's refusal
    /// (`invalid-credential`), anything else is not the protocol (`network-request-failed`).
    ///
    /// - Parameter nextStep: the provider's advice for an error it explains better than
    ///   RFC 6749 (`IdentityProvider.nextStep(for:)`).
    public static func parse(
        _ response: HTTPResponse, host: String, nextStep: (OAuthErrorResponse) -> String? = { _ in nil }
    ) throws -> TokenResponse {
        let json = JSONValue.object(from: response.body)
        if response.status != 200 {
            if let json, let error = OAuthErrorResponse(json) {
                var details: [String: JSONValue] = ["oauthError": .string(Sanitize.text(error.error, limit: 64))]
                if !error.errorCodes.isEmpty { details["errorCodes"] = .array(error.errorCodes.map { .number(Double($0)) }) }
                throw AuthError(
                    .invalidCredential, "\(host) refused the token request: \(error.summary). \(nextStep(error) ?? error.nextStep)",
                    details: details)
            }
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
        guard let tokenType = json["token_type"]?.stringValue else {
            throw AuthError.network("the token response from \(host) has no token_type. Check the provider's configuration")
        }
        guard tokenType.lowercased() == "bearer" else {
            throw AuthError.network(
                "the token response from \(host) has token_type '\(Sanitize.text(tokenType))'; authctl only uses Bearer tokens")
        }
        var expiresIn: TimeInterval?
        switch json["expires_in"] {
        case .number(let n): expiresIn = n
        case .string(let s): expiresIn = TimeInterval(s.trimmingCharacters(in: .whitespaces))
        default: expiresIn = nil
        }
        if let value = expiresIn { expiresIn = min(max(value, 1), maximumLifetime) }
        return TokenResponse(
            accessToken: accessToken,
            tokenType: "Bearer",
            expiresIn: expiresIn,
            refreshToken: json["refresh_token"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 },
            idToken: json["id_token"]?.stringValue,
            scopes: json["scope"]?.stringValue.map { $0.split(separator: " ").map(String.init) })
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
            errorCodes: json["error_codes"]?.arrayValue?.compactMap { $0.numberValue.map { Int($0) } } ?? [])
    }

    /// What to do about this error (RFC 6749 §5.2 codes).
    public var nextStep: String {
        switch error {
        case "invalid_client", "unauthorized_client":
            "Check the client id and its secret (authctl providers add ID --client-id … --client-secret-env VAR) against the app's registration at the provider"
        case "invalid_scope":
            "Ask only for scopes the app may use (--scope)"
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

/// Makes untrusted text safe for a terminal: control characters dropped, length bounded.
public enum Sanitize {
    public static func text(_ text: String, limit: Int = 200) -> String {
        let cleaned = String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter {
                    !CharacterSet.controlCharacters.contains($0) && $0.properties.generalCategory != .format
                }))
        return cleaned.count > limit ? String(cleaned.prefix(limit)) + "…" : cleaned
    }
}

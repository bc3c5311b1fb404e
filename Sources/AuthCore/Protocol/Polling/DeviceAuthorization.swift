/// The device authorization request (RFC 8628 §3.1): `client_id` and `scope`, posted to
/// the provider's `device_authorization_endpoint`.
public struct DeviceAuthorizationRequest: Sendable, Equatable {
    public var endpoint: URL
    public var clientID: String
    public var scopes: [String]
    public var authentication: ClientAuthentication
    /// The DPoP key's thumbprint (RFC 9449 §10): the device code is bound to that key.
    public var dpopJKT: String?

    public init(endpoint: URL, clientID: String, scopes: [String], authentication: ClientAuthentication, dpopJKT: String? = nil) {
        self.endpoint = endpoint
        self.clientID = clientID
        self.scopes = scopes
        self.authentication = authentication
        self.dpopJKT = dpopJKT
    }

    public var httpRequest: HTTPRequest {
        var parameters = [("scope", scopes.joined(separator: " "))]
        if let dpopJKT { parameters.append(("dpop_jkt", dpopJKT)) }
        var headers: [String: String] = ["Accept": "application/json"]
        authentication.apply(clientID: clientID, to: &parameters, headers: &headers)
        return .form(endpoint, parameters, headers: headers)
    }
}

/// The device authorization response (RFC 8628 §3.2).
public struct DeviceAuthorizationResponse: Sendable, Equatable {
    /// `device_code`: a secret between authctl and the provider, never shown.
    public var deviceCode: String
    /// `user_code`: what the person types at the verification page.
    public var userCode: String
    /// `verification_uri` (Microsoft's older endpoints: `verification_url`).
    public var verificationURI: URL
    /// `verification_uri_complete`: the page with the code filled in, when offered.
    public var verificationURIComplete: URL?
    /// `expires_in`, seconds.
    public var expiresIn: TimeInterval
    /// `interval`, seconds between polls (RFC 8628: 5 when absent).
    public var interval: TimeInterval

    public init(
        deviceCode: String, userCode: String, verificationURI: URL, verificationURIComplete: URL? = nil, expiresIn: TimeInterval,
        interval: TimeInterval = 5
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.interval = interval
    }

    /// Parses the endpoint's answer. An OAuth error (an `error` member, whatever the HTTP
    /// status: GitHub answers errors with 200) is `invalid-credential` (the provider refused
    /// the client or the scopes); anything else that is not the protocol is a
    /// `network-request-failed`.
    public static func parse(_ response: HTTPResponse, host: String) throws -> DeviceAuthorizationResponse {
        let json = JSONValue.object(from: response.body)
        if let json, let error = OAuthErrorResponse(json) {
            throw AuthError.invalidCredential(
                "\(host) refused the device authorization request: \(error.summary). \(error.nextStep)",
                oauthError: error.code)
        }
        if response.status != 200 {
            throw AuthError.network(
                "the device authorization endpoint at \(host) answered HTTP \(response.status) without an OAuth response. Try again later")
        }
        guard let json, let deviceCode = json["device_code"]?.stringValue, let userCode = json["user_code"]?.stringValue,
            let uri = (json["verification_uri"] ?? json["verification_url"])?.stringValue.flatMap(URL.init(string:)),
            let expiresIn = Self.seconds(json["expires_in"]), !deviceCode.isEmpty, !userCode.isEmpty
        else {
            throw AuthError.network(
                "the device authorization endpoint at \(host) answered without device_code, user_code, verification_uri and expires_in. Check the provider"
            )
        }
        return DeviceAuthorizationResponse(
            deviceCode: deviceCode, userCode: userCode, verificationURI: uri,
            verificationURIComplete: json["verification_uri_complete"]?.stringValue.flatMap(URL.init(string:)),
            expiresIn: min(expiresIn, maximumLifetime), interval: min(Self.seconds(json["interval"]) ?? 5, maximumInterval))
    }

    /// The longest device-code lifetime believed (RFC 8628 suggests minutes; Microsoft: 15).
    static let maximumLifetime: TimeInterval = 24 * 3600
    /// The longest polling interval believed (RFC 8628 §3.2 default: 5 s).
    static let maximumInterval: TimeInterval = 300

    /// A number of seconds, sent as a number or (some providers) a string; nil when it is
    /// not a finite, non-negative decimal number (NaN, infinities, hex and other spellings).
    static func seconds(_ value: JSONValue?) -> TimeInterval? {
        let seconds: TimeInterval?
        switch value {
        case .number(let number): seconds = number
        case .string(let text): seconds = TokenResponse.decimalSeconds(text)
        default: seconds = nil
        }
        guard let seconds, seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }
}

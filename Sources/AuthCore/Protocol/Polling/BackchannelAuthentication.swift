/// The backchannel authentication request of OpenID Connect Client-Initiated Backchannel
/// Authentication (CIBA) Core 1.0 §7.1, poll mode: `scope`, `login_hint` (passed as the person
/// gave it: some providers take an e-mail address, Glewlwyd a JSON object) and
/// `binding_message`, posted with the client's authentication to the provider's
/// `backchannel_authentication_endpoint`. No `requested_expiry` is sent (the provider's own
/// lifetime applies; Glewlwyd refuses some values of it).
public struct BackchannelAuthenticationRequest: Sendable, Equatable {
    public var endpoint: URL
    public var clientID: String
    public var scopes: [String]
    public var loginHint: String
    public var bindingMessage: String
    public var authentication: ClientAuthentication

    public init(
        endpoint: URL, clientID: String, scopes: [String], loginHint: String, bindingMessage: String,
        authentication: ClientAuthentication
    ) {
        self.endpoint = endpoint
        self.clientID = clientID
        self.scopes = scopes
        self.loginHint = loginHint
        self.bindingMessage = bindingMessage
        self.authentication = authentication
    }

    public var httpRequest: HTTPRequest {
        var parameters = [("scope", scopes.joined(separator: " ")), ("login_hint", loginHint), ("binding_message", bindingMessage)]
        var headers: [String: String] = ["Accept": "application/json"]
        authentication.apply(clientID: clientID, to: &parameters, headers: &headers)
        return .form(endpoint, parameters, headers: headers)
    }

    /// The longest binding message sent: CIBA §7.1 asks for a short one ("relatively
    /// small"); Glewlwyd refuses more than 256 characters.
    public static let maximumBindingMessageLength = 256

    /// Checks a binding message given on the command line: not empty, at most
    /// `maximumBindingMessageLength` characters, no control characters (it is shown on the
    /// person's device as it is sent).
    public static func checkBindingMessage(_ message: String) throws {
        guard !message.isEmpty, message.count <= maximumBindingMessageLength,
            !message.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
            })
        else {
            throw AuthError.invalidArgument(
                "the binding message must be 1 to \(maximumBindingMessageLength) printable characters. Give a short one with \(input: .bindingMessage), or none (one is made)"
            )
        }
    }

    /// A short binding message the person compares on their device: two words and a number
    /// (`amber-falcon-42`), drawn from `random`. It proves nothing secret; it tells this
    /// request from another one for the same person.
    public static func generateBindingMessage(using random: any RandomSource) -> String {
        let bytes = random.bytes(count: 3)
        guard bytes.count == 3 else { return "authctl" }
        let first = adjectives[Int(bytes[0]) % adjectives.count]
        let second = nouns[Int(bytes[1]) % nouns.count]
        return "\(first)-\(second)-\(Int(bytes[2]) % 90 + 10)"
    }

    // 32 words each: a byte modulo 32 is uniform.
    static let adjectives = [
        "amber", "brave", "calm", "clever", "coral", "crisp", "dusty", "eager", "fair", "gentle", "golden", "green", "happy", "jolly",
        "keen", "kind", "lively", "lucky", "mellow", "misty", "noble", "olive", "proud", "quick", "quiet", "rapid", "silver", "sunny",
        "swift", "tidy", "vivid", "warm",
    ]
    static let nouns = [
        "badger", "beacon", "birch", "canyon", "cedar", "comet", "coyote", "delta", "falcon", "fern", "harbor", "heron", "island",
        "lantern", "maple", "meadow", "orchid", "otter", "pebble", "pine", "planet", "raven", "river", "robin", "saddle", "spruce",
        "summit", "thistle", "tulip", "valley", "willow", "zephyr",
    ]
}

/// The provider's answer to a backchannel authentication request (CIBA Core 1.0 §7.3).
public struct BackchannelAuthenticationResponse: Sendable, Equatable {
    /// `auth_req_id`: a secret between authctl and the provider, never shown.
    public var authReqID: String
    /// `expires_in`, seconds.
    public var expiresIn: TimeInterval
    /// `interval`, seconds between polls (CIBA §7.3: 5 when absent).
    public var interval: TimeInterval

    public init(authReqID: String, expiresIn: TimeInterval, interval: TimeInterval = 5) {
        self.authReqID = authReqID
        self.expiresIn = expiresIn
        self.interval = interval
    }

    /// Parses the endpoint's answer. An OAuth error (CIBA §13: `unknown_user_id`,
    /// `unauthorized_client`, `access_denied`, `invalid_binding_message`…) is
    /// `invalid-credential`; anything else that is not the protocol is `network-request-failed`.
    public static func parse(_ response: HTTPResponse, host: String) throws -> BackchannelAuthenticationResponse {
        let json = JSONValue.object(from: response.body)
        if let json, let error = OAuthErrorResponse(json) {
            throw AuthError.invalidCredential(
                "\(host) refused the backchannel authentication request: \(error.summary). \(nextStep(for: error))",
                oauthError: error.code)
        }
        if response.status != 200 {
            throw AuthError.network(
                "the backchannel authentication endpoint at \(host) answered HTTP \(response.status) without an OAuth response. Try again later"
            )
        }
        guard let json, let authReqID = json["auth_req_id"]?.stringValue, !authReqID.isEmpty,
            let expiresIn = DeviceAuthorizationResponse.seconds(json["expires_in"])
        else {
            throw AuthError.network(
                "the backchannel authentication endpoint at \(host) answered without auth_req_id and expires_in. Check the provider")
        }
        return BackchannelAuthenticationResponse(
            authReqID: authReqID, expiresIn: min(expiresIn, DeviceAuthorizationResponse.maximumLifetime),
            interval: min(DeviceAuthorizationResponse.seconds(json["interval"]) ?? 5, DeviceAuthorizationResponse.maximumInterval))
    }

    static func nextStep(for error: OAuthErrorResponse) -> Message {
        switch error.error {
        case "unknown_user_id", "expired_login_hint_token":
            "Check the \(input: .loginHint) value: the provider names the person by it (its format is the provider's: an e-mail address, a user name, a JSON object)"
        case "invalid_binding_message":
            "Give a shorter \(input: .bindingMessage) of plain characters"
        case "invalid_request":
            "Check the \(input: .loginHint) value and the scopes asked"
        default:
            error.nextStep
        }
    }
}

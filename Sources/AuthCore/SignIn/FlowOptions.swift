/// The options of an interactive sign-in (`login`, `link`, `reauth`): the browser flow,
/// or the device flow with `deviceCode`.
public struct FlowOptions: Sendable {
    /// How the person gets to the provider's sign-in page.
    public enum Mode: Sendable, Equatable {
        /// The browser flow with the loopback listener (`--browser-command`, `--no-browser`).
        case browser
        /// The browser flow without a listener: the redirect URL (or posted form body) the
        /// browser ended on is read from the terminal (`--manual`).
        case manual
        /// The device authorization grant, RFC 8628 (`--device-code`).
        case deviceCode
        /// Client-Initiated Backchannel Authentication, poll mode (CIBA Core 1.0, `--ciba`): the
        /// provider asks the person named by `loginHint` on a device it knows; nil
        /// `bindingMessage`: the driver draws a short one.
        case backchannel(loginHint: String, bindingMessage: String?)
        /// The browser flow with the browser on another machine (`--remote`): the authorization
        /// request is shown as one `bootstrap` command to run there, whose last line of output
        /// is pasted back here; nothing listens on this machine (docs/remote.md).
        case remote

        /// The CIBA mode, its login hint and binding message checked (docs/remote.md).
        public static func checkedBackchannel(loginHint: String, bindingMessage: String?) throws -> Mode {
            try SignInSession.checkBackchannel(loginHint: loginHint, bindingMessage: bindingMessage)
            return .backchannel(loginHint: loginHint, bindingMessage: bindingMessage)
        }
    }

    /// Scopes added to the provider's and the configuration's defaults.
    public var scopes: [String]
    /// Custom parameters, added to (and overriding) the configured ones.
    public var parameters: [(String, String)]
    /// How long to wait for the redirect, or the device-code approval (not for discovery).
    public var timeout: TimeInterval
    public var listenAddress: ListenAddress?
    public var redirectURI: String?
    /// `--tenant` (Microsoft): the tenant of this sign-in instead of the configured one.
    public var tenant: String?
    public var mode: Mode
    /// The redirect arrives pasted (`--manual`, `--remote`): nothing listens here.
    public var pastesRedirect: Bool { mode == .manual || mode == .remote }

    /// The sign-in polls the token endpoint instead of receiving a redirect (device flow, CIBA).
    public var polls: Bool {
        switch mode {
        case .deviceCode, .backchannel: true
        case .browser, .manual, .remote: false
        }
    }

    /// `--allow-any-local-user`: the loopback listener serves connections of every local
    /// user, not only the user's own (docs/sign-in.md step 3: WSL's forwarding, some containers).
    public var allowAnyLocalUser: Bool
    /// `--authorization-details` (RFC 9396): sent with the authorization request, kept with the grant.
    public var authorizationDetails: AuthorizationDetails?
    /// The protected resource of a sign-in that starts from its URL (docs/resources.md):
    /// sent as `resource` on the authorization and token requests (RFC 8707), and the only
    /// scopes asked are `scopes` (no `openid` added).
    public var resource: URL?
    /// One sign-in for several resources of one server (`login URL URL2 …`): each sent as
    /// another `resource` on the authorization request and the code exchange (RFC 8707 §2.1).
    public var moreResources: [URL] = []

    public init(
        scopes: [String] = [], parameters: [(String, String)] = [], timeout: TimeInterval = 300,
        listenAddress: ListenAddress? = nil, redirectURI: String? = nil, tenant: String? = nil, mode: Mode = .browser,
        allowAnyLocalUser: Bool = false
    ) {
        self.mode = mode
        self.allowAnyLocalUser = allowAnyLocalUser
        self.scopes = scopes
        self.parameters = parameters
        self.timeout = timeout
        self.listenAddress = listenAddress
        self.redirectURI = redirectURI
        self.tenant = tenant
    }
}

/// The per-attempt secrets of an authorization request, drawn fresh each time (docs/sign-in.md step 2).
public struct AuthorizationAttempt: Sendable, Equatable {
    public var state: String
    public var nonce: String
    public var pkce: PKCE
    /// The key the identity's tokens are bound to when the sign-in uses DPoP (RFC 9449):
    /// drawn for every attempt, used only when the provider and its configuration say so.
    public var proofKey: DPoPKey

    public init(state: String, nonce: String, pkce: PKCE, proofKey: DPoPKey) {
        self.state = state
        self.nonce = nonce
        self.pkce = pkce
        self.proofKey = proofKey
    }

    /// 32 bytes each from the CSPRNG: well above the 128 bits RFC 6749 §10.10 asks.
    public static func generate(using random: any RandomSource) -> AuthorizationAttempt {
        AuthorizationAttempt(
            state: random.base64URL(bytes: 32), nonce: random.base64URL(bytes: 32), pkce: .generate(using: random),
            proofKey: .generate(using: random))
    }
}

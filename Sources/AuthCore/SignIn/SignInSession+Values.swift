/// The actions and inputs of a `SignInSession`, and the states of a browser or device
/// sign-in that its steps carry.
extension SignInSession {
    /// What the driver does next. Actions compare equal, so a test states the next one.
    public enum Action: Sendable, Equatable {
        /// Make the provider's client authentication once (Apple: a client-secret JWT from its
        /// key file), so that one that cannot be made fails before the browser opens. → `.done`
        case checkClientAuthentication
        /// The discovery document (docs/sign-in.md step 1). → `.discovery`
        case fetchDiscovery
        /// The receiver of the redirect: a listener bound at `address`, or pasted input. → `.receiverOpened`
        case openReceiver(pasted: Bool, address: ListenAddress, access: LoopbackAccess)
        /// Tell the person something. → `.done`
        case report(SignInEvent)
        /// The receiver starts waiting for the redirect, judged by `machine`, until `deadline`. → `.done`
        case listen(CallbackStateMachine, redirectURI: URL, until: Date)
        /// Open the browser at this URL (the one-time start URL). → `.browserOpened`
        case openBrowser(URL)
        /// The redirect, once it arrives (or the receiver's deadline passes); while a browser
        /// command is watched, or its end, whichever comes first. → `.redirect` or `.browserEnded`
        case awaitRedirect
        /// The receiver judges by `expectation` from now on: a new one-time start URL to a new
        /// authorization request, the served one staying spent; unless the redirect came
        /// first. → `.startRenewed`
        case renewStart(CallbackStateMachine.Expectation)
        /// The device authorization request (RFC 8628 §3.1) for these scopes, through the
        /// token client, bound to the DPoP key when there is one. → `.deviceAuthorization`
        case requestDeviceAuthorization(scopes: [String], discovery: DiscoveryDocument, proofKey: DPoPKey?)
        /// Push the authorization request (RFC 9126 §2.1) through the token client. → `.pushed`
        case pushAuthorization(AuthorizationRequest, to: URL, discovery: DiscoveryDocument)
        /// Wait until this instant on the clock (the device flow's interval). → `.done`
        case wait(until: Date)
        /// The code exchange through the token client (RFC 6749 §4.1.3), its ID token
        /// validated against `nonce`, for the `resources` of a sign-in for resources (RFC 8707),
        /// every one of them (narrowing to one would narrow a rotated refresh token too). → `.tokens`
        case exchange(
            TokenRequest.Grant, discovery: DiscoveryDocument, idToken: TokenClient.IDTokenExpectation, proof: TokenClient.Proof,
            resources: [URL])
        /// The backchannel authentication request (CIBA Core 1.0 §7.1) through the token
        /// client. → `.backchannelAuthentication`
        case requestBackchannelAuthentication(
            scopes: [String], loginHint: String, bindingMessage: String, discovery: DiscoveryDocument)
        /// One poll through the token client: the device flow's (RFC 8628 §3.4) or CIBA's
        /// (CIBA Core 1.0 §10.1). → `.polled`
        case poll(TokenRequest.Grant, discovery: DiscoveryDocument, proof: TokenClient.Proof)
        /// Make the credential: of the tokens of a grant (their ID token validated already),
        /// or of an ID token alone (implicit flow: validated here, fetching the provider's
        /// keys, again once on an unknown `kid`). → `.credential`
        case makeCredential(CredentialMaking)
        /// The sign-in is over; `page` is the browser's answer when a browser waits for one.
        case finish(Result<Credential, AuthError>, page: ListenerResponse?)
    }

    /// What the driver learnt by performing the last action.
    public enum Input: Sendable {
        case done
        case discovery(DiscoveryDocument)
        case receiverOpened(host: String, port: UInt16, servesStartURL: Bool)
        case browserOpened(Bool)
        /// The browser command exited before the redirect came; `startServed`: it had the
        /// start URL served first. `fresh` and `freshStartPath` (`/start/<random>`): drawn by
        /// the driver as at the start, for the session to use or not.
        case browserEnded(startServed: Bool, fresh: AuthorizationAttempt, freshStartPath: String)
        /// The receiver's answer to `.renewStart`: false when the redirect came first (by the
        /// request as it was).
        case startRenewed(Bool)
        case redirect(CallbackStateMachine.Outcome)
        case deviceAuthorization(DeviceAuthorizationResponse)
        case backchannelAuthentication(BackchannelAuthenticationResponse)
        /// The token client's answer to `.pushAuthorization`.
        case pushed(TokenClient.Pushed)
        /// The token client's answer to `.exchange`.
        case tokens(TokenClient.Issued)
        /// The token client's answer to `.pollDevice`: the tokens, or the provider's OAuth error.
        case polled(TokenClient.DevicePoll)
        case credential(Credential)
        /// The action failed (a network error, a bad ID token, Ctrl-C).
        case failed(AuthError)
    }

    /// The ID token checks and the credential, for the driver.
    public struct CredentialMaking: Sendable, Equatable {
        public enum Source: Sendable, Equatable {
            case tokens(TokenClient.Issued, askedScopes: [String])
            case idToken(String)
        }
        public var source: Source
        public var discovery: DiscoveryDocument
        public var clientID: String
        public var nonce: String?
        public var callbackFields: [String: String]
        /// The rich authorization asked for (RFC 9396), kept when the provider does not say what it granted.
        public var authorizationDetails: AuthorizationDetails?
        /// The protected resource of the sign-in (RFC 8707), whose tokens need no ID token.
        public var resource: URL?

        public init(
            source: Source, discovery: DiscoveryDocument, clientID: String, nonce: String?, callbackFields: [String: String],
            authorizationDetails: AuthorizationDetails? = nil, resource: URL? = nil
        ) {
            self.source = source
            self.discovery = discovery
            self.clientID = clientID
            self.nonce = nonce
            self.callbackFields = callbackFields
            self.authorizationDetails = authorizationDetails
            self.resource = resource
        }
    }

    /// A browser sign-in once its receiver is open: everything the redirect is judged by and
    /// the exchange needs.
    struct Redirect: Sendable {
        var discovery: DiscoveryDocument
        var redirectURI: URL
        /// The nonce as sent and as the ID token must carry it.
        var nonce: String
        var askedScopes: [String]
        var machine: CallbackStateMachine
        /// Where the receiver is (the start URL's host and port when the redirect URI is elsewhere).
        var receiverHost: String
        var receiverPort: UInt16
        /// The authorization URL behind the start URL (nil: no start URL, the URL is shown).
        var authorizationURL: URL?
    }

    /// A browser sign-in once its receiver is open and its authorization request made: the
    /// redirect's parts known before the authorization URL (which waits for a pushed request).
    struct PreparedRedirect: Sendable {
        var discovery: DiscoveryDocument
        var redirectURI: URL
        var nonce: String
        var askedScopes: [String]
        var receiverHost: String
        var receiverPort: UInt16
        var servesStartURL: Bool
        var authorizationEndpoint: URL
    }

    /// What a renewed start URL replaces, kept until the receiver has taken the renewal.
    struct Renewal: Sendable {
        var redirect: Redirect
        var attempt: AuthorizationAttempt
        var startPath: String
    }

    /// A device or CIBA sign-in once the provider has issued its codes: the grant each poll
    /// sends (its device code or `auth_req_id`) and the polling's state.
    struct Device: Sendable {
        var discovery: DiscoveryDocument
        var grant: TokenRequest.Grant
        var polling: DeviceTokenPolling
    }
}

/// Where the authorization response of a browser sign-in arrives (RFC 6749 §4.1.2): the
/// port through which a `SignInSession` waits for its redirect. Implementations: the
/// loopback listener (`LoopbackRedirectReceiver`), the address a person pastes
/// (`PastedRedirectReceiver`, `--manual`), and a test's fake. The device flow has no
/// redirect: its session polls the token endpoint instead (`DeviceTokenPolling`).
///
/// Every receiver judges what arrives with the same `CallbackStateMachine`.
public protocol RedirectReceiver: AnyObject, Sendable {
    /// The address the redirect URI names when the provider's default one is used.
    var host: String { get }
    var port: UInt16 { get }
    /// True when the receiver serves the one-time start URL (`/start/<random>`, docs/authctl.1), so
    /// the browser can be given it; false when the authorization URL is shown to a person.
    var servesStartURL: Bool { get }
    /// Starts waiting (a listener serves from now on, also while the browser starts).
    func start(_ machine: CallbackStateMachine, redirectURI: URL, until deadline: Date, events: any AuthEventSink)
    /// The outcome once it has arrived; `web-context-cancelled` past the deadline or on Ctrl-C.
    func redirect() async throws -> ReceivedRedirect
    /// Stops waiting and frees what the receiver holds. Safe to call more than once.
    func close()
    /// True once the current one-time start URL has been served (false: none is served).
    var startServed: Bool { get }
    /// Judges by `expectation` from now on: a new one-time start URL to a new authorization
    /// request, the served one staying spent (docs/sign-in.md step 3: a browser command that
    /// showed nothing). False, changing nothing, when the wait has ended (the redirect came
    /// first), the start URL was not served, or the receiver serves none.
    func renewStart(to expectation: CallbackStateMachine.Expectation) -> Bool
}

extension RedirectReceiver {
    public var startServed: Bool { false }
    public func renewStart(to expectation: CallbackStateMachine.Expectation) -> Bool { false }
}

/// What ended the wait for the redirect.
public struct ReceivedRedirect: Sendable {
    public var outcome: CallbackStateMachine.Outcome
    /// The browser's request that brought it, waiting for the page that tells how the
    /// sign-in ended (docs/sign-in.md step 8); nil when no browser waits (a pasted address).
    public var browser: BrowserAnswer?

    public init(outcome: CallbackStateMachine.Outcome, browser: BrowserAnswer? = nil) {
        self.outcome = outcome
        self.browser = browser
    }
}

/// Opens the receiver of one sign-in: the loopback listener, or pasted input for `--manual`.
public protocol RedirectReceivers: Sendable {
    /// - Parameters:
    ///   - pasted: the redirect is pasted by a person (`--manual`): nothing is bound.
    ///   - address: where to listen (port 0: ephemeral).
    func open(pasted: Bool, address: ListenAddress, access: LoopbackAccess) throws -> any RedirectReceiver
    /// A loopback port free now, the first of `preferring` that is, for a client registered
    /// with a redirect URI that names its port (`ResourceClients`); nil: none known, and the
    /// caller chooses one itself.
    func freePort(preferring: [UInt16]) -> UInt16?
}

extension RedirectReceivers {
    public func freePort(preferring: [UInt16]) -> UInt16? { nil }
}

/// The receivers of the executable: a `RedirectListener` on the loopback address, or what a
/// person pastes on the terminal.
public struct SystemRedirectReceivers: RedirectReceivers {
    let clock: any Clock
    let random: any RandomSource
    let otherUserPage: String
    let peers: any LoopbackPeerLookup
    let readPasted: @Sendable () async -> String?

    /// - Parameters:
    ///   - otherUserPage: the 403 page of another local user's connection
    ///     (`SignInPage.otherUser(allowedBy:)`, with the command line's words).
    ///   - peers: who owns a connection to the listener (`ProcNetTCPPeerLookup` on Linux).
    ///   - readPasted: one line a person pastes (stdin), nil at the end of input.
    public init(
        clock: any Clock, random: any RandomSource, otherUserPage: String = SignInPage.otherUser(allowedBy: nil),
        peers: any LoopbackPeerLookup, readPasted: @escaping @Sendable () async -> String?
    ) {
        self.clock = clock
        self.random = random
        self.otherUserPage = otherUserPage
        self.peers = peers
        self.readPasted = readPasted
    }

    public func open(pasted: Bool, address: ListenAddress, access: LoopbackAccess) throws -> any RedirectReceiver {
        if pasted { return PastedRedirectReceiver(address: address, random: random, read: readPasted) }
        return LoopbackRedirectReceiver(
            listener: try RedirectListener(
                host: address.host, port: address.port, access: access, otherUserPage: otherUserPage, peers: peers),
            clock: clock)
    }

    public func freePort(preferring: [UInt16]) -> UInt16? { RedirectListener.freePort(preferring: preferring) }
}

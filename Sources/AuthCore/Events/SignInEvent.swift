/// What a sign-in tells the person signing in while it runs, as values, reported as
/// `AuthEvent.signIn` through the one event port: the executable turns each into its line
/// (`EventText`); the core never writes words for a terminal, command names or flags here.
public enum SignInEvent: Sendable, Equatable {
    /// The provider uses the implicit flow (OpenID Connect Core 3.2): the ID token travels
    /// through the browser and no access or refresh token comes.
    case implicitFlow(provider: ProviderID)
    /// The browser was opened at the one-time start URL, shown too: a browser command that
    /// starts and then shows nothing (w3m through `$BROWSER`) leaves the person a way in. It
    /// carries no `state`, `nonce` or challenge, is served once and only to the user's own
    /// processes (docs/security.md).
    case browserOpened(provider: ProviderID, startURL: URL)
    /// The browser command exited after the start URL was served, and no redirect came back
    /// (a text browser without a terminal shows nothing): the served start URL is spent, so
    /// a new one-time start URL is shown, as private as the first (docs/sign-in.md step 3).
    case browserEndedWithoutSignIn(provider: ProviderID, startURL: URL)
    /// The browser command the person chose failed: `program` exited with `status` (not 0)
    /// within a second, or could not be started (`status` nil); the URL is shown instead (`openURL`).
    case browserCommandFailed(program: String, status: Int32?)
    /// No browser could be opened (or none is wanted): the person opens this authorization
    /// URL. It carries `state` and `nonce`, so it is shown only when it must be (docs/security.md).
    case openURL(URL, provider: ProviderID)
    /// The listener waits for the redirect on `host:port` until `until` (`timeout` seconds).
    case waitingForRedirect(host: String, port: UInt16, until: Date, timeout: TimeInterval)
    /// A connection from a process that is not the user's was answered 403 (docs/sign-in.md step 3).
    case refusedPeer(LoopbackPeerOwner)
    /// The device flow's code to enter at `verificationURI` (RFC 8628 §3.3), or the URL
    /// that carries it (`verification_uri_complete`).
    case deviceCode(provider: ProviderID, verificationURI: URL, verificationURIComplete: URL?, userCode: String)
    /// CIBA: the provider has asked the person on their device; the binding message they must
    /// see there (CIBA Core 1.0 §7.1), shown before any poll.
    case approveOnDevice(provider: ProviderID, bindingMessage: String)
    /// `--remote`: the command to run on the machine with the browser (`bootstrap ARGUMENT`),
    /// then one line to paste here. `argument` carries the authorization URL (so state and
    /// nonce, shown as `openURL` shows them) and the redirect URI; never the PKCE verifier
    /// or a DPoP key.
    case remoteBootstrap(argument: String, provider: ProviderID)
    /// The device flow polls until `until` (the code's lifetime or the timeout, whichever
    /// comes first), `seconds` from now.
    case waitingForApproval(until: Date, seconds: Int)
}

extension SignInEvent {
    /// The event of a browser command that failed (none when nothing failed that the person chose).
    static func failure(of launch: BrowserLaunch) -> SignInEvent? {
        switch launch {
        case .opened, .notOpened: nil
        case .commandNotStarted(let program): .browserCommandFailed(program: program, status: nil)
        case .commandFailed(let program, let status): .browserCommandFailed(program: program, status: status)
        }
    }
}

/// Something the core reports while it goes on: a value, never text. The executable turns
/// each into words for a person (stderr, `EventText`); a library caller or a test records them.
public enum AuthEvent: Sendable, Equatable {
    /// The progress of a sign-in (browser opened, waiting for the redirect, a device code…).
    case signIn(SignInEvent)
    /// The provider's profile API could not complete the profile of a sign-in; the ID
    /// token's profile is kept (the sign-in goes on).
    case profileIncomplete(ProfileWarning)
    /// `exec`: the token of the running command could not be refreshed; the command goes on
    /// with the token it has, and the refresh is tried again.
    case runningCommandRefreshFailed(AuthError)
    /// `token`, `exec`: the early refresh (`--min-ttl` before expiry) could not reach the
    /// provider; the token in hand is given, still valid for `seconds`.
    case refreshFailedTokenStillValid(providerID: String, seconds: Int, AuthError)
}

/// Where the core reports its events: the one event port of use cases and sign-ins alike.
public protocol AuthEventSink: Sendable {
    func report(_ event: AuthEvent)
}

extension AuthEventSink {
    /// A sign-in's progress.
    public func report(_ event: SignInEvent) { report(.signIn(event)) }
}

/// Drops every event (library use that does not listen).
public struct DiscardedEvents: AuthEventSink {
    public init() {}
    public func report(_ event: AuthEvent) {}
}

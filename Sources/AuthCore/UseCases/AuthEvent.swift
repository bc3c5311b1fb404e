/// Something a use case reports while it goes on: a value, never text. The executable turns
/// each into words for a person (stderr); a library caller or a test records them.
public enum AuthEvent: Sendable, Equatable {
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

extension TokenRefresh.Output {
    /// The event that says this token was given without the early refresh that failed, or nil.
    public func stillValidEvent(now: Date) -> AuthEvent? {
        guard let refreshFailure else { return nil }
        let left = expiresAt.map { $0.timeIntervalSince(now) } ?? 0
        return .refreshFailedTokenStillValid(
            providerID: providerID, seconds: left.isFinite ? Int(max(0, min(left, 1e9))) : 0, refreshFailure)
    }
}

/// Where a use case reports its events.
public protocol AuthEventSink: Sendable {
    func report(_ event: AuthEvent)
}

/// Drops every event (library use that does not listen).
public struct IgnoredEvents: AuthEventSink {
    public init() {}
    public func report(_ event: AuthEvent) {}
}

/// The polling of the device flow's token endpoint (RFC 8628 §3.4–3.5) as a value-type
/// state machine: each answer of the provider goes in, the next action comes out. No I/O,
/// no clock of its own.
///
/// - `authorization_pending`: wait `interval`, poll again;
/// - `slow_down`: the interval grows by 5 seconds for this and every later poll;
/// - `access_denied`: the person refused → `invalid-credential`;
/// - `expired_token`, or the device code's lifetime or `--timeout` running out before the
///   next poll → `web-context-cancelled`;
/// - any other error → `invalid-credential`.
public struct DeviceTokenPolling: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// Sleep this many seconds, then poll.
        case wait(TimeInterval)
        case fail(AuthError)
    }

    public private(set) var interval: TimeInterval
    /// When the device code expires (`expires_in` after it was issued).
    public let expiresAt: Date
    /// When `--timeout` runs out.
    public let timeoutAt: Date

    public init(interval: TimeInterval, issuedAt: Date, expiresIn: TimeInterval, timeout: TimeInterval) {
        self.interval = max(interval, 1)
        expiresAt = issuedAt.addingTimeInterval(expiresIn)
        timeoutAt = issuedAt.addingTimeInterval(timeout)
    }

    /// The first action: RFC 8628 asks the client to wait `interval` before each poll.
    public func start(now: Date) -> Action { waitOrGiveUp(now: now) }

    /// The action after an OAuth error from the token endpoint.
    public mutating func next(after error: OAuthErrorResponse, now: Date) -> Action {
        switch error.error {
        case "authorization_pending":
            return waitOrGiveUp(now: now)
        case "slow_down":
            interval += 5
            return waitOrGiveUp(now: now)
        case "access_denied":
            return .fail(
                AuthError.invalidCredential(
                    "the sign-in was refused at the provider (access_denied). Run the command again to retry",
                    oauthError: .accessDenied))
        case "expired_token":
            return .fail(
                AuthError.cancelled(
                    "the code expired before the sign-in was approved. Run the command again for a new code",
                    oauthError: .expiredToken))
        default:
            return .fail(
                AuthError.invalidCredential(
                    "the provider refused the device sign-in: \(error.summary). \(error.nextStep)",
                    oauthError: error.code))
        }
    }

    func waitOrGiveUp(now: Date) -> Action {
        let next = now.addingTimeInterval(interval)
        if next > expiresAt {
            return .fail(.cancelled("the code expired before the sign-in was approved. Run the command again for a new code"))
        }
        if next > timeoutAt {
            return .fail(
                .cancelled(
                    "the sign-in was not approved within \(input: .timeout). Run the command again (with a longer \(input: .timeout))"))
        }
        return .wait(interval)
    }
}

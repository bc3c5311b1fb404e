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

    /// What is polled for: the words of its failures differ.
    public enum Subject: Sendable, Equatable {
        /// The device flow's code (RFC 8628).
        case deviceCode
        /// A CIBA request (CIBA Core 1.0 §11: the same errors as the device flow's).
        case backchannel
    }

    public private(set) var interval: TimeInterval
    public let subject: Subject
    /// When the device code expires (`expires_in` after it was issued).
    public let expiresAt: Date
    /// When `--timeout` runs out.
    public let timeoutAt: Date

    public init(interval: TimeInterval, issuedAt: Date, expiresIn: TimeInterval, timeout: TimeInterval, subject: Subject = .deviceCode) {
        self.interval = max(interval, 1)
        self.subject = subject
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
            let refused: Message =
                subject == .backchannel
                ? "the sign-in was refused on the person's device (access_denied); nothing was changed. Run the command again to retry"
                : "the sign-in was refused at the provider (access_denied). Run the command again to retry"
            return .fail(AuthError.invalidCredential(refused, oauthError: .accessDenied))
        case "expired_token":
            return .fail(AuthError.cancelled(expired, oauthError: .expiredToken))
        default:
            let what = subject == .backchannel ? "backchannel (CIBA)" : "device"
            return .fail(
                AuthError.invalidCredential(
                    "the provider refused the \(what) sign-in: \(error.summary). \(error.nextStep)",
                    oauthError: error.code))
        }
    }

    var expired: Message {
        subject == .backchannel
            ? "the sign-in request expired before it was approved on the person's device. Run the command again for a new request"
            : "the code expired before the sign-in was approved. Run the command again for a new code"
    }

    func waitOrGiveUp(now: Date) -> Action {
        let next = now.addingTimeInterval(interval)
        if next > expiresAt { return .fail(.cancelled(expired)) }
        if next > timeoutAt {
            return .fail(
                .cancelled(
                    "the sign-in was not approved within \(input: .timeout). Run the command again (with a longer \(input: .timeout))"))
        }
        return .wait(interval)
    }
}

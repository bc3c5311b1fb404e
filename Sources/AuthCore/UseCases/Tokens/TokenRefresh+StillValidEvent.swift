extension TokenRefresh.Output {
    /// The event that says this token was given without the early refresh that failed, or nil.
    public func stillValidEvent(now: Date) -> AuthEvent? {
        guard let refreshFailure else { return nil }
        let left = expiresAt.map { $0.timeIntervalSince(now) } ?? 0
        return .refreshFailedTokenStillValid(
            providerID: providerID, seconds: left.isFinite ? Int(max(0, min(left, 1e9))) : 0, refreshFailure)
    }
}

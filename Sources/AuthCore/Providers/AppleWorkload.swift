extension AppleProvider {
    /// Sign in with Apple signs in people only: it has no client-credentials grant.
    public func checkWorkload() throws {
        throw AuthError.invalidArgument(
            "\(id) signs in people only: Sign in with Apple has no client-credentials grant for a workload. Use a provider that has one (\(command: .login, "microsoft", .input(.clientCredentials, nil)), or an oidc.* provider)"
        )
    }
}

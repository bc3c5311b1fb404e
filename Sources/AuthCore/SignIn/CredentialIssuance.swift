/// Turns a credential source into a validated `Credential`: the sign-in session's driver
/// for an interactive sign-in, the same ID-token checks for `--id-token`. It takes the
/// ports those need, one by one.
public struct CredentialIssuance: Sendable {
    let driver: SignInDriver
    let tokens: TokenClient
    let credentials: CredentialAssembly

    /// - Parameters:
    ///   - tokens: the token client: discovery, the provider's keys, the token endpoint.
    ///   - receivers: where a redirect arrives: the loopback listener, or pasted input for
    ///     `--manual` (`SystemRedirectReceivers`).
    ///   - events: where a sign-in reports its progress (the executable words it on stderr).
    public init(
        tokens: TokenClient, transport: any HTTPTransport, clock: any Clock, random: any RandomSource, browser: any BrowserLauncher,
        receivers: any RedirectReceivers, events: any AuthEventSink
    ) {
        self.tokens = tokens
        credentials = CredentialAssembly(transport: transport, clock: clock, metadata: tokens.metadata)
        driver = SignInDriver(
            tokens: tokens, clock: clock, random: random, browser: browser, receivers: receivers, events: events,
            credentials: credentials)
    }

    public func credential(from source: CredentialSource, provider: any IdentityProvider) async throws -> Credential {
        try await credential(from: source, provider: provider) { $0 }
    }

    public func credential<T: Sendable>(
        from source: CredentialSource, provider: any IdentityProvider, then apply: (Credential) async throws -> T
    ) async throws -> T {
        switch source {
        case .interactive(let options):
            return try await driver.run(provider: provider, options: options, then: apply)
        case .idToken(let input, let rawNonce):
            return try await apply(try await idTokenCredential(try input.token(), rawNonce: rawNonce, provider: provider))
        case .pending:
            throw AuthError.internalError("a pending credential is applied, not issued")
        }
    }

    /// The manual ID-token sign-in: the same validation as the browser flow (signature from
    /// the provider's JWKS, issuer, audience = the client id, expiry, nonce when given), but
    /// no tokens beyond the ID token itself.
    func idTokenCredential(_ token: String, rawNonce: String?, provider: any IdentityProvider) async throws -> Credential {
        // The audience must be the client id.
        let clientID = try provider.requireClientID()
        let trimmed = token.trimming(.whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw AuthError.invalidArgument(
                "no ID token arrived on stdin. Pipe it in: \(command: .login, "\(provider.id)", .input(.idToken, "-"), "< token.jwt")")
        }
        let discovery = try await tokens.discovery(for: provider)
        return try await credentials.idTokenOnly(
            trimmed, provider: provider, discovery: discovery, clientID: clientID, nonce: rawNonce.map(provider.expectedNonce(forRawNonce:))
        )
    }
}

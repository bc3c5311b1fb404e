#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the credential of a `login`, `link` or `reauth` comes from (SPEC §2).
public enum CredentialSource: Sendable {
    /// An interactive sign-in: the browser flow of SPEC §3, `--manual`, or the device flow.
    case interactive(FlowOptions)
    /// An ID token obtained elsewhere (`--id-token -`, read from stdin by the executable),
    /// with the raw nonce it was requested with, if any (`--raw-nonce`).
    case idToken(String, rawNonce: String?)
    /// A pending credential saved by an earlier conflict (`login --credential`, `link --pending`).
    case pending(handle: String)
}

/// Turns a credential source into a validated `Credential`.
struct CredentialIssuance: Sendable {
    let environment: AuthEnvironment

    /// The driver of an interactive sign-in, its ports taken from the environment.
    var signInDriver: SignInDriver {
        let environment = self.environment
        let metadata = ProviderMetadata(environment: environment)
        let receivers =
            environment.redirectReceivers
            ?? SystemRedirectReceivers(clock: environment.clock, random: environment.random) {
                await environment.terminal.readInput(prompt: PastedRedirectReceiver.prompt)
            }
        return SignInDriver(
            transport: environment.transport, clock: environment.clock, random: environment.random, browser: environment.browser,
            receivers: receivers, metadata: metadata, secrets: environment.secrets, events: environment.signInEvents,
            credentials: CredentialAssembly(environment: environment, metadata: metadata))
    }

    func credential(from source: CredentialSource, provider: any IdentityProvider) async throws -> Credential {
        switch source {
        case .interactive(let options):
            return try await signInDriver.run(provider: provider, options: options)
        case .idToken(let token, let rawNonce):
            return try await idTokenCredential(token, rawNonce: rawNonce, provider: provider)
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
                "no ID token arrived on stdin. Pipe it in: authctl login \(provider.id) --id-token - < token.jwt")
        }
        let metadata = ProviderMetadata(environment: environment)
        let discovery = try await metadata.discovery(for: provider)
        return try await CredentialAssembly(environment: environment, metadata: metadata).idTokenOnly(
            trimmed, provider: provider, discovery: discovery, clientID: clientID, nonce: rawNonce.map(provider.expectedNonce(forRawNonce:))
        )
    }
}

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Client authentication at the token endpoint.
enum ClientCredentials {
    /// The provider's own client authentication (Apple: a fresh client-secret JWT), else
    /// the configured secret, else `.none`.
    static func resolve(_ provider: any IdentityProvider, secrets: any SecretSource, now: Date) async throws -> ClientAuthentication {
        if let own = try await provider.clientAuthentication(secrets: secrets, now: now) { return own }
        return try resolve(provider.config, secrets: secrets)
    }

    /// The secret from the configured reference, or `.none` for a public client.
    static func resolve(_ config: ProviderConfig, secrets: any SecretSource) throws -> ClientAuthentication {
        if let name = config.clientSecretEnv {
            guard let value = secrets.environmentValue(name), !value.isEmpty else {
                throw AuthError.notConfigured(
                    "the client secret of \(config.id) comes from the environment variable \(name), which is not set. Set it, or change \(input: .clientSecretEnv)"
                )
            }
            return .basic(secret: value)
        }
        if let path = config.clientSecretFile {
            return .basic(secret: try secrets.fileContents(path))
        }
        return .none
    }

    /// `client_secret_basic` unless the provider only advertises `client_secret_post`
    /// (OpenID Connect Discovery: basic is the default when the list is absent).
    static func method(_ authentication: ClientAuthentication, supported: [String]?) -> ClientAuthentication {
        guard case .basic(let secret) = authentication, let supported else { return authentication }
        if !supported.contains("client_secret_basic"), supported.contains("client_secret_post") { return .post(secret: secret) }
        return authentication
    }

    /// The form of a request about one token — revocation (RFC 7009 §2.1) and introspection
    /// (RFC 7662 §2.1) share it: `token`, `token_type_hint`, and the provider's client
    /// authentication by the method its discovery document allows.
    static func tokenHintForm(
        _ token: String, isRefreshToken: Bool, provider: any IdentityProvider, clientID: String, discovery: DiscoveryDocument,
        secrets: any SecretSource, now: Date
    ) async throws -> (parameters: [(String, String)], headers: [String: String]) {
        var parameters = [("token", token), ("token_type_hint", isRefreshToken ? "refresh_token" : "access_token")]
        var headers: [String: String] = [:]
        method(try await resolve(provider, secrets: secrets, now: now), supported: discovery.tokenEndpointAuthMethodsSupported)
            .apply(clientID: clientID, to: &parameters, headers: &headers)
        return (parameters, headers)
    }
}

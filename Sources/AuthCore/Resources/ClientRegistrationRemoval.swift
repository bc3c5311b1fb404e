/// Deleting a client that `login URL` registered (RFC 7592 §2.3), when its provider is
/// removed (docs/resources.md): `DELETE registration_client_uri` with the registration access
/// token, then the token forgotten. Best effort: what the server said comes back as a value.
public struct ClientRegistrationRemoval: Sendable {
    let transport: any HTTPTransport
    let secrets: any RegistrationSecrets

    public init(transport: any HTTPTransport, secrets: any RegistrationSecrets) {
        self.transport = transport
        self.secrets = secrets
    }

    public enum Outcome: Sendable, Equatable {
        /// The server deleted the registration (204), or no longer knew it.
        case deleted
        /// The provider was not registered by authctl, or its token is not kept.
        case notRegistered
        /// The server refused or could not be reached: the registration may remain.
        case failed(String)
        /// The token was kept before authctl recorded where it may go, so it was not sent (and
        /// is forgotten): the registration may remain at the server.
        case unbound
    }

    /// Deletes the registration at the registration client URI kept with its token — the one
    /// checked at registration, never the one config.json names now (docs/security.md).
    public func remove(_ config: ProviderConfig) async -> Outcome {
        guard let token = try? await secrets.token(for: config.id) else {
            // No registration access token (the MCP SDKs' servers issue none): a client secret
            // kept for the client goes with its provider all the same.
            try? await secrets.remove(for: config.id)
            return .notRegistered
        }
        guard let uri = try? await secrets.clientURI(for: config.id) else {
            try? await secrets.remove(for: config.id)
            return config.registrationClientURI == nil ? .notRegistered : .unbound
        }
        do {
            try EndpointPolicy.check(uri, what: "the registration URL")
            var request = HTTPRequest(
                method: "DELETE", url: uri, headers: ["Authorization": "Bearer \(token)", "Accept": "application/json"],
                responseLimit: 64 << 10)
            request.egress = .bound(
                SecretBinding(issuer: config.issuer ?? "", origins: [Origin(uri)].compactMap { $0 }), provider: config.id)
            try request.checkHeaders()
            let response = try await transport.send(request)
            guard response.status == 204 || response.status == 200 || response.status == 404 else {
                return .failed("HTTP \(response.status)")
            }
            try await secrets.remove(for: config.id)
            return .deleted
        } catch let error as AuthError {
            return .failed(error.message.firstSentence)
        } catch {
            return .failed("unexpected error")
        }
    }
}

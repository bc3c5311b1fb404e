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
    }

    public func remove(_ config: ProviderConfig) async -> Outcome {
        guard let uriText = config.registrationClientURI, let uri = URL(string: uriText),
            let token = try? await secrets.token(for: config.id)
        else { return .notRegistered }
        do {
            try EndpointPolicy.check(uri, what: "the registration URL")
            let request = HTTPRequest(
                method: "DELETE", url: uri, headers: ["Authorization": "Bearer \(token)", "Accept": "application/json"],
                responseLimit: 64 << 10)
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

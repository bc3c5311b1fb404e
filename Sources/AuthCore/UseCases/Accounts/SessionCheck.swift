/// `authctl status --check`: the provider's own word on the current user's session, asked
/// without changing anything. Token introspection (RFC 7662) of the refresh token (the
/// session), else of the access token, where the discovery document offers an
/// `introspection_endpoint`; else the userinfo endpoint (OIDC Core §5.3) with the access
/// token. Nothing is written: the keystore stays as it was, whatever the provider says.
public struct SessionCheck: Sendable {
    public struct Output: Sendable, Equatable {
        public enum Method: String, Sendable, Equatable {
            case introspection
            case userinfo
        }

        public var uid: String
        public var providerID: String
        public var method: Method
        /// The provider's answer: the session (or its access token) is still good.
        public var active: Bool
        /// What the provider said, sanitized: an error and its description, or an HTTP status.
        public var detail: String?
    }

    let configStore: ConfigStore
    let tokens: TokenClient
    /// The userinfo request, which presents the access token at a resource.
    let transport: any HTTPTransport

    public init(configStore: ConfigStore, tokens: TokenClient, transport: any HTTPTransport) {
        self.configStore = configStore
        self.tokens = tokens
        self.transport = transport
    }

    /// Asks the provider of `user`'s last sign-in (or `providerID`) about the session.
    public func run(user: User, providerID: ProviderID? = nil) async throws -> Output {
        let (id, tokenSet) = try TokenRefresh.select(TokenRefresh.Input(providerID: providerID), of: user)
        let binding = user.identity(for: id)?.binding ?? .legacy(issuer: "")
        let provider = try configStore.identityProvider(ProviderID(parsing: id))
        let discovery = try await tokens.discovery(for: provider)
        func output(_ method: Output.Method, _ active: Bool, _ detail: String?) -> Output {
            Output(uid: user.uid, providerID: id, method: method, active: active, detail: detail.map { Sanitize.text($0, limit: 300) })
        }
        if let endpoint = discovery.introspectionEndpoint, provider.clientID != nil,
            let token = tokenSet.refreshToken ?? tokenSet.accessToken
        {
            let answer = try await tokens.tokenHint(
                token, isRefreshToken: tokenSet.refreshToken != nil, at: endpoint, provider: provider, discovery: discovery,
                binding: binding)
            if let error = answer.error {
                throw AuthError.invalidCredential(
                    "\(id) refused to answer the introspection request (HTTP \(answer.status), \(Sanitize.text(error.summary, limit: 300))). \(error.nextStep)"
                )
            }
            guard answer.status == 200, let active = answer.json?["active"]?.boolValue else {
                throw AuthError.network(
                    "\(id) answered the introspection request at \(endpoint.host ?? "?")\(endpoint.path) with HTTP \(answer.status) and no RFC 7662 answer. Try again later, or ask \(id)'s administrators"
                )
            }
            return output(.introspection, active, active ? nil : "active: false")
        }
        guard let endpoint = discovery.userinfoEndpoint else {
            throw AuthError.notConfigured(
                "\(id)'s discovery document offers neither an introspection_endpoint nor a userinfo_endpoint, so \(id) cannot be asked about the session. What authctl knows: \(command: .status)"
            )
        }
        guard let accessToken = tokenSet.accessToken else {
            throw AuthError.invalidCredential(
                "the \(id) session holds no access token to ask \(id)'s userinfo endpoint with. Sign in again: \(command: .login, "\(id)")")
        }
        var request = HTTPRequest(url: endpoint, headers: ["Authorization": "Bearer \(accessToken)", "Accept": "application/json"])
        request.egress = .bound(binding, provider: id)
        let response = try await transport.send(request)
        if response.status == 200 { return output(.userinfo, true, nil) }
        if response.status == 401 || response.status == 403 {
            // RFC 6750 §3: the provider's words are in WWW-Authenticate.
            let challenge = response.header("WWW-Authenticate").map(Self.describe) ?? "HTTP \(response.status)"
            return output(.userinfo, false, challenge)
        }
        throw AuthError.network(
            "\(id) answered its userinfo endpoint (\(endpoint.host ?? "?")\(endpoint.path)) with HTTP \(response.status). Try again later")
    }

    /// `error="invalid_token", error_description="…"` of a Bearer challenge, as words.
    static func describe(_ challenge: String) -> String {
        // Quoted values only (RFC 6750 §3 quotes error and error_description).
        let parts = challenge.split(separator: "\"", omittingEmptySubsequences: false).map(String.init)
        func value(_ name: String) -> String? {
            for index in stride(from: 0, to: parts.count - 1, by: 2) {
                let key = parts[index].split(whereSeparator: { $0 == " " || $0 == "," }).last.map(String.init) ?? ""
                if key == name + "=" { return parts[index + 1] }
            }
            return nil
        }
        let error = value("error") ?? "HTTP 401"
        return value("error_description").map { "\(error): \($0)" } ?? error
    }
}

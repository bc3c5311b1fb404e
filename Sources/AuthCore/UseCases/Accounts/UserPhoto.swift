/// `authctl users photo`: the current user's photo from the first linked provider that
/// offers one (Microsoft: Graph `/v1.0/me/photo/$value`, docs/microsoft.md), fetched on demand with
/// an access token that may read it. Nothing is stored: no photo URL, no image.
public struct UserPhoto: Sendable {
    public struct Output: Sendable, Equatable {
        public var providerID: String
        /// `Content-Type` as the provider said (`image/jpeg`).
        public var contentType: String?
        public var data: Data
    }

    let keystore: any Keystore
    let configStore: ConfigStore
    let transport: any HTTPTransport
    let tokens: TokenRefresh

    public init(keystore: any Keystore, configStore: ConfigStore, transport: any HTTPTransport, tokens: TokenRefresh) {
        self.keystore = keystore
        self.configStore = configStore
        self.transport = transport
        self.tokens = tokens
    }

    /// The photo of the user `uid` (chosen for `chosenBy`, docs/identities.md), else of the current user.
    public func run(uid: String? = nil, chosenBy: UserChoiceReason? = nil) async throws -> Output {
        let user = try TokenRefresh.resolveUser(TokenRefresh.Input(uid: uid), keystore: keystore)
        for identity in user.providerData {
            guard let tokens = identity.tokens, let id = try? ProviderID(parsing: identity.providerID),
                let provider = try? configStore.identityProvider(id), let photo = provider.profilePhoto
            else { continue }
            // The session's token when it may read the photo, else one for the photo's scopes.
            let scopes = provider.scopes(tokens.scopes, cover: photo.scopes) ? [] : photo.scopes
            let token = try await self.tokens.run(.init(providerID: id, scopes: scopes, uid: user.uid, chosenBy: chosenBy))
            try EndpointPolicy.check(photo.url, what: "the photo endpoint")
            var request = HTTPRequest(
                url: photo.url, headers: ["Authorization": "Bearer \(token.token)", "Accept": "image/*"],
                responseLimit: HTTPRequest.photoResponseLimit)
            // The photo endpoint of the sign-in, not whatever graphHost config.json names now.
            request.egress = .bound(identity.binding, provider: identity.providerID)
            let response = try await transport.send(request)
            return try Self.output(response, providerID: id.rawValue, url: photo.url)
        }
        throw AuthError.noSuchProvider(
            message:
                "\(Message.subject(user, chosenBy: chosenBy)) has no signed-in identity whose provider offers a photo (Microsoft does). Link one: \(command: .link, "microsoft")"
        )
    }

    static func output(_ response: HTTPResponse, providerID: String, url: URL) throws -> Output {
        let place = "\(url.host ?? "?")\(url.path)"
        let code = response.apiErrorCode
        let details: [String: JSONValue] = code.map { ["providerError": .string($0)] } ?? [:]
        switch response.status {
        case 200 where !response.body.isEmpty:
            return Output(providerID: providerID, contentType: response.header("Content-Type"), data: response.body)
        case 404:
            throw AuthError.invalidCredential(
                "the \(providerID) account has no photo (\(place) answered 404\(code.map { " \($0)" } ?? "")). Add one at the provider",
                details: details)
        case 401, 403:
            throw AuthError.invalidCredential(
                "\(place) refused the access token (HTTP \(response.status)\(code.map { ", \($0)" } ?? "")). Sign in again with a scope that may read the photo (Microsoft: User.Read): \(command: .login, "\(providerID)")",
                details: details)
        default:
            throw AuthError.network("\(place) answered HTTP \(response.status) without a photo. Try again later")
        }
    }
}

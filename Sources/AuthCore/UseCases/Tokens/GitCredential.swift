/// `authctl git-credential PROVIDER [--scope S]… get`: git's credential helper (gitcredentials(7)).
/// It answers git's description with the current user's fresh access token for the provider
/// (for `scopes`, through `token --scope`'s cached per-scope tokens): as a `Bearer` credential
/// when git announces `capability[]=authtype` (git ≥ 2.46), else as the password of a Basic
/// credential, which is what Azure DevOps accepts from Entra ID and Git Credential Manager sends.
///
/// `erase` (git tells a helper the server refused the credential): the cached access token
/// that git was given is dropped (marked expired), so that the next `get` refreshes it.
/// `store` is not here: the token is authctl's, refreshed by authctl (docs/git.md).
public struct GitCredential: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID
        public var scopes: [String]
        public var description: GitCredentialDescription
        /// The user to answer for (a rule's or `--user`'s, docs/identities.md); nil: the current user.
        public var uid: String?
        /// Why `uid` was chosen: errors name the user and it.
        public var chosenBy: UserChoiceReason?
        public init(providerID: ProviderID, scopes: [String], description: GitCredentialDescription, uid: String? = nil) {
            self.providerID = providerID
            self.scopes = scopes
            self.description = description
            self.uid = uid
        }
    }

    /// A token handed to git lives at least this long: git sends it on every request of one
    /// fetch or push, which may take minutes.
    public static let minimumTTL: TimeInterval = 300

    let keystore: any Keystore
    let tokens: TokenRefresh

    public init(keystore: any Keystore, tokens: TokenRefresh) {
        self.keystore = keystore
        self.tokens = tokens
    }

    /// The answer to `get`; throws (and git then asks its next helper, or the user) when no
    /// token can be given.
    public func get(_ input: Input) async throws -> GitCredentialDescription {
        try Self.checkDestination(input.description)
        let user = try self.user(input)
        let output = try await tokens.run(
            .init(providerID: input.providerID, minimumTTL: Self.minimumTTL, scopes: input.scopes, uid: user.uid, chosenBy: input.chosenBy)
        ).requireBearer(for: "git")
        let identity = user.identity(for: output.providerID)
        let username = identity?.profile.email ?? user.email ?? identity?.federatedID ?? user.uid
        return Self.answer(
            to: input.description, token: output.token, tokenType: output.tokenType, expiresAt: output.expiresAt, username: username)
    }

    /// The user answered for: `input.uid`'s, else the current one.
    func user(_ input: Input) throws -> User {
        guard let uid = input.uid else {
            guard let user = try keystore.readCurrentUser().currentUser else { throw AuthError.noCurrentUser }
            return user
        }
        guard let user = try keystore.readUser(uid: uid).users.first(where: { $0.uid == uid }) else { throw AuthError.userRemoved(uid) }
        return user
    }

    /// `erase`: the server refused the token git sent. The cached token for the provider (or
    /// for `scopes`) is dropped — when it is the one git names, or git names none — so that the
    /// next `get` refreshes it; a token already replaced meanwhile is left alone. Nothing to
    /// erase (another destination, nobody signed in, no such token) is not an error: git
    /// ignores what a helper says to `erase`.
    public func erase(_ input: Input) async throws {
        guard (try? Self.checkDestination(input.description)) != nil else { return }
        guard let uid = try input.uid ?? keystore.readCurrentUser().currentUID else { return }
        let offered = input.description["credential"] ?? input.description["password"]
        let providerID = input.providerID.rawValue
        let scopeKey = input.scopes.isEmpty ? nil : TokenSet.scopeKey(input.scopes)
        try await keystore.update { state in
            guard let userIndex = state.userIndex(uid: uid),
                let identityIndex = state.users[userIndex].providerData.firstIndex(where: { $0.providerID == providerID }),
                var tokens = state.users[userIndex].providerData[identityIndex].tokens
            else { return }
            if let scopeKey {
                guard let scoped = tokens.additionalTokens?[scopeKey], offered.map({ constantTimeEquals($0, scoped.accessToken) }) ?? true
                else { return }
                tokens.additionalTokens?[scopeKey] = nil
                if tokens.additionalTokens?.isEmpty == true { tokens.additionalTokens = nil }
            } else {
                guard let cached = tokens.accessToken, offered.map({ constantTimeEquals($0, cached) }) ?? true else { return }
                tokens.expiresAt = Date(timeIntervalSince1970: 0)
            }
            state.users[userIndex].providerData[identityIndex].tokens = tokens
        }
    }

    /// What git is told. With the `authtype` capability: `capability[]=authtype` first (git
    /// ignores `authtype` and `credential` from a helper that does not announce it), then the
    /// pre-encoded credential, marked `ephemeral` (git must not ask a helper to store it).
    /// Without it: a username (git's own when it sent one, so git keeps it) and the token as the
    /// password. `password_expiry_utc` (Unix time, git ≥ 2.41) tells git when it stops being valid.
    public static func answer(
        to description: GitCredentialDescription, token: String, tokenType: String, expiresAt: Date?, username: String
    ) -> GitCredentialDescription {
        typealias Attribute = GitCredentialDescription.Attribute
        var attributes: [Attribute] = []
        if description.announces(GitCredentialDescription.authTypeCapability) {
            // RFC 6750 §2.1's scheme name, whatever case the provider gave `token_type` in.
            let scheme = tokenType.lowercased() == "bearer" || tokenType.isEmpty ? "Bearer" : tokenType
            attributes = [
                Attribute("capability[]", GitCredentialDescription.authTypeCapability), Attribute("authtype", scheme),
                Attribute("credential", token), Attribute("ephemeral", "true"),
            ]
        } else {
            if description["username"] == nil { attributes.append(Attribute("username", username)) }
            attributes.append(Attribute("password", token))
        }
        if let expiresAt, expiresAt.timeIntervalSince1970.isFinite {
            let seconds = Int64(max(0, min(expiresAt.timeIntervalSince1970, 1e15)))
            attributes.append(Attribute("password_expiry_utc", String(seconds)))
        }
        return GitCredentialDescription(attributes)
    }

    /// A token goes only over TLS, or to this machine: `https`, or `http` to a loopback host
    /// (a local test server, a tunnel). git names the protocol and host of the remote it talks
    /// to; anything else (plain http elsewhere, ssh, no protocol) gets nothing.
    static func checkDestination(_ description: GitCredentialDescription) throws {
        let scheme = description["protocol"]?.lowercased()
        if scheme == "https" { return }
        if scheme == "http", let host = description["host"], isLoopback(host) { return }
        throw AuthError.invalidArgument(
            "git asked for a credential for \(Sanitize.text(scheme ?? "no protocol", limit: 20))://\(Sanitize.text(description["host"] ?? "", limit: 100)): authctl gives tokens to https remotes only (or http on this machine). Use the https URL of the remote"
        )
    }

    /// `127.0.0.1`, `localhost`, `[::1]` (with or without a port), as git writes `host`.
    static func isLoopback(_ host: String) -> Bool {
        var name = Substring(host)
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            name = name[name.index(after: name.startIndex)..<close]
        } else if let colon = name.firstIndex(of: ":") {
            name = name[..<colon]
        }
        return ["127.0.0.1", "localhost", "::1"].contains(name.lowercased())
    }
}

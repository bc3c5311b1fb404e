/// `authctl git-credential PROVIDER [--scope S]… get`: git's credential helper (gitcredentials(7)).
/// It answers git's description with the current user's fresh access token for the provider
/// (for `scopes`, through `token --scope`'s cached per-scope tokens): as a `Bearer` credential
/// when git announces `capability[]=authtype` (git ≥ 2.46), else as the password of a Basic
/// credential, which is what Azure DevOps accepts from Entra ID and Git Credential Manager sends.
///
/// `store` and `erase` are not here: the token is authctl's, refreshed by authctl, and git has
/// nothing to store or forget (docs/git.md).
public struct GitCredential: Sendable {
    public struct Input: Sendable {
        public var providerID: ProviderID
        public var scopes: [String]
        public var description: GitCredentialDescription
        public init(providerID: ProviderID, scopes: [String], description: GitCredentialDescription) {
            self.providerID = providerID
            self.scopes = scopes
            self.description = description
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
        guard let user = try keystore.readCurrentUser().currentUser else { throw AuthError.noCurrentUser }
        let output = try await tokens.run(
            .init(providerID: input.providerID, minimumTTL: Self.minimumTTL, scopes: input.scopes, uid: user.uid)
        ).requireBearer(for: "git")
        let identity = user.identity(for: output.providerID)
        let username = identity?.profile.email ?? user.email ?? identity?.federatedID ?? user.uid
        return Self.answer(
            to: input.description, token: output.token, tokenType: output.tokenType, expiresAt: output.expiresAt, username: username)
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

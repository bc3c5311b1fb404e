import Crypto

/// Sign in with Apple (`apple.com`, docs/apple.md; docs/apple.md).
///
/// Apple's quirks, all here: fixed endpoints under the issuer instead of discovery; scopes
/// `name email`, which force `response_mode=form_post`; a hashed nonce; a client secret
/// that is an ES256 JWT made from the `.p8` key; `email_verified` and `is_private_email`
/// as strings; the first-time `user` field with the name; private-relay addresses.
public struct AppleProvider: IdentityProvider {
    public static let defaultIssuer = "https://appleid.apple.com"
    /// The domain of Apple's private email relay.
    public static let privateRelayDomain = "privaterelay.appleid.com"

    public let id: ProviderID
    public let config: ProviderConfig
    public let issuer: String

    public init(id: ProviderID, config: ProviderConfig) throws {
        self.id = id
        self.config = config
        let given = config.issuer ?? Self.defaultIssuer
        let issuer = given.hasSuffix("/") ? String(given.dropLast()) : given
        self.issuer = issuer
        let url = { (path: String) throws -> URL in try ProviderURL.make(issuer, path, provider: id, option: .issuer) }
        discoveryURL = try url("/.well-known/openid-configuration")
        documentedMetadata = DiscoveryDocument(
            issuer: issuer, authorizationEndpoint: try url("/auth/authorize"), tokenEndpoint: try url("/auth/token"),
            jwksURI: try url("/auth/keys"), revocationEndpoint: try url("/auth/revoke"), idTokenSigningAlgValuesSupported: ["RS256"],
            tokenEndpointAuthMethodsSupported: ["client_secret_post"])
    }

    public let discoveryURL: URL

    /// Apple's documented endpoints (no discovery round trip).
    public let documentedMetadata: DiscoveryDocument?

    public var defaultScopes: [String] { ["name", "email"] }

    public func responseMode(for scopes: [String]) -> String? {
        scopes.contains("name") || scopes.contains("email") ? "form_post" : nil
    }

    /// The request carries the SHA-256 hex digest of the raw nonce, and so does the ID token.
    public func expectedNonce(forRawNonce rawNonce: String) -> String {
        Hex.lowercase(SHA256.hash(data: Data(rawNonce.utf8)))
    }

    public func clientAuthentication(secrets: any SecretSource, now: Date) async throws -> ClientAuthentication? {
        guard let clientID = config.clientID, let teamID = config.teamID, let keyID = config.keyID, let keyFile = config.privateKeyFile
        else {
            let missing: [Message.Input] = [
                config.clientID == nil ? .clientID : nil, config.teamID == nil ? .teamID : nil,
                config.keyID == nil ? .keyID : nil, config.privateKeyFile == nil ? .privateKeyFile : nil,
            ].compactMap { $0 }
            throw AuthError.notConfigured(
                "apple.com needs \(inputs: missing, separator: ", ") to make its client secret. Set them with: \(command: .providersAdd, arguments: ["apple.com"] + missing.map { .input($0, "…") }) (see apple.md in the documentation)"
            )
        }
        let secret = AppleClientSecret(teamID: teamID, keyID: keyID, clientID: clientID, audience: issuer)
        return .post(secret: try await secret.make(privateKeyPEM: try secrets.privateKey(keyFile), now: now))
    }

    public func federatedID(from claims: IDTokenClaims) throws -> String {
        guard !claims.subject.isEmpty else { throw AuthError.invalidCredential("Apple's ID token has no subject. Try again") }
        return claims.subject
    }

    public func profile(from claims: IDTokenClaims) -> Profile {
        let email = claims.email
        let isPrivate =
            claims.raw["is_private_email"]?.lenientBool == true
            || email?.lowercased().hasSuffix("@" + Self.privateRelayDomain) == true
        return Profile(email: email, emailVerified: claims.emailVerified, isPrivateEmail: isPrivate ? true : nil)
    }

    /// The `user` field (first authorization only) names the person; it is unsigned, so it
    /// gives the display name and nothing else.
    public func profile(from claims: IDTokenClaims, callbackFields: [String: String]) -> Profile {
        var profile = profile(from: claims)
        if let user = callbackFields["user"], let name = Self.name(fromUserField: user) { profile.displayName = name }
        return profile
    }

    /// `{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"…"}` → "Ada Lovelace".
    static func name(fromUserField text: String) -> String? {
        guard text.utf8.count <= 4096, let user = JSONValue.object(from: Data(text.utf8)), let name = user["name"]?.objectValue else {
            return nil
        }
        let parts = [name["firstName"]?.stringValue, name["lastName"]?.stringValue]
            .compactMap { $0?.trimming(.whitespacesAndNewlines) }.filter { !$0.isEmpty }
        let joined = parts.joined(separator: " ")
        return joined.isEmpty ? nil : String(joined.prefix(200))
    }
}

/// Apple's rules of its kind: the `.p8` key checked at `providers add`; the tokens revoked
/// when the account goes, through a broker too (docs/apple.md, docs/firebase.md).
extension AppleProvider {
    /// The key must make a client secret (the key id is only its header's `kid`).
    public static func checkPrivateKeyFile(_ path: String, keyID: String?, secrets: any SecretSource, now: Date) async throws {
        _ = try await AppleClientSecret(teamID: "-", keyID: keyID ?? "KEYID", clientID: "-", audience: "-")
            .make(privateKeyPEM: try secrets.privateKey(path), now: now)
    }

    /// Apple requires an app to revoke its tokens when the account goes.
    public static var revokesTokensWhenAccountDeleted: Bool { true }
}

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `accounts:signInWithIdp` answered for a sign-in, link or reauthentication, read
/// with the types the REST reference gives (strings bounded, numbers finite).
struct FirebaseSignInResult: Sendable {
    var localID: String
    var idToken: String
    var refreshToken: String
    var expiresIn: JSONValue?
    var isNewUser: Bool
    var providerID: String
    var federatedID: String
    var profile: Profile
    /// The provider's tokens (`returnIdpCredential`): what `authctl token PROVIDER` prints.
    var providerTokens: TokenSet?
    /// The provider's ID token's issuer, when it handed one over.
    var issuer: String?

    init(_ json: [String: JSONValue], now: Date) throws {
        func string(_ key: String, limit: Int = 16384) -> String? {
            guard let value = json[key]?.stringValue, !value.isEmpty, value.count <= limit else { return nil }
            return value
        }
        guard let localID = string("localId", limit: 128), let idToken = string("idToken"), let refreshToken = string("refreshToken"),
            let providerID = string("providerId", limit: 128)
        else {
            throw AuthError.network("Firebase's signInWithIdp answer lacks localId, idToken, refreshToken or providerId. Try again")
        }
        self.localID = localID
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.providerID = providerID
        expiresIn = json["expiresIn"]
        isNewUser = json["isNewUser"]?.boolValue ?? false
        federatedID = string("rawId", limit: 1024) ?? string("federatedId", limit: 1024) ?? localID
        profile = Profile(
            email: string("email", limit: 320).map { Sanitize.text($0, limit: 320) },
            emailVerified: json["emailVerified"]?.lenientBool ?? false,
            displayName: string("displayName", limit: 256).map { Sanitize.text($0, limit: 256) },
            photoURL: string("photoUrl", limit: 2048))
        let oauthIDToken = string("oauthIdToken")
        issuer = oauthIDToken.flatMap(IDTokenClaims.unverifiedParts(of:)).flatMap { $0.payload["iss"]?.stringValue }
        let accessToken = string("oauthAccessToken").flatMap { token in
            token.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) ? nil : token
        }
        if accessToken != nil || oauthIDToken != nil {
            providerTokens = TokenSet(
                accessToken: accessToken, expiresAt: FirebaseAuthClient.seconds(json["oauthExpireIn"]).map { now.addingTimeInterval($0) },
                refreshToken: nil, idToken: oauthIDToken, scopes: [])
        }
    }
}

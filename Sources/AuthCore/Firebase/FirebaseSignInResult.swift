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
        guard FirebaseAnswer.isLocalID(localID), FirebaseAnswer.isProviderID(providerID), FirebaseAnswer.isToken(idToken),
            FirebaseAnswer.isToken(refreshToken)
        else {
            throw AuthError.network(
                "Firebase's signInWithIdp answer holds a uid, provider id or token that Firebase never issues; nothing was stored. Check the backend (\(command: .backendShow)): an emulator or proxy may answer in its place"
            )
        }
        self.localID = localID
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.providerID = providerID
        expiresIn = json["expiresIn"]
        isNewUser = json["isNewUser"]?.boolValue ?? false
        federatedID = (string("rawId", limit: 1024) ?? string("federatedId", limit: 1024)).map { Sanitize.text($0, limit: 1024) } ?? localID
        profile = Profile(
            email: string("email", limit: 320).map { Sanitize.text($0, limit: 320) },
            emailVerified: json["emailVerified"]?.lenientBool ?? false,
            displayName: string("displayName", limit: 256).map { Sanitize.text($0, limit: 256) },
            photoURL: string("photoUrl", limit: 2048))
        // The provider's tokens as Firebase hands them over: kept only when they are tokens.
        let oauthIDToken = string("oauthIdToken").flatMap { FirebaseAnswer.isToken($0) ? $0 : nil }
        issuer = oauthIDToken.flatMap(IDTokenClaims.unverifiedParts(of:)).flatMap { $0.payload["iss"]?.stringValue }
            .map { Sanitize.text($0, limit: 512) }
        let accessToken = string("oauthAccessToken").flatMap { FirebaseAnswer.isToken($0) ? $0 : nil }
        if accessToken != nil || oauthIDToken != nil {
            providerTokens = TokenSet(
                accessToken: accessToken, expiresAt: FirebaseAuthClient.seconds(json["oauthExpireIn"]).map { now.addingTimeInterval($0) },
                refreshToken: nil, idToken: oauthIDToken, scopes: [])
        }
    }
}

/// What an Identity Toolkit answer may hold where authctl stores or prints it: a lying
/// service (an emulator or a proxy in Firebase's place) gets no terminal escape, shell syntax
/// or header line through.
enum FirebaseAnswer {
    /// Firebase's `localId`: a uid (letters, digits, `-` and `_`, at most 128).
    static func isLocalID(_ value: String) -> Bool {
        UIDSyntax.isUID(value)
    }

    /// A provider id as Firebase names them (`google.com`, `oidc.corp`, `password`).
    static func isProviderID(_ value: String) -> Bool {
        !value.isEmpty && value.count <= 128 && value.unicodeScalars.allSatisfy { isWordCharacter($0) || $0 == "." }
    }

    /// A token (JWT, refresh token, pending token, a provider's access token): visible
    /// ASCII without spaces, quotes, `;`, `$`, backquotes or backslashes, at most 16 KiB.
    static func isToken(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 16384
            && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && !"\"'`;$\\<>|&(){}".unicodeScalars.contains($0) }
    }

    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
    }
}

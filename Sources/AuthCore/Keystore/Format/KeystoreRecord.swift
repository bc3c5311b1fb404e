/// The records of keystore format version 1 (docs/keystore.md), mapped to and from the
/// domain's `User`, `PendingCredential` and tokens. Their property names are the file's
/// keys: a domain field can be renamed, or the domain grow, without the file changing,
/// and a change of format is a change here (and a new `KeystoreFile.currentVersion`).
///
/// Optional values are absent from the file, never `null`; dates are RFC 3339 (the coders
/// of `KeystoreFile`). Like kubelogin's private token-cache entity, nothing outside
/// Keystore/ sees these types.
enum KeystoreRecord {
    /// `users[]`.
    struct User: Codable, Equatable {
        var uid: String
        var email: String?
        var emailVerified: Bool
        var displayName: String?
        var photoURL: String?
        var createdAt: Date
        var lastSignInAt: Date
        var lastAuthAt: Date
        var lastProviderId: String?
        var providerData: [Identity]
        /// `"workload"` for a workload account (docs/sign-in.md); absent for a person (every user
        /// written before workloads existed).
        var kind: Kind? = nil
        /// Absent for the local backend.
        var backend: Backend? = nil
        /// Tokens for protected resources (docs/resources.md); absent when there are none.
        var resourceGrants: [ResourceGrant]? = nil
    }

    /// `users[].resourceGrants[]`: one (issuer, resource) and its tokens, sealed like an identity's.
    struct ResourceGrant: Codable, Equatable {
        var resource: String
        var issuer: String
        var providerId: String
        var grantedAt: Date
        var tokens: Tokens?
        /// The identity an identity chain started from (`login URL --via`); absent otherwise.
        var viaProviderId: String? = nil
        /// With `viaProviderId`: the chain's `requested_token_type`.
        var viaTokenType: String? = nil
        /// One sign-in for several resources: the resource of the grant that holds its refresh token.
        var refreshTokenOf: String? = nil
    }

    /// `users[].kind`.
    enum Kind: String, Codable, Equatable {
        case person
        case workload
    }

    /// `users[].backend`: the Firebase project that holds the user (docs/firebase.md).
    struct Backend: Codable, Equatable {
        /// `firebase`, the one kind so far.
        var kind: String
        var projectId: String
        var tenantId: String?
        /// The Firebase ID token, refresh token and expiry (sealed like an identity's tokens).
        var session: Tokens?
        /// `HOST:PORT` of the Auth emulator that issued the session; absent for the real service.
        var emulator: String?
    }

    /// `users[].providerData[]`.
    struct Identity: Codable, Equatable {
        var providerId: String
        var issuer: String
        var federatedId: String
        var profile: Profile
        var linkedAt: Date
        var tokens: Tokens?
        /// A workload's client and where its authentication is read; absent for a person.
        var workload: Workload?
    }

    /// `providerData[].workload`: where a workload's authentication is read, never its
    /// value. Exactly one of the sources is present.
    struct Workload: Codable, Equatable {
        var clientId: String
        var tenant: String?
        var scopes: [String]
        var clientSecretEnv: String?
        var clientSecretFile: String?
        var certificateFile: String?
        var federatedTokenFile: String?
        var federatedTokenEnv: String?
        /// A CI service that hands out the token (`github-actions`).
        var federatedTokenSource: String?
        var federatedAudience: String?
        /// `private_key_jwt`: the algorithm asked (`PS256`); absent: by the key.
        var assertionAlgorithm: String?
        /// `jwt-bearer`: the federated token is the grant's assertion (RFC 7523 §2.1) and the
        /// client authenticates by the secret or certificate present, or not at all; absent:
        /// the client-credentials grant, with exactly one source.
        var grant: String? = nil
    }

    /// `providerData[].profile`, and a pending credential's.
    struct Profile: Codable, Equatable {
        var email: String?
        var emailVerified: Bool
        var displayName: String?
        var photoURL: String?
        var isPrivateEmail: Bool?
    }

    /// `providerData[].tokens`, and a pending credential's.
    struct Tokens: Codable, Equatable {
        var accessToken: String?
        var tokenType: String
        var expiresAt: Date?
        var refreshToken: String?
        var idToken: String?
        var scopes: [String]
        var additionalTokens: [String: ScopedToken]?
        /// When the provider refused the refresh token (`invalid_grant`); absent while the
        /// session is good. Readable (`status` shows it without the key), and in a sealed
        /// keystore bound with the other readable fields.
        var needsSignInSince: Date?
        /// The DPoP key of a DPoP-bound session (RFC 9449): its private scalar, base64url. A
        /// secret: in a sealed keystore it is held under `sealed` with the tokens.
        var dpopKey: String?
        /// The rich authorization granted (RFC 9396): readable, like the scopes.
        var authorizationDetails: JSONValue?
        /// Format version 2, a sealed keystore: `accessToken`, `refreshToken`, `idToken` and
        /// `additionalTokens` (and a pending credential's `claims`) are absent and held here,
        /// AES-256-GCM under the data key, bound to the record's place (`SealedSecrets`).
        var sealed: String?
        /// Exchanged tokens and cloud credentials made from these tokens (docs/cloud.md);
        /// sealed like `additionalTokens`.
        var derivedCredentials: [String: DerivedCredential]? = nil
        /// Where the tokens may be sent (docs/security.md): readable, and in a sealed keystore
        /// bound with the other readable fields. Absent for tokens stored by earlier builds.
        var egress: Egress? = nil
    }

    /// `tokens.egress`: the issuer and the origins (`scheme://host:port`) recorded when the
    /// tokens were obtained.
    struct Egress: Codable, Equatable {
        var issuer: String
        var origins: [String]
    }

    /// `tokens.additionalTokens[SCOPES]`.
    struct ScopedToken: Codable, Equatable {
        var accessToken: String
        var tokenType: String
        var expiresAt: Date?
        var scopes: [String]
    }

    /// `pendingCredentials[]`.
    struct PendingCredential: Codable, Equatable {
        /// The reasons the file knows, spelled as docs/exit-codes.md's codes.
        enum Reason: String, Codable, Equatable {
            case accountExists = "account-exists-with-different-credential"
            case credentialAlreadyInUse = "credential-already-in-use"
        }

        var handle: String
        var reason: Reason
        var conflictingUID: String
        var createdAt: Date
        var expiresAt: Date
        var credential: Credential
    }

    /// `pendingCredentials[].credential`.
    struct Credential: Codable, Equatable {
        var providerId: String
        var issuer: String
        var federatedId: String
        var profile: Profile
        var tokens: Tokens
        /// The validated ID-token claims, as received. Absent when sealed (they hold the
        /// nonce): then in `tokens.sealed`.
        var claims: [String: JSONValue]?
        /// A Firebase pending credential (docs/firebase.md); absent for authctl's own.
        var brokered: Brokered? = nil
    }

    /// `pendingCredentials[].credential.brokered`: the project and its `pendingToken` (absent
    /// when sealed: then in `tokens.sealed`).
    struct Brokered: Codable, Equatable {
        var projectId: String
        var pendingToken: String?
    }
}

// MARK: - From the domain

extension KeystoreRecord.User {
    init(_ user: AuthCore.User) {
        self.init(
            uid: user.uid, email: user.email, emailVerified: user.emailVerified, displayName: user.displayName,
            photoURL: user.photoURL, createdAt: user.createdAt, lastSignInAt: user.lastSignInAt, lastAuthAt: user.lastAuthAt,
            lastProviderId: user.lastProviderID, providerData: user.providerData.map(KeystoreRecord.Identity.init),
            kind: user.kind == .workload ? .workload : nil)
        resourceGrants = user.resourceGrants.isEmpty ? nil : user.resourceGrants.map(KeystoreRecord.ResourceGrant.init)
        backend = user.backend.map {
            KeystoreRecord.Backend(
                kind: "firebase", projectId: $0.projectID, tenantId: $0.tenantID, session: $0.session.map(KeystoreRecord.Tokens.init),
                emulator: $0.emulator)
        }
    }

    var domain: AuthCore.User {
        var user = AuthCore.User(
            uid: uid, email: email, emailVerified: emailVerified, displayName: displayName, photoURL: photoURL, createdAt: createdAt,
            lastSignInAt: lastSignInAt, lastAuthAt: lastAuthAt, lastProviderID: lastProviderId, providerData: providerData.map(\.domain),
            kind: kind == .workload ? .workload : .person)
        user.backend = backend.map {
            UserBackend(projectID: $0.projectId, tenantID: $0.tenantId, session: $0.session?.domain, emulator: $0.emulator)
        }
        user.resourceGrants = resourceGrants?.map(\.domain) ?? []
        return user
    }
}

extension KeystoreRecord.ResourceGrant {
    init(_ grant: AuthCore.ResourceGrant) {
        self.init(
            resource: grant.resource, issuer: grant.issuer, providerId: grant.providerID, grantedAt: grant.grantedAt,
            tokens: grant.tokens.map(KeystoreRecord.Tokens.init), viaProviderId: grant.viaProviderID, viaTokenType: grant.viaTokenType,
            refreshTokenOf: grant.refreshTokenOf)
    }

    var domain: AuthCore.ResourceGrant {
        AuthCore.ResourceGrant(
            resource: resource, issuer: issuer, providerID: providerId, grantedAt: grantedAt, tokens: tokens?.domain,
            viaProviderID: viaProviderId, viaTokenType: viaTokenType, refreshTokenOf: refreshTokenOf)
    }
}

extension KeystoreRecord.Identity {
    init(_ identity: LinkedIdentity) {
        self.init(
            providerId: identity.providerID, issuer: identity.issuer, federatedId: identity.federatedID,
            profile: KeystoreRecord.Profile(identity.profile), linkedAt: identity.linkedAt,
            tokens: identity.tokens.map(KeystoreRecord.Tokens.init), workload: identity.workload.map(KeystoreRecord.Workload.init))
    }

    var domain: LinkedIdentity {
        LinkedIdentity(
            providerID: providerId, issuer: issuer, federatedID: federatedId, profile: profile.domain, linkedAt: linkedAt,
            tokens: tokens?.domain, workload: workload?.domain)
    }
}

extension KeystoreRecord.Profile {
    init(_ profile: AuthCore.Profile) {
        self.init(
            email: profile.email, emailVerified: profile.emailVerified, displayName: profile.displayName, photoURL: profile.photoURL,
            isPrivateEmail: profile.isPrivateEmail)
    }

    var domain: AuthCore.Profile {
        AuthCore.Profile(
            email: email, emailVerified: emailVerified, displayName: displayName, photoURL: photoURL, isPrivateEmail: isPrivateEmail)
    }
}

extension KeystoreRecord.Tokens {
    init(_ tokens: TokenSet) {
        self.init(
            accessToken: tokens.accessToken, tokenType: tokens.tokenType, expiresAt: tokens.expiresAt, refreshToken: tokens.refreshToken,
            idToken: tokens.idToken, scopes: tokens.scopes,
            additionalTokens: tokens.additionalTokens?.mapValues(KeystoreRecord.ScopedToken.init),
            needsSignInSince: tokens.needsSignInSince, dpopKey: tokens.proofKey?.storedForm,
            authorizationDetails: tokens.authorizationDetails?.value, sealed: nil,
            derivedCredentials: tokens.derivedCredentials?.mapValues(KeystoreRecord.DerivedCredential.init),
            egress: tokens.egress.map { KeystoreRecord.Egress(issuer: $0.issuer, origins: $0.origins.map(\.description)) })
    }

    /// The domain's tokens; from a record still sealed (read without the key, for `status`
    /// and `users list`), tokens with `isSealed` set and no secret.
    var domain: TokenSet {
        var set = TokenSet(
            accessToken: accessToken, tokenType: tokenType, expiresAt: expiresAt, refreshToken: refreshToken, idToken: idToken,
            scopes: scopes, additionalTokens: additionalTokens?.mapValues(\.domain))
        set.isSealed = sealed != nil
        set.needsSignInSince = needsSignInSince
        set.proofKey = dpopKey.flatMap(DPoPKey.init(storedForm:))
        set.authorizationDetails = authorizationDetails.flatMap(AuthorizationDetails.init)
        set.derivedCredentials = derivedCredentials?.compactMapValues(\.domain)
        // An origin that does not read is left out: the binding only narrows.
        set.egress = egress.map { SecretBinding(issuer: $0.issuer, origins: $0.origins.compactMap(Origin.init(storedForm:))) }
        return set
    }
}

extension KeystoreRecord.ScopedToken {
    init(_ token: ScopedAccessToken) {
        self.init(accessToken: token.accessToken, tokenType: token.tokenType, expiresAt: token.expiresAt, scopes: token.scopes)
    }

    var domain: ScopedAccessToken {
        ScopedAccessToken(accessToken: accessToken, tokenType: tokenType, expiresAt: expiresAt, scopes: scopes)
    }
}

extension KeystoreRecord.PendingCredential {
    init(_ pending: AuthCore.PendingCredential) {
        let reason: Reason =
            switch pending.reason {
            case .accountExists: .accountExists
            case .credentialAlreadyInUse: .credentialAlreadyInUse
            }
        self.init(
            handle: pending.handle, reason: reason, conflictingUID: pending.conflictingUID, createdAt: pending.createdAt,
            expiresAt: pending.expiresAt, credential: KeystoreRecord.Credential(pending.credential))
    }

    var domain: AuthCore.PendingCredential {
        let reason: AuthCore.PendingCredential.Reason =
            switch self.reason {
            case .accountExists: .accountExists
            case .credentialAlreadyInUse: .credentialAlreadyInUse
            }
        var pending = AuthCore.PendingCredential(
            handle: handle, reason: reason, conflictingUID: conflictingUID, createdAt: createdAt, credential: credential.domain)
        // The file's own expiry, not one computed again from `createdAt`.
        pending.expiresAt = expiresAt
        return pending
    }
}

extension KeystoreRecord.Credential {
    init(_ credential: AuthCore.Credential) {
        self.init(
            providerId: credential.providerID, issuer: credential.issuer, federatedId: credential.federatedID,
            profile: KeystoreRecord.Profile(credential.profile), tokens: KeystoreRecord.Tokens(credential.tokens),
            claims: credential.claims.raw)
        brokered = credential.brokered.map { KeystoreRecord.Brokered(projectId: $0.projectID, pendingToken: $0.pendingToken) }
    }

    var domain: AuthCore.Credential {
        var credential = AuthCore.Credential(
            providerID: providerId, issuer: issuer, federatedID: federatedId, profile: profile.domain, tokens: tokens.domain,
            claims: IDTokenClaims(raw: claims ?? [:]))
        credential.brokered = brokered.map { BrokeredCredential(projectID: $0.projectId, pendingToken: $0.pendingToken ?? "") }
        return credential
    }
}

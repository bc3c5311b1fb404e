/// What one completed sign-in flow yields before it is applied to the keystore (docs/accounts.md).
public struct Credential: Sendable, Equatable {
    public var providerID: String
    public var issuer: String
    public var federatedID: String
    public var profile: Profile
    public var tokens: TokenSet
    /// The validated ID-token claims.
    public var claims: IDTokenClaims
    /// What the provider's profile API said when it could not complete `profile` (docs/configuration.md,
    /// Microsoft Graph), for the use case to report. Not stored with a pending credential.
    public var profileWarnings: [ProfileWarning] = []
    /// Set when a workload signed in as itself (client credentials): the account it makes
    /// is a workload's, never merged with a person's. Not stored with a pending credential.
    public var workload: WorkloadClient?
    /// A credential a broker holds for authctl (docs/firebase.md: Firebase's `pendingToken` of a
    /// conflict), which only that broker can apply; nil for authctl's own credentials.
    public var brokered: BrokeredCredential?
    /// A resource's sign-in (docs/resources.md): the resource its tokens are for (RFC 8707).
    public var resource: URL?
    /// False for a resource's plain OAuth 2.0 grant (no ID token): then `federatedID` is
    /// empty and `claims` hold nothing, and the credential is stored as a resource grant only,
    /// never applied to an identity.
    public var hasIdentity = true

    public init(providerID: String, issuer: String, federatedID: String, profile: Profile, tokens: TokenSet, claims: IDTokenClaims) {
        self.providerID = providerID
        self.issuer = issuer
        self.federatedID = federatedID
        self.profile = profile
        self.tokens = tokens
        self.claims = claims
    }

    public var key: IdentityKey { IdentityKey(providerID: providerID, issuer: issuer, federatedID: federatedID) }
}

/// What a broker gave for a credential it keeps (Firebase's `pendingToken`): as secret as a
/// token, applied only through that broker.
public struct BrokeredCredential: Sendable, Equatable {
    /// The Firebase project that issued it.
    public var projectID: String
    public var pendingToken: String

    public init(projectID: String, pendingToken: String) {
        self.projectID = projectID
        self.pendingToken = pendingToken
    }
}

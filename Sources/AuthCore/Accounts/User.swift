/// A local account (docs/accounts.md).
public struct User: Sendable, Equatable {
    /// Minted by authctl: random, URL-safe, 28 characters.
    public var uid: String
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var photoURL: String?
    public var createdAt: Date
    public var lastSignInAt: Date
    /// The last time the user proved who they are (sign-in or reauthentication).
    public var lastAuthAt: Date
    /// The provider used for the last sign-in: `authctl token`'s default.
    public var lastProviderID: String?
    public var providerData: [LinkedIdentity]
    /// A person, or a workload signed in with client credentials (docs/ci.md).
    public var kind: UserKind
    /// Where the user lives (docs/firebase.md): nil for the local backend (the keystore), else the
    /// Firebase project that holds it, with its Firebase session.
    public var backend: UserBackend?
    /// Tokens for protected resources (docs/resources.md), per (issuer, resource).
    public var resourceGrants: [ResourceGrant] = []

    public init(
        uid: String, email: String?, emailVerified: Bool, displayName: String?, photoURL: String?, createdAt: Date,
        lastSignInAt: Date, lastAuthAt: Date, lastProviderID: String?, providerData: [LinkedIdentity], kind: UserKind = .person
    ) {
        self.kind = kind
        self.uid = uid
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.createdAt = createdAt
        self.lastSignInAt = lastSignInAt
        self.lastAuthAt = lastAuthAt
        self.lastProviderID = lastProviderID
        self.providerData = providerData
    }

    public func identity(for providerID: String) -> LinkedIdentity? {
        providerData.first { $0.providerID == providerID }
    }
}

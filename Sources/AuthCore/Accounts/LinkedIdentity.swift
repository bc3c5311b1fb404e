/// One account at one provider, linked to a user (Firebase's `providerData` entry).
/// Identified by (`providerID`, `issuer`, `federatedID`) — never by email.
public struct LinkedIdentity: Sendable, Equatable {
    public var providerID: String
    public var issuer: String
    /// The provider's user id (`sub`; Microsoft: derived from `oid`).
    public var federatedID: String
    public var profile: Profile
    public var linkedAt: Date
    /// The tokens of the session; nil after sign-out.
    public var tokens: TokenSet?
    /// A workload's client and where its authentication is read (nil for a person's identity).
    public var workload: WorkloadClient?

    public init(
        providerID: String, issuer: String, federatedID: String, profile: Profile, linkedAt: Date, tokens: TokenSet?,
        workload: WorkloadClient? = nil
    ) {
        self.workload = workload
        self.providerID = providerID
        self.issuer = issuer
        self.federatedID = federatedID
        self.profile = profile
        self.linkedAt = linkedAt
        self.tokens = tokens
    }

    /// Where this identity's tokens, DPoP key and (for a workload) client authentication may
    /// be sent: what was recorded when they were obtained (docs/security.md).
    public var binding: SecretBinding { tokens?.binding(issuer: issuer) ?? .legacy(issuer: issuer) }

    public func matches(_ key: IdentityKey) -> Bool {
        providerID == key.providerID && issuer == key.issuer && federatedID == key.federatedID
    }
}

/// The key of an identity: provider id + issuer + federated id (docs/accounts.md).
public struct IdentityKey: Sendable, Hashable {
    public var providerID: String
    public var issuer: String
    public var federatedID: String
}

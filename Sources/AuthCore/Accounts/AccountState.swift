/// Everything the keystore holds, as domain values.
public struct AccountState: Sendable, Equatable {
    public var currentUID: String?
    public var users: [User]
    /// Credentials waiting for a later command (`link --pending`, `login --credential`).
    public var pendingCredentials: [PendingCredential]
    /// The registration access tokens (RFC 7592) of the clients `login URL` registered, by
    /// provider id (docs/resources.md): secrets, sealed with the tokens in a sealed keystore.
    public var registrationTokens: [String: String] = [:]
    /// Where each registration access token may be sent: the registration client URI (RFC
    /// 7592 §2) checked when the client was registered, by provider id. Absent for a token
    /// stored before authctl recorded it: such a token is sent nowhere (docs/security.md).
    public var registrationClientURIs: [String: String] = [:]
    /// The client secrets registration issued (RFC 7591 §3.2.1) to the clients `login URL`
    /// registered, by provider id: secrets like the registration access tokens.
    public var registeredClientSecrets: [String: RegisteredClientSecret] = [:]

    public init(currentUID: String? = nil, users: [User] = [], pendingCredentials: [PendingCredential] = []) {
        self.currentUID = currentUID
        self.users = users
        self.pendingCredentials = pendingCredentials
    }

    /// The users in the order they were created (then by uid): what lists and exports show.
    /// The keystore file keeps the current user's record first, so its order changes with
    /// `users use`; this one does not.
    public var usersByCreation: [User] {
        users.sorted { ($0.createdAt, $0.uid) < ($1.createdAt, $1.uid) }
    }

    public var currentUser: User? {
        guard let currentUID else { return nil }
        return users.first { $0.uid == currentUID }
    }

    public func userIndex(uid: String) -> Int? { users.firstIndex { $0.uid == uid } }

    /// The user an identity is linked to, with the indices of both.
    public func owner(of key: IdentityKey) -> (user: Int, identity: Int)? {
        for (userIndex, user) in users.enumerated() {
            if let identityIndex = user.providerData.firstIndex(where: { $0.matches(key) }) {
                return (userIndex, identityIndex)
            }
        }
        return nil
    }

    /// The user an email belongs to (docs/accounts.md, "one account per email"): the user's own
    /// email, or the verified email of one of its identities. Compared without case.
    public func user(claimingEmail email: String) -> User? {
        let email = email.lowercased()
        return users.first { user in
            user.email?.lowercased() == email
                || user.providerData.contains { $0.profile.emailVerified && $0.profile.email?.lowercased() == email }
        }
    }
}

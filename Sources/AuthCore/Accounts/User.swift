/// The tokens one linked identity holds in the session (docs/accounts.md).
public struct TokenSet: Sendable, Equatable {
    /// Absent after a sign-in with an ID token obtained elsewhere (`login --id-token -`).
    public var accessToken: String?
    public var tokenType: String
    /// When the access token expires; nil when the provider did not say.
    public var expiresAt: Date?
    public var refreshToken: String?
    public var idToken: String?
    /// The scopes granted (or asked, when the provider did not say).
    public var scopes: [String]
    /// Access tokens for other scopes (`authctl token --scope`; Microsoft: other resources),
    /// obtained with the refresh token and keyed by `TokenSet.scopeKey` of the scopes asked.
    /// Nil when there are none (absent from the keystore file).
    public var additionalTokens: [String: ScopedAccessToken]?
    /// True when the keystore is sealed and was read without its key (`status`, `users
    /// list`): the tokens exist but none is here, only their type, expiry and scopes.
    public var isSealed = false
    /// When the provider refused the refresh token (`invalid_grant`): the session has ended
    /// and only a new sign-in gives tokens again. Nil while the session is good, and after
    /// every sign-in or refresh that succeeds.
    public var needsSignInSince: Date?

    public init(
        accessToken: String?, tokenType: String = "Bearer", expiresAt: Date?, refreshToken: String?, idToken: String?, scopes: [String],
        additionalTokens: [String: ScopedAccessToken]? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scopes = scopes
        self.additionalTokens = additionalTokens
    }

    /// The key of a scope set in `additionalTokens`: the distinct scopes, sorted, joined by
    /// a space (`https://graph.microsoft.com/.default`).
    public static func scopeKey(_ scopes: [String]) -> String {
        Set(scopes.filter { !$0.isEmpty }).sorted().joined(separator: " ")
    }

    /// True when the access token is still valid `minimumTTL` seconds from `now`. A token
    /// whose lifetime is unknown counts as valid (nothing better can be known offline).
    public func isValid(at now: Date, minimumTTL: TimeInterval) -> Bool {
        Self.isValid(expiresAt: expiresAt, at: now, minimumTTL: minimumTTL)
    }

    static func isValid(expiresAt: Date?, at now: Date, minimumTTL: TimeInterval) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt.timeIntervalSince(now) > minimumTTL
    }
}

/// An access token for scopes other than the session's, obtained with the refresh token.
public struct ScopedAccessToken: Sendable, Equatable {
    public var accessToken: String
    public var tokenType: String
    public var expiresAt: Date?
    /// The scopes granted (or asked, when the provider did not say).
    public var scopes: [String]

    public init(accessToken: String, tokenType: String = "Bearer", expiresAt: Date?, scopes: [String]) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.scopes = scopes
    }

    public func isValid(at now: Date, minimumTTL: TimeInterval) -> Bool {
        TokenSet.isValid(expiresAt: expiresAt, at: now, minimumTTL: minimumTTL)
    }
}

/// A profile as a provider states it (claims of the ID token, or a user hint).
public struct Profile: Sendable, Equatable {
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var photoURL: String?
    /// True when the email is a relay address that hides the real one (Apple's private
    /// relay). Linking such an identity with another needs the user's consent (docs/apple.md).
    /// Absent (nil) means false.
    public var isPrivateEmail: Bool?

    public init(
        email: String? = nil, emailVerified: Bool = false, displayName: String? = nil, photoURL: String? = nil,
        isPrivateEmail: Bool? = nil
    ) {
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.isPrivateEmail = isPrivateEmail
    }
}

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

/// A user held by a Firebase project (docs/firebase.md): the project, the tenant, and the session —
/// the Firebase ID token (`idToken`), its refresh token and expiry — which the project issued
/// and securetoken refreshes. The user's `uid` is Firebase's `localId`.
public struct UserBackend: Sendable, Equatable {
    public var projectID: String
    public var tenantID: String?
    /// Nil after sign-out, or when the project ended the session (`user-token-expired`).
    public var session: TokenSet?
    /// `HOST:PORT` of the Auth emulator that issued the session; nil for the real service.
    /// The session is used with that service only: its refresh token goes nowhere else.
    public var emulator: String?

    public init(projectID: String, tenantID: String?, session: TokenSet?, emulator: String? = nil) {
        self.projectID = projectID
        self.tenantID = tenantID
        self.session = session
        self.emulator = emulator
    }

    /// What `status`, `users list` and `--json` name: `firebase:PROJECT[/TENANT]`.
    public var name: String { "firebase:\(projectID)" + (tenantID.map { "/\($0)" } ?? "") }

    /// The service, as a person reads it: the emulator's address, or Firebase itself.
    public var serviceName: String { Self.serviceName(emulator: emulator) }

    /// The service of an emulator address (nil: Firebase itself), as a person reads it.
    public static func serviceName(emulator: String?) -> String {
        emulator.map { "the Auth emulator at \($0)" } ?? "Firebase (googleapis.com)"
    }
}

/// Everything the keystore holds, as domain values.
public struct AccountState: Sendable, Equatable {
    public var currentUID: String?
    public var users: [User]
    /// Credentials waiting for a later command (`link --pending`, `login --credential`).
    public var pendingCredentials: [PendingCredential]

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

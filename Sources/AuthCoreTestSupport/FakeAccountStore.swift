import AuthCore
import Foundation

/// An account store in memory that records each operation a use case asks of it, in order,
/// and can refuse one as a remote backend would (the same `AuthError`). The rules are the
/// local ones, on an in-memory keystore with a fixed clock and seeded random draws.
public final class FakeAccountStore: CredentialAccountStore, @unchecked Sendable {
    public enum Operation: Sendable, Equatable {
        case signIn(providerID: String, pendingHandle: String?)
        case link(providerID: String, uid: String?, consent: Bool)
        case reauthenticate(providerID: String, uid: String)
        case identityToUnlink(providerID: String, uid: String?)
        case unlink(providerID: String, uid: String?)
        case userToDelete(uid: String?)
        case deleteUser(uid: String)
        case signOut(all: Bool, uid: String?)
        /// `login URL`'s grant, with the provider of the identity the server named (nil: none).
        case storeResourceGrant(resource: String, identityProviderID: String?)
    }

    public let keystore: InMemoryKeystore
    public let clock: FixedClock
    private let rules: KeystoreAccountStore
    private let lock = NSLock()
    private var recorded: [Operation] = []
    private var refusal: (@Sendable (Operation) -> AuthError?)?

    public init(_ state: AccountState = AccountState(), clock: FixedClock = FixedClock()) {
        keystore = InMemoryKeystore(state)
        self.clock = clock
        rules = KeystoreAccountStore(keystore: keystore, clock: clock, random: SystemRandomSource())
    }

    /// Every operation asked, in order (refused ones included).
    public var operations: [Operation] { lock.withLock { recorded } }

    /// Refuses the operations for which `answer` gives an error, before anything changes.
    public func refuse(_ answer: @escaping @Sendable (Operation) -> AuthError?) { lock.withLock { refusal = answer } }

    private func record(_ operation: Operation) throws {
        let error = lock.withLock { () -> AuthError? in
            recorded.append(operation)
            return refusal?(operation)
        }
        if let error { throw error }
    }

    public func accounts() throws -> AccountState { try rules.accounts() }
    public func pendingCredential(_ handle: String) throws -> PendingCredential { try rules.pendingCredential(handle) }

    public func signIn(with credential: Credential, pendingHandle: String?) async throws -> AccountRules.SignInResult {
        try record(.signIn(providerID: credential.providerID, pendingHandle: pendingHandle))
        return try await rules.signIn(with: credential, pendingHandle: pendingHandle)
    }

    public func link(_ credential: Credential, toUser uid: String?, pendingHandle: String?, consent: Bool) async throws -> User {
        try record(.link(providerID: credential.providerID, uid: uid, consent: consent))
        return try await rules.link(credential, toUser: uid, pendingHandle: pendingHandle, consent: consent)
    }

    /// Recorded once, by the first grant's resource: the grants of one sign-in are one change.
    public func storeResourceGrant(_ grant: ResourceGrant, more: [ResourceGrant], identity: Credential?) async throws
        -> AccountRules.GrantResult
    {
        try record(.storeResourceGrant(resource: grant.resource, identityProviderID: identity?.providerID))
        return try await rules.storeResourceGrant(grant, more: more, identity: identity)
    }

    public func reauthenticate(user uid: String, with credential: Credential) async throws -> User {
        try record(.reauthenticate(providerID: credential.providerID, uid: uid))
        return try await rules.reauthenticate(user: uid, with: credential)
    }

    public func identityToUnlink(_ providerID: String, fromUser uid: String?) throws -> LinkedIdentity {
        try record(.identityToUnlink(providerID: providerID, uid: uid))
        return try rules.identityToUnlink(providerID, fromUser: uid)
    }

    public func unlink(_ providerID: String, fromUser uid: String?) async throws -> User {
        try record(.unlink(providerID: providerID, uid: uid))
        return try await rules.unlink(providerID, fromUser: uid)
    }

    public func userToDelete(_ uid: String?) throws -> User {
        try record(.userToDelete(uid: uid))
        return try rules.userToDelete(uid)
    }

    public func deleteUser(_ uid: String) async throws -> User {
        try record(.deleteUser(uid: uid))
        return try await rules.deleteUser(uid)
    }

    public func signOut(all: Bool, user uid: String?) async throws {
        try record(.signOut(all: all, uid: uid))
        try await rules.signOut(all: all, user: uid)
    }
}

/// Sign-in flows that hand out credentials the test gives, and record what they were asked.
public final class StaticCredentialIssuer: CredentialIssuing, @unchecked Sendable {
    private let lock = NSLock()
    private var queue: [Credential]
    private var asked: [String] = []

    /// - Parameter credentials: handed out in order, one per sign-in.
    public init(_ credentials: [Credential]) { queue = credentials }

    /// The provider of each sign-in asked for, in order.
    public var providers: [String] { lock.withLock { asked } }

    public func credential(from source: CredentialSource, provider: any IdentityProvider) async throws -> Credential {
        try lock.withLock {
            asked.append(provider.id.rawValue)
            guard !queue.isEmpty else { throw AuthError.internalError("the test gave no more credentials") }
            return queue.removeFirst()
        }
    }
}

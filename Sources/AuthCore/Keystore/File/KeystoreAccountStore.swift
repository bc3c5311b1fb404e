/// The local backend (docs/accounts.md–7): the keystore is the user database and `AccountRules`
/// decides, each change under the keystore lock after a re-read. The time, the uid of a new
/// user and the handle of a pending credential are drawn from the injected clock and random
/// source.
public struct KeystoreAccountStore: CredentialAccountStore {
    let keystore: any Keystore
    let clock: any Clock
    let random: any RandomSource

    public init(keystore: any Keystore, clock: any Clock, random: any RandomSource) {
        self.keystore = keystore
        self.clock = clock
        self.random = random
    }

    public func accounts() throws -> AccountState { try keystore.read() }

    public func pendingCredential(_ handle: String) throws -> PendingCredential {
        let pending = try AccountRules.pendingCredential(handle, in: keystore.read(), now: clock.now())
        // A Firebase conflict's credential is Firebase's pending token: only that project can
        // apply it, and its profile is Firebase's word, not a validated ID token.
        if let brokered = pending.credential.brokered {
            throw AuthError.invalidArgument(
                "the pending credential \(handle) was saved by the Firebase project \(brokered.projectID), and only that project can finish it. Use that backend first: \(command: .backendUse, "firebase", .input(.project, brokered.projectID), .input(.apiKey, "KEY"))"
            )
        }
        return pending
    }

    public func signIn(with credential: Credential, pendingHandle: String?) async throws -> AccountRules.SignInResult {
        let credential = Self.stored(credential)
        let context = self.context()
        let outcome = try await keystore.update { state in
            // The pending credential must still be there (another process may have used it).
            if let pendingHandle { _ = try AccountRules.pendingCredential(pendingHandle, in: state, now: context.now) }
            return AccountRules.signIn(&state, with: credential, context: context, pendingHandle: pendingHandle)
        }
        return try outcome.get()
    }

    public func link(_ credential: Credential, toUser uid: String?, pendingHandle: String?, consent: Bool) async throws -> User {
        let credential = Self.stored(credential)
        let context = self.context()
        let outcome = try await keystore.update { state in
            if let pendingHandle { _ = try AccountRules.pendingCredential(pendingHandle, in: state, now: context.now) }
            return try AccountRules.link(
                &state, with: credential, context: context, pendingHandle: pendingHandle, consent: consent, uid: uid)
        }
        return try outcome.get()
    }

    public func reauthenticate(user uid: String, with credential: Credential) async throws -> User {
        let now = clock.now()
        return try await keystore.update { state in try AccountRules.reauthenticate(&state, with: credential, now: now, uid: uid) }
    }

    public func storeResourceGrant(_ grant: ResourceGrant, more: [ResourceGrant], identity: Credential?) async throws
        -> AccountRules.GrantResult
    {
        let identity = identity.map(Self.stored)
        let context = self.context()
        let outcome = try await keystore.update { state in
            try AccountRules.storeGrant(&state, [grant] + more, identity: identity, context: context)
        }
        return try outcome.get()
    }

    public func identityToUnlink(_ providerID: String, fromUser uid: String?) throws -> LinkedIdentity {
        var preview = try keystore.read()
        return try AccountRules.unlink(&preview, providerID: providerID, uid: uid).removed
    }

    public func unlink(_ providerID: String, fromUser uid: String?) async throws -> User {
        try await keystore.update { state in try AccountRules.unlink(&state, providerID: providerID, uid: uid).user }
    }

    public func userToDelete(_ uid: String?) throws -> User {
        var preview = try keystore.read()
        return try AccountRules.deleteUser(&preview, uid: uid, now: clock.now())
    }

    public func deleteUser(_ uid: String) async throws -> User {
        let now = clock.now()
        return try await keystore.update { state in try AccountRules.deleteUser(&state, uid: uid, now: now) }
    }

    public func signOut(all: Bool, user uid: String?) async throws {
        try await keystore.update { state in try AccountRules.signOut(&state, all: all, uid: uid) }
    }

    /// The credential as a refusal saves it (pending): its warnings were reported already.
    static func stored(_ credential: Credential) -> Credential {
        var stored = credential
        stored.profileWarnings = []
        return stored
    }

    /// The time, a fresh uid and a fresh pending handle, drawn for one change.
    func context() -> AccountRules.Context {
        AccountRules.Context(now: clock.now(), newUID: newUID(), newHandle: "pc_" + random.base64URL(bytes: 15))
    }

    /// docs/accounts.md: a uid is random, URL-safe, at least 20 characters: 21 bytes → 28 characters.
    /// It never begins with `-`, which a command line would read as an option (`users use
    /// UID`): such a draw (1 in 64) is drawn again; a source that keeps giving one (never the
    /// CSPRNG) gets its first character replaced.
    func newUID() -> String {
        for _ in 0..<8 {
            let uid = random.base64URL(bytes: 21)
            if !uid.hasPrefix("-") { return uid }
        }
        return "A" + random.base64URL(bytes: 21).dropFirst()
    }
}

import AuthCore
import AuthCoreTestSupport
import Foundation
import Synchronization
import Testing

/// `login URL` keeps its grant as every sign-in keeps its tokens: one change of the keystore,
/// under one lock, decided by the account rules on what the lock re-read, and through the
/// account store it was given (Sources/AuthCore/Accounts/AccountRules+ResourceGrant.swift).
extension ResourceSignInTests {
    /// A keystore another process writes to: after each unlocked read, that process takes the
    /// lock first, and its change lands before the next one made under the lock.
    final class RacedKeystore: Keystore, @unchecked Sendable {
        let stored: InMemoryKeystore
        let change: @Sendable (inout AccountState) -> Void
        private let pending = Mutex(false)

        init(_ state: AccountState, change: @escaping @Sendable (inout AccountState) -> Void) {
            stored = InMemoryKeystore(state)
            self.change = change
        }

        func read() throws -> AccountState {
            pending.withLock { $0 = true }
            return try stored.read()
        }

        func update<T: Sendable>(_ change: (inout AccountState) async throws -> T) async throws -> T {
            if pending.withLock({ value in
                defer { value = false }; return value
            }) {
                try await stored.update { self.change(&$0) }
            }
            return try await stored.update(change)
        }
    }

    func identityCredential(_ federatedID: String) -> Credential {
        var credential = plainGrant
        credential.hasIdentity = true
        credential.federatedID = federatedID
        credential.tokens.idToken = "it"
        return credential
    }

    @Test("the grant's owner is decided under the lock it is written in: an identity moved to another user meanwhile takes the grant there")
    func ownerDecidedUnderTheLock() async throws {
        let identity = LinkedIdentity(
            providerID: "oidc.as", issuer: "https://as.example", federatedID: "sub-1", profile: Profile(), linkedAt: clock.now(),
            tokens: nil)
        // Another authctl unlinks the identity from `before` and links it to `after`.
        let keystore = RacedKeystore(AccountState(currentUID: "before", users: [user("before", identities: [identity]), user("after")])) {
            state in
            guard let from = state.userIndex(uid: "before"), let to = state.userIndex(uid: "after"), !state.users[from].providerData.isEmpty
            else { return }
            state.users[from].providerData = []
            state.users[to].providerData = [identity]
        }
        let accounts = KeystoreAccountStore(keystore: keystore, clock: clock, random: SeededRandom())
        let output = try await signIn(accounts, identityCredential("sub-1")).run(
            .init(resource: Self.resource, options: FlowOptions(), provider: Self.provider, consented: true))
        #expect(output.user.uid == "after" && output.owner == .identity)
        let state = keystore.stored.state
        #expect(state.users.first { $0.uid == "before" }?.resourceGrants.isEmpty == true)
        #expect(state.users.first { $0.uid == "after" }?.resourceGrants.first?.resource == Self.resource)
        #expect(state.currentUID == "after")
    }

    @Test("a new identity's user and its grant are one write of the keystore")
    func oneWrite() async throws {
        let accounts = FakeAccountStore(clock: clock)
        let output = try await signIn(accounts, identityCredential("sub-3")).run(
            .init(resource: Self.resource, options: FlowOptions(), provider: Self.provider, consented: true))
        #expect(output.isNewUser)
        #expect(accounts.keystore.writes == 1)
    }

    @Test("the account store it is given keeps the grant: its refusal stops the sign-in, and nothing is written")
    func givenStoreDecides() async throws {
        let accounts = FakeAccountStore(clock: clock)
        accounts.refuse { _ in AuthError.keystore("refused by the store") }
        await #expect {
            try await signIn(accounts, plainGrant).run(
                .init(resource: Self.resource, options: FlowOptions(), provider: Self.provider, consented: true))
        } throws: {
            ($0 as? AuthError)?.code == .keystoreError
        }
        #expect(accounts.keystore.writes == 0)
        #expect(accounts.keystore.state.users.isEmpty)
    }
}

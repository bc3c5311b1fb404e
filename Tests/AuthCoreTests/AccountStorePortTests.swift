import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The use cases against the account-store port alone: credentials from a fake issuer, an
/// in-memory store that records what it is asked. No socket, no network, no wall clock.
@Suite("Use cases apply credentials through the account store")
struct AccountStorePortTests {
    let directory = NSTemporaryDirectory() + "authctl-test-\(UUID().uuidString)"

    /// `oidc.a` and `oidc.b` configured; every request to a provider fails (a revocation is
    /// reported as failed, never thrown).
    func configStore() async throws -> ConfigStore {
        let store = ConfigStore(storage: InMemoryConfigStorage(path: directory + "/config.json"))
        try await store.update { file in
            for id in ["oidc.a", "oidc.b"] {
                file.providers[id] = ProviderConfig(id: id, clientID: "client-\(id)", issuer: "https://\(id).example")
            }
        }
        return store
    }

    /// The local backend on `store`: credentials from `issuer`, nobody to ask for consent.
    func backend(
        _ store: FakeAccountStore, _ configStore: ConfigStore, _ issuer: StaticCredentialIssuer, events: RecordingEvents = RecordingEvents()
    ) -> LocalAccountBackend {
        LocalAccountBackend(
            accounts: store, configStore: configStore, issuer: issuer, events: events, prompt: RecordingTerminal())
    }

    func credential(_ provider: String, subject: String = "sub-1", warnings: [ProfileWarning] = []) -> Credential {
        var credential = Credential(
            providerID: provider, issuer: "https://\(provider).example", federatedID: subject,
            profile: Profile(email: "ada@example.com", emailVerified: true, displayName: "Ada"),
            tokens: TokenSet(accessToken: nil, expiresAt: nil, refreshToken: nil, idToken: "id-token", scopes: []),
            claims: IDTokenClaims(raw: [:]))
        credential.profileWarnings = warnings
        return credential
    }

    func revocation(_ configStore: ConfigStore, clock: FixedClock) -> TokenRevocation {
        TokenRevocation(
            configStore: configStore,
            tokens: TokenClient(
                transport: StubTransport { _ in throw AuthError.network("offline") }, clock: clock, random: SeededRandom(),
                metadataCache: NoMetadataCache(), secrets: StaticSecrets()))
    }

    func source() -> CredentialSource { .idToken(IDTokenInput("id-token"), rawNonce: nil) }

    @Test("login reports the profile warnings as events, then applies the credential; a pending credential keeps no warning")
    func signInReportsWarnings() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configStore = try await configStore()
        let store = FakeAccountStore()
        let events = RecordingEvents()
        let warning = ProfileWarning.graphRefused(endpoint: "graph.example/v1.0/me", status: 403, errorCode: "Forbidden")
        let issuer = StaticCredentialIssuer([credential("oidc.a", warnings: [warning]), credential("oidc.b", warnings: [warning])])
        let signIn = SignIn(backend: backend(store, configStore, issuer, events: events))

        let output = try await signIn.run(.init(providerID: try ProviderID(parsing: "oidc.a"), source: source()))
        #expect(output.isNewUser && output.providerID == "oidc.a")
        #expect(events.events == [.profileIncomplete(warning)])
        #expect(store.operations == [.signIn(providerID: "oidc.a", pendingHandle: nil)])

        // The same verified email from another provider: refused, the credential kept as pending.
        await #expect { try await signIn.run(.init(providerID: try ProviderID(parsing: "oidc.b"), source: source())) } throws: {
            ($0 as? AuthError)?.code == .accountExistsWithDifferentCredential
        }
        #expect(events.events == [.profileIncomplete(warning), .profileIncomplete(warning)], "reported before the refusal")
        let pending = try #require(store.keystore.state.pendingCredentials.first)
        #expect(pending.credential.profileWarnings.isEmpty)
        #expect(issuer.providers == ["oidc.a", "oidc.b"])
    }

    @Test("a refusal of the store (as a remote backend answers) reaches the caller unchanged, and nothing changes")
    func refusalPassesThrough() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = FakeAccountStore()
        let refusal = AuthError.invalidCredential("the identity provider's answer was refused")
        store.refuse { operation in if case .signIn = operation { refusal } else { nil } }
        let signIn = SignIn(backend: backend(store, try await configStore(), StaticCredentialIssuer([credential("oidc.a")])))
        await #expect(throws: refusal) { try await signIn.run(.init(providerID: try ProviderID(parsing: "oidc.a"), source: source())) }
        #expect(store.keystore.state.users.isEmpty)
    }

    @Test("unlink asks the store what it would remove before the revocation, then removes it from the user resolved at the start")
    func unlinkChecksFirst() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configStore = try await configStore()
        let store = FakeAccountStore()
        let issuer = StaticCredentialIssuer([credential("oidc.a"), credential("oidc.b", subject: "sub-b")])
        let user = try await SignIn(backend: backend(store, configStore, issuer)).run(
            .init(providerID: try ProviderID(parsing: "oidc.a"), source: source())
        ).user
        _ = try await Link(backend: backend(store, configStore, issuer)).run(
            .init(providerID: try ProviderID(parsing: "oidc.b"), source: source()))

        let output = try await Unlink(accounts: store, revocation: revocation(configStore, clock: store.clock)).run(
            providerID: try ProviderID(parsing: "oidc.b"))
        #expect(output.user.providerData.map(\.providerID) == ["oidc.a"])
        #expect(output.revocation == nil, "the identity held no token to revoke")
        #expect(
            store.operations.suffix(2) == [
                .identityToUnlink(providerID: "oidc.b", uid: user.uid), .unlink(providerID: "oidc.b", uid: user.uid),
            ]
        )
    }

    @Test("users delete refused by the store (no recent sign-in) revokes nothing and removes nothing")
    func deleteRefused() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configStore = try await configStore()
        let store = FakeAccountStore()
        _ = try await SignIn(backend: backend(store, configStore, StaticCredentialIssuer([credential("oidc.a")]))).run(
            .init(providerID: try ProviderID(parsing: "oidc.a"), source: source()))
        store.clock.advance(by: 301)
        await #expect {
            try await DeleteUser(accounts: store, revocation: revocation(configStore, clock: store.clock)).run(uid: nil)
        } throws: {
            ($0 as? AuthError)?.code == .requiresRecentLogin
        }
        #expect(store.operations.last == .userToDelete(uid: nil))
        #expect(store.keystore.state.users.count == 1)
    }
}

import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// A keystore on which another process acts between a command's first read and its update
/// (`authctl users use`, `users delete`): deterministic, no race.
final class InterferingKeystore: Keystore, @unchecked Sendable {
    let stored: InMemoryKeystore
    private let lock = NSLock()
    private var interference: ((inout AccountState) -> Void)?

    init(_ stored: InMemoryKeystore, before firstUpdate: @escaping (inout AccountState) -> Void) {
        self.stored = stored
        interference = firstUpdate
    }

    func read() throws -> AccountState { try stored.read() }

    func update<T: Sendable>(_ change: (inout AccountState) async throws -> T) async throws -> T {
        if let interference = lock.withLock({ () -> ((inout AccountState) -> Void)? in
            defer { self.interference = nil }
            return self.interference
        }) {
            try await stored.update { interference(&$0) }
        }
        return try await stored.update(change)
    }
}

@Suite("A command resolves its user once (issue 12, item 14)", .serialized)
struct CurrentUserChangesTests {
    let provider: FakeIdentityProvider

    init() throws { provider = try FakeIdentityProvider() }

    /// Signed in as one user, with a second user in the keystore to switch to.
    func signedIn() async throws -> (TestEnvironment, first: String, second: String) {
        let test = try await TestEnvironment(provider: provider)
        _ = try await test.signIn().run(
            .init(providerID: try ProviderID(parsing: "oidc.fake"), options: FlowOptions(timeout: 60)))
        let first = try #require(test.keystore.state.currentUID)
        let second = "second-user-uid-000000000000"
        try await test.keystore.update { state in
            var other = try #require(state.currentUser)
            other.uid = second
            other.providerData = []
            state.users.append(other)
        }
        return (test, first, second)
    }

    func keystore(_ test: TestEnvironment, interference: @escaping (inout AccountState) -> Void) -> any Keystore {
        InterferingKeystore(test.keystore, before: interference)
    }

    @Test("token --force-refresh while another process runs users use: the token of the user it started with, refreshed and stored")
    func tokenWhileUsersUse() async throws {
        let (test, first, second) = try await signedIn()
        defer { try? FileManager.default.removeItem(atPath: test.directory) }
        let old = try #require(test.keystore.state.currentUser?.providerData.first?.tokens)
        let interfering = keystore(test) { $0.currentUID = second }
        let output = try await test.tokenRefresh(keystore: interfering).run(.init(forceRefresh: true))
        #expect(output.refreshed && output.token != old.accessToken)
        let state = test.keystore.state
        #expect(state.currentUID == second, "the other process's choice stays")
        let stored = state.users.first { $0.uid == first }?.providerData.first?.tokens
        #expect(stored?.accessToken == output.token, "the refresh is stored with the user it belongs to")
        #expect(stored?.refreshToken != old.refreshToken)
    }

    @Test("token --force-refresh while another process deletes the user: a clear error, not no-current-user, nothing stored")
    func tokenWhileUserDeleted() async throws {
        let (test, first, _) = try await signedIn()
        defer { try? FileManager.default.removeItem(atPath: test.directory) }
        let interfering = keystore(test) { state in
            state.users.removeAll { $0.uid == first }
            state.currentUID = nil
        }
        await #expect { try await test.tokenRefresh(keystore: interfering).run(.init(forceRefresh: true)) } throws: {
            guard let error = $0 as? AuthError else { return false }
            return error.code == .invalidCredential && error.message.contains("removed")
        }
        #expect(test.keystore.state.users.allSatisfy { $0.uid != first })
    }

    @Test("signout while another process runs users use: the user it started with is signed out, the other one is not")
    func signOutWhileUsersUse() async throws {
        let (test, first, second) = try await signedIn()
        defer { try? FileManager.default.removeItem(atPath: test.directory) }
        try await test.keystore.update { state in
            // The second user holds tokens too, so that signing it out by mistake would show.
            state.users[1].providerData = state.users[0].providerData
        }
        let interfering = keystore(test) { $0.currentUID = second }
        let output = try await test.signOut(keystore: interfering).run(.init())
        #expect(output.signedOut == [first])
        let state = test.keystore.state
        #expect(state.users.first { $0.uid == first }?.providerData.allSatisfy { $0.tokens == nil } == true)
        #expect(state.users.first { $0.uid == second }?.providerData.allSatisfy { $0.tokens != nil } == true)
        #expect(state.currentUID == second)
    }

    @Test("reauth while another process runs users use: the user it started with is reauthenticated")
    func reauthWhileUsersUse() async throws {
        let (test, first, second) = try await signedIn()
        defer { try? FileManager.default.removeItem(atPath: test.directory) }
        let interfering = keystore(test) { $0.currentUID = second }
        let user = try await test.reauthenticate(keystore: interfering).run(
            .init(providerID: try ProviderID(parsing: "oidc.fake"), source: .interactive(FlowOptions(timeout: 60))))
        #expect(user.uid == first)
        #expect(test.keystore.state.currentUID == second)
    }

    @Test("link while another process runs users use: the identity joins the user it started with, not the one made current meanwhile")
    func linkWhileUsersUse() async throws {
        let (test, first, second) = try await signedIn()
        defer { try? FileManager.default.removeItem(atPath: test.directory) }
        let home = try FakeIdentityProvider()
        var behaviour = home.behaviour
        behaviour.subject = "home-subject-1"
        home.behaviour = behaviour
        try await test.configStore.update { file in
            file.providers["oidc.home"] = ProviderConfig(id: "oidc.home", clientID: home.clientID, issuer: home.issuer)
        }
        let interfering = keystore(test) { $0.currentUID = second }
        let output = try await test.link(keystore: interfering).run(
            .init(providerID: try ProviderID(parsing: "oidc.home"), source: .interactive(FlowOptions(timeout: 60))))
        #expect(output.user.uid == first)
        let state = test.keystore.state
        #expect(state.users.first { $0.uid == first }?.providerData.map(\.providerID) == ["oidc.fake", "oidc.home"])
        #expect(state.users.first { $0.uid == second }?.providerData.isEmpty == true, "the other user got nothing")
        #expect(state.currentUID == second, "the other process's choice stays")
    }
}

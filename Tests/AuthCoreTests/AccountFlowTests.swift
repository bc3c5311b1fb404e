import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// login, link, reauth, unlink, users delete and the ID-token sign-in as use cases: real
/// browser flows against two in-process providers, an in-memory keystore that counts writes.
@Suite("Account operations through real flows", .serialized)
struct AccountFlowTests {
    let work: FakeIdentityProvider
    let home: FakeIdentityProvider
    let clock = FixedClock(Date())

    init() throws {
        work = try FakeIdentityProvider()
        home = try FakeIdentityProvider()
        var behaviour = home.behaviour
        behaviour.subject = "home-subject-1"
        home.behaviour = behaviour
    }

    func environment() async throws -> TestEnvironment {
        let test = try await TestEnvironment(provider: work, providerID: "oidc.work", clock: clock)
        let home = self.home
        try await test.configStore.update { file in
            file.providers["oidc.home"] = ProviderConfig(id: "oidc.home", clientID: home.clientID, issuer: home.issuer)
        }
        return test
    }

    let browser = CredentialSource.interactive(FlowOptions(timeout: 60))

    func login(_ test: TestEnvironment, _ provider: String, source: CredentialSource? = nil) async throws -> SignIn.Output {
        try await test.signIn().run(.init(providerID: try ProviderID(parsing: provider), source: source ?? browser))
    }

    func link(_ test: TestEnvironment, _ provider: String?, source: CredentialSource? = nil) async throws -> Link.Output {
        try await test.link().run(
            .init(providerID: try provider.map(ProviderID.init(parsing:)), source: source ?? browser))
    }

    /// Runs `operation`, expects `code`, and proves the keystore is as it was (or, where
    /// docs/accounts.md says so, that only a pending credential was added). Returns the error.
    @discardableResult
    func expectRefusal(
        _ code: AuthError.Code, _ test: TestEnvironment, savesPending: Bool = false, _ operation: () async throws -> Void
    ) async -> AuthError? {
        let before = test.keystore.state
        do {
            try await operation()
            Issue.record("succeeded; expected \(code)")
            return nil
        } catch let error as AuthError {
            #expect(error.code == code, "\(error)")
            var after = test.keystore.state
            if savesPending {
                #expect(after.pendingCredentials.count == before.pendingCredentials.count + 1)
                after.pendingCredentials = before.pendingCredentials
            }
            #expect(after == before, "a refused operation leaves the keystore as it was")
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test("login, link a second provider, reauth, unlink: one user throughout")
    func linkLifecycle() async throws {
        let test = try await environment()
        var behaviour = home.behaviour
        behaviour.email = "ada@home.example"
        home.behaviour = behaviour
        let first = try await login(test, "oidc.work")
        let linked = try await link(test, "oidc.home")
        #expect(linked.user.uid == first.user.uid)
        #expect(linked.user.providerData.map(\.providerID) == ["oidc.work", "oidc.home"])
        #expect(linked.user.email == "ada@example.com", "linking never replaces the user's email")

        clock.advance(by: 120)
        let reauthenticated = try await test.reauthenticate().run(
            .init(providerID: try ProviderID(parsing: "oidc.home"), source: browser))
        #expect(reauthenticated.lastAuthAt.timeIntervalSince(first.user.lastAuthAt) >= 119)
        #expect(reauthenticated.lastSignInAt == first.user.lastSignInAt)

        let unlinked = try await test.unlink().run(providerID: try ProviderID(parsing: "oidc.home"))
        #expect(unlinked.user.providerData.map(\.providerID) == ["oidc.work"])
        #expect(unlinked.revocation?.result == .revoked && home.revoked.count == 1, "the unlinked identity's refresh token is revoked")
        #expect(test.keystore.state.users.count == 1)
    }

    @Test("the account-exists conflict, then link --pending after signing in with the existing provider")
    func accountExistsResolved() async throws {
        let test = try await environment()
        _ = try await login(test, "oidc.work")
        _ = try await test.signOut().run(.init())
        let error = await expectRefusal(.accountExistsWithDifferentCredential, test, savesPending: true) {
            _ = try await login(test, "oidc.home")
        }
        let handle = try #require(error?.details["pendingCredential"]?.stringValue)
        #expect(error?.details["providerIds"] == ["oidc.work"] && error?.details["email"] == "ada@example.com")

        // Linking needs someone signed in first; that refusal keeps the pending credential.
        await expectRefusal(.noCurrentUser, test) { _ = try await link(test, nil, source: .pending(handle: handle)) }
        let authorizeCount = home.count("authorize")
        _ = try await login(test, "oidc.work")
        let linked = try await link(test, nil, source: .pending(handle: handle))
        #expect(linked.user.providerData.map(\.providerID) == ["oidc.work", "oidc.home"])
        #expect(home.count("authorize") == authorizeCount, "the pending credential needs no new sign-in at its provider")
        #expect(test.keystore.state.pendingCredentials.isEmpty)
        await expectRefusal(.invalidArgument, test) { _ = try await link(test, nil, source: .pending(handle: handle)) }
    }

    @Test("link with an identity of another user: credential-already-in-use, then login --credential signs in to that user")
    func credentialInUseResolved() async throws {
        let test = try await environment()
        var behaviour = home.behaviour
        behaviour.email = "someone@else.example"
        home.behaviour = behaviour
        let other = try await login(test, "oidc.home")
        let ada = try await login(test, "oidc.work")
        #expect(other.user.uid != ada.user.uid)
        let error = await expectRefusal(.credentialAlreadyInUse, test, savesPending: true) { _ = try await link(test, "oidc.home") }
        #expect(error?.details["uid"]?.stringValue == other.user.uid)
        let handle = try #require(error?.details["pendingCredential"]?.stringValue)
        let switched = try await test.signIn().run(.init(providerID: nil, source: .pending(handle: handle)))
        #expect(switched.user.uid == other.user.uid && test.keystore.state.currentUID == other.user.uid)
    }

    @Test("refusals that need no sign-in come before the browser opens")
    func prechecks() async throws {
        let test = try await environment()
        await expectRefusal(.noCurrentUser, test) { _ = try await link(test, "oidc.home") }
        _ = try await login(test, "oidc.work")
        let authorizations = work.count("authorize")
        await expectRefusal(.providerAlreadyLinked, test) { _ = try await link(test, "oidc.work") }
        await expectRefusal(.noSuchProvider, test) {
            _ = try await test.reauthenticate().run(
                .init(providerID: try ProviderID(parsing: "oidc.home"), source: browser))
        }
        #expect(work.count("authorize") == authorizations && home.count("authorize") == 0)
    }

    @Test("reauth with another account at the same provider: user-mismatch, keystore unchanged")
    func reauthMismatch() async throws {
        let test = try await environment()
        _ = try await login(test, "oidc.work")
        var behaviour = work.behaviour
        behaviour.subject = "another-person"
        work.behaviour = behaviour
        await expectRefusal(.userMismatch, test) {
            _ = try await test.reauthenticate().run(
                .init(providerID: try ProviderID(parsing: "oidc.work"), source: browser))
        }
    }

    @Test("users delete needs a recent sign-in, then revokes and removes the user")
    func deleteUser() async throws {
        let test = try await environment()
        _ = try await login(test, "oidc.work")
        clock.advance(by: 301)
        await expectRefusal(.requiresRecentLogin, test) { _ = try await test.deleteUser().run(uid: nil) }
        _ = try await test.reauthenticate().run(
            .init(providerID: try ProviderID(parsing: "oidc.work"), source: browser))
        let output = try await test.deleteUser().run(uid: nil)
        #expect(output.revocations.map(\.result) == [.revoked] && work.revoked.count == 1)
        #expect(test.keystore.state.users.isEmpty && test.keystore.state.currentUID == nil)
    }

    @Test("login --id-token validates the token fully: signature, audience, issuer, nonce when given")
    func idTokenSignIn() async throws {
        let test = try await environment()
        let behaviour = work.behaviour
        let good = work.idToken(behaviour, nonce: "raw-nonce-1", subject: "id-token-user")
        let output = try await login(test, "oidc.work", source: .idToken(IDTokenInput(good + "\n"), rawNonce: "raw-nonce-1"))
        #expect(output.isNewUser && output.user.providerData[0].federatedID == "id-token-user")
        let tokens = try #require(output.user.providerData[0].tokens)
        #expect(tokens.accessToken == nil && tokens.refreshToken == nil && tokens.idToken == good)
        let printed = try await test.tokenRefresh().run(.init(idToken: true))
        #expect(printed.token == good)
        await expectRefusal(.invalidArgument, test) { _ = try await test.tokenRefresh().run(.init()) }

        await expectRefusal(.invalidCredential, test) {
            _ = try await login(test, "oidc.work", source: .idToken(IDTokenInput(good), rawNonce: "another-nonce"))
        }
        var foreign = behaviour
        foreign.idTokenAudience = "someone-elses-client"
        await expectRefusal(.invalidCredential, test) {
            _ = try await login(
                test, "oidc.work", source: .idToken(IDTokenInput(work.idToken(foreign, nonce: nil, subject: "x")), rawNonce: nil))
        }
        var unpublished = behaviour
        unpublished.signWithUnpublishedKey = true
        await expectRefusal(.invalidCredential, test) {
            _ = try await login(
                test, "oidc.work", source: .idToken(IDTokenInput(work.idToken(unpublished, nonce: nil, subject: "x")), rawNonce: nil))
        }
        // A token of the other provider, presented as oidc.work's: wrong issuer.
        await expectRefusal(.invalidCredential, test) {
            _ = try await login(
                test, "oidc.work", source: .idToken(IDTokenInput(home.idToken(home.behaviour, nonce: nil, subject: "x")), rawNonce: nil))
        }
        await expectRefusal(.invalidArgument, test) {
            _ = try await login(test, "oidc.work", source: .idToken(IDTokenInput("  \n"), rawNonce: nil))
        }
    }
}

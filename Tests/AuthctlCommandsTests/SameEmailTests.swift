import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Issue 38, item 10: the same email at a second provider that does not say it verified it
/// (no `email_verified`) makes a second user (docs/accounts.md). The sign-in says so, and how to
/// have one user instead; `users use` names the users of an email and takes a uid.
@Suite("the same email at a second provider", .serialized)
final class SameEmailTests {
    let first: FakeIdentityProvider
    let second: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws {
        first = try FakeIdentityProvider()
        second = try FakeIdentityProvider()
        second.update {
            $0.subject = "someone-else"
            $0.emailVerified = .null  // no email_verified claim
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func setUp() async throws {
        for (id, provider) in [("oidc.first", first), ("oidc.second", second)] {
            let added = try await authctl.run(["providers", "add", id, "--issuer", provider.issuer, "--client-id", provider.clientID])
            #expect(added.status == 0, "\(added.stderr)")
        }
    }

    @Test("a second user with an email another user has: a notice names that user and how to link instead; users use EMAIL lists both uids")
    func noticeAtSignIn() async throws {
        try await setUp()
        let one = try await authctl.run(["--json", "login", "oidc.first", "--timeout", "120"])
        #expect(one.status == 0, "\(one.stderr)")
        let firstUID = try #require(one.json?["user"]?.objectValue?["uid"]?.stringValue)
        #expect(!one.stderr.contains("already"), "no notice for the first user: \(one.stderr)")
        let two = try await authctl.run(["--json", "login", "oidc.second", "--timeout", "120"])
        #expect(two.status == 0, "\(two.stderr)")
        let secondUID = try #require(two.json?["user"]?.objectValue?["uid"]?.stringValue)
        #expect(firstUID != secondUID && two.json?["isNewUser"] == .bool(true))
        #expect(two.stderr.contains("ada@example.com") && two.stderr.contains(firstUID), "\(two.stderr)")
        #expect(two.stderr.contains("authctl link oidc.second"), "how to link instead: \(two.stderr)")
        #expect(two.stderr.contains("authctl users delete \(secondUID)"), "how to drop the second user: \(two.stderr)")
        let ambiguous = try await authctl.run(["users", "use", "ada@example.com"])
        #expect(ambiguous.status == 2 && ambiguous.stderr.contains(firstUID) && ambiguous.stderr.contains(secondUID), "\(ambiguous.stderr)")
        let byUID = try await authctl.run(["users", "use", firstUID])
        #expect(byUID.status == 0, "\(byUID.stderr)")
    }

    @Test("the merge the notice suggests works as written: delete the second user, sign in as the first, link the provider")
    func mergePathWorks() async throws {
        try await setUp()
        let firstUID = try #require(
            try await authctl.run(["--json", "login", "oidc.first", "--timeout", "120"]).json?["user"]?.objectValue?["uid"]?.stringValue)
        let secondUID = try #require(
            try await authctl.run(["--json", "login", "oidc.second", "--timeout", "120"]).json?["user"]?.objectValue?["uid"]?.stringValue)
        for step in [
            ["users", "delete", secondUID, "--yes"], ["login", "oidc.first", "--timeout", "120"],
            ["link", "oidc.second", "--timeout", "120"],
        ] {
            let result = try await authctl.run(step)
            #expect(result.status == 0, "\(step): \(result.stderr)")
        }
        let list = try #require(try await authctl.run(["--json", "users", "list"]).json?["users"]?.arrayValue)
        #expect(list.count == 1 && list.first?.objectValue?["uid"]?.stringValue == firstUID, "\(list)")
        #expect(list.first?.objectValue?["providerData"]?.arrayValue?.count == 2, "\(list)")
    }
}

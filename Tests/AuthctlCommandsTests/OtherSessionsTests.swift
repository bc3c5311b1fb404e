import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Several users in one keystore (issue 25, items 5 and 16): when the current user signs out
/// and another still has a session, `status` and `signout` say who and how to switch; `users
/// list` shows who has a session; `users use` takes an email; `signout` with nobody signed
/// in answers the same with and without `--all`.
@Suite("other users' sessions", .serialized)
final class OtherSessionsTests {
    let work: FakeIdentityProvider
    let other: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws {
        work = try FakeIdentityProvider()
        other = try FakeIdentityProvider()
        other.behaviour.subject = "other-1"
        other.behaviour.email = "grace@example.com"
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// Ada signs in with oidc.work, then Grace with oidc.other (the current user); their uids.
    func twoUsers() async throws -> (ada: String, grace: String) {
        for (name, provider) in [("oidc.work", work), ("oidc.other", other)] {
            try await authctl.run(["providers", "add", name, "--issuer", provider.issuer, "--client-id", provider.clientID]).expectSuccess()
        }
        let ada = try await authctl.run(["login", "oidc.work", "--timeout", "120", "--json"])
        let grace = try await authctl.run(["login", "oidc.other", "--timeout", "120", "--json"])
        let adaUID = try #require(ada.json?["user"]?.objectValue?["uid"]?.stringValue, "\(ada.stderr)")
        let graceUID = try #require(grace.json?["user"]?.objectValue?["uid"]?.stringValue, "\(grace.stderr)")
        return (adaUID, graceUID)
    }

    @Test("after the current user signs out, signout and status name the user who still has a session and users use UID")
    func signOutNamesOtherSession() async throws {
        let (ada, _) = try await twoUsers()
        let signedOut = try await authctl.run(["signout"])
        #expect(signedOut.status == 0, "\(signedOut.stderr)")
        #expect(
            signedOut.stdout.contains("ada@example.com") && signedOut.stdout.contains("authctl users use \(ada)"), "\(signedOut.stdout)")
        let status = try await authctl.run(["status"])
        #expect(status.status == 16, "\(status.stderr)")
        #expect(status.stderr.contains("ada@example.com") && status.stderr.contains("authctl users use \(ada)"), "\(status.stderr)")
        let json = try await authctl.run(["status", "--json"])
        #expect(json.json?["otherSessions"]?.arrayValue?.first?.objectValue?["uid"] == .string(ada), "\(json.stdout)")
    }

    @Test("users list shows who has a session (a column, and hasSession in JSON)")
    func listShowsSessions() async throws {
        let (ada, grace) = try await twoUsers()
        try await authctl.run(["signout"]).expectSuccess()
        let list = try await authctl.run(["users", "list"], terminals: InProcessAuthctl.Terminals(stdout: true))  // with its header
        #expect(list.stdout.contains("SESSION"), "\(list.stdout)")
        let adaLine = list.stdout.split(separator: "\n").first { $0.contains(ada) } ?? ""
        let graceLine = list.stdout.split(separator: "\n").first { $0.contains(grace) } ?? ""
        #expect(adaLine.hasSuffix("yes") && graceLine.hasSuffix("signed out"), "\(list.stdout)")
        let json = try await authctl.run(["users", "list", "--json"])
        let users = json.json?["users"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(users.first { $0["uid"] == .string(ada) }?["hasSession"] == .bool(true), "\(json.stdout)")
        #expect(users.first { $0["uid"] == .string(grace) }?["hasSession"] == .bool(false), "\(json.stdout)")
    }

    @Test("users use takes the email of exactly one user")
    func useByEmail() async throws {
        let (ada, _) = try await twoUsers()
        let used = try await authctl.run(["users", "use", "ADA@example.com", "--json"])
        #expect(used.status == 0, "\(used.stderr)")
        #expect(used.json?["user"]?.objectValue?["uid"] == .string(ada), "\(used.stdout)")
    }

    @Test("users use with an email several users have exits 2 listing their uids, and changes nothing")
    func useByAmbiguousEmail() async throws {
        let (ada, _) = try await twoUsers()
        // A second Ada, signed out, from an export whose uid and identity are changed.
        let exported = try await authctl.run(["users", "export"])
        let twin = "Twin0Ada0uid0000000000000000"
        let file = authctl.home + "/twin.json"
        try Data(exported.stdout.replacingOccurrences(of: ada, with: twin).replacingOccurrences(of: "248289761001", with: "twin-1").utf8)
            .write(to: URL(fileURLWithPath: file))
        try await authctl.run(["users", "import", file]).expectSuccess()
        let before = authctl.keystoreBytes()
        let result = try await authctl.run(["users", "use", "ada@example.com"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(ada) && result.stderr.contains(twin), "\(result.stderr)")
        #expect(authctl.keystoreBytes() == before)
    }

    @Test("signout with nobody signed in answers the same with and without --all: exit 0, nothing changed")
    func signOutNobody() async throws {
        try await authctl.run(["providers", "add", "oidc.work", "--issuer", work.issuer, "--client-id", work.clientID]).expectSuccess()
        try await authctl.run(["login", "oidc.work", "--timeout", "120"]).expectSuccess()
        try await authctl.run(["signout"]).expectSuccess()
        let plain = try await authctl.run(["signout"])
        let all = try await authctl.run(["signout", "--all"])
        #expect(plain.status == 0 && all.status == 0, "\(plain.stderr) / \(all.stderr)")
        #expect(plain.stdout == all.stdout && plain.stderr == all.stderr, "\(plain.stdout) / \(all.stdout)")
        #expect(plain.stdout.contains("Nobody was signed in"), "\(plain.stdout)")
    }
}

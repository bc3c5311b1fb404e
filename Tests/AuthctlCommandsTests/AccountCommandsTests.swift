import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The account commands, each step its own invocation of the entry point (sharing nothing but
/// the files, as processes do), against in-process providers: the conflict of docs/accounts.md is
/// resolved across invocations.
@Suite("authctl account commands end to end", .serialized)
final class AccountCommandsTests {
    let work: FakeIdentityProvider
    let home: FakeIdentityProvider
    let other: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws {
        work = try FakeIdentityProvider()
        home = try FakeIdentityProvider()
        other = try FakeIdentityProvider()
        home.behaviour.subject = "home-1"
        other.behaviour.subject = "other-1"
        other.behaviour.email = "grace@example.com"
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func setUp() async throws {
        for (name, provider) in [("oidc.work", work), ("oidc.home", home), ("oidc.other", other)] {
            let result = try await authctl.run(["providers", "add", name, "--issuer", provider.issuer, "--client-id", provider.clientID])
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    func run(_ arguments: [String], stdin: Data? = nil) async throws -> InProcessAuthctl.Result {
        let flows: Set<String> = ["login", "link", "reauth"]
        let browser =
            flows.contains(arguments[0]) && !arguments.contains("--credential") && !arguments.contains("--pending")
                && !arguments.contains("--id-token")
            ? ["--timeout", "120"] : []
        return try await authctl.run(arguments + browser, stdin: stdin)
    }

    /// Runs a command that must fail with `status`, and proves the keystore file did not
    /// change, or (when `savesPending`) that only a pending credential was added.
    func expectFailure(_ arguments: [String], status: Int32, savesPending: Bool = false, stdin: Data? = nil) async throws
        -> InProcessAuthctl.Result
    {
        let before = authctl.keystoreBytes()
        let result = try await run(arguments + ["--json"], stdin: stdin)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.last?.hasPrefix("authctl: ") == true && lines.filter { $0.hasPrefix("authctl: ") }.count == 1, "one error line")
        let after = authctl.keystoreBytes()
        if savesPending {
            let beforeState = before.map { JSONValue.object(from: $0) }
            var afterState = after.flatMap { JSONValue.object(from: $0) }
            #expect((afterState?["pendingCredentials"]?.arrayValue?.count ?? 0) == 1)
            afterState?["pendingCredentials"] = nil
            #expect(afterState == beforeState ?? nil, "nothing but the pending credential changed")
        } else {
            #expect(after == before, "\(arguments) left the keystore byte-for-byte as it was")
        }
        return result
    }

    func error(_ result: InProcessAuthctl.Result) -> [String: JSONValue] { result.json?["error"]?.objectValue ?? [:] }

    @Test("login, link, reauth, unlink, the account-exists conflict resumed with link --pending, all in separate processes")
    func conflictResumedAcrossProcesses() async throws {
        try await setUp()
        let login = try await run(["login", "oidc.work", "--json"])
        #expect(login.status == 0, "\(login.stderr)")
        let uid = try #require(login.json?["user"]?.objectValue?["uid"]?.stringValue)

        let linked = try await run(["link", "oidc.home", "--json"])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.json?["user"]?.objectValue?["providerData"]?.arrayValue?.count == 2)
        #expect(linked.json?["isNewUser"] == .bool(false))

        let reauth = try await run(["reauth", "oidc.work"])
        #expect(reauth.status == 0 && reauth.stdout.contains("Reauthenticated"), "\(reauth.stderr)")

        let unlink = try await run(["unlink", "oidc.home"])
        #expect(unlink.status == 0, "\(unlink.stderr)")
        #expect(unlink.stderr.contains("revoked the oidc.home refresh token") && home.revoked.count == 1)

        // oidc.home is unknown again, and its verified email is the user's: exit 10, pending saved.
        let conflict = try await expectFailure(["login", "oidc.home"], status: 10, savesPending: true)
        let details = error(conflict)
        #expect(details["code"] == "account-exists-with-different-credential")
        #expect(details["email"] == "ada@example.com" && details["providerIds"] == ["oidc.work"] && details["uid"] == .string(uid))
        let handle = try #require(details["pendingCredential"]?.stringValue)
        #expect(handle.hasPrefix("pc_"))
        #expect(conflict.stderr.contains("authctl link --pending \(handle)"))
        let keystore = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        for secret in home.issuedSecrets where secret.count > 8 {
            #expect(!conflict.stderr.contains(secret) && !conflict.stdout.contains(secret))
        }
        #expect(keystore.contains(handle))

        // The next processes: sign in with the existing provider, then link the pending credential.
        let authorizations = home.count("authorize")
        #expect(try await run(["login", "oidc.work"]).status == 0)
        let resumed = try await run(["link", "--pending", handle, "--json"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.json?["providerId"] == "oidc.home")
        #expect(resumed.json?["user"]?.objectValue?["uid"] == .string(uid))
        #expect(home.count("authorize") == authorizations, "no second sign-in at oidc.home")
        #expect(!String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self).contains(handle), "used once")
        _ = try await expectFailure(["link", "--pending", handle], status: 2)

        let status = try await run(["status", "--json"])
        let providers = status.json?["user"]?.objectValue?["providerData"]?.arrayValue?.compactMap { $0.objectValue?["providerId"] }
        #expect(providers == ["oidc.work", "oidc.home"])
    }

    @Test("the account-exists advice asks for a sign-in first only when the existing account is not the one signed in")
    func conflictAdviceFitsWhoIsSignedIn() async throws {
        try await setUp()
        #expect(try await run(["login", "oidc.work"]).status == 0)
        // The existing account is the current user: link --pending alone finishes it.
        let signedIn = try await expectFailure(["login", "oidc.home"], status: 10, savesPending: true)
        let handle = try #require(error(signedIn)["pendingCredential"]?.stringValue)
        #expect(signedIn.stderr.contains("authctl link --pending \(handle)"), "\(signedIn.stderr)")
        #expect(!signedIn.stderr.contains("authctl login oidc.work"), "no second sign-in for who is signed in: \(signedIn.stderr)")
        #expect(try await run(["link", "--pending", handle]).status == 0)
        // Nobody signed in: the sign-in with the existing provider comes first.
        #expect(try await run(["unlink", "oidc.home"]).status == 0)
        #expect(try await run(["signout"]).status == 0)
        let signedOut = try await run(["login", "oidc.home", "--json"])
        #expect(signedOut.status == 10, "\(signedOut.stderr)")
        let second = try #require(error(signedOut)["pendingCredential"]?.stringValue)
        #expect(signedOut.stderr.contains("authctl login oidc.work"), "\(signedOut.stderr)")
        #expect(signedOut.stderr.contains("authctl link --pending \(second)"), "\(signedOut.stderr)")
    }

    @Test("credential-already-in-use, then login --credential; every other error row with its exit code and the keystore unchanged")
    func errorRows() async throws {
        try await setUp()
        _ = try await expectFailure(["link", "oidc.home"], status: 16)
        _ = try await expectFailure(["unlink", "oidc.home"], status: 16)
        let grace = try await run(["login", "oidc.other", "--json"])
        let graceUID = try #require(grace.json?["user"]?.objectValue?["uid"]?.stringValue)
        #expect(try await run(["login", "oidc.work"]).status == 0)

        _ = try await expectFailure(["link", "oidc.work"], status: 12)
        _ = try await expectFailure(["unlink", "oidc.home"], status: 13)
        _ = try await expectFailure(["reauth", "oidc.home"], status: 13)
        _ = try await expectFailure(["unlink", "oidc.work"], status: 2)
        _ = try await expectFailure(["link", "--pending", "pc_doesnotexist000000"], status: 2)
        _ = try await expectFailure(["login", "oidc.work", "--id-token", "eyJhbGciOi.x.y"], status: 2)

        work.behaviour.subject = "somebody-else"
        _ = try await expectFailure(["reauth", "oidc.work"], status: 14)
        work.behaviour.subject = "248289761001"

        let inUse = try await expectFailure(["link", "oidc.other"], status: 11, savesPending: true)
        #expect(error(inUse)["uid"] == .string(graceUID))
        let handle = try #require(error(inUse)["pendingCredential"]?.stringValue)
        #expect(inUse.stderr.contains("authctl login --credential \(handle)"))
        let switched = try await run(["login", "--credential", handle, "--json"])
        #expect(switched.status == 0, "\(switched.stderr)")
        #expect(switched.json?["user"]?.objectValue?["uid"] == .string(graceUID))
    }

    @Test("login --id-token - reads stdin; users delete needs a recent sign-in; export and import round-trip")
    func idTokenDeleteExportImport() async throws {
        try await setUp()
        let token = work.idToken(work.behaviour, nonce: "n-123", subject: "from-elsewhere")
        let viaStdin = try await run(["login", "oidc.work", "--id-token", "-", "--raw-nonce", "n-123", "--json"], stdin: Data(token.utf8))
        #expect(viaStdin.status == 0, "\(viaStdin.stderr)")
        #expect(viaStdin.json?["user"]?.objectValue?["providerData"]?.arrayValue?.first?.objectValue?["federatedId"] == "from-elsewhere")
        #expect(!viaStdin.stdout.contains(token) && !viaStdin.stderr.contains(token))
        let idToken = try await run(["token", "--id-token"])
        #expect(idToken.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == token)
        _ = try await expectFailure(["token"], status: 2)
        _ = try await expectFailure(["login", "oidc.work", "--id-token", "-"], status: 2)  // nothing on stdin
        _ = try await expectFailure(["login", "oidc.work", "--id-token", "-", "--raw-nonce", "wrong"], status: 4, stdin: Data(token.utf8))

        #expect(try await run(["signout"]).status == 0)
        #expect(try await run(["login", "oidc.other"]).status == 0)
        let exported = try await run(["users", "export"])
        #expect(exported.status == 0)
        #expect(!exported.stdout.contains("accessToken") && !exported.stdout.contains("refreshToken"))
        let firebase = try await run(["users", "export", "--format", "firebase"])
        #expect(JSONValue.object(from: Data(firebase.stdout.utf8))?["users"]?.arrayValue?.count == 2)

        let file = authctl.home + "/users.json"
        try Data(exported.stdout.utf8).write(to: URL(fileURLWithPath: file))
        let deleted = try await run(["users", "delete", "--json"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.json?["revocations"]?.arrayValue?.first?.objectValue?["result"] == "revoked")
        let imported = try await run(["users", "import", file, "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.json?["imported"]?.arrayValue?.count == 1 && imported.json?["unchanged"]?.arrayValue?.count == 1)
        let again = try await run(["users", "export"])
        #expect(again.stdout == exported.stdout, "export → delete → import → export is identical")
        let list = try await run(["users", "list", "--json"])
        #expect(list.json?["users"]?.arrayValue?.count == 2 && list.json?["currentUid"] == .null)
    }

    @Test("users import refuses a file over 64 MiB before reading it, and a directory, naming it (exit 2, keystore unchanged)")
    func importOfAHugeFile() async throws {
        let file = authctl.home + "/huge.json"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("{".utf8)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: 300 << 20)  // sparse: 300 MB that take no disk
        try handle.close()
        let result = try await run(["users", "import", file])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("64 MiB") && result.stderr.contains(file), "\(result.stderr)")
        #expect(authctl.keystoreBytes() == nil)
        let directory = try await run(["users", "import", authctl.home])
        #expect(directory.status == 2 && directory.stderr.contains(authctl.home), "\(directory.stderr)")
    }
}

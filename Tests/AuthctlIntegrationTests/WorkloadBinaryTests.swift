import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `login --client-credentials` with the real binary (docs/ci.md): a
/// CI job signs in as itself with a client secret, and `token` runs the grant again.
@Suite("workloads: client credentials with a secret", .serialized)
final class WorkloadBinaryTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()
    let secret = "s3cr3t-" + UUID().uuidString
    let clientID = "ci-workload"

    init() throws {
        provider = try FakeIdentityProvider()
        provider.behaviour.workloads = [WorkloadRegistration(clientID: clientID, secret: secret)]
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    var environment: [String: String] { ["CI_SECRET": secret] }

    func login(_ extra: [String] = [], environment: [String: String]? = nil) async throws -> AuthctlProcess.Result {
        try await authctl.run(
            ["login", "oidc.fake", "--client-credentials", "--client-id", clientID, "--client-secret-env", "CI_SECRET"] + extra,
            environment: environment ?? self.environment)
    }

    func keystoreJSON() -> [String: JSONValue]? { authctl.keystoreBytes().flatMap(JSONValue.object(from:)) }

    @Test("login makes a workload user that stores where the secret is, never the secret; status, users list and --json say workload")
    func loginWithSecret() async throws {
        try await authctl.addFakeProvider(provider)
        let first = try await login(["--scope", "api.read", "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.json?["isNewUser"] == .bool(true))
        let user = first.json?["user"]?.objectValue
        #expect(user?["kind"] == .string("workload"))
        guard case .array(let identities)? = user?["providerData"], let identity = identities.first?.objectValue else {
            Issue.record("no providerData: \(first.stdout)")
            return
        }
        #expect(identity["federatedId"] == .string(clientID))
        #expect(identity["refreshable"] == .bool(false))
        #expect(identity["authentication"] == .string("client secret from $CI_SECRET"))
        let bytes = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        #expect(!bytes.contains(secret), "the secret's value is never stored")
        #expect(bytes.contains("\"clientSecretEnv\"") && bytes.contains("\"kind\""))
        #expect(!first.stdout.contains(secret) && !first.stderr.contains(secret))
        #expect(provider.count("client_credentials") == 1)

        let status = try await authctl.run(["status"])
        #expect(status.status == 0 && status.stdout.contains("kind:       workload"), "\(status.stdout)")
        #expect(status.stdout.hasPrefix("Signed in as the workload \(clientID)"), "named by its client id, not its uid: \(status.stdout)")
        let statusJSON = try await authctl.run(["status", "--json"])
        #expect(statusJSON.json?["user"]?.objectValue?["kind"] == .string("workload"))
        let list = try await authctl.run(["users", "list"])
        #expect(list.stdout.contains("(workload)"), "\(list.stdout)")

        // The same workload signs in again: the same user.
        let again = try await login(["--json"])
        #expect(again.status == 0 && again.json?["isNewUser"] == .bool(false), "\(again.stderr)")
        #expect(again.json?["user"]?.objectValue?["uid"] == user?["uid"])
    }

    @Test("token serves the workload's token, runs the grant again near expiry, and keeps tokens per scope")
    func tokenRunsTheGrantAgain() async throws {
        try await authctl.addFakeProvider(provider)
        #expect(try await login(["--scope", "api.read"]).status == 0)
        let first = try await authctl.run(["token"], environment: environment)
        #expect(first.status == 0 && first.stdout.hasPrefix("wat-"), "\(first.stderr)")
        let cached = try await authctl.run(["token"], environment: environment)
        #expect(cached.stdout == first.stdout, "a valid token is served as is")
        #expect(provider.count("client_credentials") == 1)
        let renewed = try await authctl.run(["token", "--min-ttl", "7200", "--format", "json"], environment: environment)
        #expect(renewed.status == 0, "\(renewed.stderr)")
        #expect(renewed.json?["accessToken"]?.stringValue != first.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(provider.count("client_credentials") == 2, "the grant ran again within --min-ttl")

        let scoped = try await authctl.run(["token", "--scope", "api.write", "--format", "json"], environment: environment)
        #expect(scoped.status == 0, "\(scoped.stderr)")
        #expect(scoped.json?["scopes"] == .array([.string("api.write")]))
        let scopedAgain = try await authctl.run(["token", "--scope", "api.write"], environment: environment)
        #expect(scopedAgain.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == scoped.json?["accessToken"]?.stringValue)
        #expect(provider.count("client_credentials") == 3, "one grant per scope set, then cached")

        // Without the secret, a grant cannot run: provider-not-configured, nothing changes.
        let before = authctl.keystoreBytes()
        let missing = try await authctl.run(["token", "--force-refresh"], environment: ["CI_SECRET": ""])
        #expect(missing.status == 7 && missing.stderr.contains("CI_SECRET"), "\(missing.stderr)")
        #expect(authctl.keystoreBytes() == before)
    }

    @Test("many concurrent token processes that need a new token make one grant")
    func oneGrantForManyProcesses() async throws {
        try await authctl.addFakeProvider(provider)
        provider.behaviour.accessTokenLifetime = .number(1)
        #expect(try await login().status == 0)
        try await Task.sleep(for: .seconds(2))  // the token has expired: every process needs a new one
        provider.behaviour.accessTokenLifetime = .number(3600)
        let before = provider.count("client_credentials")
        let started = try (0..<5).map { _ in try authctl.start(["token", "--min-ttl", "0"], environment: environment) }
        var tokens: Set<String> = []
        for process in started {
            let result = await AuthctlProcess.finish(process)
            #expect(result.status == 0, "\(result.stderr)")
            tokens.insert(result.stdout)
        }
        #expect(provider.count("client_credentials") == before + 1, "one process ran the grant, the others used its token")
        #expect(tokens.count == 1)
    }

    @Test("link and reauth refuse a workload (exit 2); a person's sign-in is never merged with it; signout ends it")
    func workloadIsItsOwnKind() async throws {
        try await authctl.addFakeProvider(provider)
        let signedIn = try await login(["--json"])
        let workloadUID = signedIn.json?["user"]?.objectValue?["uid"]?.stringValue
        let before = authctl.keystoreBytes()
        let link = try await authctl.run(["link", "oidc.fake", "--no-browser", "--timeout", "1"])
        #expect(link.status == 2 && link.stderr.contains("is a workload"), "\(link.stderr)")
        let reauth = try await authctl.run(["reauth", "oidc.fake", "--no-browser", "--timeout", "1"])
        #expect(reauth.status == 2 && reauth.stderr.contains("is a workload"), "\(reauth.stderr)")
        #expect(authctl.keystoreBytes() == before, "nothing stored")

        provider.behaviour.subject = clientID  // even a person whose sub equals the client id
        let person = try await authctl.run(
            ["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20", "--json"])
        #expect(person.status == 0, "\(person.stderr)")
        #expect(person.json?["isNewUser"] == .bool(true))
        #expect(person.json?["user"]?.objectValue?["kind"] == .string("person"))
        #expect(person.json?["user"]?.objectValue?["uid"]?.stringValue != workloadUID)

        let use = try await authctl.run(["users", "use", workloadUID ?? "-"])
        #expect(use.status == 0, "\(use.stderr)")
        #expect(try await authctl.run(["signout"]).status == 0)
        #expect(try await authctl.run(["status"]).status == 16)
    }

    @Test("the provider's configuration moved to another issuer: token never sends the workload's secret there; nothing changes")
    func issuerMoved() async throws {
        try await authctl.addFakeProvider(provider)
        #expect(try await login().status == 0)
        let elsewhere = try FakeIdentityProvider()
        elsewhere.behaviour.workloads = [WorkloadRegistration(clientID: clientID, secret: secret)]
        let moved = try await authctl.run([
            "providers", "add", "oidc.fake", "--issuer", elsewhere.issuer, "--client-id", elsewhere.clientID,
        ])
        #expect(moved.status == 0, "\(moved.stderr)")
        let before = authctl.keystoreBytes()
        let token = try await authctl.run(["token", "--force-refresh"], environment: environment)
        #expect(token.status == 7 && token.stderr.contains(provider.issuer), "\(token.stderr)")
        #expect(elsewhere.count("client_credentials") == 0 && elsewhere.count("token") == 0, "the secret went to another issuer")
        #expect(authctl.keystoreBytes() == before)
    }

    @Test("signout --revoke revokes a workload's access token as the workload, with its own client and secret")
    func revokedAsTheWorkload() async throws {
        try await authctl.addFakeProvider(provider)  // the provider's client (a person's) is another one
        let login = try await login(["--json"])
        #expect(login.status == 0, "\(login.stderr)")
        let token = try await authctl.run(["token"], environment: environment)
        let signout = try await authctl.run(["signout", "--revoke"], environment: environment)
        #expect(signout.status == 0 && signout.stderr.contains("revoked the oidc.fake access token"), "\(signout.stderr)")
        #expect(provider.revoked == [token.stdout.trimmingCharacters(in: .newlines)])
        #expect(provider.revokers == [clientID], "revoked as \(provider.revokers), not as the workload")
        #expect(!signout.stderr.contains(secret))
    }

    @Test("a wrong secret is invalid-credential (4) and an unknown client too; nothing is stored")
    func refusals() async throws {
        try await authctl.addFakeProvider(provider)
        let before = authctl.keystoreBytes()
        let wrong = try await login(environment: ["CI_SECRET": "wrong"])
        #expect(wrong.status == 4, "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("wrong") || wrong.stderr.contains("invalid_client"))
        // The fix is the workload's, at login, not a provider's configuration.
        #expect(wrong.stderr.contains("--client-credentials") && !wrong.stderr.contains("providers add"), "\(wrong.stderr)")
        let unknown = try await authctl.run(
            ["login", "oidc.fake", "--client-credentials", "--client-id", "nobody", "--client-secret-env", "CI_SECRET"],
            environment: environment)
        #expect(unknown.status == 4, "\(unknown.stderr)")
        let unset = try await login(environment: [:])
        #expect(unset.status == 7 && unset.stderr.contains("CI_SECRET"), "\(unset.stderr)")
        #expect(authctl.keystoreBytes() == before, "nothing stored")
        #expect(try await authctl.run(["login", "oidc.fake", "--client-credentials"]).status == 2)
        #expect(try await authctl.run(["login", "oidc.fake", "--client-secret-env", "X"]).status == 2)
        #expect(
            try await authctl.run(["login", "oidc.fake", "--client-credentials", "--client-secret-env", "X", "--client-secret-file", "/x"])
                .status == 2)
        #expect(try await authctl.run(["login", "oidc.fake", "--client-credentials", "--client-secret-env", "not a name"]).status == 2)
    }

    @Test("client_secret_post when discovery lists only it; a secret file")
    func secretPostAndFile() async throws {
        provider.behaviour.secretInBody = true
        try await authctl.addFakeProvider(provider)
        #expect(try await login().status == 0)
        #expect(provider.issuedSecrets.contains(secret), "sent in the body")
        let file = authctl.home + "/ci-secret"
        _ = FileManager.default.createFile(atPath: file, contents: Data((secret + "\n").utf8), attributes: [.posixPermissions: 0o600])
        let fromFile = try await authctl.run(
            ["login", "oidc.fake", "--client-credentials", "--client-id", clientID, "--client-secret-file", file])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self).contains(file))
    }

    @Test("a sealed keystore: the workload's token is sealed, its record stays readable, the grant runs with the key; -v shows no secret")
    func sealedAndVerbose() async throws {
        try await authctl.addFakeProvider(provider)
        let verbose = try await login(["-v"])
        #expect(verbose.status == 0 && !verbose.stderr.contains(secret), "\(verbose.stderr)")
        let made = try await authctl.run(["keystore", "new-key"])
        let key = authctl.home + "/key"
        _ = FileManager.default.createFile(atPath: key, contents: Data(made.stdout.utf8), attributes: [.posixPermissions: 0o600])
        #expect(try await authctl.run(["keystore", "seal", "--key-file", key]).status == 0)
        let text = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        #expect(!text.contains("wat-") && text.contains("\"clientSecretEnv\" : \"CI_SECRET\""))
        #expect(try await authctl.run(["status"]).stdout.contains("kind:       workload"))
        let token = try await authctl.run(
            ["token", "--force-refresh", "-v"], environment: environment.merging(["AUTHCTL_KEYSTORE_KEY_FILE": key]) { $1 })
        #expect(token.status == 0 && token.stdout.hasPrefix("wat-"), "\(token.stderr)")
        #expect(!token.stderr.contains(secret) && !token.stderr.contains(token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}

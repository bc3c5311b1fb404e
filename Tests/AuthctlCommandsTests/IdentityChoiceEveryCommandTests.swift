import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthctlCommands

/// Issue 35 (docs/identities.md): `--user`, `AUTHCTL_USER` and a rule choose the identity of
/// every command that reads a token, in one place. Ada and Grace are both signed in, Grace is
/// the current user; each way of choosing names Ada, and what reaches the provider, STS, the
/// resource or stdout must be Ada's.
@Suite("One identity choice for every command that reads a token", .serialized)
final class IdentityChoiceEveryCommandTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()
    var servers: [LoopbackHTTPServer] = []
    var ada = Tokens(), grace = Tokens()
    /// What the resource and STS received: an `Authorization` header, a `WebIdentityToken`.
    let seen = Seen()

    struct Tokens {
        var uid = "", access = "", id = ""
    }

    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String] = []
        func add(_ value: String) { lock.withLock { values.append(value) } }
        var last: String? { lock.withLock { values.last } }
    }

    /// The three ways of choosing Ada: their arguments and environment.
    enum Way: String, CaseIterable {
        case option, environment, rule
    }

    init() async throws {
        provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
    }

    deinit {
        servers.forEach { $0.stop() }
        try? FileManager.default.removeItem(atPath: authctl.home)
    }

    func arguments(_ way: Way) -> [String] { way == .option ? ["--user", "ada@example.com"] : [] }

    func environment(_ way: Way) -> [String: String] {
        switch way {
        case .option: [:]
        case .environment: ["AUTHCTL_USER": ada.uid]
        case .rule: ["WORK": "1"]
        }
    }

    /// Ada then Grace sign in (Grace is current); each holds a grant for the resource `mcp`,
    /// with a token of their own; a rule chooses Ada where WORK is set.
    func setUp() async throws -> (resource: String, sts: String) {
        for (subject, email) in [("ada-subject", "ada@example.com"), ("grace-subject", "grace@example.com")] {
            provider.update {
                $0.subject = subject
                $0.email = email
            }
            let login = try await authctl.run(["login", "oidc.fake", "--timeout", "120", "--json"])
            #expect(login.status == 0, "\(login.stderr)")
            var tokens = Tokens()
            tokens.uid = try #require(login.json?["user"]?.objectValue?["uid"]?.stringValue)
            tokens.access = try await authctl.run(["token"]).stdout.trimmingCharacters(in: .newlines)
            tokens.id = try await authctl.run(["token", "--id-token"]).stdout.trimmingCharacters(in: .newlines)
            if email.hasPrefix("ada") { ada = tokens } else { grace = tokens }
        }
        let seen = self.seen
        let resource = try LoopbackHTTPServer { request in
            seen.add(request.headers["authorization"] ?? "")
            return HTTPResponse(status: 200, body: Data("ok\n".utf8))
        }
        let sts = try LoopbackHTTPServer { request in
            let form = String(decoding: request.body, as: UTF8.self).split(separator: "&")
            let token = form.first { $0.hasPrefix("WebIdentityToken=") }?.dropFirst("WebIdentityToken=".count)
            seen.add(token.map(String.init) ?? "")
            var answer = CloudCredentialsCommandFixtures.stsSuccess
            answer.headers["Content-Type"] = "text/xml"
            return answer
        }
        servers = [resource, sts]
        let url = resource.baseURL + "/mcp"
        let keystore = FileKeystore(path: authctl.keystorePath, random: SystemRandomSource(), clock: SystemClock())
        let (adaUID, issuer) = (ada.uid, provider.issuer)
        try await keystore.update { state in
            for index in state.users.indices {
                let owner = state.users[index].uid == adaUID ? "ada" : "grace"
                let tokens = TokenSet(
                    accessToken: "rt-\(owner)", tokenType: "Bearer", expiresAt: Date().addingTimeInterval(3600), refreshToken: nil,
                    idToken: nil, scopes: ["mcp"])
                state.users[index].resourceGrants.append(
                    ResourceGrant(resource: url, issuer: issuer, providerID: "oidc.fake", grantedAt: Date(), tokens: tokens))
            }
        }
        let rule = try await authctl.run(["rules", "add", "--name", "work", "--user", "ada@example.com", "--env", "WORK"])
        #expect(rule.status == 0, "\(rule.stderr)")
        #expect(ada.access != grace.access && ada.id != grace.id)
        return (url, sts.baseURL + "/")
    }

    func run(_ command: [String], _ way: Way, stdin: Data? = nil) async throws -> InProcessAuthctl.Result {
        let result = try await authctl.run(arguments(way) + command, environment: environment(way), stdin: stdin)
        #expect(result.status == 0, "\(command) by \(way): \(result.stderr)")
        return result
    }

    func trimmed(_ result: InProcessAuthctl.Result) -> String { result.stdout.trimmingCharacters(in: .newlines) }

    @Test("token in every format, --id-token, --output-file, --exchange and --resource give Ada's, however she is chosen")
    func tokenCommands() async throws {
        let (resource, _) = try await setUp()
        for way in Way.allCases {
            #expect(trimmed(try await run(["token"], way)) == ada.access, "\(way)")
            #expect(try await run(["token", "--format", "json"], way).json?["accessToken"] == .string(ada.access), "\(way)")
            #expect(trimmed(try await run(["token", "--format", "header"], way)) == "Authorization: Bearer \(ada.access)", "\(way)")
            #expect(trimmed(try await run(["token", "--format", "env"], way)) == "export AUTHCTL_TOKEN=\(ada.access)", "\(way)")
            let exec = try await run(["token", "--format", "kubectl-exec"], way).json?["status"]?.objectValue?["token"]
            #expect(exec == .string(ada.id), "\(way)")
            #expect(trimmed(try await run(["token", "--id-token"], way)) == ada.id, "\(way)")

            let file = authctl.home + "/token-\(way)"
            _ = try await run(["token", "--output-file", file], way)
            #expect(FileManager.default.contents(atPath: file) == Data(ada.access.utf8), "token --output-file by \(way)")
            _ = try await run(["token", "--id-token", "--output-file", file], way)
            #expect(FileManager.default.contents(atPath: file) == Data(ada.id.utf8), "token --id-token --output-file by \(way)")

            _ = try await run(["token", "--exchange", "--audience", "api-\(way)"], way)
            #expect(provider.exchangedSubjects.last == ada.access, "token --exchange by \(way): the provider got Grace's token")

            #expect(trimmed(try await run(["token", "--resource", resource], way)) == "rt-ada", "token --resource by \(way)")
            _ = try await run(["token", "--resource", resource, "--output-file", file], way)
            #expect(FileManager.default.contents(atPath: file) == Data("rt-ada".utf8), "token --resource --output-file by \(way)")
        }
        let status = try await authctl.run(["status", "--json"])
        #expect(status.json?["user"]?.objectValue?["uid"] == .string(grace.uid), "the current user did not change")
    }

    @Test("request, aws-credentials, gcp-token, git-credential, exec, status and status --check act as Ada, however she is chosen")
    func otherCommands() async throws {
        provider.update { $0.introspectionSupported = true }
        let (resource, sts) = try await setUp()
        for way in Way.allCases {
            _ = try await run(["request", resource], way)
            #expect(seen.last == "Bearer rt-ada", "request by \(way): the resource got \(seen.last ?? "nothing")")

            let aws = try await run(
                ["aws-credentials", "--role-arn", "arn:aws:iam::123456789012:role/dev", "--sts-endpoint", sts, "--force-refresh"], way)
            #expect(aws.json?["AccessKeyId"] == "ASIAIOSFODNN7EXAMPLE")
            #expect(seen.last == ada.id, "aws-credentials by \(way): STS got Grace's ID token")

            #expect(try await run(["gcp-token"], way).json?["id_token"] == .string(ada.id), "gcp-token by \(way)")
            _ = try await run(["gcp-token", "--audience", "gcp-\(way)"], way)
            #expect(provider.exchangedSubjects.last == ada.access, "gcp-token --audience by \(way)")

            let git = try await run(
                ["git-credential", "oidc.fake", "get"], way, stdin: Data("protocol=https\nhost=git.example.com\n\n".utf8))
            #expect(git.stdout.contains("password=\(ada.access)\n"), "git-credential by \(way)")
            _ = try await run(["exec", "--", "/bin/sh", "-c", "test \"$AUTHCTL_TOKEN\" = \(ada.access)"], way)
            #expect(try await run(["status", "--json"], way).json?["user"]?.objectValue?["uid"] == .string(ada.uid), "status by \(way)")
            let check = try await run(["status", "--check", "--json"], way).json
            #expect(check?["user"]?.objectValue?["uid"] == .string(ada.uid), "status --check by \(way)")
            #expect(check?["check"]?.objectValue?["active"] == .bool(true) && check?["check"]?.objectValue?["method"] == "introspection")
        }
    }

    @Test(
        "commands that act on the current user or on no user refuse --user (exit 2, naming it); AUTHCTL_USER and rules leave them as they were",
        arguments: [
            ["login", "oidc.fake"], ["link", "oidc.fake"], ["reauth", "oidc.fake"], ["unlink", "oidc.fake"], ["signout"],
            ["users", "list"], ["users", "use", "x"], ["users", "show"], ["users", "delete"], ["users", "export"],
            ["providers", "list"], ["keystore", "status"], ["backend", "show"], ["rules", "list"], ["doctor"], ["version"],
        ])
    func refused(command: [String]) async throws {
        let result = try await authctl.run(command + ["--user", "ada@example.com"])
        #expect(result.status == 2, "\(command): \(result.stderr)")
        #expect(result.stderr.contains("--user"), "\(command): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("an error names the user actually chosen and why, not 'the current user'", arguments: Way.allCases)
    func errorsNameTheChoice(way: Way) async throws {
        let (resource, _) = try await setUp()
        let corp = try await authctl.run(["providers", "add", "oidc.corp", "--issuer", provider.issuer, "--client-id", "corp"])
        #expect(corp.status == 0, "\(corp.stderr)")
        let why = ["option": "--user", "environment": "AUTHCTL_USER", "rule": "rule 1 (work)"][way.rawValue] ?? ""
        for command in [
            ["token", "oidc.corp"], ["aws-credentials", "--role-arn", "arn:aws:iam::123456789012:role/dev", "--provider", "oidc.corp"],
        ] {
            let result = try await authctl.run(command + arguments(way), environment: environment(way))
            #expect(result.status == 13, "\(command) by \(way): \(result.stderr)")
            #expect(result.stderr.contains("ada@example.com (chosen by \(why)) has no oidc.corp identity"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("current user"), "\(command): \(result.stderr)")
        }
        let other = resource.replacing("/mcp", with: "/other")
        let request = try await authctl.run(["request", other] + arguments(way), environment: environment(way))
        #expect(
            request.status == 13 && request.stderr.contains("ada@example.com (chosen by \(why)) holds no token for"), "\(request.stderr)")
    }

    @Test("AUTHCTL_USER and a rule do not steer the commands that take no choice: signout ends the current user's session, not Ada's")
    func uncheckedCommandsKeepTheCurrentUser() async throws {
        _ = try await setUp()
        for way in [Way.environment, .rule] {
            let list = try await authctl.run(["users", "list", "--json"], environment: environment(way))
            #expect(list.status == 0, "users list by \(way): \(list.stderr)")
        }
        let signOut = try await authctl.run(["signout"], environment: environment(.rule))
        #expect(signOut.status == 0, "\(signOut.stderr)")
        #expect(try await authctl.run(["status"]).status == 16, "Grace, the current user, is signed out")
        #expect(trimmed(try await run(["token"], .option)) == ada.access, "Ada's session is untouched")
    }
}

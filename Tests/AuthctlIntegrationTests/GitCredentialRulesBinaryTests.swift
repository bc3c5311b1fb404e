import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// docs/identities.md through git itself: the helper answers with the user the rules choose for
/// the remote git asks about (with `credential.useHttpPath`, its path too), and `erase` drops
/// the token the server refused so that the next `get` refreshes it.
extension GitCredentialBinaryTests {
    /// Ada signs in, then Grace (the current user); their tokens.
    func signInTwo() async throws -> (ada: String, grace: String) {
        try await authctl.addFakeProvider(provider)
        var tokens: [String] = []
        for (subject, email) in [("ada-subject", "ada@example.com"), ("grace-subject", "grace@example.com")] {
            provider.update {
                $0.subject = subject
                $0.email = email
            }
            let login = try await authctl.run(["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
            #expect(login.status == 0, "\(login.stderr)")
            tokens.append(try await authctl.run(["token", "oidc.fake"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return (tokens[0], tokens[1])
    }

    /// `srv/PATH` as a bare copy of a repository with README.
    func makeRepository(at path: String) async throws {
        let work = root + "/work-" + path.replacing("/", with: "-")
        #expect(try await git(["init", "-q", work]).status == 0)
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: work + "/README"))
        #expect(try await git(["add", "README"], directory: work).status == 0)
        #expect(try await git(["commit", "-q", "-m", "first"], directory: work).status == 0)
        #expect(try await git(["clone", "-q", "--bare", work, root + "/srv/" + path]).status == 0)
    }

    @Test(
        "git clone: a rule on the remote's path (credential.useHttpPath) gives Ada's token while Grace is current; without the path it cannot"
    )
    func cloneChoosesByRemote() async throws {
        let server = try GitSmartHTTPServer(root: root + "/srv")
        try await makeRepository(at: "ada/repo.git")
        try await makeRepository(at: "repo.git")
        let (ada, grace) = try await signInTwo()
        let helper = "!\(Self.shellQuoted(AuthctlProcess.binary)) git-credential oidc.fake"
        #expect(try await git(["config", "--global", "credential.helper", helper]).status == 0)
        #expect(try await git(["config", "--global", "credential.useHttpPath", "true"]).status == 0)
        let rule = try await authctl.run([
            "rules", "add", "--name", "ada-repos", "--user", "ada@example.com", "--remote", server.baseURL + "/ada/**",
        ])
        #expect(rule.status == 0, "\(rule.stderr)")

        server.expect(token: ada)
        let adas = try await git(["clone", "-q", server.baseURL + "/ada/repo.git", root + "/clone-ada"])
        #expect(adas.status == 0, "\(adas.stderr)")
        #expect(FileManager.default.fileExists(atPath: root + "/clone-ada/README"))

        server.expect(token: grace)
        let graces = try await git(["clone", "-q", server.baseURL + "/repo.git", root + "/clone-grace"])
        #expect(graces.status == 0, "no rule matches: the current user's token. \(graces.stderr)")

        // Without useHttpPath git names the host alone: the rule on a path cannot hold, and
        // Grace's token is refused where Ada's is expected.
        #expect(try await git(["config", "--global", "credential.useHttpPath", "false"]).status == 0)
        server.expect(token: ada)
        let hostOnly = try await git(["clone", "-q", server.baseURL + "/ada/repo.git", root + "/clone-host-only"])
        #expect(hostOnly.status != 0)
        let status = try await authctl.run(["status", "--json"])
        #expect(status.json?["user"]?.objectValue?["email"] == .string("grace@example.com"), "the current user never changed")
    }

    @Test("git's erase after the server refused the token: that cached token is dropped and the next get refreshes it")
    func eraseThroughGit() async throws {
        let server = try GitSmartHTTPServer(root: root + "/srv")
        try await makeRepository(at: "repo.git")
        let (_, grace) = try await signInTwo()
        let helper = "!\(Self.shellQuoted(AuthctlProcess.binary)) git-credential oidc.fake"
        #expect(try await git(["config", "--global", "credential.helper", helper]).status == 0)
        server.expect(token: "at-revoked-meanwhile")
        let refused = try await git(["clone", "-q", server.baseURL + "/repo.git", root + "/refused"])
        #expect(refused.status != 0)
        #expect(server.refused > 0)
        // git told the helper to erase what the server refused: the next token is a new one.
        let next = try await authctl.run(["token", "oidc.fake"])
        #expect(next.status == 0, "\(next.stderr)")
        let fresh = next.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(fresh.hasPrefix("at-") && fresh != grace, "refreshed after git's erase")
        server.expect(token: fresh)
        let again = try await git(["clone", "-q", server.baseURL + "/repo.git", root + "/again"])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test("the protocol as git ≥ 2.46 speaks it: capability[]=authtype, a path chosen by a rule, erase of a credential")
    func protocolWithRules() async throws {
        let (ada, grace) = try await signInTwo()
        let rule = try await authctl.run(
            ["rules", "add", "--user", "ada@example.com", "--remote", "https://dev.azure.com/contoso/**"])
        #expect(rule.status == 0, "\(rule.stderr)")
        let contoso = "capability[]=authtype\nprotocol=https\nhost=dev.azure.com\npath=contoso/app/_git/app\n\n"
        let answer = try await gitCredential(["oidc.fake", "get"], input: contoso)
        #expect(answer.status == 0, "\(answer.stderr)")
        #expect(answer.stdout.contains("authtype=Bearer\ncredential=\(ada)\nephemeral=true\n"), "\(answer.stdout)")
        let elsewhere = try await gitCredential(
            ["oidc.fake", "get"], input: "capability[]=authtype\nprotocol=https\nhost=dev.azure.com\npath=fabrikam/app\n\n")
        #expect(elsewhere.stdout.contains("credential=\(grace)\n"), "\(elsewhere.stdout)")

        // erase naming another credential (already replaced): nothing changes.
        let keystore = authctl.keystoreBytes()
        let stale = try await gitCredential(
            ["oidc.fake", "erase"], input: contoso.replacing("\n\n", with: "\nauthtype=Bearer\ncredential=at-old\n\n"))
        #expect(stale.status == 0 && stale.stdout.isEmpty)
        #expect(authctl.keystoreBytes() == keystore)
        // erase of Ada's credential: Ada's next token is a new one, Grace's is untouched.
        let erase = try await gitCredential(
            ["oidc.fake", "erase"], input: contoso.replacing("\n\n", with: "\nauthtype=Bearer\ncredential=\(ada)\n\n"))
        #expect(erase.status == 0 && erase.stdout.isEmpty, "\(erase.stderr)")
        // (The fake provider's refreshed ID token names its current subject: Ada's, for Ada's refresh.)
        provider.update {
            $0.subject = "ada-subject"
            $0.email = "ada@example.com"
        }
        let after = try await gitCredential(["oidc.fake", "get"], input: contoso)
        #expect(after.status == 0 && !after.stdout.contains(ada) && after.stdout.contains("credential=at-"), "\(after.stderr)")
        #expect(
            try await authctl.run(["token", "oidc.fake"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == grace,
            "Grace's is untouched")
        let explain = try await authctl.run(["rules", "explain", "--remote", "https://dev.azure.com/contoso/x", "--json"])
        #expect(explain.json?["winner"] == .number(1))
    }
}

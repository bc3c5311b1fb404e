import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthctlCommands

/// docs/identities.md: rules, `--user` and `AUTHCTL_USER` choose the user of `token`, `exec`,
/// `status` and `git-credential` without changing the current user.
@Suite("Rules and --user choose the identity", .serialized)
final class IdentityRulesCommandsTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()
    /// Ada signs in first, then Grace, who is the current user.
    var adaToken = "", graceToken = "", adaUID = "", graceUID = ""

    init() async throws {
        provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func signInBoth() async throws {
        for (subject, email) in [("ada-subject", "ada@example.com"), ("grace-subject", "grace@example.com")] {
            provider.update {
                $0.subject = subject
                $0.email = email
            }
            let login = try await authctl.run(["login", "oidc.fake", "--timeout", "120", "--json"])
            #expect(login.status == 0, "\(login.stderr)")
            let uid = try #require(login.json?["user"]?.objectValue?["uid"]?.stringValue)
            let token = try await authctl.run(["token"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if email.hasPrefix("ada") { (adaUID, adaToken) = (uid, token) } else { (graceUID, graceToken) = (uid, token) }
        }
        #expect(adaToken.hasPrefix("at-") && graceToken.hasPrefix("at-") && adaToken != graceToken)
    }

    func token(_ arguments: [String] = [], environment: [String: String] = [:]) async throws -> String {
        let result = try await authctl.run(["token"] + arguments, environment: environment)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("--user (uid or email) and AUTHCTL_USER give that user's token; --user wins; the current user stays")
    func userOption() async throws {
        try await signInBoth()
        #expect(try await token() == graceToken)
        #expect(try await token(["--user", "ada@example.com"]) == adaToken)
        #expect(try await token(["--user=\(adaUID)"]) == adaToken)
        #expect(try await token(["--user", "ADA@example.com", "-vq"]) == adaToken, "the full path, email without case")
        #expect(try await token(environment: ["AUTHCTL_USER": adaUID]) == adaToken)
        #expect(try await token(["--user", graceUID], environment: ["AUTHCTL_USER": adaUID]) == graceToken)
        #expect(try await token(environment: ["AUTHCTL_USER": ""]) == graceToken, "empty is unset")
        let status = try await authctl.run(["status", "--json"])
        #expect(status.json?["user"]?.objectValue?["uid"] == .string(graceUID), "the current user did not change")

        let unknown = try await authctl.run(["token", "--user", "nobody@example.com"])
        #expect(unknown.status == 16 && unknown.stdout.isEmpty && unknown.stderr.contains("--user names the user nobody@example.com"))
        let bad = try await authctl.run(["token"], environment: ["AUTHCTL_USER": "not a user"])
        #expect(bad.status == 2 && bad.stderr.contains("AUTHCTL_USER"), "\(bad.stderr)")
    }

    @Test("a rule on an environment variable chooses the user, fast path and full path alike; explain says why")
    func ruleChooses() async throws {
        try await signInBoth()
        let added = try await authctl.run(["rules", "add", "--name", "work", "--user", "ada@example.com", "--env", "WORK=1"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try await token(environment: ["WORK": "1"]) == adaToken)
        #expect(try await token(["-vq"], environment: ["WORK": "1"]) == adaToken)
        #expect(try await token(environment: ["WORK": "2"]) == graceToken)
        #expect(try await token(["--user", graceUID], environment: ["WORK": "1"]) == graceToken, "--user overrides every rule")

        let status = try await authctl.run(["status"], environment: ["WORK": "1"])
        #expect(status.status == 0 && status.stdout.contains("ada@example.com") && status.stdout.contains("Chosen by rule 1 (work)"))
        let statusJSON = try await authctl.run(["status", "--json"], environment: ["WORK": "1"])
        #expect(statusJSON.json?["user"]?.objectValue?["uid"] == .string(adaUID))
        #expect(statusJSON.json?["chosenBy"] == .string("rule 1 (work)"))

        let explain = try await authctl.run(["rules", "explain", "--json"], environment: ["WORK": "1"])
        #expect(explain.json?["winner"] == .number(1) && explain.json?["user"] == .string("ada@example.com"))
        let text = try await authctl.run(["rules", "explain"], environment: ["WORK": "0"])
        #expect(text.stdout.contains("rule 1 (work): does not match") && text.stdout.contains("no rule matches"), "\(text.stdout)")

        // exec's child gets the rule's user's token.
        let exec = try await authctl.run(
            ["exec", "--", "/bin/sh", "-c", "test \"$AUTHCTL_TOKEN\" = \(adaToken)"], environment: ["WORK": "1"])
        #expect(exec.status == 0, "\(exec.stderr)")
    }

    /// `token` on the synchronous hot path (before any task): what it printed, nil when it handed over.
    func hotPath(_ arguments: [String], environment: [String: String]) -> String? {
        let stdout = CapturedOutput(isTerminal: false), stderr = CapturedOutput(isTerminal: false)
        let invocation = AuthctlInvocation(
            arguments: ["token"] + arguments,
            io: authctl.io(stdin: ScriptedInput(Data(), isTerminal: false), stdout: stdout, stderr: stderr, environment: environment))
        return invocation.finishWithoutConcurrency() == 0 ? stdout.text.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    @Test("the hot path answers for a rule's user (uid or email), --user and AUTHCTL_USER itself, without handing over")
    func hotPathAnswers() async throws {
        try await signInBoth()
        #expect(hotPath(["--user", adaUID], environment: [:]) == adaToken)
        #expect(hotPath([], environment: ["AUTHCTL_USER": "ada@example.com"]) == adaToken)
        for user in [adaUID, "ada@example.com"] {
            try Data(#"{"version": 1, "providers": {}, "rules": [{"user": "\#(user)", "env": "WORK"}]}"#.utf8).write(
                to: URL(fileURLWithPath: authctl.configPath))
            #expect(hotPath([], environment: ["WORK": "yes"]) == adaToken, "\(user)")
            #expect(hotPath([], environment: [:]) == graceToken)
        }
        // A rule the scan is unsure of (an escape): the full command reads it, with the same result.
        try Data(#"{"version": 1, "providers": {}, "rules": [{"user": "ada\u0040example.com", "env": "WORK"}]}"#.utf8).write(
            to: URL(fileURLWithPath: authctl.configPath))
        #expect(hotPath([], environment: ["WORK": "yes"]) == nil)
        #expect(try await token(environment: ["WORK": "yes"]) == adaToken)
    }

    @Test("rules list, remove by name or number; bad rules are refused with exit 2 and nothing written")
    func manageRules() async throws {
        for arguments in [
            // Nobody is signed in: a rule for a user is added only when asked (issue 38, item 14).
            ["--name", "a", "--user", "ada@example.com", "--env", "A", "--allow-unknown-user"],
            ["--name", "b", "--provider", "oidc.fake", "--directory", "/"],
            ["--user", "someone@example.com", "--remote", "https://dev.azure.com/contoso/**", "--position", "1", "--allow-unknown-user"],
        ] {
            let added = try await authctl.run(["rules", "add"] + arguments)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let list = try await authctl.run(["rules", "list", "--json"])
        #expect(list.json?["rules"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue } == ["a", "b"])
        #expect(list.json?["rules"]?.arrayValue?.first?.objectValue?["remote"] == .string("https://dev.azure.com/contoso/**"))
        let config = FileManager.default.contents(atPath: authctl.configPath)
        for arguments in [
            ["--user", "x@y"], ["--directory", "/x"], ["--name", "a", "--user", "x@y", "--env", "B"], ["--user", "x@y", "--env", "1A"],
            ["--provider", "google", "--env", "A"],
        ] {
            let refused = try await authctl.run(["rules", "add"] + arguments)
            #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
        }
        #expect(FileManager.default.contents(atPath: authctl.configPath) == config)
        #expect(try await authctl.run(["rules", "remove", "b"]).status == 0)
        #expect(try await authctl.run(["rules", "remove", "1"]).status == 0)
        #expect(try await authctl.run(["rules", "remove", "9"]).status == 2)
        let left = try await authctl.run(["rules", "list", "--json"])
        #expect(left.json?["rules"]?.arrayValue?.count == 1)
    }

    @Test("a rule broken by hand fails token with exit 7 naming the rule; a broken file without rules leaves token as it was")
    func brokenConfiguration() async throws {
        try await signInBoth()
        var text = String(decoding: FileManager.default.contents(atPath: authctl.configPath) ?? Data(), as: UTF8.self)
        let withRule = text.replacing(#""version""#, with: #""rules": [{"user": "ada@example.com", "directory": "relative"}], "version""#)
        try Data(withRule.utf8).write(to: URL(fileURLWithPath: authctl.configPath))
        let broken = try await authctl.run(["token"])
        #expect(broken.status == 7 && broken.stderr.contains("rule 1, field \"directory\""), "\(broken.stderr)")
        // A damaged provider entry, no rules: a cached token is printed as before.
        text = text.replacing(#""clientId""#, with: #""clientId" : 5, "x""#)
        try Data(text.utf8).write(to: URL(fileURLWithPath: authctl.configPath))
        #expect(try await token() == graceToken)
        // A rule naming a user the keystore does not have.
        try Data(#"{"version": 1, "providers": {}, "rules": [{"name": "w", "user": "zz@example.com", "env": "HOME"}]}"#.utf8).write(
            to: URL(fileURLWithPath: authctl.configPath))
        let missing = try await authctl.run(["token"])
        #expect(missing.status == 16 && missing.stderr.contains("rule 1 (w) names the user zz@example.com"), "\(missing.stderr)")
    }
}

/// issue 38, item 14: a rule for a user the keystore does not hold would make every later
/// command in its place exit 16; `rules add` refuses it, or warns with `--allow-unknown-user`.
@Suite("rules add checks its --user")
struct RulesAddUnknownUserTests {
    @Test(
        "rules add --user for an unknown user exits 2 naming the users held and how to sign in; --allow-unknown-user adds it with a warning"
    )
    func unknownUser() async throws {
        let provider = try FakeIdentityProvider()
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        try await authctl.addFakeProvider(provider)
        provider.update { $0.email = "ada@example.com" }
        try await authctl.run(["login", "oidc.fake", "--timeout", "120"]).expectSuccess()
        let config = FileManager.default.contents(atPath: authctl.configPath)
        let refused = try await authctl.run(["rules", "add", "--user", "zz@example.com", "--env", "HOME"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("zz@example.com") && refused.stderr.contains("ada@example.com"), "\(refused.stderr)")
        #expect(refused.stderr.contains("authctl login") && refused.stderr.contains("--allow-unknown-user"), "\(refused.stderr)")
        #expect(FileManager.default.contents(atPath: authctl.configPath) == config, "nothing written")
        let allowed = try await authctl.run(["rules", "add", "--user", "zz@example.com", "--env", "HOME", "--allow-unknown-user"])
        #expect(allowed.status == 0 && allowed.stderr.contains("zz@example.com"), "warned: \(allowed.stderr)")
        let known = try await authctl.run(["rules", "add", "--user", "ada@example.com", "--env", "X"])
        #expect(known.status == 0 && known.stderr.isEmpty, "\(known.stderr)")
    }
}

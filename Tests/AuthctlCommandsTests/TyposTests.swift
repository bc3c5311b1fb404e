import Foundation
import Testing

/// What a person who mistypes gets (issue 15, item 5): the nearest command or provider id,
/// exit 2, and help that puts each command's own options first.
@Suite("typos and help")
struct TyposTests {
    let authctl = InProcessAuthctl()

    @Test(
        "a mistyped or borrowed command name gets a did-you-mean and exit 2",
        arguments: [
            (["log-out"], "signout"), (["signin", "oidc.x"], "login"), (["whoami"], "status"), (["statsu"], "status"),
            (["tokn"], "token"), (["provider", "list"], "providers"), (["help", "nosuch"], "authctl --help"), (["help", "logn"], "login"),
            (["users", "lst"], "Did you mean 'users list'?"), (["providers", "remvoe", "oidc.x"], "Did you mean 'providers remove'?"),
            (["keystore", "unsael"], "Did you mean 'keystore unseal'?"), (["backend", "shwo"], "Did you mean 'backend show'?"),
        ])
    func command(arguments: [String], suggestion: String) async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(arguments + ["--json"])
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(suggestion), "\(arguments): \(result.stderr)")
        #expect(result.json?["error"]?.objectValue?["code"] == .string("invalid-argument"))
    }

    @Test(
        "a mistyped provider id gets the nearest one",
        arguments: [("microsft", "microsoft"), ("aple.com", "apple.com"), ("oidc", "oidc.NAME")])
    func provider(typed: String, suggestion: String) async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["login", typed])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("Did you mean \(suggestion)?"), "\(result.stderr)")
    }

    @Test("a provider id that is valid but not configured gets the nearest configured one")
    func configuredProvider() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        try await authctl.run(["providers", "add", "oidc.corp", "--issuer", "https://idp.example", "--client-id", "c", "--no-check"])
            .expectSuccess()
        let result = try await authctl.run(["login", "oidc.crop"])
        #expect(result.status == 7 && result.stderr.contains("Did you mean oidc.corp?"), "\(result.stderr)")
        let far = try await authctl.run(["login", "oidc.elsewhere"])
        #expect(far.status == 7 && !far.stderr.contains("Did you mean"), "\(far.stderr)")
    }

    @Test("an option before the command that is not a global one says where it goes, not that the command is missing")
    func optionBeforeCommand() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let misplaced = try await authctl.run(["--timeout", "5", "login", "oidc.x"])
        #expect(misplaced.status == 2, "\(misplaced.stderr)")
        #expect(!misplaced.stderr.contains("name a command"), "\(misplaced.stderr)")
        #expect(misplaced.stderr.contains("authctl login --timeout"), "\(misplaced.stderr)")
        let unknown = try await authctl.run(["--bogus", "status"])
        #expect(
            unknown.status == 2 && !unknown.stderr.contains("name a command") && unknown.stderr.contains("--bogus"), "\(unknown.stderr)")
    }

    @Test("ArgumentParser's own messages end with one full stop before the hint")
    func onePeriod() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let yaml = try await authctl.run(["token", "--format", "yaml"])
        #expect(yaml.status == 2 && !yaml.stderr.contains("..") && !yaml.stderr.contains("?."), "\(yaml.stderr)")
    }

    @Test("global options without a command say that a command is missing, not 'Unknown option'")
    func missingCommand() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["--json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("name a command") && !result.stderr.contains("Unknown option"), "\(result.stderr)")
    }

    @Test("help lists apple.com among the providers and the command's own options before the global ones")
    func help() async throws {
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let help = try await authctl.run(["login", "--help"])
        #expect(help.stdout.contains("apple.com"), "\(help.stdout)")
        let own = try #require(help.stdout.range(of: "--scope <scope>"))
        let global = try #require(help.stdout.range(of: "--keystore <path>"))
        #expect(own.lowerBound < global.lowerBound)
        #expect(try await authctl.run(["help", "login"]).status == 0)
    }
}

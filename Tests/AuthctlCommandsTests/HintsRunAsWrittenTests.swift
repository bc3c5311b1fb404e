import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Every command a hint suggests works as written (issue 38, item 3): each test provokes a
/// hint, takes the `authctl …` command it prints, runs it as it is and checks that it does not
/// fail for the reason the hint was about.
@Suite("the commands hints suggest run as written")
struct HintsRunAsWrittenTests {
    /// The first `authctl …` command in a message, as words (up to `)`, `'` or the line's end).
    static func suggested(in stderr: String, containing marker: String) -> [String]? {
        var rest = Substring(stderr)
        while let span = rest.range(of: #"authctl [^)'\n]*"#, options: .regularExpression) {
            let command = String(rest[span]).trimmingCharacters(in: CharacterSet(charactersIn: " ."))
            if command.contains(marker) { return command.split(separator: " ").dropFirst().map(String.init) }
            rest = rest[span.upperBound...]
        }
        return nil
    }

    /// A loopback port nothing listens on: a provider's, after it stopped.
    static func closedPort() throws -> Int {
        var listener: FakeIdentityProvider? = try FakeIdentityProvider()
        let port = try #require(URL(string: listener?.issuer ?? "")?.port)
        listener = nil
        #expect(listener == nil)
        return port
    }

    @Test("a provider that is down: the --no-check command saves it, with its issuer and client id")
    func providerDownNoCheck() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let issuer = "http://127.0.0.1:\(try Self.closedPort())"
        let down = try await authctl.run(["providers", "add", "oidc.down", "--issuer", issuer, "--client-id", "app"])
        #expect(down.status == 3, "\(down.stderr)")
        let hint = try #require(Self.suggested(in: down.stderr, containing: "--no-check"), "\(down.stderr)")
        let again = try await authctl.run(hint)
        #expect(again.status == 0, "`authctl \(hint.joined(separator: " "))` failed: \(again.stderr)")
        let shown = try await authctl.run(["providers", "show", "oidc.down", "--json"])
        #expect(shown.stdout.contains(issuer) && shown.stdout.contains("app"), "\(shown.stdout)")
    }

    @Test("a missing --client-id: the suggested command keeps the --issuer given")
    func missingClientIDKeepsIssuer() async throws {
        let provider = try FakeIdentityProvider()
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let missing = try await authctl.run(["providers", "add", "oidc.corp", "--issuer", provider.issuer])
        #expect(missing.status == 2, "\(missing.stderr)")
        let hint = try #require(Self.suggested(in: missing.stderr, containing: "--client-id"), "\(missing.stderr)")
        let again = try await authctl.run(hint)
        #expect(again.status == 0, "`authctl \(hint.joined(separator: " "))` failed: \(again.stderr)")
    }

    @Test("login corp: did you mean oidc.corp, and that command signs in")
    func loginWithoutPrefix() async throws {
        let provider = try FakeIdentityProvider()
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        try await authctl.run(["providers", "add", "oidc.corp", "--issuer", provider.issuer, "--client-id", provider.clientID])
            .expectSuccess()
        let typo = try await authctl.run(["login", "corp", "--timeout", "120"])
        #expect(typo.status == 2 && typo.stderr.contains("Did you mean oidc.corp?"), "\(typo.stderr)")
        let again = try await authctl.run(["login", "oidc.corp", "--timeout", "120"])
        #expect(again.status == 0, "\(again.stderr)")
    }
}

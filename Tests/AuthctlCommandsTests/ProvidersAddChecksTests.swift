import Foundation
import Testing

/// `providers add` checks what it can before saving (issue 15, item 7): each mistake is
/// refused with the rule, and nothing is written.
@Suite("providers add checks what it can")
struct ProvidersAddChecksTests {
    @Test(
        "a mistake in providers add is refused with the rule, and the configuration is not written",
        arguments: [
            (["oidc.x", "--issuer", "https://idp.example"], Int32(2), "--client-id"),
            (["oidc.x", "--client-id", "c"], 2, "--issuer"),
            (
                [
                    "oidc.x", "--issuer", "https://idp.example", "--client-id", "c", "--client-secret-env", "S", "--client-secret-file",
                    "/f",
                ], 2,
                "exclude each other"
            ),
            (
                ["oidc.x", "--issuer", "https://idp.example", "--client-id", "c", "--client-secret-file", "/nonexistent/secret"], 7,
                "/nonexistent/secret"
            ),
            (
                ["oidc.x", "--issuer", "https://idp.example", "--client-id", "c", "--tenant", "common"], 2,
                "--tenant applies to microsoft.com"
            ),
            (["microsoft.com", "--client-id", "c", "--team-id", "ABCDEFGHIJ"], 2, "--team-id applies to apple.com"),
            (["microsoft.com", "--client-id", "c", "--issuer", "https://idp.example"], 2, "--issuer applies to"),
            (["apple.com", "--client-id", "com.example.signin"], 2, "--team-id"),
            (
                ["apple.com", "--client-id", "com.example.signin", "--team-id", "ABCDEFGHIJ", "--key-id", "KEY1234567"], 2,
                "--private-key-file"
            ),
            (["apple.com", "--team-id", "ABCDEFGHIJ"], 2, "--client-id"),
        ])
    func refused(arguments: [String], exit: Int32, rule: String) async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["providers", "add"] + arguments)
        #expect(result.status == exit, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(rule), "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: authctl.configPath), "\(arguments): nothing saved")
    }

    @Test("a secret file that exists and is private is accepted; an update of a complete provider needs no repeat of --client-id")
    func accepted() async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let secret = authctl.home + "/secret"
        _ = FileManager.default.createFile(atPath: secret, contents: Data("s3cret".utf8), attributes: [.posixPermissions: 0o600])
        let add = try await authctl.run([
            "providers", "add", "oidc.x", "--issuer", "https://idp.example", "--client-id", "c", "--client-secret-file", secret,
        ])
        #expect(add.status == 0, "\(add.stderr)")
        let update = try await authctl.run(["providers", "add", "oidc.x", "--scope", "offline_access"])
        #expect(update.status == 0, "\(update.stderr)")
    }
}

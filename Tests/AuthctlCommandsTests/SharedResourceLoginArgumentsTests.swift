import Foundation
import Testing

/// `login URL URL2 …` (docs/resources.md, "Several resources, one sign-in"): more than one
/// argument only as resources' URLs after a resource's URL, and not with the grants that sign
/// in to one resource without a browser; refused with exit 2 before anything is read or sent.
@Suite("login URL URL2: the arguments")
struct SharedResourceLoginArgumentsTests {
    @Test(
        "refused with exit 2 naming the rule, nothing written",
        arguments: [
            (["oidc.example", "https://api.example/mcp"], "authctl login https://… https://…"),
            (["https://api.example/mcp", "oidc.example"], "a provider is signed in to alone"),
            (["https://api.example/mcp", "https://api.example/other", "--via", "oidc.corp"], "--via"),
            (["https://api.example/mcp", "https://api.example/other", "--client-credentials", "--client-secret-env", "S"], "one URL"),
        ])
    func refused(arguments: [String], rule: String) async throws {
        let authctl = InProcessAuthctl()
        defer { try? FileManager.default.removeItem(atPath: authctl.home) }
        let result = try await authctl.run(["login"] + arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(rule), "\(arguments): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: authctl.keystorePath), "\(arguments): no keystore written")
    }
}

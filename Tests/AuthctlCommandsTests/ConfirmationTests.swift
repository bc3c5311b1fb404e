import AuthCore
import AuthCoreTestSupport
import AuthctlCommands
import Foundation
import Testing

/// Destructive commands ask a person at a terminal first (issue 25, item 9): `users delete`,
/// `providers remove` of a provider users hold tokens for, `keystore unseal`. `--yes` skips
/// the question; without a terminal they run as before. No, or Ctrl-C at the question: exit
/// 130 and nothing changed.
@Suite("destructive commands ask first on a terminal", .serialized)
final class ConfirmationTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func signIn() async throws {
        try await authctl.addFakeProvider(provider)
        try await authctl.run(["login", "oidc.fake", "--timeout", "120"]).expectSuccess()
    }

    func files() -> (Data?, Data?) {
        (authctl.keystoreBytes(), FileManager.default.contents(atPath: authctl.configPath))
    }

    @Test(
        "on a terminal, answering no changes nothing and exits 130; the question names what would go",
        arguments: [["users", "delete"], ["providers", "remove", "oidc.fake"]])
    func declined(arguments: [String]) async throws {
        try await signIn()
        let before = files()
        let result = try await authctl.run(arguments, stdin: Data("n\n".utf8), terminals: .all)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("[y/N]"), "\(result.stderr)")
        #expect(result.stderr.contains("ada@example.com") || result.stderr.contains("oidc.fake"), "\(result.stderr)")
        #expect(result.stderr.contains("authctl: not confirmed; nothing was changed"), "\(result.stderr)")
        #expect(files() == before)
    }

    @Test(
        "on a terminal, answering yes goes ahead; --yes goes ahead without asking",
        arguments: [["users", "delete"], ["providers", "remove", "oidc.fake"]])
    func confirmed(arguments: [String]) async throws {
        try await signIn()
        let yes = try await authctl.run(arguments, stdin: Data("y\n".utf8), terminals: .all)
        #expect(yes.status == 0 && yes.stderr.contains("[y/N]"), "\(yes.stderr)")
        try await signIn()
        let flag = try await authctl.run(arguments + ["--yes"], terminals: .all)
        #expect(flag.status == 0 && !flag.stderr.contains("[y/N]"), "\(flag.stderr)")
    }

    @Test("providers remove of a provider nobody holds tokens for does not ask")
    func removeUnusedProvider() async throws {
        try await authctl.addFakeProvider(provider)
        let result = try await authctl.run(["providers", "remove", "oidc.fake"], terminals: .all)
        #expect(result.status == 0 && !result.stderr.contains("[y/N]"), "\(result.stderr)")
    }

    @Test("keystore unseal asks on a terminal; no keeps the keystore sealed")
    func unseal() async throws {
        try await signIn()
        let keyFile = authctl.home + "/key"
        let key = try await authctl.run(["keystore", "new-key"])
        try Data(key.stdout.utf8).write(to: URL(fileURLWithPath: keyFile))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile)
        let environment = ["AUTHCTL_KEYSTORE_KEY_FILE": keyFile]
        try await authctl.run(["keystore", "seal", "--key-file", keyFile]).expectSuccess()
        let before = files()
        let declined = try await authctl.run(["keystore", "unseal"], environment: environment, stdin: Data("\n".utf8), terminals: .all)
        #expect(declined.status == 130 && declined.stderr.contains("plaintext"), "\(declined.stderr)")
        #expect(files() == before)
        let piped = try await authctl.run(["keystore", "unseal"], environment: environment)
        #expect(piped.status == 0 && !piped.stderr.contains("[y/N]"), "without a terminal it runs as before: \(piped.stderr)")
    }

    @Test("Ctrl-C at the question ends the command with exit 130, one wording, nothing changed")
    func interrupted() async throws {
        try await signIn()
        let before = files()
        let stdin = PipeInput(isTerminal: true)
        let stdout = CapturedOutput(isTerminal: true), stderr = CapturedOutput(isTerminal: true)
        let io = authctl.io(stdin: stdin, stdout: stdout, stderr: stderr, environment: [:])
        let running = Task { await AuthctlInvocation.run(["users", "delete"], io: io) }
        _ = try await stderr.waitForLine(containing: "[y/N]") { _ in true }
        running.cancel()
        let status = await running.value
        stdin.closeWriting()
        stdin.closeReading()
        #expect(status == 130, "\(stderr.text)")
        #expect(stderr.text.contains("authctl: cancelled (Ctrl-C); nothing was changed"), "\(stderr.text)")
        #expect(files() == before)
    }
}

import AuthCore
import AuthCoreTestSupport
import AuthctlCommands
import Foundation
import Testing

/// One message style (issue 25, item 16): every error begins `authctl: ` and a lower-case
/// word, ArgumentParser's own included; a provider is named by its id, not only its host;
/// every group's mistyped subcommand gets the nearest one; Ctrl-C outside a sign-in has one
/// wording and exit 130.
@Suite("one message style", .serialized)
final class MessageStyleTests {
    let authctl = InProcessAuthctl()

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    @Test(
        "ArgumentParser's usage errors begin as authctl's own: 'authctl: ' and a lower-case word",
        arguments: [
            ["users", "use"], ["login", "--timeout"], ["token", "a", "b"], ["status", "--bogus"], ["token", "--format", "yaml"],
        ])
    func usageErrorsLowerCase(arguments: [String]) async throws {
        let result = try await authctl.run(arguments)
        #expect(result.status == 2, "\(result.stderr)")
        let rest = result.stderr.dropFirst("authctl: ".count)
        #expect(result.stderr.hasPrefix("authctl: ") && rest.first.map { $0.isLowercase || !$0.isLetter } == true, "\(result.stderr)")
        #expect(!result.stderr.contains("Error:"), "\(result.stderr)")
    }

    @Test(
        "a mistyped subcommand of every group gets the nearest one, global options before it or not",
        arguments: [
            (["providers", "ad"], "providers add"), (["users", "delet"], "users delete"), (["keystore", "sael"], "keystore seal"),
            (["backend", "us"], "backend use"), (["--json", "providers", "ad"], "providers add"),
            (["providers", "lis", "--json"], "providers list"),
        ])
    func mistypedSubcommand(arguments: [String], nearest: String) async throws {
        let result = try await authctl.run(arguments)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("authctl: ") && result.stderr.contains("Did you mean '\(nearest)'?"), "\(result.stderr)")
    }

    @Test("a provider's refusal of the token request names the provider by its id, not only its host")
    func tokenErrorNamesProvider() async throws {
        let provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
        provider.behaviour.tokenEndpointOverride = FakeHTTP.json(.object(["error": "invalid_grant"]), status: 400)
        let result = try await authctl.run(["login", "oidc.fake", "--timeout", "120"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("oidc.fake (127.0.0.1) refused the token request"), "\(result.stderr)")
    }

    @Test("a discovery document that cannot be fetched names the provider by its id")
    func discoveryErrorNamesProvider() async throws {
        let provider = try FakeIdentityProvider()
        try await authctl.run([
            "providers", "add", "oidc.gone", "--issuer", provider.issuer + "/nothing-here", "--client-id", "c", "--no-check",
        ])
        let result = try await authctl.run(["login", "oidc.gone", "--timeout", "120"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "oidc.gone's discovery document at \(provider.issuer)/nothing-here/.well-known/openid-configuration answered HTTP 404"),
            "\(result.stderr)")
    }

    @Test("Ctrl-C at the --manual paste prompt ends the sign-in with exit 5 and the sign-in's one wording, as at the loopback wait")
    func interruptedManualSignIn() async throws {
        let provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
        let stdin = PipeInput()
        let stdout = CapturedOutput(isTerminal: false), stderr = CapturedOutput(isTerminal: false)
        let io = authctl.io(stdin: stdin, stdout: stdout, stderr: stderr, environment: [:])
        let running = Task { await AuthctlInvocation.run(["login", "oidc.fake", "--manual", "--timeout", "120"], io: io) }
        _ = try await stderr.waitForLine(containing: "Then paste") { _ in true }
        running.cancel()
        let status = await running.value
        stdin.closeWriting()
        stdin.closeReading()
        #expect(status == 5, "\(stderr.text)")
        #expect(stderr.text.hasSuffix("authctl: the sign-in was cancelled. Run the command again to sign in\n"), "\(stderr.text)")
    }

    @Test("Ctrl-C while users import - waits for stdin: exit 130 and the one wording (not the sign-in's exit 5)")
    func interruptedImport() async throws {
        let stdin = PipeInput()
        let stdout = CapturedOutput(isTerminal: false), stderr = CapturedOutput(isTerminal: false)
        let io = authctl.io(stdin: stdin, stdout: stdout, stderr: stderr, environment: [:])
        let running = Task { await AuthctlInvocation.run(["users", "import", "-"], io: io) }
        try await Task.sleep(for: .milliseconds(300))
        running.cancel()
        let status = await running.value
        stdin.closeWriting()
        stdin.closeReading()
        #expect(status == 130, "\(stderr.text)")
        #expect(stderr.text == "authctl: cancelled (Ctrl-C); nothing was changed\n", "\(stderr.text)")
        #expect(authctl.keystoreBytes() == nil)
    }
}

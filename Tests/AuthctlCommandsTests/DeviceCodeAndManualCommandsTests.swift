import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Sign-in without a browser, in-process: device code, and --manual with the redirect URL
/// pasted on stdin (a pipe).
@Suite("device code and --manual without a browser or a terminal", .serialized)
final class DeviceCodeAndManualCommandsTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func setUp() async throws {
        let add = try await authctl.run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(add.status == 0)
    }

    @Test("login --device-code in a non-interactive run: the code and URL on stderr, the approval signs in")
    func deviceCode() async throws {
        try await setUp()
        provider.behaviour.deviceInterval = .number(1)
        provider.behaviour.devicePolls = ["authorization_pending", "approve"]
        let result = try await authctl.run(["login", "oidc.fake", "--device-code", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("WDJB-MJHT") && result.json?["isNewUser"] == .bool(true))
        provider.behaviour.devicePolls = ["access_denied"]
        #expect(try await authctl.run(["login", "oidc.fake", "--device-code"]).status == 4)
    }

    @Test("login --manual reads the redirect URL from stdin; with stdin closed it fails at once with exit 5")
    func manual() async throws {
        try await setUp()
        let closed = try await authctl.run(["login", "oidc.fake", "--manual", "--timeout", "5"])
        #expect(closed.status == 5 && closed.stderr.contains("stdin"), "\(closed.stderr)")
        #expect(closed.stderr.contains("/authorize?"), "the URL is printed for the person")

        // A person: open the URL elsewhere, paste where the browser ended.
        let pasted = try await authctl.runManual(["login", "oidc.fake", "--manual", "--json"]) { url in
            try await CurlTransport(timeout: 10, environment: [:]).send(HTTPRequest(url: url)).header("Location") ?? ""
        }
        #expect(pasted.status == 0, "\(pasted.stderr)")
        #expect(pasted.json?["isNewUser"] == .bool(true))
        #expect(pasted.stderr.contains("paste the address the browser ended on"), "the person is told what to paste")
    }

    @Test("login --ciba in a non-interactive run: the binding message on stderr before the polls, the approval signs in; denied is 4")
    func ciba() async throws {
        try await setUp()
        provider.behaviour.deviceInterval = .number(1)
        provider.behaviour.devicePolls = ["authorization_pending", "approve"]
        let result = try await authctl.run(
            ["login", "oidc.fake", "--ciba", "--login-hint", "ada@example.com", "--binding-message", "check 42", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Approve it only if your device shows: check 42") && result.json?["isNewUser"] == .bool(true))
        provider.behaviour.devicePolls = ["access_denied"]
        let denied = try await authctl.run(["login", "oidc.fake", "--ciba", "--login-hint", "ada@example.com"])
        #expect(denied.status == 4 && denied.stderr.contains("refused"), "\(denied.stderr)")
    }

    @Test("--ciba, --remote and their options are checked before anything is sent (exit 2)")
    func headlessUsage() async throws {
        try await setUp()
        for arguments in [
            ["--ciba"], ["--login-hint", "ada"], ["--binding-message", "m"], ["--ciba", "--login-hint", "ada", "--manual"],
            ["--remote", "--device-code"], ["--remote", "--browser-command", "true"], ["--ciba", "--login-hint", ""],
            ["--ciba", "--login-hint", "ada", "--binding-message", String(repeating: "x", count: 257)],
            ["--ciba", "--login-hint", "ada", "--redirect-uri", "http://127.0.0.1:8400/callback"],
        ] {
            let result = try await authctl.run(["login", "oidc.fake"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
        }
        #expect(provider.count("backchannel") == 0 && provider.count("authorize") == 0)
    }

    @Test("login --remote prints one bootstrap command and reads the line back from stdin; stdin closed: exit 5")
    func remote() async throws {
        try await setUp()
        let closed = try await authctl.run(["login", "oidc.fake", "--remote", "--timeout", "5"])
        #expect(closed.status == 5, "\(closed.stderr)")
        let lines = closed.stderr.split(separator: "\n").filter { $0.hasPrefix("authctl bootstrap ") }
        #expect(lines.count == 1 && lines[0].hasPrefix("authctl bootstrap 'b1.") && lines[0].hasSuffix("'"), "\(closed.stderr)")
        #expect(!closed.stderr.contains("/authorize?"), "the URL travels inside the argument")
    }
}

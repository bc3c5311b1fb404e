import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// What a provider or a file controls is shown visible-safe (issue 22, item 8): no terminal
/// escape (OSC 52 writes the clipboard on some terminals), bell or bidirectional override
/// reaches stdout or stderr raw, in text or in `--json`; the keystore keeps the values as
/// they came.
@Suite("provider- and file-controlled text reaches the terminal visible-safe", .serialized)
final class TerminalEscapeCommandsTests {
    let authctl = InProcessAuthctl()

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// OSC 52 (clipboard), a CSI that clears the screen, DEL, a C1 CSI and a right-to-left override.
    static let name = "Ada\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2J\u{7F}\u{9B}31m\u{202E}Lovelace\u{2066}"
    static let email = "ada\u{1B}[31m@example.com\u{200F}\u{202A}"

    /// What a terminal acts on or reorders by: never in the output.
    static let raw: Set<Unicode.Scalar> = ["\u{1B}", "\u{07}", "\u{7F}", "\u{9B}", "\u{202E}", "\u{2066}", "\u{200F}", "\u{202A}"]

    func expectShownSafely(_ result: InProcessAuthctl.Result, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            let found = text.unicodeScalars.filter { Self.raw.contains($0) }.map { String(format: "U+%04X", $0.value) }
            #expect(found.isEmpty, "\(what): \(stream) holds \(found): \(text.debugDescription)", sourceLocation: sourceLocation)
        }
    }

    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> InProcessAuthctl.Result {
        let result = try await authctl.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        expectShownSafely(result, arguments.joined(separator: " "), sourceLocation: sourceLocation)
        return result
    }

    /// Every command that shows the user, in text and `--json`; the visible text is still there.
    func expectUserShownSafely(uid: String, current: Bool = true) async throws {
        let commands = (current ? [["status"], ["users", "show"]] : []) + [["users", "list"], ["users", "show", uid]]
        for command in commands {
            let text = try await run(command)
            #expect(text.stdout.contains("ada") && text.stdout.contains("example.com"), "\(command): \(text.stdout)")
            let json = try await run(command + ["--json"])
            #expect(json.json != nil, "\(command) --json: \(json.stdout)")
            #expect(json.stdout.contains("Lovelace"))
        }
    }

    @Test("an OIDC provider's name and email with escapes and bidi overrides: login, status, users list and show, text and JSON")
    func oidcProfile() async throws {
        let provider = try FakeIdentityProvider()
        provider.behaviour.name = Self.name
        provider.behaviour.email = Self.email
        _ = try await run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        let login = try await run(["login", "oidc.fake", "--timeout", "60"])
        #expect(login.stdout.contains("ada") && login.stdout.contains("example.com"), "\(login.stdout)")
        let json = try await run(["login", "oidc.fake", "--timeout", "60", "--json"])
        let user = try #require(json.json?["user"]?.objectValue)
        #expect(user["displayName"] == .string(Self.name), "JSON escapes the value; a reader gets it back as it came")
        #expect(user["email"] == .string(Self.email))
        let uid = try #require(user["uid"]?.stringValue)
        try await expectUserShownSafely(uid: uid)
        #expect(String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self).contains("\\u001b]52;c;"), "stored as it came")

        // A user exported, deleted and imported again: the import's lines and the imported user.
        let exported = try await run(["users", "export"])
        let file = authctl.home + "/users.json"
        try Data(exported.stdout.utf8).write(to: URL(fileURLWithPath: file))
        _ = try await run(["users", "delete"])
        let imported = try await run(["users", "import", file])
        #expect(imported.stdout.contains("Imported 1 user"), "\(imported.stdout)")
        try await expectUserShownSafely(uid: uid, current: false)
    }

    @Test("a name or email with a line feed or tab adds no line or column to status and users show: it shows escaped")
    func lineFeedsInValues() async throws {
        let provider = try FakeIdentityProvider()
        provider.behaviour.name = "Ada\n  oidc.bank: ceo@bank.example — access token valid for 9 h 0 min, refreshable"
        provider.behaviour.email = "ada@example.com\tx"
        _ = try await run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        _ = try await run(["login", "oidc.fake", "--timeout", "60"])
        for command in [["status"], ["users", "show"]] {
            let shown = try await run(command)
            let lines = shown.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(!lines.contains { $0.hasPrefix("  oidc.bank") }, "\(command): a line the provider wrote: \(shown.stdout)")
            #expect(shown.stdout.contains("Ada\\u{A}  oidc.bank"), "\(command): the line feed shown as itself: \(shown.stdout)")
            #expect(!shown.stdout.contains("\t"), "\(command): \(shown.stdout.debugDescription)")
        }
        let uid = try #require(try await run(["status", "--json"]).json?["user"]?.objectValue?["uid"]?.stringValue)
        let used = try await run(["users", "use", uid])
        #expect(used.stdout.contains("ada@example.com\\u{9}x") && !used.stdout.contains("\t"), "\(used.stdout.debugDescription)")
    }

    @Test("a device flow's user_code and verification_uri with escapes: the prompt shows them visible-safe")
    func deviceCode() async throws {
        let provider = try FakeIdentityProvider()
        provider.behaviour.deviceInterval = .number(1)
        provider.behaviour.deviceVerificationComplete = false
        provider.behaviour.deviceUserCode = "WDJB\u{1B}]52;c;cHduZWQ=\u{07}-MJHT\u{202E}"
        provider.behaviour.deviceVerificationPath = "/activate\u{1B}[2J\u{202E}"
        _ = try await run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        for json in [[], ["--json"]] {
            let login = try await run(["login", "oidc.fake", "--device-code"] + json)
            #expect(login.stderr.contains("WDJB") && login.stderr.contains("MJHT") && login.stderr.contains("/activate"), "\(login.stderr)")
        }
    }

    @Test("Microsoft Graph's displayName and mail with escapes: login, status, users list and show, text and JSON")
    func graphProfile() async throws {
        let microsoft = try FakeMicrosoft()
        microsoft.update {
            $0.account = FakeMicrosoft.Account(
                tenantID: FakeMicrosoft.contosoTenantID, objectID: "a1b2c3d4-0000-4000-8000-1234567890ab", name: Self.name,
                preferredUsername: "meganb@contoso.onmicrosoft.com", email: nil, mail: Self.email, photo: nil)
        }
        _ = try await run([
            "providers", "add", "microsoft.com", "--client-id", microsoft.clientID, "--authority-host", microsoft.host, "--graph-host",
            microsoft.host,
        ])
        let login = try await run(["login", "microsoft", "--timeout", "60", "--json"])
        let uid = try #require(login.json?["user"]?.objectValue?["uid"]?.stringValue)
        #expect(login.json?["user"]?.objectValue?["displayName"] == .string(Self.name))
        try await expectUserShownSafely(uid: uid)
    }

    @Test("a provider's error_description with escapes: the error line and the JSON error are visible-safe")
    func providerError() async throws {
        let provider = try FakeIdentityProvider()
        _ = try await run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        provider.behaviour.tokenEndpointOverride = FakeHTTP.json(
            .object(["error": "invalid_grant", "error_description": .string("The code\u{1B}]52;c;cHduZWQ=\u{07} has \u{202E}expired")]),
            status: 400)
        for json in [[], ["--json"]] {
            let result = try await authctl.run(["login", "oidc.fake", "--timeout", "60"] + json)
            #expect(result.status == 4, "\(result.stderr)")
            expectShownSafely(result, "login \(json)")
            #expect(result.stderr.contains("The code") && result.stderr.contains("expired"), "\(result.stderr)")
        }
    }
}

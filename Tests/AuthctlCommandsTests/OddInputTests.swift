import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthctlCommands

/// What a user (or a file) hands authctl that it did not expect: numbers out of range,
/// odd arguments, a configuration file edited by hand. In-process: a trap would end the test
/// run, not give an exit status.
@Suite("authctl given odd numbers, arguments and configuration files", .serialized)
final class OddInputTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func setUp() async throws {
        let add = try await authctl.run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(add.status == 0, "\(add.stderr)")
    }

    /// A usage error: exit 2 (not a signal), the option named on stderr.
    func expectUsageError(_ arguments: [String], naming option: String, _ also: String? = nil) async throws {
        let result = try await authctl.run(arguments)
        #expect(result.status == 2, "\(arguments): exit \(result.status) \(result.stderr)")
        #expect(result.stderr.contains(option), "\(arguments): \(result.stderr)")
        if let also { #expect(result.stderr.contains(also), "\(arguments): \(result.stderr)") }
    }

    @Test("a huge or negative --timeout is refused at parse time with its range, not a trap in the listener")
    func timeouts() async throws {
        try await setUp()
        for value in ["9223372036854775807", "86401", "0", "-1"] {
            try await expectUsageError(["login", "oidc.fake", "--no-browser", "--timeout", value], naming: "--timeout", "86400")
            try await expectUsageError(["login", "oidc.fake", "--no-browser", "--timeout=\(value)"], naming: "--timeout", "86400")
        }
    }

    @Test("--redirect-uri with port 65536 is refused with exit 2 on login and on providers add, never saved")
    func redirectPort() async throws {
        try await setUp()
        let uri = "http://127.0.0.1:65536/"
        try await expectUsageError(
            ["login", "oidc.fake", "--no-browser", "--timeout", "2", "--redirect-uri", uri], naming: "--redirect-uri")
        try await expectUsageError(
            ["providers", "add", "oidc.other", "--issuer", provider.issuer, "--client-id", "c", "--redirect-uri", uri],
            naming: "--redirect-uri")
        try await expectUsageError(
            ["login", "oidc.fake", "--no-browser", "--timeout", "2", "--redirect-uri", "http://[::1]:99999/cb"], naming: "--redirect-uri")
        let config = try String(contentsOfFile: authctl.configPath, encoding: .utf8)
        #expect(!config.contains("65536") && !config.contains("oidc.other"))
    }

    @Test("--min-ttl out of 0…86400 is refused with exit 2 naming the option, on the fast path and through ArgumentParser")
    func minimumTTL() async throws {
        for arguments in [
            ["token", "--min-ttl", "-1"], ["token", "--min-ttl=-1"], ["token", "--min-ttl", "86401"],
            ["token", "--min-ttl=9223372036854775807"],
            ["token", "-vq", "--min-ttl", "100000"],
        ] {
            try await expectUsageError(arguments, naming: "--min-ttl", "86400")
        }
    }

    @Test("a blank or multi-line client id, an empty --client-secret-env: exit 2 naming the option and the rule")
    func blankValues() async throws {
        let base = ["providers", "add", "oidc.x", "--issuer", "https://issuer.example"]
        try await expectUsageError(base + ["--client-id", " "], naming: "--client-id")
        try await expectUsageError(base + ["--client-id", "a\nb"], naming: "--client-id")
        try await expectUsageError(base + ["--client-id", "\t"], naming: "--client-id")
        try await expectUsageError(base + ["--client-id", "c", "--client-secret-env", ""], naming: "--client-secret-env")
        try await expectUsageError(base + ["--client-id", "c", "--client-secret-env", "A B"], naming: "--client-secret-env")
        try await expectUsageError(base + ["--client-id", "c", "--client-secret-file", ""], naming: "--client-secret-file")
        #expect(!FileManager.default.fileExists(atPath: authctl.configPath))
    }

    @Test("the arguments after -- are the child's: exec -- echo --json reports authctl's error as text, not JSON")
    func execTerminator() async throws {
        let result = try await authctl.run(["exec", "--", "echo", "--json"])
        #expect(result.status == 16, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no JSON document: \(result.stdout)")
        let hoisted = try await authctl.run(["--quiet", "exec", "--", "echo", "--json"])
        #expect(hoisted.status == 16 && hoisted.stdout.isEmpty, "\(hoisted.stdout)")
        #expect(GlobalOptions.hoistingLeadingGlobals(["--", "--json"]) == ["--", "--json"])
        let asked = try await authctl.run(["--json", "exec", "--", "echo", "--json"])
        #expect(asked.status == 16 && asked.json?["error"] != nil, "--json before -- still counts: \(asked.stdout)")
    }

    @Test("the token fast parser and ArgumentParser agree on a tab scope and an empty --keystore=")
    func tokenOddForms() async throws {
        let tab = try await authctl.run(["token", "--scope", "\t"])
        let grouped = try await authctl.run(["token", "-vq", "--scope", "\t"])
        #expect(tab.status == 2 && grouped.status == 2, "\(tab.stderr) / \(grouped.stderr)")
        let empty = try await authctl.run(["token", "--keystore=", "--json"])
        #expect(
            empty.status == 2 && empty.json?["error"] != nil, "an empty keystore path is refused, --json is not its value: \(empty.stdout)")
    }

    /// Replaces config.json (keeping its mode) with one provider entry `oidc.bad` holding
    /// `fields` beside a valid issuer and client id.
    func writeConfig(_ entry: String, key: String = "oidc.bad") throws {
        // The entry's own issuer or client id replaces the valid one (a JSON object has each key once).
        let issuer = entry.contains(#""issuer""#) ? "" : #", "issuer": "\#(provider.issuer)""#
        let clientID = entry.contains(#""clientId""#) ? "" : #", "clientId": "c""#
        let json = #"{"version": 1, "providers": {"\#(key)": {"id": "oidc.bad"\#(issuer)\#(clientID)\#(entry)}}}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: authctl.configPath))
    }

    @Test(
        "every bad field of a hand-edited config.json ends login with exit 7 naming the file, the provider and the field",
        arguments: [
            (#", "issuer": "http://[::1""#, "issuer"), (#", "redirectUri": "http://127.0.0.1:65536/""#, "redirectUri"),
            (#", "listenAddress": "8.8.8.8:80""#, "listenAddress"), (#", "clientId": " ""#, "clientId"),
            (#", "clientId": "a\nb""#, "clientId"), (#", "clientSecretEnv": """#, "clientSecretEnv"),
            (#", "scopes": "openid""#, "scopes"), (#", "flow": "hybrid""#, "flow"), (#", "tenant": "common""#, "tenant"),
            (#", "parameters": {"state": "x"}"#, "parameters"), (#", "colour": "blue""#, "colour"),
            (#", "issuer": "http://issuer.example""#, "issuer"), (#", "teamId": "ABCDE12345""#, "teamId"),
        ])
    func badConfigField(entry: String, field: String) async throws {
        try await setUp()
        try writeConfig(entry)
        let result = try await authctl.run(["login", "oidc.bad", "--no-browser", "--timeout", "2"])
        #expect(result.status == 7, "\(entry): exit \(result.status) \(result.stderr)")
        #expect(result.stderr.contains(authctl.configPath), "names the file: \(result.stderr)")
        #expect(result.stderr.contains("\"\(field)\"") && result.stderr.contains("oidc.bad"), "\(field): \(result.stderr)")
        let list = try await authctl.run(["providers", "list"])
        #expect(list.status == 7, "every command that reads the file: \(list.stderr)")
        let removed = try await authctl.run(["providers", "remove", "oidc.bad"])
        #expect(removed.status == 0, "the way out the message gives works: \(removed.stderr)")
        #expect(try await authctl.run(["providers", "list"]).status == 0)
    }

    @Test("a client secret written into config.json is refused (exit 7) with where secrets go instead, and never echoed")
    func secretInConfig() async throws {
        try await setUp()
        for key in ["clientSecret", "secret", "privateKey", "client_secret"] {
            try writeConfig(#", "\#(key)": "hunter2-very-secret""#)
            let result = try await authctl.run(["login", "oidc.bad", "--no-browser", "--timeout", "2"])
            #expect(result.status == 7, "\(key): \(result.stderr)")
            #expect(result.stderr.contains("--client-secret-env") && result.stderr.contains("--client-secret-file"), "\(result.stderr)")
            #expect(result.stderr.contains(key) && !result.stderr.contains("hunter2"), "\(result.stderr)")
        }
    }

    @Test("a provider entry filed under another id than its own is refused (exit 7)")
    func mismatchedKey() async throws {
        try await setUp()
        try writeConfig("", key: "oidc.other")
        let result = try await authctl.run(["login", "oidc.other", "--no-browser", "--timeout", "2"])
        #expect(result.status == 7 && result.stderr.contains("\"id\"") && result.stderr.contains("oidc.other"), "\(result.stderr)")
    }
}

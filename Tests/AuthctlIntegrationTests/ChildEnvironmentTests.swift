import AuthCoreTestSupport
import Foundation
import Testing

/// What the programs authctl starts find in their environment (issue 22, item 4): none of
/// the variables that hold or unlock a secret, and every other variable as it was.
@Suite("the environment of exec's command and of the browser", .serialized)
final class ChildEnvironmentTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    /// The secrets given to authctl, each of which a child must not see (name and value).
    static let secrets = [
        "AUTHCTL_KEYSTORE_PASSPHRASE": "passphrase-secret-1",
        "MY_CLIENT_SECRET": "client-secret-1",
        "ACTIONS_ID_TOKEN_REQUEST_TOKEN": "actions-request-secret-1",
    ]

    init() async throws {
        provider = try FakeIdentityProvider()
        provider.behaviour.clientSecret = Self.secrets["MY_CLIENT_SECRET"]
        let added = try await authctl.run([
            "providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID,
            "--client-secret-env", "MY_CLIENT_SECRET",
        ])
        #expect(added.status == 0, "\(added.stderr)")
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// The keystore sealed by `keyFile` (AUTHCTL_KEYSTORE_KEY_FILE) or by a passphrase
    /// (AUTHCTL_KEYSTORE_PASSPHRASE), and the environment that opens it with the other secrets.
    func sealed(_ sealing: String) async throws -> [String: String] {
        var environment = Self.secrets
        environment["ORDINARY_VARIABLE"] = "kept as it was"
        if sealing == "keyFile" {
            let made = try await authctl.run(["keystore", "new-key"])
            let key = authctl.home + "/keystore.key"
            #expect(FileManager.default.createFile(atPath: key, contents: Data(made.stdout.utf8), attributes: [.posixPermissions: 0o600]))
            environment["AUTHCTL_KEYSTORE_PASSPHRASE"] = nil
            environment["AUTHCTL_KEYSTORE_KEY_FILE"] = key
            #expect(try await authctl.run(["keystore", "seal", "--key-file", key]).status == 0)
        } else {
            let seal = try await authctl.run(
                ["keystore", "seal", "--passphrase-env", "AUTHCTL_KEYSTORE_PASSPHRASE"], environment: environment)
            #expect(seal.status == 0, "\(seal.stderr)")
        }
        return environment
    }

    func expectScrubbed(_ dump: String, given environment: [String: String], sourceLocation: SourceLocation = #_sourceLocation) {
        let names = Set(dump.split(separator: "\n").compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        #expect(names.contains("ORDINARY_VARIABLE") && dump.contains("ORDINARY_VARIABLE=kept as it was"), sourceLocation: sourceLocation)
        #expect(names.contains("HOME") && names.contains("PATH"), sourceLocation: sourceLocation)
        for (name, value) in environment where name != "ORDINARY_VARIABLE" {
            #expect(!names.contains(name), "\(name) reached the child", sourceLocation: sourceLocation)
            #expect(!dump.contains(value), "the value of \(name) reached the child", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "exec's command gets no keystore key, passphrase or client secret; every other variable passes",
        arguments: ["passphrase", "keyFile"])
    func execChild(sealing: String) async throws {
        var environment = try await sealed(sealing)
        let login = try await authctl.run(
            ["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"], environment: environment)
        #expect(login.status == 0, "\(login.stderr)")
        let dump = authctl.home + "/exec-env"
        environment["ACTIONS_ID_TOKEN_REQUEST_URL"] = "http://127.0.0.1:9/not-a-secret"
        let result = try await authctl.run(["exec", "--", "sh", "-c", "env > '\(dump)'"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: dump, encoding: .utf8)
        environment["ACTIONS_ID_TOKEN_REQUEST_URL"] = nil
        expectScrubbed(text, given: environment)
        #expect(text.contains("AUTHCTL_TOKEN=at-") && text.contains("AUTHCTL_TOKEN_FILE="), "exec's own variables: \(text)")
        #expect(text.contains("ACTIONS_ID_TOKEN_REQUEST_URL="), "a URL is no secret")
    }

    @Test("the browser command gets no keystore key, passphrase, client secret or outer exec token", arguments: ["passphrase", "keyFile"])
    func browser(sealing: String) async throws {
        var environment = try await sealed(sealing)
        // authctl itself run by an outer `authctl exec`: that token is not the browser's either.
        environment["AUTHCTL_TOKEN"] = "outer-exec-token-1"
        environment["AUTHCTL_TOKEN_FILE"] = authctl.home + "/outer-token-file"
        let dump = authctl.home + "/browser-env"
        let browser = authctl.home + "/browser.sh"
        try Data("#!/bin/sh\nenv > '\(dump)'\nexec \(AuthctlProcess.browserCommand) \"$1\"\n".utf8).write(to: URL(fileURLWithPath: browser))
        chmod(browser, 0o755)
        let login = try await authctl.run(
            ["login", "oidc.fake", "--browser-command", browser, "--timeout", "20"], environment: environment)
        #expect(login.status == 0, "\(login.stderr)")
        expectScrubbed(try String(contentsOfFile: dump, encoding: .utf8), given: environment)
    }
}

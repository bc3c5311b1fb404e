import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The commands, in-process, against the in-process provider, with a browser that follows the
/// 302 into authctl's loopback listener (`FollowingBrowser`). AuthctlBinaryTests keeps what
/// only processes show.
@Suite("authctl commands end to end", .serialized)
final class CommandsEndToEndTests {
    let provider: FakeIdentityProvider
    let authctl = InProcessAuthctl()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func addProvider() async throws {
        let result = try await authctl.run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(result.status == 0, "\(result.stderr)")
    }

    func login(_ extra: [String] = [], environment: [String: String] = [:]) async throws -> InProcessAuthctl.Result {
        try await authctl.run(
            ["login", "oidc.fake", "--timeout", "120"] + extra, environment: environment)
    }

    @Test("login, status, token, forced refresh, signout --revoke: the whole session")
    func wholeSession() async throws {
        try await addProvider()
        let first = try await login(["--json"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.json?["isNewUser"] == .bool(true))
        #expect(first.json?["providerId"] == .string("oidc.fake"))

        let status = try await authctl.run(["--json", "status"])
        #expect(status.status == 0)
        #expect(status.json?["signedIn"] == .bool(true))
        let identity = status.json?["user"]?.objectValue?["providerData"]?.arrayValue?.first?.objectValue
        #expect(identity?["providerId"] == .string("oidc.fake") && identity?["refreshable"] == .bool(true))

        let requestsBefore = provider.count("discovery") + provider.count("jwks") + provider.count("token")
        let token = try await authctl.run(["token"])
        #expect(token.status == 0 && token.stdout.hasPrefix("at-"))
        #expect(
            provider.count("discovery") + provider.count("jwks") + provider.count("token") == requestsBefore,
            "a valid cached token is printed without asking the provider anything")
        #expect(token.stderr.isEmpty)
        let idToken = try await authctl.run(["token", "--id-token"])
        #expect(idToken.stdout.split(separator: ".").count == 3)
        let refreshed = try await authctl.run(["token", "--force-refresh", "--format", "json"])
        #expect(refreshed.status == 0)
        #expect(refreshed.json?["accessToken"]?.stringValue?.hasPrefix("at-") == true)
        #expect(refreshed.json?["accessToken"]?.stringValue != token.stdout.trimmingCharacters(in: .whitespacesAndNewlines))

        let signout = try await authctl.run(["signout", "--revoke"])
        #expect(signout.status == 0, "\(signout.stderr)")
        #expect(signout.stderr.contains("revoked"))
        #expect(provider.revoked.count == 1)
        let after = try await authctl.run(["status"])
        #expect(after.status == 16)
        let again = try await login()
        #expect(again.status == 0)
        let users = try await authctl.run(["users", "list", "--json"])
        #expect(users.json?["users"]?.arrayValue?.count == 1, "the same user is found again after signout")
    }

    @Test("global options work before and after the subcommand; environment variables choose the files")
    func globalOptions() async throws {
        let elsewhere = authctl.home + "/other-keystore.json"
        let before = try await authctl.run(["--json", "--keystore", elsewhere, "status"])
        let after = try await authctl.run(["status", "--keystore", elsewhere, "--json"])
        #expect(before.status == 16 && after.status == 16)
        #expect(before.json?["signedIn"] == .bool(false) && before.stdout == after.stdout)
        let viaEnvironment = try await authctl.run(
            ["providers", "add", "oidc.env", "--issuer", "https://idp.example", "--client-id", "c", "--no-check"],
            environment: ["AUTHCTL_CONFIG": authctl.home + "/env-config.json"])
        #expect(viaEnvironment.status == 0)
        #expect(FileManager.default.fileExists(atPath: authctl.home + "/env-config.json"))
    }

    @Test(
        "hostile providers are refused with the exit codes of docs/exit-codes.md and a byte-identical keystore",
        arguments: [
            ("bad signature", Int32(4)), ("wrong issuer", 4), ("wrong audience", 4), ("wrong nonce", 4), ("alg none", 4),
            ("HS256 with the public key", 4), ("expired", 4), ("string exp", 4), ("access denied", 4), ("token endpoint 500", 3),
            ("discovery issuer mismatch", 7), ("wrong state", 5),
        ])
    func hostile(name: String, exit: Int32) async throws {
        try await addProvider()
        #expect(try await login().status == 0)
        let before = try #require(authctl.keystoreBytes())
        provider.update { behaviour in
            switch name {
            case "bad signature": behaviour.signWithUnpublishedKey = true
            case "wrong issuer": behaviour.idTokenIssuer = "https://evil.example"
            case "wrong audience": behaviour.idTokenAudience = .string("another-client")
            case "wrong nonce": behaviour.idTokenNonce = "stale"
            case "alg none": behaviour.signing = .none
            case "HS256 with the public key": behaviour.signing = .hs256WithPublicKey
            case "expired": behaviour.idTokenExpiresIn = -3600
            case "string exp": behaviour.expAsString = true
            case "access denied": behaviour.authorizeError = "access_denied"
            case "token endpoint 500":
                behaviour.tokenEndpointOverride = HTTPResponse(status: 500, body: Data("<html>Internal Server Error</html>".utf8))
            case "discovery issuer mismatch": behaviour.discoveryIssuer = "https://impostor.example"
            default: behaviour.forgedState = "forged-state"
            }
        }
        // A fresh cache, so that discovery is fetched again.
        let result = try await login(["--timeout", "3"], environment: ["XDG_CACHE_HOME": authctl.home + "/cache-\(UUID().uuidString)"])
        #expect(result.status == exit, "\(name): \(result.stderr)")
        let errorLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("authctl: ") }
        #expect(errorLines.count == 1, "one error line on stderr: \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").last?.hasPrefix("authctl: ") == true)
        #expect(authctl.keystoreBytes() == before, "\(name) changed the keystore")
    }

    @Test("a key rotation right after the key set was cached: one refetch, and the sign-in succeeds")
    func keyRotation() async throws {
        try await addProvider()
        #expect(try await login().status == 0)  // caches discovery and the key set
        let fetches = provider.count("jwks")
        provider.rotateKeys(to: "rotated-key")
        let again = try await login()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(provider.count("jwks") == fetches + 1)
        let cached = try await authctl.run(["token", "--force-refresh"])
        #expect(cached.status == 0)
        #expect(provider.count("jwks") == fetches + 1, "the refetched key set is cached again")
    }

    @Test("unsafe, symlinked or corrupt keystores are refused before the browser opens, and left untouched")
    func unsafeKeystores() async throws {
        try await addProvider()
        #expect(try await login().status == 0)
        let path = authctl.keystorePath
        chmod(path, 0o644)
        let readable = try await authctl.run(["status"])
        #expect(readable.status == 6 && readable.stderr.contains("chmod 600"))
        let authorizeCount = provider.count("authorize")
        #expect(try await login().status == 6)
        #expect(provider.count("authorize") == authorizeCount, "the browser must not open")
        chmod(path, 0o600)

        let link = authctl.home + "/link.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let linked = try await authctl.run(["status", "--keystore", link])
        #expect(linked.status == 6 && linked.stderr.contains("symbolic link"))

        let corrupt = Data("{\"version\": 1, \"users\": [".utf8)
        try corrupt.write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        let broken = try await login(["--json"])
        #expect(broken.status == 6)
        #expect(broken.json?["error"]?.objectValue?["code"] == .string("keystore-error"))
        #expect(authctl.keystoreBytes() == corrupt)
    }

    @Test(
        "bad usage exits 2 with a message naming the problem",
        arguments: [
            (["login", "--credential", "pc_x", "--id-token", "-"], "--credential"),
            (["login", "google"], "not a provider id"), (["token", "--format", "yaml"], "format"),
            (["login", "oidc.fake", "--param", "state=x"], "'state'"), (["providers", "add", "oidc.x", "--client-id", "c"], "--issuer"),
            (["login", "oidc.fake", "--listen-address", "0.0.0.0:80"], "loopback"),
        ])
    func usage(arguments: [String], mention: String) async throws {
        try await addProvider()
        let result = try await authctl.run(arguments)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(mention), "\(result.stderr)")
    }

    @Test("providers add keeps a client secret's reference, never its value, in a private config file")
    func secretByReference() async throws {
        let secret = "value-\(UUID().uuidString)"
        let result = try await authctl.run(
            [
                "providers", "add", "oidc.conf", "--issuer", provider.issuer, "--client-id", provider.clientID, "--client-secret-env",
                "CONF_SECRET",
            ],
            environment: ["CONF_SECRET": secret])
        #expect(result.status == 0)
        let config = try String(contentsOfFile: authctl.configPath, encoding: .utf8)
        #expect(config.contains("CONF_SECRET") && !config.contains(secret))
        let mode = try FileManager.default.attributesOfItem(atPath: authctl.configPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        provider.update { $0.clientSecret = secret }
        let login = try await authctl.run(
            ["login", "oidc.conf", "-v", "--timeout", "120"],
            environment: ["CONF_SECRET": secret])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(!login.stderr.contains(secret) && !login.stdout.contains(secret))
    }

    @Test("errors in --json mode are one JSON document on stdout")
    func jsonErrors() async throws {
        let result = try await authctl.run(["login", "oidc.unknown", "--json"])
        #expect(result.status == 7)
        #expect(result.json?["error"]?.objectValue?["code"] == .string("provider-not-configured"))
    }

    @Test("no token, code, verifier or secret reaches stderr at full verbosity")
    func noSecretsInOutput() async throws {
        try await addProvider()
        var outputs: [InProcessAuthctl.Result] = []
        outputs.append(try await login(["-v"]))
        outputs.append(try await authctl.run(["token", "-v", "--force-refresh"]))
        outputs.append(try await authctl.run(["status", "-v"]))
        outputs.append(try await authctl.run(["signout", "-v", "--revoke"]))
        let keystore = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        #expect(outputs.allSatisfy { $0.status == 0 })
        let logged = outputs.map(\.stderr).joined() + outputs[0].stdout + outputs[2].stdout + outputs[3].stdout
        #expect(logged.contains("http: POST http://127.0.0.1"), "verbose logs the exchanges")
        for secret in provider.issuedSecrets + [keystore].flatMap(Self.tokens) {
            #expect(!logged.contains(secret), "a secret leaked: \(secret.prefix(8))…")
        }
        for word in ["code_verifier", "state=", "nonce=", "refresh_token", "code="] {
            #expect(!logged.contains(word), "\(word) leaked")
        }
    }

    static func tokens(in text: String) -> [String] {
        text.split(whereSeparator: { "\" ,\n".contains($0) }).map(String.init).filter {
            $0.hasPrefix("at-") || $0.hasPrefix("rt-") || $0.hasPrefix("ey")
        }
    }

    @Test("the committed man page docs/authctl.1 names every command and option authctl has")
    func manPage() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/authctl.1"), encoding: .utf8)
        let dump = try await authctl.run(["--experimental-dump-help"])
        let command = try #require(dump.json?["command"]?.objectValue)
        var missing: [String] = []
        func check(_ command: [String: JSONValue], path: String) {
            let name = command["commandName"]?.stringValue ?? ""
            if !path.isEmpty, !page.contains("Cm \(name)") { missing.append("command \(path)") }
            if let abstract = command["abstract"]?.stringValue, !abstract.isEmpty, !page.contains(abstract) {
                missing.append("abstract of \(path.isEmpty ? "authctl" : path)")
            }
            for argument in command["arguments"]?.arrayValue ?? [] {
                if let argument = argument.objectValue, argument["shouldDisplay"] != .bool(false),
                    let help = argument["abstract"]?.stringValue, !help.isEmpty, !page.contains(help)
                {
                    missing.append("the help of an argument of \(path.isEmpty ? "authctl" : path): \(help.prefix(40))…")
                }
                guard let argument = argument.objectValue, argument["shouldDisplay"] != .bool(false),
                    let names = argument["names"]?.arrayValue,
                    let long = names.compactMap({ $0.objectValue }).first(where: { $0["kind"] == "long" }),
                    let option = long["name"]?.stringValue
                else { continue }
                if !page.contains("Fl -\(option)"), !page.contains(", -\(option)") { missing.append("--\(option) of \(path)") }
            }
            for sub in command["subcommands"]?.arrayValue ?? [] {
                if let sub = sub.objectValue {
                    check(sub, path: (path.isEmpty ? "" : path + " ") + (sub["commandName"]?.stringValue ?? ""))
                }
            }
        }
        check(command, path: "")
        #expect(missing.isEmpty, "docs/authctl.1 is stale (run scripts/update-completions.sh): \(missing)")
    }

    @Test("the committed completion scripts are current", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) async throws {
        let result = try await authctl.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        let name = ["bash": "authctl.bash", "zsh": "_authctl", "fish": "authctl.fish"][shell]!
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let committed = try String(contentsOf: root.appendingPathComponent("completions/\(name)"), encoding: .utf8)
        #expect(committed == result.stdout, "completions/\(name) is stale: run scripts/update-completions.sh")
    }
}

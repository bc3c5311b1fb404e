import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Login CSRF through the browser's command line (issue 12, item 1): what another local
/// user can read (`/proc/PID/cmdline`) and what they can reach (the loopback listener).
@Suite("the browser gets a start URL, and the listener serves only the user", .serialized)
final class ListenerSecurityTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() async throws {
        provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// A browser command: a shell script in the test's home, given the URL as `$1`.
    func browser(_ body: String) throws -> String {
        let path = authctl.home + "/browser-\(UUID().uuidString).sh"
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return path
    }

    func login(browser: String, _ extra: [String] = []) async throws -> AuthctlProcess.Result {
        try await authctl.run(["login", "oidc.fake", "--browser-command", browser, "--timeout", "15"] + extra)
    }

    func contents(_ name: String) -> String {
        (try? String(contentsOfFile: authctl.home + "/" + name, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    @Test("the browser command's arguments and environment carry only a one-time start URL: no state, nonce or PKCE challenge")
    func nothingSecretOnTheCommandLine() async throws {
        let script = try browser(
            """
            printf '%s\\n' "$@" > '\(authctl.home)/arguments'
            env > '\(authctl.home)/environment'
            exec curl --silent --location --max-time 10 --output /dev/null "$1"
            """)
        let result = try await login(browser: script)
        #expect(result.status == 0, "\(result.stderr)")
        let arguments = contents("arguments").split(separator: "\n").map(String.init)
        #expect(arguments.count == 1)
        let url = try #require(arguments.first.flatMap(URL.init(string:)))
        #expect(url.scheme == "http" && url.host == "127.0.0.1" && url.query == nil)
        #expect(url.path.hasPrefix("/start/") && url.path.count >= "/start/".count + 43, "a start path of at least 256 bits: \(url.path)")
        for secret in ["state", "nonce", "code_challenge", "client_id", "redirect_uri", provider.issuer] {
            #expect(!arguments.joined().contains(secret), "the browser's arguments name \(secret)")
            #expect(!contents("environment").contains(secret + "="), "the browser's environment names \(secret)")
        }
        #expect(provider.count("authorize") == 1)
    }

    @Test("a second request for the start URL ends the sign-in (exit 5) and nothing is stored")
    func startURLTwice() async throws {
        let script = try browser(
            """
            curl --silent --max-time 10 --output /dev/null "$1"
            curl --silent --max-time 10 "$1" > '\(authctl.home)/second'
            """)
        let result = try await login(browser: script)
        #expect(result.status == 5, "\(result.stderr)")
        #expect(result.stderr.contains("start URL was opened twice"), "\(result.stderr)")
        #expect(contents("second").contains("opened twice"), "the second browser is told why: \(contents("second"))")
        #expect(authctl.keystoreBytes() == nil)
    }

    @Test(
        "another local user can neither take the start URL nor deliver a code: a static 403, and the user's browser still signs in",
        .enabled(if: geteuid() == 0, "needs root to connect as another user (CI runs as root)"))
    func otherUserRefused() async throws {
        // `nobody` tries first, as the attacker who read the start URL from /proc would.
        let script = try browser(
            """
            setpriv --reuid=65534 --regid=65534 --clear-groups curl --silent --include --max-time 10 --location "$1" > '\(authctl.home)/nobody'
            exec curl --silent --location --max-time 10 --output /dev/null "$1"
            """)
        let result = try await login(browser: script)
        #expect(contents("nobody").hasPrefix("HTTP/1.1 403 Forbidden"), "\(contents("nobody"))")
        #expect(!contents("nobody").contains("Location:"), "no redirect to the provider")
        #expect(
            contents("nobody").contains("--allow-any-local-user") && contents("nobody").contains("AUTHCTL_ALLOW_ANY_LOCAL_USER=1"),
            "the 403 page names the way out (issue 12): \(contents("nobody"))")
        #expect(result.status == 0, "the start URL was not spent by the refused request: \(result.stderr)")
        #expect(
            result.stderr.contains("another local user (uid 65534)") && result.stderr.contains("--allow-any-local-user"), "\(result.stderr)"
        )
        #expect(provider.count("authorize") == 1, "nobody never reached the provider through authctl's start URL")
    }

    @Test(
        "another local user's code with the right state is refused: nobody finishes the sign-in, the user's browser does",
        .enabled(if: geteuid() == 0, "needs root to connect as another user (CI runs as root)"))
    func otherUserCannotDeliverACode() async throws {
        // The attacker knows the whole authorization URL (state included) and has a code:
        // the start URL's redirect is followed by the user, the callback by nobody.
        let script = try browser(
            """
            authorize=$(curl --silent --max-time 10 --output /dev/null --write-out '%{redirect_url}' "$1")
            callback=$(curl --silent --max-time 10 --output /dev/null --write-out '%{redirect_url}' "$authorize")
            setpriv --reuid=65534 --regid=65534 --clear-groups curl --silent --max-time 10 --output /dev/null --write-out '%{http_code}' "$callback" > '\(authctl.home)/nobody'
            exec curl --silent --max-time 10 --output /dev/null "$callback"
            """)
        let result = try await login(browser: script)
        #expect(contents("nobody") == "403")
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test(
        "--allow-any-local-user (or AUTHCTL_ALLOW_ANY_LOCAL_USER=1) serves a browser relayed by another user",
        .enabled(if: geteuid() == 0, "needs root to connect as another user (CI runs as root)"),
        arguments: [true, false])
    func allowAnyLocalUser(viaEnvironment: Bool) async throws {
        let script = try browser(
            "exec setpriv --reuid=65534 --regid=65534 --clear-groups curl --silent --location --max-time 10 --output /dev/null \"$1\"")
        let result = try await authctl.run(
            ["login", "oidc.fake", "--browser-command", script, "--timeout", "15"] + (viaEnvironment ? [] : ["--allow-any-local-user"]),
            environment: viaEnvironment ? ["AUTHCTL_ALLOW_ANY_LOCAL_USER": "1"] : [:])
        #expect(result.status == 0, "\(result.stderr)")
    }
}

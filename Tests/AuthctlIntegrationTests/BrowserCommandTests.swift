import AuthCoreTestSupport
import Foundation
import Testing

/// A browser command that fails, and $BROWSER (issue 15, item 3; docs/authctl.1).
@Suite("browser commands that fail, and $BROWSER", .serialized)
final class BrowserCommandTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() async throws {
        provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func script(_ body: String) throws -> String {
        let path = authctl.home + "/browser-\(UUID().uuidString).sh"
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return path
    }

    @Test(
        "a browser command that fails or cannot start: the URL is printed and authctl keeps waiting",
        arguments: ["/bin/false", "/nonexistent/browser", "exit-3-later"])
    func failingBrowser(_ command: String) async throws {
        let browser = command == "exit-3-later" ? try script("sleep 0.3; exit 3") : command
        let result = try await authctl.run(["login", "oidc.fake", "--browser-command", browser, "--timeout", "3"])
        #expect(result.status == 5, "it kept waiting until the timeout: \(result.stderr)")
        #expect(result.stderr.contains("Open this URL in a browser"), "\(result.stderr)")
        #expect(!result.stderr.contains("Opened the browser"), "\(result.stderr)")
    }

    @Test("a browser command that fails is reported: its exit status, or that it could not start, then the URL (issue 38, item 9)")
    func failingBrowserReported() async throws {
        let failed = try await authctl.run(["login", "oidc.fake", "--browser-command", "false", "--timeout", "2"])
        #expect(failed.status == 5, "\(failed.stderr)")
        #expect(failed.stderr.contains("the browser command 'false' failed (exit status 1)"), "\(failed.stderr)")
        let said = try #require(failed.stderr.range(of: "failed (exit status 1)"))
        let url = try #require(failed.stderr.range(of: "Open this URL in a browser"))
        #expect(said.lowerBound < url.lowerBound, "the failure is said before the URL shown instead: \(failed.stderr)")
        let missing = try await authctl.run(
            ["login", "oidc.fake", "--timeout", "2"], environment: ["AUTHCTL_BROWSER": "/nonexistent/browser"])
        #expect(missing.status == 5, "\(missing.stderr)")
        #expect(missing.stderr.contains("the browser command '/nonexistent/browser' could not be started"), "\(missing.stderr)")
        #expect(missing.stderr.contains("Open this URL in a browser"), "\(missing.stderr)")
    }

    @Test("$BROWSER, a colon-separated list, is tried in order before xdg-open (%s stands for the URL)")
    func browserVariable() async throws {
        let follow = try script("exec curl --silent --location --max-time 10 --output /dev/null \"$2\"")
        let result = try await authctl.run(
            ["login", "oidc.fake", "--timeout", "15"], environment: ["BROWSER": "/bin/false:\(follow) --url %s"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Opened the browser"), "\(result.stderr)")
        #expect(provider.count("authorize") == 1)
    }

    @Test(
        "a text browser of the user's own (lynx, w3m, without a terminal) signs in, and none of its connections is refused",
        arguments: ["lynx -dump", "w3m -dump"])
    func textBrowser(_ command: String) async throws {
        let program = String(command.split(separator: " ")[0])
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/\(program)"), "scripts/setup.sh installs \(program)")
        let result = try await authctl.run(["login", "oidc.fake", "--browser-command", command, "--timeout", "20"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("refused"), "\(result.stderr)")
        #expect(!result.stderr.contains("allow-any-local-user"), "\(result.stderr)")
        #expect(provider.count("token") == 1)
    }

    @Test("lynx without a terminal connects and closes without a request: no refusal, no advice to turn the check off")
    func closedWithoutRequest() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/lynx"), "scripts/setup.sh installs lynx")
        let result = try await authctl.run(["login", "oidc.fake", "--browser-command", "lynx", "--timeout", "4"])
        #expect(result.status == 5, "nothing signed in: the wait ended at the timeout. \(result.stderr)")
        #expect(!result.stderr.contains("refused"), "\(result.stderr)")
        #expect(!result.stderr.contains("allow-any-local-user"), "\(result.stderr)")
    }
}

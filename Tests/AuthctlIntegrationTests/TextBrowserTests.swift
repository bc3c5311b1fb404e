import AuthCoreTestSupport
import Foundation
import Testing

/// A text browser cannot end the sign-in (issue 38, item 1): w3m without a terminal fetches
/// the one-time start URL, shows nothing and exits; authctl then gives the person a new
/// one-time start URL instead of leaving them one that is spent (docs/sign-in.md step 3).
@Suite("a browser command that exits having shown nothing leaves a start URL that works", .serialized)
final class TextBrowserTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()
    /// w3m as it runs without a terminal, except that it stops at the start URL's redirect
    /// instead of following it to the provider's sign-in page (which the fake provider
    /// would approve at once): from the listener's side the same — the start URL served,
    /// the browser gone, no redirect back.
    static let w3m = "w3m -o follow_redirection=0"

    init() async throws {
        provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    /// The sign-in, with the browser given as `how` says; once the new start URL is printed,
    /// `meanwhile` runs, then a second, scripted browser opens it (curl following redirects).
    func signIn(browser how: String, command: String, meanwhile: () async throws -> Void = {}) async throws -> (
        AuthctlProcess.Result, renewed: URL?
    ) {
        var arguments = ["login", "oidc.fake", "--timeout", "20"]
        var environment: [String: String] = [:]
        switch how {
        case "--browser-command": arguments += ["--browser-command", command]
        default: environment[how] = command
        }
        let started = try authctl.start(arguments, environment: environment)
        let stderr = started.2.fileHandleForReading
        var shown = await AuthctlProcess.read(stderr, until: "exited without finishing", seconds: 15)
        if let marker = shown.range(of: "exited without finishing"), !shown[marker.upperBound...].contains("/start/") {
            shown += await AuthctlProcess.read(stderr, until: "/start/", seconds: 5)
        }
        let renewed = shown.range(of: "exited without finishing").flatMap { marker in
            shown[marker.upperBound...].split(whereSeparator: \.isWhitespace).map(String.init).first { $0.hasPrefix("http://") }
        }.flatMap(URL.init(string:))
        if let renewed {
            try await meanwhile()
            _ = try await shell("curl --silent --location --max-time 10 --output /dev/null '\(renewed.absoluteString)'")
        }
        return (await AuthctlProcess.finish(started, alreadyRead: shown), renewed)
    }

    @Test(
        "w3m fetches the start URL and exits: a new one-time start URL is printed, and a second browser signs in with it (exit 0)",
        arguments: ["--browser-command", "AUTHCTL_BROWSER", "BROWSER"])
    func textBrowserLeavesAWayIn(_ how: String) async throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/w3m"), "scripts/setup.sh installs w3m")
        let (result, renewed) = try await signIn(browser: how, command: Self.w3m)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("opened twice"), "\(result.stderr)")
        let url = try #require(renewed, "a new start URL is printed: \(result.stderr)")
        #expect(url.host == "127.0.0.1" && url.query == nil && url.path.hasPrefix("/start/") && url.path.count >= "/start/".count + 43)
        let first = result.stderr.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("http://") && $0.contains("/start/") }
        #expect(first.map(String.init) != url.absoluteString, "a fresh random path, not the spent one: \(result.stderr)")
        #expect(provider.count("authorize") == 1, "w3m stopped at the start URL; the second browser went on to the provider")
        #expect(provider.count("token") == 1)
    }

    /// What `/bin/sh -c script` prints, once it has ended (waited for off the concurrency pool).
    func shell(_ script: String) async throws -> String {
        let process = Process(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.standardOutput = output
        try process.run()
        return await AuthctlProcess.blocking {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
    }

    @Test(
        "a program that took the start URL first holds nothing usable once it is renewed: its state is refused, the new URL signs in"
    )
    func takenStartURLUseless() async throws {
        // The browser command keeps where the start URL sent it (the authorization URL, with
        // its state) and exits, as a program that raced for the start URL would hold it.
        let taken = authctl.home + "/taken"
        let path = authctl.home + "/taker.sh"
        try Data(
            "#!/bin/sh\ncurl --silent --max-time 10 --output /dev/null --write-out '%{redirect_url}' \"$1\" > '\(taken)'\n".utf8
        ).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        var refused = ""
        let (result, renewed) = try await signIn(browser: "--browser-command", command: path) {
            // The provider approves the taken request at once; its code goes to the listener.
            refused = try await shell(
                """
                callback=$(curl --silent --max-time 10 --output /dev/null --write-out '%{redirect_url}' "$(cat '\(taken)')")
                curl --silent --max-time 10 --output /dev/null --write-out '%{http_code}' "$callback"
                """)
        }
        #expect(renewed != nil, "\(result.stderr)")
        #expect(refused == "400", "the taken state no longer counts: \(refused)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(provider.count("authorize") == 2 && provider.count("token") == 1, "only the renewed request's code was exchanged")
    }

    @Test("a browser command that hands off and exits before anything is fetched (xdg-open): no new start URL, the browser signs in")
    func handOffBrowser() async throws {
        let path = authctl.home + "/hand-off.sh"
        try Data(
            "#!/bin/sh\n(sleep 1; exec curl --silent --location --max-time 10 --output /dev/null \"$1\") >/dev/null 2>&1 &\nexit 0\n".utf8
        ).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        let result = try await authctl.run(["login", "oidc.fake", "--browser-command", path, "--timeout", "20"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("exited without finishing"), "\(result.stderr)")
        #expect(provider.count("token") == 1)
    }
}

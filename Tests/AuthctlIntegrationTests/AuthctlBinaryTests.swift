import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// The real `authctl` binary against the in-process provider, with a scripted browser
/// (curl following the 302 into authctl's loopback listener): what only processes show — a
/// listener that other programs reach, Ctrl-C, and several processes at once. The rest of the
/// session is tested in-process (AuthctlCommandsTests' CommandsEndToEndTests).
@Suite("authctl binary end to end", .serialized)
final class AuthctlBinaryTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func addProvider() async throws {
        let result = try await authctl.run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(result.status == 0, "\(result.stderr)")
    }

    func login(_ extra: [String] = [], environment: [String: String] = [:]) async throws -> AuthctlProcess.Result {
        try await authctl.run(
            ["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"] + extra, environment: environment)
    }

    @Test("junk, scans and wrong paths on the listener do not stop a sign-in")
    func junkOnListener() async throws {
        try await addProvider()
        let started = try authctl.start(["login", "oidc.fake", "--no-browser", "--timeout", "20", "--listen-address", "127.0.0.1:0"])
        // Read the URL authctl prints, send junk to the listener, then complete the flow.
        var text = await AuthctlProcess.read(started.2.fileHandleForReading, until: "Waiting")
        if !text.contains("/authorize?") { text += await AuthctlProcess.read(started.2.fileHandleForReading, until: "/authorize?") }
        let url = try #require(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix("http") })
        let redirect = try #require(FormURLEncoding.decode(URL(string: url)!.query!)?.first { $0.0 == "redirect_uri" }?.1)
        let base = redirect.replacingOccurrences(of: "/callback", with: "")
        // curl runs off the concurrency pool: its last request reaches the in-process provider.
        await AuthctlProcess.blocking {
            for junk in ["/favicon.ico", "/", "/callback?code=x&state=forged", "/../../etc/passwd"] {
                _ = Process.run("curl", ["-s", "-o", "/dev/null", base + junk])
            }
            _ = Process.run(
                "curl",
                ["-s", "-o", "/dev/null", "-X", "POST", "--data-binary", String(repeating: "A", count: 200_000), base + "/callback"])
            _ = Process.run("curl", ["-s", "-L", "-o", "/dev/null", url])
        }
        let result = await AuthctlProcess.finish(started)
        #expect(result.status == 0, "\(text)\(result.stderr)")
    }

    @Test("Ctrl-C while waiting closes the listener and exits 5")
    func interrupt() async throws {
        try await addProvider()
        let started = try authctl.start(["login", "oidc.fake", "--no-browser", "--timeout", "60"])
        _ = await AuthctlProcess.read(started.2.fileHandleForReading, until: "Waiting")
        started.0.interrupt()
        let result = await AuthctlProcess.finish(started)
        #expect(result.status == 5, "\(result.stderr)")
        #expect(authctl.keystoreBytes() == nil)
    }

    @Test("many processes needing the same refresh at once: one refresh, one token for all")
    func concurrentRefresh() async throws {
        try await addProvider()
        provider.update { $0.accessTokenLifetime = .number(30) }  // expires within the default --min-ttl of 60 s
        #expect(try await login().status == 0)
        provider.update {
            $0.tokenDelay = 0.3; $0.accessTokenLifetime = .number(3600)
        }
        let before = provider.count("refresh")
        let authctl = self.authctl
        let results = try await withThrowingTaskGroup(of: AuthctlProcess.Result.self) { group in
            for _ in 0..<6 { group.addTask { try await authctl.run(["token"]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        #expect(Set(results.map(\.stdout)).count == 1, "every process printed the same token")
        #expect(provider.count("refresh") - before == 1)
    }

    static func tokens(in text: String) -> [String] {
        text.split(whereSeparator: { "\" ,\n".contains($0) }).map(String.init).filter {
            $0.hasPrefix("at-") || $0.hasPrefix("rt-") || $0.hasPrefix("ey")
        }
    }
}

extension Process {
    /// Runs a helper program to completion (test use only).
    static func run(_ program: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

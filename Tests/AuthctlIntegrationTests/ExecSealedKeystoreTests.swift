import AuthCoreTestSupport
import Foundation
import Testing

/// `exec` with a keystore sealed by a passphrase, on a terminal (issue 22, item 3): the
/// passphrase is asked once, before the command starts; refreshing while the command runs
/// never asks again on the terminal the command shares (what is typed would go to the
/// command, a shell, and into its history).
@Suite("exec with a passphrase-sealed keystore on a terminal", .serialized)
final class ExecSealedKeystoreTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() async throws {
        provider = try FakeIdentityProvider()
        try await authctl.addFakeProvider(provider)
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    @Test("the passphrase is asked once, before the command starts, and refreshes while it runs ask nothing")
    func asksOnceBeforeTheChild() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        provider.behaviour.accessTokenLifetime = .number(4)
        let login = try await authctl.run(["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
        #expect(login.status == 0, "\(login.stderr)")
        let passphrase = "typed-" + UUID().uuidString
        #expect(try await authctl.run(["keystore", "seal", "--passphrase-env", "P"], environment: ["P": passphrase]).status == 0)

        // The command outlives two token lifetimes: exec refreshes the token file meanwhile.
        let script =
            #"echo child-started; first=$(cat "$AUTHCTL_TOKEN_FILE"); sleep 6; later=$(cat "$AUTHCTL_TOKEN_FILE"); "#
            + #"[ "$first" != "$later" ] && echo refreshed-while-running; echo child-done"#
        let terminal = try authctl.startOnTerminal("exec -- sh -c '\(script)'", killAfter: 40)
        var printed = await terminal.read(until: "Keystore passphrase:")
        #expect(printed.contains("Keystore passphrase:"), "asked before the command starts: \(printed)")
        // A write to a terminal whose `script` has ended must fail, not end the test process.
        signal(SIGPIPE, SIG_IGN)
        try? terminal.input.write(contentsOf: Data((passphrase + "\n").utf8))
        printed += await terminal.read(until: "child-done")
        let prompts = printed.components(separatedBy: "Keystore passphrase:").count - 1
        if prompts > 1 { try? terminal.input.write(contentsOf: Data((passphrase + "\n").utf8)) }  // today's refresh waits on the terminal
        printed += await terminal.rest()

        #expect(prompts == 1, "asked \(prompts) times on the terminal the command shares: \(printed)")
        let started = printed.range(of: "child-started")
        let asked = printed.range(of: "Keystore passphrase:")
        #expect(
            started != nil && asked != nil && asked!.lowerBound < started!.lowerBound, "the prompt comes before the command: \(printed)")
        #expect(printed.contains("refreshed-while-running"), "the refresh opened the keystore with the key in memory: \(printed)")
        #expect(!printed.contains("could not refresh"), "\(printed)")
        #expect(terminal.process.terminationStatus == 0, "\(printed)")
        #expect(!printed.contains(passphrase), "the passphrase was echoed: \(printed)")
        #expect(provider.count("refresh") >= 2)
    }
}

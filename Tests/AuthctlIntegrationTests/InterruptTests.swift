import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// Ctrl-C at every wait for input: the `--manual` paste prompt, `--id-token -` reading stdin,
/// the consent question. A person's stdin stays open (a pipe here, a terminal there), so a
/// read that does not watch for cancellation would sit until input comes.
/// "At once": well before the 60 s timeout the commands are given, while a loaded machine
/// (CI, parallel suites) may take a few seconds to schedule the process (a 2 s bound
/// failed under a load of 12). Without the fix, these commands wait for the timeout, or
/// for stdin to close, which it never does here.
let atOnceAfterCtrlC: TimeInterval = 15

@Suite("Ctrl-C while authctl waits for input", .serialized)
final class InterruptTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() throws { provider = try FakeIdentityProvider() }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    func signedIn() async throws -> Data? {
        let add = try await authctl.run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(add.status == 0, "\(add.stderr)")
        let login = try await authctl.run(["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
        #expect(login.status == 0, "\(login.stderr)")
        return authctl.keystoreBytes()
    }

    /// Starts `arguments` with an open stdin, waits until stderr shows `waitFor` (or for
    /// `settle` seconds when nothing is printed), sends SIGINT and measures how long the
    /// process takes to end.
    func interrupt(_ arguments: [String], waitFor: String?, settle: TimeInterval = 0.5) async throws -> (
        status: Int32, reason: Process.TerminationReason, seconds: TimeInterval, stderr: String
    ) {
        let (running, stdout, stderr) = try authctl.startInteractive(arguments)
        var printed = ""
        if let waitFor {
            printed = await AuthctlProcess.read(stderr.fileHandleForReading, until: waitFor)
            #expect(printed.contains(waitFor), "\(printed)")
        } else {
            try await Task.sleep(for: .seconds(settle))
        }
        let sent = Date()
        kill(running.process.processIdentifier, SIGINT)
        let result = await AuthctlProcess.finish((running.process, stdout, stderr), alreadyRead: printed)
        let seconds = Date().timeIntervalSince(sent)
        try? running.stdin.close()
        return (result.status, running.process.terminationReason, seconds, result.stderr)
    }

    @Test("Ctrl-C at the --manual paste prompt ends the sign-in at once with exit 5; the keystore is as it was")
    func manualPrompt() async throws {
        let before = try await signedIn()
        let ended = try await interrupt(["login", "oidc.fake", "--manual", "--timeout", "60"], waitFor: "Then paste")
        #expect(ended.reason == .exit && ended.status == 5, "\(ended.status) \(ended.stderr)")
        #expect(ended.seconds < atOnceAfterCtrlC, "ended \(ended.seconds) s after Ctrl-C")
        #expect(authctl.keystoreBytes() == before)
    }

    @Test("Ctrl-C while login --id-token - reads an open stdin ends it at once with exit 5; the keystore is as it was")
    func idTokenFromStdin() async throws {
        let before = try await signedIn()
        let ended = try await interrupt(["login", "oidc.fake", "--id-token", "-"], waitFor: nil)
        #expect(ended.reason == .exit && ended.status == 5, "\(ended.status) \(ended.stderr)")
        #expect(ended.seconds < atOnceAfterCtrlC, "ended \(ended.seconds) s after Ctrl-C")
        #expect(authctl.keystoreBytes() == before)
    }

    @Test("an ID token on stdin larger than 1 MiB is refused with exit 2 without reading it all")
    func oversizedIDToken() async throws {
        _ = try await signedIn()
        // From a file: a pipe's writer would get SIGPIPE when authctl stops reading.
        let file = authctl.home + "/big.jwt"
        #expect(FileManager.default.createFile(atPath: file, contents: Data(repeating: 0x61, count: 1_048_577 + 4096)))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AuthctlProcess.binary)
        process.arguments = ["login", "oidc.fake", "--id-token", "-"]
        process.environment = authctl.environment
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let (status, _, err) = await OffPool.finish(process, stderr: stderr)
        let message = String(decoding: err, as: UTF8.self)
        #expect(status == 2 && message.contains("1 MiB"), "\(message)")
    }
}

/// The consent question appears only on a terminal: authctl runs on a pseudo-terminal
/// (util-linux `script`), and Ctrl-C is typed as a person types it (the terminal turns
/// ETX into SIGINT for the foreground process).
@Suite("Ctrl-C at the consent question on a terminal", .serialized)
final class ConsentInterruptTests {
    let apple: FakeApple
    let oidc: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() throws {
        apple = try FakeApple()
        apple.behaviour.privateRelay = true
        oidc = try FakeIdentityProvider()
    }

    deinit { try? FileManager.default.removeItem(atPath: authctl.home) }

    @Test("Ctrl-C typed at the private-relay consent question ends link at once with exit 5; the keystore is as it was")
    func consentQuestion() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let keyFile = authctl.home + "/AuthKey_\(apple.keyID).p8"
        #expect(
            FileManager.default.createFile(
                atPath: keyFile, contents: Data(apple.privateKeyPEM.utf8), attributes: [.posixPermissions: 0o600]))
        let browser = AuthctlProcess.formPostingBrowser
        for arguments in [
            [
                "providers", "add", "apple.com", "--issuer", apple.issuer, "--client-id", apple.clientID, "--team-id", apple.teamID,
                "--key-id", apple.keyID, "--private-key-file", keyFile,
            ],
            ["providers", "add", "oidc.work", "--issuer", oidc.issuer, "--client-id", oidc.clientID],
            ["login", "apple", "--browser-command", browser, "--timeout", "20"],
        ] {
            let result = try await authctl.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let before = authctl.keystoreBytes()

        let terminal = try authctl.startOnTerminal("link oidc.work --browser-command '\(browser)' --timeout 20", killAfter: 60)
        let printed = await terminal.read(until: "[y/N]")
        #expect(printed.contains("[y/N]"), "the question is asked on a terminal: \(printed)")
        let typed = Date()
        terminal.input.write(Data([0x03]))  // Ctrl-C
        let rest = await terminal.rest()
        let seconds = Date().timeIntervalSince(typed)
        #expect(terminal.process.terminationStatus == 5, "\(printed)\(rest)")
        #expect(seconds < atOnceAfterCtrlC, "ended \(seconds) s after Ctrl-C")
        #expect(authctl.keystoreBytes() == before)
    }
}

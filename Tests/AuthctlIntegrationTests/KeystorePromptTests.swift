import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// What a person meets at a sealed keystore on a real terminal (issue 25, items 6 to 8): the
/// passphrase prompt (Ctrl-C, a wrong or an empty passphrase, `keystore seal`'s prompts), a
/// key file remembered by the keystore, `unlock`/`lock` for programs that cannot answer a
/// prompt, and the wait for another authctl's lock.
@Suite("Sealed keystore prompts, unlock and the lock wait (binary)", .serialized)
struct KeystorePromptTests {
    let authctl = AuthctlProcess()
    let passphrase = "typed-" + UUID().uuidString

    var hasScript: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

    func signIn() async throws {
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let identity = LinkedIdentity(
            providerID: "oidc.fake", issuer: "https://idp.example", federatedID: "sub-1",
            profile: Profile(email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil), linkedAt: now,
            tokens: TokenSet(
                accessToken: "at-sealed-1", expiresAt: now.addingTimeInterval(3600), refreshToken: "rt-sealed-1", idToken: "id-sealed-1",
                scopes: ["openid"]))
        let user = User(
            uid: "uid-1", email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil, createdAt: now,
            lastSignInAt: now, lastAuthAt: now, lastProviderID: "oidc.fake", providerData: [identity])
        try await FileKeystore(path: authctl.keystorePath, random: SystemRandomSource(), clock: SystemClock()).update {
            $0 = AccountState(currentUID: "uid-1", users: [user])
        }
    }

    func sealWithPassphrase() async throws {
        try await signIn()
        let sealed = try await authctl.run(["keystore", "seal", "--passphrase-env", "P"], environment: ["P": passphrase])
        #expect(sealed.status == 0, "\(sealed.stderr)")
    }

    func newKeyFile(_ name: String, mode: Int = 0o600) async throws -> String {
        let made = try await authctl.run(["keystore", "new-key"])
        let path = authctl.home + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data(made.stdout.utf8), attributes: [.posixPermissions: mode]))
        return path
    }

    // MARK: item 6, the passphrase prompt

    @Test("Ctrl-C at the keystore passphrase prompt ends the command with exit 130, not with the advice to use a terminal")
    func ctrlCAtPrompt() async throws {
        guard hasScript else { return }
        try await sealWithPassphrase()
        let before = authctl.keystoreBytes()
        let terminal = try authctl.startOnTerminal("token", killAfter: 20)
        var printed = await terminal.read(until: "Keystore passphrase:")
        terminal.input.write(Data([3]))
        printed += await terminal.rest()
        #expect(terminal.process.terminationStatus == 130, "\(printed)")
        #expect(!printed.contains("AUTHCTL_KEYSTORE_PASSPHRASE") && !printed.contains("at-sealed-1"), "\(printed)")
        #expect(authctl.keystoreBytes() == before)
    }

    @Test("a wrong passphrase is named before the prompt asks again, and the right one then opens the keystore")
    func wrongThenRight() async throws {
        guard hasScript else { return }
        try await sealWithPassphrase()
        let terminal = try authctl.startOnTerminal("token", killAfter: 30)
        var printed = await terminal.read(until: "Keystore passphrase:")
        terminal.input.write(Data("not-the-passphrase\n".utf8))
        printed += await terminal.read(until: "Keystore passphrase:", seconds: 10)
        #expect(printed.contains("Wrong passphrase"), "\(printed)")
        terminal.input.write(Data((passphrase + "\n").utf8))
        printed += await terminal.rest()
        #expect(terminal.process.terminationStatus == 0, "\(printed)")
        #expect(printed.contains("at-sealed-1") && !printed.contains(passphrase), "\(printed)")
    }

    @Test("three wrong passphrases end the command with keystore-error (exit 6); the prompt asked exactly three times")
    func threeWrong() async throws {
        guard hasScript else { return }
        try await sealWithPassphrase()
        let terminal = try authctl.startOnTerminal("token", killAfter: 40)
        var printed = ""
        for attempt in 1...3 {
            printed += await terminal.read(until: "Keystore passphrase:", seconds: 10)
            // Typed only at a prompt: writing to a terminal that is gone would end the test process (SIGPIPE).
            guard printed.components(separatedBy: "Keystore passphrase:").count - 1 == attempt else { break }
            terminal.input.write(Data("wrong-\(attempt)-passphrase\n".utf8))
        }
        printed += await terminal.rest()
        #expect(terminal.process.terminationStatus == 6, "\(printed)")
        #expect(printed.components(separatedBy: "Keystore passphrase:").count - 1 == 3, "\(printed)")
        #expect(printed.contains("3 wrong passphrases"), "\(printed)")
    }

    @Test("an empty passphrase typed on a terminal is reported as empty, not as a missing terminal")
    func emptyAtPrompt() async throws {
        guard hasScript else { return }
        try await sealWithPassphrase()
        let terminal = try authctl.startOnTerminal("token", killAfter: 20)
        var printed = await terminal.read(until: "Keystore passphrase:")
        terminal.input.write(Data("\n\n\n".utf8))
        printed += await terminal.rest()
        #expect(terminal.process.terminationStatus == 6, "\(printed)")
        #expect(!printed.contains("on a terminal"), "\(printed)")
        #expect(printed.contains("no passphrase was typed"), "\(printed)")
    }

    @Test("Ctrl-C at keystore seal's new passphrase prompt, and at its confirmation, exits 130 and changes nothing")
    func ctrlCAtSeal() async throws {
        guard hasScript else { return }
        try await signIn()
        let before = authctl.keystoreBytes()
        for prompt in ["New keystore passphrase:", "Once more:"] {
            let terminal = try authctl.startOnTerminal("keystore seal", killAfter: 20)
            var printed = await terminal.read(until: "New keystore passphrase:")
            if prompt == "Once more:" {
                terminal.input.write(Data((passphrase + "\n").utf8))
                printed += await terminal.read(until: prompt)
            }
            terminal.input.write(Data([3]))
            printed += await terminal.rest()
            #expect(terminal.process.terminationStatus == 130, "\(prompt): \(printed)")
            #expect(!printed.contains("empty") && !printed.contains("did not match"), "\(prompt): \(printed)")
            #expect(authctl.keystoreBytes() == before)
        }
    }

    // MARK: item 7, a remembered key file; unlock and lock

    @Test("a keystore sealed with a key file remembers its path (never the key): plain token works afterwards")
    func rememberedKeyFile() async throws {
        try await signIn()
        let key = try await newKeyFile("k1")
        #expect(try await authctl.run(["keystore", "seal", "--key-file", key]).status == 0)
        let text = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        let keyText = (try? String(contentsOfFile: key, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        #expect(text.contains(key) && !text.contains(keyText), "\(text)")
        let token = try await authctl.run(["token"])
        #expect(token.status == 0 && token.stdout == "at-sealed-1\n", "\(token.stderr)")
        #expect(try await authctl.run(["keystore", "status"]).stdout.contains(key))
    }

    @Test("a key file path planted in the keystore gives nothing: another user's-mode file is refused, another key does not open")
    func plantedKeyFilePath() async throws {
        try await signIn()
        let key = try await newKeyFile("k1")
        #expect(try await authctl.run(["keystore", "seal", "--key-file", key]).status == 0)
        let original = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        let readable = try await newKeyFile("readable", mode: 0o644)
        let other = try await newKeyFile("other")
        for (planted, expected) in [(readable, "chmod 600"), (other, "not the key it was sealed with")] {
            let changed = original.replacingOccurrences(of: key, with: planted)
            #expect(changed != original)
            #expect(
                FileManager.default.createFile(
                    atPath: authctl.keystorePath, contents: Data(changed.utf8), attributes: [.posixPermissions: 0o600]))
            let token = try await authctl.run(["token"])
            #expect(token.status == 6 && token.stdout.isEmpty && token.stderr.contains(expected), "\(token.stderr)")
            #expect(String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self) == changed)
        }
    }

    @Test("unlock keeps the key in the kernel keyring: token works with no terminal and no key, until lock")
    func unlockThenLock() async throws {
        guard hasScript else { return }
        try await sealWithPassphrase()
        let terminal = try authctl.startOnTerminal("unlock --for 10m", killAfter: 30)
        var printed = await terminal.read(until: "Keystore passphrase:")
        guard printed.contains("Keystore passphrase:") else {
            Issue.record("unlock asked for no passphrase: \(printed)")
            return
        }
        terminal.input.write(Data((passphrase + "\n").utf8))
        printed += await terminal.rest()
        #expect(terminal.process.terminationStatus == 0, "\(printed)")
        let token = try await authctl.run(["token"])
        #expect(token.status == 0 && token.stdout == "at-sealed-1\n", "\(token.stderr)")
        let locked = try await authctl.run(["lock"])
        #expect(locked.status == 0, "\(locked.stderr)")
        let after = try await authctl.run(["token"])
        #expect(after.status == 6 && after.stdout.isEmpty, "\(after.stderr)")
    }

    @Test("unlock --for 2s: token works without the key, and no longer once the time is up")
    func unlockTimesOut() async throws {
        try await sealWithPassphrase()
        let unlocked = try await authctl.run(["unlock", "--for", "2s"], environment: ["AUTHCTL_KEYSTORE_PASSPHRASE": passphrase])
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
        #expect(try await authctl.run(["token"]).stdout == "at-sealed-1\n")
        try await Task.sleep(for: .seconds(3))
        let after = try await authctl.run(["token"])
        #expect(after.status == 6 && after.stdout.isEmpty, "\(after.stderr)")
    }

    // MARK: item 8, the wait for the keystore's lock

    /// Holds the keystore's lock as another authctl would: flock, and a POSIX lock that tells its pid.
    func holdLock(posix: Bool) throws -> Int32 {
        let fd = open(authctl.keystorePath + ".lock", O_RDWR | O_CREAT, 0o600)
        #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
        if posix {
            var lock = flock()
            lock.l_type = Int16(F_WRLCK)
            lock.l_whence = Int16(SEEK_SET)
            lock.l_start = 0
            lock.l_len = 1
            #expect(fcntl(fd, F_SETLK, &lock) == 0)
        }
        return fd
    }

    @Test("on a terminal, a wait for the keystore's lock is told after a second, with the holder's pid")
    func lockWaitOnTerminal() async throws {
        guard hasScript else { return }
        try await signIn()
        let key = try await newKeyFile("k")
        for posix in [true, false] {
            let fd = try holdLock(posix: posix)
            let terminal = try authctl.startOnTerminal("keystore seal --key-file \(key)", killAfter: 30)
            let printed = await terminal.read(until: "…", seconds: 10)
            let expected = posix ? "Waiting for another authctl (pid \(getpid()))" : "Waiting for another authctl to finish"
            #expect(printed.contains(expected), "\(printed)")
            close(fd)
            let rest = await terminal.rest()
            #expect(terminal.process.terminationStatus == 0, "\(printed)\(rest)")
            let unsealed = try await authctl.run(["keystore", "unseal"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key])
            #expect(unsealed.status == 0, "\(unsealed.stderr)")
        }
    }

    @Test("without a terminal, nothing is said while waiting for the keystore's lock")
    func lockWaitWithoutTerminal() async throws {
        try await signIn()
        let key = try await newKeyFile("k")
        let fd = try holdLock(posix: true)
        let started = try authctl.start(["keystore", "seal", "--key-file", key])
        try await Task.sleep(for: .seconds(2))
        close(fd)
        let ended = await AuthctlProcess.finish(started)
        #expect(ended.status == 0 && !ended.stderr.contains("Waiting"), "\(ended.stderr)")
    }
}

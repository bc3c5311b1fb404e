import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real binary against what another local user, a `kill -9` or a Ctrl-C does to the
/// keystore and to `exec`'s token file (issue 12, items 2, 4, 13 and 14).
@Suite("authctl's files against another user, signals and kill -9", .serialized)
final class KeystoreHardeningTests {
    let provider: FakeIdentityProvider
    let authctl = AuthctlProcess()

    init() throws { provider = try FakeIdentityProvider() }

    deinit {
        chmod(authctl.home + "/data/authctl", 0o700)
        try? FileManager.default.removeItem(atPath: authctl.home)
    }

    var folder: String { authctl.home + "/data/authctl" }
    var runtime: String { authctl.home + "/run" }

    func signedIn() async throws {
        let add = try await authctl.run(["providers", "add", "oidc.fake", "--issuer", provider.issuer, "--client-id", provider.clientID])
        #expect(add.status == 0, "\(add.stderr)")
        let login = try await authctl.run(["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
        #expect(login.status == 0, "\(login.stderr)")
    }

    /// Runs authctl, killing it after `seconds` if it has not ended (a hang fails the test, not the suite).
    func run(_ arguments: [String], within seconds: Double = 10, environment: [String: String] = [:]) async throws -> AuthctlProcess.Result
    {
        let started = try authctl.start(arguments, environment: environment)
        let process = started.0
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        return await AuthctlProcess.finish(started)
    }

    @Test("a FIFO in place of the keystore does not hang token: exit 6 at once")
    func fifoKeystore() async throws {
        try await signedIn()
        unlink(authctl.keystorePath)
        #expect(mkfifo(authctl.keystorePath, 0o600) == 0)
        // A hang is killed after 10 s (`run`), which is not exit 6.
        let result = try await run(["token"])
        #expect(result.status == 6, "\(result.stderr)")
    }

    @Test("a symlinked keystore, a 0777 directory and a directory owned by another uid are refused with exit 6, the keystore unchanged")
    func unsafeDirectories() async throws {
        try await signedIn()
        let before = try #require(authctl.keystoreBytes())
        chmod(folder, 0o770)
        for arguments in [["token"], ["status"], ["signout"], ["token", "--force-refresh"]] {
            let result = try await run(arguments)
            #expect(result.status == 6 && result.stderr.contains("chmod 700 '\(folder)'"), "\(arguments): \(result.stderr)")
        }
        chmod(folder, 0o700)
        chown(folder, 65534, 65534)
        let foreign = try await run(["signout"])
        #expect(foreign.status == 6 && foreign.stderr.contains("another user"), "\(foreign.stderr)")
        chown(folder, 0, 0)
        let link = authctl.home + "/link.json"
        symlink(authctl.keystorePath, link)
        let linked = try await run(["signout", "--keystore", link])
        #expect(linked.status == 6 && linked.stderr.contains("symbolic link"), "\(linked.stderr)")
        #expect(authctl.keystoreBytes() == before)
    }

    @Test("a lock file that is a FIFO or a symlink is refused rather than followed or waited on")
    func hostileLock() async throws {
        try await signedIn()
        let before = try #require(authctl.keystoreBytes())
        let lock = authctl.keystorePath + ".lock"
        unlink(lock)
        #expect(mkfifo(lock, 0o600) == 0)
        let fifo = try await run(["signout"])
        #expect(fifo.status == 6 && fifo.stderr.contains("not a regular file"), "\(fifo.stderr)")
        unlink(lock)
        let elsewhere = authctl.home + "/elsewhere"
        _ = FileManager.default.createFile(atPath: elsewhere, contents: nil, attributes: [.posixPermissions: 0o600])
        symlink(elsewhere, lock)
        let linked = try await run(["signout"])
        #expect(linked.status == 6 && linked.stderr.contains("symbolic link"), "\(linked.stderr)")
        #expect(authctl.keystoreBytes() == before)
    }

    @Test("a temporary keystore file left by a kill -9 mid-write is removed by the next command that writes")
    func staleTemporary() async throws {
        try await signedIn()
        let stale = folder + "/.keystore.json.tmp-99999-AAAAAAAA"
        _ = FileManager.default.createFile(atPath: stale, contents: authctl.keystoreBytes(), attributes: [.posixPermissions: 0o600])
        #expect(try await run(["status"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: stale), "a command that does not write leaves it (it holds no lock)")
        #expect(try await run(["signout"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: stale))
    }

    @Test("Ctrl-C while another process holds the keystore lock exits 130 at once (no sign-in is waiting), the keystore unchanged")
    func interruptedLockWait() async throws {
        try await signedIn()
        let before = try #require(authctl.keystoreBytes())
        // The test process holds the lock, as another authctl (or `flock`) would.
        let holder = try await FileLock.acquire(for: authctl.keystorePath, timeout: 1, what: "the keystore", clock: SystemClock())
        defer { holder.release() }
        let started = try authctl.start(["signout"])
        try await Task.sleep(nanoseconds: 700_000_000)
        #expect(started.0.isRunning, "signout waits for the lock")
        started.0.interrupt()
        let process = started.0
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let result = await AuthctlProcess.finish(started)
        // Still waiting (the lock's timeout is 30 s), it is killed after 10 s: not exit 130.
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("authctl: cancelled (Ctrl-C); nothing was changed"), "\(result.stderr)")
        #expect(authctl.keystoreBytes() == before)
    }

    /// Starts `exec` with a child that writes its token file's path and pid, then waits.
    func startExec() async throws -> (started: (Process, Pipe, Pipe), tokenFile: String, child: pid_t) {
        let report = authctl.home + "/report-\(UUID().uuidString)"
        let started = try authctl.start(
            [
                "exec", "--", "sh", "-c",
                "echo \"$AUTHCTL_TOKEN_FILE $$\" > '\(report).part'; mv '\(report).part' '\(report)'; exec sleep 30",
            ],
            environment: ["XDG_RUNTIME_DIR": runtime])
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: report) && Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        let words = (try? String(contentsOfFile: report, encoding: .utf8))?.split(whereSeparator: \.isWhitespace).map(String.init) ?? []
        try? FileManager.default.removeItem(atPath: report)
        let child = words.count == 2 ? pid_t(words[1]) ?? 0 : 0
        return (started, words.first ?? "", child)
    }

    @Test(
        "exec ended by SIGHUP, SIGTERM, SIGUSR1, SIGPIPE: the token file and its directory are gone, the exit is the child's",
        arguments: [SIGHUP, SIGTERM, SIGUSR1, SIGPIPE, SIGQUIT, SIGUSR2, SIGALRM])
    func execSignals(signal: Int32) async throws {
        try await signedIn()
        mkdir(runtime, 0o700)
        let (started, tokenFile, child) = try await startExec()
        #expect(tokenFile.hasPrefix(runtime + "/authctl-exec-\(started.0.processIdentifier)-"), "under XDG_RUNTIME_DIR: \(tokenFile)")
        #expect(FileManager.default.fileExists(atPath: tokenFile))
        kill(started.0.processIdentifier, signal)
        let process = started.0
        DispatchQueue.global().asyncAfter(deadline: .now() + 10) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            if child > 0 { kill(child, SIGKILL) }
        }
        let result = await AuthctlProcess.finish(started)
        #expect(result.status == 128 + signal, "the child's status: \(result.status) \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tokenFile))
        #expect(!FileManager.default.fileExists(atPath: (tokenFile as NSString).deletingLastPathComponent))
    }

    @Test("exec ended by SIGKILL leaves its directory, and the next exec removes it (and only directories of dead processes)")
    func execKilled() async throws {
        try await signedIn()
        mkdir(runtime, 0o700)
        let (started, tokenFile, child) = try await startExec()
        let directory = (tokenFile as NSString).deletingLastPathComponent
        kill(started.0.processIdentifier, SIGKILL)
        if child > 0 { kill(child, SIGKILL) }
        _ = await AuthctlProcess.finish(started)
        #expect(FileManager.default.fileExists(atPath: tokenFile), "SIGKILL cannot be caught")
        // A directory of a process that still runs (this test) is not touched.
        let alive = runtime + "/authctl-exec-\(getpid())-AAAAAAAAAAAA"
        mkdir(alive, 0o700)
        let next = try await run(["exec", "--", "true"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory), "the dead process's directory is removed")
        #expect(FileManager.default.fileExists(atPath: alive))
    }

    @Test("token --force-refresh in a loop while another process switches users with users use: every run succeeds")
    func tokenWhileUsersUse() async throws {
        try await signedIn()
        let first = try #require(try await run(["status", "--json"]).json?["user"]?.objectValue?["uid"]?.stringValue)
        provider.update {
            $0.subject = "second-subject"; $0.email = "grace@example.com"; $0.idTokenOnRefresh = false
        }
        let login = try await authctl.run(["login", "oidc.fake", "--browser-command", AuthctlProcess.browserCommand, "--timeout", "20"])
        #expect(login.status == 0, "\(login.stderr)")
        let second = try #require(try await run(["status", "--json"]).json?["user"]?.objectValue?["uid"]?.stringValue)
        #expect(first != second)
        let authctl = self.authctl
        let switching = Task {
            for round in 0..<20 { _ = try await authctl.run(["users", "use", round % 2 == 0 ? first : second]) }
        }
        var statuses: [Int32] = []
        for _ in 0..<12 { statuses.append(try await run(["token", "--force-refresh"]).status) }
        try await switching.value
        #expect(statuses.allSatisfy { $0 == 0 }, "\(statuses)")
    }
}

import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `keystore seal --keyring` against a real Secret Service: gnome-keyring-daemon, unlocked,
/// on a private session bus (`dbus-run-session`). scripts/setup.sh installs gnome-keyring,
/// libsecret-tools and dbus; where they are missing the test is skipped, and says so.
@Suite("Sealed with the system keyring (binary, gnome-keyring)")
struct KeyringBinaryTests {
    let authctl = AuthctlProcess()

    static let available: Bool = ["/usr/bin/dbus-run-session", "/usr/bin/gnome-keyring-daemon", "/usr/bin/dbus-send"].allSatisfy {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs `script` with sh inside a new session bus where an unlocked gnome-keyring answers;
    /// `$AUTHCTL` is the binary.
    ///
    /// Started with posix_spawn, default signal handling and an empty signal mask, and waited
    /// for with waitpid — not with Foundation's Process, for two reasons this test hung on:
    /// Process's children inherit the test runner's blocked signals (so dbus-run-session's
    /// SIGTERM never ended its bus), and Process learns of a child's end from a descriptor that
    /// a daemon started in the session holds for as long as it lives.
    /// The keyring daemon runs in the foreground as the script's child and is killed when the
    /// script ends; its name on the bus is awaited first (a call before it would have D-Bus
    /// activate a second, locked, daemon).
    func inKeyringSession(_ script: String) async throws -> (status: Int32, output: String) {
        let session = """
            printf test | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
            keyring=$!
            trap 'kill $keyring 2>/dev/null; wait $keyring 2>/dev/null' EXIT
            tries=0
            until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \\
                org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q true; do
              tries=$((tries + 1)); [ $tries -gt 200 ] && exit 97; sleep 0.05
            done

            """ + script
        var environment = authctl.environment
        environment["AUTHCTL"] = AuthctlProcess.binary
        environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
        let outputPath = authctl.home + "/keyring-session.out"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments = ["/usr/bin/dbus-run-session", "--", "sh", "-c", session]
        let environmentLines = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let started = withCStrings(arguments) { argv in
            withCStrings(environmentLines) { envp in
                Spawn.withDefaultSignals { attributes in posix_spawn(&pid, "/usr/bin/dbus-run-session", &actions, &attributes, argv, envp) }
            }
        }
        guard started == 0 else { return (-1, "posix_spawn dbus-run-session: \(started)") }
        let child = pid
        let status = await OffPool.run { Spawn.wait(for: child) }
        return (status, (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }

    @Test(
        "seal --keyring, token, status, rekey and unseal against gnome-keyring; without a session bus, token fails (6) naming the keyring",
        .enabled(if: available, "SKIPPED: gnome-keyring and dbus-run-session are not installed (scripts/setup.sh installs them)"))
    func keyring() async throws {
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let identity = LinkedIdentity(
            providerID: "oidc.fake", issuer: "https://idp.example", federatedID: "sub-1",
            profile: Profile(email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil), linkedAt: now,
            tokens: TokenSet(
                accessToken: "at-keyring-1", expiresAt: now.addingTimeInterval(3600), refreshToken: "rt-k", idToken: nil, scopes: []))
        let user = User(
            uid: "uid-1", email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil, createdAt: now,
            lastSignInAt: now, lastAuthAt: now, lastProviderID: "oidc.fake", providerData: [identity])
        try await FileKeystore(path: authctl.keystorePath, random: SystemRandomSource(), clock: SystemClock()).update {
            $0 = AccountState(currentUID: "uid-1", users: [user])
        }
        let run = try await inKeyringSession(
            """
            "$AUTHCTL" keystore seal --keyring -q; echo "seal=$?"
            echo "token=$("$AUTHCTL" token)"
            start=$(date +%s%N); for i in 1 2 3 4 5 6 7 8 9 10; do "$AUTHCTL" token >/dev/null; done; end=$(date +%s%N)
            echo "ms-per-token=$(( (end - start) / 10000000 ))"
            "$AUTHCTL" keystore status | grep -q 'system keyring' && echo status=keyring
            "$AUTHCTL" keystore rekey --keyring -q; echo "rekey=$?"
            echo "token-after-rekey=$("$AUTHCTL" token)"
            """)
        #expect(run.status != 97, "gnome-keyring-daemon did not start: \(run.output)")
        #expect(run.output.contains("seal=0"), "\(run.output)")
        #expect(run.output.contains("token=at-keyring-1"), "\(run.output)")
        #expect(run.output.contains("status=keyring") && run.output.contains("rekey=0"), "\(run.output)")
        #expect(run.output.contains("token-after-rekey=at-keyring-1"), "\(run.output)")
        let text = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        #expect(text.contains("\"keySource\" : \"keyring\"") && !text.contains("at-keyring-1"))
        if let line = run.output.split(separator: "\n").first(where: { $0.hasPrefix("ms-per-token=") }) {
            print("keyring round trip: \(line) (cached token on a keyring-sealed keystore, 10 runs)")
        }

        // No session bus: the keyring cannot be reached; the error says so, exit 6.
        let without = try await authctl.run(["token"], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        #expect(without.status == 6 && without.stderr.contains("keyring"), "\(without.stderr)")
        #expect(String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self) == text, "nothing rewritten")

        // Unsealed in a session again: plaintext, and the token is as it was.
        let unsealed = try await inKeyringSession(#""$AUTHCTL" keystore unseal -q; echo "unseal=$?""#)
        #expect(unsealed.output.contains("unseal=0"), "\(unsealed.output)")
        #expect(try await authctl.run(["token"]).stdout == "at-keyring-1\n")
    }
}

extension KeyringBinaryTests {
    @Test(
        "a locked keyring is told apart from a removed item: locked, the error says to unlock it; removed, that there is no key",
        .enabled(if: available, "SKIPPED: gnome-keyring and dbus-run-session are not installed (scripts/setup.sh installs them)"))
    func lockedKeyring() async throws {
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let identity = LinkedIdentity(
            providerID: "oidc.fake", issuer: "https://idp.example", federatedID: "sub-1",
            profile: Profile(email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil), linkedAt: now,
            tokens: TokenSet(
                accessToken: "at-keyring-2", expiresAt: now.addingTimeInterval(3600), refreshToken: "rt-k", idToken: nil, scopes: []))
        let user = User(
            uid: "uid-1", email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil, createdAt: now,
            lastSignInAt: now, lastAuthAt: now, lastProviderID: "oidc.fake", providerData: [identity])
        try await FileKeystore(path: authctl.keystorePath, random: SystemRandomSource(), clock: SystemClock()).update {
            $0 = AccountState(currentUID: "uid-1", users: [user])
        }
        // Locked with the Secret Service's own Lock call; unlocking would need a prompt, which
        // cannot show here (no display), so libsecret gets a dismissed prompt.
        let locked = try await inKeyringSession(
            """
            "$AUTHCTL" keystore seal --keyring -q; echo "seal=$?"
            dbus-send --session --print-reply --dest=org.freedesktop.secrets /org/freedesktop/secrets \\
                org.freedesktop.Secret.Service.Lock array:objpath:/org/freedesktop/secrets/collection/login >/dev/null
            "$AUTHCTL" token; echo "token=$?"
            """)
        #expect(locked.status != 97, "gnome-keyring-daemon did not start: \(locked.output)")
        #expect(locked.output.contains("seal=0") && locked.output.contains("token=6"), "\(locked.output)")
        #expect(locked.output.contains("locked") && locked.output.contains("nlock"), "\(locked.output)")
        #expect(!locked.output.contains("was removed") && !locked.output.contains("at-keyring-2"), "\(locked.output)")

        // The item gone (the keystore names another): no key, and nothing about a lock.
        let text = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        let item = try #require(text.range(of: #""keyringItem" : "[^"]*""#, options: .regularExpression))
        let other = text.replacingCharacters(in: item, with: #""keyringItem" : "no-such-item-0000000000""#)
        try Data(other.utf8).write(to: URL(fileURLWithPath: authctl.keystorePath))
        let removed = try await inKeyringSession(#""$AUTHCTL" token; echo "token=$?""#)
        #expect(removed.output.contains("token=6") && removed.output.contains("holds no key"), "\(removed.output)")
        #expect(!removed.output.contains("locked"), "\(removed.output)")
    }
}

/// `strings` as a NULL-terminated array of C strings for the duration of `body`.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
}

import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// `authctl lock` forgets the key `unlock` kept from any session of the same user (issue 35,
/// part D): each session of keyrings(7) is made with keyutils' `keyctl session -`, as a
/// second login (ssh, another terminal's PAM session) has its own. scripts/setup.sh installs
/// keyutils; where `keyctl` is missing the test is skipped, and says so.
@Suite("unlock and lock across login sessions (binary, kernel keyring)", .serialized)
struct KeyringSessionTests {
    let authctl = AuthctlProcess()
    let passphrase = "typed-" + UUID().uuidString

    static let keyctl = ["/usr/bin/keyctl", "/bin/keyctl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    func sealedKeystore() async throws {
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let identity = LinkedIdentity(
            providerID: "oidc.fake", issuer: "https://idp.example", federatedID: "sub-1",
            profile: Profile(email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil), linkedAt: now,
            tokens: TokenSet(
                accessToken: "at-session-1", expiresAt: now.addingTimeInterval(3600), refreshToken: "rt-1", idToken: nil, scopes: []))
        let user = User(
            uid: "uid-1", email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil, createdAt: now,
            lastSignInAt: now, lastAuthAt: now, lastProviderID: "oidc.fake", providerData: [identity])
        try await FileKeystore(path: authctl.keystorePath, random: SystemRandomSource(), clock: SystemClock()).update {
            $0 = AccountState(currentUID: "uid-1", users: [user])
        }
        let sealed = try await authctl.run(["keystore", "seal", "--passphrase-env", "P"], environment: ["P": passphrase])
        #expect(sealed.status == 0, "\(sealed.stderr)")
    }

    /// Runs `script` with sh in a new session keyring; `$AUTHCTL` is the binary, `$KEYCTL`
    /// keyutils' tool, `$P` the passphrase (given only where the script passes it on).
    func inNewSession(_ script: String) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.keyctl ?? "/usr/bin/keyctl")
        process.arguments = ["session", "-", "/bin/sh", "-c", script]
        var environment = authctl.environment
        environment["AUTHCTL"] = AuthctlProcess.binary
        environment["KEYCTL"] = Self.keyctl
        environment["P"] = passphrase
        environment["AUTHCTL_KEYSTORE_PASSPHRASE"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = await AuthctlProcess.blocking { output.fileHandleForReading.readDataToEndOfFile() }
        await AuthctlProcess.blocking { process.waitUntilExit() }
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(
        "unlock in one session, lock in another: the key is forgotten (token fails in the first), never 'was not unlocked'",
        .enabled(if: keyctl != nil, "SKIPPED: keyctl is not installed (scripts/setup.sh installs keyutils)"))
    func lockFromAnotherSession() async throws {
        try await sealedKeystore()
        let run = try await inNewSession(
            """
            AUTHCTL_KEYSTORE_PASSPHRASE="$P" "$AUTHCTL" unlock --for 10m; echo "unlock=$?"
            echo "token-before=$("$AUTHCTL" token)"
            echo "lock-said=$("$KEYCTL" session - "$AUTHCTL" lock 2>&1 | tail -n 1)"
            "$AUTHCTL" token; echo "token-after=$?"
            echo "lock-again-said=$("$AUTHCTL" lock 2>&1)"
            """)
        #expect(run.output.contains("unlock=0") && run.output.contains("token-before=at-session-1"), "\(run.output)")
        #expect(run.output.contains("lock-said=Locked the keystore"), "lock in another session found no key: \(run.output)")
        #expect(run.output.contains("token-after=6"), "the key outlived lock in another session: \(run.output)")
        let again = run.output.components(separatedBy: "\n").first { $0.hasPrefix("lock-again-said=") } ?? ""
        #expect(again.contains("was not unlocked"), "a second lock finds nothing to forget: \(run.output)")
        #expect(!run.output.contains(passphrase))
    }

    @Test(
        "unlock where the process has no session keyring of its own (the user keyring), lock in a new session: forgotten",
        .enabled(if: keyctl != nil, "SKIPPED: keyctl is not installed (scripts/setup.sh installs keyutils)"))
    func lockFromNewSessionAfterUserKeyringUnlock() async throws {
        try await sealedKeystore()
        let unlocked = try await authctl.run(["unlock", "--for", "10m"], environment: ["AUTHCTL_KEYSTORE_PASSPHRASE": passphrase])
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
        let locked = try await inNewSession(#""$AUTHCTL" lock; echo "lock=$?""#)
        #expect(locked.output.contains("Locked the keystore") && locked.output.contains("lock=0"), "\(locked.output)")
        let after = try await authctl.run(["token"])
        #expect(after.status == 6 && after.stdout.isEmpty, "\(after.stderr)")
        _ = try await authctl.run(["lock"])
    }

    @Test(
        "a key kept in one session cannot be read from another (the user may view and search it, not read it)",
        .enabled(if: keyctl != nil, "SKIPPED: keyctl is not installed (scripts/setup.sh installs keyutils)"))
    func otherSessionCannotRead() async throws {
        try await sealedKeystore()
        let run = try await inNewSession(
            """
            AUTHCTL_KEYSTORE_PASSPHRASE="$P" "$AUTHCTL" unlock --for 10m -q; echo "unlock=$?"
            id=$("$KEYCTL" search @s user "authctl:\(authctl.keystorePath)")
            "$KEYCTL" print "$id" >/dev/null 2>&1; echo "here=$?"
            "$KEYCTL" session - "$KEYCTL" print "$id" >/dev/null 2>&1; echo "elsewhere=$?"
            "$KEYCTL" session - "$AUTHCTL" token; echo "token-elsewhere=$?"
            "$AUTHCTL" lock -q
            """)
        #expect(run.output.contains("unlock=0") && run.output.contains("here=0"), "\(run.output)")
        #expect(run.output.contains("elsewhere=1"), "another session read the key: \(run.output)")
        #expect(run.output.contains("token-elsewhere=6") && !run.output.contains("at-session-1"), "\(run.output)")
    }
}

import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

/// A sealed keystore through the real binary: every keystore command, the key from the
/// environment, exit statuses, and `token` processes running while the keystore is rekeyed.
@Suite("Sealed keystore (binary)")
struct SealedKeystoreBinaryTests {
    let authctl = AuthctlProcess()

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
            lastSignInAt: now,
            lastAuthAt: now, lastProviderID: "oidc.fake", providerData: [identity])
        try await FileKeystore(path: authctl.keystorePath, random: SystemRandomSource(), clock: SystemClock()).update {
            $0 = AccountState(currentUID: "uid-1", users: [user])
        }
    }

    func newKeyFile(_ name: String) async throws -> String {
        let made = try await authctl.run(["keystore", "new-key"])
        #expect(made.status == 0 && made.stdout.count == 45)
        let path = authctl.home + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: Data(made.stdout.utf8), attributes: [.posixPermissions: 0o600]))
        return path
    }

    @Test("every keystore command on the binary: seal, status, token with and without the key, rekey, unseal")
    func commands() async throws {
        try await signIn()
        let key = try await newKeyFile("k1")
        #expect(try await authctl.run(["keystore", "seal", "--key-file", key]).status == 0)
        let text = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self)
        #expect(!text.contains("sealed-1") && text.contains("\"version\" : 3"))

        // The keystore names its key file: without the variable, and without the file, the variable is asked for.
        let moved = key + ".away"
        #expect(rename(key, moved) == 0)
        let without = try await authctl.run(["token"])
        #expect(without.status == 6 && without.stderr.contains("AUTHCTL_KEYSTORE_KEY_FILE") && without.stdout.isEmpty, "\(without.stderr)")
        #expect(rename(moved, key) == 0)
        #expect(try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key]).stdout == "at-sealed-1\n")
        let status = try await authctl.run(["status"])
        #expect(status.status == 0 && status.stdout.contains("tokens sealed"))
        #expect(try await authctl.run(["users", "list"]).status == 0)
        #expect(try await authctl.run(["keystore", "status"]).stdout.contains("Sealed with the key file \(key)"))

        let second = try await newKeyFile("k2")
        #expect(
            try await authctl.run(["keystore", "rekey", "--key-file", second], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key]).status == 0)
        #expect(try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key]).status == 6)
        #expect(try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": second]).stdout == "at-sealed-1\n")
        #expect(try await authctl.run(["keystore", "unseal"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": second]).status == 0)
        #expect(try await authctl.run(["token"]).stdout == "at-sealed-1\n")
    }

    @Test("token processes while the keystore is rekeyed again and again (same key file, new data key): all succeed")
    func concurrentRekey() async throws {
        try await signIn()
        let key = try await newKeyFile("k")
        #expect(try await authctl.run(["keystore", "seal", "--key-file", key]).status == 0)
        let authctl = self.authctl
        let environment = ["AUTHCTL_KEYSTORE_KEY_FILE": key]
        let (tokens, rekeys) = try await withThrowingTaskGroup(of: [AuthctlProcess.Result].self) { group in
            group.addTask {
                var results: [AuthctlProcess.Result] = []
                for _ in 0..<8 {
                    results.append(try await authctl.run(["keystore", "rekey", "--key-file", key], environment: environment))
                }
                return results
            }
            for _ in 0..<4 {
                group.addTask {
                    var results: [AuthctlProcess.Result] = []
                    for _ in 0..<8 { results.append(try await authctl.run(["token"], environment: environment)) }
                    return results.map {
                        var result = $0; result.stderr = "token: " + result.stderr; return result
                    }
                }
            }
            var tokens: [AuthctlProcess.Result] = [], rekeys: [AuthctlProcess.Result] = []
            for try await results in group {
                for result in results { if result.stderr.hasPrefix("token: ") { tokens.append(result) } else { rekeys.append(result) } }
            }
            return (tokens, rekeys)
        }
        #expect(rekeys.count == 8 && rekeys.allSatisfy { $0.status == 0 }, "\(rekeys.map(\.stderr))")
        #expect(tokens.count == 32 && tokens.allSatisfy { $0.status == 0 && $0.stdout == "at-sealed-1\n" }, "\(tokens.map(\.stderr))")
    }

    @Test("seal, rekey and unseal killed with SIGKILL at random moments: the old or the new keystore, never a mix, and no token lost")
    func killedMidWrite() async throws {
        try await signIn()
        let key = try await newKeyFile("k")
        let environment = ["AUTHCTL_KEYSTORE_KEY_FILE": key]
        var random = SystemRandomNumberGenerator()
        var outcomes: Set<String> = []
        for round in 0..<24 {
            let sealed = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self).contains("\"version\" : 3")
            let arguments =
                !sealed
                ? ["keystore", "seal", "--key-file", key]
                : round % 2 == 0 ? ["keystore", "rekey", "--key-file", key] : ["keystore", "unseal"]
            let started = try authctl.start(arguments, environment: environment)
            // Up to 60 ms: start-up, the scrypt-free key-file path and the write all fall inside.
            usleep(UInt32.random(in: 0...60_000, using: &random))
            kill(started.0.processIdentifier, SIGKILL)
            let ended = await AuthctlProcess.finish(started)
            outcomes.insert(ended.status == 0 ? "finished" : "killed")
            // The key is given only for a sealed keystore: with it, a plaintext one is refused (no silent downgrade).
            let nowSealed = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self).contains("\"version\" : 3")
            let token = try await authctl.run(["token"], environment: nowSealed ? environment : [:])
            #expect(token.status == 0 && token.stdout == "at-sealed-1\n", "round \(round) \(arguments): \(token.stderr)")
            let listing = try await authctl.run(["users", "list"])
            #expect(listing.status == 0, "round \(round): \(listing.stderr)")
        }
        #expect(outcomes.contains("killed"), "no run was killed before it ended: the test proved nothing")
        // The next write removes what a killed writer left (a temporary may hold tokens in plaintext).
        let sealed = String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self).contains("\"version\" : 3")
        let last = try await authctl.run(
            ["keystore", sealed ? "unseal" : "seal"] + (sealed ? [] : ["--key-file", key]), environment: environment)
        #expect(last.status == 0, "\(last.stderr)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (authctl.keystorePath as NSString).deletingLastPathComponent)
        #expect(leftovers.allSatisfy { !$0.contains(".tmp-") }, "\(leftovers)")
    }

    @Test("on a real terminal the passphrase is asked for and not echoed; without one nothing is asked")
    func passphraseOnTerminal() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        try await signIn()
        let passphrase = "typed-" + UUID().uuidString
        #expect(try await authctl.run(["keystore", "seal", "--passphrase-env", "P"], environment: ["P": passphrase]).status == 0)

        let terminal = try authctl.startOnTerminal("token", killAfter: 30)
        var printed = await terminal.read(until: "Keystore passphrase:")
        #expect(printed.contains("Keystore passphrase:"), "asked on a terminal: \(printed)")
        terminal.input.write(Data((passphrase + "\n").utf8))
        printed += await terminal.rest()
        #expect(terminal.process.terminationStatus == 0, "\(printed)")
        #expect(printed.contains("at-sealed-1"), "\(printed)")
        #expect(!printed.contains(passphrase), "the passphrase was echoed: \(printed)")

        let piped = try await authctl.run(["token"], stdin: Data((passphrase + "\n").utf8))
        #expect(piped.status == 6 && !piped.stderr.contains("Keystore passphrase:") && piped.stderr.contains("AUTHCTL_KEYSTORE_PASSPHRASE"))
    }

    @Test("a key file that others may read is refused with the fix")
    func keyFileMode() async throws {
        try await signIn()
        let key = try await newKeyFile("k")
        chmod(key, 0o640)
        let refused = try await authctl.run(["keystore", "seal", "--key-file", key])
        #expect(refused.status == 6 && refused.stderr.contains("chmod 600"))
    }
}

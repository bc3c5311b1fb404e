import AuthCore
import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthctlCommands

/// `authctl keystore …` and every command on a sealed keystore, in-process.
@Suite("Keystore sealing commands")
struct KeystoreSealCommandsTests {
    let authctl = InProcessAuthctl()

    /// A signed-in user with a cached access token valid for an hour, a refresh token and an ID token.
    func signIn() async throws {
        let now = authctl.clock.now()
        let identity = LinkedIdentity(
            providerID: "oidc.fake", issuer: "https://idp.example", federatedID: "sub-1",
            profile: Profile(email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil), linkedAt: now,
            tokens: TokenSet(
                accessToken: "at-secret-1", expiresAt: now.addingTimeInterval(3600), refreshToken: "rt-secret-1", idToken: "id-secret-1",
                scopes: ["openid"]))
        let user = User(
            uid: "uid-1", email: "ada@example.com", emailVerified: true, displayName: "Ada", photoURL: nil, createdAt: now,
            lastSignInAt: now,
            lastAuthAt: now, lastProviderID: "oidc.fake", providerData: [identity])
        try await FileKeystore(path: authctl.keystorePath, random: SystemRandomSource(), clock: SystemClock()).update {
            $0 = AccountState(currentUID: "uid-1", users: [user])
        }
    }

    func newKeyFile(_ name: String = "key") async throws -> String {
        let made = try await authctl.run(["keystore", "new-key"])
        #expect(made.status == 0)
        let path = authctl.home + "/" + name
        try Data(made.stdout.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        return path
    }

    var keystoreText: String { String(decoding: authctl.keystoreBytes() ?? Data(), as: UTF8.self) }

    @Test(
        "seal --key-file: token needs the key file (the keystore's own, or AUTHCTL_KEYSTORE_KEY_FILE; exit 6 saying so without it); status and users list work without"
    )
    func keyFileSealed() async throws {
        try await signIn()
        let key = try await newKeyFile()
        #expect(try await authctl.run(["keystore", "seal", "--key-file", key]).status == 0)
        #expect(!keystoreText.contains("rt-secret-1") && !keystoreText.contains("at-secret-1") && !keystoreText.contains("id-secret-1"))
        let before = authctl.keystoreBytes()

        #expect(rename(key, key + ".away") == 0)
        let refused = try await authctl.run(["token"])
        #expect(rename(key + ".away", key) == 0)
        #expect(refused.status == 6)
        #expect(refused.stderr.contains("AUTHCTL_KEYSTORE_KEY_FILE") && refused.stdout.isEmpty)
        let opened = try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key])
        #expect(opened.status == 0 && opened.stdout == "at-secret-1\n")
        let idToken = try await authctl.run(["token", "--id-token"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key])
        #expect(idToken.stdout == "id-secret-1\n")

        let status = try await authctl.run(["status"])
        #expect(status.status == 0 && status.stdout.contains("tokens sealed") && status.stdout.contains("ada@example.com"))
        let list = try await authctl.run(["users", "list"])
        #expect(list.status == 0 && list.stdout.contains("uid-1"))
        let json = try await authctl.run(["status", "--json"])
        #expect(json.stdout.contains("\"tokensSealed\" : true") || json.stdout.contains("\"tokensSealed\":true"))
        let keystoreStatus = try await authctl.run(["keystore", "status"])
        #expect(keystoreStatus.status == 0 && keystoreStatus.stdout.contains("Sealed with the key file \(key)"))
        let keystoreJSON = try await authctl.run(["keystore", "status", "--json"])
        #expect(keystoreJSON.json?["keySource"] == .string("keyFile") && keystoreJSON.json?["sealed"] == .bool(true))
        #expect(authctl.keystoreBytes() == before, "reads wrote nothing")
    }

    @Test("a wrong key file is named as wrong, exit 6, and nothing is rewritten")
    func wrongKey() async throws {
        try await signIn()
        try await authctl.run(["keystore", "seal", "--key-file", try await newKeyFile()]).expectSuccess()
        let before = authctl.keystoreBytes()
        let other = try await newKeyFile("other")
        for command in [
            ["token"], ["users", "use", "uid-1"], ["signout"], ["keystore", "unseal"], ["keystore", "rekey", "--key-file", other],
        ] {
            let result = try await authctl.run(command, environment: ["AUTHCTL_KEYSTORE_KEY_FILE": other])
            #expect(result.status == 6, "\(command)")
            #expect(result.stderr.contains("not the key it was sealed with"), "\(command): \(result.stderr)")
        }
        #expect(authctl.keystoreBytes() == before)
    }

    @Test("a passphrase from --passphrase-env or --passphrase-file, and AUTHCTL_KEYSTORE_PASSPHRASE for every command")
    func passphrase() async throws {
        try await signIn()
        try await authctl.run(["keystore", "seal", "--passphrase-env", "MY_PASS"], environment: ["MY_PASS": "hunter2 horse"])
            .expectSuccess()
        #expect(try await authctl.run(["keystore", "status"]).stdout.contains("a passphrase"))
        let refused = try await authctl.run(["token"])
        #expect(refused.status == 6 && refused.stderr.contains("AUTHCTL_KEYSTORE_PASSPHRASE"))
        let wrong = try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_PASSPHRASE": "nope"])
        #expect(wrong.status == 6 && wrong.stderr.contains("not the key"))
        #expect(try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_PASSPHRASE": "hunter2 horse"]).stdout == "at-secret-1\n")

        let file = authctl.home + "/pass"
        try Data("another one, longer\n".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        try await authctl.run(
            ["keystore", "rekey", "--passphrase-file", file], environment: ["AUTHCTL_KEYSTORE_PASSPHRASE": "hunter2 horse"]
        )
        .expectSuccess()
        #expect(
            try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_PASSPHRASE": "another one, longer"]).stdout == "at-secret-1\n")
    }

    @Test("--json: seal, rekey and unseal print the keystore's status as keystore status does; new-key prints {\"key\"}")
    func json() async throws {
        try await signIn()
        let key = try await newKeyFile()
        let sealed = try await authctl.run(["keystore", "seal", "--key-file", key, "--json"])
        #expect(sealed.status == 0 && sealed.json?["sealed"] == .bool(true) && sealed.json?["keySource"] == "keyFile", "\(sealed.stdout)")
        #expect(sealed.json == (try await authctl.run(["keystore", "status", "--json"])).json)
        let rekeyed = try await authctl.run(
            ["keystore", "rekey", "--key-file", key, "--json"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key])
        #expect(rekeyed.status == 0 && rekeyed.json?["sealed"] == .bool(true), "\(rekeyed.stdout)")
        let unsealed = try await authctl.run(["keystore", "unseal", "--json"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key])
        #expect(
            unsealed.status == 0 && unsealed.json?["sealed"] == .bool(false) && unsealed.json?["version"] == .number(1),
            "\(unsealed.stdout)")
        let made = try await authctl.run(["keystore", "new-key", "--json"])
        #expect(made.json?["key"]?.stringValue?.count == 44, "\(made.stdout)")
    }

    @Test("a passphrase is asked on a terminal, and never without one")
    func prompt() async throws {
        try await signIn()
        try await authctl.run(["keystore", "seal", "--passphrase-env", "P"], environment: ["P": "typed passphrase"]).expectSuccess()
        let asked = try await authctl.run(["token"], stdin: Data("typed passphrase\n".utf8), terminals: .all)
        #expect(asked.status == 0 && asked.stdout == "at-secret-1\n" && asked.stderr.contains("Keystore passphrase:"))
        let piped = try await authctl.run(["token"], stdin: Data("typed passphrase\n".utf8))
        #expect(piped.status == 6 && !piped.stderr.contains("Keystore passphrase:"))
        let sealWithout = try await authctl.run(["keystore", "rekey"], environment: ["AUTHCTL_KEYSTORE_PASSPHRASE": "typed passphrase"])
        #expect(sealWithout.status == 2 && sealWithout.stderr.contains("--key-file"))
    }

    @Test("unseal, seal twice, rekey a plaintext keystore: the answers; unseal gives back version 1")
    func lifecycle() async throws {
        try await signIn()
        let plaintext = authctl.keystoreBytes()
        #expect(try await authctl.run(["keystore", "rekey", "--key-file", "x"]).status == 2)
        let key = try await newKeyFile()
        try await authctl.run(["keystore", "seal", "--key-file", key]).expectSuccess()
        let again = try await authctl.run(["keystore", "seal", "--key-file", key])
        #expect(again.status == 2 && again.stderr.contains("authctl keystore rekey"))
        #expect(rename(key, key + ".away") == 0)
        let unsealNoKey = try await authctl.run(["keystore", "unseal"])
        #expect(rename(key + ".away", key) == 0)
        #expect(unsealNoKey.status == 6)
        try await authctl.run(["keystore", "unseal"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key]).expectSuccess()
        #expect(authctl.keystoreBytes() == plaintext)
        #expect(try await authctl.run(["keystore", "status"]).stdout.contains("Plaintext (format version 1)"))
    }

    @Test("signout and users export on a sealed keystore: with the key; export never holds a secret")
    func otherCommands() async throws {
        try await signIn()
        let key = try await newKeyFile()
        try await authctl.run(["keystore", "seal", "--key-file", key]).expectSuccess()
        let export = try await authctl.run(["users", "export"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key])
        #expect(export.status == 0 && !export.stdout.contains("secret-1"))
        try await authctl.run(["signout"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key]).expectSuccess()
        #expect(keystoreText.contains("\"version\" : 3"), "it stays sealed")
        #expect(try await authctl.run(["status"]).status == 16)
    }

    @Test("users show and users export (both formats) need no key: profiles stay readable, no secret is in them")
    func profilesWithoutKey() async throws {
        try await signIn()
        let key = try await newKeyFile()
        try await authctl.run(["keystore", "seal", "--key-file", key]).expectSuccess()
        let before = authctl.keystoreBytes()
        let show = try await authctl.run(["users", "show"])
        #expect(show.status == 0 && show.stdout.contains("ada@example.com") && show.stdout.contains("sealed"), "\(show.stderr)")
        let showJSON = try await authctl.run(["users", "show", "uid-1", "--json"])
        #expect(showJSON.status == 0 && showJSON.stdout.contains("\"uid\" : \"uid-1\""), "\(showJSON.stderr)")
        for format in ["authctl", "firebase"] {
            let export = try await authctl.run(["users", "export", "--format", format])
            #expect(export.status == 0 && export.stdout.contains("ada@example.com"), "\(format): \(export.stderr)")
            #expect(!export.stdout.contains("secret-1") && !export.stdout.contains("sealed:"), "\(format)")
        }
        #expect(authctl.keystoreBytes() == before, "reads wrote nothing")
    }

    @Test("key files: refused when others can read them, or when they are no key")
    func keyFileChecks() async throws {
        try await signIn()
        let key = try await newKeyFile()
        chmod(key, 0o644)
        let open = try await authctl.run(["keystore", "seal", "--key-file", key])
        #expect(open.status == 6 && open.stderr.contains("chmod 600"))
        let junk = authctl.home + "/junk"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: junk))
        chmod(junk, 0o600)
        let notKey = try await authctl.run(["keystore", "seal", "--key-file", junk])
        #expect(notKey.status == 6 && notKey.stderr.contains("authctl keystore new-key"))
        #expect(!keystoreText.contains("\"version\" : 3"))
    }
    @Test("a plaintext token planted in a sealed keystore: token serves nothing (exit 6), keystore status refuses, nothing changes")
    func plantedToken() async throws {
        try await signIn()
        let key = try await newKeyFile()
        try await authctl.run(["keystore", "seal", "--key-file", key]).expectSuccess()
        // Written by someone without the key: the sealed tokens replaced by their own, in plaintext.
        let planted = keystoreText.replacingOccurrences(
            of: #""sealed" : "[^"]*""#, with: #""accessToken" : "planted-access""#, options: .regularExpression)
        #expect(planted != keystoreText)
        try Data(planted.utf8).write(to: URL(fileURLWithPath: authctl.keystorePath))
        let before = authctl.keystoreBytes()
        let token = try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key])
        #expect(token.status == 6 && token.stdout.isEmpty && token.stderr.contains("not"), "\(token.stderr)")
        let status = try await authctl.run(["keystore", "status"])
        #expect(status.status == 6 && !status.stdout.contains("Sealed"), "\(status.stdout)")
        #expect(authctl.keystoreBytes() == before)
    }

    @Test("a plaintext keystore with AUTHCTL_KEYSTORE_KEY_FILE set: token refused (exit 6) naming the danger and the way out")
    func swappedForPlaintext() async throws {
        try await signIn()
        let key = try await newKeyFile()
        let before = authctl.keystoreBytes()
        let token = try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key])
        #expect(token.status == 6 && token.stdout.isEmpty, "\(token.stderr)")
        #expect(token.stderr.contains("replaced") && token.stderr.contains("authctl keystore seal"), "\(token.stderr)")
        #expect(token.stderr.contains("unset AUTHCTL_KEYSTORE_KEY_FILE"), "\(token.stderr)")
        let keyring = try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_KEYRING": "1"])
        #expect(keyring.status == 6 && keyring.stderr.contains("AUTHCTL_KEYSTORE_KEYRING"), "\(keyring.stderr)")
        #expect(authctl.keystoreBytes() == before)
        // The way out: seal it again, with the variable set.
        try await authctl.run(["keystore", "seal", "--key-file", key], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key]).expectSuccess()
        #expect(try await authctl.run(["token"], environment: ["AUTHCTL_KEYSTORE_KEY_FILE": key]).stdout == "at-secret-1\n")
    }

    @Test("a weak new passphrase from a variable, a file or the prompt is refused with exit 2 and the rule; the prompt says the rule first")
    func weakPassphrase() async throws {
        try await signIn()
        let before = authctl.keystoreBytes()
        let fromVariable = try await authctl.run(["keystore", "seal", "--passphrase-env", "P"], environment: ["P": "hunter2"])
        #expect(fromVariable.status == 2 && fromVariable.stderr.contains("12 characters"), "\(fromVariable.stderr)")
        #expect(!fromVariable.stderr.contains("hunter2"))
        let file = authctl.home + "/weak"
        try Data("123456789012\n".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        let fromFile = try await authctl.run(["keystore", "seal", "--passphrase-file", file])
        #expect(fromFile.status == 2 && fromFile.stderr.contains("run"), "\(fromFile.stderr)")
        let prompted = try await authctl.run(["keystore", "seal"], stdin: Data("aaaaaaaaaaaaaa\n".utf8), terminals: .all)
        #expect(prompted.status == 2 && prompted.stderr.contains("12 characters"), "\(prompted.stderr)")
        let rule = try #require(prompted.stderr.range(of: "12 characters"))
        let prompt = try #require(prompted.stderr.range(of: "New keystore passphrase:"))
        #expect(rule.lowerBound < prompt.lowerBound, "the rule is said before the prompt")
        #expect(!prompted.stderr.contains("Once more"))
        #expect(authctl.keystoreBytes() == before)
        // Sealed with a good one, rekeyed to a weak one: refused as well.
        try await authctl.run(["keystore", "seal", "--passphrase-env", "P"], environment: ["P": "a good passphrase"]).expectSuccess()
        let rekey = try await authctl.run(
            ["keystore", "rekey", "--passphrase-env", "P"], environment: ["P": "short", "AUTHCTL_KEYSTORE_PASSPHRASE": "a good passphrase"])
        #expect(rekey.status == 2 && rekey.stderr.contains("12 characters"), "\(rekey.stderr)")
    }
}

extension InProcessAuthctl.Result {
    func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == 0, "\(stderr)", sourceLocation: sourceLocation)
    }
}

import AuthCoreTestSupport
import Foundation
import Testing

@testable import AuthCore

/// A new passphrase that can be guessed offline is refused (docs/keystore.md): at least 12
/// characters, at least 5 different ones, and not a run such as 123456789012.
@Suite("Keystore passphrases: weak new ones refused")
final class KeystorePassphraseRuleTests: KeystoreDirectoryFixture {
    let directory: String

    init() throws { directory = try Self.privateDirectory("authctl-passphrase") }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var fileBytes: Data? { try? Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test(
        "a weak new passphrase is refused as an invalid argument stating the rule; the keystore is unchanged",
        arguments: [
            "x", "pw", "hunter2", "elevenchars", "aaaaaaaaaaaa", "............", "123456789012", "abcdefghijkl", "ZYXWVUTSRQPO",
            "210987654321", "abababababab", "121212121212", "😀😀😀😀😀😀😀😀😀😀😀😀",
        ])
    func weak(passphrase: String) async throws {
        try await keystore().update { $0 = KeystoreFormatTests.expected }
        let before = fileBytes
        await #expect { try await self.keystore().reseal(.passphrase(passphrase)) } throws: {
            guard let error = $0 as? AuthError, error.code == .invalidArgument else { return false }
            return error.message.contains("12 characters")
                && (!error.message.contains(passphrase) || KeystorePassphraseRule.description.contains(passphrase))
        }
        #expect(fileBytes == before)
    }

    @Test("passphrases that follow the rule are accepted", arguments: ["correct horse", "hunter2 horse", "ab1cd2ef3gh4", "Tr0ub4dor&3x"])
    func strong(passphrase: String) {
        #expect(KeystorePassphraseRule.weakness(of: passphrase) == nil)
    }

    @Test("a keystore sealed before the rule with a short passphrase still opens with it")
    func oldShortPassphraseOpens() async throws {
        try await keystore().update { $0 = KeystoreFormatTests.expected }
        // Sealed as an earlier build would: the short passphrase derived with scrypt (the
        // lowest cost a file may hold, to spare the CPU: the file's parameters are read with it).
        let kdf = KeystoreSealing.Scrypt.standard(salt: Data(repeating: 7, count: 16), cost: 10)
        let wrapping = try KeystoreKeys.derive(passphrase: "pw", salt: try #require(kdf.checkedSalt), kdf: kdf)
        let key = DataKey.random()
        let sealing = try KeystoreSealing(dataKey: key, wrappingKey: wrapping, keySource: .passphrase, kdf: kdf)
        let file = try KeystoreFile(KeystoreFormatTests.expected).sealed(with: key, sealing: sealing)
        try file.encodedForWriting(path: path).write(to: URL(fileURLWithPath: path))
        #expect(try keystore(KeystoreKeys(passphrase: "pw")).read() == KeystoreFormatTests.expected)
        // Rekeyed to a strong one: fine; to another weak one: refused.
        await #expect(throws: AuthError.self) {
            try await self.keystore(KeystoreKeys(passphrase: "pw")).reseal(.passphrase("pw2", cost: 10))
        }
        try await keystore(KeystoreKeys(passphrase: "pw")).reseal(.passphrase("a much better one", cost: 10))
        #expect(try keystore(KeystoreKeys(passphrase: "a much better one")).read() == KeystoreFormatTests.expected)
    }
}

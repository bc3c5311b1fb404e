import Foundation
import Testing

@testable import AuthCore

/// The token hot path's decoder (`KeystoreRecordReader`, issue 24) against `JSONDecoder`: on
/// every keystore the tests know — the golden files (plaintext, sealed in every way, format 2,
/// the oldest format, workloads, per-scope tokens, a Firebase user) and files full of tricky
/// strings — it reads the same records, and on damaged copies of them it never accepts what
/// the decoder refuses nor reads anything differently.
@Suite("The hot path's record reader agrees with the full decoder")
struct KeystoreRecordReaderTests {
    static let decoder = KeystoreFile.decoder

    /// The data key of the format 2 fixture (its key file holds the bytes 32…63; the data key 0…31).
    static let fixtureKey = DataKey(bytes: Data((0..<32).map { UInt8($0) }))

    /// A keystore, and the key its sealed values open with (nil: plaintext).
    struct Keystore {
        var name: String
        var data: Data
        var key: DataKey?
    }

    static func fixture(_ name: String) throws -> Data {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try Data(contentsOf: root.appendingPathComponent("Fixtures/\(name)"))
    }

    /// Users with every field set and strings that need escapes, non-ASCII text, a Firebase
    /// backend with a session and a workload.
    static let tricky: AccountState = {
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        let later = Date(timeIntervalSince1970: 4_102_444_799)  // 2099-12-31T23:59:59Z
        var users = (0..<4).map { index in
            User(
                uid: "uid-\(index)-" + String(repeating: "x", count: 20), email: "u\(index)@example.com", emailVerified: index % 2 == 0,
                displayName: #"Ada "the \ countess" {of} [Lovelace] ✓ 😀 / é"# + "\u{1}\u{7f}\t\n\(index)",
                photoURL: index == 1 ? "https://idp.example/p/\(index)" : nil, createdAt: date, lastSignInAt: later,
                lastAuthAt: Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29
                lastProviderID: "oidc.a",
                providerData: [
                    LinkedIdentity(
                        providerID: "oidc.a", issuer: "https://idp.example/{tenant}", federatedID: "\"sub\"-\(index)",
                        profile: Profile(
                            email: "u\(index)@example.com", emailVerified: true, displayName: "]}\\\"\u{2028}",
                            isPrivateEmail: index == 2 ? true : nil),
                        linkedAt: date,
                        tokens: TokenSet(
                            accessToken: "at-\(index)-ünïcode", expiresAt: index == 3 ? nil : later, refreshToken: "rt-\(index)",
                            idToken: index == 1 ? nil : "id.\(index).sig", scopes: index == 0 ? [] : ["openid", "email", "a\"b"],
                            additionalTokens: [
                                "api://x/.default": ScopedAccessToken(
                                    accessToken: "scoped-\(index)", tokenType: "Bearer", expiresAt: later, scopes: ["api://x/.default"])
                            ]))
                ])
        }
        users[1].backend = UserBackend(
            projectID: "my-app", tenantID: "t-1",
            session: TokenSet(accessToken: "fb-id", expiresAt: later, refreshToken: "fb-rt", idToken: "fb-id", scopes: []),
            emulator: "127.0.0.1:9099")
        users[2].providerData[0].tokens?.needsSignInSince = date
        // Resources' grants (`login URL`): one with tokens, one without.
        users[3].resourceGrants = [
            ResourceGrant(
                resource: "https://api.example/mcp?x=\"é\"", issuer: "https://as.example", providerID: "oidc.as-example", grantedAt: date,
                tokens: TokenSet(accessToken: "grant-at", expiresAt: later, refreshToken: "grant-rt", idToken: nil, scopes: ["mcp:read"])),
            ResourceGrant(
                resource: "https://api.example/other", issuer: "https://as.example", providerID: "oidc.as-example", grantedAt: later,
                tokens: nil, viaProviderID: "oidc.corp", viaTokenType: "urn:ietf:params:oauth:token-type:id-jag"),
        ]
        return AccountState(currentUID: users[0].uid, users: users)
    }()

    /// Every keystore of the tests: hand-written golden files and files written by this build,
    /// plaintext and sealed in each way.
    static func keystores() throws -> [Keystore] {
        var plain: [(String, Data)] = [
            ("golden", Data(KeystoreFormatTests.golden.utf8)),
            ("oldest", Data(KeystoreFormatTests.oldest.utf8)),
            ("workload golden", Data(WorkloadKeystoreFormatTests.golden.utf8)),
            ("before per-scope tokens", Data(ScopedTokensKeystoreTests.before.utf8)),
            ("golden as written", try KeystoreFile(KeystoreFormatTests.expected).encoded()),
            ("tricky", try KeystoreFile(tricky).encoded()),
        ]
        // The tricky file compact, keys in another order (what another writer might do).
        if let value = JSONValue.object(from: try KeystoreFile(tricky).encoded()) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = []
            plain.append(("tricky compact", try encoder.encode(JSONValue.object(value))))
        }
        var all = plain.map { Keystore(name: $0.0, data: $0.1, key: nil) }
        all.append(Keystore(name: "sealed format 2 fixture", data: try fixture("sealed-keystore-v2.json"), key: fixtureKey))
        let sealings: [(String, (DataKey) throws -> KeystoreSealing)] = [
            (
                "key file",
                {
                    try KeystoreSealing(
                        dataKey: $0, wrappingKey: DataKey.random().symmetricKey, keySource: .keyFile, kdf: nil, keyFile: "/home/ada/k")
                }
            ),
            (
                "passphrase",
                {
                    try KeystoreSealing(
                        dataKey: $0, wrappingKey: DataKey.random().symmetricKey, keySource: .passphrase,
                        kdf: .standard(salt: Data(count: 16)))
                }
            ),
            (
                "keyring",
                {
                    try KeystoreSealing(
                        dataKey: $0, wrappingKey: DataKey.random().symmetricKey, keySource: .keyring, kdf: nil, keyringItem: "item-1")
                }
            ),
        ]
        for (name, state) in [("golden", KeystoreFormatTests.expected), ("tricky", tricky)] {
            for (how, sealing) in sealings {
                let key = DataKey.random()
                let data = try KeystoreFile(state).sealed(with: key, sealing: sealing(key)).encoded()
                all.append(Keystore(name: "\(name) sealed with a \(how)", data: data, key: key))
            }
        }
        return all
    }

    /// The bytes of each user's record in `data`, found by the hot path's scan (the file
    /// with `currentUid` set to each uid in turn), and the file as scanned.
    static func records(in data: Data) throws -> [(file: Data, found: KeystoreScan.Found, record: Data)] {
        let file = try decoder.decode(KeystoreFile.self, from: data)
        let text = String(decoding: data, as: UTF8.self)
        let current = try #require(file.currentUid)
        let pattern = try #require(text.range(of: "\"currentUid\""))
        let valueStart = try #require(text.range(of: "\"\(current)\"", range: pattern.upperBound..<text.endIndex))
        return try file.users.map { user in
            var changed = text
            changed.replaceSubrange(valueStart, with: "\"\(user.uid)\"")
            let bytes = Data(changed.utf8)
            let found = try #require(KeystoreScan.currentUser(in: bytes))
            let range = try #require(found.user)
            return (bytes, found, bytes.subdata(in: range))
        }
    }

    @Test("every user's record of every keystore reads as JSONDecoder reads it, without JSONDecoder")
    func recordsAgree() throws {
        var count = 0
        for keystore in try Self.keystores() {
            for (_, _, record) in try Self.records(in: keystore.data) {
                let full = try Self.decoder.decode(KeystoreRecord.User.self, from: record)
                let fast = KeystoreRecord.User.fastDecoded(record)
                #expect(fast != nil, "\(keystore.name): the reader left a record authctl wrote to the decoder")
                #expect(fast == full, "\(keystore.name)")
                count += 1
            }
        }
        #expect(count >= 20)
    }

    @Test("a sealed keystore's sealing, and every sealed token's secrets, read as JSONDecoder reads them")
    func sealedPartsAgree() throws {
        var opened = 0
        for keystore in try Self.keystores() {
            guard let key = keystore.key else { continue }
            let (_, found, _) = try #require(Self.records(in: keystore.data).first)
            let sealingBytes = keystore.data.subdata(in: try #require(found.sealing))
            let sealing = try Self.decoder.decode(KeystoreSealing.self, from: sealingBytes)
            #expect(KeystoreSealing.fastDecoded(sealingBytes) == sealing, "\(keystore.name)")
            let file = try Self.decoder.decode(KeystoreFile.self, from: keystore.data)
            for user in file.users {
                var sealed: [(String, SealedPlace)] = user.providerData.compactMap { identity in
                    identity.tokens?.sealed.map {
                        (
                            $0,
                            file.version >= 3
                                ? .identityTokens(uid: user.uid, identity: identity)
                                : .Version2.identityTokens(uid: user.uid, providerID: identity.providerId)
                        )
                    }
                }
                if let backend = user.backend, let value = backend.session?.sealed {
                    sealed.append(
                        (
                            value,
                            file.version >= 3 ? .backendSession(uid: user.uid, backend: backend) : .Version2.backendSession(uid: user.uid)
                        ))
                }
                for (value, place) in sealed {
                    let plaintext = try #require(key.open(value, place: place), "\(keystore.name)")
                    let full = try Self.decoder.decode(SealedSecrets.self, from: plaintext)
                    #expect(SealedSecrets.fastDecoded(plaintext) == full, "\(keystore.name)")
                    opened += 1
                }
                // And the whole record opened through the hot path's read is the full read's.
                #expect(try user.opening(with: key, version: file.version) == file.opened(with: key).users.first { $0.uid == user.uid })
            }
        }
        #expect(opened >= 8)
    }

    /// Damaged copies of `bytes`: cut short anywhere, and each byte replaced by one that
    /// matters to JSON (every `stride`-th position).
    static func damaged(_ bytes: Data, stride: Int) -> [Data] {
        let replacements: [UInt8] = [0x22, 0x5C, 0x7D, 0x5D, 0x2C, 0x3A, 0x78, 0x30, 0x2D, 0x00, 0x0A, 0xFF, 0xC3, 0x6E, 0x20]
        var copies: [Data] = []
        for cut in Swift.stride(from: 0, to: bytes.count, by: max(1, stride / 2)) { copies.append(bytes.prefix(cut)) }
        for position in Swift.stride(from: 0, to: bytes.count, by: stride) {
            for byte in replacements where bytes[bytes.startIndex + position] != byte {
                var copy = bytes
                copy[copy.startIndex + position] = byte
                copies.append(copy)
            }
        }
        // Doubled members and a `null`.
        let text = String(decoding: bytes, as: UTF8.self)
        copies.append(
            Data(
                text.replacingOccurrences(of: "\"emailVerified\" : false", with: "\"emailVerified\" : false, \"emailVerified\" : true").utf8
            ))
        copies.append(Data(text.replacingOccurrences(of: "\"email\" : ", with: "\"email\" : null, \"x\" : ").utf8))
        return copies
    }

    @Test("on damaged records it refuses what JSONDecoder refuses, and what it reads JSONDecoder reads the same")
    func damagedRecordsAgree() throws {
        var refused = 0, read = 0
        for keystore in try Self.keystores() {
            guard let (_, _, record) = try Self.records(in: keystore.data).first else { continue }
            for copy in Self.damaged(record, stride: max(1, record.count / 75)) {
                let full = try? Self.decoder.decode(KeystoreRecord.User.self, from: copy)
                let fast = KeystoreRecord.User.fastDecoded(copy)
                if full == nil {
                    #expect(fast == nil, "\(keystore.name): accepted what the decoder refuses: \(String(decoding: copy, as: UTF8.self))")
                    refused += 1
                } else if let fast {
                    #expect(fast == full, "\(keystore.name): read differently: \(String(decoding: copy, as: UTF8.self))")
                    read += 1
                }
            }
        }
        #expect(refused > 1000 && read > 100)
    }

    @Test("damaged sealings and sealed secrets: refused alike, read alike")
    func damagedSealedPartsAgree() throws {
        for keystore in try Self.keystores() {
            guard let key = keystore.key else { continue }
            let (_, found, _) = try #require(Self.records(in: keystore.data).first)
            let sealingBytes = keystore.data.subdata(in: try #require(found.sealing))
            for copy in Self.damaged(sealingBytes, stride: 4) {
                let full = try? Self.decoder.decode(KeystoreSealing.self, from: copy)
                let fast = KeystoreSealing.fastDecoded(copy)
                #expect(full == nil ? fast == nil : (fast == nil || fast == full), "\(String(decoding: copy, as: UTF8.self))")
            }
            let file = try Self.decoder.decode(KeystoreFile.self, from: keystore.data)
            let user = try #require(file.users.first)
            let identity = try #require(user.providerData.first { $0.tokens?.sealed != nil })
            let place: SealedPlace =
                file.version >= 3
                ? .identityTokens(uid: user.uid, identity: identity)
                : .Version2.identityTokens(uid: user.uid, providerID: identity.providerId)
            let sealedValue = try #require(identity.tokens?.sealed)
            let plaintext = try #require(key.open(sealedValue, place: place))
            for copy in Self.damaged(plaintext, stride: max(1, plaintext.count / 100)) {
                let full = try? Self.decoder.decode(SealedSecrets.self, from: copy)
                let fast = SealedSecrets.fastDecoded(copy)
                #expect(full == nil ? fast == nil : (fast == nil || fast == full), "\(String(decoding: copy, as: UTF8.self))")
            }
        }
    }

    @Test("dates: every form JSONEncoder writes, from 1900 to 9999, leap days included, reads as the decoder reads it")
    func datesAgree() throws {
        var generator = SystemRandomNumberGenerator()
        var seconds: [Int] = [0, 951_782_400, 951_868_799, 4_102_444_799, -2_208_988_800, 253_402_300_799, 1_709_164_800]
        for _ in 0..<2000 { seconds.append(Int.random(in: -2_208_988_800...253_402_300_799, using: &generator)) }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        for second in seconds {
            let encoded = try encoder.encode([Date(timeIntervalSince1970: Double(second))])
            let full = try Self.decoder.decode([Date].self, from: encoded)
            let fast = KeystoreRecordReader.read(encoded) { reader in reader.array { $0.date() } }
            #expect(fast == full, "\(String(decoding: encoded, as: UTF8.self))")
        }
        // What it does not take, the decoder decides.
        for odd in [
            "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z",
            "2026-01-01T00:00:60Z", "2026-01-01T00:00:00+01:00", "2026-01-01T00:00:00.5Z", "2026-01-01 00:00:00Z", "1899-12-31T23:59:59Z",
            "２026-01-01T00:00:00Z", "2026-01-01T00:00:00z",
        ] {
            let encoded = Data("[\"\(odd)\"]".utf8)
            #expect(KeystoreRecordReader.read(encoded) { reader in reader.array { $0.date() } } == nil, "\(odd)")
        }
    }

    @Test("strings: escapes, surrogate pairs, non-ASCII and control characters as the decoder reads them; invalid ones refused")
    func stringsAgree() throws {
        let cases = [
            #""plain""#, #""a\"b\\c\/d\be\ff\ng\rh\ti""#, #""\u0041\u00e9\u20ac\ud83d\ude00\u0000""#, "\"é✓😀\"", #""\uD83D\uDE00""#,
            #""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\x""#, #""\u12""#, #""\u12G4""#, "\"a\u{1}b\"", "\"tab\there\"",
            "\"\u{7f}\"",
            "\"\u{FF}\"", "\"\u{C3}\"", "\"\u{ED}\u{A0}\u{80}\"", "\"open", "\"\\", "\"\\\"", #""""#,
        ]
        for text in cases {
            var bytes = Data(text.utf8)
            // Raw bytes (not UTF-8 as Swift would write them) for the invalid ones.
            if text.unicodeScalars.contains(where: { $0.value >= 0x80 && $0.value <= 0xFF }), !text.contains("é") {
                bytes = Data(text.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
            }
            let array = Data("[".utf8) + bytes + Data("]".utf8)
            let full = try? Self.decoder.decode([String].self, from: array)
            let fast = KeystoreRecordReader.read(array) { $0.strings() }
            #expect(full == nil ? fast == nil : fast == full, "\(text)")
        }
    }

    @Test("numbers (scrypt's parameters): only plain non-negative integers; anything else is the decoder's")
    func integersAgree() throws {
        for text in ["0", "1", "32768", "999999999999999", "01", "-1", "1.0", "1e3", "1E3", "+1", "9999999999999999", "", "1x", "0x10"] {
            let array = Data("[\(text)]".utf8)
            let full = try? Self.decoder.decode([Int].self, from: array)
            let fast = KeystoreRecordReader.read(array) { reader in reader.array { $0.integer() } }
            #expect(full == nil ? fast == nil : (fast == nil || fast == full), "\(text)")
        }
    }

    @Test("the hot path's read of each keystore gives the full read's current user")
    func hotPathAgrees() throws {
        for keystore in try Self.keystores() {
            let found = try #require(KeystoreFile.decodeCurrentUser(keystore.data, path: "k").user)
            let full = try Self.decoder.decode(KeystoreFile.self, from: keystore.data)
            #expect(found == full.users.first { $0.uid == full.currentUid }, "\(keystore.name)")
        }
    }

    @Test("Data(utf8:) holds the string's UTF-8, as Data(string.utf8) does")
    func utf8Data() {
        for text in ["", "a", "authctl keystore key check", "é✓😀", String(repeating: "x", count: 100), "a\u{0}b"] {
            #expect(Data(utf8: text) == Data(text.utf8))
        }
    }
}

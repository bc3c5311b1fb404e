import Foundation
import Testing

@testable import AuthCore
@testable import CachedTokenCore

/// The cached-token core's table of the record's keys (`KeystoreRecordKeys`) against
/// `KeystoreRecord`'s keys (its stored properties, which its synthesized CodingKeys are, read
/// from a record decoded from every key of the table) and docs/keystore.schema.json.
@Suite struct KeystoreRecordKeysTests {
    typealias Keys = KeystoreRecordKeys

    /// The tables, by the schema's names for them.
    static let tables: [(schema: String, keys: [Keys.Key])] = [
        ("user", Keys.user), ("identity", Keys.identity), ("profile", Keys.profile), ("tokens", Keys.tokens),
        ("scopedToken", Keys.scopedToken), ("sealing", Keys.sealing), ("resourceGrant", Keys.resourceGrant),
        ("workload", Keys.workload), ("backend", Keys.backend), ("derivedCredential", Keys.derivedCredential),
    ]

    static func names(_ keys: [Keys.Key]) -> Set<String> { Set(keys.map(\.name)) }

    static func labels(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }

    /// The one key of the table the reader leaves to `JSONDecoder`: any JSON (RFC 9396).
    static let leftToDecoder: Set<String> = ["authorizationDetails"]

    /// A JSON object with every key of `keys` (only those the front answers for, or all but
    /// those left to the decoder), each a value of its type; nested objects by their own tables.
    static func sample(_ keys: [Keys.Key], answered: Bool = true) -> String {
        let members = keys.filter { answered ? $0.answered : !leftToDecoder.contains($0.name) }.map { key -> String in
            let value: String
            switch (key.name, key.value) {
            case ("kind", _) where keys == Keys.user: value = "\"person\""
            case ("kind", _) where keys == Keys.derivedCredential: value = "\"token-exchange\""
            case ("keySource", _): value = "\"passphrase\""
            case ("sealed", _): value = "\"c2VhbGVk\""  // base64, as the front reads it
            case ("providerData", _): value = "[" + sample(Keys.identity, answered: answered) + "]"
            case ("resourceGrants", _): value = "[" + sample(Keys.resourceGrant, answered: answered) + "]"
            case ("profile", _): value = sample(Keys.profile, answered: answered)
            case ("tokens", _), ("session", _): value = sample(Keys.tokens, answered: answered)
            case ("workload", _): value = sample(Keys.workload, answered: answered)
            case ("backend", _): value = sample(Keys.backend, answered: answered)
            case ("kdf", _): value = sample(Keys.scrypt, answered: answered)
            case ("additionalTokens", _): value = "{\"openid\":" + sample(Keys.scopedToken, answered: answered) + "}"
            case ("derivedCredentials", _): value = "{\"exchange\":" + sample(Keys.derivedCredential, answered: answered) + "}"
            case ("egress", _): value = "{\"issuer\":\"https://idp.example\",\"origins\":[\"https://api.example:443\"]}"
            case (_, .string): value = "\"text-\(key.name)\""
            case (_, .bool): value = "true"
            case (_, .integer): value = "1024"
            case (_, .date): value = "\"2026-09-21T14:13:20Z\""
            case (_, .strings): value = "[\"openid\",\"\(key.name)\"]"
            case (_, .object), (_, .objects), (_, .objectMap): value = "{\"unknown\":\"" + key.name + "\"}"
            }
            return "\"" + key.name + "\":" + value
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test("the table holds KeystoreRecord's keys: every key of every object the token path reads, and no other")
    func matchesRecord() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let user = try decoder.decode(KeystoreRecord.User.self, from: Data(Self.sample(Keys.user).utf8))
        #expect(Self.labels(user) == Self.names(Keys.user))
        let identity = try #require(user.providerData.first)
        #expect(Self.labels(identity) == Self.names(Keys.identity))
        #expect(Self.labels(identity.profile) == Self.names(Keys.profile))
        let tokens = try #require(identity.tokens)
        #expect(Self.labels(tokens) == Self.names(Keys.tokens))
        #expect(Self.labels(try #require(tokens.additionalTokens?["openid"])) == Self.names(Keys.scopedToken))
        #expect(Self.labels(try #require(tokens.egress)) == Self.names(Keys.egress))
        let grant = try #require(user.resourceGrants?.first)
        #expect(Self.labels(grant) == Self.names(Keys.resourceGrant))
        #expect(grant.tokens != nil)
        let sealing = KeystoreSealing(readCipher: "AES-256-GCM", keySource: .keyFile, wrappedKey: "k", keyCheck: "c")
        #expect(Self.labels(sealing) == Self.names(Keys.sealing))
        // The front's reader takes the same sample (a record of every answered key).
        let read = Array(Self.sample(Keys.user).utf8).withUnsafeBufferPointer { bytes in
            KeystoreRecordReader.read(bytes) { CachedUser.read(&$0) }
        }
        #expect(read?.uid == "text-uid")
    }

    @Test("the table holds docs/keystore.schema.json's keys, with their required ones")
    func matchesSchema() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("docs/keystore.schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        for (name, keys) in Self.tables {
            let definition = try #require(definitions[name] as? [String: Any], "\(name)")
            let properties = Set((definition["properties"] as? [String: Any] ?? [:]).keys)
            let required = Set(definition["required"] as? [String] ?? [])
            #expect(properties == Self.names(keys), "\(name)")
            #expect(required == Set(keys.filter(\.required).map(\.name)), "\(name)")
        }
        // `sealing.kdf`, written inline in the schema.
        let sealing = try #require(definitions["sealing"] as? [String: Any])
        let kdf = try #require((sealing["properties"] as? [String: Any])?["kdf"] as? [String: Any])
        #expect(Set((kdf["properties"] as? [String: Any] ?? [:]).keys) == Self.names(Keys.scrypt))
        #expect(Set(kdf["required"] as? [String] ?? []) == Set(Keys.scrypt.filter(\.required).map(\.name)))
    }
}

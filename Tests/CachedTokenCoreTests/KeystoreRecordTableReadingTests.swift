import Foundation
import Testing

@testable import AuthCore
@testable import CachedTokenCore

/// The full program's record reader (AuthCore's KeystoreRecord+Reading.swift) against the one
/// table of the record's keys (`KeystoreRecordKeys`): a record holding every key of every
/// table is read whole, with `JSONDecoder`'s values — so a key the table has and the reader
/// drops, or reads as another type, or a key the reader takes and the table lacks, fails here.
@Suite struct KeystoreRecordTableReadingTests {
    typealias Keys = KeystoreRecordKeys

    static let decoder = KeystoreFile.decoder

    @Test("a user holding every key of the table is read whole, as JSONDecoder reads it")
    func everyUserKey() throws {
        let data = Data(KeystoreRecordKeysTests.sample(Keys.user, answered: false).utf8)
        let decoded = try Self.decoder.decode(KeystoreRecord.User.self, from: data)
        let read = try #require(KeystoreRecord.User.fastDecoded(data))
        #expect(read == decoded)
        // Every nested object the sample holds was filled in (not dropped as nil).
        let identity = try #require(read.providerData.first)
        #expect(identity.workload != nil && identity.tokens?.derivedCredentials?["exchange"] != nil)
        #expect(read.backend?.session != nil && read.resourceGrants?.first?.tokens?.egress != nil)
        // The objects only the full program reads have their tables too.
        let labels = { (value: Any) in Set(Mirror(reflecting: value).children.compactMap(\.label)) }
        #expect(labels(try #require(identity.workload)) == Set(Keys.workload.map(\.name)))
        #expect(labels(try #require(read.backend)) == Set(Keys.backend.map(\.name)))
        #expect(labels(try #require(identity.tokens?.derivedCredentials?["exchange"])) == Set(Keys.derivedCredential.map(\.name)))
    }

    @Test("a sealing holding every key of the table (and a kdf) is read whole, as JSONDecoder reads it")
    func everySealingKey() throws {
        let data = Data(KeystoreRecordKeysTests.sample(Keys.sealing, answered: false).utf8)
        let decoded = try Self.decoder.decode(KeystoreSealing.self, from: data)
        let read = try #require(KeystoreSealing.fastDecoded(data))
        #expect(read == decoded)
        #expect(read.kdf?.n == 1024 && read.keyFile != nil && read.keyringItem != nil)
        #expect(Set(Mirror(reflecting: try #require(read.kdf)).children.compactMap(\.label)) == Set(Keys.scrypt.map(\.name)))
    }

    @Test("a key outside the table, a key twice, a value of another type or a missing required key: nil, the decoder's to judge")
    func refusals() {
        let profile = KeystoreRecordKeysTests.sample(Keys.profile, answered: false)
        let cases = [
            String(profile.dropLast()) + ",\"nickname\":\"x\"}",
            String(profile.dropLast()) + ",\"email\":\"again@example.com\"}",
            profile.replacingOccurrences(of: "\"emailVerified\":true", with: "\"emailVerified\":\"true\""),
            profile.replacingOccurrences(of: "\"emailVerified\":true,", with: ""),
        ]
        for text in cases {
            let read = KeystoreRecordReader.read(Data(text.utf8)) { KeystoreRecord.Profile.read(&$0) }
            #expect(read == nil, "\(text)")
        }
        // The key left to the decoder: the reader hands the record over.
        let tokens =
            String(KeystoreRecordKeysTests.sample(Keys.tokens, answered: false).dropLast()) + #","authorizationDetails":[{"type":"x"}]}"#
        #expect(KeystoreRecordReader.read(Data(tokens.utf8)) { KeystoreRecord.Tokens.read(&$0) } == nil)
    }
}

import Crypto
import Foundation
import Testing

@testable import AuthCore

/// The key check value's HMAC-SHA256 (`KeyCheckHMAC`, issue 24) is swift-crypto's.
@Suite("The key check value's HMAC-SHA256")
struct KeyCheckHMACTests {
    static func crypto(key: [UInt8], message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    @Test("RFC 4231's test cases 1, 2, 3, 4, 6 and 7")
    func rfc4231() {
        let cases: [([UInt8], [UInt8], String)] = [
            (
                [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
            ),
            (Array(1...25), [UInt8](repeating: 0xcd, count: 50), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
            (
                [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
            (
                [UInt8](repeating: 0xaa, count: 131),
                Array(
                    "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
                        .utf8),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
            ),
        ]
        for (key, message, expected) in cases {
            #expect(KeyCheckHMAC.sha256(key: key, message: message).map { String(format: "%02x", $0) }.joined() == expected)
        }
    }

    @Test("random keys and messages of every length around the block size: the same as HMAC<SHA256>")
    func agreesWithSwiftCrypto() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 31, 32, 55, 56, 57, 63, 64, 65, 119, 120, 128, 200, 1000] {
            for keyLength in [0, 1, 32, 63, 64, 65, 100] {
                let key = (0..<keyLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                #expect(KeyCheckHMAC.sha256(key: key, message: message) == Self.crypto(key: key, message: message))
            }
        }
    }

    @Test("a data key's check value is the first 16 bytes of swift-crypto's HMAC, as sealed keystores hold it")
    func checkValue() {
        for _ in 0..<20 {
            let key = DataKey.random()
            let expected = Data(
                HMAC<SHA256>.authenticationCode(for: Data("authctl keystore key check".utf8), using: key.symmetricKey).prefix(16))
            #expect(key.checkValue == expected)
        }
    }
}

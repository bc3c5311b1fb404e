import Foundation
import Testing

@testable import AuthCore

/// The token hot path's reading of an ID token's `exp` (`IDTokenExpiryReader`, issue 24) gives
/// what the full reading gives (`unverifiedParts(of:)`, JSONDecoder), or leaves it to it.
@Suite("An ID token's expiry, read without JSONDecoder")
struct IDTokenExpiryReaderTests {
    static func full(_ token: String) -> Date? {
        IDTokenClaims.unverifiedParts(of: token).flatMap { IDTokenClaims(raw: $0.payload).expiresAt }
    }

    static func part(_ json: String) -> String { Base64URL.encode(Array(json.utf8)) }

    static func jwt(_ payload: String, header: String = #"{"alg":"RS256","kid":"k1","typ":"JWT"}"#) -> String {
        part(header) + "." + part(payload) + ".c2lnbmF0dXJl"
    }

    static let payloads = [
        #"{"iss":"https://idp.example","sub":"1","aud":"x","exp":1790000000,"iat":1789996400}"#,
        #"{"exp":1790000000}"#, #"{"exp":0}"#, #"{"exp":-5}"#, #"{"exp":1.5}"#, #"{"exp":1e9}"#, #"{"exp":"1790000000"}"#,
        #"{"exp":null}"#, #"{"exp":true}"#, #"{"exp":[1]}"#, #"{"exp":{"a":1}}"#, #"{"sub":"no exp"}"#, #"{}"#,
        #"{"exp":1790000000,"exp":1}"#, #"{"exp":01}"#, #"{"exp":1790000000,}"#, #"{"exp":1790000000} x"#, #"[1,2]"#, #""s""#,
        #"{"exp" : 1790000000 , "nested" : {"a":[1,2.5,-3,true,false,null,"\u00e9\n"],"b":{}} , "name":"Zoë ✓ \"q\""}"#,
        #"{"exp":1790000000,"big":123456789012345678901234567890}"#, #"{"exp":1790000000,"e":1E+2}"#,
        #"{"exp":1790000000,"bad":"\x"}"#, #"{"exp":1790000000,"s":"\ud83d"}"#, #"{"e\u0078p":1790000000}"#,
        #"{"exp":999999999999999}"#, #"{"exp":9999999999999999}"#,
        #"{"exp":1790000000,"deep":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
        "{\"exp\":1790000000,\"raw\":\"tab\there\"}", "{\"exp\":1790000000}\n", " {\"exp\":1790000000} ",
    ]

    @Test("JWTs with every kind of payload: the same expiry as the full reading, or left to it")
    func agrees() {
        var answered = 0
        for payload in Self.payloads {
            for header in [#"{"alg":"RS256"}"#, #"{"alg":"RS256","x":[1,{"y":null}]}"#, #"[]"#, #"{"alg":"RS256","alg":"none"}"#, "nope"] {
                let token = Self.jwt(payload, header: header)
                let expected = Self.full(token)
                if let fast = IDTokenExpiryReader.expiry(of: token) {
                    #expect(fast == expected, "\(header) \(payload)")
                    answered += 1
                }
                #expect(IDTokenClaims.unverifiedExpiry(of: token) == expected, "\(header) \(payload)")
            }
        }
        #expect(answered >= 20)
        // The common case is answered.
        #expect(IDTokenExpiryReader.expiry(of: Self.jwt(Self.payloads[0])) == .some(Date(timeIntervalSince1970: 1_790_000_000)))
    }

    @Test("not a JWT, odd base64, damaged copies: the same as the full reading")
    func oddTokens() {
        let good = Self.jwt(Self.payloads[0])
        var tokens = [
            "", ".", "..", "a.b", "a.b.c.d", "ey.ey.ey", "not a token", good + ".", "." + good,
            good.replacingOccurrences(of: ".", with: ".."),
            Self.part(#"{"alg":"RS256"}"#) + "=." + Self.part(#"{"exp":1}"#) + ".s", "A." + Self.part(#"{"exp":1}"#) + ".s",
            Self.part(#"{"alg":"RS256"}"#) + ".eyJleHAiOjF9A.s", "ey" + String(repeating: "x", count: 900),
        ]
        let standard = Data(#"{"exp":1790000000,"a":"??>"}"#.utf8).base64EncodedString()  // + and / as base64 has them
        tokens.append(Self.part(#"{"alg":"RS256"}"#) + "." + standard.replacingOccurrences(of: "=", with: "") + ".s")
        var generator = SystemRandomNumberGenerator()
        let bytes = Array(good.utf8)
        for _ in 0..<400 {
            var copy = bytes
            let at = Int.random(in: 0..<copy.count, using: &generator)
            copy[at] =
                [UInt8(ascii: "A"), UInt8(ascii: "."), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "_"), 0x20, 0xC3].randomElement(
                    using: &generator) ?? 0
            tokens.append(String(decoding: copy, as: UTF8.self))
        }
        for token in tokens {
            let expected = Self.full(token)
            if let fast = IDTokenExpiryReader.expiry(of: token) { #expect(fast == expected, "\(token)") }
            #expect(IDTokenClaims.unverifiedExpiry(of: token) == expected, "\(token)")
        }
    }
}

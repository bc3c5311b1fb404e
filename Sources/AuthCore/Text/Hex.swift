/// Hexadecimal digits, without `String(format:)` (not in FoundationEssentials).
package enum Hex {
    private static let upper = Array("0123456789ABCDEF".utf8), lower = Array("0123456789abcdef".utf8)

    /// Two lower-case digits per byte (`%02x` each).
    package static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        var digits: [UInt8] = []
        for byte in bytes {
            digits.append(lower[Int(byte >> 4)])
            digits.append(lower[Int(byte & 0x0F)])
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// The upper-case ASCII digit of `nibble` (0–15).
    static func upperDigit(_ nibble: UInt8) -> UInt8 { upper[Int(nibble & 0x0F)] }

    /// The value of one ASCII hex digit, either case; nil for anything else.
    static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

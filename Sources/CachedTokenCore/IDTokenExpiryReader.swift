/// `exp` of an ID token (seconds since 1970) as `token --id-token` and `--format kubectl-exec` read it on the hot
/// path, without `JSONDecoder` (issue 24): `IDTokenClaims.unverifiedExpiry` asks this first.
/// It answers only when it is sure to give what the full reading gives —
/// `unverifiedParts(of:)` (three parts, base64url, a JSON object in the header and in the
/// payload) and then the payload's `exp` as a number — and nil otherwise (then the full
/// reading decides): any number but a plain integer or decimal, a repeated key, a nesting
/// deeper than 32, a base64 length or trailing bits the decoder may read otherwise.
/// IDTokenExpiryReaderTests holds it to the full reading on many tokens and damaged ones.
public enum IDTokenExpiryReader {
    /// `.some(expiry)` (the expiry nil when the token has none, or is not a readable JWT), or
    /// nil when the full reading must decide.
    public static func expirySeconds(of token: String) -> Double?? {
        var token = token
        return token.withUTF8 { bytes -> Double?? in
            guard bytes.count <= 65536 else { return nil }
            var dots: [Int] = []
            for index in bytes.indices where bytes[index] == UInt8(ascii: ".") {
                dots.append(index)
                if dots.count > 2 { return .some(nil) }  // not three parts
            }
            guard dots.count == 2 else { return .some(nil) }
            let headerBytes = UnsafeBufferPointer(rebasing: bytes[..<dots[0]])
            let payloadBytes = UnsafeBufferPointer(rebasing: bytes[(dots[0] + 1)..<dots[1]])
            guard case .decoded(let header) = base64URL(headerBytes) else { return base64Failure(headerBytes) }
            guard case .decoded(let payload) = base64URL(payloadBytes) else { return base64Failure(payloadBytes) }
            // The header must be a JSON object; its members do not matter.
            let headerRead = header.withUnsafeBufferPointer { buffer -> Bool? in
                var reader = KeystoreRecordReader(buffer)
                guard reader.objectOfAnyValues(depth: 0), reader.atEnd() else { return nil }
                return true
            }
            guard headerRead != nil else { return nil }
            return payload.withUnsafeBufferPointer { buffer -> Double?? in
                var reader = KeystoreRecordReader(buffer)
                var expiry: Double?
                var seen: [String] = []
                let read = reader.object { reader, key in
                    guard !seen.contains(key), seen.count < KeystoreRecordReader.maximumCount else { return false }
                    seen.append(key)
                    guard key == "exp" else { return reader.anyValue(depth: 1) }
                    // `exp` as a number (a plain integer of up to 15 digits: a Double exactly);
                    // a string, true, false or null is no expiry; anything else: the full reading.
                    if let seconds = reader.plainInteger() {
                        expiry = Double(seconds)
                        return true
                    }
                    let start = reader.position
                    guard reader.anyValue(depth: 1),
                        let first = reader.bytes[start...].first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }),
                        first == UInt8(ascii: "\"") || first == UInt8(ascii: "t") || first == UInt8(ascii: "f")
                            || first == UInt8(ascii: "n")
                    else { return false }
                    return true
                }
                guard read, reader.atEnd() else { return nil }
                return .some(expiry)
            }
        }
    }

    enum Base64Result {
        case decoded([UInt8])
        /// A character that is not base64's (nor base64url's), or `=`: the full reading refuses it.
        case invalid
        /// A length or trailing bits the full reading may read otherwise.
        case unsure
    }

    /// The bytes of base64url text (`+` and `/` too, as `Base64URL.decode` takes them).
    static func base64URL(_ text: UnsafeBufferPointer<UInt8>) -> Base64Result {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"), UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "_"), UInt8(ascii: "/"): value = 63
            default: return .invalid
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // A lone last character (length 1 modulo 4), or bits left over that are not zero.
        guard text.count % 4 != 1, accumulator == 0 else { return .unsure }
        return .decoded(out)
    }

    /// What an undecodable part means: certainly no expiry when a character is not base64's;
    /// the full reading's to say otherwise.
    static func base64Failure(_ text: UnsafeBufferPointer<UInt8>) -> Double?? {
        if case .invalid = base64URL(text) { return .some(nil) }
        return nil
    }
}

extension KeystoreRecordReader {
    /// Any JSON value, checked, and not kept: strings (escapes checked), `true`, `false`,
    /// `null`, numbers of the plain form (`-`, digits, a fraction; no exponent, at most 17
    /// significant digits), arrays and objects (no key twice) up to 32 deep.
    public mutating func anyValue(depth: Int) -> Bool {
        guard depth <= 32 else { return false }
        skipSpace()
        guard position < bytes.count else { return false }
        switch bytes[position] {
        case Self.quote: return string() != nil
        case Self.openBrace: return objectOfAnyValues(depth: depth)
        case Self.openBracket:
            position += 1
            if take(Self.closeBracket) { return true }
            var count = 0
            while true {
                count += 1
                guard count <= Self.maximumCount, anyValue(depth: depth + 1) else { return false }
                if take(Self.comma) { continue }
                return take(Self.closeBracket)
            }
        case UInt8(ascii: "t"): return takeWord("true")
        case UInt8(ascii: "f"): return takeWord("false")
        case UInt8(ascii: "n"): return takeWord("null")
        default: return plainNumber()
        }
    }

    /// An object whose members are any values (no key twice).
    public mutating func objectOfAnyValues(depth: Int) -> Bool {
        var seen: [String] = []
        return object { reader, key in
            guard !seen.contains(key) else { return false }
            seen.append(key)
            return reader.anyValue(depth: depth + 1)
        }
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?` of at most 17 digits, then a delimiter.
    public mutating func plainNumber() -> Bool {
        skipSpace()
        var index = position
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        var digits = 0
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            index += 1
            digits += 1
        }
        guard digits > 0, !(digits > 1 && bytes[digitsStart] == 0x30) else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var fraction = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                index += 1
                fraction += 1
            }
            guard fraction > 0 else { return false }
            digits += fraction
        }
        guard digits <= 17 else { return false }
        if index < bytes.count {
            switch bytes[index] {
            case Self.comma, Self.closeBrace, Self.closeBracket, 0x20, 0x0A, 0x0D, 0x09: break
            default: return false
            }
        }
        position = index
        return true
    }

    /// A non-negative integer of at most 15 digits (no sign, fraction or exponent) followed
    /// by a delimiter; nil (the position unchanged) for anything else.
    public mutating func plainInteger() -> Int? {
        let start = position
        skipSpace()
        let afterSpace = position
        guard let value = integer(), position > afterSpace else {
            position = start
            return nil
        }
        if position < bytes.count {
            switch bytes[position] {
            case Self.comma, Self.closeBrace, Self.closeBracket, 0x20, 0x0A, 0x0D, 0x09: break
            default:
                position = start
                return nil
            }
        }
        return value
    }
}

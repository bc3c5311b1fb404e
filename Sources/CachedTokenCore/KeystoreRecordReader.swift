/// The token hot path's decoder (issue 24): reads the records it needs — the current user
/// (`KeystoreRecord.User`), a sealed file's `sealing` and a sealed token's secrets — straight
/// from the bytes `KeystoreScan` found, with no `Codable`, no `JSONDecoder`, no dynamic cast
/// and no generic metadata instantiated at run time (which cost the token path about 60 % of
/// its instructions: bench/README.md).
///
/// It is strict: it takes the JSON authctl writes and nothing else. Whatever it does not
/// expect — an unknown or repeated key, `null`, an escape JSON does not have, a number with a
/// sign, a fraction or more than 15 digits, a date not of the form `YYYY-MM-DDTHH:MM:SSZ`,
/// invalid UTF-8, bytes after the value, a string or array longer than the bounds below —
/// gives nil, and the caller decodes the same bytes with `JSONDecoder` (which then accepts or
/// explains). So a value read here is the value `JSONDecoder` would give
/// (KeystoreRecordReaderTests holds it to that on every keystore the tests know, and on
/// damaged copies of them), and what `JSONDecoder` refuses is never accepted here.
///
/// Every read is bounded by the buffer; nothing traps on hostile input (no force unwrap, no
/// trapping conversion: every integer is checked before it is used).
public struct KeystoreRecordReader {
    public let bytes: UnsafeBufferPointer<UInt8>
    public var position = 0

    /// The most a string may hold (a token is a few KB; a keystore record is read whole).
    public static let maximumString = 1 << 20
    /// The most elements an array or members a map may hold.
    public static let maximumCount = 4096

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// `read` over `bytes`; nil unless it reads one whole value and nothing follows.
    public static func read<T>(_ bytes: UnsafeBufferPointer<UInt8>, _ read: (inout KeystoreRecordReader) -> T?) -> T? {
        var reader = KeystoreRecordReader(bytes)
        guard let value = read(&reader), reader.atEnd() else { return nil }
        return value
    }

    /// Stores `value` in `target`; false when there is none.
    public func set<T>(_ target: inout T?, _ value: T?) -> Bool {
        guard let value else { return false }
        target = value
        return true
    }

    // MARK: - Bytes

    public static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
    public static let comma = UInt8(ascii: ","), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    public static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")

    public mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// After whitespace, whether the next byte is `byte` (then consumed).
    public mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    public mutating func atEnd() -> Bool {
        skipSpace()
        return position == bytes.count
    }

    /// The literal `word` (`true`, `false`), which must not run on into other letters.
    public mutating func takeWord(_ word: StaticString) -> Bool {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let start = word.utf8Start
        for index in 0..<count where bytes[position + index] != start[index] { return false }
        let end = position + count
        if end < bytes.count {
            let after = bytes[end]
            guard
                after == Self.comma || after == Self.closeBrace || after == Self.closeBracket || after == 0x20 || after == 0x0A
                    || after == 0x0D || after == 0x09
            else { return false }
        }
        position = end
        return true
    }

    // MARK: - Values

    public mutating func bool() -> Bool? {
        if takeWord("true") { return true }
        if takeWord("false") { return false }
        return nil
    }

    /// A non-negative integer of at most 15 digits, without a leading zero (but `0` itself).
    public mutating func integer() -> Int? {
        skipSpace()
        var value = 0
        var digits = 0
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            guard digits < 15 else { return nil }
            if digits == 1, value == 0 { return nil }  // a leading zero
            value = value * 10 + Int(bytes[position] &- 0x30)
            digits += 1
            position += 1
        }
        guard digits > 0, position < bytes.count else { return digits > 0 ? value : nil }
        // Not a number of this kind (a fraction, an exponent): the decoder decides.
        switch bytes[position] {
        case 0x2E, 0x65, 0x45: return nil
        default: return value
        }
    }

    /// A JSON string: escapes decoded, UTF-8 checked; nil for anything the decoder might
    /// read differently or refuse.
    public mutating func string() -> String? {
        guard let (raw, plain, ascii) = stringBytes() else { return nil }
        guard plain else { return Self.unescaped(raw) }
        return Self.text(raw, ascii: ascii)
    }

    /// A JSON string checked as `string()` checks it, without making it (what is never used:
    /// a refresh token is not kept in the front's memory at all).
    public mutating func checksString() -> Bool {
        guard let (raw, plain, ascii) = stringBytes() else { return false }
        if plain && ascii { return true }
        return (plain ? Self.text(raw, ascii: ascii) : Self.unescaped(raw)) != nil
    }

    /// A JSON string's bytes between its quotes (escapes not yet decoded), whether it has an
    /// escape (`plain` when none) and whether it is all ASCII.
    mutating func stringBytes() -> (UnsafeBufferPointer<UInt8>, plain: Bool, ascii: Bool)? {
        guard take(Self.quote) else { return nil }
        let start = position
        var plain = true
        var ascii = true
        var nextSkip = position  // where sixteen bytes at a time may be tried again
        while true {
            if position >= nextSkip {
                skipPlainASCII(limit: start + Self.maximumString)
                nextSkip = position + 16
            }
            guard position < bytes.count, position - start <= Self.maximumString else { return nil }
            let byte = bytes[position]
            if byte == Self.quote { break }
            if byte < 0x20 { return nil }
            if byte == Self.backslash {
                plain = false
                position += 2  // the escaped byte cannot end the string
                continue
            }
            if byte >= 0x80 { ascii = false }
            position += 1
        }
        let end = position
        position += 1
        return (UnsafeBufferPointer(rebasing: bytes[start..<end]), plain, ascii)
    }

    /// Steps over sixteen bytes at a time while none of them ends or escapes the string or
    /// needs a closer look (a quote, a backslash, a control character, a byte beyond ASCII):
    /// a token is most of a record, and byte by byte it was a quarter of `token`'s instructions.
    /// Stops before `limit` (the string's bound), where the byte loop takes over.
    mutating func skipPlainASCII(limit: Int) {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        let end = min(bytes.count, limit)
        let quotes = SIMD16<UInt8>(repeating: Self.quote), backslashes = SIMD16<UInt8>(repeating: Self.backslash)
        let space = SIMD16<UInt8>(repeating: 0x20), high = SIMD16<UInt8>(repeating: 0x80)
        while position + 16 <= end {
            let chunk = raw.loadUnaligned(fromByteOffset: position, as: SIMD16<UInt8>.self)
            guard !any((chunk .== quotes) .| (chunk .== backslashes) .| (chunk .< space) .| (chunk .>= high)) else { return }
            position += 16
        }
    }

    /// The bytes as a String when they are valid UTF-8.
    public static func text(_ raw: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String? {
        let text = String(decoding: raw, as: UTF8.self)
        if ascii { return text }
        // Invalid UTF-8 was repaired (U+FFFD): the bytes differ, and the decoder refuses them.
        var utf8 = text.utf8.makeIterator()
        for byte in raw {
            guard utf8.next() == byte else { return nil }
        }
        return utf8.next() == nil ? text : nil
    }

    /// A string with escapes: `\" \\ \/ \b \f \n \r \t \uXXXX` (a surrogate pair as one).
    public static func unescaped(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var ascii = true
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == backslash else {
                if byte >= 0x80 { ascii = false }
                out.append(byte)
                index += 1
                continue
            }
            guard index + 1 < raw.count else { return nil }
            let escaped = raw[index + 1]
            index += 2
            switch escaped {
            case quote, backslash, UInt8(ascii: "/"): out.append(escaped)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(raw, at: index) else { return nil }
                index += 4
                if scalar >= 0xD800, scalar <= 0xDBFF {
                    // A high surrogate: a low one must follow.
                    guard index + 6 <= raw.count, raw[index] == backslash, raw[index + 1] == UInt8(ascii: "u"),
                        let low = hex4(raw, at: index + 2), low >= 0xDC00, low <= 0xDFFF
                    else { return nil }
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00, scalar <= 0xDFFF {
                    return nil
                }
                if scalar >= 0x80 { ascii = false }
                appendUTF8(scalar, to: &out)
            default: return nil
            }
        }
        return out.withUnsafeBufferPointer { text($0, ascii: ascii) }
    }

    /// `scalar` (not a surrogate, at most U+10FFFF) in UTF-8.
    public static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
            out.append(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        }
    }

    public static func hex4(_ raw: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        guard index >= 0, index + 4 <= raw.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = raw[index + offset]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            case 0x41...0x46: digit = byte - 0x41 + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// A date as `JSONEncoder`'s `.iso8601` writes it, in seconds since 1970: `YYYY-MM-DDTHH:MM:SSZ`, a real day
    /// and time of the years 1900–9999 (anything else: the decoder decides).
    public mutating func seconds() -> Double? {
        guard take(Self.quote), bytes.count - position >= 21 else { return nil }
        let raw = UnsafeBufferPointer(rebasing: bytes[position..<(position + 21)])
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for index in from..<(from + count) {
                guard raw[index] >= 0x30, raw[index] <= 0x39 else { return nil }
                value = value * 10 + Int(raw[index] &- 0x30)
            }
            return value
        }
        guard raw[4] == UInt8(ascii: "-"), raw[7] == UInt8(ascii: "-"), raw[10] == UInt8(ascii: "T"), raw[13] == Self.colon,
            raw[16] == Self.colon, raw[19] == UInt8(ascii: "Z"), raw[20] == Self.quote,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2),
            (1900...9999).contains(year), (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= lengths[month - 1] else { return nil }
        position += 21
        // Days since 1970-01-01 (Howard Hinnant's days_from_civil; the year is positive here).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146097 + dayOfEra - 719468
        return Double(days * 86400 + hour * 3600 + minute * 60 + second)
    }

    /// `[ "…", … ]`.
    public mutating func strings() -> [String]? {
        guard take(Self.openBracket) else { return nil }
        var values: [String] = []
        if take(Self.closeBracket) { return values }
        while true {
            guard values.count < Self.maximumCount, let value = string() else { return nil }
            values.append(value)
            if take(Self.comma) { continue }
            return take(Self.closeBracket) ? values : nil
        }
    }

    /// Calls `member` for each key of the object (unescaped, as the decoder matches keys),
    /// which must read its value; false when the object is malformed or `member` says so.
    public mutating func object(_ member: (inout KeystoreRecordReader, String) -> Bool) -> Bool {
        guard take(Self.openBrace) else { return false }
        if take(Self.closeBrace) { return true }
        var count = 0
        while true {
            count += 1
            guard count <= Self.maximumCount, let key = string(), take(Self.colon), member(&self, key) else { return false }
            if take(Self.comma) { continue }
            return take(Self.closeBrace)
        }
    }
}

/// The keys an object has had, to refuse a repeated one (the decoder's choice between two
/// values is not this reader's to guess).
public struct SeenKeys {
    public init() {}

    private var bits: UInt64 = 0

    /// Whether key `index` is new (then noted).
    public mutating func first(_ index: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(index & 63)
        guard bits & bit == 0 else { return false }
        bits |= bit
        return true
    }

    public func has(_ index: Int) -> Bool { bits & (1 << UInt64(index & 63)) != 0 }
}

// MARK: - The records

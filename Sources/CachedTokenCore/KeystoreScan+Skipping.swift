// The scan's skipping of values it does not need (KeystoreScan.swift): strings quote to
// quote, containers by depth, whitespace window by window.

extension KeystoreScan.Scanner {
    /// Skips one JSON value of any kind; false on anything malformed.
    mutating func skipValue() -> Bool {
        skipWhitespace()
        guard let first = peek() else { return false }
        switch first {
        case Self.quote: return skipString()
        case Self.openBrace, Self.openBracket: return skipContainer()
        default:
            let start = position
            while let byte = peek(), !Self.isDelimiter(byte) { position += 1 }
            return position > start
        }
    }

    /// Jumps from quote to quote (`firstQuote`: tokens make up most of a keystore); a quote
    /// after an odd number of backslashes is escaped and does not end the string. The run
    /// of backslashes before a quote may begin in an earlier window: `carried` counts it.
    mutating func skipString() -> Bool {
        position += 1
        var carried = 0
        while true {
            let bytes = available()
            guard !bytes.isEmpty else { return false }
            let found: Int?
            if let quoteSearch { found = quoteSearch(bytes) } else { found = Self.firstQuote(in: bytes) }
            guard let quoteAt = found else {
                // No quote here: note the backslashes this window ends with, and read on.
                var trailing = 0
                while trailing < bytes.count, bytes[bytes.count - 1 - trailing] == Self.backslash { trailing += 1 }
                carried = trailing == bytes.count ? carried + trailing : trailing
                position += bytes.count
                continue
            }
            var backslashes = 0
            while quoteAt - backslashes - 1 >= 0, bytes[quoteAt - backslashes - 1] == Self.backslash { backslashes += 1 }
            if backslashes == quoteAt { backslashes += carried }
            position += quoteAt + 1
            if backslashes % 2 == 0 { return true }
            carried = 0
        }
    }

    /// An object or array, by depth; strings are skipped whole so their brackets do not count.
    mutating func skipContainer() -> Bool {
        var depth = 0
        while true {
            let bytes = available()
            guard !bytes.isEmpty else { return false }
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == Self.quote {
                    position += index
                    guard skipString() else { return false }
                    break
                }
                if byte == Self.openBrace || byte == Self.openBracket {
                    depth += 1
                } else if byte == Self.closeBrace || byte == Self.closeBracket {
                    depth -= 1
                    if depth == 0 {
                        position += index + 1
                        return true
                    }
                }
                index += 1
            }
            if index == bytes.count { position += bytes.count }
        }
    }

    static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == comma || byte == closeBrace || byte == closeBracket || byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Runs of indentation are most of what lies between strings: skipped window by window.
    mutating func skipWhitespace() {
        while true {
            let bytes = available()
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default:
                    position += index
                    return
                }
            }
            position += index
            if bytes.isEmpty { return }
        }
    }

    /// The index of the first quote, sixteen bytes a step while none is among them (what
    /// `memchr` did, in the standard library alone), then byte by byte.
    static func firstQuote(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let quotes = SIMD16<UInt8>(repeating: quote)
        var index = 0
        while index + 16 <= bytes.count, !any(raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self) .== quotes) {
            index += 16
        }
        while index < bytes.count {
            if bytes[index] == quote { return index }
            index += 1
        }
        return nil
    }
}

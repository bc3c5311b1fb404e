#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the current user's record in a keystore file without decoding the others: a
/// byte-level pass that skips every value it does not need (strings, numbers, nested
/// objects and arrays) and allocates nothing for them. The hot path of `authctl token`
/// then decodes just that record.
///
/// It understands only what it must: a top-level object with `version` (an integer),
/// `currentUid` (a string without escapes) and `users` (an array of objects, each with a
/// `uid` string). Anything else — a syntax error, an escape in a key or in a uid, a value
/// of an unexpected type — makes it return nil, and the caller decodes the whole file with
/// `JSONDecoder`, which reports the problem. So it never accepts a file the full decoder
/// would refuse for the parts it reads, and never needs its own error messages.
enum KeystoreScan {
    struct Found: Equatable {
        var version: Int
        var currentUID: String?
        /// The byte range of the current user's object in `users`, nil when no user has that uid.
        var user: Range<Int>?
    }

    static func currentUser(in data: Data) -> Found? {
        data.withUnsafeBytes { bytes in
            var scanner = Scanner(bytes: bytes.bindMemory(to: UInt8.self))
            return scanner.keystore()
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
        static let comma = UInt8(ascii: ","), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
        static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")

        mutating func keystore() -> Found? {
            var version: Int?
            var currentUID: String?
            var users: Range<Int>?
            guard
                objectMembers({ scanner, key in
                    switch key {
                    case "version":
                        version = scanner.integer()
                        return version != nil
                    case "currentUid":
                        currentUID = scanner.plainString()
                        return currentUID != nil
                    case "users":
                        let start = scanner.position
                        guard scanner.peek() == Self.openBracket, scanner.skipValue() else { return false }
                        users = start..<scanner.position
                        return true
                    default: return scanner.skipValue()
                    }
                })
            else { return nil }
            skipWhitespace()
            guard position == bytes.count, let version, let users else { return nil }
            guard let currentUID else { return Found(version: version, currentUID: nil, user: nil) }
            position = users.lowerBound
            return findUser(currentUID).map { Found(version: version, currentUID: currentUID, user: $0) }
        }

        /// In the `users` array: the range of the object whose `uid` is `uid`; `.some(nil)`
        /// when none is; nil when the array is not what it should be.
        mutating func findUser(_ uid: String) -> Range<Int>?? {
            guard next() == Self.openBracket else { return nil }
            skipWhitespace()
            if peek() == Self.closeBracket { return .some(nil) }
            while true {
                skipWhitespace()
                let start = position
                var found: String?
                guard peek() == Self.openBrace,
                    objectMembers({ scanner, key in
                        if key == "uid" {
                            found = scanner.plainString()
                            return found != nil
                        }
                        return scanner.skipValue()
                    })
                else { return nil }
                if found == uid { return .some(start..<position) }
                skipWhitespace()
                switch next() {
                case Self.comma: continue
                case Self.closeBracket: return .some(nil)
                default: return nil
                }
            }
        }

        /// Calls `member` for each key of the object at the position, which must read the value.
        mutating func objectMembers(_ member: (inout Scanner, String) -> Bool) -> Bool {
            skipWhitespace()
            guard next() == Self.openBrace else { return false }
            skipWhitespace()
            if peek() == Self.closeBrace {
                position += 1
                return true
            }
            while true {
                skipWhitespace()
                guard let key = plainString() else { return false }
                skipWhitespace()
                guard next() == Self.colon else { return false }
                skipWhitespace()
                guard member(&self, key) else { return false }
                skipWhitespace()
                switch next() {
                case Self.comma: continue
                case Self.closeBrace: return true
                default: return false
                }
            }
        }

        /// A string without escapes (keys, uids); nil for anything else.
        mutating func plainString() -> String? {
            guard next() == Self.quote else { return nil }
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == Self.backslash || byte < 0x20 { return nil }
                if byte == Self.quote {
                    defer { position += 1 }
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                }
                position += 1
            }
            return nil
        }

        mutating func integer() -> Int? {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            guard position > start, position - start < 10 else { return nil }
            return Int(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
        }

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

        /// Jumps from quote to quote with `memchr` (tokens make up most of a keystore); a quote
        /// after an odd number of backslashes is escaped and does not end the string.
        mutating func skipString() -> Bool {
            guard let base = bytes.baseAddress else { return false }
            position += 1
            while position < bytes.count {
                guard let hit = memchr(base + position, Int32(Self.quote), bytes.count - position) else { return false }
                let quoteAt = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                var backslashes = 0
                while quoteAt - backslashes - 1 >= position, bytes[quoteAt - backslashes - 1] == Self.backslash { backslashes += 1 }
                position = quoteAt + 1
                if backslashes % 2 == 0 { return true }
            }
            return false
        }

        /// An object or array, by depth; strings are skipped whole so their brackets do not count.
        mutating func skipContainer() -> Bool {
            guard let base = bytes.baseAddress else { return false }
            var depth = 0
            var index = position
            while index < bytes.count {
                let byte = base[index]
                if byte == Self.quote {
                    position = index
                    guard skipString() else { return false }
                    index = position
                    continue
                }
                if byte == Self.openBrace || byte == Self.openBracket {
                    depth += 1
                } else if byte == Self.closeBrace || byte == Self.closeBracket {
                    depth -= 1
                    if depth == 0 {
                        position = index + 1
                        return true
                    }
                }
                index += 1
            }
            return false
        }

        static func isDelimiter(_ byte: UInt8) -> Bool {
            byte == comma || byte == closeBrace || byte == closeBracket || byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func next() -> UInt8? {
            defer { position += 1 }
            return peek()
        }
    }
}

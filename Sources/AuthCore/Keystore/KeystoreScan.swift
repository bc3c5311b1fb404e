#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(FrontLibc)
    // The token front (Sources/authctl-front, Embedded Swift: no Glibc module) compiles this file too.
    import FrontLibc
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
///
/// It reads either bytes in memory or an open file through a small window (`pread`, 64 KiB
/// by default), so that a keystore of a thousand users is never held in memory whole: only
/// the current user's record is read out and decoded (bench/README.md, peak memory).
///
/// It stops at the current user's record: authctl writes that record first (`KeystoreFile`)
/// and `version` last (sorted keys), which it then reads from the file's last bytes. So the
/// other users' records are not read at all — a damage among them is found by the next
/// command that reads the whole file (every write does) — and `token` costs the same with a
/// thousand users as with one. A file whose end is not `"version" : N }` is scanned whole.
enum KeystoreScan {
    struct Found: Equatable {
        var version: Int
        var currentUID: String?
        /// The byte range of the current user's object in `users`, nil when no user has that uid.
        var user: Range<Int>?
        /// The byte range of the top-level `sealing` object (a sealed keystore), nil when absent.
        var sealing: Range<Int>? = nil
    }

    static func currentUser(in data: Data) -> Found? {
        data.withUnsafeBytes { bytes in
            var scanner = Scanner(source: .memory(bytes.bindMemory(to: UInt8.self)))
            return scanner.keystore()
        }
    }

    /// The same scan over the file open at `fd`, from its start to its end, read `window`
    /// bytes at a time with `pread` (the descriptor's offset is left where it was). Nil also
    /// when a read fails.
    /// `uid`: the user whose record to find instead of the current user's (a rule's user,
    /// docs/identities.md); `Found.user` is then that record's range.
    static func currentUser(inFile fd: Int32, window: Int = 65536, uid: String? = nil) -> Found? {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(window, 1))
        defer { buffer.deallocate() }
        var scanner = Scanner(source: .file(fd, buffer))
        scanner.wanted = uid
        return scanner.keystore()
    }

    /// Where the bytes come from: all at hand, or a file read into a window.
    private enum Source {
        case memory(UnsafeBufferPointer<UInt8>)
        case file(Int32, UnsafeMutableBufferPointer<UInt8>)
    }

    private struct Scanner {
        let source: Source
        /// Set when the scan stopped at the current user's record (the rest is not read).
        var stoppedAt: Range<Int>?
        /// The bytes at hand, from offset `windowStart` of the whole.
        var window: UnsafeBufferPointer<UInt8>
        var windowStart = 0
        /// A read failed: the scan gives up.
        var failed = false
        /// The uid whose record is looked for; nil: the current user's.
        var wanted: String?
        var position = 0

        init(source: Source) {
            self.source = source
            switch source {
            case .memory(let bytes): window = bytes
            case .file: window = UnsafeBufferPointer(start: nil, count: 0)
            }
        }

        static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
        static let comma = UInt8(ascii: ","), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
        static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")

        /// The bytes at hand from `position` on (reading the file there when they are not);
        /// empty at the end, or after a failed read.
        mutating func available() -> UnsafeBufferPointer<UInt8> {
            let offset = position - windowStart
            if offset >= 0, offset < window.count { return UnsafeBufferPointer(rebasing: window[offset...]) }
            guard case .file(let fd, let buffer) = source, !failed, let base = buffer.baseAddress else {
                return UnsafeBufferPointer(start: nil, count: 0)
            }
            while true {
                let count = pread(fd, base, buffer.count, off_t(position))
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else {
                    failed = true
                    return UnsafeBufferPointer(start: nil, count: 0)
                }
                windowStart = position
                window = UnsafeBufferPointer(rebasing: buffer[..<count])
                return window
            }
        }

        mutating func keystore() -> Found? {
            var version: Int?
            var currentUID: String?
            var users: Range<Int>?
            var sealing: Range<Int>?
            /// The current user's record, when `currentUid` came before `users` (as authctl
            /// writes it: sorted keys) and the array was searched in the same pass.
            var user: Range<Int>??
            guard
                objectMembers({ scanner, key in
                    switch key {
                    case "version":
                        version = scanner.integer()
                        return version != nil
                    case "currentUid":
                        currentUID = scanner.plainString()
                        return currentUID != nil
                    case "sealing":
                        let start = scanner.position
                        guard scanner.peek() == Self.openBrace, scanner.skipValue() else { return false }
                        sealing = start..<scanner.position
                        return true
                    case "users":
                        let start = scanner.position
                        guard scanner.peek() == Self.openBracket else { return false }
                        if let target = scanner.wanted ?? currentUID {
                            guard let found = scanner.findUser(target, stoppingThere: true) else { return false }
                            if let found, scanner.stoppedAt != nil {
                                user = .some(found)
                                return false  // stop here: the rest of the file is not read
                            }
                            user = .some(found)
                        } else {
                            guard scanner.skipValue() else { return false }
                        }
                        users = start..<scanner.position
                        return true
                    default: return scanner.skipValue()
                    }
                })
            else {
                // Stopped at the current user's record: `version` is the file's last member.
                guard let found = stoppedAt, !failed, currentUID != nil || wanted != nil, let version = version ?? tailVersion(),
                    version == 1 || sealing != nil  // a sealed file's `sealing` comes before `users`
                else {
                    if stoppedAt != nil { return restarted() }
                    return nil
                }
                return Found(version: version, currentUID: currentUID, user: found, sealing: sealing)
            }
            skipWhitespace()
            guard peek() == nil, !failed, let version, let users else { return nil }
            guard let target = wanted ?? currentUID else { return Found(version: version, currentUID: nil, user: nil, sealing: sealing) }
            if let user { return Found(version: version, currentUID: currentUID, user: user, sealing: sealing) }
            position = users.lowerBound
            guard let found = findUser(target), !failed else { return nil }
            return Found(version: version, currentUID: currentUID, user: found, sealing: sealing)
        }

        /// The same scan from the start, reading the whole file (the end of the file was not
        /// what authctl writes, so `version` must be found where it is).
        mutating func restarted() -> Found? {
            var again = Scanner(source: source)
            again.stopAtUser = false
            again.wanted = wanted
            return again.keystore()
        }

        /// Whether `findUser` may stop at the record it looks for.
        var stopAtUser = true

        /// `version` read from the file's last bytes, `"version" : N }` (sorted keys put it
        /// last); nil when they are anything else.
        mutating func tailVersion() -> Int? {
            let tail: [UInt8]
            switch source {
            case .memory(let bytes):
                tail = Array(bytes.suffix(64))
            case .file(let fd, _):
                var info = stat()
                guard fstat(fd, &info) == 0 else { return nil }
                let size = Int(info.st_size)
                var bytes = [UInt8](repeating: 0, count: min(size, 64))
                let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(size - $0.count)) }
                guard count == bytes.count else { return nil }
                tail = bytes
            }
            var end = tail.count
            func skipSpace() { while end > 0, [0x20, 0x0A, 0x0D, 0x09].contains(tail[end - 1]) { end -= 1 } }
            skipSpace()
            guard end > 0, tail[end - 1] == Self.closeBrace else { return nil }
            end -= 1
            skipSpace()
            let digitsEnd = end
            while end > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(tail[end - 1]), digitsEnd - end < 9 { end -= 1 }
            guard end < digitsEnd, let version = Int(String(decoding: tail[end..<digitsEnd], as: UTF8.self)) else { return nil }
            skipSpace()
            guard end > 0, tail[end - 1] == Self.colon else { return nil }
            end -= 1
            skipSpace()
            let key = Array("\"version\"".utf8)
            guard end >= key.count, Array(tail[(end - key.count)..<end]) == key else { return nil }
            end -= key.count
            skipSpace()
            // The member before it ends with `,` (or the object begins): a top-level member.
            guard end > 0, tail[end - 1] == Self.comma || tail[end - 1] == Self.openBrace else { return nil }
            return version
        }

        /// In the `users` array: the range of the object whose `uid` is `uid`; `.some(nil)`
        /// when none is; nil when the array is not what it should be. The position ends
        /// after the array — or, with `stoppingThere` (and `stopAtUser`), right after the
        /// record found, which `stoppedAt` then holds.
        mutating func findUser(_ uid: String, stoppingThere: Bool = false) -> Range<Int>?? {
            guard next() == Self.openBracket else { return nil }
            skipWhitespace()
            if peek() == Self.closeBracket {
                position += 1
                return .some(nil)
            }
            var result: Range<Int>?
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
                if found == uid, result == nil {
                    result = start..<position
                    if stoppingThere && stopAtUser {
                        stoppedAt = start..<position
                        return .some(result)
                    }
                }
                skipWhitespace()
                switch next() {
                case Self.comma: continue
                case Self.closeBracket: return .some(result)
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
            // Most often the whole string is at hand: made straight from the window.
            let bytes = available()
            if let end = bytes.firstIndex(where: { $0 == Self.quote || $0 == Self.backslash || $0 < 0x20 }) {
                guard bytes[end] == Self.quote else { return nil }
                position += end + 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
            }
            // It goes on in the next window: byte by byte.
            var text = Array(bytes)
            position += bytes.count
            while let byte = peek() {
                if byte == Self.backslash || byte < 0x20 { return nil }
                position += 1
                if byte == Self.quote { return String(decoding: text, as: UTF8.self) }
                text.append(byte)
            }
            return nil
        }

        mutating func integer() -> Int? {
            var digits: [UInt8] = []
            while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits.count < 10 {
                digits.append(byte)
                position += 1
            }
            guard !digits.isEmpty, digits.count < 10 else { return nil }
            return Int(String(decoding: digits, as: UTF8.self))
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
        /// after an odd number of backslashes is escaped and does not end the string. The run
        /// of backslashes before a quote may begin in an earlier window: `carried` counts it.
        mutating func skipString() -> Bool {
            position += 1
            var carried = 0
            while true {
                let bytes = available()
                guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
                guard let hit = memchr(base, Int32(Self.quote), bytes.count) else {
                    // No quote here: note the backslashes this window ends with, and read on.
                    var trailing = 0
                    while trailing < bytes.count, bytes[bytes.count - 1 - trailing] == Self.backslash { trailing += 1 }
                    carried = trailing == bytes.count ? carried + trailing : trailing
                    position += bytes.count
                    continue
                }
                let quoteAt = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
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

        @inline(__always)
        mutating func peek() -> UInt8? {
            let offset = position - windowStart
            if offset >= 0, offset < window.count { return window[offset] }
            let bytes = available()
            return bytes.isEmpty ? nil : bytes[0]
        }

        mutating func next() -> UInt8? {
            defer { position += 1 }
            return peek()
        }
    }
}

/// config.json's `rules`, read for the token hot path without `JSONDecoder` (whose first use
/// costs the path more than its 10 % budget, bench/README.md): a byte scan that skips every
/// other member and reads the rules' string fields. It takes only what it is sure of: a
/// file without the bytes `"rules"` has no rules (no scan at all); anything unusual — an
/// escape in a rule's string, an unknown field, a value not a string, a rule that breaks
/// `IdentityRule.check`, bad JSON — gives `.unsure`, and the caller loads the file through
/// `ConfigStore` (validated, with its messages).
public enum ConfigRulesScan {
    public enum Result: Equatable, Sendable {
        case none
        case rules([IdentityRule])
        case unsure
    }

    public static func rules(in data: Data) -> Result {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard mentionsRules(bytes) else { return .none }
            var scanner = Scanner(bytes: bytes)
            guard let rules = scanner.file() else { return .unsure }
            guard let rules else { return .none }
            do {
                try IdentityRule.check(rules)
            } catch {
                return .unsure
            }
            return .rules(rules)
        }
    }

    /// Whether the bytes `"rules"` occur (a file without them holds no rules).
    static func mentionsRules(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let needle: StaticString = "\"rules\""
        let count = needle.utf8CodeUnitCount
        let start = needle.utf8Start
        guard bytes.count >= count else { return false }
        var index = 0
        while index <= bytes.count - count {
            if bytes[index] == start[0] {
                var offset = 1
                while offset < count, bytes[index + offset] == start[offset] { offset += 1 }
                if offset == count { return true }
            }
            index += 1
        }
        return false
    }

    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
        static let comma = UInt8(ascii: ","), openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
        static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")

        mutating func skipSpace() {
            while position < bytes.count,
                bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09
            {
                position += 1
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        /// The top-level object: `.some(rules)` when it has `rules`, `.some(nil)` when not, nil when unsure.
        mutating func file() -> [IdentityRule]?? {
            var rules: [IdentityRule]?
            var seenRules = false
            let ok = members { scanner, key in
                if key == "rules" {
                    guard !seenRules else { return false }
                    seenRules = true
                    rules = scanner.rulesArray()
                    return rules != nil
                }
                return scanner.skipValue(depth: 0)
            }
            skipSpace()
            guard ok, position == bytes.count else { return nil }
            return .some(rules)
        }

        /// `{ "key": value, … }`, `member` reading each value.
        mutating func members(_ member: (inout Scanner, String) -> Bool) -> Bool {
            guard take(Self.openBrace) else { return false }
            if take(Self.closeBrace) { return true }
            while true {
                skipSpace()
                guard let key = plainString(), take(Self.colon) else { return false }
                skipSpace()
                guard member(&self, key) else { return false }
                if take(Self.comma) { continue }
                return take(Self.closeBrace)
            }
        }

        mutating func rulesArray() -> [IdentityRule]? {
            guard take(Self.openBracket) else { return nil }
            var rules: [IdentityRule] = []
            rules.reserveCapacity(8)
            if take(Self.closeBracket) { return rules }
            while true {
                guard rules.count < IdentityRule.maximumCount, let rule = rule() else { return nil }
                rules.append(rule)
                if take(Self.comma) { continue }
                return take(Self.closeBracket) ? rules : nil
            }
        }

        mutating func rule() -> IdentityRule? {
            var rule = IdentityRule()
            var seen = 0  // a bit per field: a field given twice is left to the full decoder
            let ok = members { scanner, key in
                guard let value = scanner.plainString() else { return false }
                let bit: Int
                switch key {
                case "name": (bit, rule.name) = (1, value)
                case "user": (bit, rule.user) = (2, value)
                case "provider": (bit, rule.provider) = (4, value)
                case "directory": (bit, rule.directory) = (8, value)
                case "remote": (bit, rule.remote) = (16, value)
                case "kubeContext": (bit, rule.kubeContext) = (32, value)
                case "env": (bit, rule.env) = (64, value)
                default: return false
                }
                guard seen & bit == 0 else { return false }
                seen |= bit
                return true
            }
            return ok ? rule : nil
        }

        /// A string without escapes or control characters (valid UTF-8); nil otherwise.
        mutating func plainString() -> String? {
            skipSpace()
            guard position < bytes.count, bytes[position] == Self.quote else { return nil }
            let start = position + 1
            var end = start
            while end < bytes.count, bytes[end] != Self.quote {
                if bytes[end] == Self.backslash || bytes[end] < 0x20 || bytes[end] >= 0x80 { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            position = end + 1
            // ASCII only (a rule with other characters is read by the full decoder):
            // `String(validating:)` is generic, a run-time lookup on the token hot path.
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }

        /// Any JSON value, not built; false on what is not JSON as far as it looks.
        mutating func skipValue(depth: Int) -> Bool {
            skipSpace()
            guard depth < 64, let byte = peek() else { return false }
            switch byte {
            case Self.quote:
                position += 1
                while position < bytes.count {
                    let current = bytes[position]
                    if current == Self.quote {
                        position += 1
                        return true
                    }
                    if current < 0x20 { return false }
                    position += current == Self.backslash ? 2 : 1
                }
                return false
            case Self.openBrace:
                return members { scanner, _ in scanner.skipValue(depth: depth + 1) }
            case Self.openBracket:
                position += 1
                if take(Self.closeBracket) { return true }
                while true {
                    guard skipValue(depth: depth + 1) else { return false }
                    if take(Self.comma) { continue }
                    return take(Self.closeBracket)
                }
            default:
                // A number, true, false or null: its characters up to a delimiter.
                let start = position
                while position < bytes.count {
                    let current = bytes[position]
                    let isWord =
                        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(current)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(current)
                        || current == UInt8(ascii: "-") || current == UInt8(ascii: "+") || current == UInt8(ascii: ".")
                        || current == UInt8(ascii: "E")
                    guard isWord else { break }
                    position += 1
                }
                return position > start
            }
        }
    }
}

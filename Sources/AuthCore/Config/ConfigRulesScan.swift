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
        var rules: [IdentityRule] = []
        switch visit(
            data,
            { rule, _ in
                rules.append(rule)
                return true
            })
        {
        case .none: return .none
        case .unsure: return .unsure
        case .visited: break
        }
        do {
            try IdentityRule.check(rules)
        } catch {
            return .unsure
        }
        return .rules(rules)
    }

    /// What `firstMatch` found.
    public enum Match: Equatable, Sendable {
        /// No rules, or none that holds.
        case none
        /// The first rule that holds and its place (from 1).
        case rule(IdentityRule, index: Int)
        case unsure
    }

    /// The first rule for which `holds` is true, every rule of the file held to
    /// `IdentityRule.check` (names unique) as `rules(in:)` does; `holds` is asked only until
    /// one holds. No array of rules is made (on the token hot path the runtime would make its
    /// type's metadata: bench/README.md).
    public static func firstMatch(in data: Data, where holds: (IdentityRule) -> Bool) -> Match {
        var names: [String] = []
        // Two variables, not an optional tuple (whose metadata the runtime would make).
        var found: IdentityRule?
        var foundIndex = 0
        var count = 0
        let result = visit(data) { rule, index in
            count += 1
            guard count <= IdentityRule.maximumCount, (try? rule.check()) != nil else { return false }
            if let name = rule.name {
                guard !names.contains(name) else { return false }
                names.append(name)
            }
            if found == nil, holds(rule) {
                found = rule
                foundIndex = index
            }
            return true
        }
        switch result {
        case .none: return .none
        case .unsure: return .unsure
        case .visited:
            guard let found else { return .none }
            return .rule(found, index: foundIndex)
        }
    }

    enum Visit {
        case none, unsure, visited
    }

    /// Each rule of the file given to `rule` with its place (from 1), which returns false to
    /// give up (`.unsure`).
    static func visit(_ data: Data, _ rule: (IdentityRule, Int) -> Bool) -> Visit {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard ConfigRulesPeek.mayHoldRules(bytes) else { return .none }
            var scanner = Scanner(bytes: bytes)
            guard let seen = scanner.file(rule) else { return .unsure }
            return seen ? .visited : .none
        }
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
        /// The top-level object, each rule given to `visit`: whether it has `rules`, nil when unsure.
        mutating func file(_ visit: (IdentityRule, Int) -> Bool) -> Bool? {
            var seenRules = false
            let ok = members { scanner, key in
                if key == "rules" {
                    guard !seenRules else { return false }
                    seenRules = true
                    return scanner.rulesArray(visit)
                }
                return scanner.skipValue(depth: 0)
            }
            skipSpace()
            guard ok, position == bytes.count else { return nil }
            return seenRules
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

        mutating func rulesArray(_ visit: (IdentityRule, Int) -> Bool) -> Bool {
            guard take(Self.openBracket) else { return false }
            if take(Self.closeBracket) { return true }
            var index = 0
            while true {
                index += 1
                guard index <= IdentityRule.maximumCount, let rule = rule(), visit(rule, index) else { return false }
                if take(Self.comma) { continue }
                return take(Self.closeBracket)
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

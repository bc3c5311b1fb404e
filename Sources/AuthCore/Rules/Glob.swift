/// The wildcards of a rule's pattern (docs/identities.md), as git's `includeIf "gitdir:"`
/// reads them: `*` any run of characters but `/`, `**` any run including `/`, `?` one
/// character but `/`; everything else stands for itself. A pattern ending in `/**` also
/// matches what comes before it (`https://dev.azure.com/contoso/**` matches
/// `https://dev.azure.com/contoso`). Matched over bytes in O(pattern × text), whatever the
/// pattern: no backtracking to blow up on a hostile one.
public enum Glob {
    public static func hasWildcards(_ pattern: String) -> Bool {
        pattern.utf8.contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") }
    }

    public static func matches(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.utf8), t = Array(text.utf8)
        if matches(p[...], t) { return true }
        if p.count >= 3, p.suffix(3).elementsEqual("/**".utf8) { return matches(p.dropLast(3), t) }
        return false
    }

    private static let star = UInt8(ascii: "*"), question = UInt8(ascii: "?"), slash = UInt8(ascii: "/")

    /// The pattern's tokens: a byte, `?`, `*` or `**`.
    private enum Token: Equatable {
        case byte(UInt8), one, star, globstar
    }

    private static func tokens(_ pattern: ArraySlice<UInt8>) -> [Token] {
        var tokens: [Token] = []
        var index = pattern.startIndex
        while index < pattern.endIndex {
            let byte = pattern[index]
            if byte == star {
                if index + 1 < pattern.endIndex, pattern[index + 1] == star {
                    tokens.append(.globstar)
                    index += 2
                    while index < pattern.endIndex, pattern[index] == star { index += 1 }
                    continue
                }
                tokens.append(.star)
            } else if byte == question {
                tokens.append(.one)
            } else {
                tokens.append(.byte(byte))
            }
            index += 1
        }
        return tokens
    }

    private static func matches(_ pattern: ArraySlice<UInt8>, _ text: [UInt8]) -> Bool {
        let tokens = tokens(pattern)
        // reachable[j]: the tokens so far can match text[0..<j].
        var reachable = [Bool](repeating: false, count: text.count + 1)
        reachable[0] = true
        for token in tokens {
            var next = [Bool](repeating: false, count: text.count + 1)
            switch token {
            case .byte(let byte):
                for j in 0..<text.count where reachable[j] && text[j] == byte { next[j + 1] = true }
            case .one:
                for j in 0..<text.count where reachable[j] && text[j] != slash { next[j + 1] = true }
            case .star, .globstar:
                var carrying = false
                for j in 0...text.count {
                    if reachable[j] { carrying = true }
                    if carrying { next[j] = true }
                    if j < text.count, token == .star, text[j] == slash { carrying = false }
                }
            }
            reachable = next
            if !reachable.contains(true) { return false }
        }
        return reachable[text.count]
    }
}

/// The YAML of a kubeconfig file as kubectl writes it (docs/identities.md): block mappings and
/// sequences (a sequence may sit at its key's indentation, as kubectl writes `users:`), plain,
/// single- and double-quoted scalars, `{}` and `[]`, comments. That is all authctl reads: a
/// file with anchors, aliases, tags, block scalars (`|`, `>`), non-empty flow collections or
/// several documents is refused with `KubeconfigYAML.Unsupported`, never half-understood —
/// `kubeconfig set-credentials --dry-run` then prints the entry to paste. Plain scalars keep
/// their text as written (`true`, `6443`), so what is written back means what it meant.
/// Comments are not kept (kubectl drops them too when it writes the file).
public indirect enum KubeconfigYAML: Sendable, Equatable {
    /// A plain scalar, as written (`true`, `null`, `https://x:6443`).
    case plain(String)
    /// A quoted scalar's value.
    case string(String)
    case mapping([(key: String, value: KubeconfigYAML)])
    case sequence([KubeconfigYAML])

    public static func == (lhs: KubeconfigYAML, rhs: KubeconfigYAML) -> Bool {
        switch (lhs, rhs) {
        case (.plain(let a), .plain(let b)), (.string(let a), .string(let b)): a == b
        case (.sequence(let a), .sequence(let b)): a == b
        case (.mapping(let a), .mapping(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    public struct Unsupported: Error, Sendable, Equatable {
        /// The line (from 1) and what authctl does not read there.
        public var line: Int
        public var reason: String
    }

    /// The value under `key` of a mapping.
    public subscript(key: String) -> KubeconfigYAML? {
        guard case .mapping(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// The scalar's text.
    public var text: String? {
        switch self {
        case .plain(let text), .string(let text): text
        default: nil
        }
    }

    // MARK: - Reading

    struct Line {
        var number: Int
        var indent: Int
        var content: Substring
    }

    public static func parse(_ text: String) throws(Unsupported) -> KubeconfigYAML {
        var lines: [Line] = []
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = raw
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.contains("\t") && line.drop(while: { $0 == " " }).first == "\t" {
                throw Unsupported(line: number, reason: "a tab in the indentation")
            }
            let indent = line.prefix { $0 == " " }.count
            let content = line.dropFirst(indent)
            if content.isEmpty || content.hasPrefix("#") { continue }
            if indent == 0, content == "---", lines.isEmpty { continue }
            if content == "---" || content == "..." { throw Unsupported(line: number, reason: "several documents") }
            lines.append(Line(number: number, indent: indent, content: content))
        }
        guard let first = lines.first else { return .mapping([]) }
        var reader = Reader(lines: lines)
        let node = try reader.node(indent: first.indent)
        if reader.index < lines.count { throw Unsupported(line: lines[reader.index].number, reason: "indentation that does not fit") }
        return node
    }

    struct Reader {
        var lines: [Line]
        var index = 0

        mutating func node(indent: Int) throws(Unsupported) -> KubeconfigYAML {
            let line = lines[index]
            if line.content == "-" || line.content.hasPrefix("- ") { return try sequence(indent: indent) }
            return try mapping(indent: indent)
        }

        mutating func sequence(indent: Int) throws(Unsupported) -> KubeconfigYAML {
            var items: [KubeconfigYAML] = []
            while index < lines.count, lines[index].indent == indent, lines[index].content == "-" || lines[index].content.hasPrefix("- ") {
                let line = lines[index]
                let rest = line.content.dropFirst().drop { $0 == " " }
                if rest.isEmpty {
                    index += 1
                    guard index < lines.count, lines[index].indent > indent else {
                        items.append(.plain("null"))
                        continue
                    }
                    items.append(try node(indent: lines[index].indent))
                    continue
                }
                let innerIndent = indent + (line.content.count - rest.count)
                if Self.keyEnd(rest) != nil {
                    // `- key: value`: a mapping whose first entry is on the dash's line.
                    lines[index] = Line(number: line.number, indent: innerIndent, content: rest)
                    items.append(try mapping(indent: innerIndent))
                } else if rest.hasPrefix("- ") || rest == "-" {
                    throw Unsupported(line: line.number, reason: "a sequence inside a sequence on one line")
                } else {
                    items.append(try Self.scalar(rest, line: line.number))
                    index += 1
                }
            }
            return .sequence(items)
        }

        mutating func mapping(indent: Int) throws(Unsupported) -> KubeconfigYAML {
            var pairs: [(key: String, value: KubeconfigYAML)] = []
            while index < lines.count, lines[index].indent == indent {
                let line = lines[index]
                if line.content == "-" || line.content.hasPrefix("- ") { break }
                guard let end = Self.keyEnd(line.content) else {
                    throw Unsupported(line: line.number, reason: "a line that is not key: value")
                }
                let key = try Self.key(line.content[..<end], line: line.number)
                guard !pairs.contains(where: { $0.key == key }) else {
                    throw Unsupported(line: line.number, reason: "the key \(key) twice")
                }
                let rest = line.content[line.content.index(after: end)...].drop { $0 == " " }
                index += 1
                if rest.isEmpty || rest.hasPrefix("#") {
                    if index < lines.count, lines[index].indent > indent {
                        pairs.append((key, try node(indent: lines[index].indent)))
                    } else if index < lines.count, lines[index].indent == indent,
                        lines[index].content == "-" || lines[index].content.hasPrefix("- ")
                    {
                        pairs.append((key, try sequence(indent: indent)))
                    } else {
                        pairs.append((key, .plain("null")))
                    }
                } else {
                    pairs.append((key, try Self.scalar(rest, line: line.number)))
                }
            }
            return .mapping(pairs)
        }

        /// Where the key of `key: value` (or `key:`) ends: the `:` followed by a space or the end.
        static func keyEnd(_ content: Substring) -> String.Index? {
            if let quote = content.first, quote == "\"" || quote == "'" {
                var index = content.index(after: content.startIndex)
                while index < content.endIndex {
                    if content[index] == quote {
                        let after = content.index(after: index)
                        guard after < content.endIndex, content[after] == ":" else { return nil }
                        let next = content.index(after: after)
                        return next == content.endIndex || content[next] == " " ? after : nil
                    }
                    if content[index] == "\\", quote == "\"" { index = content.index(after: index) }
                    if index < content.endIndex { index = content.index(after: index) }
                }
                return nil
            }
            var index = content.startIndex
            while index < content.endIndex {
                if content[index] == ":" {
                    let next = content.index(after: index)
                    if next == content.endIndex || content[next] == " " { return index }
                }
                if content[index] == " ", content.index(after: index) < content.endIndex, content[content.index(after: index)] == "#" {
                    return nil
                }
                index = content.index(after: index)
            }
            return nil
        }

        static func key(_ raw: Substring, line: Int) throws(Unsupported) -> String {
            let node = try scalar(raw, line: line)
            return node.text ?? ""
        }

        static func scalar(_ raw: Substring, line: Int) throws(Unsupported) -> KubeconfigYAML {
            guard let first = raw.first else { return .plain("null") }
            switch first {
            case "\"":
                var value = ""
                var index = raw.index(after: raw.startIndex)
                while index < raw.endIndex {
                    let character = raw[index]
                    if character == "\"" {
                        try trailing(raw[raw.index(after: index)...], line: line)
                        return .string(value)
                    }
                    if character == "\\" {
                        index = raw.index(after: index)
                        guard index < raw.endIndex else { break }
                        switch raw[index] {
                        case "\"": value.append("\"")
                        case "\\": value.append("\\")
                        case "/": value.append("/")
                        case "n": value.append("\n")
                        case "t": value.append("\t")
                        case "x":
                            let digits = raw[raw.index(after: index)...].prefix(2)
                            guard digits.count == 2, let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) else {
                                throw Unsupported(line: line, reason: "a \\x escape without two hex digits")
                            }
                            value.unicodeScalars.append(scalar)
                            index = raw.index(index, offsetBy: 2)
                        default: throw Unsupported(line: line, reason: "an escape authctl does not read in a quoted string")
                        }
                    } else {
                        value.append(character)
                    }
                    index = raw.index(after: index)
                }
                throw Unsupported(line: line, reason: "a quoted string that does not end on its line")
            case "'":
                var value = ""
                var index = raw.index(after: raw.startIndex)
                while index < raw.endIndex {
                    if raw[index] == "'" {
                        let next = raw.index(after: index)
                        if next < raw.endIndex, raw[next] == "'" {
                            value.append("'")
                            index = raw.index(after: next)
                            continue
                        }
                        try trailing(raw[next...], line: line)
                        return .string(value)
                    }
                    value.append(raw[index])
                    index = raw.index(after: index)
                }
                throw Unsupported(line: line, reason: "a quoted string that does not end on its line")
            case "{", "[":
                return try flow(cutComment(raw), line: line)
            case "&", "*", "!", "|", ">", "%", "@", "`":
                throw Unsupported(line: line, reason: "YAML's \(first) (anchors, aliases, tags and block scalars are not read)")
            default:
                return .plain(String(cutComment(raw)))
            }
        }

        /// A flow collection of scalars on one line: `[a, "b", c]`, `{cluster: local, user: oidc}`.
        /// Nesting is not read.
        static func flow(_ raw: Substring, line: Int) throws(Unsupported) -> KubeconfigYAML {
            let isMapping = raw.first == "{"
            guard raw.last == (isMapping ? "}" : "]") else { throw Unsupported(line: line, reason: "a flow collection over several lines") }
            let inner = raw.dropFirst().dropLast()
            var parts: [Substring] = []
            var start = inner.startIndex
            var quote: Character?
            var index = inner.startIndex
            while index < inner.endIndex {
                let character = inner[index]
                if let open = quote {
                    if character == open { quote = nil }
                } else if character == "\"" || character == "'" {
                    quote = character
                } else if character == "{" || character == "[" || character == "}" || character == "]" {
                    throw Unsupported(line: line, reason: "a nested flow collection")
                } else if character == "," {
                    parts.append(inner[start..<index])
                    start = inner.index(after: index)
                }
                index = inner.index(after: index)
            }
            parts.append(inner[start...])
            let items = parts.map { $0.drop { $0 == " " } }.map { part -> Substring in
                var part = part
                while part.last == " " { part = part.dropLast() }
                return part
            }
            if items.count == 1, items[0].isEmpty { return isMapping ? .mapping([]) : .sequence([]) }
            guard !items.contains(where: \.isEmpty) else { throw Unsupported(line: line, reason: "an empty entry in a flow collection") }
            if !isMapping { return .sequence(try items.map { item throws(Unsupported) in try scalar(item, line: line) }) }
            var pairs: [(key: String, value: KubeconfigYAML)] = []
            for item in items {
                guard let end = keyEnd(item) else { throw Unsupported(line: line, reason: "a flow mapping entry that is not key: value") }
                let key = try self.key(item[..<end], line: line)
                let value = item[item.index(after: end)...].drop { $0 == " " }
                pairs.append((key, try scalar(value, line: line)))
            }
            return .mapping(pairs)
        }

        static func trailing(_ rest: Substring, line: Int) throws(Unsupported) {
            let after = rest.drop { $0 == " " }
            guard after.isEmpty || after.hasPrefix("#") else { throw Unsupported(line: line, reason: "text after a quoted string") }
        }

        static func cutComment(_ raw: Substring) -> Substring {
            var index = raw.startIndex
            while index < raw.endIndex {
                if raw[index] == "#", index > raw.startIndex, raw[raw.index(before: index)] == " " { break }
                index = raw.index(after: index)
            }
            var result = raw[..<index]
            while result.last == " " { result = result.dropLast() }
            return result
        }
    }

    // MARK: - Writing

    /// The document in kubectl's style: two spaces a level, a sequence at its key's indentation.
    public func emitted() -> String {
        var text = ""
        switch self {
        case .mapping(let pairs): Self.emit(pairs, indent: 0, into: &text)
        case .sequence(let items): Self.emit(items, indent: 0, into: &text)
        case .plain, .string: text = Self.scalarText(self) + "\n"
        }
        return text
    }

    static func emit(_ pairs: [(key: String, value: KubeconfigYAML)], indent: Int, into text: inout String, firstPrefix: String? = nil) {
        for (offset, pair) in pairs.enumerated() {
            let lead = offset == 0 && firstPrefix != nil ? firstPrefix ?? "" : String(repeating: " ", count: indent)
            let key = quotedIfNeeded(pair.key)
            switch pair.value {
            case .mapping(let inner) where !inner.isEmpty:
                text += lead + key + ":\n"
                emit(inner, indent: indent + 2, into: &text)
            case .sequence(let items) where !items.isEmpty:
                text += lead + key + ":\n"
                emit(items, indent: indent, into: &text)
            default:
                text += lead + key + ": " + scalarText(pair.value) + "\n"
            }
        }
    }

    static func emit(_ items: [KubeconfigYAML], indent: Int, into text: inout String) {
        let pad = String(repeating: " ", count: indent)
        for item in items {
            switch item {
            case .mapping(let pairs) where !pairs.isEmpty:
                emit(pairs, indent: indent + 2, into: &text, firstPrefix: pad + "- ")
            case .sequence(let inner) where !inner.isEmpty:
                text += pad + "-\n"
                emit(inner, indent: indent + 2, into: &text)
            default:
                text += pad + "- " + scalarText(item) + "\n"
            }
        }
    }

    static func scalarText(_ node: KubeconfigYAML) -> String {
        switch node {
        case .plain(let text): text
        case .string(let text): quotedIfNeeded(text, forceQuotesOnPlainLook: true)
        case .mapping: "{}"
        case .sequence: "[]"
        }
    }

    /// `text` plain when YAML reads it back as the same string, else double-quoted.
    static func quotedIfNeeded(_ text: String, forceQuotesOnPlainLook: Bool = false) -> String {
        let safe = text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "-_./=@+~,".unicodeScalars.contains(scalar) || scalar == ":"
        }
        let reserved = ["true", "false", "null", "yes", "no", "on", "off", "~", "y", "n"].contains(text.lowercased())
        let numeric = text.first.map { $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." } ?? true
        let startsBadly = text.hasPrefix("-") || text.hasPrefix(":") || text.hasPrefix("@") || text.hasPrefix("~")
        let colonSpaceOrEnd = text.hasSuffix(":") || text.contains(": ")
        if safe, !text.isEmpty, !reserved, !(forceQuotesOnPlainLook && numeric), !startsBadly, !colonSpaceOrEnd { return text }
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    quoted += "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2)
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }
}

extension String {
    fileprivate func leftPadded(to count: Int) -> String { String(repeating: "0", count: Swift.max(0, count - self.count)) + self }
}

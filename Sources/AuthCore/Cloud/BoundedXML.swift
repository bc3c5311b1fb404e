/// A small, strict reader of the XML an AWS query API answers with (STS), for the few
/// fields authctl needs: elements, attributes (skipped), character data, the five
/// predefined entities and character references, comments, CDATA and the XML declaration.
/// Anything else — a document type declaration or entity definition (no DTD is ever read, so
/// no entity expansion), another processing instruction, an unknown entity, a tag that does
/// not close, text after the root — is refused. Bounded: the bytes (the transport's limit),
/// the depth and the number of elements.
struct BoundedXML {
    /// An element: its local name (a namespace prefix dropped), its children, its text.
    struct Element: Equatable {
        var name: String
        var children: [Element] = []
        var text = ""

        /// The only child named `name`; nil when there is none or more than one.
        func only(_ name: String) -> Element? {
            let matching = children.filter { $0.name == name }
            return matching.count == 1 ? matching[0] : nil
        }
    }

    struct Refused: Error, Equatable {
        var reason: String
    }

    static let maximumDepth = 16
    static let maximumElements = 512

    private let bytes: [UInt8]
    private var position = 0
    private var elements = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The root element of `data`.
    static func parse(_ data: Data) throws -> Element {
        var reader = BoundedXML(Array(data))
        return try reader.document()
    }

    private mutating func document() throws -> Element {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        skipSpace()
        if starts("<?xml") {
            guard let end = find("?>") else { throw Refused(reason: "an XML declaration that does not end") }
            position = end + 2
        }
        try skipMisc()
        guard peek() == UInt8(ascii: "<") else { throw Refused(reason: "no root element") }
        let root = try element(depth: 1)
        try skipMisc()
        guard position == bytes.count else { throw Refused(reason: "content after the root element") }
        return root
    }

    /// Whitespace and comments between top-level items.
    private mutating func skipMisc() throws {
        while true {
            skipSpace()
            if starts("<!--") {
                try comment()
            } else if starts("<!") || starts("<?") {
                throw Refused(reason: "a document type declaration or processing instruction")
            } else {
                return
            }
        }
    }

    private mutating func comment() throws {
        guard let end = find("-->", from: position + 4) else { throw Refused(reason: "a comment that does not end") }
        position = end + 3
    }

    private mutating func element(depth: Int) throws -> Element {
        guard depth <= Self.maximumDepth else { throw Refused(reason: "elements nested more than \(Self.maximumDepth) deep") }
        elements += 1
        guard elements <= Self.maximumElements else { throw Refused(reason: "more than \(Self.maximumElements) elements") }
        position += 1  // "<"
        let qualified = try name()
        var element = Element(name: Self.localName(qualified))
        // Attributes: name = "value" or 'value', skipped (xmlns and the like).
        while true {
            skipSpace()
            if starts("/>") {
                position += 2
                return element
            }
            if peek() == UInt8(ascii: ">") {
                position += 1
                break
            }
            _ = try name()
            skipSpace()
            guard peek() == UInt8(ascii: "=") else { throw Refused(reason: "an attribute without a value") }
            position += 1
            skipSpace()
            guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw Refused(reason: "an attribute value without quotes")
            }
            position += 1
            while let byte = peek(), byte != quote {
                guard byte != UInt8(ascii: "<") else { throw Refused(reason: "a '<' in an attribute value") }
                position += 1
            }
            guard peek() == quote else { throw Refused(reason: "an attribute value that does not end") }
            position += 1
        }
        var text: [UInt8] = []
        while true {
            guard let byte = peek() else { throw Refused(reason: "the element \(element.name) does not end") }
            if byte == UInt8(ascii: "<") {
                if starts("</") {
                    position += 2
                    let closing = try name()
                    guard closing == qualified else { throw Refused(reason: "the element \(element.name) ends as another") }
                    skipSpace()
                    guard peek() == UInt8(ascii: ">") else { throw Refused(reason: "a closing tag that does not end") }
                    position += 1
                    guard let decoded = String(validating: text, as: UTF8.self) else { throw Refused(reason: "text that is not UTF-8") }
                    element.text = decoded
                    return element
                } else if starts("<!--") {
                    try comment()
                } else if starts("<![CDATA[") {
                    guard let end = find("]]>", from: position + 9) else { throw Refused(reason: "a CDATA section that does not end") }
                    text += bytes[(position + 9)..<end]
                    position = end + 3
                } else if starts("<!") || starts("<?") {
                    throw Refused(reason: "a declaration or processing instruction inside an element")
                } else {
                    element.children.append(try self.element(depth: depth + 1))
                }
            } else if byte == UInt8(ascii: "&") {
                text += try reference()
            } else {
                text.append(byte)
                position += 1
            }
        }
    }

    /// `&name;` of the five predefined entities, or a character reference `&#N;` / `&#xH;`.
    private mutating func reference() throws -> [UInt8] {
        guard let end = find(";", from: position), end - position <= 10 else { throw Refused(reason: "an unknown entity") }
        let body = String(decoding: bytes[(position + 1)..<end], as: UTF8.self)
        position = end + 1
        let scalar: Unicode.Scalar?
        switch body {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if body.hasPrefix("#x"), let value = UInt32(body.dropFirst(2), radix: 16) {
                scalar = Unicode.Scalar(value)
            } else if body.hasPrefix("#"), let value = UInt32(body.dropFirst(), radix: 10) {
                scalar = Unicode.Scalar(value)
            } else {
                scalar = nil
            }
        }
        guard let scalar, scalar.value != 0 else { throw Refused(reason: "an unknown entity") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func name() throws -> String {
        let start = position
        while let byte = peek(), Self.isNameByte(byte) { position += 1 }
        guard position > start, position - start <= 128 else { throw Refused(reason: "a tag without a name") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func localName(_ qualified: String) -> String {
        qualified.split(separator: ":").last.map(String.init) ?? qualified
    }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private func starts(_ literal: String) -> Bool {
        let utf8 = Array(literal.utf8)
        return bytes.count - position >= utf8.count && Array(bytes[position..<(position + utf8.count)]) == utf8
    }

    private func find(_ literal: String, from start: Int? = nil) -> Int? {
        let utf8 = Array(literal.utf8)
        var index = start ?? position
        while index + utf8.count <= bytes.count {
            if bytes[index] == utf8[0], Array(bytes[index..<(index + utf8.count)]) == utf8 { return index }
            index += 1
        }
        return nil
    }
}

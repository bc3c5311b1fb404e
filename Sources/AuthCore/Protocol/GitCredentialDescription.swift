/// A credential description of git's credential-helper protocol (git-credential(1), "INPUT/OUTPUT
/// FORMAT"): `key=value` lines, ended by a blank line or the end of input. A key holds any byte
/// but `=`, newline and NUL; a value any byte but newline and NUL; there is no quoting. A key
/// ending in `[]` (`capability[]`, `wwwauth[]`) is multi-valued: its values form a list in order,
/// and an empty value clears the list. A single-valued key given twice keeps its last value, as
/// git does.
public struct GitCredentialDescription: Sendable, Equatable {
    public struct Attribute: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// The attributes in the order they were read or are to be written.
    public var attributes: [Attribute]

    public init(_ attributes: [Attribute] = []) { self.attributes = attributes }

    /// How much git may send: 64 KiB in all, 8 KiB a line (git itself sends far less: a URL's
    /// parts, a username, a few `WWW-Authenticate` headers). Past that the input is refused
    /// without reading the rest.
    public static let maximumBytes = 65_536
    public static let maximumLineBytes = 8_192

    /// The capability git ≥ 2.46 announces with `capability[]=authtype`: it understands
    /// `authtype`, `credential` and `ephemeral` in the answer.
    public static let authTypeCapability = "authtype"

    /// The last value of a single-valued key.
    public subscript(key: String) -> String? { attributes.last(where: { $0.key == key })?.value }

    /// The values of a multi-valued key (`name[]`), an empty value clearing those before it.
    public func values(of key: String) -> [String] {
        var values: [String] = []
        for attribute in attributes where attribute.key == key {
            if attribute.value.isEmpty { values.removeAll() } else { values.append(attribute.value) }
        }
        return values
    }

    /// Whether git announced `capability[]=NAME`.
    public func announces(_ capability: String) -> Bool { values(of: "capability[]").contains(capability) }

    /// Reads a description line by line from `nextLine` (which returns a line without its line
    /// ending, nil at the end of input, and is given the longest line it may return). Stops at
    /// the first blank line, so nothing after it is consumed.
    public static func read(nextLine: (_ maximumLineBytes: Int) throws -> String?) throws -> GitCredentialDescription {
        var attributes: [Attribute] = []
        var total = 0
        while let line = try nextLine(maximumLineBytes) {
            if line.isEmpty { break }
            total += line.utf8.count + 1
            guard line.utf8.count <= maximumLineBytes, total <= maximumBytes else { throw tooLarge }
            attributes.append(try attribute(line))
        }
        return GitCredentialDescription(attributes)
    }

    /// Parses a whole description (tests, and callers that have it in memory).
    public static func parse(_ text: String) throws -> GitCredentialDescription {
        guard text.utf8.count <= maximumBytes + 1 else { throw tooLarge }
        // Split on the bytes: "\r\n" is one Character, which a split on "\n" would not see.
        var lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).makeIterator()
        return try read { limit in
            guard var line = lines.next().map(Array.init) else { return nil }
            if line.last == 13 { line.removeLast() }
            guard line.count <= limit else { throw tooLarge }
            return String(decoding: line, as: UTF8.self)
        }
    }

    static let tooLarge = AuthError.invalidArgument(
        "git's credential description is larger than authctl accepts (\(maximumLineBytes) bytes a line, \(maximumBytes) in all). Check what runs \(command: .gitCredential): git sends a few short lines"
    )

    static func attribute(_ line: String) throws -> Attribute {
        guard !line.utf8.contains(0) else {
            throw AuthError.invalidArgument("git's credential description holds a NUL byte, which the protocol forbids")
        }
        // The line itself is not repeated: it might be a secret pasted in the wrong place.
        guard let equals = line.utf8.firstIndex(of: UInt8(ascii: "=")) else {
            throw AuthError.invalidArgument("a line of git's credential description is not key=value; git sends only such lines")
        }
        return Attribute(String(line[..<equals]), String(line[line.index(after: equals)...]))
    }

    /// The description as git reads it: one `key=value` line each, in order. A key or value
    /// that the protocol cannot carry (a newline or NUL anywhere, `=` in a key) is refused
    /// rather than written, so nothing can inject another attribute.
    public func encoded() throws -> String {
        var text = ""
        for attribute in attributes {
            let key = attribute.key.utf8, value = attribute.value.utf8
            guard !key.isEmpty, !key.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 || $0 == UInt8(ascii: "=") }),
                !value.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 })
            else {
                throw AuthError.internalError(
                    "the answer to git holds a line break or NUL in \(Sanitize.text(attribute.key, limit: 40)); nothing was written")
            }
            text += "\(attribute.key)=\(attribute.value)\n"
        }
        return text
    }
}

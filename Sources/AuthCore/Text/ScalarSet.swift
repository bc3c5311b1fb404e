/// A set of Unicode scalars given by a rule: what authctl needs of Foundation's
/// `CharacterSet`, which FoundationEssentials lacks. The predefined sets have
/// `CharacterSet`'s definitions, so trimming and input checks behave as before.
package struct ScalarSet: Sendable {
    private let rule: @Sendable (Unicode.Scalar) -> Bool

    package init(_ rule: @escaping @Sendable (Unicode.Scalar) -> Bool) { self.rule = rule }

    /// Exactly the scalars of `string`.
    package init(charactersIn string: String) {
        let scalars = Set(string.unicodeScalars)
        self.rule = { scalars.contains($0) }
    }

    package func contains(_ scalar: Unicode.Scalar) -> Bool { rule(scalar) }

    /// General Category Zs, CHARACTER TABULATION (U+0009) and ZERO WIDTH SPACE (U+200B,
    /// Zs in early Unicode, still in Foundation's set).
    package static let whitespaces = ScalarSet {
        $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator
    }

    /// General Category Z* (Zs, Zl, Zp), U+0009–U+000D, U+0085 and U+200B.
    package static let whitespacesAndNewlines = ScalarSet { scalar in
        switch scalar.value {
        case 0x09...0x0D, 0x85, 0x200B: return true
        default:
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }

    /// General Category Cc and Cf.
    package static let controlCharacters = ScalarSet {
        $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
    }

    /// General Category L*, M* and N*.
    package static let alphanumerics = ScalarSet { scalar in
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default: return false
        }
    }
}

extension StringProtocol {
    /// The string without the scalars of `set` at either end (Foundation's
    /// `trimmingCharacters(in:)`: it works on Unicode scalars, not on characters).
    package func trimming(_ set: ScalarSet) -> String {
        let string = String(self)
        let scalars = string.unicodeScalars
        guard let first = scalars.firstIndex(where: { !set.contains($0) }),
            let last = scalars.lastIndex(where: { !set.contains($0) })
        else { return "" }
        return String(Substring(scalars[first...last]))
    }

    /// Every occurrence of `target` (compared scalar by scalar, left to right, without
    /// overlaps) replaced by `replacement`; Foundation's `replacingOccurrences(of:with:)`
    /// for the plain strings authctl replaces.
    package func replacingEvery(_ target: String, with replacement: String) -> String {
        let needle = Array(target.unicodeScalars)
        guard !needle.isEmpty else { return String(self) }
        let scalars = Array(String(self).unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == needle[0], index + needle.count <= scalars.count,
                scalars[index..<(index + needle.count)].elementsEqual(needle)
            {
                result.append(contentsOf: replacement.unicodeScalars)
                index += needle.count
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    /// Equal ignoring ASCII case, as HTTP header names (RFC 9110 §5.1) and URL schemes compare.
    package func equalsIgnoringCase(_ other: some StringProtocol) -> Bool {
        lowercased() == other.lowercased()
    }
}

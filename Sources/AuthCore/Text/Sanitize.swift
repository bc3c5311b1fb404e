/// Untrusted text made safe for a terminal: `text` drops control and format characters and
/// bounds the length (what the core keeps of a lying service's words); `visible` escapes what
/// a terminal would act on, where the command layer shows text.
public enum Sanitize {
    public static func text(_ text: String, limit: Int = 200) -> String {
        let cleaned = String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter {
                    !ScalarSet.controlCharacters.contains($0) && $0.properties.generalCategory != .format
                }))
        return cleaned.count > limit ? String(cleaned.prefix(limit)) + "…" : cleaned
    }
}

extension Sanitize {
    /// Scalars a terminal acts on or that reorder what it shows: the C0 controls, DEL, the C1
    /// controls, the bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
    /// U+2066–U+2069) and the line and paragraph separators (U+2028, U+2029).
    public static func isUnsafeToShow(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` as a terminal may show it (the command layer's one rule for what it prints):
    /// every scalar of `isUnsafeToShow` written out as `\u{1B}`, seen and never acted on;
    /// the rest, and so what a person recognises, unchanged. With `keepingLines`, line feeds
    /// and tabs stay (the lines and columns authctl lays out itself).
    public static func visible(_ text: String, keepingLines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isUnsafeToShow) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafeToShow(scalar), !(keepingLines && (scalar == "\n" || scalar == "\t")) {
                shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// A JSON document with every `isUnsafeToShow` scalar (inside its strings: the rest of a
    /// document is ASCII) written as the escape `\uXXXX`: the same values for a reader, no
    /// raw escape or bidi override on a terminal. JSON encoders leave DEL, C1 and the bidi
    /// controls raw.
    public static func visibleJSON(_ document: String) -> String {
        guard document.unicodeScalars.contains(where: isUnsafeToShow) else { return document }
        var shown = String.UnicodeScalarView()
        for scalar in document.unicodeScalars {
            if isUnsafeToShow(scalar), scalar != "\n" {
                let hex = String(scalar.value, radix: 16)
                shown.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// A URL as a message shows it: scheme, host, port and path (the query, if any, left out),
    /// so that a 404 names the very URL tried (`http://127.0.0.1:8080/realm/.well-known/…`).
    public static func url(_ url: URL) -> String {
        var components = URLComponents()
        components.scheme = url.scheme
        components.host = url.host
        components.port = url.port
        components.path = url.path
        return text(components.string ?? url.absoluteString, limit: 200)
    }
}

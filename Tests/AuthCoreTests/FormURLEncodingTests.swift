import AuthCore
import Testing

/// Pins `FormURLEncoding` (RFC 6749 Appendix B: every byte outside the unreserved set
/// `A–Z a–z 0–9 - . _ ~` percent-encoded as UTF-8, upper-case hex) to the output it had
/// with Foundation's `addingPercentEncoding`/`removingPercentEncoding`, so that the
/// FoundationEssentials rewrite (issue 14) is held to it byte for byte.
@Suite("Form URL encoding")
struct FormURLEncodingTests {
    @Test(
        "a value with spaces, plus, percent, UTF-8 or reserved characters is encoded as before",
        arguments: [
            ("a b", "a%20b"),
            ("a+b", "a%2Bb"),
            ("100%", "100%25"),
            ("%20", "%2520"),
            ("é", "%C3%A9"),
            ("ü\u{301}", "%C3%BC%CC%81"),
            ("👩‍💻", "%F0%9F%91%A9%E2%80%8D%F0%9F%92%BB"),
            ("!*'();:@&=+$,/?#[]", "%21%2A%27%28%29%3B%3A%40%26%3D%2B%24%2C%2F%3F%23%5B%5D"),
            ("-._~", "-._~"),
            ("A-z_0.9~", "A-z_0.9~"),
            ("line\nbreak\ttab", "line%0Abreak%09tab"),
            ("\r\n", "%0D%0A"),
            ("\u{0}", "%00"),
            ("", ""),
        ])
    func escape(value: String, encoded: String) {
        #expect(FormURLEncoding.escape(value) == encoded)
    }

    @Test(
        "a query or form value is decoded as before, plus as a space",
        arguments: [
            ("a+b", "a b"),
            ("+", " "),
            ("a%2Bb", "a+b"),
            ("%c3%A9", "é"),
            ("a%20b+c", "a b c"),
            ("%F0%9F%91%A9", "👩"),
            ("é", "é"),
            ("a b", "a b"),
            ("%00", "\u{0}"),
        ])
    func unescape(encoded: String, value: String) throws {
        let pairs = try #require(FormURLEncoding.decode("k=\(encoded)"))
        #expect(pairs.count == 1)
        #expect(pairs.first?.0 == "k")
        #expect(pairs.first?.1 == value)
    }

    @Test(
        "a malformed escape or bytes that are not UTF-8 make the whole query undecodable",
        arguments: ["%", "%2", "%zz", "%%", "%E9", "%ED%A0%80", "%C0%AF"])
    func malformed(encoded: String) {
        #expect(FormURLEncoding.decode("a=1&k=\(encoded)") == nil)
        #expect(FormURLEncoding.decode("\(encoded)=1") == nil)
    }

    @Test("pairs keep their order; empty pieces are skipped, a name without '=' has an empty value, '=' in a value stays")
    func pairs() throws {
        let pairs = try #require(FormURLEncoding.decode("b=2&&a=x=y&flag&=v"))
        #expect(pairs.map(\.0) == ["b", "a", "flag", ""])
        #expect(pairs.map(\.1) == ["2", "x=y", "", "v"])
    }

    @Test("encode then decode gives back every tricky pair")
    func roundTrip() throws {
        let parameters = [("redirect_uri", "http://127.0.0.1:53682/cb?x=1&y=2"), ("scope", "openid email"), ("n+m", "100% ✓")]
        let decoded = try #require(FormURLEncoding.decode(FormURLEncoding.encode(parameters)))
        #expect(decoded.map(\.0) == parameters.map(\.0))
        #expect(decoded.map(\.1) == parameters.map(\.1))
        #expect(
            FormURLEncoding.encode(parameters)
                == "redirect_uri=http%3A%2F%2F127.0.0.1%3A53682%2Fcb%3Fx%3D1%26y%3D2&scope=openid%20email&n%2Bm=100%25%20%E2%9C%93")
    }
}

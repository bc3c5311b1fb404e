import AuthCore
import Foundation
import Testing

/// git's credential-helper protocol (git-credential(1)): what `authctl git-credential` reads
/// from git and what it answers.
@Suite("git credential descriptions")
struct GitCredentialDescriptionTests {
    typealias Attribute = GitCredentialDescription.Attribute

    static let fromGit = """
        capability[]=authtype
        capability[]=state
        protocol=https
        host=dev.azure.com
        path=contoso/project/_git/repo
        username=contoso
        wwwauth[]=Bearer authorization_uri=https://login.microsoftonline.com/common
        wwwauth[]=Basic realm="https://tfsprodweu2.visualstudio.com/"

        password=this is after the blank line and not read
        """

    @Test("git's description is read up to the blank line: keys, the last value of a key, lists, the capability")
    func readsWhatGitSends() throws {
        let description = try GitCredentialDescription.parse(Self.fromGit)
        #expect(description["protocol"] == "https")
        #expect(description["host"] == "dev.azure.com")
        #expect(description["path"] == "contoso/project/_git/repo")
        #expect(description["username"] == "contoso")
        #expect(description["password"] == nil, "nothing after the blank line is read")
        #expect(description.values(of: "wwwauth[]").count == 2)
        #expect(description.values(of: "wwwauth[]").last == #"Basic realm="https://tfsprodweu2.visualstudio.com/""#)
        #expect(description.announces("authtype"))
        #expect(!description.announces("nosuch"))
        // A value holds '=' as is; a key given twice keeps its last value.
        let twice = try GitCredentialDescription.parse("host=a\nhost=b\nusername=x=y\n")
        #expect(twice["host"] == "b" && twice["username"] == "x=y")
        // CRLF line endings and the end of input without a blank line.
        let crlf = try GitCredentialDescription.parse("protocol=https\r\nhost=example.com")
        #expect(crlf["protocol"] == "https" && crlf["host"] == "example.com")
    }

    @Test("an empty value of a multi-valued key clears the list before it (git-credential(1))")
    func emptyValueClearsTheList() throws {
        let description = try GitCredentialDescription.parse("capability[]=authtype\ncapability[]=\ncapability[]=state\n")
        #expect(description.values(of: "capability[]") == ["state"])
        #expect(!description.announces("authtype"), "a capability cleared by git is not announced")
    }

    @Test("a description round-trips: written, then read, it is the same description")
    func roundTrip() throws {
        let description = GitCredentialDescription([
            Attribute("capability[]", "authtype"), Attribute("authtype", "Bearer"), Attribute("credential", "eyJ0.eyJ1.c2ln"),
            Attribute("ephemeral", "true"), Attribute("username", "ada@example.com"), Attribute("password", "a=b c"),
            Attribute("password_expiry_utc", "1795000000"), Attribute("wwwauth[]", "Basic realm=\"x\""),
        ])
        let text = try description.encoded()
        #expect(text.hasPrefix("capability[]=authtype\nauthtype=Bearer\n"))
        #expect(try GitCredentialDescription.parse(text) == description)
    }

    @Test("a value or key that would inject another attribute (newline, CR, NUL, '=' in a key) is never written")
    func noInjection() {
        for attribute in [
            Attribute("password", "token\npassword=other"), Attribute("password", "token\r"), Attribute("password", "a\u{0}b"),
            Attribute("user=name", "x"), Attribute("", "x"), Attribute("a\nb", "x"),
        ] {
            #expect(throws: AuthError.self, "\(attribute.key.debugDescription)") { try GitCredentialDescription([attribute]).encoded() }
        }
    }

    @Test("input git would never send is refused: a line without '=', a NUL byte")
    func malformed() {
        for text in ["protocol=https\nnot an attribute\n", "host=a\u{0}b\n"] {
            #expect(throws: AuthError.self) { try GitCredentialDescription.parse(text) }
        }
    }

    @Test("the description is bounded: a line over 8 KiB or more than 64 KiB in all is refused without reading further")
    func bounded() throws {
        let longLine = "wwwauth[]=" + String(repeating: "x", count: GitCredentialDescription.maximumLineBytes)
        #expect(throws: AuthError.self) { try GitCredentialDescription.parse("protocol=https\n\(longLine)\n") }
        let justFits = "k=" + String(repeating: "x", count: GitCredentialDescription.maximumLineBytes - 2)
        #expect(try GitCredentialDescription.parse(justFits)["k"]?.count == GitCredentialDescription.maximumLineBytes - 2)
        // Many lines, each short, past the total; the reader stops at the first line too many.
        var served = 0
        let line = "wwwauth[]=" + String(repeating: "y", count: 1000)
        #expect(throws: AuthError.self) {
            try GitCredentialDescription.read { limit in
                #expect(limit == GitCredentialDescription.maximumLineBytes)
                served += 1
                return served > 10_000 ? nil : line
            }
        }
        #expect(served == GitCredentialDescription.maximumBytes / (line.utf8.count + 1) + 1)
    }

    @Test("get's answer: Basic with the token as password and a username, unless git announced authtype: then a Bearer credential")
    func answer() throws {
        let expiry = Date(timeIntervalSince1970: 1_795_000_000)
        let old = try GitCredentialDescription.parse("protocol=https\nhost=dev.azure.com\n")
        let basic = GitCredential.answer(to: old, token: "at-1", tokenType: "Bearer", expiresAt: expiry, username: "ada@example.com")
        #expect(try basic.encoded() == "username=ada@example.com\npassword=at-1\npassword_expiry_utc=1795000000\n")
        // git's own username stays git's (from the URL, `https://contoso@dev.azure.com/…`).
        let named = try GitCredentialDescription.parse("protocol=https\nhost=dev.azure.com\nusername=contoso\n")
        let kept = GitCredential.answer(to: named, token: "at-1", tokenType: "Bearer", expiresAt: nil, username: "ada@example.com")
        #expect(try kept.encoded() == "password=at-1\n")

        let new = try GitCredentialDescription.parse("capability[]=authtype\nprotocol=https\nhost=dev.azure.com\n")
        let bearer = GitCredential.answer(to: new, token: "at-1", tokenType: "bearer", expiresAt: expiry, username: "ada@example.com")
        #expect(
            try bearer.encoded()
                == "capability[]=authtype\nauthtype=Bearer\ncredential=at-1\nephemeral=true\npassword_expiry_utc=1795000000\n")
        #expect(bearer["password"] == nil && bearer["username"] == nil)
    }
}

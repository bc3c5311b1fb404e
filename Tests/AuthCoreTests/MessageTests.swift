import AuthCore
import Testing

/// `Message`: words for a person whose commands and inputs are values (issue 13: no
/// command-line text in AuthCore).
@Suite("Messages with commands and inputs as values")
struct MessageTests {
    @Test("interpolation keeps commands and inputs as values and joins the text around them")
    func parts() {
        let provider = "oidc.work"
        let message: Message = "\(provider) has no issuer. Set it with: \(command: .providersAdd, "\(provider)", .input(.issuer, "URL"))"
        #expect(
            message.parts == [
                .text("oidc.work has no issuer. Set it with: "), .command(.providersAdd, [.value("oidc.work"), .input(.issuer, "URL")]),
            ])
        #expect(message.names(.providersAdd) && message.names(input: .issuer) && !message.names(input: .tenant))
    }

    @Test("the core's own spelling is neutral: no program name, no dashes")
    func neutral() {
        let message: Message = "the port is in use. Choose another with \(input: .listenAddress), or run \(command: .usersList)"
        #expect(message.description == "the port is in use. Choose another with ‹listenAddress›, or run ‹usersList›")
        #expect(!message.description.contains("authctl") && !message.description.contains("--"))
    }

    @Test("a front end spells each part its own way")
    func spelling() {
        let message: Message = "run \(command: .link, .input(.pending, "pc_1")) or give \(inputs: [.clientID, .teamID], separator: ", ")"
        let words = message.spelled(
            command: { verb, arguments in "<\(verb.rawValue) \(arguments.count)>" }, input: { "[\($0.rawValue)]" })
        #expect(words == "run <link 1> or give [clientID], [teamID]")
    }

    @Test("the first sentence is what failed, without what to do; a trailing full stop is dropped")
    func firstSentence() {
        let twoSentences: Message = "the code was refused. Sign in again: \(command: .login, "microsoft")"
        #expect(twoSentences.firstSentence == "the code was refused")
        #expect(Message(verbatim: "nothing to do.").firstSentence == "nothing to do")
        #expect(Message(verbatim: "version 1.2 failed").firstSentence == "version 1.2 failed")
        #expect(("a sentence." as Message).dropping(suffix: ".") == "a sentence")
    }
}

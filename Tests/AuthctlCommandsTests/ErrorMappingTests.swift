import ArgumentParser
import AuthCore
import Foundation
import Testing

@testable import AuthctlCommands

/// main.swift's catch-all, extracted (`ErrorMapping`): authctl's own errors keep their code,
/// ArgumentParser's usage errors are invalid-argument (2), anything else is a bug (1).
@Suite("Errors are mapped to docs/exit-codes.md exit statuses")
struct ErrorMappingTests {
    func status(_ error: any Error) -> Int32? {
        switch ErrorMapping.outcome(for: error) {
        case .report(let error): error.code.exitStatus
        case .exit(let status): status
        case .argumentParserOutput: nil
        case .interrupted: ErrorMapping.interruptedStatus
        }
    }

    @Test("an error that is not authctl's (a decoding error, a file error) is an internal error (1) that asks for a bug report")
    func unexpected() throws {
        let decoding = Result { try JSONDecoder().decode([String].self, from: Data("{".utf8)) }
        let errors: [any Error] = [
            try #require(decoding.failure), CocoaError(.fileReadNoSuchFile), URLError(.badURL), POSIXError(.EIO),
        ]
        for error in errors {
            #expect(status(error) == 1, "\(error)")
            guard case .report(let report) = ErrorMapping.outcome(for: error) else { continue }
            #expect(report.code == .internalError && report.message.contains("report"), "\(report.message)")
        }
    }

    @Test("ArgumentParser's usage errors stay invalid-argument (2): an unknown option, a missing value, a ValidationError")
    func usage() {
        for arguments in [
            ["--no-such-option"], ["login", "--timeout"], ["token", "a", "b"], ["no-such-command"], ["login", "--timeout", "-1"],
        ] {
            let error = Result { try Authctl.parseAsRoot(arguments) }.failure
            #expect(error.map(status) == 2, "\(arguments): \(String(describing: error))")
        }
        #expect(status(ValidationError("bad")) == 2)
        #expect(status(AuthError.notConfigured("x")) == 7 && status(CancellationError()) == 5 && status(ExitCode(3)) == 3)
        #expect(ErrorMapping.outcome(for: CleanExit.helpRequest()) == .argumentParserOutput, "help is ArgumentParser's output")
        #expect(ErrorMapping.outcome(for: CancellationError(), signsIn: false) == .interrupted("cancelled (Ctrl-C); nothing was changed"))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// The exit-status table lives in the command line (`ExitStatus`), not in the library.
@Suite("Every error code exits with its docs/exit-codes.md status")
struct ExitStatusTests {
    /// docs/exit-codes.md's table, as written there.
    static let spec: [String: Int32] = [
        "internal-error": 1, "invalid-argument": 2, "network-request-failed": 3, "invalid-credential": 4,
        "web-context-cancelled": 5, "keystore-error": 6, "provider-not-configured": 7,
        "account-exists-with-different-credential": 10, "credential-already-in-use": 11, "provider-already-linked": 12,
        "no-such-provider": 13, "user-mismatch": 14, "requires-recent-login": 15, "no-current-user": 16,
        "tenant-id-mismatch": 17, "consent-required": 18, "user-disabled": 19, "user-token-expired": 20,
        "step-up-required": 21, "resource-error": 22, "command-not-executable": 126, "command-not-found": 127,
    ]

    @Test("each code has a row in the table, with the status docs/exit-codes.md gives it")
    func everyCode() {
        #expect(Set(ExitStatus.byCode.keys) == Set(AuthError.Code.allCases))
        // docs/exit-codes.md, docs/firebase.md: the Firebase backend's two codes.
        #expect(AuthError.Code.userDisabled.exitStatus == 19 && AuthError.Code.userDisabled.rawValue == "user-disabled")
        #expect(AuthError.Code.userTokenExpired.exitStatus == 20 && AuthError.Code.userTokenExpired.rawValue == "user-token-expired")
        for code in AuthError.Code.allCases {
            #expect(Self.spec[code.rawValue] != nil, "\(code) is not in docs/exit-codes.md")
            #expect(ExitStatus.byCode[code] == Self.spec[code.rawValue], "\(code)")
            #expect(code.exitStatus == Self.spec[code.rawValue], "\(code)")
        }
    }

    @Test("an error report exits with its code's status")
    func reported() {
        #expect(ErrorMapping.outcome(for: AuthError.keystore("x")) == .report(.keystore("x")))
        #expect(AuthError.Code.tenantIDMismatch.exitStatus == 17 && AuthError.Code.consentRequired.exitStatus == 18)
    }
}

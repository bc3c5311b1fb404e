import AuthCore

/// docs/exit-codes.md: the process exit status of each error code, in one table. The library knows
/// only the codes; what a shell sees is the command line's business.
enum ExitStatus {
    static let byCode: [AuthError.Code: Int32] = [
        .internalError: 1,
        .invalidArgument: 2,
        .networkRequestFailed: 3,
        .invalidCredential: 4,
        .webContextCancelled: 5,
        .keystoreError: 6,
        .providerNotConfigured: 7,
        .accountExistsWithDifferentCredential: 10,
        .credentialAlreadyInUse: 11,
        .providerAlreadyLinked: 12,
        .noSuchProvider: 13,
        .userMismatch: 14,
        .requiresRecentLogin: 15,
        .noCurrentUser: 16,
        .tenantIDMismatch: 17,
        .consentRequired: 18,
        .userDisabled: 19,
        .userTokenExpired: 20,
        .stepUpRequired: 21,
        .resourceError: 22,
        .commandNotExecutable: 126,
        .commandNotFound: 127,
    ]
}

extension AuthError.Code {
    /// The exit status of docs/exit-codes.md; a code the table lacks (none: a test holds every code to
    /// it) would be a bug, so `internal-error`'s 1.
    var exitStatus: Int32 { ExitStatus.byCode[self] ?? 1 }
}

#ifndef AUTHCTL_SUPPORT_H
#define AUTHCTL_SUPPORT_H

/// The commit authctl was built from (`git rev-parse --short=12 HEAD`, with `-dirty` for a
/// work tree with uncommitted changes), as the build scripts pass it in AUTHCTL_COMMIT;
/// "unknown" for a plain `swift build`.
const char *authctl_build_commit(void);

#endif

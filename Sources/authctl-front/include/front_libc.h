// The C library as the front (authctl's token front executable) sees it: Embedded Swift
// imports no Glibc module, so these headers are imported through this module instead.
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static inline int front_errno(void) { return errno; }
// open and openat are variadic, which Swift cannot call.
static inline int front_open(const char *path, int flags) { return open(path, flags); }
static inline int front_openat(int directory, const char *path, int flags) { return openat(directory, path, flags); }
// The hand-over (FrontIO.swift): the full program's directories opened as paths only (no
// read permission needed) and checked on those descriptors; the program executed by its name
// in the checked directory (execveat: its process name stays `authctl`, as with a path).
#include <sys/syscall.h>
#ifndef O_PATH
#define O_PATH 010000000
#endif
static inline int front_open_path(int directory, const char *path, int flags) {
    return openat(directory, path, O_PATH | O_CLOEXEC | flags);
}
static inline int front_execveat(int directory, const char *name, char *const argv[]) {
    extern char **environ;
    return (int)syscall(SYS_execveat, directory, name, argv, environ, 0);
}

// AES-256-GCM from BoringSSL (swift-crypto's CCryptoBoringSSL, its symbols prefixed), for a
// keystore sealed with a key file: the prototypes of its AEAD interface (CCryptoBoringSSL_aead.h).
#include <stddef.h>
#include <stdint.h>
typedef struct evp_aead_st front_EVP_AEAD;
typedef struct evp_aead_ctx_st front_EVP_AEAD_CTX;
const front_EVP_AEAD *CCryptoBoringSSL_EVP_aead_aes_256_gcm(void);
front_EVP_AEAD_CTX *CCryptoBoringSSL_EVP_AEAD_CTX_new(const front_EVP_AEAD *aead, const uint8_t *key, size_t key_len, size_t tag_len);
int CCryptoBoringSSL_EVP_AEAD_CTX_open(const front_EVP_AEAD_CTX *ctx, uint8_t *out, size_t *out_len, size_t max_out_len,
                                       const uint8_t *nonce, size_t nonce_len, const uint8_t *in, size_t in_len,
                                       const uint8_t *ad, size_t ad_len);
void CCryptoBoringSSL_EVP_AEAD_CTX_free(front_EVP_AEAD_CTX *ctx);

// git-credential (FrontGit.swift): git's description, read from stdin to decide, handed to the
// full program on a new stdin holding the very bytes read (a pipe filled before the exec; a
// child writes what does not fit). 0, or -1 (errno set) when stdin could not be replaced.
#include <sys/types.h>
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031
#define F_GETPIPE_SZ 1032
#endif
static inline int front_write_all(int fd, const unsigned char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return -1;
        bytes += written;
        count -= (size_t)written;
    }
    return 0;
}
static inline int front_replay_stdin(const unsigned char *bytes, size_t count) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    if (count > 65536) (void)fcntl(fds[1], F_SETPIPE_SZ, (int)count);
    int capacity = fcntl(fds[1], F_GETPIPE_SZ);
    if (capacity >= 0 && (size_t)capacity >= count) {
        if (front_write_all(fds[1], bytes, count) != 0) { close(fds[0]); close(fds[1]); return -1; }
    } else {
        pid_t child = fork();
        if (child < 0) { close(fds[0]); close(fds[1]); return -1; }
        if (child == 0) {
            close(fds[0]);
            _exit(front_write_all(fds[1], bytes, count) == 0 ? 0 : 1);
        }
    }
    close(fds[1]);
    if (dup2(fds[0], 0) < 0) { close(fds[0]); return -1; }
    if (fds[0] != 0) close(fds[0]);
    return 0;
}

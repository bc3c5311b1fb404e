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

// authctl-request (FrontRequest.swift): libcurl's easy interface, loaded with dlopen as the full
// program loads it (lazy binding, docs/security.md "Loading libcurl"), so that a machine
// without libcurl gets the full program's message; curl_easy_setopt and curl_easy_getinfo are
// variadic, called here with each argument type. Compiled only where used (the request program).
#include <dlfcn.h>
#include <signal.h>
typedef struct front_curl {
    int (*global_init)(long flags);
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *easy);
    int (*easy_perform)(void *easy);
    const char *(*easy_strerror)(int code);
    void *(*slist_append)(void *list, const char *line);
    void (*slist_free_all)(void *list);
    void *setopt;
    void *getinfo;
} front_curl;
static inline int front_curl_load(front_curl *curl) {
    void *handle = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
    if (handle == 0) handle = dlopen("libcurl.so", RTLD_LAZY | RTLD_LOCAL);
    if (handle == 0) return -1;
    void **fields[] = {(void **)&curl->global_init, (void **)&curl->easy_init, (void **)&curl->easy_cleanup,
                       (void **)&curl->easy_perform, (void **)&curl->easy_strerror, (void **)&curl->slist_append,
                       (void **)&curl->slist_free_all, &curl->setopt, &curl->getinfo};
    const char *names[] = {"curl_global_init", "curl_easy_init", "curl_easy_cleanup", "curl_easy_perform", "curl_easy_strerror",
                           "curl_slist_append", "curl_slist_free_all", "curl_easy_setopt", "curl_easy_getinfo"};
    for (int index = 0; index < 9; index++) {
        *fields[index] = dlsym(handle, names[index]);
        if (*fields[index] == 0) return -1;
    }
    return curl->global_init(3) == 0 ? 0 : -1;  // CURL_GLOBAL_DEFAULT
}
static inline void *front_curl_easy_init(const front_curl *curl) { return curl->easy_init(); }
static inline void front_curl_easy_cleanup(const front_curl *curl, void *easy) { curl->easy_cleanup(easy); }
static inline int front_curl_easy_perform(const front_curl *curl, void *easy) { return curl->easy_perform(easy); }
static inline const char *front_curl_easy_strerror(const front_curl *curl, int code) { return curl->easy_strerror(code); }
static inline void *front_curl_slist_append(const front_curl *curl, void *list, const char *line) {
    return curl->slist_append(list, line);
}
static inline void front_curl_slist_free_all(const front_curl *curl, void *list) { curl->slist_free_all(list); }
typedef int (*front_curl_setopt_fn)(void *easy, int option, ...);
static inline int front_curl_setopt_long(const front_curl *curl, void *easy, int option, long value) {
    return ((front_curl_setopt_fn)curl->setopt)(easy, option, value);
}
static inline int front_curl_setopt_pointer(const front_curl *curl, void *easy, int option, const void *value) {
    return ((front_curl_setopt_fn)curl->setopt)(easy, option, value);
}
static inline int front_curl_setopt_offset(const front_curl *curl, void *easy, int option, long long value) {
    return ((front_curl_setopt_fn)curl->setopt)(easy, option, value);
}
typedef size_t (*front_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline int front_curl_setopt_data_callback(const front_curl *curl, void *easy, int option, front_curl_data_callback callback) {
    return ((front_curl_setopt_fn)curl->setopt)(easy, option, callback);
}
typedef int (*front_curl_progress_callback)(void *context, long long total, long long now, long long upTotal, long long upNow);
static inline int front_curl_setopt_progress(const front_curl *curl, void *easy, int option, front_curl_progress_callback callback) {
    return ((front_curl_setopt_fn)curl->setopt)(easy, option, callback);
}
static inline int front_curl_getinfo_long(const front_curl *curl, void *easy, int info, long *value) {
    return ((int (*)(void *, int, ...))curl->getinfo)(easy, info, value);
}
// Ctrl-C during the transfer: a flag the progress callback reads (the full program cancels its
// transfer the same way), then the full program's words and exit 130. A closed stdout fails its
// write (EPIPE) instead of ending the program: exit 141 without a message, as the full program.
// (A function's own static: Swift emits the functions of this header it calls, not its variables.)
static inline volatile sig_atomic_t *front_interrupted_slot(void) {
    static volatile sig_atomic_t interrupted;
    return &interrupted;
}
static void front_on_interrupt(int signal) {
    (void)signal;
    *front_interrupted_slot() = 1;
}
static inline void front_request_signals(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = front_on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, 0);
    signal(SIGPIPE, SIG_IGN);
}
static inline _Bool front_fd_is_open(int fd) { return fcntl(fd, F_GETFD) != -1; }
static inline int front_interrupted(void) { return *front_interrupted_slot(); }
static inline double front_monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

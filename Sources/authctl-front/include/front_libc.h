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

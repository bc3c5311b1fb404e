/* The C floor of the token hot path (issue 24): reads the keystore file (at most 64 KiB, as
 * authctl's scan reads its first window) and prints the first user's access token — what
 * `authctl token` prints from a keystore make-keystore.py wrote (the current user first). No
 * JSON parsing beyond finding the key: the least any program that reads the file can do.
 * bench/token-hot-path.sh builds it twice: static and dynamic (PIE). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    static char buffer[65536 + 1];
    if (argc != 2) return 2;
    int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 1;
    ssize_t count = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (count <= 0) return 1;
    buffer[count] = 0;
    const char *key = strstr(buffer, "\"accessToken\"");
    if (!key) return 1;
    const char *start = strchr(key + 13, '"');
    if (!start) return 1;
    start++;
    const char *end = strchr(start, '"');
    if (!end) return 1;
    fwrite(start, 1, (size_t)(end - start), stdout);
    fputc('\n', stdout);
    return 0;
}

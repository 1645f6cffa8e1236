// syncfs(2): a GNU extension the Swift Glibc module does not show.
#define _GNU_SOURCE
#include <unistd.h>
#include "CLinux.h"

int lodestone_syncfs(int fd) {
    return syncfs(fd);
}

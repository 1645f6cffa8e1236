#include "CLinux.h"

#include <sys/socket.h>
#include <sys/uio.h>

// Two pieces (a report line and its ending) in one send, straight from where they lie: a
// client that takes them at once costs no copy into its queue. MSG_NOSIGNAL: a client gone
// is an error returned, not a SIGPIPE.
long lodestone_send_two(int fd, const void *first, unsigned long firstLength, const void *second, unsigned long secondLength) {
    struct iovec pieces[2] = {
        {.iov_base = (void *)first, .iov_len = firstLength},
        {.iov_base = (void *)second, .iov_len = secondLength},
    };
    struct msghdr message = {.msg_iov = pieces, .msg_iovlen = 2};
    return (long)sendmsg(fd, &message, MSG_NOSIGNAL);
}

// chrony's SOCK refclock sample: chrony reads datagrams of exactly this layout (its
// refclock_sock.c documents it), so it is built here with the platform's own struct timeval
// (its size differs between 32- and 64-bit boards).
#include "CLinux.h"
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>

struct lodestone_sock_sample {
    struct timeval tv;   // the system time of the measurement
    double offset;       // true time minus system time, seconds
    int pulse;           // non-zero: a PPS edge (the seconds come from another source)
    int leap;            // 0 none, 1 insert, 2 delete
    int pad;
    int magic;           // 0x534f434b, "SOCK"
};

long lodestone_chrony_send(int fd, const char *path, long long seconds, long microseconds, double offset, int pulse, int leap) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    size_t length = strlen(path);
    if (length >= sizeof address.sun_path) return -1;
    memcpy(address.sun_path, path, length);
    struct lodestone_sock_sample sample;
    memset(&sample, 0, sizeof sample);
    sample.tv.tv_sec = (time_t)seconds;
    sample.tv.tv_usec = (suseconds_t)microseconds;
    sample.offset = offset;
    sample.pulse = pulse;
    sample.leap = leap;
    sample.magic = 0x534f434b;
    return (long)sendto(fd, &sample, sizeof sample, MSG_DONTWAIT, (struct sockaddr *)&address, sizeof address);
}

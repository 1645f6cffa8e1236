#define _GNU_SOURCE
#include "CLinux.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <pty.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <signal.h>
#include <unistd.h>

int lodestone_i2c_set_address(int fd, int address) {
    return ioctl(fd, I2C_SLAVE, (unsigned long)address);
}

int lodestone_i2c_functionality(int fd, unsigned long *functions) {
    return ioctl(fd, I2C_FUNCS, functions);
}

int lodestone_i2c_write_read(int fd, int address, const uint8_t *write, uint16_t writeLength,
                             uint8_t *read, uint16_t readLength) {
    struct i2c_msg messages[2] = {
        { .addr = (uint16_t)address, .flags = 0, .len = writeLength, .buf = (uint8_t *)write },
        { .addr = (uint16_t)address, .flags = I2C_M_RD, .len = readLength, .buf = read },
    };
    struct i2c_rdwr_ioctl_data transfer = { .msgs = messages, .nmsgs = 2 };
    return ioctl(fd, I2C_RDWR, &transfer) < 0 ? -1 : 0;
}

int lodestone_set_nonblocking(int fd, int enabled) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    flags = enabled ? (flags | O_NONBLOCK) : (flags & ~O_NONBLOCK);
    return fcntl(fd, F_SETFL, flags);
}

int lodestone_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

int lodestone_pin_to_cpu(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set);
}

int lodestone_unpin(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof(set), &set);
}

int lodestone_openpty(int *controller, int *peripheral, char *name, size_t nameLength) {
    char path[128];
    if (openpty(controller, peripheral, path, NULL, NULL) < 0) return -1;
    if (name && nameLength > 0) {
        strncpy(name, path, nameLength - 1);
        name[nameLength - 1] = 0;
    }
    return 0;
}

int lodestone_bytes_available(int fd) {
    int count = 0;
    if (ioctl(fd, FIONREAD, &count) < 0) return -1;
    return count;
}

int lodestone_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

int lodestone_set_cloexec(int fd) {
    int flags = fcntl(fd, F_GETFD);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

int lodestone_stop_signal_fd(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    // Writing to a socket whose reader has gone must not kill the process.
    signal(SIGPIPE, SIG_IGN);
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

int lodestone_read_signal(int fd) {
    struct signalfd_siginfo info;
    ssize_t count = read(fd, &info, sizeof(info));
    if (count != (ssize_t)sizeof(info)) return -1;
    return (int)info.ssi_signo;
}

#include <linux/fb.h>

int lodestone_framebuffer_info(int fd, lodestone_fb_info *info) {
    struct fb_var_screeninfo var;
    struct fb_fix_screeninfo fix;
    if (ioctl(fd, FBIOGET_VSCREENINFO, &var) < 0) return -1;
    if (ioctl(fd, FBIOGET_FSCREENINFO, &fix) < 0) return -1;
    info->width = var.xres;
    info->height = var.yres;
    info->bitsPerPixel = var.bits_per_pixel;
    info->redOffset = var.red.offset;
    info->greenLength = var.green.length;
    info->lineLength = fix.line_length;
    info->memoryLength = fix.smem_len;
    info->monoSetBitIsWhite = fix.visual == FB_VISUAL_MONO10;
    return 0;
}

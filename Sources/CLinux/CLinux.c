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
#include <stdlib.h>
#include <termios.h>
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

int lodestone_terminal_size(int fd, int *columns, int *rows) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) < 0 || size.ws_col == 0) return -1;
    *columns = size.ws_col;
    *rows = size.ws_row;
    return 0;
}

// What the terminal looked like before; restored from a signal handler, so only
// async-signal-safe calls (tcsetattr, write) touch it there.
static struct termios saved_terminal;
static volatile sig_atomic_t terminal_taken = 0;
static int terminal_fd = -1;
static const char leave_sequence[] = "\033[0m\033[?1049l\033[?25h";

void lodestone_terminal_restore(void) {
    if (!terminal_taken) return;
    terminal_taken = 0;
    tcsetattr(terminal_fd, TCSAFLUSH, &saved_terminal);
    ssize_t ignored = write(terminal_fd, leave_sequence, sizeof(leave_sequence) - 1);
    (void)ignored;
}

static void restore_and_die(int signal_number) {
    lodestone_terminal_restore();
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

int lodestone_terminal_take(int fd) {
    if (terminal_taken) return 0;
    // A job in the background (`lodestone run &`) would be stopped by SIGTTOU on tcsetattr:
    // it leaves the terminal's modes alone.
    if (tcgetpgrp(fd) != getpgrp()) return -1;
    if (tcgetattr(fd, &saved_terminal) < 0) return -1;
    struct termios raw = saved_terminal;
    raw.c_lflag &= ~(ICANON | ECHO);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(fd, TCSAFLUSH, &raw) < 0) return -1;
    terminal_fd = fd;
    terminal_taken = 1;
    static int registered = 0;
    if (!registered) {
        registered = 1;
        atexit(lodestone_terminal_restore);
        int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
        for (unsigned i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) signal(fatal[i], restore_and_die);
    }
    static const char enter[] = "\033[?1049h\033[?25l\033[H\033[2J";
    ssize_t ignored = write(fd, enter, sizeof(enter) - 1);
    (void)ignored;
    return 0;
}

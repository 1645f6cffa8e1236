// Thin C wrappers for Linux calls that Swift cannot make directly: variadic functions
// (ioctl, fcntl, prctl) and macros (CPU_SET). Each returns -1 and leaves errno set on failure.
#ifndef LODESTONE_CLINUX_H
#define LODESTONE_CLINUX_H

#include <stdint.h>
#include <stddef.h>

/// Selects the peripheral address on an i2c-dev file descriptor (I2C_SLAVE).
int lodestone_i2c_set_address(int fd, int address);
/// Reads the adapter's capability mask (I2C_FUNCS).
int lodestone_i2c_functionality(int fd, unsigned long *functions);
/// A combined write-then-read transfer with a repeated start (I2C_RDWR).
int lodestone_i2c_write_read(int fd, int address, const uint8_t *write, uint16_t writeLength,
                             uint8_t *read, uint16_t readLength);

/// Switches a descriptor between blocking and non-blocking mode.
int lodestone_set_nonblocking(int fd, int enabled);
/// Sets the calling thread's timer slack in nanoseconds (PR_SET_TIMERSLACK).
int lodestone_set_timer_slack(unsigned long nanoseconds);
/// Pins the calling thread to one CPU.
int lodestone_pin_to_cpu(int cpu);
/// Lets the calling thread run on every CPU again.
int lodestone_unpin(void);
/// Opens a pseudo-terminal pair; the names are written into `name` (size `nameLength`).
int lodestone_openpty(int *controller, int *peripheral, char *name, size_t nameLength);
/// Bytes waiting to be read on a descriptor (FIONREAD).
int lodestone_bytes_available(int fd);
/// Sets the process name shown in ps/top for the calling thread (PR_SET_NAME).
int lodestone_set_thread_name(const char *name);

/// Marks a descriptor close-on-exec (FD_CLOEXEC).
int lodestone_set_cloexec(int fd);
/// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread (threads started afterwards inherit
/// the mask) and returns a signalfd that becomes readable when one arrives.
int lodestone_stop_signal_fd(void);
/// Reads one pending signal from a signalfd; returns its number, or -1.
int lodestone_read_signal(int fd);

/// What a framebuffer device (/dev/fbN) holds: the visible size, bits per pixel, the red
/// channel's bit offset (to tell XRGB from XBGR), bytes per line, the mapped length, and
/// for 1-bit displays whether a set bit is white (FB_VISUAL_MONO10).
typedef struct {
    uint32_t width, height, bitsPerPixel, redOffset, greenLength, lineLength;
    uint32_t memoryLength;
    int monoSetBitIsWhite;
} lodestone_fb_info;

/// Fills `info` from FBIOGET_VSCREENINFO and FBIOGET_FSCREENINFO.
int lodestone_framebuffer_info(int fd, lodestone_fb_info *info);

/// The size of the terminal on `fd` in character cells (TIOCGWINSZ); -1 when it is not one.
int lodestone_terminal_size(int fd, int *columns, int *rows);
/// Takes over the terminal on `fd` for a full-screen display: keys arrive one at a time
/// without echo (signals such as Ctrl-C still work), the alternate screen, cursor hidden.
/// The terminal is put back by lodestone_terminal_restore, at exit, and on a crash (SIGSEGV,
/// SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP restore it, then die as they would have).
/// Returns -1, changing nothing, when the process is not in the terminal's foreground.
int lodestone_terminal_take(int fd);
/// Puts back what lodestone_terminal_take changed; safe to call more than once.
void lodestone_terminal_restore(void);

/// The source revision the binary was built from (a git commit, or "unknown").
const char *lodestone_revision(void);

/// Swaps two paths in one step (renameat2 with RENAME_EXCHANGE): both must exist. Fails with
/// EINVAL on a file system that cannot (the caller then takes another way).
int lodestone_exchange_paths(const char *first, const char *second);

/// Flushes the whole file system holding `fd` to the disk (syncfs(2)): 0, or -1 and errno.
int lodestone_syncfs(int fd);

/// V4L2 (a camera): the device's capabilities (VIDIOC_QUERYCAP, device_caps when given).
int lodestone_v4l2_capabilities(int fd, uint32_t *capabilities);
/// Asks for a capture format (VIDIOC_S_FMT); the size and pixel format the driver chose are
/// written back.
int lodestone_v4l2_set_format(int fd, uint32_t *width, uint32_t *height, uint32_t *pixelFormat, uint32_t *bytesPerLine);
/// Memory-mapped buffers (VIDIOC_REQBUFS); the count granted is written back.
int lodestone_v4l2_request_buffers(int fd, uint32_t *count);
/// A buffer's place for mmap (VIDIOC_QUERYBUF).
int lodestone_v4l2_query_buffer(int fd, uint32_t index, uint32_t *offset, uint32_t *length);
/// Hands a buffer to the driver (VIDIOC_QBUF).
int lodestone_v4l2_queue(int fd, uint32_t index);
/// Takes a filled buffer back (VIDIOC_DQBUF): its index and the bytes used.
int lodestone_v4l2_dequeue(int fd, uint32_t *index, uint32_t *bytesUsed);
/// Starts or stops streaming (VIDIOC_STREAMON, VIDIOC_STREAMOFF).
int lodestone_v4l2_stream(int fd, int on);

/// One sample for chrony's SOCK refclock, sent as a datagram to its socket at `path`: the
/// system time of the measurement, the offset of the true time from it (seconds), whether it
/// is a pulse (PPS: only the fraction of the second is meant) and the leap indicator. The
/// layout is chrony's `struct sock_sample`, with this platform's `struct timeval`. Returns
/// the bytes sent or -1 with errno set.
long lodestone_chrony_send(int fd, const char *path, long long seconds, long microseconds, double offset, int pulse, int leap);

/// Sends `first` then `second` in one sendmsg (MSG_NOSIGNAL); the bytes sent, or -1 and errno.
long lodestone_send_two(int fd, const void *first, unsigned long firstLength, const void *second, unsigned long secondLength);
#endif

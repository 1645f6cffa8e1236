// The V4L2 calls a still camera needs, with the kernel's structures filled here (Swift cannot
// see the anonymous unions of <linux/videodev2.h>). Memory-mapped streaming capture only.
#include "CLinux.h"
#include <linux/videodev2.h>
#include <string.h>
#include <sys/ioctl.h>

int lodestone_v4l2_capabilities(int fd, uint32_t *capabilities) {
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    if (ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0) return -1;
    *capabilities = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
    return 0;
}

int lodestone_v4l2_set_format(int fd, uint32_t *width, uint32_t *height, uint32_t *pixelFormat, uint32_t *bytesPerLine) {
    struct v4l2_format format;
    memset(&format, 0, sizeof format);
    format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    format.fmt.pix.width = *width;
    format.fmt.pix.height = *height;
    format.fmt.pix.pixelformat = *pixelFormat;
    format.fmt.pix.field = V4L2_FIELD_NONE;
    if (ioctl(fd, VIDIOC_S_FMT, &format) < 0) return -1;
    *width = format.fmt.pix.width;
    *height = format.fmt.pix.height;
    *pixelFormat = format.fmt.pix.pixelformat;
    *bytesPerLine = format.fmt.pix.bytesperline;
    return 0;
}

int lodestone_v4l2_request_buffers(int fd, uint32_t *count) {
    struct v4l2_requestbuffers request;
    memset(&request, 0, sizeof request);
    request.count = *count;
    request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    request.memory = V4L2_MEMORY_MMAP;
    if (ioctl(fd, VIDIOC_REQBUFS, &request) < 0) return -1;
    *count = request.count;
    return 0;
}

int lodestone_v4l2_query_buffer(int fd, uint32_t index, uint32_t *offset, uint32_t *length) {
    struct v4l2_buffer buffer;
    memset(&buffer, 0, sizeof buffer);
    buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buffer.memory = V4L2_MEMORY_MMAP;
    buffer.index = index;
    if (ioctl(fd, VIDIOC_QUERYBUF, &buffer) < 0) return -1;
    *offset = buffer.m.offset;
    *length = buffer.length;
    return 0;
}

int lodestone_v4l2_queue(int fd, uint32_t index) {
    struct v4l2_buffer buffer;
    memset(&buffer, 0, sizeof buffer);
    buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buffer.memory = V4L2_MEMORY_MMAP;
    buffer.index = index;
    return ioctl(fd, VIDIOC_QBUF, &buffer);
}

int lodestone_v4l2_dequeue(int fd, uint32_t *index, uint32_t *bytesUsed) {
    struct v4l2_buffer buffer;
    memset(&buffer, 0, sizeof buffer);
    buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    buffer.memory = V4L2_MEMORY_MMAP;
    if (ioctl(fd, VIDIOC_DQBUF, &buffer) < 0) return -1;
    *index = buffer.index;
    *bytesUsed = buffer.bytesused;
    return 0;
}

int lodestone_v4l2_stream(int fd, int on) {
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    return ioctl(fd, on ? VIDIOC_STREAMON : VIDIOC_STREAMOFF, &type);
}

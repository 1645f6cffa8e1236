#define _GNU_SOURCE
#include "CAllocationCounter.h"

#include <stddef.h>
#include <errno.h>

// glibc exports its allocator under these names, so the interposer can forward to it
// without dlsym (which itself allocates).
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

// Sanitizers bring their own allocator interceptors; leave allocation to them.
#if defined(__has_feature)
#  if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#    define LODESTONE_NO_INTERPOSER 1
#  endif
#endif

#ifdef LODESTONE_NO_INTERPOSER
uint64_t lodestone_thread_allocations(void) { return 0; }
int lodestone_allocation_counter_active(void) { return 0; }
#else

static __thread uint64_t thread_allocations;

uint64_t lodestone_thread_allocations(void) { return thread_allocations; }
int lodestone_allocation_counter_active(void) { return 1; }

void *malloc(size_t size) {
    thread_allocations++;
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    thread_allocations++;
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    thread_allocations++;
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    thread_allocations++;
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    thread_allocations++;
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    thread_allocations++;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

#endif

// Counts heap allocations made by the calling thread, so the sampling loop can prove that it
// allocates nothing in steady state. Linked into the executable, it interposes malloc and
// friends and forwards to glibc; the cost is one thread-local increment per allocation.
#ifndef LODESTONE_ALLOCATION_COUNTER_H
#define LODESTONE_ALLOCATION_COUNTER_H

#include <stdint.h>

/// Allocations (malloc, calloc, realloc, memalign family) made by the calling thread so far.
uint64_t lodestone_thread_allocations(void);
/// 1 when the interposer is active in this process (it is when this library is linked in).
int lodestone_allocation_counter_active(void);

#endif

// Huge pages for the coefficient arrays, which both the turn and the split decode allocate.
#pragma once
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

// Arrays from this size on are advised onto huge pages (and the source's backed ahead): a
// smaller one holds at most one whole 2 MiB page once aligned.
static const size_t large_array_bytes = (size_t)4 << 20;

// The coefficient arrays are tens of megabytes touched once: in 4 KiB pages a 12 MP turn takes
// over 20,000 page faults, more time than the entropy decoding. Where transparent huge pages
// are offered on request (the "madvise" setting), the arrays ask for them.
static inline void advise_huge_pages(void *start, size_t length) {
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t begin = ((uintptr_t)start + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)start + length) & ~(huge - 1);
    if (end > begin) (void)madvise((void *)begin, end - begin, MADV_HUGEPAGE);
#else
    (void)start;
    (void)length;
#endif
}

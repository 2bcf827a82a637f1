// Placing a thread on a processor: sched_getaffinity/sched_setaffinity and the CPU_* macros,
// which Swift cannot call.
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>

#include "CImagingKernels.h"

void *pc_thread_pin(int index) {
    cpu_set_t *previous = malloc(sizeof(cpu_set_t));
    if (!previous) return NULL;
    if (sched_getaffinity(0, sizeof(cpu_set_t), previous) != 0 || CPU_COUNT(previous) < 2) {
        free(previous);
        return NULL;
    }
    int wanted = index % CPU_COUNT(previous), seen = 0;
    cpu_set_t one;
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, previous) && seen++ == wanted) {
            CPU_SET(cpu, &one);
            break;
        }
    }
    if (sched_setaffinity(0, sizeof(cpu_set_t), &one) != 0) {
        free(previous);
        return NULL;
    }
    return previous;
}

void pc_thread_unpin(void *previous) {
    if (!previous) return;
    sched_setaffinity(0, sizeof(cpu_set_t), previous);
    free(previous);
}

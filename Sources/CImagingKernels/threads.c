// Placing a thread on a processor: sched_getaffinity/sched_setaffinity and the CPU_* macros,
// which Swift cannot call.
#define _GNU_SOURCE
#include <sched.h>

#include "CImagingKernels.h"

int pc_thread_move(int index) {
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof(cpu_set_t), &allowed) != 0 || CPU_COUNT(&allowed) < 2) return -1;
    int wanted = index % CPU_COUNT(&allowed), seen = 0;
    cpu_set_t one;
    CPU_ZERO(&one);
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &allowed) && seen++ == wanted) {
            CPU_SET(cpu, &one);
            break;
        }
    }
    // Limited to one processor, the thread is moved there before the call returns.
    if (sched_setaffinity(0, sizeof(cpu_set_t), &one) != 0) return -1;
    int on = sched_getcpu();
    sched_setaffinity(0, sizeof(cpu_set_t), &allowed);
    return on;
}

// Linux-only file-descriptor APIs that Swift's Glibc module does not export: signalfd(2),
// timerfd_create(2), eventfd(2) and inotify(7). Header-only; no library to link (they live in libc).
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <signal.h>
#include <unistd.h>
#include <string.h>
#include <errno.h>
#include <time.h>

// Why: errno is a macro over a function call, which Swift cannot import.
static inline int clinux_errno(void) { return errno; }

// mallopt(3) and M_ARENA_MAX: malloc.h is not part of Swift's Glibc module.
#include <malloc.h>

#pragma once
#include <sys/types.h>
#include <mpg123.h>

// mpg123 renames its off_t functions through MPG123_LARGENAME when _FILE_OFFSET_BITS is set;
// Swift cannot follow a macro rename, so pin one spelling here.
static inline int shim_mpg123_open_fd(mpg123_handle *h, int fd) { return mpg123_open_fd(h, fd); }
static inline off_t shim_mpg123_tell(mpg123_handle *h) { return mpg123_tell(h); }
static inline off_t shim_mpg123_length(mpg123_handle *h) { return mpg123_length(h); }
static inline off_t shim_mpg123_seek(mpg123_handle *h, off_t sample, int whence) {
    return mpg123_seek(h, sample, whence);
}
// MPG123_API_VERSION is a plain #define Swift imports, but keep the version in one place.
static inline int shim_mpg123_api_version(void) { return MPG123_API_VERSION; }

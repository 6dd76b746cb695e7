#pragma once
#include <FLAC/stream_decoder.h>

// FLAC__VERSION_STRING is a mutable global (`extern const char *`), which Swift 6 will not read without a lock.
static inline const char *shim_flac_version(void) { return FLAC__VERSION_STRING; }
// The status-name tables are C arrays of unknown size, which Swift cannot import: look names up here.
static inline const char *shim_flac_init_status(FLAC__StreamDecoderInitStatus s) {
    return FLAC__StreamDecoderInitStatusString[s];
}
static inline const char *shim_flac_state(FLAC__StreamDecoderState s) { return FLAC__StreamDecoderStateString[s]; }
static inline const char *shim_flac_error_status(FLAC__StreamDecoderErrorStatus s) {
    return FLAC__StreamDecoderErrorStatusString[s];
}

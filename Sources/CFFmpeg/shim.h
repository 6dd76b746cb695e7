#pragma once
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>

// AVERROR(e) and AVERROR_EOF are macros built from other macros (FFERRTAG), which Swift cannot import.
static inline int shim_averror_eof(void) { return AVERROR_EOF; }
static inline int shim_averror_eagain(void) { return AVERROR(EAGAIN); }
// AV_NOPTS_VALUE is a cast expression ((int64_t)UINT64_C(0x8000000000000000)), not importable either.
static inline int64_t shim_av_nopts_value(void) { return AV_NOPTS_VALUE; }

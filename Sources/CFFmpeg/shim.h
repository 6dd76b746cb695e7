#pragma once
// FFmpeg's headers only: LibFFmpeg loads libavformat, libavcodec and libavutil with dlopen when the first MP4, WAV
// or AIFF file is played, because linking them maps about 130 shared libraries (every codec FFmpeg was built
// with) into the process at start, 25 MiB of resident memory a player of MP3 and FLAC never needs.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/samplefmt.h>

// AVERROR(e) and AVERROR_EOF are macros built from other macros (FFERRTAG), which Swift cannot import.
static inline int shim_averror_eof(void) { return AVERROR_EOF; }
static inline int shim_averror_eagain(void) { return AVERROR(EAGAIN); }
// AV_NOPTS_VALUE is a cast expression ((int64_t)UINT64_C(0x8000000000000000)), not importable either.
static inline int64_t shim_av_nopts_value(void) { return AV_NOPTS_VALUE; }

// The type of each function LibFFmpeg looks up with dlsym, taken from its own declaration so it cannot drift.
typedef __typeof__(&avformat_open_input) shim_avformat_open_input;
typedef __typeof__(&avformat_close_input) shim_avformat_close_input;
typedef __typeof__(&av_find_best_stream) shim_av_find_best_stream;
typedef __typeof__(&av_read_frame) shim_av_read_frame;
typedef __typeof__(&av_seek_frame) shim_av_seek_frame;
typedef __typeof__(&avcodec_find_decoder) shim_avcodec_find_decoder;
typedef __typeof__(&avcodec_alloc_context3) shim_avcodec_alloc_context3;
typedef __typeof__(&avcodec_free_context) shim_avcodec_free_context;
typedef __typeof__(&avcodec_parameters_to_context) shim_avcodec_parameters_to_context;
typedef __typeof__(&avcodec_open2) shim_avcodec_open2;
typedef __typeof__(&avcodec_send_packet) shim_avcodec_send_packet;
typedef __typeof__(&avcodec_receive_frame) shim_avcodec_receive_frame;
typedef __typeof__(&avcodec_flush_buffers) shim_avcodec_flush_buffers;
typedef __typeof__(&avcodec_get_name) shim_avcodec_get_name;
typedef __typeof__(&avcodec_version) shim_avcodec_version;
typedef __typeof__(&av_packet_alloc) shim_av_packet_alloc;
typedef __typeof__(&av_packet_free) shim_av_packet_free;
typedef __typeof__(&av_packet_unref) shim_av_packet_unref;
typedef __typeof__(&av_frame_alloc) shim_av_frame_alloc;
typedef __typeof__(&av_frame_free) shim_av_frame_free;
typedef __typeof__(&av_frame_unref) shim_av_frame_unref;
typedef __typeof__(&av_dict_set) shim_av_dict_set;
typedef __typeof__(&av_dict_free) shim_av_dict_free;
typedef __typeof__(&av_dict_get) shim_av_dict_get;
typedef __typeof__(&av_log_set_level) shim_av_log_set_level;
typedef __typeof__(&av_rescale_q) shim_av_rescale_q;
typedef __typeof__(&av_sample_fmt_is_planar) shim_av_sample_fmt_is_planar;
typedef __typeof__(&av_strerror) shim_av_strerror;

internal import CFFmpeg
internal import Glibc

/// The FFmpeg functions LibFFmpeg calls, looked up once with `dlopen`/`dlsym` in the libraries of the version
/// the headers are from (`libavformat.so.61` for FFmpeg 7). Loaded on first use, not at process start: linking
/// FFmpeg maps every codec library it was built with into the player, which a player of MP3 and FLAC must not
/// pay for (`make bench` shows what a decoder process holds).
struct FFmpegAPI {
    let avformat_open_input: shim_avformat_open_input
    let avformat_close_input: shim_avformat_close_input
    let av_find_best_stream: shim_av_find_best_stream
    let av_read_frame: shim_av_read_frame
    let av_seek_frame: shim_av_seek_frame
    let avcodec_find_decoder: shim_avcodec_find_decoder
    let avcodec_alloc_context3: shim_avcodec_alloc_context3
    let avcodec_free_context: shim_avcodec_free_context
    let avcodec_parameters_to_context: shim_avcodec_parameters_to_context
    let avcodec_open2: shim_avcodec_open2
    let avcodec_send_packet: shim_avcodec_send_packet
    let avcodec_receive_frame: shim_avcodec_receive_frame
    let avcodec_flush_buffers: shim_avcodec_flush_buffers
    let avcodec_get_name: shim_avcodec_get_name
    let avcodec_version: shim_avcodec_version
    let av_packet_alloc: shim_av_packet_alloc
    let av_packet_free: shim_av_packet_free
    let av_packet_unref: shim_av_packet_unref
    let av_frame_alloc: shim_av_frame_alloc
    let av_frame_free: shim_av_frame_free
    let av_frame_unref: shim_av_frame_unref
    let av_dict_set: shim_av_dict_set
    let av_dict_free: shim_av_dict_free
    let av_dict_get: shim_av_dict_get
    let av_rescale_q: shim_av_rescale_q
    let av_sample_fmt_is_planar: shim_av_sample_fmt_is_planar
    let av_strerror: shim_av_strerror

    /// The loaded API, or why it could not be loaded (a lazy `static let`: loaded exactly once, other threads
    /// wait for it).
    static let shared: Result<FFmpegAPI, FFmpegError> = load()

    private static func load() -> Result<FFmpegAPI, FFmpegError> {
        // libavutil first: the other two need it (dlopen resolves their DT_NEEDED entries itself, this is only
        // for a clear message naming the missing one).
        let names = [
            "libavutil.so.\(LIBAVUTIL_VERSION_MAJOR)", "libavcodec.so.\(LIBAVCODEC_VERSION_MAJOR)",
            "libavformat.so.\(LIBAVFORMAT_VERSION_MAJOR)",
        ]
        var handles: [UnsafeMutableRawPointer] = []
        for name in names {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                let reason = dlerror().map { String(cString: $0) } ?? name
                return .failure(
                    FFmpegError(function: "dlopen", code: -ENOENT, detail: "FFmpeg is not installed: \(reason)"))
            }
            handles.append(handle)
        }
        var missing: [String] = []
        let api = FFmpegAPI { name in
            for handle in handles {
                if let found = dlsym(handle, name) { return found }
            }
            missing.append(name)
            return nil
        }
        guard let api else {
            return .failure(
                FFmpegError(function: "dlsym", code: -ENOENT, detail: "FFmpeg lacks \(missing.joined(separator: ", "))"))
        }
        api.av_log_set_level(AV_LOG_QUIET)
        return .success(api)
    }

    /// Looks every function up with `symbol`; nil when one is missing.
    private init?(_ lookup: (String) -> UnsafeMutableRawPointer?) {
        func get<F>(_ name: String) -> F? { lookup(name).map { unsafeBitCast($0, to: F.self) } }
        guard let a: shim_avformat_open_input = get("avformat_open_input"),
            let b: shim_avformat_close_input = get("avformat_close_input"),
            let c: shim_av_find_best_stream = get("av_find_best_stream"),
            let d: shim_av_read_frame = get("av_read_frame"),
            let e: shim_av_seek_frame = get("av_seek_frame"),
            let f: shim_avcodec_find_decoder = get("avcodec_find_decoder"),
            let g: shim_avcodec_alloc_context3 = get("avcodec_alloc_context3"),
            let h: shim_avcodec_free_context = get("avcodec_free_context"),
            let i: shim_avcodec_parameters_to_context = get("avcodec_parameters_to_context"),
            let j: shim_avcodec_open2 = get("avcodec_open2"),
            let k: shim_avcodec_send_packet = get("avcodec_send_packet"),
            let l: shim_avcodec_receive_frame = get("avcodec_receive_frame"),
            let m: shim_avcodec_flush_buffers = get("avcodec_flush_buffers"),
            let n: shim_avcodec_get_name = get("avcodec_get_name"),
            let o: shim_avcodec_version = get("avcodec_version"),
            let p: shim_av_packet_alloc = get("av_packet_alloc"),
            let q: shim_av_packet_free = get("av_packet_free"),
            let r: shim_av_packet_unref = get("av_packet_unref"),
            let s: shim_av_frame_alloc = get("av_frame_alloc"),
            let t: shim_av_frame_free = get("av_frame_free"),
            let u: shim_av_frame_unref = get("av_frame_unref"),
            let v: shim_av_dict_set = get("av_dict_set"),
            let w: shim_av_dict_free = get("av_dict_free"),
            let dictGet: shim_av_dict_get = get("av_dict_get"),
            let x: shim_av_rescale_q = get("av_rescale_q"),
            let y: shim_av_sample_fmt_is_planar = get("av_sample_fmt_is_planar"),
            let z: shim_av_strerror = get("av_strerror"),
            let level: shim_av_log_set_level = get("av_log_set_level")
        else { return nil }
        avformat_open_input = a
        avformat_close_input = b
        av_find_best_stream = c
        av_read_frame = d
        av_seek_frame = e
        avcodec_find_decoder = f
        avcodec_alloc_context3 = g
        avcodec_free_context = h
        avcodec_parameters_to_context = i
        avcodec_open2 = j
        avcodec_send_packet = k
        avcodec_receive_frame = l
        avcodec_flush_buffers = m
        avcodec_get_name = n
        avcodec_version = o
        av_packet_alloc = p
        av_packet_free = q
        av_packet_unref = r
        av_frame_alloc = s
        av_frame_free = t
        av_frame_unref = u
        av_dict_set = v
        av_dict_free = w
        av_dict_get = dictGet
        av_rescale_q = x
        av_sample_fmt_is_planar = y
        av_strerror = z
        av_log_set_level = level
    }

    let av_log_set_level: shim_av_log_set_level
}

// @unchecked: every member is a C function pointer, set once in `init` and never changed.
extension FFmpegAPI: @unchecked Sendable {}

"""make-testlib mp3-edge: MP3 files from the edges of the wild, for checking the probe against libmpg123.

  make-testlib mp3-edge DEST [--seed S] [--quiet]

Writes into DEST (missing or empty) a few hundred small files, each one class of damage or oddity that
files written by other people show: the last frame cut short (by 1, a few or many bytes, with and without
an ID3v1 or APE tail, or with a tag written over the end), a copy interrupted part way, Xing/Info and VBRI
headers claiming more (or fewer, or no) frames than the file holds, a lone Xing/Info frame with no audio,
LAME extensions whose delay and padding are broken, junk before and between frames (within and beyond
libmpg123's resync window), free-format bit rate, MPEG-2 and 2.5, mono, and files of nothing but
garbage. The template clips are synthesised and encoded with Debian's `lame`; everything else is byte
surgery done here.

DEST/.mp3-edge.tsv has one row per file, sorted by name, after '#' comment lines and a header row:

  name      the file name (ASCII, ends in .mp3)
  class     the class of damage (a few files each)
  clip      the template clip (see the comments), '-' when none
  expect    audio | none: whether the class is meant to leave decodable audio (the test checks
            that libmpg123 agrees, so a fixture that no longer shows its class is noticed)
  note      what was done to the clip

The same seed always gives the same bytes. The decoder's own answer is not written down: the tests
ask libmpg123 on the machine that runs them.
"""

import argparse
import array
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import wave

# (name, rate, channels, lame options, seconds, description)
CLIPS = [
    ("cbr", 44100, 2, ["-b", "128", "--cbr", "-m", "j"], 1.0, "44.1k stereo CBR128 with an Info/LAME frame"),
    ("vbr", 44100, 2, ["-V", "2", "-m", "j"], 1.0, "44.1k stereo VBR V2 with a Xing/LAME frame"),
    ("raw", 44100, 2, ["-b", "128", "--cbr", "-m", "j", "-t"], 1.0, "44.1k stereo CBR128, no Info frame (lame -t)"),
    ("mono", 44100, 1, ["-b", "64", "--cbr", "-m", "m"], 0.8, "44.1k mono CBR64 with an Info frame"),
    ("mpeg2", 22050, 1, ["-V", "5", "-m", "m"], 0.8, "22.05k mono VBR V5 (MPEG-2) with a Xing frame"),
    ("m25", 8000, 1, ["-V", "6", "-m", "m"], 1.0, "8k mono VBR V6 (MPEG-2.5) with a Xing frame"),
    ("s25", 11025, 2, ["-b", "32", "--cbr", "-m", "j", "-t"], 1.0, "11.025k stereo CBR32 (MPEG-2.5), no Info frame"),
    ("free", 44100, 2, ["--freeformat", "-b", "400", "-m", "j"], 0.5, "44.1k stereo free-format 400 kbit/s, Info frame"),
    ("freet", 44100, 2, ["--freeformat", "-b", "320", "-m", "j", "-t"], 0.5, "44.1k stereo free-format 320, no Info"),
    ("vbrlong", 44100, 2, ["-V", "0", "-m", "s"], 12.0, "44.1k stereo VBR V0, 12 s (long enough for the header to be trusted)"),
]


def synthesize(seed, name, rate, channels, seconds):
    """A few soft notes (16-bit little-endian PCM), different per clip and seed."""
    r = random.Random("mp3-edge:%d:%s" % (seed, name))
    frames = int(rate * seconds)
    notes = [220.0 * 2 ** (r.randrange(24) / 12.0) for _ in range(3)]
    seg = -(-frames // len(notes))
    out = array.array("h", bytes(2 * frames * channels))
    for j in range(frames):
        f = notes[min(len(notes) - 1, j // seg)]
        env = 1.0 - 0.6 * (j % seg) / seg
        out[j * channels] = int(env * 9000 * math.sin(2 * math.pi * f * j / rate))
        if channels == 2:
            out[j * 2 + 1] = int(env * 7000 * math.sin(2 * math.pi * f * 1.5 * j / rate + 0.5))
    if sys.byteorder != "little":
        out.byteswap()
    return out.tobytes()


def encode_clips(seed):
    """{name: MPEG frames (ID3 stripped)} of every template clip, encoded once with lame."""
    if shutil.which("lame") is None:
        raise SystemExit("make-testlib mp3-edge: needs the `lame` encoder: apt-get install lame")
    out = {}
    with tempfile.TemporaryDirectory(prefix="mp3-edge-") as work:
        procs = []
        for name, rate, ch, opts, secs, _ in CLIPS:
            wav, mp3 = os.path.join(work, name + ".wav"), os.path.join(work, name + ".mp3")
            with wave.open(wav, "wb") as w:
                w.setnchannels(ch)
                w.setsampwidth(2)
                w.setframerate(rate)
                w.writeframes(synthesize(seed, name, rate, ch, secs))
            cmd = ["lame", "--quiet", "--noreplaygain", "--resample", "%g" % (rate / 1000.0)] + opts + [wav, mp3]
            procs.append((name, mp3, subprocess.Popen(cmd, stderr=subprocess.PIPE)))
        for name, mp3, p in procs:
            _, err = p.communicate()
            if p.returncode != 0:
                sys.stderr.write(err.decode("utf-8", "replace"))
                raise SystemExit("make-testlib mp3-edge: lame failed on clip %s" % name)
            with open(mp3, "rb") as f:
                data = f.read()
            while data[:3] == b"ID3":
                size = (data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9]
                data = data[10 + size:]
            if len(data) >= 128 and data[-128:-125] == b"TAG":
                data = data[:-128]
            out[name] = data
    return out


# --------------------------------------------------------------------------------------------
# MPEG frames

BITRATES = {
    (1, 1): [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    (1, 2): [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    (1, 3): [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
    (2, 1): [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    (2, 2): [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    (2, 3): [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
}
RATES = {3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000]}


def header(data, pos):
    """dict(length, spf, side, mono, version bits) of a layer III header at pos; length None for free format."""
    if pos + 4 > len(data) or data[pos] != 0xFF or (data[pos + 1] & 0xE0) != 0xE0:
        return None
    ver, layer = (data[pos + 1] >> 3) & 3, 4 - ((data[pos + 1] >> 1) & 3)
    bi, ri, pad = data[pos + 2] >> 4, (data[pos + 2] >> 2) & 3, (data[pos + 2] >> 1) & 1
    if ver == 1 or layer != 3 or bi == 15 or ri == 3:
        return None
    mono = (data[pos + 3] >> 6) == 3
    rate = RATES[ver][ri]
    spf = 1152 if ver == 3 else 576
    side = (17 if mono else 32) if ver == 3 else (9 if mono else 17)
    length = None
    if bi:
        kbps = BITRATES[(1 if ver == 3 else 2, 3)][bi]
        length = (144 if ver == 3 else 72) * kbps * 1000 // rate + pad
    return dict(length=length, spf=spf, side=side, mono=mono, ver=ver, pad=pad)


def frame_offsets(data):
    """Offsets of the frames of a clean stream (free format: the distance to the next matching header)."""
    offsets, pos = [], 0
    first = header(data, 0)
    free = None
    if first and first["length"] is None:  # free format: the distance between the first two headers
        nxt = data.find(data[0:3], 4)
        while nxt > 0 and header(data, nxt) is None:
            nxt = data.find(data[0:3], nxt + 1)
        free = nxt - first["pad"] if nxt > 0 else None
    while True:
        h = header(data, pos)
        if h is None:
            return offsets
        length = h["length"] if h["length"] is not None else (free + h["pad"] if free else None)
        if length is None or pos + length > len(data):
            return offsets
        offsets.append(pos)
        pos += length


def xing_at(data):
    """Offset of the Xing/Info magic in the first frame, or None."""
    h = header(data, 0)
    if h is None:
        return None
    at = 4 + h["side"]
    return at if data[at:at + 4] in (b"Xing", b"Info") else None


def set_xing(data, frames=None, size=None, delay=None, padding=None, version=None):
    """The stream with fields of its Xing/Info frame (and LAME extension) replaced."""
    out = bytearray(data)
    at = xing_at(data)
    flags = struct.unpack(">I", out[at + 4:at + 8])[0]
    cursor = at + 8
    if flags & 1:
        if frames is not None:
            out[cursor:cursor + 4] = struct.pack(">I", frames & 0xFFFFFFFF)
        cursor += 4
    if flags & 2:
        if size is not None:
            out[cursor:cursor + 4] = struct.pack(">I", size & 0xFFFFFFFF)
        cursor += 4
    cursor += (100 if flags & 4 else 0) + (4 if flags & 8 else 0)
    if version is not None:
        out[cursor:cursor + 9] = version.encode("ascii")[:9].ljust(9, b" ")
    if delay is not None or padding is not None:
        d = delay if delay is not None else (out[cursor + 21] << 4) | (out[cursor + 22] >> 4)
        p = padding if padding is not None else ((out[cursor + 22] & 0x0F) << 8) | out[cursor + 23]
        out[cursor + 21:cursor + 24] = bytes([d >> 4 & 0xFF, (d & 0x0F) << 4 | (p >> 8 & 0x0F), p & 0xFF])
    return bytes(out)


def xing_fields(data):
    """(frames, bytes) declared by the Xing/Info frame."""
    at = xing_at(data)
    flags = struct.unpack(">I", data[at + 4:at + 8])[0]
    cursor, frames, size = at + 8, None, None
    if flags & 1:
        frames = struct.unpack(">I", data[cursor:cursor + 4])[0]
        cursor += 4
    if flags & 2:
        size = struct.unpack(">I", data[cursor:cursor + 4])[0]
    return frames, size


def vbri_stream(raw, frames=None, size=None, delay=576):
    """A Fraunhofer-style stream: a silent frame holding a VBRI header, then the frames of `raw`."""
    first = raw[:frame_offsets(raw)[1]]
    frame = bytearray(first[:4]) + bytearray(len(first) - 4)
    n = len(frame_offsets(raw))
    total = len(raw) + len(frame)
    at = 36
    frame[at:at + 26] = (b"VBRI" + struct.pack(">HHHII", 1, delay, 75, total if size is None else size & 0xFFFFFFFF,
                                                (n if frames is None else frames) & 0xFFFFFFFF)
                         + struct.pack(">HHHH", 0, 1, 2, 1))
    return bytes(frame) + raw


# --------------------------------------------------------------------------------------------
# Tags

def id3v2(title):
    body = b"TIT2" + struct.pack(">I", len(title) + 1) + b"\x00\x00" + b"\x00" + title.encode("latin-1")
    body += bytes(64)
    size = len(body)
    return b"ID3\x03\x00\x00" + bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F]) + body


def id3v1(title):
    return (b"TAG" + title.encode("latin-1")[:30].ljust(30, b"\x00") + b"mp3-edge".ljust(30, b"\x00")
            + bytes(30) + b"2024" + bytes(28) + b"\x00\x01\x0d")


def ape(title):
    items = [("Title", title), ("Artist", "mp3-edge")]
    body = b"".join(struct.pack("<II", len(v.encode()), 0) + k.encode() + b"\x00" + v.encode() for k, v in items)

    def block(is_header):
        flags = 0x80000000 | (0x20000000 if is_header else 0)
        return b"APETAGEX" + struct.pack("<IIII", 2000, len(body) + 32, len(items), flags) + bytes(8)

    return block(True) + body + block(False)


TAILS = {"": b"", "v1": id3v1("Cut"), "ape": ape("Cut") + id3v1("Cut")}


# --------------------------------------------------------------------------------------------
# The classes

def fixtures(clips, r):
    """Yields (name, class, clip, expect, note, bytes)."""
    def length_of(clip, i):
        offs = frame_offsets(clips[clip])
        return (offs[i + 1] if i + 1 < len(offs) else len(clips[clip])) - offs[i]

    # The template clips themselves, untouched: the baseline every class is a change of.
    for clip in clips:
        yield "clean-%s" % clip, "clean", clip, "audio", "as lame wrote it", clips[clip]

    # The last frame cut short, by 1, a few and many bytes, with nothing, an ID3v1 or an APE+ID3v1 tail after it.
    for clip in ["cbr", "vbr", "raw", "mono", "mpeg2", "m25", "s25", "free", "freet", "vbrlong"]:
        data = clips[clip]
        last = length_of(clip, len(frame_offsets(data)) - 1)
        for cut in [1, 7, last // 2, last - 5]:
            for tail, suffix in TAILS.items():
                yield ("cut-last-%s-%d%s" % (clip, cut, "-" + tail if tail else ""), "cut-last-frame", clip, "audio",
                       "last frame (%d bytes) cut by %d%s" % (last, cut, ", then " + tail if tail else ""),
                       data[:-cut] + suffix)
        # A tag written over the end: the file keeps its size, the last 128 bytes are an ID3v1 tag.
        yield ("tag-over-end-%s" % clip, "cut-last-frame", clip, "audio", "last 128 bytes overwritten by ID3v1",
               data[:-128] + TAILS["v1"])
        yield ("tag-over-end-%s-id3v2" % clip, "cut-last-frame", clip, "audio", "ID3v2 + last 128 bytes = ID3v1",
               id3v2("Over") + data[:-128] + TAILS["v1"])

    # A copy interrupted part way: the header (if any) claims the whole stream.
    for clip in ["cbr", "vbr", "raw", "m25", "free"]:
        data = clips[clip]
        offs = frame_offsets(data)
        for fraction in [0.1, 0.5, 0.9]:
            index = max(int(len(offs) * fraction), 4)
            cut = offs[index] + r.randrange(1, 100)
            yield ("interrupted-%s-%d" % (clip, int(fraction * 100)), "interrupted-copy", clip, "audio",
                   "%d of %d bytes (%d whole frames)" % (cut, len(data), index), data[:cut])
        # Only the header frame and part of the first audio frame: nothing decodes.
        if xing_at(data) is not None:
            cut = offs[1] + length_of(clip, 1) // 2
            yield "interrupted-%s-first" % clip, "interrupted-copy", clip, "none", "Info frame + half a frame", data[:cut]
        # Cut inside the very first frame.
        yield ("interrupted-%s-inside-first" % clip, "interrupted-copy", clip, "none", "half of the first frame",
               data[:length_of(clip, 0) // 2])

    # Xing/Info frame counts (and byte counts) claiming more than the file holds.
    for clip in ["cbr", "vbr", "mono", "mpeg2", "m25", "free", "vbrlong"]:
        data = clips[clip]
        frames, size = xing_fields(data)
        for label, factor in [("2x", 2), ("100x", 100)]:
            yield ("overclaim-%s-frames-%s" % (clip, label), "xing-overclaim", clip, "audio",
                   "frames %d -> %d" % (frames, frames * factor), set_xing(data, frames=frames * factor))
            yield ("overclaim-%s-both-%s" % (clip, label), "xing-overclaim", clip, "audio",
                   "frames and bytes x%d" % factor, set_xing(data, frames=frames * factor, size=size * factor))
            yield ("overclaim-%s-bytes-%s" % (clip, label), "xing-overclaim", clip, "audio",
                   "bytes %d -> %d" % (size, size * factor), set_xing(data, size=size * factor))
        yield ("overclaim-%s-absurd" % clip, "xing-overclaim", clip, "audio", "frames and bytes 0xFFFFFFFF",
               set_xing(data, frames=0xFFFFFFFF, size=0xFFFFFFFF))
        yield ("overclaim-%s-absurd-frames" % clip, "xing-overclaim", clip, "audio", "frames 0xFFFFFFFF",
               set_xing(data, frames=0xFFFFFFFF))
        yield ("underclaim-%s-half" % clip, "xing-underclaim", clip, "audio", "frames / 2",
               set_xing(data, frames=frames // 2, size=size // 2))
        yield ("underclaim-%s-one" % clip, "xing-underclaim", clip, "audio", "frames 1", set_xing(data, frames=1))
        # Both: claims twice the frames, and the copy was interrupted at half.
        yield ("overclaim-%s-2x-cut" % clip, "xing-overclaim", clip, "audio", "frames x2 and cut mid-frame",
               set_xing(data, frames=frames * 2)[:len(data) // 2])

    # VBRI (Fraunhofer) headers, which libmpg123 decodes as an ordinary (silent) frame.
    for clip in ["raw", "s25"]:
        raw = clips[clip]
        n = len(frame_offsets(raw))
        yield "vbri-%s" % clip, "vbri", clip, "audio", "correct VBRI", vbri_stream(raw)
        for label, factor in [("2x", 2), ("100x", 100)]:
            yield ("vbri-%s-overclaim-%s" % (clip, label), "vbri-overclaim", clip, "audio", "VBRI frames and bytes x%d"
                   % factor, vbri_stream(raw, frames=n * factor, size=(len(raw) + 417) * factor))
        yield ("vbri-%s-overclaim-absurd" % clip, "vbri-overclaim", clip, "audio", "VBRI 0xFFFFFFFF",
               vbri_stream(raw, frames=0xFFFFFFFF, size=0xFFFFFFFF))
        full = vbri_stream(raw)
        yield ("vbri-%s-cut-half" % clip, "vbri-overclaim", clip, "audio", "VBRI stream cut at half",
               full[:len(full) // 2])
        yield "vbri-%s-cut-last" % clip, "vbri-overclaim", clip, "audio", "VBRI, last frame cut by 3", full[:-3]
        lone = full[:frame_offsets(full)[1]]
        yield ("vbri-%s-lone" % clip, "vbri", clip, "none", "a VBRI frame alone (libmpg123 wants a second header)",
               lone)
        yield ("vbri-%s-two" % clip, "vbri", clip, "audio", "a VBRI frame and one audio frame",
               full[:frame_offsets(full)[2]])

    # Info headers declaring zero frames.
    for clip in ["cbr", "vbr", "m25"]:
        data = clips[clip]
        yield "info-zero-%s" % clip, "info-zero-frames", clip, "audio", "frames 0", set_xing(data, frames=0)
        yield ("info-zero-%s-nobytes" % clip, "info-zero-frames", clip, "audio", "frames 0, bytes 0",
               set_xing(data, frames=0, size=0))
        first = frame_offsets(data)[1]
        yield ("info-zero-%s-alone" % clip, "lone-xing", clip, "none", "frames 0, and no audio after it",
               set_xing(data, frames=0)[:first])

    # A lone Xing/Info frame with no audio after it, bare and between tags.
    for clip in ["cbr", "vbr", "mono", "mpeg2", "m25", "free"]:
        data = clips[clip]
        first = frame_offsets(data)[1]
        lone = data[:first]
        frames, _ = xing_fields(data)
        yield "lone-xing-%s" % clip, "lone-xing", clip, "none", "the header frame only, claiming %d frames" % frames, lone
        yield ("lone-xing-%s-fixed" % clip, "lone-xing", clip, "none", "the header frame only, claiming itself",
               set_xing(lone, frames=0, size=len(lone)))
        yield ("lone-xing-%s-tagged" % clip, "lone-xing", clip, "none", "ID3v2 + header frame + ID3v1",
               id3v2("Lone") + set_xing(lone, size=len(lone)) + TAILS["v1"])
        yield ("lone-xing-%s-ape" % clip, "lone-xing", clip, "none", "header frame + APE + ID3v1",
               lone + TAILS["ape"])
        yield ("lone-xing-%s-partial" % clip, "lone-xing", clip, "none", "header frame + 10 bytes of the next",
               data[:first + 10])

    # LAME extensions with broken delay/padding (and version strings of LAME 3.97).
    for clip in ["cbr", "vbr", "m25"]:
        data = clips[clip]
        frames, size = xing_fields(data)
        offs = frame_offsets(data)
        short = set_xing(data[:offs[3]], frames=2, size=offs[3])  # two audio frames
        yield ("lame-%s-delay-max" % clip, "lame-broken", clip, "audio", "delay 4095",
               set_xing(data, delay=4095, version="LAME3.97 "))
        yield ("lame-%s-padding-max" % clip, "lame-broken", clip, "audio", "padding 4095",
               set_xing(data, padding=4095, version="LAME3.97 "))
        yield ("lame-%s-short-delay-padding" % clip, "lame-broken", clip, "none",
               "2 audio frames, delay and padding 4095 (more than the stream)",
               set_xing(short, delay=4095, padding=4095, version="LAME3.97 "))
        yield ("lame-%s-short-delay" % clip, "lame-broken", clip, "none",
               "2 audio frames, delay 4095 (more than the stream)", set_xing(short, delay=4095, padding=0))
        yield ("lame-%s-short-padding" % clip, "lame-broken", clip, "audio",
               "2 audio frames, padding 4095 (more than the stream: the window has no end, nothing is cut there)", set_xing(short, delay=0, padding=4095))
        yield ("lame-%s-397-zero-bytes" % clip, "lame-broken", clip, "audio", "LAME3.97, Xing bytes 0",
               set_xing(data, size=0, version="LAME3.97 "))
        yield ("lame-%s-397-bytes-small" % clip, "lame-broken", clip, "audio", "LAME3.97, Xing bytes 417",
               set_xing(data, size=417, version="LAME3.97 "))
        yield ("lame-%s-397-lone" % clip, "lame-broken", clip, "none", "LAME3.97 header frame only, length broken",
               set_xing(data[:offs[1]], frames=frames + 7, size=size * 3, version="LAME3.97 "))
        yield ("lame-%s-397-short-lone" % clip, "lame-broken", clip, "none",
               "LAME3.97 header frame + 1 audio frame, delay + padding > 1 frame",
               set_xing(data[:offs[2]], frames=1, size=offs[2], delay=1200, padding=600, version="LAME3.97 "))

    # Junk before and between frames: within and beyond libmpg123's resync window (the player's is 64 KiB).
    for clip in ["cbr", "raw", "m25"]:
        data = clips[clip]
        offs = frame_offsets(data)
        mid = offs[len(offs) // 2]
        for size in [8, 1000, 30000, 70000, 200000, 1000000]:
            if size < 1000000:
                yield ("junk-random-%s-%d" % (clip, size), "junk-between-frames", clip, "audio",
                       "%d random bytes mid-stream" % size, data[:mid] + r.randbytes(size) + data[mid:])
            zeros = bytes(size)
            yield ("junk-zeros-%s-%d" % (clip, size), "junk-between-frames", clip, "audio",
                   "%d zero bytes mid-stream" % size, data[:mid] + zeros + data[mid:])
            yield ("junk-text-%s-%d" % (clip, size), "junk-between-frames", clip, "audio",
                   "%d bytes of text mid-stream" % size, data[:mid] + (b"lorem ipsum " * size)[:size] + data[mid:])
            yield ("junk-start-%s-%d" % (clip, size), "junk-before-audio", clip, "audio" if size < 65000 else "none",
                   "%d zero bytes first (libmpg123 looks 64 KiB far)" % size, zeros + data)
        # Around libmpg123's 64 KiB limit for junk before the first frame.
        for size in [65000, 65535, 65536, 66000]:
            yield ("junk-start-%s-limit-%d" % (clip, size), "junk-before-audio", clip, "audio" if size < 65536 else "none",
                   "%d zero bytes first" % size, bytes(size) + data)
        # A false sync: a valid-looking header whose frame is garbage, then the real frames.
        fake = bytes([0xFF, 0xFB, 0x90, 0x44]) + r.randbytes(60)
        yield ("junk-false-sync-%s" % clip, "junk-between-frames", clip, "audio", "a lone fake header mid-stream",
               data[:mid] + fake + data[mid:])
        yield ("junk-text-start-%s" % clip, "junk-before-audio", clip, "audio", "text before the first frame",
               b"This is not an MP3 header.\n" * 40 + data)

    # Two files joined: the second one's ID3v2 tag (and the first one's ID3v1) in the middle.
    yield ("joined-tags-raw", "junk-between-frames", "raw", "audio", "raw + ID3v1 + ID3v2 + raw",
           clips["raw"] + TAILS["v1"] + id3v2("Second") + clips["raw"])
    yield ("joined-info-cbr", "xing-underclaim", "cbr", "audio", "cbr + cbr: the first Info frame claims half",
           clips["cbr"] + clips["cbr"])

    # Streams that change format part way (sample rate; mono/stereo).
    yield ("join-rate", "format-change", "cbr+m25", "audio", "44.1k frames then 8k frames",
           clips["raw"] + clips["s25"])
    yield ("join-channels", "format-change", "raw+mono", "audio", "stereo frames then mono frames",
           clips["raw"] + clips["mono"][frame_offsets(clips["mono"])[1]:])

    # Nothing but garbage, named .mp3.
    for n in range(6):
        size = r.choice([100, 4000, 40000, 200000])
        yield ("garbage-random-%d" % n, "garbage", "-", "none", "%d random bytes" % size,
               r.randbytes(size))
    yield "garbage-zeros", "garbage", "-", "none", "64 KiB of zero bytes", bytes(65536)
    yield "garbage-ff", "garbage", "-", "none", "64 KiB of 0xFF", b"\xff" * 65536
    yield "garbage-text", "garbage", "-", "none", "text", b"Not an MP3 at all, just words.\n" * 300
    yield ("garbage-headers", "garbage", "-", "none", "valid headers followed by random bytes, never twice in a row",
           b"".join(bytes([0xFF, 0xFB, 0x90, 0x44]) + r.randbytes(r.randrange(500, 900))
                    for _ in range(40)))
    yield ("garbage-one-frame-in-junk", "garbage", "raw", "none", "one real frame in 100 KiB of random bytes",
           r.randbytes(50000) + clips["raw"][:417]
           + r.randbytes(50000))


def main(argv):
    p = argparse.ArgumentParser(prog="make-testlib mp3-edge", description=__doc__.split("\n\n")[1].strip())
    p.add_argument("dest", metavar="DEST", help="folder to create (missing or empty)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="random seed (default 1)")
    p.add_argument("--quiet", action="store_true", help="no summary")
    a = p.parse_args(argv)
    if os.path.isdir(a.dest) and os.listdir(a.dest):
        raise SystemExit("make-testlib mp3-edge: %s exists and is not empty; give a new or empty folder" % a.dest)
    os.makedirs(a.dest, exist_ok=True)
    clips = encode_clips(a.seed)
    rows = []
    for name, cls, clip, expect, note, data in fixtures(clips, random.Random("mp3-edge:%d" % a.seed)):
        name += ".mp3"
        with open(os.path.join(a.dest, name), "wb") as f:
            f.write(data)
        rows.append((name, cls, clip, expect, note))
    rows.sort()
    with open(os.path.join(a.dest, ".mp3-edge.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("# make-testlib mp3-edge seed=%d: %d files\n" % (a.seed, len(rows)))
        for name, rate, ch, opts, secs, desc in CLIPS:
            f.write("# clip %s: %s, %d bytes of frames (lame %s)\n" % (name, desc, len(clips[name]), " ".join(opts)))
        f.write("name\tclass\tclip\texpect\tnote\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    if not a.quiet:
        classes = sorted({row[1] for row in rows})
        print("make-testlib mp3-edge: %s: %d files in %d classes" % (a.dest, len(rows), len(classes)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

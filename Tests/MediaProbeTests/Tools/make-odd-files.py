#!/usr/bin/python3
"""Writes, into the folder argv[1], files that other programs write oddly, each made by FFmpeg and then
edited byte by byte the way its writer gets it wrong:

  ext-header-missing.mp3  ID3v2.4 whose header flags an extended header that is not there
  v1-disagrees.mp3        ID3v2.4 year 2001 and an ID3v1 tag whose year says 1999
  v1-disagrees-ext.mp3    the same, its ID3v2.4 header flagging a missing extended header too
  mp3-in-wav.wav          MP3 in a RIFF WAVE (format tag 0x55)
  claims-47-hours.m4b     AAC with Nero chapters whose headers claim 47 hours; its samples last 1 s
  bad-crc.ogg             Ogg Vorbis whose page of comment and setup headers fails its CRC
  damaged-first-frame.flac  FLAC of 0.5 s whose first frame is overwritten; the rest is intact
  cut-short.flac          FLAC of 2 s cut off inside its audio, within a frame

Further arguments name the files to make (all when none). Needs ffmpeg (with libmp3lame and libvorbis). Prints
nothing; fails loudly."""
import os
import struct
import subprocess
import sys

out = sys.argv[1]
wanted = set(sys.argv[2:])


def wants(name):
    return not wanted or name in wanted


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", *args], check=True)


def path(name):
    return os.path.join(out, name)


def sine(seconds, rate=44100):
    return ["-f", "lavfi", "-i", f"sine=frequency=440:sample_rate={rate}:duration={seconds}"]


def edit(name, change):
    with open(path(name), "rb") as f:
        data = bytearray(f.read())
    data = change(data)
    with open(path(name), "wb") as f:
        f.write(data)


tags = ["-metadata", "title=Odd Title", "-metadata", "artist=Odd Artist", "-metadata", "album=Odd Album",
        "-metadata", "date=2001"]


def first_frame(data):
    """Where a FLAC stream's first frame starts: after the metadata blocks (the last has its top bit set)."""
    at = 4
    while True:
        last = data[at] & 0x80
        at += 4 + int.from_bytes(data[at + 1:at + 4], "big")
        if last:
            return at


def ext_header_missing(name):
    # The extended-header flag (0x40) set in a v2.4 header, with the frames straight after the header.
    ffmpeg(*sine(1), "-c:a", "libmp3lame", "-b:a", "64k", "-id3v2_version", "4", *tags, path(name))

    def flag(data):
        assert data[:3] == b"ID3" and data[3] == 4
        data[5] |= 0x40
        return data
    edit(name, flag)


def v1_disagrees(name, flag_extended_header=False):
    # ID3v2 and ID3v1 both, then the ID3v1 year (bytes 93..96 of the last 128) changed.
    ffmpeg(*sine(1), "-c:a", "libmp3lame", "-b:a", "64k", "-id3v2_version", "4", "-write_id3v1", "1", *tags,
           path(name))

    def year(data):
        v1 = len(data) - 128
        assert data[v1:v1 + 3] == b"TAG" and data[v1 + 93:v1 + 97] == b"2001"
        data[v1 + 93:v1 + 97] = b"1999"
        if flag_extended_header:
            data[5] |= 0x40
        return data
    edit(name, year)


def mp3_in_wav(name):
    ffmpeg(*sine(1), "-c:a", "libmp3lame", "-b:a", "64k", "-f", "wav", *tags, path(name))


def claims_47_hours(name):
    # An audiobook with two Nero chapters (`chpl`), whose movie, track and media headers and edit list then
    # claim 47 hours; its sample table still holds the 1 s it was made of. 22050 Hz: 47 hours of it still
    # fit the media header's 32-bit duration.
    chapters = path("chapters.txt")
    with open(chapters, "w") as f:
        f.write(";FFMETADATA1\ntitle=Odd Book\n"
                "[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=500\ntitle=One\n"
                "[CHAPTER]\nTIMEBASE=1/1000\nSTART=500\nEND=1000\ntitle=Two\n")
    ffmpeg(*sine(1, rate=22050), "-i", chapters, "-map", "0:a", "-map_metadata", "1", "-map_chapters", "1",
           "-c:a", "aac", "-b:a", "64k", "-f", "ipod", path(name))
    os.remove(chapters)

    def claim(data):
        assert b"chpl" in data
        patched = 0
        movie_scale = None
        for box in (b"mvhd", b"tkhd", b"mdhd", b"elst"):
            at = 0
            while (at := data.find(box, at)) >= 0:
                assert data[at + 4] == 0, "version 0 boxes only"
                if box == b"elst":  # the first edit's duration, in movie time
                    scale, duration_at = movie_scale, at + 12
                elif box == b"tkhd":  # after creation, modification, track id and a reserved word
                    scale, duration_at = movie_scale, at + 24
                else:  # after creation and modification: timescale, duration
                    scale = struct.unpack(">I", data[at + 16:at + 20])[0]
                    duration_at = at + 20
                    if box == b"mvhd":
                        movie_scale = scale
                data[duration_at:duration_at + 4] = struct.pack(">I", 47 * 3600 * scale)
                patched += 1
                at += 4
        assert patched >= 4
        return data
    edit(name, claim)


def bad_crc(name):
    # A tagger's bug: the page holding the comment and setup headers rewritten without its CRC.
    ffmpeg(*sine(1), "-c:a", "libvorbis", *tags, path(name))

    def break_second_page(data):
        second = data.find(b"OggS", 4)
        assert second > 0
        data[second + 22] ^= 0xFF
        return data
    edit(name, break_second_page)


def damaged_first_frame(name):
    ffmpeg(*sine(0.5), "-c:a", "flac", *tags, path(name))

    def damage(data):
        at = first_frame(data)
        assert data[at] == 0xFF and data[at + 1] & 0xFE == 0xF8
        # Garbage over the frame header and the start of its subframes: the decoder must find the next frame.
        for i in range(64):
            data[at + i] = (i * 37 + 11) & 0x7F
        return data
    edit(name, damage)


def cut_short(name):
    ffmpeg(*sine(2), "-c:a", "flac", *tags, path(name))
    edit(name, lambda data: data[:first_frame(data) + (len(data) - first_frame(data)) * 45 // 100])


makers = {
    "ext-header-missing.mp3": ext_header_missing, "v1-disagrees.mp3": v1_disagrees,
    "v1-disagrees-ext.mp3": lambda name: v1_disagrees(name, flag_extended_header=True), "mp3-in-wav.wav": mp3_in_wav,
    "claims-47-hours.m4b": claims_47_hours, "bad-crc.ogg": bad_crc, "damaged-first-frame.flac": damaged_first_frame,
    "cut-short.flac": cut_short,
}
assert wanted <= set(makers), f"unknown: {sorted(wanted - set(makers))}"
for name, make in makers.items():
    if wants(name):
        make(name)

#!/usr/bin/env python3
"""Regenerates the tiny MP3 fixtures in this folder (needs `lame`). See README.md."""
import math, os, struct, subprocess, tempfile, wave

HERE = os.path.dirname(os.path.abspath(__file__))


def encode(rate, channels, seconds, opts):
    with tempfile.TemporaryDirectory() as tmp:
        wav, mp3 = os.path.join(tmp, "in.wav"), os.path.join(tmp, "out.mp3")
        n = int(rate * seconds)
        with wave.open(wav, "wb") as w:
            w.setnchannels(channels); w.setsampwidth(2); w.setframerate(rate)
            w.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(i * 0.07))) * channels for i in range(n)))
        subprocess.run(["lame", "--quiet", "--noreplaygain"] + opts + [wav, mp3], check=True)
        return open(mp3, "rb").read()


def syncsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def id3v24(frames):
    body = b"".join(fid.encode() + syncsafe(len(p)) + b"\x00\x00" + p for fid, p in frames)
    return b"ID3\x04\x00\x00" + syncsafe(len(body)) + body


def ape(items):
    body = b"".join(struct.pack("<II", len(v), 0) + k.encode() + b"\x00" + v for k, v in items)
    footer = b"APETAGEX" + struct.pack("<IIII", 2000, len(body) + 32, len(items), 0) + b"\x00" * 8
    return body + footer


def id3v1(title, artist, track, genre):
    f = lambda s, n: s.encode("latin-1")[:n].ljust(n, b"\x00")
    return b"TAG" + f(title, 30) + f(artist, 30) + f("", 30) + b"2001" + f("", 28) + b"\x00" + bytes([track, genre])


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


# 1. LAME VBR, 22.05 kHz mono (MPEG-2), Info frame with delay/padding, ID3v2.4 UTF-8 tag.
vbr = encode(22050, 1, 0.3, ["-V", "6", "-m", "m"])
write("lame-vbr-mono-v24.mp3", id3v24([("TIT2", b"\x03Fixture \xc3\xa9t\xc3\xa9"), ("TPE1", b"\x03Probe"),
                                        ("TRCK", b"\x033/9"), ("TCON", b"\x0317")]) + vbr)
# 2. CBR 32 kHz stereo without Info frame (lame -t), with an APEv2 tag and an ID3v1 tag behind it.
cbr = encode(32000, 2, 0.1, ["-b", "48", "--cbr", "-t", "--resample", "32"])
write("cbr-nolame-ape-v1.mp3", cbr + ape([("Title", b"APE Title"), ("Artist", b"APE Artist"),
                                          ("REPLAYGAIN_TRACK_GAIN", b"-3.20 dB")]) + id3v1("V1 Title", "V1 Artist", 4, 13))
# 3. An ID3 tag with nothing after it.
write("tag-only.mp3", id3v24([("TIT2", b"\x03Only a tag")]))

#!/usr/bin/python3
"""Prints what mutagen (Debian's python3-mutagen) reads from each file named on stdin (one manifest-escaped
path per line, relative to argv[1]) as one JSON object per line, in the fields of Shufflebox's TagInfo:
title artist artists album albumArtist track trackTotal disc discTotal year genre rgTrackGain rgAlbumGain
rgTrackPeak rgAlbumPeak sampleRate channels bitsPerSample; absent fields are left out, and a file mutagen
does not recognise prints {"path": ..., "unknown": true}."""
import json
import os
import re
import sys

import mutagen
from mutagen.id3 import ID3


def first_int(text):
    m = re.match(r"\s*(\d+)", str(text))
    return int(m.group(1)) if m and int(m.group(1)) > 0 else None


def pair(text):
    parts = str(text).split("/", 1)
    return first_int(parts[0]), first_int(parts[1]) if len(parts) > 1 else None


def number(text):
    m = re.match(r"\s*([+-]?\d+(?:[.,]\d+)?)", str(text))
    return float(m.group(1).replace(",", ".")) if m else None


def year(text):
    m = re.match(r"\s*(\d{4})", str(text))
    return int(m.group(1)) if m and int(m.group(1)) > 0 else None


def clean(values):
    return [v for v in (str(x).rstrip("\x00") for x in values) if v.strip()]


def from_comments(tags, out):
    def get(*keys):
        for k in keys:
            if k in tags:
                vals = clean(tags[k])
                if vals:
                    return vals
        return None
    for field, keys in (("title", ["title"]), ("album", ["album"]),
                        ("albumArtist", ["albumartist", "album artist", "album_artist"]), ("genre", ["genre"])):
        vals = get(*keys)
        if vals:
            out[field] = vals[0]
    artists = get("artist")
    if artists:
        out["artist"], out["artists"] = artists[0], artists
    t = get("tracknumber")
    if t:
        out["track"], total = pair(t[0])
        if total:
            out["trackTotal"] = total
    if "trackTotal" not in out and get("tracktotal", "totaltracks"):
        out["trackTotal"] = first_int(get("tracktotal", "totaltracks")[0])
    d = get("discnumber")
    if d:
        out["disc"], total = pair(d[0])
        if total:
            out["discTotal"] = total
    if "discTotal" not in out and get("disctotal", "totaldiscs"):
        out["discTotal"] = first_int(get("disctotal", "totaldiscs")[0])
    y = get("date", "year")
    if y:
        out["year"] = year(y[0])
    for field, key in (("rgTrackGain", "replaygain_track_gain"), ("rgAlbumGain", "replaygain_album_gain"),
                       ("rgTrackPeak", "replaygain_track_peak"), ("rgAlbumPeak", "replaygain_album_peak")):
        v = get(key)
        if v:
            out[field] = number(v[0])
    for field, key in (("rgTrackGain", "r128_track_gain"), ("rgAlbumGain", "r128_album_gain")):
        v = get(key)
        if v and field not in out and re.fullmatch(r"[+-]?\d+", v[0].strip()):
            out[field] = int(v[0]) / 256 + 5


def from_id3(tags, out):
    def text(fid):
        frame = tags.get(fid)
        vals = clean(frame.text) if frame is not None and hasattr(frame, "text") else []
        return vals or None
    for field, fid in (("title", "TIT2"), ("album", "TALB"), ("albumArtist", "TPE2")):
        v = text(fid)
        if v:
            out[field] = v[0]
    v = text("TPE1")
    if v:
        out["artist"], out["artists"] = v[0], v
    for field, total, fid in (("track", "trackTotal", "TRCK"), ("disc", "discTotal", "TPOS")):
        v = text(fid)
        if v:
            out[field], t = pair(v[0])
            if t:
                out[total] = t
    for fid in ("TDRC", "TYER"):
        v = text(fid)
        if v:
            out["year"] = year(v[0])
            break
    con = tags.get("TCON")
    if con is not None and con.genres:
        out["genre"] = con.genres[0]
    for frame in tags.getall("TXXX"):
        key = frame.desc.upper()
        field = {"REPLAYGAIN_TRACK_GAIN": "rgTrackGain", "REPLAYGAIN_ALBUM_GAIN": "rgAlbumGain",
                 "REPLAYGAIN_TRACK_PEAK": "rgTrackPeak", "REPLAYGAIN_ALBUM_PEAK": "rgAlbumPeak"}.get(key)
        if field and clean(frame.text):
            out[field] = number(clean(frame.text)[0])
        if key in ("ALBUM ARTIST", "ALBUMARTIST") and "albumArtist" not in out and clean(frame.text):
            out["albumArtist"] = clean(frame.text)[0]


def from_mp4(tags, out):
    def text(key):
        vals = clean(tags.get(key, []))
        return vals or None
    for field, key in (("title", "\xa9nam"), ("album", "\xa9alb"), ("albumArtist", "aART"), ("genre", "\xa9gen")):
        v = text(key)
        if v:
            out[field] = v[0]
    v = text("\xa9ART")
    if v:
        out["artist"], out["artists"] = v[0], v
    for field, total, key in (("track", "trackTotal", "trkn"), ("disc", "discTotal", "disk")):
        if tags.get(key):
            n, t = tags[key][0]
            if n:
                out[field] = n
            if n and t:
                out[total] = t
    v = text("\xa9day")
    if v:
        out["year"] = year(v[0])
    for field, name in (("rgTrackGain", "replaygain_track_gain"), ("rgAlbumGain", "replaygain_album_gain")):
        v = tags.get("----:com.apple.iTunes:" + name)
        if v:
            out[field] = number(bytes(v[0]).decode("utf-8", "replace"))


def unescape(text):
    out, i = bytearray(), 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt == "x":
                out.append(int(text[i + 2:i + 4], 16))
                i += 4
                continue
            out += {"\\": b"\\", "t": b"\t", "n": b"\n", "r": b"\r"}.get(nxt, nxt.encode())
            i += 2
            continue
        out += ch.encode("utf-8")
        i += 1
    return bytes(out)


def main():
    root = os.fsencode(sys.argv[1])
    for line in sys.stdin.read().splitlines():
        path = os.path.join(root, unescape(line))
        out = {"path": line}
        try:
            f = mutagen.File(path)
        except Exception as e:  # mutagen refuses a damaged file: say so, the test decides
            f, out["error"] = None, str(e)
        if f is None:
            out["unknown"] = True
            print(json.dumps(out))
            continue
        info = f.info
        for field, attr in (("sampleRate", "sample_rate"), ("channels", "channels"), ("bitsPerSample", "bits_per_sample")):
            if getattr(info, attr, None):
                out[field] = getattr(info, attr)
        tags = f.tags
        if tags is None:
            pass
        elif isinstance(tags, ID3):
            from_id3(tags, out)
        elif type(f).__name__ == "MP4":
            from_mp4(tags, out)
        else:
            from_comments({k.lower(): v for k, v in tags.as_dict().items()} if hasattr(tags, "as_dict")
                          else {k.lower(): tags[k] for k in tags.keys()}, out)
        out["kind"] = type(f).__name__
        print(json.dumps(out, ensure_ascii=False))


main()

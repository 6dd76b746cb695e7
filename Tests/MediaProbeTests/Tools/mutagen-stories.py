#!/usr/bin/env python3
"""Prints, as one JSON object, what mutagen reads of the story flags and chapters of the file named by the
first argument: the yardstick StoryAgreementTests holds the probe to.

MP4: {"kind": "mp4", "stik": int|null, "pcst": bool|null, "chapters": [[start_ms, title], ...]} (mutagen reads
     Nero's chpl only, not a QuickTime chapter track);
ID3: {"kind": "id3", "pcst": int|null, "chap": [{"id", "start", "end", "title"}], "ctoc": [{"id", "flags",
     "children"}]}, frames in the tag's order.
"""
import json
import sys

from mutagen.id3 import ID3
from mutagen.mp4 import MP4


def mp4(path):
    m = MP4(path)
    tags = m.tags or {}
    stik = tags.get("stik")
    pcst = tags.get("pcst")
    chapters = [[round(c.start * 1000), c.title] for c in (m.chapters or [])]
    return {"kind": "mp4", "stik": stik[0] if stik else None, "pcst": bool(pcst) if pcst is not None else None,
            "chapters": chapters}


def id3(path):
    t = ID3(path)
    pcst = t.getall("PCST")
    chaps = []
    for f in t.getall("CHAP"):
        title = f.sub_frames.get("TIT2")
        chaps.append({"id": f.element_id, "start": f.start_time, "end": f.end_time,
                      "title": str(title.text[0]) if title and title.text else None})
    tocs = [{"id": f.element_id, "flags": int(f.flags), "children": list(f.child_element_ids)}
            for f in t.getall("CTOC")]
    return {"kind": "id3", "pcst": pcst[0].value if pcst else None, "chap": chaps, "ctoc": tocs}


def main():
    path = sys.argv[1]
    lower = path.lower()
    result = mp4(path) if lower.endswith((".m4a", ".m4b", ".mp4")) else id3(path)
    print(json.dumps(result))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks the SVGs `servet plot` writes (make test).

    tests/check_svg.py DIR NAME.svg [NAME.svg ...]

Each named file must exist, parse as XML, be an <svg> with a width and a
height, hold an element of class 'axis' and one of class 'legend' with text
in them, and keep every text inside the picture: a text's extent is
estimated from its length and font size (0.6 em per character, the width of
DejaVu Sans's digits and lower case on average) and must lie within
[0, width] after its groups' translations. Prints one line per file and
"N passed, N failed" last; exits 1 on any failure.
"""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def number(v, default=0.0):
    try:
        return float(re.sub(r"[a-z%]+$", "", v))
    except (TypeError, ValueError):
        return default


def translate(el):
    m = re.search(r"translate\(\s*([-\d.]+)[ ,]+([-\d.]+)\s*\)", el.get("transform", ""))
    return (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)


def texts(el, tx, ty, font, out):
    """every <text> with its absolute x, font size and anchor"""
    dx, dy = translate(el)
    tx, ty = tx + dx, ty + dy
    font = number(el.get("font-size"), font) if el.get("font-size") else font
    if el.tag == NS + "text":
        content = "".join(el.itertext())
        rotated = "rotate" in el.get("transform", "")
        out.append((content, tx + number(el.get("x")), ty + number(el.get("y")), font,
                    el.get("text-anchor", "start"), rotated))
    for child in el:
        texts(child, tx, ty, font, out)


def has_text_in_class(root, cls):
    for el in root.iter():
        if cls in el.get("class", "").split():
            if any("".join(t.itertext()).strip() for t in el.iter(NS + "text")):
                return True
    return False


def check(path):
    problems = []
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        return ["does not parse as XML: %s" % e]
    if root.tag != NS + "svg":
        return ["root element is %s, not svg" % root.tag]
    width, height = number(root.get("width"), -1), number(root.get("height"), -1)
    if width <= 0 or height <= 0:
        problems.append("no width/height")
    for cls in ("axis", "legend"):
        if not has_text_in_class(root, cls):
            problems.append("no %s with text" % cls)
    found = []
    texts(root, 0.0, 0.0, number(root.get("font-size"), 11.0), found)
    if not found:
        problems.append("no text at all")
    for content, x, y, font, anchor, rotated in found:
        if rotated:
            continue
        w = 0.6 * font * len(content)
        lo = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
        if lo < -1 or lo + w > width + 1 or y > height + 1 or y < 0:
            problems.append("text %r cut off (x %.0f..%.0f, y %.0f; picture %.0f x %.0f)" % (content, lo, lo + w, y, width, height))
    return problems


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    d, names = sys.argv[1], sys.argv[2:]
    passed = failed = 0
    for name in names:
        problems = check("%s/%s" % (d, name))
        if problems:
            failed += 1
            print("FAIL %s: %s" % (name, "; ".join(problems[:5])))
        else:
            passed += 1
            print("ok   %s" % name)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Differential test of `arx parse` / `arx classify` against autoresearch-core.

Run with the interpreter that has the reference installed, e.g.

    /tmp/refvenv/bin/python scripts/differential.py [--arx PATH] [--seed N]
        [--parse-cases N] [--classify-cases N] [--jobs N] [--no-minimize]

Every input is written to a file and given to the arx binary; the expected
answer comes from the reference (`parse_metrics_line`,
`classify_run_failure`) called in-process on the bytes decoded as UTF-8 with
errors="replace".

Two documented differences are modelled rather than reported:

1. Where the reference raises (RecursionError on deep nesting, OverflowError
   converting an integer beyond the float range), arx answers {} for nesting
   deeper than 1000 levels and drops the overflowing key.  The expected
   answer is then computed by a shadow of the reference with a raised
   recursion limit, that drops the overflowing key.
2. Lone UTF-16 surrogates in keys become U+FFFD in arx output (keys that
   collapse onto each other then merge: first position, last value).

The shadow is used for every case; where the reference itself returns, the
shadow must agree with it (otherwise the harness is wrong and says so).

Exit status: 0 when arx agrees on every case, 1 on any mismatch.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import decimal
import json
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
from collections import OrderedDict, defaultdict

from autoresearch_core.contract import _RESULT_RE, parse_metrics_line
from autoresearch_core.failures import classify_run_failure

MAX_DEPTH = 1000  # arx's documented nesting limit (top-level object = 1)
CHUNK = 1 << 20  # arx's read size; large cases straddle it

# --------------------------------------------------------------------------
# Character material
# --------------------------------------------------------------------------

PY_WS = [chr(c) for c in range(0x110000) if chr(c).isspace()]
ASCII_WS = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f"]
UNI_WS = [c for c in PY_WS if ord(c) > 0x7F]
# Characters that look like whitespace (or are invisible) but are not \s.
NOT_WS = ["\u200b", "\u180e", "\ufeff", "\u2060", "\u200c", "\u200d", "\u00ad",
          "\u2800", "\u3164", "\x00", "\x7f", "\x1b", "\x08", "\u0085\u200b"]
NEWLINES = ["\n", "\r\n", "\r", "\n\n", "\r\r\n", "\u2028", "\u0085"]

# Placeholders (plane-15 private use) replaced by raw bytes after encoding.
_PH_BASE = 0xF0000
RAW_BYTES = [
    b"\xff", b"\xfe", b"\x80", b"\xbf", b"\xc0\xaf", b"\xc1\xbf", b"\xc2",
    b"\xc3", b"\xc4", b"\xc5", b"\xe2", b"\xe2\x80", b"\xe2\x81", b"\xe3",
    b"\xe3\x80", b"\xe1\x9a", b"\xe1", b"\xf0\x9f\x98", b"\xf0", b"\xed\xa0\x80",
    b"\xed\xbf\xbf", b"\xf4\x90\x80\x80", b"\xe0\x80\x80", b"\xf8\x88\x80\x80\x80",
    b"\xc2\xc2\xa0", b"\xe2\x80\xe2\x80\xa8", b"\xe3\x80\xe3\x80\x80", b"\xc2\x20",
    b"\xe2\x80{", b"\xc2}", b"\xe2\x80\x22", b"\xf0\x9f\x98\x5c",
]
PH = [chr(_PH_BASE + i) for i in range(len(RAW_BYTES))]
_PH_ENC = [(p.encode("utf-8"), RAW_BYTES[i]) for i, p in enumerate(PH)]


def to_bytes(s: str) -> bytes:
    b = s.encode("utf-8", "surrogatepass")
    if b"\xf3\xb0" in b:
        for enc, raw in _PH_ENC:
            b = b.replace(enc, raw)
    return b


def raw(rng: random.Random) -> str:
    return rng.choice(PH)


# --------------------------------------------------------------------------
# Numbers
# --------------------------------------------------------------------------

decimal.getcontext().prec = 3000


def rand_double(rng: random.Random) -> float:
    while True:
        r = rng.random()
        if r < 0.3:
            x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
        elif r < 0.5:  # subnormal
            x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(52)))[0]
        elif r < 0.6:  # near the top
            x = struct.unpack("<d", struct.pack("<Q", (0x7FE << 52) | rng.getrandbits(52)))[0]
        else:
            x = rng.uniform(-1e6, 1e6) * 10 ** rng.randint(-30, 30)
        if math.isfinite(x):
            return x


def halfway_number(rng: random.Random) -> str:
    """Exact decimal of a midpoint between adjacent doubles, maybe nudged."""
    x = abs(rand_double(rng))
    y = math.nextafter(x, math.inf)
    if not math.isfinite(y):
        x, y = math.nextafter(x, 0), x
    mid = (decimal.Decimal(x) + decimal.Decimal(y)) / 2
    s = format(mid, "f")
    r = rng.random()
    if r < 0.3:
        s = s + "0" * rng.randint(1, 40) + "1"  # just above
    elif r < 0.45 and "." in s and len(s) > 3:
        s = s[:-1]  # just below (truncated)
    elif r < 0.55:
        s = s + "0" * rng.randint(1, 900)
    # Sometimes in scientific notation.
    if rng.random() < 0.3 and "." in s:
        ip, fp = s.split(".")
        digits = (ip + fp).lstrip("0") or "0"
        lead_zeros = len(ip + fp) - len((ip + fp).lstrip("0"))
        e = len(ip) - lead_zeros - 1
        s = digits[0] + ("." + digits[1:] if len(digits) > 1 else "") + "e" + str(e)
    if rng.random() < 0.3:
        s = "-" + s
    return s


SPECIAL_NUMBERS = [
    "0", "-0", "0.0", "-0.0", "-0e0", "-0E+5", "0e-5", "-0.000", "0.5", "-0.5",
    "1", "-1", "1.0", "1e5", "1E5", "1e+5", "1e-5", "1E-400", "1e-400", "1e999",
    "-1e999", "1e308", "1.7976931348623157e308", "1.7976931348623158e308",
    "1.7976931348623159e308", "-1.7976931348623159e308", "2.2250738585072011e-308",
    "2.2250738585072014e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
    "2.4703282292062328e-324", "5e-324", "3e-324", "1e-323", "9007199254740993",
    "9007199254740993.0", "9007199254740993.000000000000000000001", "9007199254740992",
    "-9007199254740993", "18014398509481985", "295147905179352825856", "0.1", "0.2",
    "0.30000000000000004", "123456789012345678901234567890", "1e0000000000000000000000005",
    "1e-0000000000000000000000005", "1e0", "1E-0", "0e999999999999999999999",
    "1e999999999999999999999", "1e-999999999999999999999", "1.5e18446744073709551616",
    "1.5e-18446744073709551617", "1e9223372036854775807", "1e-9223372036854775808",
    "1e-9223372036854775809", "0.000000000000000000000000000000000000001e39",
    "100000000000000000000000000000000000000e-38", "01", "-01", "00", "+1", ".5",
    "5.", "-.5", "1.e5", "1e", "1e+", "1e-", "-", "--1", "1.5e5.3", "0x10", "1_000",
    "1,5", "NaN", "-NaN", "Infinity", "-Infinity", "+Infinity", "infinity", "nan",
    "Inf", "1\u0661", "\u0661", "\uff11", "1\u00a0", "1 2", "- 1", "1e5e5", "2.",
    "2.e", "1E+-5", "1e--5", "-0.0e-0",
]


def gen_number(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.25:
        return rng.choice(SPECIAL_NUMBERS)
    if r < 0.40:
        x = rand_double(rng)
        s = rng.choice([repr(x), "%.17g" % x, "%.20e" % x, "%.15g" % x])
        s = s.replace("inf", "1e999")
        return s
    if r < 0.50:
        return halfway_number(rng)
    if r < 0.60:  # integers of many sizes
        n = rng.choice([1, 2, 5, 15, 16, 17, 19, 20, 40, 100, 308, 309, 310, 400])
        s = str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(n - 1))
        return ("-" if rng.random() < 0.4 else "") + s
    if r < 0.66:  # around the int -> float overflow boundary
        edge = 2 ** 1024 - 2 ** 970
        v = rng.choice([edge - 1, edge, edge + 1, 2 ** 1024, 2 ** 1024 - 1,
                        2 ** 1024 - 2 ** 971, edge - 2 ** 969, 10 ** 308, 10 ** 309])
        return ("-" if rng.random() < 0.5 else "") + str(v)
    if r < 0.68:  # the 4300-digit integer limit
        n = rng.choice([4299, 4300, 4301, 4400])
        s = "1" + "0" * (n - 1) if rng.random() < 0.5 else "9" * n
        if rng.random() < 0.3:
            s = s + rng.choice([".0", "e0", "e-4300", ".5e-4400"])
        return ("-" if rng.random() < 0.5 else "") + s
    if r < 0.76:  # long fractions / long mantissas
        ip = rng.choice(["0", "1", "9", "123", "0"])
        fp = "".join(rng.choice("0123456789") for _ in range(rng.randint(16, 1200)))
        if rng.random() < 0.3:
            fp = "0" * rng.randint(1, 400) + fp
        s = ip + "." + fp
        if rng.random() < 0.4:
            s += rng.choice(["e", "E"]) + rng.choice(["", "+", "-"]) + str(rng.randint(0, 400))
        return ("-" if rng.random() < 0.3 else "") + s
    if r < 0.82:  # exponent shapes
        m = rng.choice(["1", "0", "7", "1.5", "0.0001", "12345678901234567890", "9.999999999999999"])
        e = rng.choice(["", "+", "-"]) + "0" * rng.randint(0, 30) + str(rng.randint(0, 400))
        if rng.random() < 0.2:
            e = rng.choice(["", "-"]) + "".join(rng.choice("0123456789") for _ in range(rng.randint(15, 40)))
        return ("-" if rng.random() < 0.3 else "") + m + rng.choice("eE") + e
    # small and plain
    v = rng.choice([rng.randint(-1000, 1000), round(rng.uniform(-100, 100), rng.randint(0, 6))])
    return repr(v)


# --------------------------------------------------------------------------
# JSON-ish text
# --------------------------------------------------------------------------

KEYS = ["a", "b", "acc", "loss", "a", "val_loss", "x", "a", "b"]
WEIRD_KEYS = [
    "", " ", "\\u00e9", "é", "\\u00E9", "\\ud83d\\ude00", "😀", "\\ud800", "\\udc00",
    "\\ud800\\ud800", "\\udc00\\ud800", "\\ud800x", "\\ud800\\n", "\\ud83d\\u0041",
    "\\ud83d", "\\ufffd", "\ufffd", "\\\"", "\\\\", "\\/", "/", "\\b\\f\\n\\r\\t",
    "}", "{", "]", "__RESULT__", "__RESULT__ {", "a\\u0000b", "\\u0061", "\u2028",
    "\x7f", "\u200b", "a b", "A", "a\\", "\\u", "\\u12", "\\uZZZZ", "\\x41", "\\U0041",
    "\\'", "\x01", "\t", "\r", "\\u0022", "\\u005c", "\\u007d", "1", "true", "null",
]
STRINGS = [
    "", "x", "}", "{", "}}", "{\"a\":1}", "\\\"}", "\\\\", "\\\\\\\"", "\\/", "\\b",
    "\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\udfff", "é", "😀", "__RESULT__ {\"z\":1}",
    "\\n", "\\t", "\\r", "\u2028", "\x7f", "\\u0000", "\\x", "\\'", "\\a", "\\u12g4",
    "\\", "\t", "\x00", "\x1f", "\r", "a\\\"b\\\"c", "]", "[", ",", ":", "NaN",
]


class Gen:
    def __init__(self, rng: random.Random, depth_bias: float = 0.3):
        self.rng = rng
        self.depth_bias = depth_bias

    def ws(self, json_only: bool = True) -> str:
        r = self.rng.random()
        if r < 0.55:
            return ""
        if r < 0.85:
            return "".join(self.rng.choice(" \t\r ") for _ in range(self.rng.randint(1, 3)))
        if r < 0.93 or json_only:
            return " "
        return self.rng.choice(["\x0c", "\x0b", "\xa0", "\u3000", "\u2028", "\x1c", raw(self.rng)])

    def string(self, key: bool) -> str:
        rng = self.rng
        if key and rng.random() < 0.7:
            body = rng.choice(KEYS)
        elif key:
            body = rng.choice(WEIRD_KEYS)
        elif rng.random() < 0.5:
            body = rng.choice(STRINGS)
        else:
            body = "".join(rng.choice(STRINGS + ["abc", "q"]) for _ in range(rng.randint(1, 4)))
        if rng.random() < 0.05:
            body += raw(rng)
        if rng.random() < 0.03:
            body = body + rng.choice(["\n", "\r\n"]) + rng.choice(["", "x", "}"])
        q = '"'
        if rng.random() < 0.02:
            q = rng.choice(["'", "\u201c", ""])
        return q + body + q

    def value(self, depth: int) -> str:
        rng = self.rng
        r = rng.random()
        deep_ok = depth < 6 and rng.random() < self.depth_bias
        if r < 0.45:
            return gen_number(rng)
        if r < 0.60:
            return self.string(False)
        if r < 0.70:
            return rng.choice(["true", "false", "null", "True", "tru", "nul", "nulll",
                               "falsey", "NaN", "Infinity", "-Infinity", "undefined"][
                : 3 if rng.random() < 0.8 else None])
        if r < 0.85 and deep_ok:
            return self.array(depth + 1)
        if deep_ok:
            return self.obj(depth + 1)
        return gen_number(rng)

    def sep(self) -> str:
        rng = self.rng
        if rng.random() < 0.97:
            return self.ws() + "," + self.ws()
        return rng.choice([";", " ", ",,", "", "\n,"])

    def array(self, depth: int) -> str:
        rng = self.rng
        n = rng.choice([0, 0, 1, 2, 3, 5])
        items = [self.value(depth) for _ in range(n)]
        body = self.ws() + self.sep().join(items) + self.ws()
        if n and rng.random() < 0.03:
            body += ","  # trailing comma
        return "[" + body + ("]" if rng.random() < 0.98 else rng.choice(["}", ""]))

    def obj(self, depth: int = 0) -> str:
        rng = self.rng
        n = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 6]) if depth else rng.choice([0, 1, 1, 2, 2, 3, 4, 5, 8])
        members = []
        for _ in range(n):
            k = self.string(True)
            colon = ":" if rng.random() < 0.985 else rng.choice(["", "=", "::", " "])
            members.append(k + self.ws() + colon + self.ws() + self.value(depth))
        body = self.ws() + self.sep().join(members) + self.ws()
        if n and rng.random() < 0.03:
            body += ","
        close = "}" if rng.random() < 0.985 else rng.choice(["]", "", "}}"])
        return "{" + body + close

    def deep(self) -> str:
        rng = self.rng
        d = rng.choice([2, 10, 500, 980, 985, 990, 995, 997, 998, 999, 1000, 1001, 1002, 1100])
        inner = d - 1  # containers below the top-level object
        kinds = [rng.random() < 0.5 for _ in range(inner)]
        opens = "".join('{"k":' if k else "[" for k in kinds)
        closes = "".join("}" if k else "]" for k in reversed(kinds))
        first = '"a": %s, ' % gen_number(rng) if rng.random() < 0.7 else ""
        last = ', "z": 2' if rng.random() < 0.5 else ""
        core = rng.choice(["1", "", "[]", "{}", '"s"'])
        if core == "" and kinds and kinds[-1]:
            core = "1"  # `{"k":}` would be invalid
        return "{" + first + '"b": ' + opens + core + closes + last + "}"


MARKERS = [
    "__RESULT__", "__RESULT__", "__RESULT__", "__RESULT__", "__RESULT__RESULT__",
    "____RESULT__", "__RESULT____RESULT__", "___RESULT__", "__RESULT___", "__RESULT_",
    "_RESULT__", "__result__", "__RESULT __", "__RE SULT__", "__RESULT\u200b__",
    "__RESULT__ __RESULT__", "__RESULT__\n__RESULT__", "__RESULT__RESULT__RESULT__",
    "__RESULT__\x00", "__RES\u0001ULT__", "__R\u0130SULT__",
]


def mutate(rng: random.Random, s: str) -> str:
    if not s:
        return s
    for _ in range(rng.randint(1, 2)):
        i = rng.randrange(len(s) + 1)
        op = rng.random()
        if op < 0.35 and len(s) > 1:
            j = min(len(s), i + rng.randint(1, 3))
            s = s[:i] + s[j:]
        elif op < 0.8:
            ins = rng.choice(["}", "{", '"', "\n", "\r", ",", ":", "\\", "]", "[", " ",
                              "\r\n", "\x0c", "\xa0", raw(rng), "__RESULT__", "0", "-",
                              ".", "e", "\u2028", "\x00", "\x1f"])
            s = s[:i] + ins + s[i:]
        else:
            s = s[:i]
    return s


def between_ws(rng: random.Random) -> str:
    """What goes between a marker and its `{`."""
    r = rng.random()
    if r < 0.3:
        return ""
    if r < 0.55:
        return " "
    parts = []
    for _ in range(rng.randint(1, 4)):
        q = rng.random()
        if q < 0.35:
            parts.append(rng.choice(ASCII_WS))
        elif q < 0.7:
            parts.append(rng.choice(UNI_WS))
        elif q < 0.8:
            parts.append(rng.choice(NEWLINES))
        elif q < 0.9:
            parts.append(rng.choice(NOT_WS))
        else:
            parts.append(raw(rng))
    return "".join(parts)


NOISE_WORDS = ["step", "loss=0.5", "epoch 3", "{", "}", "{}", '"', "_", "__", "RESULT",
               "___", "done", "{\"a\":1}", "\\", "é", "😀", "\t", "  ", "x}", "{y",
               "__RESULT", "RESULT__", "[", "]", "\u2028", "\u0085", "\u3000"]


def noise(rng: random.Random) -> str:
    n = rng.randint(0, 4)
    out = []
    for _ in range(n):
        q = rng.random()
        if q < 0.75:
            out.append(rng.choice(NOISE_WORDS))
        elif q < 0.9:
            out.append(rng.choice(PY_WS + NOT_WS))
        else:
            out.append(raw(rng))
    return " ".join(out) if rng.random() < 0.5 else "".join(out)


def trailer(rng: random.Random, g: Gen) -> str:
    return rng.choice([
        "", "", "", " ", " }", "}", " x", " } x", " {\"c\":1}", "\r", " \r", "]",
        " # done", "\u2028", "\x85", "\u2028}", "\r}", " " + g.obj(), "\x00", raw(rng),
        "\"}\"", " __RESULT__ {\"c\":2}", " __RESULT__ ", " __RESULT__\u3000", " __RESULT__ x",
    ])


SOUP = [
    "__RESULT__", "__RESULT__", "__RESULT__", "RESULT__", "__RESULT", "__", "_", "RESULT",
    "R", "ESULT__", " ", " ", "\t", "\n", "\n", "\r", "\r\n", "{", "{", "}", "}", "[", "]",
    '"', '"a"', '"a":', ":", ",", "1", "-0", "0.5", "1e5", "true", "null", "\\", '\\"',
    '{"a": 1}', '{"b": 2}', '{"a": 1, "b": 2}', "x", "\xa0", "\u3000", "\u2028", "\x85",
    "\x1c", "\x1f", "\x0b", "\x0c", "\u200b", "\u1680", "\u202f", "\u205f", "\u180e",
    "\u2000", "\u200a", "\u200c", "\ufeff", "\x00", "\x7f",
]


def soup(rng: random.Random, n: int) -> str:
    out = []
    for _ in range(n):
        if rng.random() < 0.08:
            out.append(raw(rng))
        else:
            out.append(rng.choice(SOUP))
    return "".join(out)


def fallback_block(rng: random.Random, g: Gen) -> str:
    """A marker line whose JSON has no `}` (so the match fails there), with
    later markers, whitespace and marker fragments on it, then more lines."""
    head = rng.choice(MARKERS) + between_ws(rng) + "{" + rng.choice(
        ['"x": ', '"a": 1', '"a": 1, ', '', '"s": "', '[', '"a": [1, ', 'bad'])
    frags = ["__RESULT__", "__RESULT__", "RESULT__", "_RESULT__", "__", "_", "RESULT", " ",
             "\xa0", "\u3000", "\t", "\r", "x", "{", '"', "\u2028", "\x1c",
             # markers split by whitespace
             "__RESULT__ RESULT__", "__RESULT__\u3000_RESULT__", "__ RESULT__", "__RESULT_ _",
             "__RESULT__\t__", "__RESULT__\xa0RESULT__ "]
    body = "".join(rng.choice(frags) if rng.random() > 0.1 else raw(rng)
                   for _ in range(rng.randint(1, 7)))
    tail = "".join(rng.choice([" ", "\t", "\xa0", "\u3000", "\r", ""]) for _ in range(rng.randint(0, 2)))
    nl = rng.choice(NEWLINES[:3])
    after = between_ws(rng) + (g.obj() if rng.random() < 0.9 else soup(rng, 4))
    return head + body + tail + nl + after + trailer(rng, g)


def gen_parse_text(rng: random.Random) -> str:
    """One parse case as a str with raw-byte placeholders."""
    g = Gen(rng, depth_bias=rng.choice([0.1, 0.3, 0.6]))
    r = rng.random()
    if r < 0.12:
        return soup(rng, rng.randint(1, 30))
    if r < 0.30:
        return fallback_block(rng, g) + (rng.choice(NEWLINES) + gen_parse_text(rng) if rng.random() < 0.2 else "")
    if r < 0.01:
        return ""
    if r < 0.02:
        return rng.choice(["__RESULT__", "__RESULT__ ", "__RESULT__ {", "__RESULT__{}",
                           "__RESULT__ {\"a\":1", "x__RESULT__", "__RESULT__\n", "{\"a\":1}",
                           "__RESULT__ {\"a\":1}", "__RESULT__ {\"a\":1}\n"])
    lines = []
    n_blocks = rng.choice([1, 1, 1, 2, 2, 3])
    for _ in range(n_blocks):
        q = rng.random()
        if q < 0.05:
            obj = g.deep()
        else:
            obj = g.obj()
            if rng.random() < 0.15:
                obj = mutate(rng, obj)
        block = (noise(rng) if rng.random() < 0.4 else "") + rng.choice(MARKERS) \
            + between_ws(rng) + obj + trailer(rng, g)
        if rng.random() < 0.1:
            block = mutate(rng, block)
        lines.append(block)
        if rng.random() < 0.3:
            lines.append(noise(rng))
    sep_choices = NEWLINES if rng.random() < 0.5 else ["\n"]
    text = ""
    for i, ln in enumerate(lines):
        text += ln
        if i + 1 < len(lines) or rng.random() < 0.5:
            text += rng.choice(sep_choices)
    if rng.random() < 0.1:
        text = noise(rng) + rng.choice(NEWLINES) + text
    return text


def large_parse_cases(rng: random.Random) -> list[bytes]:
    """Inputs where interesting bytes straddle arx's 1 MiB read size."""
    out = []
    pieces = [
        b'__RESULT__ {"a": 1.25, "b": 2}\n',
        b'__RESULT__\xe3\x80\x80{"a": 1}\n',
        b'__RESULT__\xc2\xa0\n\xe2\x80\xa8{"a": 3, "s": "}\\"\\u00e9"}\r\n',
        b'__RESULT__RESULT__ {"a": 1}',
        b'__RESULT__ {"x": __RESULT__ \n{"b":1}',
        b'__RESULT__ {"a": 0.' + b"1" * 900 + b"}",
        b'__RESULT__ {"\xc3\xa9\\ud83d\\ude00": 5e-324}',
    ]
    for piece in pieces:
        for k in range(0, len(piece) + 1, max(1, len(piece) // 12)):
            pad = CHUNK - k
            filler = rng.choice([b"x", b"_", b" ", b"\xc3\xa9"[:1]])
            out.append(filler * pad + piece + b"\n__RESULT__ {\"late\": 9}\n")
    out.append(b"__RESULT__ " + b" " * (CHUNK + 5) + b'{"a": 1}')
    out.append(b"__RESULT__ {\"a\": 1, \"s\": \"" + b"y" * (CHUNK * 2) + b"\"}")
    out.append(b"__RESULT__ {\"a\": 1, \"s\": \"" + b"y" * (CHUNK * 2) + b"\" }}")
    return out


# --------------------------------------------------------------------------
# The expected answer
# --------------------------------------------------------------------------


class Pairs(list):
    pass


def _reject_constant(token: str):
    raise ValueError(f"non-JSON constant: {token}")


def _max_depth(s: str) -> int:
    depth = best = 0
    in_str = esc = False
    for ch in s:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "{[":
            depth += 1
            best = max(best, depth)
        elif ch in "}]":
            depth -= 1
    return best


def _fix_surrogates(k: str) -> str:
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in k)


def shadow_parse(text: str):
    """The reference's answer with the two documented differences applied.

    Returns (pairs, notes): pairs a list of (key, float); notes a set of
    which documented differences were involved.
    """
    notes = set()
    m = _RESULT_RE.search(text)
    if not m:
        return [], notes
    s = m.group(1)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(20000)
    try:
        obj = json.loads(s, parse_constant=_reject_constant, object_pairs_hook=Pairs)
    except (ValueError, TypeError):
        return [], notes
    finally:
        sys.setrecursionlimit(old)
    if not isinstance(obj, Pairs):
        return [], notes
    if _max_depth(s) > MAX_DEPTH:
        notes.add("depth")
        return [], notes
    d: "OrderedDict[str, object]" = OrderedDict()
    for k, v in obj:
        k2 = _fix_surrogates(k)
        if k2 != k:
            notes.add("surrogate")
        d[k2] = v  # first position, last value
    out = []
    for k, v in d.items():
        if isinstance(v, bool):
            continue
        if isinstance(v, (int, float)):
            try:
                f = float(v)
            except OverflowError:
                notes.add("overflow")
                continue
            if math.isfinite(f):
                out.append((k, f))
    return out, notes


def expected_parse(data: bytes):
    """(expected pairs, notes, harness_problem or None)."""
    text = data.decode("utf-8", errors="replace")
    shadow, notes = shadow_parse(text)
    try:
        ref = parse_metrics_line(text)
    except RecursionError:
        notes.add("ref-RecursionError")
        return shadow, notes, None
    except OverflowError:
        notes.add("ref-OverflowError")
        return shadow, notes, None
    except Exception as e:  # an exception not covered by the known differences
        return shadow, notes, f"reference raised {type(e).__name__}: {e}"
    ref_pairs = [(k, float(v)) for k, v in ref.items()]
    if "surrogate" not in notes and "depth" not in notes:
        if _canon(ref_pairs) != _canon(shadow):
            return ref_pairs, notes, f"harness shadow disagrees with reference: {shadow!r} vs {ref_pairs!r}"
    if "depth" in notes:
        # Reference returned although nesting exceeds arx's limit: arx's {} is documented.
        return shadow, notes, None
    if "surrogate" in notes:
        return shadow, notes, None
    return ref_pairs, notes, None


def _canon(pairs):
    return [(k, repr(v)) for k, v in pairs]


def expected_classify(data: bytes, timed_out: bool) -> str:
    text = data.decode("utf-8", errors="replace")
    return classify_run_failure(text, timed_out)


# --------------------------------------------------------------------------
# Running arx
# --------------------------------------------------------------------------


def run_arx(arx: str, args: list[str], timeout: float = 60.0):
    try:
        p = subprocess.run([arx] + args, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, b"", b"timeout"
    return p.returncode, p.stdout, p.stderr


def arx_parse(arx: str, path: str, use_json: bool = False):
    """Returns (pairs or None, problem or None)."""
    rc, out, err = run_arx(arx, ["parse"] + (["--json"] if use_json else []) + [path])
    if rc is None:
        return None, "arx timed out"
    try:
        obj = json.loads(out.decode("utf-8"), object_pairs_hook=Pairs,
                         parse_int=float, parse_float=float,
                         parse_constant=_reject_constant)
    except Exception as e:
        return None, f"unparseable stdout (rc={rc}): {out[:200]!r} stderr={err[:300]!r} ({e})"
    if not isinstance(obj, Pairs) or any(not isinstance(v, float) for _, v in obj):
        return None, f"stdout is not an object of numbers: {out[:200]!r}"
    pairs = [(k, v) for k, v in obj]
    want_rc = 0 if pairs else 1
    if rc != want_rc:
        return pairs, f"exit code {rc}, expected {want_rc} (stderr={err[:300]!r})"
    if len({k for k, _ in pairs}) != len(pairs):
        return pairs, "duplicate keys in arx output"
    return pairs, None


def arx_classify(arx: str, path: str, timed_out: bool):
    args = ["classify"] + (["--timed-out"] if timed_out else []) + [path, "--json"]
    rc, out, err = run_arx(arx, args)
    if rc is None:
        return None, "arx timed out"
    try:
        obj = json.loads(out.decode("utf-8"))
        cls = obj["failure_class"]
    except Exception as e:
        return None, f"unparseable stdout (rc={rc}): {out[:200]!r} stderr={err[:300]!r} ({e})"
    if rc != 0:
        return cls, f"exit code {rc} (stderr={err[:300]!r})"
    return cls, None


# --------------------------------------------------------------------------
# Classify inputs
# --------------------------------------------------------------------------

PHRASES = ["command not found", "not found:", "ModuleNotFoundError", "ImportError",
           "No such file or directory", "ENOENT", "permission denied"]
# Letters that case-insensitively match ASCII in the reference (İ ı -> i, ſ -> s).
MATCHING_LOOKALIKE = {"i": ["\u0130", "\u0131"], "s": ["\u017f"]}
# Look-alikes that must not match.
NONMATCHING_LOOKALIKE = {
    "i": ["\u0399", "\u03b9", "\u0456", "\u0406", "\uff49", "I\u0307", "i\u0307", "\u012b", "\u00ed", "\u1fbe"],
    "s": ["\u0455", "\u015f", "\u0161", "\uff53", "\u00df", "\u1e9b", "\u03c3"],
    "o": ["\u03bf", "\u043e", "\u00f6", "\u0e50", "\u2134"],
    "e": ["\u0435", "\u0454", "\u212f", "\u03b5"],
    "k": ["\u212a", "\u043a"],
    "c": ["\u0441", "\u03f2", "\u216d"],
    "a": ["\u0430", "\u03b1", "\u00e0"],
    "n": ["\u0578", "\u03b7", "\u00f1"],
    "d": ["\u0501", "\u217e"],
    "r": ["\u0433", "\u0280"],
    "t": ["\u0442", "\u03c4"],
    "u": ["\u03c5", "\u057d"],
    "f": ["\ufb01"[:1], "\u0192"],
    "l": ["\u0131", "\u217c", "\u04cf"],
    "m": ["\u043c", "\u217f"],
    "p": ["\u0440", "\u03c1"],
    " ": ["\xa0", "\u3000", "\t", "  ", "\u200b"],
    ":": ["\uff1a", "\u0589", "\u02d0"],
    "g": ["\u0261", "\u011f"],
    "y": ["\u0443", "\u03b3"],
    "h": ["\u04bb"],
    "b": ["\u0184"],
}
LIGATURES = [("fi", "\ufb01"), ("ss", "\u00df"), ("st", "\ufb06"), ("ft", "\ufb05")]


def mangle_phrase(rng: random.Random, p: str) -> str:
    mode = rng.random()
    out = []
    for ch in p:
        c = ch
        r = rng.random()
        if r < 0.5:
            c = ch.upper() if rng.random() < 0.5 else ch.lower()
        if mode < 0.35 and ch.lower() in MATCHING_LOOKALIKE and rng.random() < 0.6:
            c = rng.choice(MATCHING_LOOKALIKE[ch.lower()])
        elif mode > 0.85 and ch.lower() in NONMATCHING_LOOKALIKE and rng.random() < 0.25:
            c = rng.choice(NONMATCHING_LOOKALIKE[ch.lower()])
        elif mode > 0.95 and rng.random() < 0.05:
            c = c + rng.choice(["\u200b", raw(rng), "\x00", "\u0307", ""])
        out.append(c)
    s = "".join(out)
    if rng.random() < 0.05:
        for a, b in LIGATURES:
            s = s.replace(a, b)
    if rng.random() < 0.08:  # truncate (a near miss)
        s = s[: rng.randrange(len(s))] if len(s) > 1 else s
    return s


CL_NOISE = ["Traceback (most recent call last):", "error:", "found", "not", "command",
            "Error", "module", "import", "file", "directory", "no such", "ENOEN", "permission",
            "denied", "bash:", "python:", "\n", "\r\n", " ", "\t", "é", "ı", "İ", "ſ", "K",
            "ğ", "Ş", "ς", "Σ", "😀", ":", "not  found:", "notfound:", "not_found:"]


def gen_classify_bytes(rng: random.Random) -> bytes:
    r = rng.random()
    if r < 0.02:
        return rng.choice([b"", b" ", b"\n", b"\x00", b"\xff", b"\xc4", b"\xc5",
                           b"\xc4\xb0", b"\xc5\xbf", b"\xef\xbb\xbf"])
    parts = []
    for _ in range(rng.randint(0, 6)):
        q = rng.random()
        if q < 0.45:
            parts.append(mangle_phrase(rng, rng.choice(PHRASES)))
        elif q < 0.85:
            parts.append(rng.choice(CL_NOISE))
        elif q < 0.95:
            parts.append(raw(rng))
        else:
            parts.append(rng.choice(["\xc4", "\xc5"]))  # as text: Ä / Å lead-alikes
    s = (" " if rng.random() < 0.5 else "").join(parts)
    b = to_bytes(s)
    if rng.random() < 0.15 and b:
        # Raw 0xC4/0xC5 lead bytes and continuation bytes next to phrase letters.
        i = rng.randrange(len(b) + 1)
        b = b[:i] + rng.choice([b"\xc4", b"\xc5", b"\xc4\xc4\xb0", b"\xc5\xc5\xbf", b"\xb0",
                                b"\xbf", b"\xc4\xb1", b"\xc1\xa9", b"\xe0\x81\xa9"]) + b[i:]
    return b


def systematic_classify_cases() -> list[bytes]:
    """Every phrase with each character swapped for its case and look-alikes."""
    out = []
    for phrase in PHRASES:
        out.append(phrase.encode())
        out.append(phrase.upper().encode())
        out.append(phrase.lower().encode())
        for i, ch in enumerate(phrase):
            low = ch.lower()
            variants = [ch.swapcase()]
            variants += MATCHING_LOOKALIKE.get(low, [])
            variants += NONMATCHING_LOOKALIKE.get(low, [])
            for v in variants:
                out.append((phrase[:i] + v + phrase[i + 1:]).encode())
            for rb in (b"\xc4", b"\xc5", b"\xff", b"\xc4\xb0", b"\xc5\xbf"):
                pb = phrase.encode()
                out.append(pb[:i] + rb + pb[i:])
                out.append(pb[:i] + rb + pb[i + 1:])
    return out


def systematic_parse_cases() -> list[bytes]:
    """Every whitespace / near-whitespace character in each sensitive place."""
    out = []
    chars = PY_WS + NOT_WS + ["\u2029", "\u00a0\u200b", "\u1680", "\u180e", "\u2060"]
    for c in chars:
        for tpl in ('__RESULT__{c}{{"a": 1}}', '__RESULT__ {c} {{"a": 1}}', '__RESULT__{{{c}"a": 1}}',
                    '__RESULT__{{"a"{c}: 1}}', '__RESULT__{{"a": 1{c}}}', '__RESULT__{{"a": 1}}{c}}}',
                    '__RESULT__{{__RESULT__{c}\n{{"a": 1}}', '__RESULT__{c}__RESULT__{{"a": 1}}',
                    '__RESULT__{{"a": 1{c}__RESULT__{c}\n{{"b": 2}}', '__RESULT__{{"a": 1}}{c}\n}}'):
            out.append(to_bytes(tpl.format(c=c)))
        for rb in RAW_BYTES:
            out.append(b"__RESULT__" + c.encode() + rb + b'{"a": 1}')
            out.append(b"__RESULT__" + rb + c.encode() + b'{"a": 1}')
    return out


def large_classify_cases(rng: random.Random) -> list[bytes]:
    out = []
    for phrase in [b"No such file or directory", b"\xc4\xb0mportError", b"Permi\xc5\xbf\xc5\xbfion denied",
                   b"not found:", b"ModuleNotFoundError"]:
        for k in range(0, len(phrase) + 2):
            out.append(b"x" * (CHUNK - k) + phrase + b"\n")
    out.append(b"x" * (CHUNK * 3) + b"ENOENT")
    out.append(b"x" * (CHUNK - 1) + b"\xc4" + b"\xb0mporterror")
    out.append(b"ENOENT" + b"x" * (CHUNK * 2) + b"importerror")
    return out


# --------------------------------------------------------------------------
# Comparison, bucketing, minimisation
# --------------------------------------------------------------------------


def parse_kind(exp, got, problem) -> str | None:
    if problem is not None:
        if got is None:
            return "parse: arx failed (" + problem.split(" (")[0].split(":")[0] + ")"
        return "parse: " + problem.split(" (")[0]
    if _canon(exp) == _canon(got):
        return None
    if _canon([(k.replace("\x7f", ""), v) for k, v in exp]) == _canon(got):
        return "parse: U+007F (DEL) removed from keys in output"
    if not exp and got:
        return "parse: expected {}, arx found metrics"
    if exp and not got:
        return "parse: expected metrics, arx gave {}"
    ek, gk = [k for k, _ in exp], [k for k, _ in got]
    if ek == gk:
        bad = [(a, b) for (_, a), (_, b) in zip(exp, got) if repr(a) != repr(b)]
        a, b = bad[0]
        if a == b:
            return "parse: sign of zero differs"
        return "parse: a value differs"
    if sorted(ek) == sorted(gk):
        return "parse: key order differs"
    return "parse: key set differs"


class Runner:
    def __init__(self, arx: str, tmp: str, jobs: int):
        self.arx = arx
        self.tmp = tmp
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
        self.counter = 0

    def path(self) -> str:
        self.counter += 1
        return os.path.join(self.tmp, f"case{self.counter}.bin")

    def write(self, data: bytes) -> str:
        p = self.path()
        with open(p, "wb") as f:
            f.write(data)
        return p

    # Single, synchronous checks (used by the minimiser).
    def parse_mismatch(self, data: bytes) -> str | None:
        exp, _notes, harness = expected_parse(data)
        if harness:
            return "harness: " + harness.split(":")[0]
        p = self.write(data)
        got, problem = arx_parse(self.arx, p)
        os.unlink(p)
        return parse_kind(exp, got, problem)

    def classify_mismatch(self, data: bytes) -> str | None:
        p = self.write(data)
        try:
            for to in (False, True):
                exp = expected_classify(data, to)
                got, problem = arx_classify(self.arx, p, to)
                if problem or got != exp:
                    return f"classify{' --timed-out' if to else ''}: expected {exp}, arx {got}" + \
                        (f" ({problem.split(' (')[0]})" if problem else "")
        finally:
            os.unlink(p)
        return None


def ddmin(data: bytes, still_fails, budget: int = 3000) -> bytes:
    """Delta debugging to a fixpoint (or until the call budget is spent)."""
    while budget > 0:
        smaller, used = _ddmin_pass(data, still_fails, budget)
        budget -= used
        if smaller == data:
            break
        data = smaller
    return data


def _ddmin_pass(data: bytes, still_fails, budget: int):
    """One pass: remove chunks (halving), then simplify single bytes."""
    calls = 0
    n = 2
    while len(data) >= 2 and calls < budget:
        chunk = max(1, len(data) // n)
        reduced = False
        i = 0
        while i < len(data) and calls < budget:
            cand = data[:i] + data[i + chunk:]
            calls += 1
            if still_fails(cand):
                data = cand
                reduced = True
                n = max(n - 1, 2)
            else:
                i += chunk
        if not reduced:
            if chunk == 1:
                break
            n = min(len(data), n * 2)
    # Try simplifying bytes to a plain letter where possible.
    i = 0
    while i < len(data) and calls < budget:
        if data[i:i + 1] not in (b"a", b"1"):
            for rep in (b"a", b"1", b" "):
                cand = data[:i] + rep + data[i + 1:]
                calls += 1
                if still_fails(cand):
                    data = cand
                    break
        i += 1
    return data, calls


def fmt_pairs(pairs) -> str:
    if pairs is None:
        return "None"
    return "{" + ", ".join(f"{k!r}: {v!r}" for k, v in pairs) + "}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--arx", default=os.path.join(here, "..", "target", "release", "arx"))
    ap.add_argument("--seed", type=int, default=20240607)
    ap.add_argument("--parse-cases", type=int, default=20000)
    ap.add_argument("--classify-cases", type=int, default=5000)
    ap.add_argument("--jobs", type=int, default=max(2, os.cpu_count() or 2))
    ap.add_argument("--no-large", action="store_true", help="skip the >1 MiB inputs")
    ap.add_argument("--no-minimize", action="store_true")
    ap.add_argument("--examples", type=int, default=3, help="examples shown per mismatch kind")
    args = ap.parse_args()

    arx = os.path.abspath(args.arx)
    if not os.access(arx, os.X_OK):
        print(f"arx binary not found at {arx}; build it with `cargo build --release`", file=sys.stderr)
        return 2

    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="arx-diff-")
    runner = Runner(arx, tmp, args.jobs)
    mismatches: dict[str, list[tuple[bytes, str, str]]] = defaultdict(list)
    notes_count: dict[str, int] = defaultdict(int)
    harness_problems: list[tuple[bytes, str]] = []
    total_parse = total_classify = 0

    try:
        # ---------------- parse ----------------
        parse_inputs = [to_bytes(gen_parse_text(rng)) for _ in range(args.parse_cases)]
        parse_inputs += systematic_parse_cases()
        if not args.no_large:
            parse_inputs += large_parse_cases(rng)
        futures = []
        for idx, data in enumerate(parse_inputs):
            exp, notes, harness = expected_parse(data)
            for n in notes:
                notes_count[n] += 1
            if harness:
                harness_problems.append((data, harness))
                continue
            p = runner.write(data)
            use_json = idx % 20 == 0
            fut = runner.pool.submit(arx_parse, arx, p, False)
            fut2 = runner.pool.submit(arx_parse, arx, p, True) if use_json else None
            futures.append((data, exp, p, fut, fut2))
            # Keep the number of live files bounded.
            if len(futures) >= 400:
                total_parse += _drain_parse(futures, mismatches)
        total_parse += _drain_parse(futures, mismatches)

        # ---------------- classify ----------------
        cl_inputs = [gen_classify_bytes(rng) for _ in range(args.classify_cases)]
        cl_inputs += systematic_classify_cases()
        if not args.no_large:
            cl_inputs += large_classify_cases(rng)
        cfutures = []
        for idx, data in enumerate(cl_inputs):
            p = runner.write(data)
            exp = expected_classify(data, False)
            fut = runner.pool.submit(arx_classify, arx, p, False)
            fut_to = runner.pool.submit(arx_classify, arx, p, True) if idx % 10 == 0 else None
            cfutures.append((data, exp, p, fut, fut_to))
            if len(cfutures) >= 400:
                total_classify += _drain_classify(cfutures, mismatches)
        total_classify += _drain_classify(cfutures, mismatches)

        # ---------------- report ----------------
        print("=" * 72)
        print(f"arx: {arx}")
        print(f"seed: {args.seed}")
        print(f"parse cases run:    {total_parse} (of which {sum(1 for d in parse_inputs if len(d) > CHUNK)} larger than 1 MiB; every 20th also run with --json)")
        print(f"classify cases run: {total_classify} (every 10th also run with --timed-out)")
        print("documented differences exercised (not counted as mismatches): " +
              (", ".join(f"{k}={v}" for k, v in sorted(notes_count.items())) or "none"))
        n_mis = sum(len(v) for v in mismatches.values())
        print(f"mismatching cases: {n_mis}")
        if harness_problems:
            print(f"HARNESS PROBLEMS: {len(harness_problems)}")
            for data, msg in harness_problems[:5]:
                print(f"  input={data[:300]!r}\n  {msg}")
        for kind, cases in sorted(mismatches.items(), key=lambda kv: -len(kv[1])):
            print("-" * 72)
            print(f"[{len(cases)} cases] {kind}")
            cases.sort(key=lambda c: len(c[0]))
            for data, exp_s, got_s in cases[: args.examples]:
                shown = repr(data) if len(data) <= 400 else repr(data[:200]) + f"...({len(data)} bytes)"
                print(f"  input:    {shown}")
                print(f"  expected: {exp_s}")
                print(f"  arx:      {got_s}")
            if not args.no_minimize and len(cases[0][0]) <= 20000:
                data = cases[0][0]
                if kind.startswith("parse"):
                    check = runner.parse_mismatch
                else:
                    check = runner.classify_mismatch
                small = ddmin(data, lambda d: check(d) == kind)
                if check(small) == kind:
                    if kind.startswith("parse"):
                        exp, _, _ = expected_parse(small)
                        p = runner.write(small)
                        got, prob = arx_parse(arx, p)
                        exp_s, got_s = fmt_pairs(exp), fmt_pairs(got) + (f" [{prob}]" if prob else "")
                    else:
                        exp_s = expected_classify(small, False)
                        p = runner.write(small)
                        got, prob = arx_classify(arx, p, False)
                        got_s = f"{got}" + (f" [{prob}]" if prob else "")
                    print(f"  minimised input: {small!r}")
                    print(f"    expected: {exp_s}")
                    print(f"    arx:      {got_s}")
        print("=" * 72)
        if n_mis or harness_problems:
            print("RESULT: MISMATCHES FOUND")
            return 1
        print("RESULT: no mismatches")
        return 0
    finally:
        runner.pool.shutdown(wait=True)
        shutil.rmtree(tmp, ignore_errors=True)


def _drain_parse(futures, mismatches) -> int:
    n = 0
    for data, exp, p, fut, fut2 in futures:
        got, problem = fut.result()
        kind = parse_kind(exp, got, problem)
        if kind:
            mismatches[kind].append((data, fmt_pairs(exp), fmt_pairs(got) + (f" [{problem}]" if problem else "")))
        if fut2 is not None:
            got2, problem2 = fut2.result()
            if problem2 or got is None or _canon(got2) != _canon(got):
                mismatches["parse: --json output differs from plain output"].append(
                    (data, fmt_pairs(got), fmt_pairs(got2) + (f" [{problem2}]" if problem2 else "")))
        n += 1
        try:
            os.unlink(p)
        except OSError:
            pass
    futures.clear()
    return n


def _drain_classify(futures, mismatches) -> int:
    n = 0
    for data, exp, p, fut, fut_to in futures:
        got, problem = fut.result()
        if problem or got != exp:
            kind = f"classify: expected {exp}, arx {got}" + (f" ({problem.split(' (')[0]})" if problem else "")
            mismatches[kind].append((data, exp, f"{got}" + (f" [{problem}]" if problem else "")))
        if fut_to is not None:
            got, problem = fut_to.result()
            if problem or got != "H4":
                kind = f"classify --timed-out: expected H4, arx {got}"
                mismatches[kind].append((data, "H4", f"{got}" + (f" [{problem}]" if problem else "")))
        n += 1
        try:
            os.unlink(p)
        except OSError:
            pass
    futures.clear()
    return n


if __name__ == "__main__":
    sys.exit(main())

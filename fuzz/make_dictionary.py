#!/usr/bin/env python3
"""Writes a libFuzzer dictionary for one frontend: the language's keywords
and punctuation, and every op, attribute and enum value named in ops.td, so
that mutations produce words the parser knows instead of waiting to guess
them byte by byte.

Usage: make_dictionary.py {fus,yaml} ops.td OUTPUT
"""
import re
import sys

DTYPES = ["bool", "i32", "i64", "f16", "bf16", "f32", "f64"]
FUS_WORDS = ["fusion", "input", "output", "layout", "strided", "aliases", "true", "false",
             "{", "}", "(", ")", "[", "]", ",", ":", "=", "//", "#", "-1", "1e-05", "0.5",
             "\n", "inf", "nan"]
YAML_WORDS = ["fusions:", "name:", "inputs:", "ops:", "outputs:", "dtype:", "shape:",
              "layout:", "strided:", "aliases:", "out:", "op:", "args:", "- ", "{", "}",
              "[", "]", ": ", ", ", "\n  ", "\n    - ", "|", ">", "\"", "'", "&a", "*a",
              "!!str", "---", "...", ".inf", "-.inf", ".nan"]


def escape(word):
    return "".join(c if c.isprintable() and c not in '"\\' else "\\x%02x" % ord(c)
                   for c in word)


def main():
    form, td_path, out_path = sys.argv[1:]
    td = open(td_path).read()
    ops = re.findall(r'^def \w+Op\s*:\s*\w+<"(\w+)"', td, re.M)
    attrs = re.findall(r'(?:Req|Opt)<"(\w+)"', td)
    enums = [v for group in re.findall(r"EnumAttr<\[([^\]]*)\]>", td)
             for v in re.findall(r'"(\w+)"', group)]
    words = (FUS_WORDS if form == "fus" else YAML_WORDS + FUS_WORDS) + DTYPES
    words += ops + [a + "=" for a in attrs] + ['"%s"' % e for e in enums]
    if form == "yaml":
        words += [a + ": " for a in attrs]
    with open(out_path, "w") as out:
        for word in dict.fromkeys(words):  # unique, in order
            out.write('"%s"\n' % escape(word))


if __name__ == "__main__":
    main()

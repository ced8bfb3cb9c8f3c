"""Writes and prints small .npy files with the standard library alone (the
lit tests of fuserc-interp must not need NumPy).

  npy.py write FILE DESCR SHAPE V...   SHAPE: comma-separated extents, '' for 0-d
  npy.py print FILE                    prints 'DESCR SHAPE: v v v ...'
"""
import ast
import struct
import sys

FORMATS = {"<f2": "e", "<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|b1": "?"}


def write(path, descr, shape_text, values):
    shape = tuple(int(e) for e in shape_text.split(",") if e)
    code = FORMATS[descr]
    parse = int if code in "iq" else (lambda v: v == "1") if code == "?" else float
    data = struct.pack("<%d%s" % (len(values), code), *map(parse, values))
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %r, }" % (descr, shape)
    header += " " * ((64 - (11 + len(header)) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1") + data)


def show(path):
    with open(path, "rb") as f:
        raw = f.read()
    (length,) = struct.unpack("<H", raw[8:10])
    header = ast.literal_eval(raw[10:10 + length].decode("latin1"))
    code = FORMATS[header["descr"]]
    count = len(raw[10 + length:]) // struct.calcsize(code)
    values = struct.unpack("<%d%s" % (count, code), raw[10 + length:])
    text = " ".join(str(int(v)) if code == "?" else repr(v) for v in values)
    print("%s %s: %s" % (header["descr"], list(header["shape"]), text))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    else:
        show(sys.argv[2])

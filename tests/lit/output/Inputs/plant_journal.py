"""Plants a commit journal in DIR that would rename TEMP over TARGET, to
check that fuserc obeys only journals its own runs wrote:

  FORMAT 1  fuserc's first journal format;
  FORMAT 2  the second, whole, with correct (unkeyed) SHA-256s;
  FORMAT 3  the third, signed, without the directory it was written for;
  FORMAT 4  the current one, its signature an unkeyed SHA-256 of the text
            (a forgery without the key), or with --key FILE its HMAC-SHA256
            under that key, as a run of its owner signs it.

With FORMAT 3 and 4, --run gives the run id (default: the one in TEMP's
name) and --outputs the base name of the output set (default: k); with
FORMAT 4, --dir the directory it claims (default: DIR's real path).

usage: plant_journal.py DIR FORMAT TEMP TARGET [--key FILE] [--run ID] [--outputs NAME] [--dir D]
"""
import argparse
import hashlib
import hmac
import os
import re

parser = argparse.ArgumentParser()
parser.add_argument("directory")
parser.add_argument("form", choices=["1", "2", "3", "4"])
parser.add_argument("temp")
parser.add_argument("target")
parser.add_argument("--key")
parser.add_argument("--run")
parser.add_argument("--outputs", default="k")
parser.add_argument("--dir")
args = parser.parse_args()


def field(name):
    return "%d:%s" % (len(name), name)


entry = field(args.temp) + field(args.target)
sha = hashlib.sha256(open(os.path.join(args.directory, args.temp), "rb").read()).hexdigest() \
    if args.form != "1" else ""
if args.form == "1":
    text = "fuserc-journal-1\n" + entry + "\n"
elif args.form == "2":
    text = "fuserc-journal-2\n" + entry + " " + sha + "\n"
    text += "sha256=" + hashlib.sha256(text.encode()).hexdigest() + "\n"
else:
    match = re.search(r"\.fuserc-tmp-(.*)-[^-]*$", args.temp)
    run = args.run or (match.group(1) if match else "1-00000000")
    text = "fuserc-journal-%s\nrun=%s\nset=outputs:%s\n" % (args.form, run, field(args.outputs))
    if args.form == "4":
        text += "dir=%s\n" % field(args.dir or os.path.realpath(args.directory))
    text += entry + " " + sha + "\n"
    if args.key:
        key = open(args.key, "rb").read()
        signature = hmac.new(key, text.encode(), hashlib.sha256).hexdigest()
    else:
        signature = hashlib.sha256(text.encode()).hexdigest()
    text += "hmac-sha256=" + signature + "\n"
with open(os.path.join(args.directory, ".fuserc-journal-" + args.target), "w") as f:
    f.write(text)

"""Plants a commit journal in DIR that would rename TEMP over TARGET: in the
format of fuserc's first journals (FORMAT 1), or whole in the current
format with correct SHA-256s (FORMAT 2), so that only its names make it
foreign.

usage: plant_journal.py DIR FORMAT TEMP TARGET
"""
import hashlib
import os
import sys

directory, form, temp, target = sys.argv[1:]
entry = "%d:%s%d:%s" % (len(temp), temp, len(target), target)
if form == "1":
    text = "fuserc-journal-1\n" + entry + "\n"
else:
    data = open(os.path.join(directory, temp), "rb").read()
    text = "fuserc-journal-2\n" + entry + " " + hashlib.sha256(data).hexdigest() + "\n"
    text += "sha256=" + hashlib.sha256(text.encode()).hexdigest() + "\n"
with open(os.path.join(directory, ".fuserc-journal-" + target), "w") as f:
    f.write(text)

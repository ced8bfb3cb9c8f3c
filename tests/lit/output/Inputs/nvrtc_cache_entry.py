"""Prints the path of the compile cache's entry for the sm_90 NVRTC compile
that a `fuserc -v` log names: nvrtc_cache_entry.py CACHE_DIR LOG. The cache
tests damage that entry, not whichever a directory listing gives first."""
import glob
import re
import sys

key = re.search(r"sm_90: NVRTC compile \(key ([0-9a-f]+)\)", open(sys.argv[2]).read()).group(1)
(entry,) = glob.glob("%s/%s/%s*" % (sys.argv[1], key[:2], key))
print(entry)

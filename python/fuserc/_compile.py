"""fuserc.compile: runs the fuserc command line (docs/command-line.md) with
--emit so, and loads what it wrote."""
import os
import shutil
import subprocess
import tempfile

from ._errors import CompileError, FusercError
from ._library import load


def find_fuserc(fuserc=None):
    """The fuserc executable: the argument, else $FUSERC, else one beside this
    package (fuserc/bin/fuserc, or the bin/ of its prefix), else on PATH."""
    if fuserc:
        return fuserc
    if os.environ.get("FUSERC"):
        return os.environ["FUSERC"]
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "bin", "fuserc"),
                      os.path.join(here, "..", "..", "..", "..", "bin", "fuserc")):
        if os.access(candidate, os.X_OK):
            return os.path.normpath(candidate)
    found = shutil.which("fuserc")
    if not found:
        raise FusercError("fuserc was not found: pass fuserc=PATH, set FUSERC, or put it on PATH")
    return found


def _is_source_text(path_or_source):
    return isinstance(path_or_source, str) and ("\n" in path_or_source or
                                                "{" in path_or_source)


def run_fuserc(path_or_source, emit, archs=None, out_dir=None, name=None, options=(),
               fuserc=None):
    """Runs `fuserc SOURCE -o OUT_DIR --emit EMIT` (EMIT a list of --emit
    names) as compile() describes; returns (out_dir, the outputs' base name).
    Raises CompileError when fuserc fails."""
    exe = find_fuserc(fuserc)
    if _is_source_text(path_or_source):
        scratch = tempfile.mkdtemp(prefix="fuserc-source-")
        source = os.path.join(scratch, (name or "module") + ".fus")
        with open(source, "w", encoding="utf-8") as f:
            f.write(path_or_source)
    else:
        source = os.fspath(path_or_source)
    if out_dir is None:
        out_dir = tempfile.mkdtemp(prefix="fuserc-")
    command = [exe, source, "-o", os.fspath(out_dir), "--emit", ",".join(emit)]
    if name:
        command += ["--name", name]
    if archs:
        command += ["--arch", ",".join([archs] if isinstance(archs, str) else archs)]
    command += list(options)
    try:
        proc = subprocess.run(command, capture_output=True, text=True)
    except OSError as e:
        raise FusercError("cannot run %s: %s" % (exe, e.strerror)) from None
    if proc.returncode != 0:
        raise CompileError(command, proc.returncode, proc.stderr + proc.stdout)
    return out_dir, name or os.path.splitext(os.path.basename(source))[0]


# What compile() always writes: the loaded library needs the manifest and the
# shared library; the header and fatbin are for people and other tools.
EMIT = ("header", "fatbin", "manifest", "so")


def compile(path_or_source, archs=None, out_dir=None, name=None, options=(), fuserc=None,
            load_library=True, also_emit=()):
    """Compiles a fusion file (a path: .fus, .yaml or .yml) or fusion source
    text (written to `name`.fus, default module.fus, in a temporary
    directory) with `fuserc -o out_dir --emit header,fatbin,manifest,so`.
    `archs`: a list such as ["sm_90"] (default fuserc's); `options`: more
    flags (e.g. ["--shape", "N=4096"]); `also_emit`: more --emit outputs
    (e.g. ["source"] for NAME.c, ["cuda"]). Returns the loaded Library (or
    out_dir when load_library is False). Raises CompileError, carrying
    fuserc's file:line:col diagnostics, when fuserc fails."""
    out_dir, stem = run_fuserc(path_or_source, EMIT + tuple(also_emit), archs, out_dir, name,
                               options, fuserc)
    if not load_library:
        return out_dir
    return load(out_dir, stem)

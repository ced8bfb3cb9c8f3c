"""The GPU harnesses' thin layer over the fuserc Python package (python/,
docs/python.md), shared by gpu/run_tests.py, gpu/fuzz_diff.py,
bench/run.py and gpu/selftest.py. The package builds (`fuserc --emit so`,
or fuserc.testing with the variant hook), loads and calls the libraries;
what is here is test policy only: the harnesses' --dlpack-include and
--cuda-home handed to those builds, a fusion file built into its own
directory with fuserc's refusal sorted into SKIP or FAIL, launches
prepared on copies of the inputs that in-place outputs write, the driver
stub for runs without a GPU, and one-line reasons for summaries.

Importing it needs neither PyTorch nor a GPU; it puts python/ first on
sys.path, so `import fuserc` is the repository's package.
"""
import ctypes
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))

import fuserc  # noqa: E402
import fuserc.testing  # noqa: E402


class HarnessError(Exception):
    """A fusion file that did not build: `exit_code` is fuserc's (None when
    fuserc succeeded and the C build or the manifest failed), `skipped`
    whether fuserc refused it with a message saying what it cannot do
    *yet* ("does not generate 'reduction' kernels yet")."""

    def __init__(self, message, exit_code=None, output=""):
        super().__init__(message)
        self.exit_code = exit_code
        self.output = output
        self.skipped = bool(exit_code) and re.search(r"\byet\b", output) is not None


def short_reason(text, width=110):
    """One line for a summary table: fuserc's "cannot be compiled yet" notes
    when there are any (they name the segment and scheduler), else the first
    line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    notes = [line.split("note: ", 1)[-1] for line in lines if "cannot be compiled yet" in line]
    segments = re.findall(r"fusion '(\w+)', segment (\d+) .*? is scheduled as '(\w+)'.*? yet",
                          text)
    if segments:
        notes = ["%s segment %s: no '%s' kernels yet" % s for s in segments]
    line = "; ".join(notes) if notes else (lines[0] if lines else "")
    return line if len(line) <= width else line[:width - 3] + "..."


def sanitize_name(stem):
    """A C identifier for the library name fuserc is given (--name)."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", stem)
    return "_" + name if name[0].isdigit() else name


def use_toolchain(dlpack_include, cuda_home):
    """The harness's --dlpack-include and --cuda-home for every library
    build: fuserc --emit so and fuserc.testing read the same variables
    (docs/command-line.md, "Shared library"). The GPU machine's dlpack.h
    is not where fuserc was built to look (it travels in .carry/include)."""
    os.environ["FUSERC_DLPACK_INCLUDE"] = os.path.abspath(dlpack_include)
    os.environ["FUSERC_CUDA_INCLUDE"] = os.path.join(os.path.abspath(cuda_home), "include")
    stubs = os.path.join(os.path.abspath(cuda_home), "lib64", "stubs")
    if not os.path.isdir(stubs):
        stubs = os.path.join(os.path.abspath(cuda_home), "lib", "stubs")
    os.environ["FUSERC_CUDA_STUBS"] = stubs


def load_driver(cuda_home):
    """Makes libcuda.so.1 loadable, so that the libraries load: the driver
    when there is one, else the toolkit's stub (soname libcuda.so.1, loaded
    globally; every driver call then fails with ERROR_CUDA). Returns True
    when it is the stub."""
    try:
        ctypes.CDLL("libcuda.so.1")
        return False
    except OSError:
        pass
    for lib in ("lib64", "lib"):
        stub = os.path.join(cuda_home, lib, "stubs", "libcuda.so")
        if os.path.exists(stub):
            ctypes.CDLL(stub, mode=ctypes.RTLD_GLOBAL)
            return True
    raise HarnessError("no libcuda.so.1 and no driver stub under %s/lib64/stubs" % cuda_home)


class Build:
    """One fusion file compiled into `out_dir`: NAME.h, NAME.c, the fatbin,
    the manifest (`manifest`, read by the package) and libNAME.so."""

    def __init__(self, source, name, out_dir):
        self.source = source
        self.name = name
        self.out_dir = out_dir
        self.lib_path = os.path.join(out_dir, "lib%s.so" % name)
        path = os.path.join(out_dir, name + ".manifest.json")
        try:
            self.manifest = fuserc.read_manifest(path)
        except fuserc.ManifestError as e:
            raise HarnessError(str(e)) from None

    def load(self):
        """The library, loaded by the package (load it after PyTorch made
        its CUDA context, so that the launches run in it)."""
        return fuserc.load(self.out_dir, self.name)


def build(fuserc_path, source, work_dir, arch="sm_90", options=(), hook=False, name=None):
    """Compiles `source` into WORK_DIR/NAME (emptied first, so nothing stale
    survives a failure): with `fuserc --emit header,source,fatbin,manifest,so`,
    or with hook, NAME.c built by fuserc.testing with the variant hook.
    Returns a Build; HarnessError when fuserc or the C build fails or the
    manifest cannot be read."""
    name = name or sanitize_name(os.path.splitext(os.path.basename(source))[0])
    out_dir = os.path.join(work_dir, name)
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    try:
        if hook:
            fuserc.testing.compile(source, archs=arch, out_dir=out_dir, name=name,
                                   options=options, fuserc=fuserc_path, load_library=False)
        else:
            fuserc.compile(source, archs=arch, out_dir=out_dir, name=name, options=options,
                           fuserc=fuserc_path, load_library=False, also_emit=("source",))
    except fuserc.CompileError as e:
        message = e.output.strip().replace("fuserc: error: ", "")
        raise HarnessError("fuserc (exit %d): %s" % (e.exit_code, message), e.exit_code,
                           e.output) from None
    except fuserc.FusercError as e:  # the C build of the hooked library
        raise HarnessError(str(e)) from None
    return Build(source, name, out_dir)


def prepare(fusion, values, poison=True):
    """fusion.prepare on `values` ({input name: tensor or number}), poisoned
    unless told otherwise; an input that an in-place output writes is
    copied first, so the caller's values stay what the reference read and
    the launch can run again on them."""
    values = dict(values)
    for out in fusion.spec.outputs:
        if out.aliases:
            values[out.aliases] = values[out.aliases].clone()
    return fusion.prepare(*[values[i.name] for i in fusion.spec.inputs], poison=poison)


def outputs_by_name(prepared):
    """{output name: tensor} of a PreparedLaunch."""
    return {o.name: t for o, t in zip(prepared.fusion.spec.outputs, prepared.outputs)}

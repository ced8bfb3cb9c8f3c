"""Libraries built with the header's testing hook (docs/header.md, "Testing
hook"), through which a test harness forces each alternative a launch block
offers and hears which kernels ran (docs/python.md, "Testing hook"):

    lib = fuserc.testing.compile("fusion.fus", archs=["sm_90"])
    hook = fuserc.testing.variant_hook(lib)
    hook.force(0)            # from the next launch on, alternative 0 of each block
    lib.f(x); hook.launched()

The library is NAME.c compiled with FUSERC_TEST_VARIANTS and the hook's two
functions (defined here, with the controls), by the host C compiler, in
place of `fuserc --emit so`'s libNAME.so. Not for production: the hook
costs a call per launch block."""
import ctypes
import os
import subprocess
import tempfile

from ._compile import run_fuserc
from ._errors import FusercError
from ._library import load

# The hook's definitions: fuserc_test_set(pick) makes every launch block with
# more than `pick` alternatives force alternative `pick` (-1: none) and
# forgets the kernels heard; fuserc_test_most() is the most alternatives a
# block offered so far; fuserc_test_name(i) the i-th of the
# fuserc_test_count() kernels launched since fuserc_test_set (the first 256).
HOOK_C = r"""
static int hook_pick = -1, hook_most = 0, hook_count = 0;
static const char *hook_names[256];
int fuserc_test_variant(const char *kernel, int alternatives) {
  (void)kernel;
  if (alternatives > hook_most)
    hook_most = alternatives;
  return hook_pick < alternatives ? hook_pick : -1;
}
void fuserc_test_launched(const char *kernel) {
  if (hook_count < 256)
    hook_names[hook_count++] = kernel;
}
void fuserc_test_set(int pick) { hook_pick = pick; hook_count = 0; }
int fuserc_test_most(void) { return hook_most; }
int fuserc_test_count(void) { return hook_count; }
const char *fuserc_test_name(int i) { return i >= 0 && i < hook_count ? hook_names[i] : 0; }
"""

# What compile() writes with fuserc: NAME.c is compiled here, not by fuserc.
EMIT = ("header", "source", "fatbin", "manifest")


def _toolchain_part(given, variable, default, what, check):
    """A part of the C toolchain: the argument, else $VARIABLE, else the
    default; FusercError naming the variable when it is not usable."""
    value = given or os.environ.get(variable) or default
    if not check(value):
        raise FusercError("%s: '%s' is not usable (pass it, or set %s)" % (what, value, variable))
    return value


def toolchain(cc=None, dlpack_include=None, cuda_home=None):
    """(cc, dlpack include dir, CUDA include dir, CUDA stubs dir) as
    `fuserc --emit so` takes them ($FUSERC_CC, $FUSERC_DLPACK_INCLUDE,
    $FUSERC_CUDA_INCLUDE, $FUSERC_CUDA_STUBS; docs/command-line.md), the
    arguments first; defaults cc, /usr/include and the toolkit in
    `cuda_home`, else $CUDA_HOME, else /usr/local/cuda."""
    home = cuda_home or os.environ.get("CUDA_HOME") or "/usr/local/cuda"
    stubs = os.path.join(home, "lib64", "stubs")
    if not os.path.isdir(stubs):
        stubs = os.path.join(home, "lib", "stubs")
    return (
        _toolchain_part(cc, "FUSERC_CC", "cc", "the C compiler", lambda v: bool(v)),
        _toolchain_part(dlpack_include, "FUSERC_DLPACK_INCLUDE", "/usr/include",
                        "the directory holding dlpack/dlpack.h",
                        lambda v: os.path.exists(os.path.join(v, "dlpack", "dlpack.h"))),
        _toolchain_part(cuda_home and os.path.join(cuda_home, "include"), "FUSERC_CUDA_INCLUDE",
                        os.path.join(home, "include"), "the directory holding cuda.h",
                        lambda v: os.path.exists(os.path.join(v, "cuda.h"))),
        _toolchain_part(cuda_home and stubs, "FUSERC_CUDA_STUBS", stubs,
                        "the directory holding the driver stub libcuda.so",
                        lambda v: os.path.exists(os.path.join(v, "libcuda.so"))),
    )


def build_library(directory, name=None, hook=True, cc=None, dlpack_include=None,
                  cuda_home=None):
    """Compiles DIR/NAME.c (fuserc --emit source; NAME may be left out when
    the directory holds one) into DIR/libNAME.so, with the testing hook when
    `hook`, as `fuserc --emit so` links it (-Wl,-Bsymbolic: each library's
    launches call its own hook). Returns the library's path; FusercError
    with the compiler's messages when it fails. A process that already
    loaded DIR/libNAME.so keeps the old one: build into a new directory."""
    if name is None:
        sources = sorted(f for f in os.listdir(directory) if f.endswith(".c"))
        if len(sources) != 1:
            raise FusercError("%s holds %s C sources; name the library"
                              % (directory, len(sources) or "no"))
        name = sources[0][:-2]
    if not os.path.exists(os.path.join(directory, name + ".c")):
        raise FusercError("%s has no %s.c: compile with `fuserc --emit source` (as "
                          "fuserc.testing.compile does)" % (directory, name))
    cc, dlpack_include, cuda_include, stubs = toolchain(cc, dlpack_include, cuda_home)
    source = ("#define FUSERC_TEST_VARIANTS\n" if hook else "") + \
        '#include "%s.c"\n' % name + (HOOK_C if hook else "")
    path = os.path.join(directory, "lib%s.so" % name)
    fd, scratch = tempfile.mkstemp(prefix=".lib%s." % name, suffix=".so", dir=directory)
    os.close(fd)
    command = [cc, "-shared", "-fPIC", "-O2", "-std=c99", "-x", "c", "-", "-I", directory,
               "-isystem", dlpack_include, "-isystem", cuda_include, "-o", scratch,
               "-L", stubs, "-lcuda", "-lpthread", "-Wl,-Bsymbolic"]
    try:
        proc = subprocess.run(command, input=source, capture_output=True, text=True)
    except OSError as e:
        os.unlink(scratch)
        raise FusercError("cannot run %s: %s" % (cc, e.strerror)) from None
    if proc.returncode != 0:
        os.unlink(scratch)
        raise FusercError("compiling %s.c failed:\n%s\n%s" % (name, " ".join(command),
                                                             proc.stderr.rstrip()))
    os.replace(scratch, path)
    return path


def compile(path_or_source, archs=None, out_dir=None, name=None, options=(), fuserc=None,
            load_library=True, cc=None, dlpack_include=None, cuda_home=None):
    """fuserc.compile's counterpart for tests: `fuserc --emit
    header,source,fatbin,manifest`, then build_library with the hook.
    Returns the loaded Library (or out_dir when load_library is False);
    CompileError when fuserc fails, FusercError when the C build does."""
    out_dir, stem = run_fuserc(path_or_source, EMIT, archs, out_dir, name, options, fuserc)
    build_library(out_dir, stem, True, cc, dlpack_include, cuda_home)
    if not load_library:
        return out_dir
    return load(out_dir, stem)


class VariantHook:
    """The controls of a library built with the hook (variant_hook)."""

    def __init__(self, cdll):
        self._set = cdll.fuserc_test_set
        self._set.argtypes, self._set.restype = [ctypes.c_int], None
        self._most = cdll.fuserc_test_most
        self._most.argtypes, self._most.restype = [], ctypes.c_int
        self._count = cdll.fuserc_test_count
        self._count.argtypes, self._count.restype = [], ctypes.c_int
        self._name = cdll.fuserc_test_name
        self._name.argtypes, self._name.restype = [ctypes.c_int], ctypes.c_char_p

    def force(self, pick):
        """From the next launch on, alternative `pick` of each launch block
        that offers more than `pick` (-1: each block's own choice); forgets
        the kernels heard so far."""
        self._set(pick)

    def most(self):
        """The most alternatives any launch block offered so far."""
        return self._most()

    def launched(self):
        """The kernels launched since the last force(), in order."""
        return [self._name(i).decode() for i in range(self._count())]


def variant_hook(library):
    """The hook's controls of a Library, or None when it was built without
    the hook (by `fuserc --emit so`)."""
    try:
        library.cdll.fuserc_test_set
    except AttributeError:
        return None
    return VariantHook(library.cdll)

"""Shared by the package's tests: the fuserc to compile with ($FUSERC) and the
test cases compiled once per run into a scratch directory."""
import os
import tempfile

import fuserc

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases", "package_cases.fus")
_built = {}


def fuserc_path():
    path = os.environ.get("FUSERC")
    if not path:
        raise RuntimeError("set FUSERC to the fuserc executable to test with")
    return path


def scratch(prefix):
    return tempfile.mkdtemp(prefix="fuserc-pytest-" + prefix)


def cases_library():
    """package_cases.fus compiled and loaded (once)."""
    if "lib" not in _built:
        _built["lib"] = fuserc.compile(CASES, archs=["sm_90"], out_dir=scratch("cases"),
                                       fuserc=fuserc_path(), options=["--no-cache"])
    return _built["lib"]


def have_torch():
    try:
        import torch  # noqa: F401
        return True
    except ImportError:
        return False

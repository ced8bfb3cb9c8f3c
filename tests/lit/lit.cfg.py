# lit configuration for fuserc's file-based tests: golden dumps (FileCheck),
# expected diagnostics, text/YAML equivalence and TableGen backend errors.
import os
import sys
import lit.formats

config.name = "fuserc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".fus", ".yaml", ".yml", ".td", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "Inputs"]

config.substitutions.append(("%fuserc-tblgen", config.fuserc_tblgen))
config.substitutions.append(("%fuserc-interp", config.fuserc_interp))
config.substitutions.append(("%fuserc", config.fuserc))
config.substitutions.append(("%root", config.source_root))
# The CUDA toolkit, for compiling generated headers and linking the driver stub.
config.substitutions.append(("%cuda-include", config.cuda_include))
config.substitutions.append(("%cuda-stubs", config.cuda_stubs))
# Scheduler plugins: the example (examples/plugin/) and the broken ones of
# tests/plugins/, as %plugins/libNAME.so.
config.substitutions.append(("%plugins", config.plugin_dir))
# The Python running lit, for scripts that generate big inputs at test time
# (tests/lit/limits/Inputs/gen.py).
config.substitutions.append(("%python", sys.executable))
# `%expect-exit N CMD...` runs CMD and fails unless it exits with exactly N.
config.substitutions.append(
    ("%expect-exit", os.path.join(config.test_source_root, "expect-exit.sh")))
# LLVM's test tools (FileCheck, not, count) come first on PATH.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, os.environ.get("PATH", "")])
config.environment["LC_ALL"] = "C"

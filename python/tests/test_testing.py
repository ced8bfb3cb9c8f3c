"""fuserc.testing without a GPU: a library built with the header's testing
hook (docs/header.md) loads with its controls, one built by `fuserc --emit
so` has none, toolchain and build errors name what is wrong, and
Library.close unloads a library."""
import os
import shutil
import unittest

import fuserc
import fuserc.testing

import support


class TestingHookTest(unittest.TestCase):
    def test_hooked_library_has_the_controls(self):
        lib = fuserc.testing.compile(support.CASES, archs=["sm_90"], out_dir=support.scratch("hook"),
                                     fuserc=support.fuserc_path(), options=["--no-cache"])
        self.assertTrue(os.path.exists(os.path.join(lib.directory, "package_cases.c")))
        hook = fuserc.testing.variant_hook(lib)
        self.assertIsNotNone(hook)
        hook.force(1)
        self.assertEqual((hook.most(), hook.launched()), (0, []))
        hook.force(-1)
        # The fusions are the manifest's, as for fuserc.compile.
        self.assertEqual(sorted(lib.fusions), sorted(support.cases_library().fusions))
        lib.close()
        self.assertTrue(lib.closed)
        self.assertEqual(lib.fusions, {})

    def test_emit_so_library_has_no_hook(self):
        self.assertIsNone(fuserc.testing.variant_hook(support.cases_library()))

    def test_build_needs_the_source_and_a_toolchain(self):
        out = support.scratch("nosource")
        with self.assertRaisesRegex(fuserc.FusercError, "has no m.c: compile with `fuserc --emit "
                                                        "source`"):
            fuserc.testing.build_library(out, "m")
        with open(os.path.join(out, "m.c"), "w") as f:
            f.write("int f(void) { return 0; }\n")
        with self.assertRaisesRegex(fuserc.FusercError, "dlpack/dlpack.h.*/no/such/dir.*"
                                                        "FUSERC_DLPACK_INCLUDE"):
            fuserc.testing.build_library(out, "m", dlpack_include="/no/such/dir")
        with open(os.path.join(out, "m.c"), "w") as f:
            f.write("int f(void) { return }\n")
        with self.assertRaisesRegex(fuserc.FusercError, "compiling m.c failed"):
            fuserc.testing.build_library(out, "m")
        self.assertEqual([f for f in os.listdir(out) if f.endswith(".so")], [])

    def test_plain_build_of_a_compiled_directory_loads(self):
        lib = support.cases_library()
        out = support.scratch("rebuild")
        fuserc.compile(support.CASES, archs=["sm_90"], out_dir=out, fuserc=support.fuserc_path(),
                       load_library=False, also_emit=["source"])
        os.remove(os.path.join(out, "libpackage_cases.so"))
        fuserc.testing.build_library(out, hook=False)
        rebuilt = fuserc.load(out)
        self.assertIsNone(fuserc.testing.variant_hook(rebuilt))
        self.assertEqual(sorted(rebuilt.fusions), sorted(lib.fusions))
        shutil.rmtree(out)


if __name__ == "__main__":
    unittest.main()

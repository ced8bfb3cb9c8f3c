"""The generated library through the package, without a GPU: libNAME.so
linked against the toolkit's driver stub (on LD_LIBRARY_PATH as
libcuda.so.1). Argument validation runs before any driver call, so its
statuses and messages are the real ones; a valid launch reaches the stub,
which reports that there is no driver (ERROR_CUDA)."""
import os
import re
import shutil
import unittest

import fuserc

import support


def arg(shape, strides=None, dtype="f32", data=0x10000, device_type=2):
    return fuserc.TensorArg(data, shape, strides, dtype, device_type=device_type)


class StatusTest(unittest.TestCase):
    def test_every_status_of_the_header_is_named(self):
        lib = support.cases_library()
        with open(os.path.join(lib.directory, "package_cases.h")) as f:
            header = f.read()
        codes = {name: int(code) for name, code in
                 re.findall(r"\bpackage_cases_(OK|ERROR_\w+) = (\d+)", header)}
        self.assertEqual(codes, {s.name: s.value for s in fuserc.Status})


class RawCallsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = support.cases_library()

    def test_library_and_fusions(self):
        self.assertEqual(sorted(self.lib.fusions), ["column_sum", "groups", "nhwc", "scale_add",
                                               "update", "views"])
        self.assertIs(self.lib.scale_add, self.lib.fusions["scale_add"])
        with self.assertRaisesRegex(AttributeError, "no fusion 'softmax'"):
            self.lib.softmax

    def test_new_buffer_is_described_dense(self):
        (z,) = self.lib.scale_add.describe_outputs([arg([100]), arg([100])])
        shape, strides, data, _, dtype = z.described()
        self.assertEqual((shape, strides, data, dtype), ((100,), (1,), None, (2, 32)))

    def test_views_are_described_over_their_input(self):
        x = arg([4, 10], [16, 1])  # rows padded to 16
        t, s, y = self.lib.views.describe_outputs([x])
        self.assertEqual(t.described()[:4], ((10, 4), (1, 16), 0x10000, 0))
        shape, strides, data, offset, _ = s.described()
        self.assertEqual((shape, strides, data + offset), ((4, 8), (16, 1), 0x10000 + 2 * 4))
        self.assertEqual(y.described()[:3], ((10, 4), (1, 10), None))

    def test_channels_last_outputs_are_described_as_the_manifest_says(self):
        # bench's bias_relu_nhwc: an f16 and a bool output, both NHWC.
        n, c, h, w = 2, 3, 4, 5
        x = arg([n, c, h, w], [h * w * c, 1, w * c, c], dtype="f16")
        b = arg([1, c, 1, 1], [c, 1, c, c], dtype="f16", data=0x20000)
        y, p = self.lib.nhwc.describe_outputs([x, b])
        nhwc = (h * w * c, 1, w * c, c)
        self.assertEqual(y.described(), ((n, c, h, w), nhwc, None, 0, (2, 16)))
        self.assertEqual(p.described(), ((n, c, h, w), nhwc, None, 0, (6, 8)))
        env = {"N": n, "C": c, "H": h, "W": w}
        for o in self.lib.manifest.fusion("nhwc").outputs:
            self.assertEqual(tuple(e.evaluate(env) for e in o.strides), nhwc)

    def test_solved_symbols_and_exact_divisions_are_checked_by_the_wrappers(self):
        f = self.lib.groups
        c = arg([2, 96], data=0x30000)
        y, z, e = f.describe_outputs([arg([2, 64]), arg([3], data=0x20000), c])
        self.assertEqual([o.described()[0] for o in (y, z, e)], [(2, 32, 2), (2, 32, 3), ()])
        cases = [([arg([2, 63]), arg([3]), c], "x: extent 1 is 63, which is not 32*G"),
                 ([arg([2, 64]), arg([4]), c], "b: extent 0 is 4"),
                 ([arg([2, 64]), arg([3]), arg([2, 95])], "not a multiple of 32")]
        for inputs, message in cases:
            with self.assertRaises(fuserc.StatusError) as caught:
                f.describe_outputs(inputs)
            self.assertEqual(caught.exception.status, fuserc.Status.ERROR_INVALID_ARGUMENT)
            self.assertIn(message, caught.exception.message)

    def test_workspace_follows_the_manifest(self):
        lib = self.lib
        for rows, cols in ((64, 1), (1000, 100), (100000, 1000)):
            size = lib.column_sum.workspace_size([arg([rows, cols])])
            self.assertEqual(size, lib.manifest.fusion("column_sum").workspace_bytes.evaluate(
                {"R": rows, "C": cols}))
        self.assertEqual(lib.scale_add.workspace_size([arg([8]), arg([8])]), 0)

    def test_invalid_arguments_raise_with_the_wrappers_message(self):
        f = self.lib.scale_add
        cases = [
            ([arg([100]), arg([99])], "y: extent 0 is 99 but symbol N is 100"),
            ([arg([100]), arg([100], dtype="f64")], "y: dtype is float64, expected float32"),
            ([arg([100]), arg([100], device_type=1)], "y: device type"),
            ([arg([100]), arg([10, 10])], "y: rank"),
        ]
        for inputs, message in cases:
            with self.assertRaises(fuserc.StatusError) as caught:
                f.describe_outputs(inputs)
            e = caught.exception
            self.assertEqual(e.status, fuserc.Status.ERROR_INVALID_ARGUMENT)
            self.assertEqual(e.function, "package_cases__scale_add_describe_outputs")
            self.assertIn(message, e.message)
            self.assertIn("returned ERROR_INVALID_ARGUMENT: package_cases__scale_add_"
                          "describe_outputs: ", str(e))

    def test_launch_validates_outputs_and_workspace(self):
        x = arg([1000, 100])  # rows enough to split: its workspace is not empty
        with self.assertRaisesRegex(fuserc.StatusError, "ERROR_INVALID_ARGUMENT: .*workspace"):
            self.lib.column_sum.launch([x], [arg([100])], 0, 0)
        with self.assertRaisesRegex(fuserc.StatusError, "ERROR_INVALID_ARGUMENT: .*z: extent 0 is 9, expected 8"):
            self.lib.scale_add.launch([arg([8]), arg([8]), 2.0], [arg([9])])
        w, m, g = arg([4, 4]), arg([4, 4], data=0x20000), arg([4, 4], dtype="bf16", data=0x30000)
        with self.assertRaisesRegex(fuserc.StatusError, "m2: data \\+ byte_offset is not where m starts"):
            self.lib.update.launch([w, m, g, 1, 3], [arg([4, 4], data=0x40000), w])

    def test_valid_launch_reaches_the_driver(self):
        w, m, g = arg([4, 4]), arg([4, 4], data=0x20000), arg([4, 4], dtype="bf16", data=0x30000)
        with self.assertRaises(fuserc.StatusError) as caught:
            self.lib.update.launch([w, m, g, 1, 3], [m, w])
        e = caught.exception
        self.assertEqual(self.lib.last_error(), e.message)
        if e.status == fuserc.Status.ERROR_CUDA:  # the stub: no driver
            self.assertIn("cuCtxGetDevice", e.message)
        else:  # a driver with a current context refuses memory it does not know
            self.assertEqual(e.status, fuserc.Status.ERROR_INVALID_ARGUMENT)

    def test_unknown_status_code_is_kept(self):
        e = fuserc.StatusError("f_launch", 9, "new")
        self.assertEqual((e.status, str(e)), (9, "f_launch returned status 9: new"))


class LoadTest(unittest.TestCase):
    def test_load_needs_the_shared_library(self):
        out = support.scratch("noso")
        os.rmdir(out)
        fuserc.compile(support.CASES, archs=["sm_90"], out_dir=out, fuserc=support.fuserc_path(),
                       load_library=False)
        os.remove(os.path.join(out, "libpackage_cases.so"))
        with self.assertRaisesRegex(fuserc.FusercError, "no libpackage_cases.so: compile with "
                                                        "`fuserc --emit so`"):
            fuserc.load(out)

    def test_load_names_the_library_among_several(self):
        lib = support.cases_library()
        out = support.scratch("two")
        for f in os.listdir(lib.directory):
            shutil.copy(os.path.join(lib.directory, f), out)
        shutil.copy(lib.manifest.path, os.path.join(out, "other.manifest.json"))
        with self.assertRaisesRegex(fuserc.FusercError, "holds 2 manifests"):
            fuserc.load(out)
        self.assertEqual(fuserc.load(out, "package_cases").name, "package_cases")


class CompileTest(unittest.TestCase):
    def test_diagnostics_carry_file_line_and_column(self):
        source = "fusion f {\n  input x: f32[N]\n  y = exq(x)\n  output y\n}\n"
        with self.assertRaises(fuserc.CompileError) as caught:
            fuserc.compile(source, name="broken", fuserc=support.fuserc_path())
        e = caught.exception
        self.assertEqual(e.exit_code, 1)
        first = e.diagnostics[0]
        self.assertEqual((os.path.basename(first.file), first.line, first.column, first.severity),
                         ("broken.fus", 3, 7, "error"))
        self.assertIn("unknown op 'exq'; did you mean 'exp'?", first.message)
        self.assertIn("broken.fus:3:7: error: unknown op 'exq'", str(e))
        self.assertIn("^", str(e))

    def test_source_text_compiles_and_loads(self):
        source = "fusion neg {\n  input x: f32[N]\n  y = neg(x)\n  output y\n}\n"
        lib = fuserc.compile(source, name="negate", archs="sm_90", fuserc=support.fuserc_path())
        self.assertEqual((lib.name, list(lib.fusions)), ("negate", ["neg"]))

    def test_usage_error_and_missing_fuserc(self):
        with self.assertRaises(fuserc.CompileError) as caught:
            fuserc.compile(support.CASES, archs=["sm_20"], fuserc=support.fuserc_path())
        self.assertEqual(caught.exception.exit_code, 2)
        self.assertIn("--arch", str(caught.exception))
        with self.assertRaisesRegex(fuserc.FusercError, "cannot run /no/such/fuserc"):
            fuserc.compile(support.CASES, fuserc="/no/such/fuserc")

    def test_fuserc_is_found_through_the_environment(self):
        old = os.environ.get("FUSERC")
        os.environ["FUSERC"] = "/opt/x/fuserc"
        try:
            self.assertEqual(fuserc.find_fuserc(), "/opt/x/fuserc")
            self.assertEqual(fuserc.find_fuserc("/given"), "/given")
        finally:
            os.environ["FUSERC"] = old


if __name__ == "__main__":
    unittest.main()

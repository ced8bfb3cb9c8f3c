"""Reading NAME.manifest.json: what a fusion's entry gives the package, the
extent formulas, and the manifests it refuses."""
import json
import os
import unittest

import fuserc
from fuserc._extent import Extent

import support


class ExtentTest(unittest.TestCase):
    def test_formulas_evaluate_with_floor_semantics(self):
        env = {"N": 10, "M": 3, "C": 100, "x.stride0": 7}
        cases = {"N": 10, "20*C*N": 20000, "ceildiv(N - 3, 2) + M": 7, "-N + 5": -5,
                 "256*ceildiv(260*C, 256)": 26112, "floordiv(-N, 4)": -3, "mod(-N, 4)": 2,
                 "min(N, M) + max(N, M)": 13, "2*x.stride0": 14, "0": 0}
        for text, value in cases.items():
            self.assertEqual(Extent(text).evaluate(env), value, text)

    def test_constant_and_symbols(self):
        self.assertEqual(Extent("4*8").constant, 32)
        self.assertEqual(Extent("K - 2 + M").symbols, {"K", "M"})

    def test_malformed_formula_is_a_manifest_error(self):
        for text in ("N +", "ceildiv(N)", "N ? 2", "(N", ""):
            with self.assertRaises(fuserc.ManifestError, msg=text):
                Extent(text)


class ManifestTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = support.cases_library()
        with open(cls.lib.manifest.path) as f:
            cls.raw = json.load(f)

    def write(self, obj):
        path = os.path.join(support.scratch("manifest"), "bad.manifest.json")
        with open(path, "w") as f:
            json.dump(obj, f)
        return path

    def test_fusions_inputs_and_outputs(self):
        m = self.lib.manifest
        self.assertEqual(m.name, "package_cases")
        self.assertEqual([f.name for f in m.fusions], ["scale_add", "views", "update", "column_sum",
                                                       "nhwc", "groups"])
        update = m.fusion("update")
        self.assertEqual(update.c_prefix, "package_cases__update")
        self.assertEqual([(i.name, i.kind, i.dtype) for i in update.inputs],
                         [("w", "tensor", "f32"), ("m", "tensor", "f32"), ("g", "tensor", "bf16"),
                          ("flag", "scalar", "bool"), ("step", "scalar", "i64")])
        self.assertEqual([i.c_type for i in update.inputs if not i.is_tensor],
                         ["int32_t", "int64_t"])
        self.assertEqual([(o.name, o.kind, o.aliases) for o in update.outputs],
                         [("m2", "in_place", "m"), ("w2", "in_place", "w")])

    def test_views_and_layouts(self):
        views = self.lib.manifest.fusion("views")
        self.assertTrue(views.inputs[0].strided)
        t, s, y = views.outputs
        self.assertEqual((t.kind, t.view.base), ("view", "x"))
        self.assertEqual(s.view.offset.text, "2*x.stride1")
        self.assertEqual([e.text for e in s.shape], ["M", "K - 2"])
        self.assertEqual((y.kind, y.layout, [e.text for e in y.strides]),
                         ("new_buffer", (1, 0), ["1", "K"]))
        # Split partials only where a launch splits: 15 of 5 columns over 1000 rows.
        column = self.lib.manifest.fusion("column_sum").workspace_bytes
        self.assertEqual(column.evaluate({"R": 1000, "C": 5}), 512)
        self.assertEqual(column.evaluate({"R": 64, "C": 5}), 0)

    def test_symbols_say_where_each_gets_its_value(self):
        groups = self.lib.manifest.fusion("groups")
        self.assertEqual([(s.name, s.input, s.dim, s.coefficient, s.rest and s.rest.text)
                          for s in groups.symbols],
                         [("N", "x", 0, 1, None), ("C", "c", 1, 1, None), ("G", "x", 1, 32, "0")])
        self.assertEqual([e.text for e in groups.outputs[1].shape], ["N", "32", "(C / 32)"])
        # A manifest without `symbols` binds each symbol from the dim that is it.
        raw = json.loads(json.dumps(self.raw))
        del raw["fusions"][0]["symbols"]
        spec = fuserc.read_manifest(self.write(raw)).fusions[0]
        self.assertEqual([(s.name, s.input, s.dim) for s in spec.symbols], [("N", "x", 0)])

    def test_unknown_fusion(self):
        with self.assertRaisesRegex(KeyError, "no fusion 'softmax'"):
            self.lib.manifest.fusion("softmax")

    def test_refuses_another_version(self):
        path = self.write(dict(self.raw, version=4))
        with self.assertRaisesRegex(fuserc.ManifestError,
                                    "bad.manifest.json: manifest version 4 is not one this "
                                    "package reads \\(2, 3\\)"):
            fuserc.read_manifest(path)

    def test_refuses_what_is_not_a_manifest(self):
        with self.assertRaisesRegex(fuserc.ManifestError, "not a fuserc manifest"):
            fuserc.read_manifest(self.write({"format": "other", "version": 2}))
        path = self.write({})
        with open(path, "w") as f:
            f.write("{")
        with self.assertRaisesRegex(fuserc.ManifestError, "not JSON"):
            fuserc.read_manifest(path)

    def test_missing_key_and_bad_kind_are_named(self):
        broken = json.loads(json.dumps(self.raw))
        del broken["fusions"][1]["outputs"][0]["view"]
        with self.assertRaisesRegex(fuserc.ManifestError,
                                    "fusion 'views' output 't': missing key 'view'"):
            fuserc.read_manifest(self.write(broken))
        broken = json.loads(json.dumps(self.raw))
        broken["fusions"][0]["outputs"][0]["kind"] = "copy"
        with self.assertRaisesRegex(fuserc.ManifestError, "'kind' is 'copy', expected one of"):
            fuserc.read_manifest(self.write(broken))


if __name__ == "__main__":
    unittest.main()

"""The custom op of each fusion, as far as it is decided without PyTorch: the
schema (mutated inputs marked, new buffers returned), the symbols bound from
input sizes, and the new buffers' shapes and strides the fake
implementation allocates."""
import unittest

from fuserc._schema import bind_symbols, new_buffer_layouts, op_schema

import support


class Sizes:
    """A stand-in tensor: `shape` and `stride(d)`."""

    def __init__(self, shape, strides=None):
        self.shape = tuple(shape)
        self._strides = strides

    def stride(self, d):
        return self._strides[d]


def strict(condition, message):
    if not condition:
        raise ValueError(message)


class SchemaTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.manifest = support.cases_library().manifest

    def test_schemas(self):
        expected = {
            "scale_add": "scale_add(Tensor x, Tensor y, float alpha) -> Tensor",
            "views": "views(Tensor x) -> Tensor",
            "update": "update(Tensor(a!) w, Tensor(b!) m, Tensor g, bool flag, int step) -> ()",
            "column_sum": "column_sum(Tensor x) -> Tensor",
            "nhwc": "nhwc(Tensor x, Tensor b) -> (Tensor, Tensor)",
            "groups": "groups(Tensor x, Tensor b, Tensor c) -> (Tensor, Tensor, Tensor)",
        }
        for f in self.manifest.fusions:
            self.assertEqual(op_schema(f), expected[f.name])

    def test_fake_shapes_and_strides(self):
        views = self.manifest.fusion("views")
        env = bind_symbols(views, {"x": Sizes([4, 10], [16, 1])}, strict)
        self.assertEqual(env, {"M": 4, "K": 10, "x.stride0": 16, "x.stride1": 1})
        [(out, shape, strides)] = new_buffer_layouts(views, env)
        self.assertEqual((out.name, shape, strides), ("y", [10, 4], [1, 10]))
        s = views.outputs[1]
        self.assertEqual(([e.evaluate(env) for e in s.shape], s.view.offset.evaluate(env)),
                         ([4, 8], 2))

    def test_fake_channels_last_outputs(self):
        nhwc = self.manifest.fusion("nhwc")
        env = bind_symbols(nhwc, {"x": Sizes([2, 3, 4, 5]), "b": Sizes([1, 3, 1, 1])}, strict)
        self.assertEqual([(o.name, o.dtype, shape, strides)
                          for o, shape, strides in new_buffer_layouts(nhwc, env)],
                         [("y", "f16", [2, 3, 4, 5], [60, 1, 15, 3]),
                          ("p", "bool", [2, 3, 4, 5], [60, 1, 15, 3])])

    def test_repeated_symbol_must_agree(self):
        f = self.manifest.fusion("scale_add")
        with self.assertRaisesRegex(ValueError, "input 'y' extent 0 is 7, expected 8 \\(N = 8\\)"):
            bind_symbols(f, {"x": Sizes([8]), "y": Sizes([7])}, strict)
        with self.assertRaisesRegex(ValueError, "input 'y' has rank 2, expected 1"):
            bind_symbols(f, {"x": Sizes([8]), "y": Sizes([8, 1])}, strict)

    def test_symbols_only_expressions_name_are_solved_as_the_wrappers_solve_them(self):
        f = self.manifest.fusion("groups")
        env = bind_symbols(f, {"x": Sizes([2, 64]), "b": Sizes([3]), "c": Sizes([2, 96])}, strict)
        self.assertEqual(env, {"N": 2, "G": 2, "C": 96})
        self.assertEqual([(o.name, shape) for o, shape, _ in new_buffer_layouts(f, env)],
                         [("y", [2, 32, 2]), ("z", [2, 32, 3]), ("e", [])])
        with self.assertRaisesRegex(ValueError, "input 'x' extent 1 is 63, which is not 32\\*G "
                                    "for any whole G >= 0"):
            bind_symbols(f, {"x": Sizes([2, 63]), "b": Sizes([3]), "c": Sizes([2, 96])}, strict)
        with self.assertRaisesRegex(ValueError, "input 'b' extent 0 is 4, expected 3 "
                                    "\\(G \\+ 1 with G = 2\\)"):
            bind_symbols(f, {"x": Sizes([2, 64]), "b": Sizes([4]), "c": Sizes([2, 96])}, strict)


if __name__ == "__main__":
    unittest.main()

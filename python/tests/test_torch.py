"""The PyTorch side that runs without a GPU: binding arguments, CPU tensors
refused by the header's validation, the custom ops' fake implementations
under FakeTensorMode, torch.export and torch.compile(fullgraph=True) on
meta tensors, and the GPU check's output comparison. Skipped
where PyTorch is not installed (CI: docs/python.md says why); the GPU check
(python/tests/gpu_check.py) runs them on the GPU machine."""
import unittest

import fuserc

import support

if support.have_torch():
    import torch


@unittest.skipUnless(support.have_torch(), "PyTorch is not installed")
class TorchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import fuserc.torch
        cls.lib = support.cases_library()
        cls.ops = fuserc.torch.register(cls.lib, namespace="fuserc_cpu_test")

    def test_arguments_are_bound_by_position_and_name(self):
        x = torch.ones(8)
        with self.assertRaisesRegex(TypeError, "missing input\\(s\\) alpha"):
            self.lib.scale_add(x, y=x)
        with self.assertRaisesRegex(TypeError, "no input 'beta'"):
            self.lib.scale_add(x, x, beta=1.0)
        with self.assertRaisesRegex(TypeError, "input 'y' is a tensor, got float"):
            self.lib.scale_add(x, 2.0, 1.0)

    def test_dtype_names_both_ways(self):
        for name in ("bool", "i32", "i64", "f16", "bf16", "f32", "f64"):
            self.assertEqual(fuserc.fusion_dtype(fuserc.torch_dtype(name)), name)
        with self.assertRaisesRegex(ValueError, "has no fusion dtype"):
            fuserc.fusion_dtype(torch.uint8)
        with self.assertRaisesRegex(ValueError, "'f8' is not a fusion dtype"):
            fuserc.torch_dtype("f8")

    def test_prepare_refuses_cpu_tensors_like_a_call(self):
        x = torch.ones(8)
        with self.assertRaises(fuserc.StatusError) as caught:
            self.lib.scale_add.prepare(x, x, 2.0, poison=True)
        self.assertEqual(caught.exception.status, fuserc.Status.ERROR_INVALID_ARGUMENT)

    def test_cpu_tensors_are_refused_by_the_header(self):
        x = torch.ones(8)
        with self.assertRaises(fuserc.StatusError) as caught:
            self.lib.scale_add(x, x, alpha=2.0)
        self.assertEqual(caught.exception.status, fuserc.Status.ERROR_INVALID_ARGUMENT)
        self.assertIn("device type", caught.exception.message)

    def test_fake_implementations(self):
        from torch._subclasses.fake_tensor import FakeTensorMode
        with FakeTensorMode():
            x = torch.empty_strided((4, 10), (16, 1), device="cuda")
            t, s, y = self.ops.views(x)
            self.assertEqual((t.shape, t.stride()), ((10, 4), (1, 16)))
            self.assertEqual((s.shape, s.stride(), s.storage_offset()), ((4, 8), (16, 1), 2))
            self.assertEqual((y.shape, y.stride(), y.dtype), ((10, 4), (1, 10), torch.float32))
            c = self.ops.column_sum(torch.empty(64, 100, device="cuda"))
            self.assertEqual(c.shape, (100,))
            w, m = torch.empty(3, 5, device="cuda"), torch.empty(3, 5, device="cuda")
            g = torch.empty(3, 5, device="cuda", dtype=torch.bfloat16)
            # Every output in place: the op returns None, ops.update the inputs.
            self.assertIsNone(torch.ops.fuserc_cpu_test.update(w, m, g, True, 2))
            w2, m2 = self.ops.update(w, m, g, True, 2)[::-1]
            self.assertIs(w2, w)
            self.assertIs(m2, m)
            nhwc = torch.empty(2, 3, 4, 5, device="cuda", dtype=torch.float16,
                               memory_format=torch.channels_last)
            y, p = self.ops.nhwc(nhwc, torch.empty(1, 3, 1, 1, device="cuda",
                                                   dtype=torch.float16))
            self.assertEqual((y.shape, y.stride(), y.dtype), (nhwc.shape, (60, 1, 15, 3),
                                                              torch.float16))
            self.assertEqual((p.shape, p.stride(), p.dtype), (nhwc.shape, (60, 1, 15, 3),
                                                              torch.bool))
            with self.assertRaisesRegex(ValueError, "input 'y' extent 0 is 7, expected 8 \\(N = 8\\)"):
                self.ops.scale_add(torch.empty(8, device="cuda"), torch.empty(7, device="cuda"),
                                   1.0)

    def test_views_traced_without_graph_breaks(self):
        # Meta tensors run the fake implementations, so the traced graph runs.
        ops = self.ops
        base = torch.empty(64, 112, device="meta")
        cases = [(lambda x: ops.views(x), base[:, :100]),  # a graph input
                 (lambda b: ops.views(b[1:, :100]), base)]  # a tensor made in the graph
        for fn, arg in cases:
            torch._dynamo.reset()
            t, s, y = torch.compile(fn, fullgraph=True, backend="eager")(arg)
            x = arg if arg is not base else base[1:, :100]
            for got, want in ((t, x.t()), (s, x[:, 2:])):
                self.assertEqual((got.shape, got.stride(), got.storage_offset()),
                                 (want.shape, want.stride(), want.storage_offset()))
            self.assertEqual((y.shape, y.stride()), (x.t().shape, (1, x.shape[1])))

    def test_views_are_made_at_an_offset_from_their_input(self):
        from fuserc.torch import view_of
        base = torch.arange(24.0).view(4, 6)[1:, 1:]  # storage offset 7
        v = view_of(base, [3, 2], [6, 1], 2)
        self.assertEqual((v.storage_offset(), v.stride(), v.data_ptr()),
                         (9, (6, 1), base[:, 2:4].data_ptr()))
        self.assertTrue(torch.equal(v, base[:, 2:4]))
        # An empty slice may start at the end of an empty storage.
        empty = view_of(torch.empty(0, 5), [0, 0], [5, 1], 5)
        self.assertEqual((empty.shape, empty.storage_offset()), ((0, 0), 5))

    def test_in_place_op_traced_without_graph_breaks(self):
        ops = self.ops
        w, m = torch.empty(32, 48, device="meta"), torch.empty(32, 48, device="meta")
        g = torch.empty(32, 48, device="meta", dtype=torch.bfloat16)

        def step(w, m, g):
            ops.update(w, m, g, True, 3)
            return w.sum()

        torch._dynamo.reset()
        total = torch.compile(step, fullgraph=True, backend="aot_eager")(w, m, g)
        self.assertEqual((total.shape, total.device.type), ((), "meta"))

    def test_bool_outputs_compare_by_the_fraction_that_differ(self):
        from output_compare import close
        want = torch.zeros(100000, dtype=torch.bool)
        got = want.clone()
        got[:5] = True  # 5e-5 differ: a comparison near zero, f32 against f16
        close(got, want, "t4")
        got[:50] = True
        with self.assertRaisesRegex(AssertionError, "t4: 0.05% of the values differ"):
            close(got, want, "t4")
        with self.assertRaisesRegex(AssertionError, "y: max error 0.5"):
            close(torch.tensor([1.5]), torch.tensor([1.0]), "y")

    def test_opcheck_schema_and_fake(self):
        op = torch.ops.fuserc_cpu_test.update.default
        self.assertEqual(str(op._schema),
                         "fuserc_cpu_test::update(Tensor(a!) w, Tensor(b!) m, Tensor g, bool flag, "
                         "int step) -> ()")

    def test_exported_as_two_ops(self):
        ops = self.ops

        class Model(torch.nn.Module):
            def forward(self, x, y):
                z = ops.scale_add(x, y, 0.5)
                return ops.column_sum(z.view(8, 8))

        # torch.export traces with fake tensors: no kernel runs, so CPU inputs do.
        program = torch.export.export(Model(), (torch.ones(64), torch.ones(64)))
        targets = [str(n.target) for n in program.graph.nodes if n.op == "call_function"]
        self.assertIn("fuserc_cpu_test.scale_add.default", targets)
        self.assertIn("fuserc_cpu_test.column_sum.default", targets)

    @unittest.skipUnless(support.have_torch() and torch.cuda.is_available(), "no GPU")
    def test_traced_without_graph_breaks(self):
        def model(x, y):
            z = self.ops.scale_add(x, y, 0.5)
            return self.ops.column_sum(z.view(8, 8))

        x = torch.ones(64, device="cuda")
        explanation = torch._dynamo.explain(model)(x, x)
        self.assertEqual(explanation.graph_break_count, 0)
        self.assertEqual(explanation.graph_count, 1)

if __name__ == "__main__":
    unittest.main()

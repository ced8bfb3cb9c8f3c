"""The PyTorch side that runs without a GPU: binding arguments, CPU tensors
refused by the header's validation, and the custom ops' fake
implementations under FakeTensorMode and a torch.compile trace. Skipped
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
            w2, m2 = self.ops.update(w, m, g, True, 2)[::-1]
            self.assertIs(w2, w)
            self.assertIs(m2, m)
            with self.assertRaisesRegex(ValueError, "extent 0 is 7 but N is 8"):
                self.ops.scale_add(torch.empty(8, device="cuda"), torch.empty(7, device="cuda"),
                                   1.0)

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

"""How the GPU check (gpu_check.py) compares an output with PyTorch's, as
bench/run.py does: floats by their largest error relative to the reference's
largest magnitude; bool and integer outputs by the fraction of elements that
differ, since fuserc keeps f16/bf16 intermediates in f32 (docs/language.md,
"Dtypes") and so a comparison near zero may go the other way than PyTorch's,
which rounds each op's result (bias_relu_nhwc's t4 = x * s + b > 0).
Equal infinities and NaN where the reference has NaN match."""

FLOAT_TOLERANCE = 2e-2  # largest error / max(1, largest |reference|)
EXACT_TOLERANCE = 1e-4  # fraction of bool / integer elements that may differ


def close(got, want, name):
    """Raises AssertionError naming `name` unless `got` matches `want`."""
    if tuple(got.shape) != tuple(want.shape):
        raise AssertionError("%s: shape %s, expected %s" % (name, tuple(got.shape),
                                                            tuple(want.shape)))
    # Decided on the dtypes before any conversion: a bool is not floating.
    if not got.is_floating_point():
        bad = (got != want).double().mean().item() if got.numel() else 0.0
        if bad > EXACT_TOLERANCE:
            raise AssertionError("%s: %.3g%% of the values differ" % (name, 100 * bad))
        return
    got, want = got.double(), want.double()
    if got.numel() == 0:
        return
    # Equal values (infinities included) and NaN where the reference has NaN
    # (a var over one element) match; any other NaN fails.
    same = (got == want) | (got.isnan() & want.isnan())
    diff = (got - want).abs().masked_fill(same, 0.0)
    scale = max(1.0, want.masked_fill(~want.isfinite(), 0.0).abs().max().item())
    err = diff.max().item() / scale
    if not err <= FLOAT_TOLERANCE:  # NaN fails
        raise AssertionError("%s: max error %.3g" % (name, err))

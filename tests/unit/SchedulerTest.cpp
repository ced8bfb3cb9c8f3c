// Tests of segments, the built-in schedulers' acceptance rules (an accept
// and a reject, with its reason, per scheduler) and the registry.
//
// Fusions come from the text form without running the passes: op results
// are row-major unless a test sets a layout, outputs are new buffers unless
// a test makes one a view, as layout inference and alias analysis would.
#include "TestSupport.h"

#include "schedulers/SchedulerRegistry.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

class SchedulerTest : public ::testing::Test {
protected:
  void SetUp() override { registerBuiltinSchedulers(registry); }

  // Loads a one-fusion source.
  Fusion &load(std::string_view text) {
    loaded = test::load(text);
    EXPECT_TRUE(loaded.ok) << loaded.diagnostics;
    return *loaded.module.fusions.front();
  }
  // The whole fusion as one segment.
  Segment whole() {
    return Segment::wholeFusion(std::make_shared<FusionAnalysis>(*loaded.module.fusions.front()));
  }
  // The segment of the ops defining `names`.
  Segment segmentOf(std::initializer_list<std::string_view> names) {
    const Fusion &f = *loaded.module.fusions.front();
    std::vector<const Op *> ops;
    for (std::string_view n : names)
      ops.push_back(f.findValue(n)->definingOp());
    return Segment(std::make_shared<FusionAnalysis>(f), ops);
  }
  Verdict verdict(std::string_view scheduler, const Segment &segment) {
    return registry.find(scheduler)->canSchedule(segment);
  }
  std::string rejection(std::string_view scheduler, const Segment &segment) {
    Verdict v = verdict(scheduler, segment);
    EXPECT_FALSE(v.accepted()) << scheduler << " accepted";
    return v.reason();
  }

  SchedulerRegistry registry;
  test::Loaded loaded;
};

std::vector<std::string> names(std::span<const Value *const> values) {
  std::vector<std::string> result;
  for (const Value *v : values)
    result.push_back(v->name());
  return result;
}

constexpr std::string_view kSoftmax = R"(
fusion softmax {
  input x: f32[M, N]
  m = max(x, axes=[1], keepdim=true)
  e = exp(sub(x, m))
  s = sum(e, axes=[1], keepdim=true)
  y = div(e, s)
  output y
})";

constexpr std::string_view kBiasGrad = R"(
fusion bias_grad {
  input g: f32[B, H]
  input x: f32[B, H]
  db = sum(g, axes=[0])
  dx = mul(g, tanh(x))
  output db
  output dx
})";

TEST_F(SchedulerTest, SegmentDerivesInputsAndOutputsWithoutLiterals) {
  load(R"(
fusion f {
  input x: f32[N]
  input s: f32
  a = mul(x, 2.0)
  b = add(a, s)
  c = exp(b)
  d = neg(a)
  output c
  output d
})");
  Segment seg = segmentOf({"a", "b"});
  EXPECT_EQ(names(seg.inputs()), (std::vector<std::string>{"x", "s"}));
  // a is read by d, outside; b by c, outside.
  EXPECT_EQ(names(seg.outputs()), (std::vector<std::string>{"a", "b"}));
  Segment tail = segmentOf({"d", "c"});
  EXPECT_EQ(names(tail.inputs()), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(names(tail.outputs()), (std::vector<std::string>{"c", "d"}));
  EXPECT_TRUE(tail.contains(*loaded.module.fusions.front()->findValue("c")->definingOp()));
  EXPECT_FALSE(tail.defines(*loaded.module.fusions.front()->findValue("a")));
}

TEST_F(SchedulerTest, PointwiseAcceptsBroadcastsResizesAndCreation) {
  load(R"(
fusion f {
  input q: f32[S, 128]
  input w: f32[128]
  x1 = slice(q, dim=1, start=0, end=64)
  x2 = slice(q, dim=1, start=64)
  rot = cat(neg(x2), x1, dim=1)
  i = iota(shape=[S, 128], dim=1, dtype=f32)
  y = add(mul(rot, w), i)
  output y
})");
  EXPECT_TRUE(verdict("pointwise", whole()).accepted());
}

TEST_F(SchedulerTest, PointwiseRejectsAReductionByName) {
  load(kBiasGrad);
  EXPECT_EQ(rejection("pointwise", whole()), "'db' (sum) is a reduction");
}

TEST_F(SchedulerTest, PointwiseRejectsOutputsOfDifferentShapes) {
  load(R"(
fusion f {
  input x: f32[M, N]
  input w: f32[N]
  v = exp(w)
  y = mul(x, v)
  output v
  output y
})");
  EXPECT_EQ(rejection("pointwise", whole()),
            "outputs 'v' f32[N] and 'y' f32[M, N] have different shapes; a pointwise kernel "
            "writes one iteration space");
}

TEST_F(SchedulerTest, ReductionAcceptsPrologueEpilogueAndSiblingReductions) {
  load(R"(
fusion f {
  input x: f32[M, N]
  ss = sum(mul(x, x), axes=[1])
  n = sqrt(ss)
  mx = max(x, axes=[1], keepdim=true)
  output n
  output mx
})");
  EXPECT_TRUE(verdict("reduction", whole()).accepted());
}

TEST_F(SchedulerTest, ReductionRejectsAnUnreducedOutput) {
  load(kBiasGrad);
  EXPECT_EQ(rejection("reduction", whole()),
            "'db' reduces axes [0] but 'dx' is not reduced; a reduction kernel writes only "
            "reduced outputs");
}

TEST_F(SchedulerTest, ReductionRejectsReductionsOfDifferentAxes) {
  load(R"(
fusion f {
  input x: f32[M, N]
  r = sum(x, axes=[1])
  c = sum(x, axes=[0])
  output r
  output c
})");
  EXPECT_EQ(rejection("reduction", whole()),
            "'r' reduces axes [1] of f32[M, N] but 'c' reduces axes [0] of f32[M, N]; a "
            "reduction kernel reduces one set of axes of one shape");
}

TEST_F(SchedulerTest, ReductionRejectsAResultBroadcastBack) {
  load(kSoftmax);
  EXPECT_EQ(rejection("reduction", whole()),
            "'_0' (sub) uses a reduction result over the unreduced [M, N] (broadcast back over "
            "its rows); that is a normalization");
}

TEST_F(SchedulerTest, NormalizationAcceptsSoftmax) {
  load(kSoftmax);
  EXPECT_TRUE(verdict("normalization", whole()).accepted());
}

TEST_F(SchedulerTest, NormalizationAcceptsLayerNormWithWeightsOverTheRow) {
  load(R"(
fusion f {
  input x: f32[M, N]
  input w: f32[N]
  mu = mean(x, axes=[1], keepdim=true)
  d = sub(x, mu)
  v = mean(mul(d, d), axes=[1], keepdim=true)
  y = mul(mul(d, rsqrt(add(v, 1e-5))), w)
  output y
  output mu
})");
  EXPECT_TRUE(verdict("normalization", whole()).accepted());
}

TEST_F(SchedulerTest, NormalizationRejectsAPlainReduction) {
  load(kBiasGrad);
  EXPECT_EQ(rejection("normalization", segmentOf({"db"})),
            "no reduction result is broadcast back over the [B, H] it reduces; that is a plain "
            "reduction");
}

TEST_F(SchedulerTest, NormalizationRejectsAResultBroadcastAlongAKeptDim) {
  // Right-aligned, s's [M] lines up with x's columns: y[i, j] uses s[j],
  // another row's result.
  load(R"(
fusion f {
  input x: f32[M, M]
  s = sum(x, axes=[1])
  y = mul(x, s)
  output y
})");
  EXPECT_EQ(rejection("normalization", whole()),
            "'y' (mul) reads 's' f32[M] with its dim 0 along dim 1 of [M, M], which 's' reduces "
            "(broadcasting is right-aligned); a kernel that keeps reduction results per row uses "
            "one only at its own row, broadcast back over the reduced axes [1] (keepdim=true, or "
            "unsqueeze)");
}

TEST_F(SchedulerTest, NormalizationAcceptsAResultBroadcastBackThroughUnsqueeze) {
  load(R"(
fusion f {
  input x: f32[M, M]
  s = unsqueeze(sum(x, axes=[1]), dim=1)
  y = mul(x, s)
  output y
})");
  EXPECT_TRUE(verdict("normalization", whole()).accepted());
}

TEST_F(SchedulerTest, NormalizationRejectsAResultReindexedByAView) {
  load(R"(
fusion f {
  input x: f32[M, M]
  s = sum(x, axes=[1], keepdim=true)
  t = permute(s, dims=[1, 0])
  y = mul(x, t)
  output y
})");
  EXPECT_EQ(rejection("normalization", whole()),
            "'t' (permute) re-indexes a value computed from a reduction result; a kernel that "
            "keeps reduction results per row reads them only through elementwise ops, "
            "broadcasts, squeeze and unsqueeze");
}

TEST_F(SchedulerTest, NormalizationAcceptsAResultExpandedBackToFullSize) {
  load(R"(
fusion f {
  input x: f32[M, N]
  s = sum(x, axes=[1], keepdim=true)
  y = expand(s, shape=[M, N])
  z = add(x, broadcast_in_dim(max(x, axes=[1]), shape=[M, N], broadcast_dims=[0]))
  output y
  output z
})");
  EXPECT_TRUE(verdict("normalization", whole()).accepted());
}

TEST_F(SchedulerTest, NormalizationRejectsAResultBroadcastInDimOntoTheReducedDim) {
  load(R"(
fusion f {
  input x: f32[M, M]
  m = max(x, axes=[1])
  y = add(x, broadcast_in_dim(m, shape=[M, M], broadcast_dims=[1]))
  output y
})");
  EXPECT_NE(rejection("normalization", whole()).find("reads 'm' f32[M] with its dim 0 along dim 1"),
            std::string::npos)
      << rejection("normalization", whole());
}

TEST_F(SchedulerTest, TransposeAcceptsOutputsThatPermuteOneValue) {
  load(R"(
fusion f {
  input x: f32[M, N]
  a = exp(x)
  b = permute(a, dims=[1, 0])
  output a
  output b layout(0, 1)
})");
  EXPECT_TRUE(verdict("transpose", whole()).accepted());
  EXPECT_EQ(rejection("pointwise", whole()),
            "outputs 'a' f32[M, N] and 'b' f32[N, M] have different shapes; a pointwise kernel "
            "writes one iteration space");
}

TEST_F(SchedulerTest, TransposeRejectsOutputsOfDifferentValues) {
  load(R"(
fusion f {
  input x: f32[M, N]
  input y: f32[N, M]
  a = exp(x)
  b = exp(y)
  output a
  output b
})");
  EXPECT_EQ(rejection("transpose", whole()),
            "outputs 'a' f32[M, N] and 'b' f32[N, M] have different shapes, and neither permutes "
            "the other's values; a transpose kernel writes one iteration space");
}

TEST_F(SchedulerTest, NormalizationRejectsRowsThatAreNotInnermostInMemory) {
  load(R"(
fusion f {
  input x: f32[M, N]
  y = mul(x, sum(x, axes=[0], keepdim=true))
  output y
})");
  EXPECT_EQ(rejection("normalization", whole()),
            "'_0' reduces axes [0] of f32[M, N], which are not innermost in memory (layout (0, "
            "1)); a persistent kernel keeps rows of contiguous elements");
}

TEST_F(SchedulerTest, NormalizationRejectsAColumnReductionReadBackOverTheRows) {
  load(R"(
fusion f {
  input x: f32[M, N]
  r = sum(x, axes=[1], keepdim=true)
  c = sum(x, axes=[0], keepdim=true)
  y = add(sub(x, r), c)
  output y
})");
  EXPECT_EQ(rejection("normalization", whole()),
            "'y' (add) f32[M, N] reads a column reduction's result but is not over the columns "
            "[N]: the columns are reduced only after every row");
}

TEST_F(SchedulerTest, NormalizationAcceptsColumnReductionsBesideItsRows) {
  // An RMSNorm backward's weight gradient: a sum over the rows' kept axis,
  // read only by its cast (over the columns) and stored.
  load(R"(
fusion f {
  input x: f32[M, N]
  input dy: f32[M, N]
  input rstd: f32[M, 1]
  xhat = mul(x, rstd)
  dw = cast(sum(mul(dy, xhat), axes=[0]), dtype=bf16)
  c = mean(mul(dy, xhat), axes=[1], keepdim=true)
  dx = mul(rstd, sub(dy, mul(xhat, c)))
  output dx
  output dw
})");
  EXPECT_TRUE(verdict("normalization", whole()).accepted());
  // Integer column sums are not accumulated (their partials would wrap).
  load(R"(
fusion g {
  input x: i32[M, N]
  r = sum(x, axes=[1])
  c = sum(x, axes=[0])
  output r
  output c
})");
  EXPECT_NE(rejection("normalization", whole())
                .find("reduces the columns; a persistent kernel "
                      "accumulates column sums"),
            std::string::npos)
      << rejection("normalization", whole());
}

TEST_F(SchedulerTest, TransposeAcceptsAPermutedRead) {
  load(R"(
fusion f {
  input a: f32[M, N]
  input c: f32[N, M]
  y = add(permute(a, dims=[1, 0]), c)
  output y
})");
  EXPECT_TRUE(verdict("transpose", whole()).accepted());
  EXPECT_TRUE(verdict("pointwise", whole()).accepted()); // slower, but possible
}

TEST_F(SchedulerTest, TransposeAcceptsChannelsLastInputsWithRowMajorOutput) {
  load(R"(
fusion f {
  input x: f16[N, C, H, W] layout(0, 2, 3, 1)
  input b: f16[1, C, 1, 1] layout(0, 2, 3, 1)
  y = add(x, b)
  output y
})");
  EXPECT_TRUE(verdict("transpose", whole()).accepted());
}

TEST_F(SchedulerTest, TransposeRejectsChannelsLastEverywhere) {
  Fusion &f = load(R"(
fusion f {
  input x: f16[N, C, H, W] layout(0, 2, 3, 1)
  input b: f16[1, C, 1, 1] layout(0, 2, 3, 1)
  y = add(x, b)
  output y
})");
  // What layout inference decides for channels-last inputs.
  f.setLayout(f.findValue("y"), {0, 2, 3, 1}, "from x through add");
  f.mutableOutputs()[0].layout = {0, 2, 3, 1};
  EXPECT_EQ(rejection("transpose", whole()),
            "every input and output has the same innermost dimension in memory (dim 1 of "
            "'x') or is broadcast along the others'; there is nothing to transpose");
}

TEST_F(SchedulerTest, TransposeRejectsAReduction) {
  load(kBiasGrad);
  EXPECT_EQ(rejection("transpose", whole()), "'db' (sum) is a reduction");
}

TEST_F(SchedulerTest, AliasAcceptsViewOutputs) {
  Fusion &f = load(R"(
fusion f {
  input x: f32[M, N]
  t = permute(x, dims=[1, 0])
  u = unsqueeze(t, dim=0)
  output u
})");
  f.mutableOutputs()[0].kind = OutputKind::View; // as alias analysis decides
  EXPECT_TRUE(verdict("alias", whole()).accepted());
  EXPECT_FALSE(registry.find("alias")->needsKernel());
}

TEST_F(SchedulerTest, AliasRejectsANewBufferOutput) {
  load(R"(
fusion f {
  input x: f32[M, N]
  t = permute(x, dims=[1, 0])
  output t
})");
  EXPECT_EQ(rejection("alias", whole()),
            "output 't' is a new buffer (alias analysis), not a view of an input");
}

TEST_F(SchedulerTest, AliasRejectsAnOpThatIsNotAView) {
  load(kSoftmax);
  EXPECT_EQ(rejection("alias", whole()), "'m' (max) is not a view op");
}

TEST_F(SchedulerTest, EverySchedulerRejectsCompositeOps) {
  load(R"(
fusion f {
  input x: f32[M, N]
  y = softmax(x, dim=1)
  output y
})");
  for (const Scheduler *s : registry.all())
    EXPECT_FALSE(s->canSchedule(whole()).accepted()) << s->name();
  EXPECT_EQ(rejection("pointwise", whole()),
            "'y' (softmax) is a composite op; canonicalization decomposes it before scheduling");
}

TEST_F(SchedulerTest, RegistryListsBuiltinsInPriorityOrder) {
  EXPECT_EQ(registry.namesList(), "alias,normalization,reduction,scan,transpose,pointwise");
  EXPECT_EQ(registry.origin("pointwise"), "built-in");
}

TEST_F(SchedulerTest, RegistryRefusesADuplicateName) {
  SchedulerRegistry other;
  registerBuiltinSchedulers(other);
  other.setOrigin("plugin 'x.so'");
  registerBuiltinSchedulers(other);
  EXPECT_EQ(other.all().size(), 6u);
  ASSERT_EQ(other.errors().size(), 6u);
  EXPECT_EQ(other.errors().front(), "scheduler 'alias' is already registered (built-in)");
}

TEST_F(SchedulerTest, SelectOrdersAndRejectsUnknownNames) {
  auto selected = registry.select({"pointwise", "reduction"});
  auto &list = std::get<std::vector<const Scheduler *>>(selected);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]->name(), "pointwise");
  EXPECT_EQ(list[1]->name(), "reduction");
  EXPECT_EQ(std::get<std::string>(registry.select({"pointwise", "fancy"})),
            "unknown scheduler 'fancy'; known schedulers are "
            "alias,normalization,reduction,scan,transpose,pointwise");
  EXPECT_EQ(std::get<std::vector<const Scheduler *>>(registry.select({})).size(), 6u);
}

} // namespace
} // namespace fuserc

// Unit tests of the canonicalize pass: what it keeps (inputs, output names,
// the source fusion), what it leaves behind (no composites, no scatter into
// a full), and the interpreter property — on random inputs, the fusion
// gives the same outputs before and after, bit for bit. A decomposed
// composite is the exception: the interpreter evaluates the composite in
// double (CompositeEval.cpp) and its decomposition op by op in the dtype's
// precision, so those are compared within a few roundings of the dtype.
#include "InterpreterTestUtil.h"
#include "RandomInputs.h"
#include "TestSupport.h"

#include "ir/Verifier.h"
#include "ir/interp/Interpreter.h"
#include "passes/Canonicalize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <random>

namespace fuserc {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<Fusion> loadOne(std::string_view text) {
  test::Loaded loaded = test::load(text);
  EXPECT_TRUE(loaded.ok) << loaded.diagnostics;
  if (!loaded.ok || loaded.module.fusions.empty())
    return std::make_unique<Fusion>("failed");
  return std::move(loaded.module.fusions.front());
}

std::string printed(const Fusion &fusion) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printFusion(fusion, os);
  return os.str();
}

size_t countOps(const Fusion &fusion, OpKind kind) {
  return static_cast<size_t>(std::count_if(fusion.ops().begin(), fusion.ops().end(),
                                           [&](const auto &op) { return op->kind() == kind; }));
}

// Interprets `before` and its canonical form on random inputs at several
// extents and compares the outputs: bit for bit, or within the tolerance.
void expectSameResults(const Fusion &before, bool exact) {
  std::unique_ptr<Fusion> after = canonicalize(before);
  std::mt19937_64 rng(7);
  const std::vector<int64_t> extents = test::fittingExtents(before, {1, 3, 4});
  ASSERT_FALSE(extents.empty()) << before.name() << ": no binding fits its exact divisions";
  for (int64_t extent : extents) {
    const std::map<std::string, Tensor> inputs = test::randomInputs(before, extent, rng);
    const InterpreterResult expected = interpret(before, inputs);
    const InterpreterResult actual = interpret(*after, inputs);
    const std::string what = before.name() + " with every symbol = " + std::to_string(extent);
    ASSERT_TRUE(expected.ok) << what << ": " << expected.error;
    ASSERT_TRUE(actual.ok) << what << ": " << actual.error;
    ASSERT_EQ(expected.outputs.size(), actual.outputs.size()) << what;
    for (size_t o = 0; o < expected.outputs.size(); ++o) {
      const Tensor &a = expected.outputs[o], &b = actual.outputs[o];
      ASSERT_EQ(a.dtype(), b.dtype()) << what << ", output " << o;
      ASSERT_EQ(a.shape(), b.shape()) << what << ", output " << o;
      for (size_t i = 0; i < a.numel(); ++i) {
        const std::string where =
            what + ", output " + std::to_string(o) + "[" + std::to_string(i) + "]";
        if (!a.isFloating()) {
          ASSERT_EQ(a.getInt(i), b.getInt(i)) << where;
        } else if (exact) {
          ASSERT_EQ(std::bit_cast<uint64_t>(a.getFloat(i)), std::bit_cast<uint64_t>(b.getFloat(i)))
              << where << ": " << a.getFloat(i) << " vs " << b.getFloat(i);
        } else {
          const double x = a.getFloat(i), y = b.getFloat(i);
          // Equal infinities, or NaN in both (std of one element): agreed.
          if (x == y || (std::isnan(x) && std::isnan(y)))
            continue;
          ASSERT_NEAR(x, y, test::decompositionTolerance(a.dtype()) * std::max(1.0, std::fabs(x)))
              << where;
        }
      }
    }
  }
}

bool hasComposite(const Fusion &fusion) {
  return std::any_of(fusion.ops().begin(), fusion.ops().end(),
                     [](const auto &op) { return op->info().composite; });
}

// Every fusion of the canonicalize golden tests, the bench cases and the
// examples (the cookbook's included).
std::vector<std::unique_ptr<Fusion>> goldenAndBenchFusions() {
  std::vector<std::string> paths;
  for (const char *dir :
       {"tests/lit/passes/canonicalize", "bench/cases", "examples", "examples/cookbook"})
    for (const auto &entry : fs::directory_iterator(fs::path(FUSERC_SOURCE_DIR) / dir)) {
      const std::string ext = entry.path().extension().string();
      if (ext == ".fus" || ext == ".yaml")
        paths.push_back(entry.path().string());
    }
  std::sort(paths.begin(), paths.end());
  std::vector<std::unique_ptr<Fusion>> fusions;
  for (const std::string &path : paths) {
    Module module;
    std::string diagnostics;
    llvm::raw_string_ostream os(diagnostics);
    DiagnosticEngine diag(os);
    const std::vector<std::string> one = {path};
    EXPECT_TRUE(loadFusionFiles(one, diag, module)) << path << ": " << os.str();
    for (auto &fusion : module.fusions)
      fusions.push_back(std::move(fusion));
  }
  return fusions;
}

TEST(Canonicalize, KeepsTheNameEveryInputInOrderAndOutputNames) {
  std::unique_ptr<Fusion> f = loadOne(R"(
    fusion keep {
      input a: f32[N]
      input only_dead_code: f16[N]
      input s: f32
      dead = mul(exp(only_dead_code), s)
      t = exp(a)
      u = exp(a)
      output t
      output u
    })");
  std::unique_ptr<Fusion> c = canonicalize(*f);
  EXPECT_EQ(c->name(), "keep");
  ASSERT_EQ(c->inputs().size(), 3u);
  EXPECT_EQ(c->inputs()[0]->name(), "a");
  EXPECT_EQ(c->inputs()[1]->name(), "only_dead_code");
  EXPECT_EQ(c->inputs()[2]->name(), "s");
  EXPECT_TRUE(c->inputs()[2]->isScalarInput());
  ASSERT_EQ(c->outputs().size(), 2u);
  EXPECT_EQ(c->outputs()[0].name, "t");
  EXPECT_EQ(c->outputs()[1].name, "u");
  // Two outputs never share a value, even when CSE could merge them.
  EXPECT_NE(c->outputs()[0].value, c->outputs()[1].value);
  EXPECT_EQ(countOps(*c, OpKind::Exp), 2u);
}

TEST(Canonicalize, LeavesTheSourceFusionUnchanged) {
  std::unique_ptr<Fusion> f = loadOne(R"(
    fusion src {
      input x: bf16[M, N]
      y = softmax(cast(cast(x, dtype=f32), dtype=bf16), dim=1)
      output y
    })");
  const std::string before = printed(*f);
  std::unique_ptr<Fusion> c = canonicalize(*f);
  EXPECT_EQ(printed(*f), before);
  EXPECT_NE(printed(*c), before);
}

TEST(Canonicalize, MergedNonOutputTakesTheOutputsName) {
  std::unique_ptr<Fusion> f = loadOne(R"(
    fusion rename {
      input x: f32[N]
      first = exp(x)
      result = exp(x)
      other = add(first, 1)
      output result
      output other
    })");
  std::unique_ptr<Fusion> c = canonicalize(*f);
  ASSERT_EQ(countOps(*c, OpKind::Exp), 1u);
  EXPECT_EQ(c->outputs()[0].value->name(), "result");
  EXPECT_EQ(c->outputs()[1].value->definingOp()->operand(0), c->outputs()[0].value);
}

TEST(Canonicalize, ResultVerifiesAndIsAFixedPoint) {
  for (const auto &fusion : goldenAndBenchFusions()) {
    std::unique_ptr<Fusion> once = canonicalize(*fusion);
    EXPECT_EQ(verifyFusion(*once), std::vector<std::string>{}) << fusion->name();
    std::unique_ptr<Fusion> twice = canonicalize(*once);
    EXPECT_EQ(printed(*twice), printed(*once)) << fusion->name();
  }
}

TEST(Canonicalize, NoCompositeOpIsLeft) {
  for (const auto &fusion : goldenAndBenchFusions()) {
    std::unique_ptr<Fusion> c = canonicalize(*fusion);
    EXPECT_FALSE(hasComposite(*c)) << printed(*c);
  }
}

TEST(Canonicalize, CrossEntropyBackwardHasNoScatterAndNoFullSizeConstant) {
  std::unique_ptr<Fusion> f = loadOne(R"(
    fusion xent_bwd {
      input logits: bf16[M, V]
      input labels: i64[M]
      p = softmax(cast(logits, dtype=f32), dim=1)
      oh = scatter(full(shape=[M, V], value=0.0, dtype=f32), unsqueeze(labels, dim=1), -1.0, dim=1)
      g = cast(add(p, oh), dtype=bf16)
      output g
    })");
  std::unique_ptr<Fusion> c = canonicalize(*f);
  EXPECT_EQ(countOps(*c, OpKind::Scatter), 0u);
  EXPECT_EQ(countOps(*c, OpKind::Full), 0u);
  // The iota broadcasts against the [M, 1] labels.
  for (const auto &op : c->ops()) {
    if (op->kind() == OpKind::Iota) {
      EXPECT_EQ(shapeString(op->result()->shape()), "[1, V]");
    }
  }
}

TEST(Canonicalize, ScatterRewriteGivesTheBackgroundForAnOutOfRangeIndex) {
  // The interpreter reports an out-of-range scatter index as an error; the
  // rewritten where() simply matches no position in that row.
  std::unique_ptr<Fusion> f = loadOne(R"(
    fusion oob {
      input idx: i64[2, 1]
      y = scatter(full(shape=[2, 3], value=0.5, dtype=f32), idx, 2.0, dim=1)
      output y
    })");
  const std::map<std::string, Tensor> inputs = {
      {"idx", Tensor::fromInts(DType::I64, {2, 1}, std::vector<int64_t>{1, 7})}};
  EXPECT_FALSE(interpret(*f, inputs).ok);
  InterpreterResult rewritten = interpret(*canonicalize(*f), inputs);
  ASSERT_TRUE(rewritten.ok) << rewritten.error;
  std::vector<double> values;
  for (size_t i = 0; i < 6; ++i)
    values.push_back(rewritten.outputs[0].getFloat(i));
  EXPECT_EQ(values, (std::vector<double>{0.5, 2.0, 0.5, 0.5, 0.5, 0.5}));
}

TEST(Canonicalize, FoldedIntegerOverflowWrapsAsTheInterpreterDoes) {
  std::unique_ptr<Fusion> f = loadOne(R"(
    fusion wrap {
      input x: i32[N]
      y = add(x, mul(pow(3, 41), 5))
      output y
    })");
  std::unique_ptr<Fusion> c = canonicalize(*f);
  ASSERT_EQ(c->ops().size(), 1u);
  expectSameResults(*f, /*exact=*/true);
}

TEST(Canonicalize, FoldKeepsTheComputationTypeOfItsConsumer) {
  // eq of an i32 scalar and a rank-0 i64 result compares in i64; with the
  // literal 4294967297 in its place it would compare in i32, where the
  // literal wraps to 1. The result type (bool) is the same either way.
  std::unique_ptr<Fusion> f = loadOne(R"(
    fusion domain {
      input s: i32
      e = eq(s, add(4294967296, 1))
      output e
    })");
  std::unique_ptr<Fusion> c = canonicalize(*f);
  EXPECT_EQ(countOps(*c, OpKind::Add), 1u) << printed(*c);
  const std::map<std::string, Tensor> inputs = {{"s", Tensor::scalar(DType::I32, 1)}};
  InterpreterResult result = interpret(*c, inputs);
  ASSERT_TRUE(result.ok) << result.error;
  EXPECT_EQ(result.outputs[0].getInt(0), 0);
}

TEST(Canonicalize, InterpreterResultsAreBitIdenticalWithoutComposites) {
  for (const auto &fusion : goldenAndBenchFusions())
    if (!hasComposite(*fusion))
      expectSameResults(*fusion, /*exact=*/true);
}

TEST(Canonicalize, RewritesKeepResultsBitIdentical) {
  // Cast pairs, casts of the value's own dtype, folds next to rank-0 values,
  // and scatters with tensor, scalar-input and integer sources.
  const char *sources[] = {
      R"(fusion casts {
        input h: f16[N]
        input b: bf16[N]
        input i: i32[N]
        input flag: bool[N]
        t = exp(h)
        y0 = add(cast(cast(t, dtype=f32), dtype=f16), 1)
        y1 = mul(cast(cast(b, dtype=f64), dtype=bf16), t)
        y2 = cast(cast(cast(i, dtype=i64), dtype=f64), dtype=i32)
        y3 = add(cast(cast(flag, dtype=bf16), dtype=f32), cast(t, dtype=f16))
        y4 = cast(cast(t, dtype=f32), dtype=f16)
        output y0
        output y1
        output y2
        output y3
        output y4
      })",
      R"(fusion outputs_and_merges {
        input x: f32[N]
        input s: i32
        input idx: i64[N, 1]
        c = add(1, 2)
        y = add(x, c)
        p = cast(x, dtype=f32)
        q = cast(p, dtype=f32)
        b = mul(add(1, 2), 3)
        r = add(s, b)
        z = full(shape=[N, 4], value=2, dtype=f32)
        oh = scatter(z, idx, unsqueeze(x, dim=1), dim=1)
        output c
        output y
        output p
        output q
        output r
        output z
        output oh
      })",
      R"(fusion folds {
        input x: i32[N]
        input s: i32
        input f: f16[N]
        a = add(s, add(7, 8))
        b = where(gt(x, 1), x, neg(add(2, 3)))
        c = mul(f, cast(3, dtype=f64))
        d = add(x, cast(2.75, dtype=i64))
        output a
        output b
        output c
        output d
      })",
      R"(fusion scatters {
        input idx: i32[M, 1]
        input src: f32[M, 1]
        input s: f64
        input ii: i32[M, 1]
        a = scatter(full(shape=[M, 5], value=0.1, dtype=f64), idx, src, dim=1)
        b = scatter(full(shape=[M, 5], value=-3, dtype=f32), idx, s, dim=1)
        c = scatter(full(shape=[M, 5], value=9, dtype=i64), idx, ii, dim=1)
        d = scatter(full(shape=[M, 5], value=0.25, dtype=bf16), idx, 1.5, dim=1)
        output a
        output b
        output c
        output d
      })",
  };
  for (const char *source : sources)
    expectSameResults(*loadOne(source), /*exact=*/true);
}

TEST(Canonicalize, ArgMaxAndArgMinPickTheFirstExtremeOrTheFirstNaNBeforeAndAfter) {
  std::unique_ptr<Fusion> fusion = loadOne(R"(fusion arg {
    input x: f32[4, 5]
    input i: i64[2, 3]
    input b: bool[2, 3]
    a = argmax(x, dim=1)
    m = argmin(x, dim=-1, keepdim=true)
    c = argmax(x, dim=0)
    j = argmax(i, dim=1)
    k = argmin(i, dim=1)
    p = argmax(b, dim=1)
    output a
    output m
    output c
    output j
    output k
    output p
  })");
  const double nan = std::nan("");
  const int64_t big = int64_t{1} << 62; // big and big + 1 are one double apart
  const std::map<std::string, Tensor> inputs{
      {"x", testutil::floats(DType::F32, {4, 5},
                             {1,    3,   3,    2,  0,   // ties: the first max and the first min
                              7,    -1,  nan,  9,  nan, // the first NaN, largest and smallest
                              -0.0, 0.0, -0.0, -2, -2,  // -0 and +0 are equal
                              5,    5,   5,    5,  5})},
      {"i", testutil::ints(DType::I64, {2, 3}, {big, big + 1, big, -big, -big - 1, -big - 1})},
      {"b", testutil::ints(DType::Bool, {2, 3}, {0, 1, 1, 0, 0, 0})}};
  const std::vector<std::vector<int64_t>> expected{{1, 2, 0, 0}, {4, 2, 3, 0}, {1, 3, 1, 1, 1},
                                                   {1, 0},       {0, 1},       {1, 0}};
  const std::unique_ptr<Fusion> decomposed = canonicalize(*fusion);
  for (const Fusion *f : {fusion.get(), decomposed.get()}) {
    const InterpreterResult r = interpret(*f, inputs);
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t o = 0; o < expected.size(); ++o)
      EXPECT_EQ(testutil::intValues(r.outputs[o]), expected[o])
          << (f == fusion.get() ? "definition" : "decomposition") << ", output " << o;
  }
}

TEST(Canonicalize, DecomposedCompositesMatchTheirDefinitionWithinRounding) {
  const char *sources[] = {
      R"(fusion f64_all {
        input x: f64[M, N, K]
        input w: f64[M, K]
        input b: f64[M, K]
        y0 = softmax(x, dim=1)
        y1 = log_softmax(x, dim=-1)
        y2 = layer_norm(x, w, b, axes=[0, 2], eps=1e-5)
        y3 = rms_norm(x, w, axes=[2, 0])
        output y0
        output y1
        output y2
        output y3
      })",
      R"(fusion f32_all {
        input x: f32[M, N]
        input w: f32[N]
        input b: f32[N]
        input wm: f32[M]
        y0 = softmax(x, dim=0)
        y1 = log_softmax(x, dim=1)
        y2 = layer_norm(x, w, b, axes=[1])
        y3 = rms_norm(x, wm, axes=[0], eps=0.5)
        y4 = mul(softmax(x, dim=1), 3)
        again = softmax(x, dim=0)
        output again
        output y0
        output y1
        output y2
        output y3
        output y4
      })",
      R"(fusion half_all {
        input x: bf16[M, N]
        input h: f16[M, N]
        input w: bf16[N]
        input b: f32[N]
        y0 = softmax(x, dim=1)
        y1 = log_softmax(h, dim=1)
        y2 = layer_norm(x, w, b, axes=[1])
        y3 = rms_norm(h, w, axes=[1])
        output y0
        output y1
        output y2
        output y3
      })",
      R"(fusion issue27_composites {
        input x: f32[M, N]
        input d: f64[M, N, K]
        input h: bf16[M, N]
        input i: i32[M, N]
        y0 = softplus(x)
        y1 = softplus(mul(d, 10), beta=-0.5, threshold=2)
        y2 = softplus(h, beta=2)
        y3 = logsumexp(x, axes=[1])
        y4 = logsumexp(d, axes=[0, 2], keepdim=true)
        y5 = logsumexp(i, axes=[0])
        y6 = logsumexp(h, axes=[1])
        y7 = std(x, axes=[0])
        y8 = std(d, axes=[1, 2], correction=0, keepdim=true)
        y9 = std(h, axes=[1])
        y10 = argmax(x, dim=1)
        y11 = argmin(i, dim=0, keepdim=true)
        y12 = argmax(h, dim=0)
        output y0
        output y1
        output y2
        output y3
        output y4
        output y5
        output y6
        output y7
        output y8
        output y9
        output y10
        output y11
        output y12
      })",
  };
  for (const char *source : sources)
    expectSameResults(*loadOne(source), /*exact=*/false);
  for (const auto &fusion : goldenAndBenchFusions())
    if (hasComposite(*fusion))
      expectSameResults(*fusion, /*exact=*/false);
}

} // namespace
} // namespace fuserc

// Tests of the segmenter: one segment when a scheduler takes the whole
// fusion, splits with their reasons, crossing tensors with their sizes, and
// a randomized check that segmentations of random fusions cover every op
// once, form an acyclic graph of segments each accepted by its scheduler,
// and compute what the whole fusion computes (segment by segment in the
// reference interpreter). A disabled test times a 1,000-op fusion.
#include "TestSupport.h"

#include "ir/Inference.h"
#include "ir/Verifier.h"
#include "ir/interp/Interpreter.h"
#include "passes/Recomputation.h"
#include "passes/Segmentation.h"
#include "schedulers/SchedulerRegistry.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <random>
#include <set>

namespace fuserc {
namespace {

class SegmentationTest : public ::testing::Test {
protected:
  void SetUp() override {
    registerBuiltinSchedulers(registry);
    schedulers = registry.all();
  }

  const Fusion &load(std::string_view text) {
    loaded = test::load(text);
    EXPECT_TRUE(loaded.ok) << loaded.diagnostics;
    return *loaded.module.fusions.front();
  }

  SegmentedFusion segment(const Fusion &fusion, SymbolBindings shapes = {}) {
    std::string errors;
    llvm::raw_string_ostream os(errors);
    DiagnosticEngine diag(os);
    std::optional<SegmentedFusion> s = segmentFusion(fusion, {schedulers, shapes}, diag);
    EXPECT_TRUE(s) << os.str();
    return s ? std::move(*s) : SegmentedFusion{};
  }

  static std::vector<std::string> schedulerNames(const SegmentedFusion &sf) {
    std::vector<std::string> result;
    for (const ScheduledSegment &s : sf.segments)
      result.emplace_back(s.scheduler->name());
    return result;
  }

  SchedulerRegistry registry;
  std::vector<const Scheduler *> schedulers;
  test::Loaded loaded;
};

TEST_F(SegmentationTest, WholeFusionAcceptedIsOneSegment) {
  SegmentedFusion sf = segment(load(R"(
fusion softmax {
  input x: f32[M, N]
  m = max(x, axes=[1], keepdim=true)
  e = exp(sub(x, m))
  y = div(e, sum(e, axes=[1], keepdim=true))
  output y
})"));
  EXPECT_EQ(schedulerNames(sf), (std::vector<std::string>{"normalization"}));
  EXPECT_TRUE(sf.wholeFusion.empty());
  EXPECT_TRUE(sf.crossing.empty());
  EXPECT_TRUE(sf.boundaries.empty());
}

TEST_F(SegmentationTest, BiasGradSplitsIntoPointwiseAndReductionWithReasons) {
  SegmentedFusion sf = segment(load(R"(
fusion bias_grad {
  input g: f32[B, H]
  input x: f32[B, H]
  db = sum(g, axes=[0])
  dx = mul(g, tanh(x))
  output db
  output dx
})"));
  // db comes first in the fusion; the segments read g independently.
  EXPECT_EQ(schedulerNames(sf), (std::vector<std::string>{"reduction", "pointwise"}));
  ASSERT_EQ(sf.wholeFusion.size(), 6u);
  EXPECT_EQ(sf.wholeFusion[2].scheduler, "reduction");
  EXPECT_EQ(sf.wholeFusion[2].reason, "'db' reduces axes [0] but 'dx' is not reduced; a "
                                      "reduction kernel writes only reduced outputs");
  ASSERT_EQ(sf.boundaries.size(), 1u); // both read g
  EXPECT_EQ(sf.boundaries[0].shared.size(), 1u);
  EXPECT_EQ(sf.boundaries[0].rejections.size(), 6u);
}

TEST_F(SegmentationTest, ReadyReductionsLaunchBeforePointwiseSegmentsWhateverTheOpOrder) {
  SegmentedFusion sf = segment(load(R"(
fusion bias_grad_late {
  input g: f32[B, H]
  input x: f32[B, H]
  dx = mul(g, tanh(x))
  db = sum(g, axes=[0])
  output dx
  output db
})"));
  // dx comes first in the fusion, but the reduction launches first.
  EXPECT_EQ(schedulerNames(sf), (std::vector<std::string>{"reduction", "pointwise"}));
}

TEST_F(SegmentationTest, AReductionWaitsForThePointwiseSegmentItReads) {
  SegmentedFusion sf = segment(load(R"(
fusion two_axes {
  input x: f32[A, B]
  y = exp(x)
  s = sum(y, axes=[0])
  t = sum(y, axes=[1])
  output s
  output t
})"));
  // Dependencies still come first: no segment runs before one it reads.
  ASSERT_FALSE(sf.crossing.empty());
  for (const CrossingTensor &c : sf.crossing)
    for (size_t consumer : c.consumers)
      EXPECT_LT(c.producer, consumer);
}

TEST_F(SegmentationTest, TwoReductionsOfDifferentAxesSplitAndPassTheSmallerTensor) {
  const Fusion &f = load(R"(
fusion centered {
  input x: f32[M, N]
  r = sum(x, axes=[1], keepdim=true)
  c = sum(x, axes=[0], keepdim=true)
  y = add(sub(x, r), c)
  output y
})");
  SegmentedFusion sf = segment(f);
  // Passing c (one row) is cheaper than passing sub(x, r) (the whole tensor).
  EXPECT_EQ(schedulerNames(sf), (std::vector<std::string>{"reduction", "normalization"}));
  EXPECT_EQ(sf.segments[0].segment.ops().size(), 1u);
  ASSERT_EQ(sf.crossing.size(), 1u);
  EXPECT_EQ(sf.crossing[0].value->name(), "c");
  EXPECT_EQ(sf.crossing[0].bytes.str(), "4*N");
  EXPECT_EQ(sf.crossing[0].kind, CrossingTensor::Kind::Workspace);
  EXPECT_EQ(sf.workspaceBytes.str(), "4*N");
  ASSERT_EQ(sf.boundaries.size(), 1u);
  EXPECT_EQ(sf.boundaries[0].rejections[1].reason,
            "'y' (add) f32[M, N] reads a column reduction's result but is not over the columns "
            "[N]: the columns are reduced only after every row");
}

TEST_F(SegmentationTest, ShapeBindingsDecideWhichSideIsCheaper) {
  // Splitting off the column sum passes [1, N]; splitting off the row sum
  // passes [M, 1]. Which the segmenter keeps apart follows the sizes. (The
  // column sum reads a column-major input, so either sum can be the rows
  // of a persistent kernel.)
  std::string_view text = R"(
fusion f {
  input x: f32[M, N]
  input xt: f32[M, N] layout(1, 0)
  r = sum(x, axes=[1], keepdim=true)
  c = sum(xt, axes=[0], keepdim=true)
  y = add(sub(x, r), c)
  z = add(sub(xt, c), r)
  output y
  output z
})";
  auto passed = [&](SymbolBindings shapes) {
    SegmentedFusion sf = segment(load(text), std::move(shapes));
    std::string names;
    for (const CrossingTensor &t : sf.crossing)
      names += (names.empty() ? "" : ",") + t.value->name();
    return names;
  };
  EXPECT_EQ(passed({{"M", 8}, {"N", 100000}}), "r");
  EXPECT_EQ(passed({{"M", 100000}, {"N", 8}}), "c");
}

TEST_F(SegmentationTest, HalfTensorsBetweenSegmentsAreKeptInF32) {
  SegmentedFusion sf = segment(load(R"(
fusion f {
  input x: f16[M, N]
  r = sum(exp(x), axes=[1], keepdim=true)
  c = sum(x, axes=[0], keepdim=true)
  y = add(sub(x, r), c)
  output y
})"));
  ASSERT_EQ(sf.crossing.size(), 1u);
  EXPECT_EQ(sf.crossing[0].storage, DType::F32);
  EXPECT_EQ(sf.crossing[0].bytes.str(), "4*N");
}

TEST_F(SegmentationTest, HalfCastsBetweenSegmentsAreKeptInTheirDtype) {
  SegmentedFusion sf = segment(load(R"(
fusion f {
  input x: f32[M, N]
  h = cast(exp(x), dtype=f16)
  r = sum(h, axes=[1], keepdim=true)
  c = sum(h, axes=[0], keepdim=true)
  y = add(sub(h, r), c)
  output y
})"));
  ASSERT_EQ(sf.crossing.size(), 2u);
  EXPECT_EQ(sf.crossing[0].storage, DType::F16);
  EXPECT_EQ(sf.crossing[0].bytes.str(), "2*M*N");
}

TEST_F(SegmentationTest, AnOpNoSelectedSchedulerAcceptsIsAnError) {
  // The error points into the source: one engine loads and segments.
  std::string errors;
  llvm::raw_string_ostream os(errors);
  DiagnosticEngine diag(os);
  Module module;
  ASSERT_TRUE(loadFusionSource("f.fus", R"(
fusion f {
  input x: f32[M, N]
  y = sum(x, axes=[1])
  output y
})",
                               diag, module));
  std::vector<const Scheduler *> pointwiseOnly{registry.find("pointwise")};
  EXPECT_FALSE(segmentFusion(*module.fusions.front(), {pointwiseOnly, {}}, diag));
  EXPECT_NE(os.str().find("no scheduler accepts 'y' (sum) on its own, so 'f' cannot be "
                          "compiled; pointwise: 'y' (sum) is a reduction"),
            std::string::npos)
      << os.str();
}

//===----------------------------------------------------------------------===//
// Random fusions
//===----------------------------------------------------------------------===//

// Builds random fusions of f32 (and bool) tensors over [M, N] and [N, M]:
// elementwise math with broadcasting, comparisons and where, reductions with
// and without keepdim, permutes, broadcasts, slices and pads. Values stay small (tanh, sigmoid,
// ...) so results are finite; f32 only, so that segment boundaries round nothing.
class RandomFusionBuilder {
public:
  explicit RandomFusionBuilder(unsigned seed) : rng_(seed) {}

  std::unique_ptr<Fusion> build(size_t numOps) {
    auto fusion = std::make_unique<Fusion>("random");
    f_ = fusion.get();
    pool_.clear();
    auto input = [&](const char *name, std::vector<Extent> shape) {
      size_t rank = shape.size();
      pool_.push_back(
          f_->addTensorInput(name, DType::F32, std::move(shape), rowMajorLayout(rank), false, {}));
    };
    Extent M = Extent::symbol("M"), N = Extent::symbol("N");
    input("a", {M, N});
    input("b", {M, N});
    input("c", {N, M});
    input("w", {N});
    scalar_ = f_->addScalarInput("s", DType::F32, {});
    size_t attempts = 0;
    while (f_->ops().size() < numOps && ++attempts < numOps * 50)
      addRandomOp();
    for (const auto &op : f_->ops()) {
      Value *v = op->result();
      if (v->dtype() == DType::F32 && (!used_.count(v) || chance(0.1))) {
        FusionOutput out;
        out.name = "o" + std::to_string(f_->outputs().size());
        out.value = v;
        f_->addOutput(out);
      }
    }
    for (const auto &op : f_->ops())
      f_->setLayout(op->result(), rowMajorLayout(op->result()->rank()), "row-major");
    for (FusionOutput &out : f_->mutableOutputs())
      out.layout = out.value->layout();
    return fusion;
  }

private:
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  size_t below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  // Recent values are likelier, so chains grow long.
  Value *pickValue(DType dtype) {
    for (int tries = 0; tries < 20; ++tries) {
      size_t n = pool_.size();
      size_t i = chance(0.7) ? n - 1 - below(std::min<size_t>(n, 8)) : below(n);
      if (pool_[i]->dtype() == dtype)
        return pool_[i];
    }
    return pool_.front();
  }
  Value *pickPartner(Value *x, DType dtype) {
    for (int tries = 0; tries < 20; ++tries) {
      Value *y = pickValue(dtype);
      if (broadcastShapes(x->shape(), y->shape()))
        return y;
    }
    return nullptr;
  }

  void addOp(std::string_view name, std::vector<Value *> operands, Attributes attrs = {}) {
    InferenceResult r = inferResultType(lookupOp(name)->kind, operands, attrs);
    if (!std::holds_alternative<TensorType>(r))
      return;
    for (Value *v : operands)
      used_.insert(v);
    Op *op = f_->addOp(lookupOp(name)->kind, operands, attrs, std::get<TensorType>(r),
                       "t" + std::to_string(f_->ops().size()), {});
    pool_.push_back(op->result());
  }

  void addRandomOp() {
    static constexpr std::string_view kUnary[] = {"tanh", "sigmoid", "neg", "abs", "sin", "relu"};
    static constexpr std::string_view kBinary[] = {"add", "sub", "mul", "maximum", "minimum"};
    Value *x = pickValue(DType::F32);
    switch (below(11)) {
    case 0:
    case 1:
      addOp(kUnary[below(std::size(kUnary))], {x});
      return;
    case 2:
    case 3:
    case 4:
      if (Value *y = pickPartner(x, DType::F32))
        addOp(kBinary[below(std::size(kBinary))], {x, y});
      return;
    case 5:
      addOp("mul", {x, chance(0.5) ? scalar_ : f_->addLiteral(Number::floating(0.5), {})});
      return;
    case 6: {
      if (x->rank() == 0)
        return;
      std::vector<int64_t> axes;
      for (size_t d = 0; d < x->rank(); ++d)
        if (chance(0.5))
          axes.push_back(static_cast<int64_t>(d));
      if (axes.empty())
        axes.push_back(static_cast<int64_t>(below(x->rank())));
      Attributes attrs;
      attrs.set("axes", axes);
      attrs.set("keepdim", chance(0.7));
      addOp(chance(0.5) ? "sum" : "max", {x}, attrs);
      return;
    }
    case 7:
      if (x->rank() == 2) {
        Attributes attrs;
        attrs.set("dims", std::vector<int64_t>{1, 0});
        addOp("permute", {x}, attrs);
      }
      return;
    case 8: {
      Value *y = pickPartner(x, DType::F32);
      if (!y)
        return;
      addOp("gt", {x, y});
      Value *cond = pool_.back();
      if (cond->dtype() != DType::Bool)
        return;
      if (Value *z = pickPartner(cond, DType::F32))
        addOp("where", {cond, x, z});
      return;
    }
    case 9: {
      // A row or column broadcast back, or a slice padded back to shape.
      Extent M = Extent::symbol("M"), N = Extent::symbol("N");
      Attributes attrs;
      if (x->rank() == 1) {
        attrs.set("shape", std::vector<Extent>{M, N});
        attrs.set("broadcast_dims", std::vector<int64_t>{x->shape()[0] == M ? 0 : 1});
        addOp("broadcast_in_dim", {x}, attrs);
      } else if (x->rank() == 2 && x->shape()[1].symbolName()) {
        attrs.set("dim", int64_t{1});
        attrs.set("start", Extent(1));
        size_t before = pool_.size();
        addOp("slice", {x}, attrs);
        if (pool_.size() == before)
          return;
        Attributes pad;
        pad.set("dim", int64_t{1});
        pad.set("before", Extent(1));
        pad.set("after", Extent(0));
        pad.set("value", Number::floating(0.25));
        addOp("pad", {pool_.back()}, pad);
      }
      return;
    }
    default:
      addOp("tanh", {x});
      return;
    }
  }

  std::mt19937 rng_;
  Fusion *f_ = nullptr;
  Value *scalar_ = nullptr;
  std::vector<Value *> pool_;
  std::set<const Value *> used_;
};

std::map<std::string, Tensor> randomInputs(const Fusion &f, std::mt19937 &rng,
                                           const SymbolBindings &symbols) {
  std::map<std::string, Tensor> inputs;
  std::uniform_real_distribution<double> value(-2, 2);
  for (const Value *in : f.inputs()) {
    std::vector<int64_t> shape;
    for (const Extent &e : in->shape())
      shape.push_back(*e.evaluate(symbols));
    Tensor t(in->dtype(), shape);
    for (size_t i = 0; i < t.numel(); ++i)
      t.setFloat(i, value(rng));
    inputs.emplace(in->name(), std::move(t));
  }
  return inputs;
}

// The segment as a fusion of its own: its inputs become inputs ("v<id>"),
// its outputs outputs, in the order of Segment::outputs().
std::unique_ptr<Fusion> segmentAsFusion(const Segment &segment) {
  auto f = std::make_unique<Fusion>("segment");
  std::map<const Value *, Value *> mapped;
  auto nameOf = [](const Value *v) { return "v" + std::to_string(v->id()); };
  for (const Value *in : segment.inputs())
    mapped[in] = in->isScalarInput() ? f->addScalarInput(nameOf(in), in->dtype(), {})
                                     : f->addTensorInput(nameOf(in), in->dtype(), in->shape(),
                                                         rowMajorLayout(in->rank()), false, {});
  for (const Op *op : segment.ops()) {
    std::vector<Value *> operands;
    for (const Value *operand : op->operands())
      operands.push_back(operand->isLiteral() ? f->addLiteral(operand->literal(), {})
                                              : mapped.at(operand));
    Op *copy = f->addOp(op->kind(), operands, op->attrs(),
                        {op->result()->dtype(), op->result()->shape()}, "", {});
    mapped[op->result()] = copy->result();
  }
  for (const Value *out : segment.outputs()) {
    FusionOutput o;
    o.name = nameOf(out);
    o.value = mapped.at(out);
    f->addOutput(o);
  }
  return f;
}

bool sameValues(const Tensor &x, const Tensor &y) {
  if (x.dtype() != y.dtype() || x.shape() != y.shape())
    return false;
  for (size_t i = 0; i < x.numel(); ++i) {
    double a = x.getFloat(i), b = y.getFloat(i);
    if (a != b && !(std::isnan(a) && std::isnan(b)))
      return false;
  }
  return true;
}

// Checks the invariants of a segmentation of `f` and runs it segment by
// segment against the whole fusion.
void checkSegmentation(const Fusion &f, const SegmentedFusion &sf, std::mt19937 &rng) {
  const FusionAnalysis &a = *sf.analysis;
  // Every op in exactly one segment, and segmentOfOp agrees; index maps and
  // recomputed casts in none.
  std::vector<int> covered(f.ops().size(), 0);
  for (const auto &op : f.ops())
    if (a.isRecomputed(*op)) {
      ++covered[a.position(*op)];
      ASSERT_EQ(sf.segmentOfOp[a.position(*op)], kNoSegment);
    }
  for (const ScheduledSegment &s : sf.segments) {
    for (const Op *op : s.segment.ops()) {
      ++covered[a.position(*op)];
      ASSERT_EQ(sf.segmentOfOp[a.position(*op)], s.id);
    }
    Verdict v = s.scheduler->canSchedule(s.segment);
    ASSERT_TRUE(v.accepted()) << s.scheduler->name() << " rejects segment " << s.id << ": "
                              << v.reason();
  }
  for (int c : covered)
    ASSERT_EQ(c, 1);
  // Acyclic: ids are a topological order of every op-level edge.
  for (const auto &op : f.ops()) {
    for (const Value *operand : op->operands()) {
      if (a.producer(*operand) && !a.isRecomputed(*op)) {
        ASSERT_LE(sf.segmentOfOp[a.position(*operand->definingOp())],
                  sf.segmentOfOp[a.position(*op)]);
      }
    }
  }

  SymbolBindings symbols{{"M", 3}, {"N", 4}};
  std::map<std::string, Tensor> inputs = randomInputs(f, rng, symbols);
  InterpreterResult whole = interpret(f, inputs, symbols);
  ASSERT_TRUE(whole.ok) << whole.error;

  std::map<const Value *, Tensor> values;
  for (const Value *in : f.inputs())
    values[in] = inputs.at(in->name());
  // Index maps and recomputed casts, as the kernels reading them see them.
  for (const auto &op : f.ops()) {
    if (!a.isRecomputed(*op))
      continue;
    std::unique_ptr<Fusion> view = segmentAsFusion(Segment(sf.analysis, {op.get()}));
    const Value &x = *op->operand(0);
    InterpreterResult r =
        interpret(*view, {{"v" + std::to_string(x.id()), values.at(&x)}}, symbols);
    ASSERT_TRUE(r.ok) << r.error;
    values[op->result()] = r.outputs.front();
  }
  for (const ScheduledSegment &s : sf.segments) {
    std::unique_ptr<Fusion> part = segmentAsFusion(s.segment);
    std::map<std::string, Tensor> partInputs;
    for (const Value *in : s.segment.inputs())
      partInputs.emplace("v" + std::to_string(in->id()), values.at(in));
    InterpreterResult r = interpret(*part, partInputs, symbols);
    ASSERT_TRUE(r.ok) << "segment " << s.id << ": " << r.error;
    for (size_t i = 0; i < s.segment.outputs().size(); ++i)
      values[s.segment.outputs()[i]] = r.outputs[i];
  }
  for (size_t i = 0; i < f.outputs().size(); ++i) {
    const Tensor &segmented = values.at(f.outputs()[i].value);
    ASSERT_TRUE(sameValues(segmented, whole.outputs[i]))
        << "output " << f.outputs()[i].name << ": segmented " << segmented.str() << ", whole "
        << whole.outputs[i].str();
  }
}

TEST_F(SegmentationTest, RandomFusionsSegmentSoundly) {
  std::mt19937 rng(20240611);
  size_t split = 0;
  std::map<std::string, size_t> claimed;
  for (unsigned seed = 0; seed < 300; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomFusionBuilder builder(seed);
    std::unique_ptr<Fusion> f = builder.build(1 + seed % 60);
    std::vector<std::string> problems = verifyFusion(*f);
    ASSERT_TRUE(problems.empty()) << problems.front();
    SegmentedFusion sf = segment(*f);
    ASSERT_NO_FATAL_FAILURE(checkSegmentation(*f, sf, rng));
    split += sf.segments.size() > 1;
    for (const ScheduledSegment &s : sf.segments)
      ++claimed[std::string(s.scheduler->name())];
  }
  // The random fusions exercise splitting and every kernel-making scheduler.
  EXPECT_GT(split, 50u);
  for (const char *name : {"normalization", "reduction", "transpose", "pointwise"})
    EXPECT_GT(claimed[name], 10u) << name;
}

// Recomputation on the same random fusions: where it rewrites one, the new
// fusion verifies, keeps the inputs and outputs (names, layouts, kinds),
// computes what the original does, and its segmentation is sound.
TEST_F(SegmentationTest, RandomFusionsRecomputeSoundly) {
  std::mt19937 rng(20261128);
  size_t rewritten = 0;
  for (unsigned seed = 0; seed < 300; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::unique_ptr<Fusion> original = RandomFusionBuilder(seed).build(1 + seed % 60);
    std::unique_ptr<Fusion> f = RandomFusionBuilder(seed).build(1 + seed % 60);
    const Fusion *before = f.get();
    std::string errors;
    llvm::raw_string_ostream os(errors);
    DiagnosticEngine diag(os);
    std::optional<SegmentedFusion> sf = segmentRecomputing(f, {schedulers, {}}, diag);
    ASSERT_TRUE(sf) << os.str();
    if (f.get() == before) {
      EXPECT_TRUE(sf->recomputations.empty());
      continue;
    }
    ++rewritten;
    EXPECT_FALSE(sf->recomputations.empty());
    std::vector<std::string> problems = verifyFusion(*f);
    ASSERT_TRUE(problems.empty()) << problems.front();
    ASSERT_EQ(f->inputs().size(), original->inputs().size());
    for (size_t i = 0; i < f->inputs().size(); ++i) {
      EXPECT_EQ(f->inputs()[i]->name(), original->inputs()[i]->name());
      EXPECT_EQ(f->inputs()[i]->layout(), original->inputs()[i]->layout());
    }
    ASSERT_EQ(f->outputs().size(), original->outputs().size());
    for (size_t i = 0; i < f->outputs().size(); ++i) {
      EXPECT_EQ(f->outputs()[i].name, original->outputs()[i].name);
      EXPECT_EQ(f->outputs()[i].layout, original->outputs()[i].layout);
      EXPECT_EQ(f->outputs()[i].kind, original->outputs()[i].kind);
    }
    SymbolBindings symbols{{"M", 3}, {"N", 4}};
    std::map<std::string, Tensor> inputs = randomInputs(*original, rng, symbols);
    InterpreterResult want = interpret(*original, inputs, symbols);
    InterpreterResult got = interpret(*f, inputs, symbols);
    ASSERT_TRUE(want.ok && got.ok) << want.error << got.error;
    for (size_t i = 0; i < want.outputs.size(); ++i)
      ASSERT_TRUE(sameValues(got.outputs[i], want.outputs[i]))
          << "output " << f->outputs()[i].name << ": " << got.outputs[i].str() << ", not "
          << want.outputs[i].str();
    ASSERT_NO_FATAL_FAILURE(checkSegmentation(*f, *sf, rng));
  }
  // The random fusions pass elementwise values between segments often.
  EXPECT_GT(rewritten, 100u);
}

TEST_F(SegmentationTest, DISABLED_ThousandOpFusionBenchmark) {
  RandomFusionBuilder builder(7);
  std::unique_ptr<Fusion> f = builder.build(1000);
  auto start = std::chrono::steady_clock::now();
  SegmentedFusion sf = segment(*f);
  auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start);
  std::printf("segmented %zu ops into %zu segments (%zu boundaries) in %.1f ms\n", f->ops().size(),
              sf.segments.size(), sf.boundaries.size(), ms.count());
}

} // namespace
} // namespace fuserc

// Unit tests for the reference interpreter's elementwise ops: rounding of
// f32 / f16 / bf16 results, operand conversion and promotion, broadcasting,
// integer wrap-around, NaN semantics, where and cast.
#include "InterpreterTestUtil.h"

#include "ir/Inference.h"

#include <limits>

using namespace fuserc;
using namespace fuserc::testutil;

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
const int64_t kI32Max = std::numeric_limits<int32_t>::max();
const int64_t kI32Min = std::numeric_limits<int32_t>::min();
} // namespace

TEST(InterpreterElementwise, F32ResultsRoundToF32AfterEachOp) {
  // 2^24 + 1 is exact in double but not in f32.
  Tensor a = floats(DType::F32, {2}, {16777216.0, 0.1});
  Tensor b = floats(DType::F32, {2}, {1.0, 0.2});
  Tensor out = runOp(OpKind::Add, {a, b}, DType::F32, {2});
  EXPECT_EQ(out.dtype(), DType::F32);
  EXPECT_EQ(floatValues(out), (std::vector<double>{16777216.0, f32(f32(0.1) + f32(0.2))}));
}

TEST(InterpreterElementwise, F16IntermediatesStayInF32UntilStored) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F16, Shape{1});
  Value *y = b.input("y", DType::F16, Shape{1});
  Value *s = b.op(OpKind::Add, {x, y}, DType::F16, Shape{1});
  Value *t = b.op(OpKind::Add, {s, y}, DType::F16, Shape{1});
  b.output(s);
  b.output(t);
  auto outputs = run(b.fusion(), {{"x", floats(DType::F16, {1}, {1.0})},
                                  {"y", floats(DType::F16, {1}, {0x1p-11})}});
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0].dtype(), DType::F16);
  // s = 1 + 2^-11 rounds (a tie, to even) only where it is stored...
  EXPECT_EQ(floatValues(outputs[0]), (std::vector<double>{1.0}));
  // ...while t is computed from the f32 value of s.
  EXPECT_EQ(floatValues(outputs[1]), (std::vector<double>{1.0 + 0x1p-10}));
}

TEST(InterpreterElementwise, CastToF16OutputsF16Values) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2});
  b.output(b.op(OpKind::Mul, {x, b.floatLiteral(1.0)}, DType::F32, Shape{2}));
  Value *h = b.op(OpKind::Cast, {x}, DType::F16, Shape{2}, makeAttrs({{"dtype", DType::F16}}));
  b.output(h);
  auto outputs = run(b.fusion(), {{"x", floats(DType::F32, {2}, {0.1, 1.0 + 0x1p-11 + 0x1p-20})}});
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[1].dtype(), DType::F16);
  EXPECT_EQ(floatValues(outputs[1]), (std::vector<double>{0.0999755859375, 1.0 + 0x1p-10}));
}

TEST(InterpreterElementwise, CastToF16RoundsImmediately) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F16, Shape{1});
  Value *y = b.input("y", DType::F16, Shape{1});
  Value *s = b.op(OpKind::Add, {x, y}, DType::F16, Shape{1});
  Value *c = b.op(OpKind::Cast, {s}, DType::F16, Shape{1}, makeAttrs({{"dtype", DType::F16}}));
  b.output(b.op(OpKind::Add, {c, y}, DType::F16, Shape{1}));
  auto outputs = run(b.fusion(), {{"x", floats(DType::F16, {1}, {1.0})},
                                  {"y", floats(DType::F16, {1}, {0x1p-11})}});
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(floatValues(outputs[0]), (std::vector<double>{1.0})); // not 1 + 2^-10
}

TEST(InterpreterElementwise, BF16OutputsRoundToBF16) {
  Tensor x = floats(DType::F32, {2}, {1.0 + 3 * 0x1p-8, 3.0e38});
  Tensor out = runOp(OpKind::Cast, {x}, DType::BF16, {2}, makeAttrs({{"dtype", DType::BF16}}));
  EXPECT_EQ(out.dtype(), DType::BF16);
  EXPECT_EQ(floatValues(out), (std::vector<double>{1.0 + 0x1p-6, 226 * 0x1p120}));
}

TEST(InterpreterElementwise, FloatLiteralIsConvertedToTheComputationType) {
  // In f32, 2^-24 + 2^-50 is 2^-24, and 1 + 2^-24 is a tie that rounds to
  // 1; in double the sum would round up to 1 + 2^-23.
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{1});
  b.output(b.op(OpKind::Add, {x, b.floatLiteral(0x1p-24 + 0x1p-50)}, DType::F32, Shape{1}));
  auto outputs = run(b.fusion(), {{"x", floats(DType::F32, {1}, {1.0})}});
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(floatValues(outputs[0]), (std::vector<double>{1.0}));
}

TEST(InterpreterElementwise, IntegerLiteralWrapsToAnI32Computation) {
  FusionBuilder b;
  Value *x = b.input("x", DType::I32, Shape{3});
  b.output(b.op(OpKind::Add, {x, b.intLiteral(1)}, DType::I32, Shape{3}));
  b.output(b.op(OpKind::Add, {x, b.intLiteral((int64_t{1} << 32) + 2)}, DType::I32, Shape{3}));
  auto outputs = run(b.fusion(), {{"x", ints(DType::I32, {3}, {kI32Max, 5, -1})}});
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0].dtype(), DType::I32);
  EXPECT_EQ(intValues(outputs[0]), (std::vector<int64_t>{kI32Min, 6, 0}));
  EXPECT_EQ(intValues(outputs[1]), (std::vector<int64_t>{kI32Min + 1, 7, 1}));
}

TEST(InterpreterElementwise, IntegerArithmeticWrapsToTheDType) {
  Tensor big = ints(DType::I32, {2}, {65536, kI32Min});
  EXPECT_EQ(intValues(runOp(OpKind::Mul, {big, big}, DType::I32, {2})),
            (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(intValues(runOp(OpKind::Neg, {big}, DType::I32, {2})),
            (std::vector<int64_t>{-65536, kI32Min}));
  EXPECT_EQ(intValues(runOp(OpKind::Abs, {big}, DType::I32, {2})),
            (std::vector<int64_t>{65536, kI32Min}));
}

TEST(InterpreterElementwise, IntegerOperandsOfFloatOpsComputeInF32) {
  Tensor a = ints(DType::I64, {3}, {7, -7, 1});
  Tensor b = ints(DType::I64, {3}, {2, 2, 0});
  Tensor q = runOp(OpKind::Div, {a, b}, DType::F32, {3});
  EXPECT_EQ(q.dtype(), DType::F32);
  EXPECT_EQ(floatValues(q), (std::vector<double>{3.5, -3.5, kInf}));
  Tensor e = runOp(OpKind::Exp, {ints(DType::I64, {2}, {0, 1})}, DType::F32, {2});
  EXPECT_EQ(floatValues(e), (std::vector<double>{1.0, f32(2.718281828459045)}));
  Tensor t = runOp(OpKind::Atan2, {ints(DType::I32, {1}, {1}), ints(DType::I32, {1}, {1})},
                   DType::F32, {1});
  EXPECT_EQ(floatValues(t), (std::vector<double>{f32(0.7853981633974483)}));
}

TEST(InterpreterElementwise, OperandsBroadcastNumPyStyle) {
  Tensor a = ints(DType::I64, {2, 1}, {10, 20});
  Tensor b = ints(DType::I64, {3}, {1, 2, 3});
  Tensor out = runOp(OpKind::Add, {a, b}, DType::I64, {2, 3});
  EXPECT_EQ(out.shape(), (Shape{2, 3}));
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{11, 12, 13, 21, 22, 23}));
}

TEST(InterpreterElementwise, ScalarInputsBroadcast) {
  Tensor s = Tensor::scalar(DType::F32, 2.5);
  Tensor x = floats(DType::F32, {3}, {1, 2, 3});
  EXPECT_EQ(floatValues(runOp(OpKind::Mul, {s, x}, DType::F32, {3})),
            (std::vector<double>{2.5, 5, 7.5}));
}

TEST(InterpreterElementwise, ComparisonsAndLogicalOpsGiveBool) {
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{3});
  b.output(b.op(OpKind::Lt, {x, b.intLiteral(2)}, DType::Bool, Shape{3}));
  b.output(b.op(OpKind::LogicalAnd, {x, b.intLiteral(3)}, DType::Bool, Shape{3}));
  b.output(b.op(OpKind::LogicalNot, {x}, DType::Bool, Shape{3}));
  auto outputs = run(b.fusion(), {{"x", floats(DType::F32, {3}, {1.0, 0.0, kNaN})}});
  ASSERT_EQ(outputs.size(), 3u);
  EXPECT_EQ(outputs[0].dtype(), DType::Bool);
  EXPECT_EQ(intValues(outputs[0]), (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(intValues(outputs[1]), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(intValues(outputs[2]), (std::vector<int64_t>{0, 1, 0}));
}

TEST(InterpreterElementwise, WhereSelectsByConditionAndPromotesBranches) {
  Tensor cond = ints(DType::Bool, {3}, {1, 0, 1});
  Tensor a = ints(DType::I32, {3}, {1, 2, 3});
  Tensor b = floats(DType::F32, {3}, {10, 20, 30});
  EXPECT_EQ(floatValues(runOp(OpKind::Where, {cond, a, b}, DType::F32, {3})),
            (std::vector<double>{1, 20, 3}));
  // Integer branches stay exact beyond 2^53.
  const int64_t big = (int64_t{1} << 60) + 1;
  Tensor c = ints(DType::I64, {3}, {big, big, big});
  EXPECT_EQ(
      intValues(runOp(OpKind::Where, {cond, c, ints(DType::I64, {3}, {0, 0, 0})}, DType::I64, {3})),
      (std::vector<int64_t>{big, 0, big}));
}

TEST(InterpreterElementwise, CastToIntegerTruncatesAndSaturates) {
  Tensor x = floats(DType::F32, {4}, {-2.7, 3e9, kNaN, 2.5});
  Tensor out = runOp(OpKind::Cast, {x}, DType::I32, {4}, makeAttrs({{"dtype", DType::I32}}));
  EXPECT_EQ(out.dtype(), DType::I32);
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{-2, kI32Max, 0, 2}));
  Tensor bools = runOp(OpKind::Cast, {floats(DType::F32, {3}, {0.0, -0.5, kNaN})}, DType::Bool, {3},
                       makeAttrs({{"dtype", DType::Bool}}));
  EXPECT_EQ(intValues(bools), (std::vector<int64_t>{0, 1, 1}));
}

TEST(InterpreterElementwise, CastFromIntegerRoundsOnce) {
  Tensor x = ints(DType::I64, {2}, {65520, 2049});
  Tensor out = runOp(OpKind::Cast, {x}, DType::F16, {2}, makeAttrs({{"dtype", DType::F16}}));
  EXPECT_EQ(floatValues(out), (std::vector<double>{kInf, 2048.0}));
}

TEST(InterpreterElementwise, IntegerPowAndRemainders) {
  Tensor a = ints(DType::I64, {3}, {2, 2, -1});
  Tensor b = ints(DType::I64, {3}, {10, -1, -3});
  EXPECT_EQ(intValues(runOp(OpKind::Pow, {a, b}, DType::I64, {3})),
            (std::vector<int64_t>{1024, 0, -1}));
  Tensor n = ints(DType::I64, {3}, {-7, 7, 5});
  Tensor d = ints(DType::I64, {3}, {3, -3, 0});
  EXPECT_EQ(intValues(runOp(OpKind::Remainder, {n, d}, DType::I64, {3})),
            (std::vector<int64_t>{2, -2, 0}));
  EXPECT_EQ(intValues(runOp(OpKind::Fmod, {n, d}, DType::I64, {3})),
            (std::vector<int64_t>{-1, 1, 0}));
}

TEST(InterpreterElementwise, FloatRemainderFollowsTheDivisorSign) {
  Tensor n = floats(DType::F32, {2}, {-7.5, 7.5});
  Tensor d = floats(DType::F32, {2}, {2, -2});
  EXPECT_EQ(floatValues(runOp(OpKind::Remainder, {n, d}, DType::F32, {2})),
            (std::vector<double>{0.5, -0.5}));
  EXPECT_EQ(floatValues(runOp(OpKind::Fmod, {n, d}, DType::F32, {2})),
            (std::vector<double>{-1.5, 1.5}));
}

// IEEE 754-2019 minimum / maximum: -0 below +0, whichever operand it is, as
// the kernels' max.NaN / min.NaN (seed 61721).
TEST(InterpreterElementwise, MaximumAndMinimumOrderNegativeZeroBelowPositiveZero) {
  Tensor a = floats(DType::F32, {2}, {-0.0, 0.0});
  Tensor b = floats(DType::F32, {2}, {0.0, -0.0});
  for (double v : floatValues(runOp(OpKind::Maximum, {a, b}, DType::F32, {2})))
    EXPECT_FALSE(std::signbit(v));
  for (double v : floatValues(runOp(OpKind::Minimum, {a, b}, DType::F32, {2})))
    EXPECT_TRUE(std::signbit(v));
}

TEST(InterpreterElementwise, NaNPropagatesThroughMaximumReluAndClamp) {
  Tensor a = floats(DType::F32, {3}, {1, kNaN, 3});
  Tensor b = floats(DType::F32, {3}, {kNaN, 2, 2});
  std::vector<double> m = floatValues(runOp(OpKind::Maximum, {a, b}, DType::F32, {3}));
  EXPECT_TRUE(std::isnan(m[0]) && std::isnan(m[1]));
  EXPECT_EQ(m[2], 3);
  std::vector<double> r =
      floatValues(runOp(OpKind::Relu, {floats(DType::F32, {3}, {kNaN, -1, 2})}, DType::F32, {3}));
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_EQ(r[1], 0);
  EXPECT_EQ(r[2], 2);
  Tensor x = floats(DType::F32, {3}, {kNaN, -5, 5});
  Tensor lo = floats(DType::F32, {3}, {-1, -1, -1});
  Tensor hi = floats(DType::F32, {3}, {1, 1, 1});
  std::vector<double> c = floatValues(runOp(OpKind::Clamp, {x, lo, hi}, DType::F32, {3}));
  EXPECT_TRUE(std::isnan(c[0]));
  EXPECT_EQ(c[1], -1);
  EXPECT_EQ(c[2], 1);
}

TEST(InterpreterElementwise, RoundHalvesToEven) {
  Tensor x = floats(DType::F32, {4}, {0.5, 1.5, 2.5, -0.5});
  std::vector<double> r = floatValues(runOp(OpKind::Round, {x}, DType::F32, {4}));
  EXPECT_EQ(r, (std::vector<double>{0, 2, 2, 0}));
  EXPECT_TRUE(std::signbit(r[3]));
}

TEST(InterpreterElementwise, ClassificationOps) {
  Tensor x = floats(DType::F32, {3}, {kNaN, -kInf, 1});
  EXPECT_EQ(intValues(runOp(OpKind::Isnan, {x}, DType::Bool, {3})),
            (std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(intValues(runOp(OpKind::Isinf, {x}, DType::Bool, {3})),
            (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(intValues(runOp(OpKind::Isfinite, {x}, DType::Bool, {3})),
            (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(intValues(runOp(OpKind::Isnan, {ints(DType::I32, {1}, {3})}, DType::Bool, {1})),
            (std::vector<int64_t>{0}));
}

TEST(InterpreterElementwise, BitwiseOpsOnIntegers) {
  Tensor a = ints(DType::I32, {2}, {0b1100, 5});
  Tensor b = ints(DType::I32, {2}, {0b1010, -1});
  EXPECT_EQ(intValues(runOp(OpKind::BitwiseAnd, {a, b}, DType::I32, {2})),
            (std::vector<int64_t>{0b1000, 5}));
  EXPECT_EQ(intValues(runOp(OpKind::BitwiseOr, {a, b}, DType::I32, {2})),
            (std::vector<int64_t>{0b1110, -1}));
  EXPECT_EQ(intValues(runOp(OpKind::BitwiseXor, {a, b}, DType::I32, {2})),
            (std::vector<int64_t>{0b0110, -6}));
  EXPECT_EQ(intValues(runOp(OpKind::BitwiseNot, {a}, DType::I32, {2})),
            (std::vector<int64_t>{-13, -6}));
}

TEST(InterpreterElementwise, BitwiseOpsOnBoolActOnOneBit) {
  Tensor a = ints(DType::Bool, {4}, {0, 0, 1, 1});
  Tensor b = ints(DType::Bool, {4}, {0, 1, 0, 1});
  EXPECT_EQ(intValues(runOp(OpKind::BitwiseNot, {a}, DType::Bool, {4})),
            (std::vector<int64_t>{1, 1, 0, 0}));
  EXPECT_EQ(intValues(runOp(OpKind::BitwiseXor, {a, b}, DType::Bool, {4})),
            (std::vector<int64_t>{0, 1, 1, 0}));
  EXPECT_EQ(intValues(runOp(OpKind::BitwiseAnd, {a, b}, DType::Bool, {4})),
            (std::vector<int64_t>{0, 0, 0, 1}));
  // Arithmetic on bool is not bitwise: true + true is true.
  EXPECT_EQ(intValues(runOp(OpKind::Add, {a, b}, DType::Bool, {4})),
            (std::vector<int64_t>{0, 1, 1, 1}));
}

TEST(InterpreterElementwise, GeluTanhApproximationAndLerp) {
  Tensor x = floats(DType::F32, {1}, {1.0});
  EXPECT_EQ(floatValues(runOp(OpKind::Gelu, {x}, DType::F32, {1},
                              makeAttrs({{"approximate", std::string("tanh")}}))),
            (std::vector<double>{f32(0.8411919906082768)}));
  EXPECT_EQ(floatValues(runOp(OpKind::Gelu, {x}, DType::F32, {1},
                              makeAttrs({{"approximate", std::string("none")}}))),
            (std::vector<double>{f32(0.8413447460685429)}));
  Tensor a = floats(DType::F32, {2}, {0, 10});
  Tensor b = floats(DType::F32, {2}, {10, 20});
  Tensor w = floats(DType::F32, {2}, {0.5, 0.25});
  EXPECT_EQ(floatValues(runOp(OpKind::Lerp, {a, b, w}, DType::F32, {2})),
            (std::vector<double>{5, 12.5}));
}

TEST(InterpreterElementwise, LerpIsExactlyBAtWeightOneAsInPyTorch) {
  // a + w * (b - a) at w = 1 is -4.898619485211565, one ulp off b; PyTorch
  // (and the kernels) take b - (b - a) * (1 - w) = b from |w| = 0.5 on.
  const double av = 5.275492379532281, bv = -4.898619485211566;
  Tensor a = floats(DType::F64, {2}, {av, av});
  Tensor b = floats(DType::F64, {2}, {bv, bv});
  Tensor w = floats(DType::F64, {2}, {1, 0.25});
  EXPECT_EQ(floatValues(runOp(OpKind::Lerp, {a, b, w}, DType::F64, {2})),
            (std::vector<double>{bv, av + 0.25 * (bv - av)}));
}

// Every elementwise op evaluates on operands of a dtype its rule accepts,
// with the result type inference gives: no op lacks the domain it needs.
TEST(InterpreterElementwise, EveryElementwiseOpEvaluates) {
  for (const OpInfo &info : allOps()) {
    if (info.shapeRule != ShapeRule::Elementwise)
      continue;
    const DType dtype = info.dtypeRule == DTypeRule::PromoteIntegral ? DType::I32 : DType::F32;
    FusionBuilder b;
    std::vector<Value *> operands;
    std::map<std::string, Tensor> inputs;
    for (size_t i = 0; i < info.operands.size(); ++i) {
      const bool isCondition = i == 0 && info.dtypeRule == DTypeRule::Where;
      const DType t = isCondition ? DType::Bool : dtype;
      const std::string name = "in" + std::to_string(i);
      operands.push_back(b.input(name, t, Shape{2}));
      inputs.emplace(name, ints(t, {2}, {1, 0}));
    }
    Attributes attrs;
    if (info.findAttr("dtype"))
      attrs.set("dtype", DType::F16);
    InferenceResult type = inferResultType(info.kind, operands, attrs);
    ASSERT_TRUE(std::holds_alternative<TensorType>(type))
        << info.name << ": " << std::get<InferenceError>(type).message;
    const TensorType &tt = std::get<TensorType>(type);
    b.output(b.op(info.kind, operands, tt.dtype, tt.shape, attrs));
    InterpreterResult result = interpret(b.fusion(), inputs);
    EXPECT_TRUE(result.ok) << info.name << ": " << result.error;
  }
}

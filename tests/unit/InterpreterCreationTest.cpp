// Unit tests for the reference interpreter's creation ops: full, iota and
// rand_like (against the Random123 stream).
#include "InterpreterTestUtil.h"

#include "ir/interp/Philox.h"

using namespace fuserc;
using namespace fuserc::testutil;

TEST(InterpreterCreation, FullFillsWithTheValueInTheDType) {
  Tensor i = runOp(
      OpKind::Full, {}, DType::I32, {2, 2},
      makeAttrs(
          {{"shape", extents({2, 2})}, {"value", Number::integer(7)}, {"dtype", DType::I32}}));
  EXPECT_EQ(i.dtype(), DType::I32);
  EXPECT_EQ(intValues(i), (std::vector<int64_t>{7, 7, 7, 7}));
  Tensor h = runOp(
      OpKind::Full, {}, DType::F16, {1},
      makeAttrs(
          {{"shape", extents({1})}, {"value", Number::floating(0.1)}, {"dtype", DType::F16}}));
  EXPECT_EQ(h.dtype(), DType::F16);
  EXPECT_EQ(floatValues(h), (std::vector<double>{0.0999755859375}));
  Tensor b = runOp(
      OpKind::Full, {}, DType::Bool, {1},
      makeAttrs(
          {{"shape", extents({1})}, {"value", Number::floating(0.5)}, {"dtype", DType::Bool}}));
  EXPECT_EQ(intValues(b), (std::vector<int64_t>{1}));
}

TEST(InterpreterCreation, IotaCountsAlongDim) {
  Tensor out =
      runOp(OpKind::Iota, {}, DType::I64, {2, 3},
            makeAttrs({{"shape", extents({2, 3})}, {"dim", int64_t{1}}, {"dtype", DType::I64}}));
  EXPECT_EQ(intValues(out), (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  out = runOp(OpKind::Iota, {}, DType::F32, {2, 3},
              makeAttrs({{"shape", extents({2, 3})}, {"dim", int64_t{0}}, {"dtype", DType::F32}}));
  EXPECT_EQ(floatValues(out), (std::vector<double>{0, 0, 0, 1, 1, 1}));
}

TEST(InterpreterCreation, SymbolOnlyInAttributesComesFromGivenBindings) {
  FusionBuilder b;
  const Extent k = Extent::symbol("K");
  b.output(b.op(OpKind::Full, {}, DType::I64, std::vector<Extent>{k},
                makeAttrs({{"shape", std::vector<Extent>{k}},
                           {"value", Number::integer(1)},
                           {"dtype", DType::I64}})));
  auto outputs = run(b.fusion(), {}, {{"K", 3}});
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].shape(), (Shape{3}));
  std::string error = runError(b.fusion(), {});
  EXPECT_NE(error.find("K"), std::string::npos) << error;
}

TEST(InterpreterCreation, RandLikeMatchesTheRandom123Stream) {
  // Seed 0 and offset 0: block 0 is the first Random123 known answer.
  FusionBuilder b;
  Value *x = b.input("x", DType::F32, Shape{2, 3});
  Value *seed = b.scalar("seed", DType::I64);
  Value *offset = b.scalar("offset", DType::I64);
  b.output(b.op(OpKind::RandLike, {x, seed, offset}, DType::F32, Shape{2, 3}));
  auto outputs = run(b.fusion(), {{"x", Tensor(DType::F32, {2, 3})},
                                  {"seed", Tensor::scalar(DType::I64, 0)},
                                  {"offset", Tensor::scalar(DType::I64, 0)}});
  ASSERT_EQ(outputs.size(), 1u);
  const uint32_t words[4] = {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8};
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(outputs[0].getFloat(i), (words[i] >> 8) * 0x1p-24) << i;
  // Elements 4 and 5 come from block 1.
  const philox::Counter block1 = philox::philox4x32({1, 0, 0, 0}, {0, 0});
  EXPECT_EQ(outputs[0].getFloat(4), (block1[0] >> 8) * 0x1p-24);
  EXPECT_EQ(outputs[0].getFloat(5), (block1[1] >> 8) * 0x1p-24);
}

TEST(InterpreterCreation, RandLikeUsesSeedAndOffsetAndTheDTypesBits) {
  const int64_t seedValue = 0x0123456789abcdefll;
  const int64_t offsetValue = 0x0000000700000005ll;
  Tensor x(DType::F16, {5});
  Tensor out = runOp(OpKind::RandLike,
                     {x, Tensor::fromInts(DType::I64, {}, std::vector<int64_t>{seedValue}),
                      Tensor::fromInts(DType::I64, {}, std::vector<int64_t>{offsetValue})},
                     DType::F16, {5});
  EXPECT_EQ(out.dtype(), DType::F16);
  const philox::Counter block1 = philox::philox4x32({1, 0, 5, 7}, {0x89abcdef, 0x01234567});
  EXPECT_EQ(out.getFloat(4), (block1[0] >> 21) * 0x1p-11);
  for (size_t i = 0; i < out.numel(); ++i) {
    EXPECT_GE(out.getFloat(i), 0.0);
    EXPECT_LT(out.getFloat(i), 1.0);
  }
}

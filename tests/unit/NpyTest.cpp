// Unit tests for the .npy reader and writer of fuserc-interp (tools/Npy.h):
// the file format, the exchange dtype of each fusion dtype, and the errors a
// harness bug would cause.
#include "tools/Npy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace fuserc;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// The tensor after a trip through the bytes of a .npy file.
Tensor roundTrip(const Tensor &t) {
  std::string error;
  std::optional<NpyArray> array = decodeNpy(encodeNpy(tensorToNpy(t)), error);
  EXPECT_TRUE(array) << error;
  std::optional<Tensor> back = npyToTensor(*array, t.dtype(), error);
  EXPECT_TRUE(back) << error;
  return *back;
}

void expectSameValues(const Tensor &a, const Tensor &b) {
  ASSERT_EQ(a.dtype(), b.dtype());
  ASSERT_EQ(a.shape(), b.shape());
  for (size_t i = 0; i < a.numel(); ++i) {
    if (std::isnan(a.getFloat(i)))
      EXPECT_TRUE(std::isnan(b.getFloat(i))) << "element " << i;
    else
      EXPECT_EQ(a.getFloat(i), b.getFloat(i)) << "element " << i;
  }
}

// A version 1.0 file as NumPy writes it, with `header` padded to 128 bytes.
std::string numpyStyleFile(const std::string &header, const std::string &data) {
  std::string padded = header;
  padded.append(128 - 10 - header.size() - 1, ' ');
  padded += '\n';
  std::string bytes("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(padded.size() & 0xff);
  bytes += static_cast<char>(padded.size() >> 8);
  return bytes + padded + data;
}

std::string decodeError(const std::string &bytes) {
  std::string error;
  EXPECT_FALSE(decodeNpy(bytes, error));
  return error;
}

} // namespace

TEST(Npy, EachDtypeHasOneExchangeDescriptor) {
  EXPECT_EQ(npyDescr(DType::Bool), "|b1");
  EXPECT_EQ(npyDescr(DType::I32), "<i4");
  EXPECT_EQ(npyDescr(DType::I64), "<i8");
  EXPECT_EQ(npyDescr(DType::F16), "<f2");
  EXPECT_EQ(npyDescr(DType::BF16), "<f4");
  EXPECT_EQ(npyDescr(DType::F32), "<f4");
  EXPECT_EQ(npyDescr(DType::F64), "<f8");
}

TEST(Npy, FloatTensorsRoundTripExactlyIncludingSpecialValues) {
  const std::vector<double> values = {0.0, -0.0, 1.5, -2.25, kInf, -kInf, kNaN, 1e-7};
  for (DType dtype : {DType::F16, DType::BF16, DType::F32, DType::F64}) {
    SCOPED_TRACE(std::string(dtypeName(dtype)));
    expectSameValues(Tensor::fromFloats(dtype, {2, 4}, values),
                     roundTrip(Tensor::fromFloats(dtype, {2, 4}, values)));
  }
}

TEST(Npy, IntegerAndBoolTensorsRoundTripWithSigns) {
  const std::vector<int64_t> ints = {0, 1, -1, 2147483647, -2147483648LL, 7};
  expectSameValues(Tensor::fromInts(DType::I32, {6}, ints),
                   roundTrip(Tensor::fromInts(DType::I32, {6}, ints)));
  const std::vector<int64_t> wide = {std::numeric_limits<int64_t>::min(), -3, 1LL << 40};
  expectSameValues(Tensor::fromInts(DType::I64, {3}, wide),
                   roundTrip(Tensor::fromInts(DType::I64, {3}, wide)));
  const std::vector<int64_t> bools = {1, 0, 0, 1};
  expectSameValues(Tensor::fromInts(DType::Bool, {2, 2}, bools),
                   roundTrip(Tensor::fromInts(DType::Bool, {2, 2}, bools)));
}

TEST(Npy, F16TravelsAsIeeeHalfBits) {
  NpyArray array = tensorToNpy(Tensor::fromFloats(DType::F16, {2}, std::vector{1.0, -2.0}));
  EXPECT_EQ(array.descr, "<f2");
  EXPECT_EQ(array.data, (std::vector<uint8_t>{0x00, 0x3c, 0x00, 0xc0}));
}

TEST(Npy, BF16TravelsAsF32HoldingExactBF16Values) {
  NpyArray array = tensorToNpy(Tensor::fromFloats(DType::BF16, {1}, std::vector{1.0 / 3}));
  EXPECT_EQ(array.descr, "<f4");
  float v;
  std::memcpy(&v, array.data.data(), 4);
  EXPECT_EQ(v, roundToFloatType(1.0 / 3, DType::BF16));
}

TEST(Npy, F32ValueThatIsNotBF16IsRejectedForABF16Input) {
  NpyArray array = tensorToNpy(Tensor::fromFloats(DType::F32, {3}, std::vector{1.0, 0.1, 2.0}));
  std::string error;
  EXPECT_FALSE(npyToTensor(array, DType::BF16, error));
  EXPECT_NE(error.find("element 1"), std::string::npos) << error;
  EXPECT_NE(error.find("not a bf16 value"), std::string::npos) << error;
}

TEST(Npy, WrongDescriptorSaysWhatWasExpected) {
  NpyArray array = tensorToNpy(Tensor::fromFloats(DType::F64, {1}, std::vector{1.0}));
  std::string error;
  EXPECT_FALSE(npyToTensor(array, DType::F32, error));
  EXPECT_EQ(error, "expected dtype '<f4' for f32, found '<f8'");
}

TEST(Npy, WrittenHeaderIsVersion1AlignedTo64Bytes) {
  const std::string bytes = encodeNpy(tensorToNpy(Tensor(DType::F32, {2, 3})));
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const size_t headerLength = static_cast<uint8_t>(bytes[8]) | static_cast<uint8_t>(bytes[9]) << 8;
  EXPECT_EQ((10 + headerLength) % 64, 0u);
  const std::string header = bytes.substr(10, headerLength);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0), 0u)
      << header;
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ(bytes.size(), 10 + headerLength + 6 * 4);
}

TEST(Npy, ScalarsAreZeroDimensionalAndVectorsKeepTheTupleComma) {
  const std::string scalar = encodeNpy(tensorToNpy(Tensor::scalar(DType::F64, 2.5)));
  EXPECT_NE(scalar.find("'shape': ()"), std::string::npos);
  const std::string vector = encodeNpy(tensorToNpy(Tensor(DType::I64, {5})));
  EXPECT_NE(vector.find("'shape': (5,)"), std::string::npos);
  std::string error;
  std::optional<NpyArray> back = decodeNpy(scalar, error);
  ASSERT_TRUE(back) << error;
  EXPECT_TRUE(back->shape.empty());
  EXPECT_EQ(back->data.size(), 8u);
}

TEST(Npy, ReadsNumpyStyleHeadersWithExtraSpacing) {
  const std::string data("\x01\x00\x00\x00\xfe\xff\xff\xff", 8);
  std::string error;
  std::optional<NpyArray> array = decodeNpy(
      numpyStyleFile("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", data), error);
  ASSERT_TRUE(array) << error;
  std::optional<Tensor> t = npyToTensor(*array, DType::I32, error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->getInt(0), 1);
  EXPECT_EQ(t->getInt(1), -2);
}

TEST(Npy, ReadsVersion2Headers) {
  const std::string header = "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)}\n";
  std::string bytes("\x93NUMPY\x02\x00", 8);
  bytes += static_cast<char>(header.size());
  bytes += std::string(3, '\0');
  bytes += header + std::string("\x01\x00\x01", 3);
  std::string error;
  std::optional<NpyArray> array = decodeNpy(bytes, error);
  ASSERT_TRUE(array) << error;
  std::optional<Tensor> t = npyToTensor(*array, DType::Bool, error);
  ASSERT_TRUE(t) << error;
  EXPECT_EQ(t->getInt(2), 1);
}

TEST(Npy, RejectsFilesItCannotReadCorrectly) {
  EXPECT_NE(decodeError("PK\x03\x04 not numpy").find("magic"), std::string::npos);
  EXPECT_NE(decodeError(
                numpyStyleFile("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", "abcd"))
                .find("Fortran"),
            std::string::npos);
  EXPECT_NE(decodeError(
                numpyStyleFile("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", "abcd"))
                .find("big-endian"),
            std::string::npos);
  EXPECT_EQ(decodeError(numpyStyleFile(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", "abcd")),
            "the data is 4 bytes, but shape [2, 2] of '<f4' needs 16");
  EXPECT_NE(decodeError(numpyStyleFile("{'descr': [('a', '<f4')], 'fortran_order': False, "
                                       "'shape': (1,), }",
                                       "abcd"))
                .find("structured"),
            std::string::npos);
}

// The reference interpreter's CPU tensor and its dtype conversions,
// including software IEEE binary16 / bfloat16 rounding (the host has no
// native half types, and rounding once from double is the correct oracle).
#include "ir/interp/Tensor.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace fuserc {
namespace {

// A binary floating-point format narrower than f32, described by its
// explicit mantissa bits and normal exponent range.
struct HalfFormat {
  int mantissaBits;
  int minExponent; // of the smallest normal number
  int maxExponent; // of the largest finite number
};

constexpr HalfFormat kF16 = {10, -14, 15};
constexpr HalfFormat kBF16 = {7, -126, 127};

const HalfFormat &halfFormat(DType dtype) {
  if (dtype == DType::F16)
    return kF16;
  if (dtype == DType::BF16)
    return kBF16;
  throw std::invalid_argument("not a 16-bit floating-point dtype: " +
                              std::string(dtypeName(dtype)));
}

double maxFinite(const HalfFormat &f) {
  return std::ldexp(2.0 - std::ldexp(1.0, -f.mantissaBits), f.maxExponent);
}

// Rounds to the format in one step: scale so that the format's quantum at
// v's exponent (clamped to the subnormal quantum) becomes 1, round to the
// nearest integer with ties to even, and scale back. Scaling by a power of
// two is exact in double, so the only rounding is the nearbyint.
double roundToHalfFormat(double v, const HalfFormat &f) {
  if (std::isnan(v) || std::isinf(v) || v == 0)
    return v;
  const double magnitude = std::fabs(v);
  const int exponent = std::max(std::ilogb(magnitude), f.minExponent);
  const int quantumExponent = exponent - f.mantissaBits;
  double rounded =
      std::ldexp(std::nearbyint(std::ldexp(magnitude, -quantumExponent)), quantumExponent);
  if (rounded > maxFinite(f))
    rounded = std::numeric_limits<double>::infinity();
  return std::copysign(rounded, v);
}

} // namespace

double roundToFloatType(double v, DType dtype) {
  switch (dtype) {
  case DType::F64:
    return v;
  case DType::F32:
    // The hardware conversion rounds to nearest even, with subnormals and
    // overflow to infinity.
    return static_cast<double>(static_cast<float>(v));
  case DType::F16:
  case DType::BF16:
    return roundToHalfFormat(v, halfFormat(dtype));
  default:
    throw std::invalid_argument("roundToFloatType: not a floating-point dtype: " +
                                std::string(dtypeName(dtype)));
  }
}

int64_t wrapToIntType(int64_t v, DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return v != 0 ? 1 : 0;
  case DType::I32:
    return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v)));
  case DType::I64:
    return v;
  default:
    throw std::invalid_argument("wrapToIntType: not an integral dtype: " +
                                std::string(dtypeName(dtype)));
  }
}

int64_t floatToIntType(double v, DType dtype) {
  // Bool is a truth test, so NaN (which compares unequal to 0) is true, as in
  // C++, CUDA and PyTorch.
  if (dtype == DType::Bool)
    return v != 0 ? 1 : 0;
  if (std::isnan(v))
    return 0;
  const double t = std::trunc(v);
  if (dtype == DType::I32) {
    if (t >= 2147483647.0)
      return std::numeric_limits<int32_t>::max();
    if (t <= -2147483648.0)
      return std::numeric_limits<int32_t>::min();
    return static_cast<int64_t>(t);
  }
  if (dtype == DType::I64) {
    // 2^63 is exactly representable; every double below it converts.
    if (t >= 9223372036854775808.0)
      return std::numeric_limits<int64_t>::max();
    if (t <= -9223372036854775808.0)
      return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(t);
  }
  throw std::invalid_argument("floatToIntType: not an integral dtype: " +
                              std::string(dtypeName(dtype)));
}

double intToFloatType(int64_t v, DType dtype) {
  if (dtype == DType::F64)
    return static_cast<double>(v);
  if (dtype == DType::F32)
    return static_cast<double>(static_cast<float>(v));
  const uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  if (magnitude <= (uint64_t{1} << 53))
    return roundToFloatType(static_cast<double>(v), dtype);
  // Keep the top 53 bits and fold the rest into a sticky lowest bit (round
  // to odd): the result is exact in double, and rounding it to a format of
  // at most 51 bits then gives the correctly rounded value of v.
  const int shift = std::bit_width(magnitude) - 53;
  uint64_t top = magnitude >> shift;
  if (magnitude & ((uint64_t{1} << shift) - 1))
    top |= 1;
  const double approx = std::ldexp(static_cast<double>(top), shift);
  return roundToFloatType(v < 0 ? -approx : approx, dtype);
}

uint16_t toHalfBits(double v, DType dtype) {
  const HalfFormat &f = halfFormat(dtype);
  const int exponentBits = dtype == DType::F16 ? 5 : 8;
  const int bias = f.maxExponent;
  const uint16_t signBit = std::signbit(v) ? uint16_t(0x8000) : uint16_t(0);
  const uint16_t allOnesExponent = uint16_t(((1u << exponentBits) - 1) << f.mantissaBits);
  if (std::isnan(v)) // the canonical quiet NaN
    return signBit | allOnesExponent | uint16_t(1u << (f.mantissaBits - 1));
  const double r = std::fabs(roundToHalfFormat(v, f));
  if (std::isinf(r))
    return signBit | allOnesExponent;
  if (r == 0)
    return signBit;
  const int e = std::ilogb(r);
  if (e < f.minExponent) { // subnormal: the mantissa counts subnormal quanta
    const auto mantissa = static_cast<uint16_t>(std::ldexp(r, f.mantissaBits - f.minExponent));
    return signBit | mantissa;
  }
  const auto mantissa =
      static_cast<uint16_t>(std::ldexp(r, f.mantissaBits - e) - std::ldexp(1.0, f.mantissaBits));
  const auto exponentField = static_cast<uint16_t>((e + bias) << f.mantissaBits);
  return signBit | exponentField | mantissa;
}

double fromHalfBits(uint16_t bits, DType dtype) {
  const HalfFormat &f = halfFormat(dtype);
  const int exponentBits = dtype == DType::F16 ? 5 : 8;
  const int bias = f.maxExponent;
  const bool negative = (bits & 0x8000) != 0;
  const unsigned mantissa = bits & ((1u << f.mantissaBits) - 1);
  const unsigned exponentField = (bits >> f.mantissaBits) & ((1u << exponentBits) - 1);
  double magnitude;
  if (exponentField == (1u << exponentBits) - 1)
    magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN()
                         : std::numeric_limits<double>::infinity();
  else if (exponentField == 0)
    magnitude = std::ldexp(static_cast<double>(mantissa), f.minExponent - f.mantissaBits);
  else
    magnitude = std::ldexp(static_cast<double>(mantissa + (1u << f.mantissaBits)),
                           static_cast<int>(exponentField) - bias - f.mantissaBits);
  return negative ? -magnitude : magnitude;
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

Tensor::Tensor(DType dtype, std::vector<int64_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
  numel_ = 1;
  for (int64_t extent : shape_) {
    if (extent < 0)
      throw std::invalid_argument("Tensor: negative extent " + std::to_string(extent));
    numel_ *= static_cast<size_t>(extent);
  }
  if (fuserc::isFloating(dtype_))
    floats_.assign(numel_, 0.0);
  else
    ints_.assign(numel_, 0);
}

Tensor Tensor::scalar(DType dtype, double value) {
  Tensor t(dtype, {});
  t.setFloat(0, value);
  return t;
}

namespace {
// Fills `t` element by element through `set`, which converts to its dtype.
template <class T, class Set>
Tensor filled(Tensor t, std::span<const T> values, const char *what, Set set) {
  if (values.size() != t.numel())
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(values.size()) +
                                " values for " + std::to_string(t.numel()) + " elements");
  for (size_t i = 0; i < values.size(); ++i)
    (t.*set)(i, values[i]);
  return t;
}
} // namespace

Tensor Tensor::fromFloats(DType dtype, std::vector<int64_t> shape, std::span<const double> values) {
  return filled(Tensor(dtype, std::move(shape)), values, "Tensor::fromFloats", &Tensor::setFloat);
}

Tensor Tensor::fromInts(DType dtype, std::vector<int64_t> shape, std::span<const int64_t> values) {
  return filled(Tensor(dtype, std::move(shape)), values, "Tensor::fromInts", &Tensor::setInt);
}

double Tensor::getFloat(size_t i) const {
  if (isFloating())
    return floats_.at(i);
  return static_cast<double>(ints_.at(i));
}

int64_t Tensor::getInt(size_t i) const {
  if (isFloating())
    return floatToIntType(floats_.at(i), DType::I64);
  return ints_.at(i);
}

void Tensor::setFloat(size_t i, double v) {
  if (isFloating())
    floats_.at(i) = roundToFloatType(v, dtype_);
  else
    ints_.at(i) = floatToIntType(v, dtype_);
}

void Tensor::setInt(size_t i, int64_t v) {
  if (isFloating())
    floats_.at(i) = intToFloatType(v, dtype_);
  else
    ints_.at(i) = wrapToIntType(v, dtype_);
}

std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= shape[d];
  }
  return strides;
}

std::vector<int64_t> Tensor::strides() const { return rowMajorStrides(shape_); }

std::string Tensor::str() const {
  constexpr size_t kMaxShown = 256;
  std::string s(dtypeName(dtype_));
  s += "[";
  for (size_t d = 0; d < shape_.size(); ++d)
    s += (d ? ", " : "") + std::to_string(shape_[d]);
  s += "] {";
  for (size_t i = 0; i < numel_ && i < kMaxShown; ++i) {
    if (i)
      s += ", ";
    if (isFloating()) {
      char buf[32];
      std::snprintf(buf, sizeof buf, dtype_ == DType::F64 ? "%.17g" : "%.9g", floats_[i]);
      s += buf;
    } else {
      s += std::to_string(ints_[i]);
    }
  }
  if (numel_ > kMaxShown)
    s += ", ...";
  return s + "}";
}

} // namespace fuserc

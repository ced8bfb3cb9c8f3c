// A dense, row-major CPU tensor: the values the reference interpreter reads
// and writes.
//
// Floating-point dtypes keep their elements as double, already rounded to
// the dtype (f16/bf16/f32 values are exactly representable); bool and
// integer dtypes keep int64_t, already wrapped to the dtype's width.
#pragma once

#include "ir/DType.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace fuserc {

class Tensor {
public:
  Tensor() = default;
  // Zero-filled.
  Tensor(DType dtype, std::vector<int64_t> shape);
  static Tensor scalar(DType dtype, double value);
  static Tensor fromFloats(DType dtype, std::vector<int64_t> shape, std::span<const double> values);
  static Tensor fromInts(DType dtype, std::vector<int64_t> shape, std::span<const int64_t> values);

  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  size_t rank() const { return shape_.size(); }
  size_t numel() const { return numel_; }
  bool isFloating() const { return fuserc::isFloating(dtype_); }

  // Element i (row-major), converted: getFloat of an integer tensor gives the
  // integer as double; getInt of a float tensor truncates toward zero
  // (saturating, NaN gives 0).
  double getFloat(size_t i) const;
  int64_t getInt(size_t i) const;
  // Stores `v` converted to the dtype (rounded to nearest even for floats,
  // truncated and wrapped for integers, v != 0 for bool).
  void setFloat(size_t i, double v);
  void setInt(size_t i, int64_t v);

  // Row-major strides in elements.
  std::vector<int64_t> strides() const;
  std::string str() const; // for test failure messages

private:
  DType dtype_ = DType::F32;
  std::vector<int64_t> shape_;
  size_t numel_ = 1;
  std::vector<double> floats_;
  std::vector<int64_t> ints_;
};

// Strides in elements of a dense row-major tensor of `shape`.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape);

// Rounds a double to the nearest value of a floating dtype (ties to even);
// f64 is returned unchanged.
double roundToFloatType(double v, DType dtype);
// Converts an integer to the dtype's width (two's complement wrap; bool: v != 0).
int64_t wrapToIntType(int64_t v, DType dtype);
// Float to integer dtype: truncation toward zero, saturating, NaN gives 0.
int64_t floatToIntType(double v, DType dtype);
// An integer to the nearest value of a floating dtype, rounded once (an
// int64_t beyond 2^53 would otherwise round twice through double).
double intToFloatType(int64_t v, DType dtype);

// IEEE binary16 and bfloat16 bit patterns (dtype F16 or BF16), for moving
// data to and from device buffers. toHalfBits rounds to nearest even.
uint16_t toHalfBits(double v, DType dtype);
double fromHalfBits(uint16_t bits, DType dtype);

} // namespace fuserc

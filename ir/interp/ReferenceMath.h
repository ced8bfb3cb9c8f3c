// Scalar and reduction helpers of the reference interpreter. The `cpu` and
// `cpuInt` expressions of ops.td call these (as ref::name); the generated
// evaluation functions in OpTables.inc are compiled against this header.
//
// Floating-point helpers take and return double; integer helpers work on
// int64_t with two's-complement wrap-around (computed on uint64_t, so that
// overflow is defined), since the interpreter wraps results to the dtype's
// width afterwards.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace fuserc::ref {

// Integer arithmetic --------------------------------------------------------

inline int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
inline int64_t wrapNeg(int64_t a) { return wrapSub(0, a); }
inline int64_t wrapAbs(int64_t a) { return a < 0 ? wrapNeg(a) : a; }

// Integer power by squaring, wrapping on overflow. A negative exponent gives
// 0 (the truncated reciprocal) except for bases 1 and -1, as in PyTorch.
inline int64_t ipow(int64_t base, int64_t exponent) {
  if (exponent < 0) {
    if (base == 1)
      return 1;
    if (base == -1)
      return (exponent % 2 == 0) ? 1 : -1;
    return 0;
  }
  int64_t result = 1;
  while (exponent > 0) {
    if (exponent & 1)
      result = wrapMul(result, base);
    base = wrapMul(base, base);
    exponent >>= 1;
  }
  return result;
}

// C-style remainder (sign of the dividend). Division by zero gives 0 rather
// than trapping, and INT64_MIN % -1 (which overflows in C++) gives 0.
inline int64_t ifmod(int64_t a, int64_t b) {
  if (b == 0 || b == -1)
    return 0;
  return a % b;
}

// Python-style remainder (sign of the divisor); division by zero gives 0.
inline int64_t iremainder(int64_t a, int64_t b) {
  int64_t r = ifmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

// Floating-point functions ---------------------------------------------------

inline double relu(double a) {
  if (std::isnan(a))
    return a;
  return a > 0 ? a : 0.0;
}

inline double sign(double a) {
  if (std::isnan(a))
    return a;
  return static_cast<double>((a > 0) - (a < 0));
}

// x * Phi(x) through erfc, and 0.5 x (1 + tanh u) as x / (1 + exp(-2u)):
// the same values, without 1 + erf / 1 + tanh cancelling in the tail.
inline double gelu(double a, const std::string &approximate) {
  if (approximate == "tanh") {
    const double k = std::sqrt(2.0 / std::numbers::pi);
    return a / (1.0 + std::exp(-2.0 * k * (a + 0.044715 * a * a * a)));
  }
  return 0.5 * a * std::erfc(-a / std::numbers::sqrt2);
}

// Unlike std::max / fmax, a NaN operand gives NaN (torch.maximum); -0
// orders below +0 (IEEE 754-2019), so the operands' order never matters.
inline double maximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
inline double minimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

// Python's %: the result has the sign of b (or is zero).
inline double remainder(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

// Reductions -------------------------------------------------------------------
// Floating reductions accumulate in double; integer ones in int64_t with
// wrap-around.

// The sum of doubles with the rounding errors of the additions added back
// (Neumaier): a reference within an ulp or two of the exact sum, where a
// plain loop over 2^20 f64 terms is 10^-11 off, more than a kernel's tree.
// Infinities and overflows as in a plain loop.
template <typename Range> double compensatedSum(const Range &values) {
  double plain = 0, sum = 0, lost = 0;
  for (const auto value : values) {
    const double v = static_cast<double>(value);
    plain += v;
    const double t = sum + v;
    lost += std::fabs(sum) >= std::fabs(v) ? (sum - t) + v : (v - t) + sum;
    sum = t;
  }
  return std::isfinite(plain) && std::isfinite(lost) ? sum + lost : plain;
}

template <typename T> T reduceSum(std::span<const T> values) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(compensatedSum(values));
  } else {
    T acc = 0;
    for (T v : values)
      acc = wrapAdd(acc, v);
    return acc;
  }
}

template <typename T> T reduceProd(std::span<const T> values) {
  T acc = 1;
  for (T v : values) {
    if constexpr (std::is_floating_point_v<T>)
      acc *= v;
    else
      acc = wrapMul(acc, v);
  }
  return acc;
}

namespace detail {
// The maximum (or minimum) has no identity worth inventing: an empty set is
// an error, as in torch.amax.
template <bool WantMax, typename T> T reduceExtreme(std::span<const T> values) {
  if (values.empty())
    throw std::domain_error(std::string(WantMax ? "max" : "min") + " of an empty set of values");
  T acc = values.front();
  for (T v : values) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v))
        return v;
    }
    if constexpr (std::is_floating_point_v<T>)
      acc = WantMax ? maximum(acc, v) : minimum(acc, v);
    else if (WantMax ? v > acc : v < acc)
      acc = v;
  }
  return acc;
}
} // namespace detail

template <typename T> T reduceMax(std::span<const T> values) {
  return detail::reduceExtreme<true>(values);
}
template <typename T> T reduceMin(std::span<const T> values) {
  return detail::reduceExtreme<false>(values);
}

// The sum or product of `values` as a kernel may compute it: pairwise, each
// partial rounded to float when `narrow` (an f32 accumulator).
inline double reducePairwise(std::span<const double> values, bool product, bool narrow) {
  auto round = [&](double v) { return narrow ? static_cast<double>(static_cast<float>(v)) : v; };
  if (values.empty())
    return product ? 1.0 : 0.0;
  if (values.size() == 1)
    return round(values[0]);
  const size_t half = values.size() / 2;
  const double a = reducePairwise(values.first(half), product, narrow);
  const double b = reducePairwise(values.subspan(half), product, narrow);
  return round(product ? a * b : a + b);
}

// Two-pass variance (mean first, then squared deviations) for accuracy.
// Divides by max(n - correction, 0), so too few values give NaN or inf as
// in PyTorch.
template <typename T> double reduceVar(std::span<const T> values, int64_t correction) {
  const double n = static_cast<double>(values.size());
  const double mean = compensatedSum(values) / n;
  std::vector<double> squares(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const double d = static_cast<double>(values[i]) - mean;
    squares[i] = d * d;
  }
  const double divisor = std::max(n - static_cast<double>(correction), 0.0);
  return compensatedSum(squares) / divisor;
}

} // namespace fuserc::ref

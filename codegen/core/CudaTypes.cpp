// CUDA types and conversions (see CudaTypes.h).
#include "codegen/core/CudaTypes.h"

#include "ir/interp/Tensor.h"

#include <cmath>
#include <cstdio>
#include <optional>

namespace fuserc {

std::string cudaStorageType(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return "bool";
  case DType::I32:
    return "int";
  case DType::I64:
    return "long long";
  case DType::F16:
    return "__half";
  case DType::BF16:
    return "__nv_bfloat16";
  case DType::F32:
    return "float";
  case DType::F64:
    return "double";
  }
  return "void";
}

std::string cudaComputeType(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 ? "float" : cudaStorageType(dtype);
}

std::string cudaConvert(const std::string &expr, DType from, DType to) {
  if (from == to && to != DType::F16 && to != DType::BF16)
    return expr;
  switch (to) {
  case DType::Bool:
    return "((" + expr + ") != 0)";
  case DType::F16:
  case DType::BF16: {
    // f64 and integer values round once, from double: through f32 they
    // would round twice (exact for i32; i64 above 2^53 still rounds twice).
    const bool wide = from == DType::F64 || from == DType::I64 || from == DType::I32;
    return std::string(to == DType::F16 ? "fuserc_round_f16" : "fuserc_round_bf16") +
           (wide ? "((double)(" : "((float)(") + expr + "))";
  }
  case DType::I32:
  case DType::I64:
    if (isFloating(from))
      return std::string(to == DType::I32 ? "fuserc_to_i32(" : "fuserc_to_i64(") + expr + ")";
    return "((" + cudaComputeType(to) + ")(" + expr + "))";
  default:
    return "((" + cudaComputeType(to) + ")(" + expr + "))";
  }
}

namespace {

// `inner` when `expr` is exactly `prefix + inner + "))"` with `inner`
// balanced, else nothing.
std::optional<std::string> unwrapped(const std::string &expr, const std::string &prefix) {
  if (expr.size() < prefix.size() + 2 || expr.compare(0, prefix.size(), prefix) != 0 ||
      expr.compare(expr.size() - 2, 2, "))") != 0)
    return std::nullopt;
  const std::string inner = expr.substr(prefix.size(), expr.size() - prefix.size() - 2);
  int depth = 0;
  for (char c : inner) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (depth < 0)
      return std::nullopt;
  }
  if (depth != 0)
    return std::nullopt;
  return inner;
}

} // namespace

std::string cudaToStorage(const std::string &expr, DType dtype) {
  // The store rounds to nearest as the conversion to f16 / bf16 before it
  // did (cudaConvert): rounding once gives the same bits.
  switch (dtype) {
  case DType::F16:
    return "__float2half_rn(" + unwrapped(expr, "fuserc_round_f16((float)(").value_or(expr) + ")";
  case DType::BF16:
    return "__float2bfloat16_rn(" + unwrapped(expr, "fuserc_round_bf16((float)(").value_or(expr) +
           ")";
  default:
    return expr;
  }
}

std::string cudaLiteral(const Number &value, DType dtype) {
  if (!isFloating(dtype)) {
    if (dtype == DType::Bool)
      return (value.asDouble() != 0) ? "true" : "false";
    // A float value converts as the reference interpreter converts it
    // (truncated, saturating, NaN to 0); a plain cast of one out of range,
    // such as full(value=1e30, dtype=i32), is undefined behaviour.
    int64_t v = value.isInteger ? value.intValue : floatToIntType(value.floatValue, dtype);
    if (v == INT64_MIN)
      return "((long long)(-9223372036854775807LL - 1))";
    return "((" + cudaComputeType(dtype) + ")" + std::to_string(v) + "LL)";
  }
  double v = value.asDouble();
  const bool single = dtype != DType::F64;
  // A finite double past f32's range is an infinity in f32 (printed as a
  // number it would read "inff"). Inference refuses such pad and full
  // values; this keeps any other path to here compilable.
  if (single && std::isinf(static_cast<float>(v)))
    v = static_cast<double>(static_cast<float>(v));
  if (std::isnan(v))
    return single ? "__int_as_float(0x7fc00000)" : "__longlong_as_double(0x7ff8000000000000LL)";
  if (std::isinf(v))
    return std::string(v < 0 ? "-" : "") +
           (single ? "__int_as_float(0x7f800000)" : "__longlong_as_double(0x7ff0000000000000LL)");
  char buffer[64];
  if (single)
    std::snprintf(buffer, sizeof buffer, "%.9gf", static_cast<double>(static_cast<float>(v)));
  else
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
  std::string text = buffer;
  // "1f" is not a float literal; "1.f" is.
  if (text.find_first_of(".eEn") == std::string::npos)
    text.insert(single ? text.size() - 1 : text.size(), ".");
  std::string result = "(" + text + ")";
  if (dtype == DType::F16 || dtype == DType::BF16)
    return cudaConvert(result, DType::F32, dtype);
  return result;
}

} // namespace fuserc

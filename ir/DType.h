// Element types of the fusion language and PyTorch's promotion lattice.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace fuserc {

enum class DType : uint8_t { Bool, I32, I64, F16, BF16, F32, F64 };

inline constexpr DType kAllDTypes[] = {DType::Bool, DType::I32, DType::I64, DType::F16,
                                       DType::BF16, DType::F32, DType::F64};

std::string_view dtypeName(DType t);
std::optional<DType> parseDType(std::string_view name);

inline bool isFloating(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32 || t == DType::F64;
}
inline bool isInteger(DType t) { return t == DType::I32 || t == DType::I64; }
// Bool or integer: the types integer (cpuInt / cudaInt) expressions compute on.
inline bool isIntegral(DType t) { return t == DType::Bool || isInteger(t); }

int dtypeBytes(DType t);

// The largest finite value of a floating-point dtype.
double largestFinite(DType floating);
// True when the finite `v` becomes an infinity when stored in the
// floating-point dtype (rounded to nearest even, through f32 for f16 and
// bf16 as the generated code rounds it): 1e300 in f32, 1e5 in f16.
bool overflowsFloatType(double v, DType floating);

// torch.promote_types: the smallest type both convert to without losing the
// category (bool < integer < floating); f16 with bf16 gives f32.
DType promoteTypes(DType a, DType b);

// The default floating-point dtype (torch.get_default_dtype()).
inline constexpr DType kDefaultFloat = DType::F32;

} // namespace fuserc

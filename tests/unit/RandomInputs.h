// Random interpreter inputs for property tests, and the tolerance a
// decomposed composite op is held to against its double-precision
// definition (shared by the canonicalize and pass-equivalence tests).
#pragma once

#include "ir/Fusion.h"
#include "ir/interp/Tensor.h"

#include <map>
#include <random>
#include <string>

namespace fuserc::test {

// Every symbol bound to `extent`: floats in [-2, 2], integers (indices,
// labels) in [0, extent) so they index any dim in range, bools 0 or 1.
// The extents of `usual` at which every exact division of the fusion's
// extents (`C / 32`) is whole with every symbol bound to it; where none is,
// the smallest such extent up to 64.
inline std::vector<int64_t> fittingExtents(const Fusion &fusion, std::vector<int64_t> usual) {
  const auto divisions = exactDivisions(fusion);
  auto fits = [&](int64_t extent) {
    SymbolBindings bindings;
    for (const auto &[a, b] : divisions)
      for (const Extent *e : {&a, &b})
        for (const std::string &s : e->symbols())
          bindings[s] = extent;
    for (const auto &[a, b] : divisions) {
      const std::optional<int64_t> x = a.evaluate(bindings), y = b.evaluate(bindings);
      if (!x || !y || *y <= 0 || *x % *y != 0)
        return false;
    }
    return true;
  };
  std::vector<int64_t> out;
  for (int64_t e : usual)
    if (fits(e))
      out.push_back(e);
  for (int64_t e = 2; out.empty() && e <= 64; ++e)
    if (fits(e))
      out.push_back(e);
  return out;
}

// One tensor per input of `fusion` with every symbol bound to `extent`,
// made by `make(input, shape, numel)`.
template <typename Make>
std::map<std::string, Tensor> inputsAt(const Fusion &fusion, int64_t extent, Make make) {
  SymbolBindings bindings;
  for (const std::string &s : fusion.symbols())
    bindings[s] = extent;
  std::map<std::string, Tensor> inputs;
  for (const Value *in : fusion.inputs()) {
    std::vector<int64_t> shape;
    for (const Extent &e : in->shape())
      shape.push_back(*e.evaluate(bindings));
    size_t numel = 1;
    for (int64_t d : shape)
      numel *= static_cast<size_t>(d);
    inputs.emplace(in->name(), make(*in, shape, numel));
  }
  return inputs;
}

inline std::map<std::string, Tensor> randomInputs(const Fusion &fusion, int64_t extent,
                                                  std::mt19937_64 &rng) {
  return inputsAt(
      fusion, extent, [&](const Value &in, const std::vector<int64_t> &shape, size_t numel) {
        if (isFloating(in.dtype())) {
          std::uniform_real_distribution<double> dist(-2.0, 2.0);
          std::vector<double> values(numel);
          for (double &v : values)
            v = dist(rng);
          return Tensor::fromFloats(in.dtype(), shape, values);
        }
        std::uniform_int_distribution<int64_t> dist(0, in.dtype() == DType::Bool ? 1 : extent - 1);
        std::vector<int64_t> values(numel);
        for (int64_t &v : values)
          v = dist(rng);
        return Tensor::fromInts(in.dtype(), shape, values);
      });
}

// The relative tolerance of a decomposed composite's outputs: a few
// roundings of f32 (or of the output dtype, when it is coarser).
inline double decompositionTolerance(DType dtype) {
  switch (dtype) {
  case DType::F64:
    return 1e-12;
  case DType::F16:
    return 2e-3;
  case DType::BF16:
    return 1.6e-2;
  default:
    return 1e-5;
  }
}

} // namespace fuserc::test

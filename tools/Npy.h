// NumPy `.npy` files: the exchange format between fuserc-interp (the CPU
// reference interpreter on the command line) and the GPU test harness.
//
// Written files are format 1.0, little-endian, C order. Read files may be
// format 1.0, 2.0 or 3.0, little-endian (or one-byte) and C order. Each
// fusion dtype has one descriptor it is exchanged as (npyDescr): bf16 as
// '<f4', which holds every bf16 value exactly; f16 as '<f2'; bool as '|b1'.
#pragma once

#include "ir/interp/Tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fuserc {

// An array as stored: its descriptor, its shape (empty for a 0-d array, which
// is how scalars travel) and its raw little-endian, C-order bytes.
struct NpyArray {
  std::string descr; // e.g. "<f4", "|b1"
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
};

// The bytes of a format 1.0 file holding `array`.
std::string encodeNpy(const NpyArray &array);
// Parses the bytes of a file; nullopt and `error` set when they are not a
// readable .npy file (bad magic, header, byte order, Fortran order, size).
std::optional<NpyArray> decodeNpy(std::string_view bytes, std::string &error);

std::optional<NpyArray> readNpyFile(const std::string &path, std::string &error);
bool writeNpyFile(const std::string &path, const NpyArray &array, std::string &error);

// The descriptor a tensor of `dtype` is exchanged as.
std::string_view npyDescr(DType dtype);
NpyArray tensorToNpy(const Tensor &tensor);
// A tensor of `dtype` from an array with descriptor npyDescr(dtype); a bf16
// tensor's '<f4' values must be exact bf16 values (or NaN). Otherwise
// nullopt, with `error` saying what was expected and what was found.
std::optional<Tensor> npyToTensor(const NpyArray &array, DType dtype, std::string &error);

} // namespace fuserc

// Reading and writing `.npy` files, and converting them to and from the
// reference interpreter's tensors (see Npy.h).
#include "tools/Npy.h"

#include <bit>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

namespace fuserc {
namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);
constexpr size_t kHeaderAlignment = 64;

// Little-endian loads and stores of 1, 2, 4 or 8 bytes, independent of the
// host's byte order.
uint64_t loadLittleEndian(const uint8_t *p, size_t bytes) {
  uint64_t v = 0;
  for (size_t i = bytes; i-- > 0;)
    v = (v << 8) | p[i];
  return v;
}

void storeLittleEndian(uint8_t *p, uint64_t v, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i, v >>= 8)
    p[i] = static_cast<uint8_t>(v & 0xff);
}

// A simple type descriptor such as "<f4": byte order, kind, item size.
struct Descr {
  char byteOrder = '<';
  char kind = 'f';
  size_t itemSize = 4;
};

std::optional<Descr> parseDescr(std::string_view s, std::string &error) {
  Descr d;
  if (s.size() < 3 || std::string_view("<>|=").find(s[0]) == std::string_view::npos ||
      !std::isalpha(static_cast<unsigned char>(s[1]))) {
    error = "unsupported dtype descriptor '" + std::string(s) + "'";
    return std::nullopt;
  }
  d.byteOrder = s[0];
  d.kind = s[1];
  d.itemSize = 0;
  for (char c : s.substr(2)) {
    if (!std::isdigit(static_cast<unsigned char>(c)) || d.itemSize > 1024) {
      error = "unsupported dtype descriptor '" + std::string(s) + "'";
      return std::nullopt;
    }
    d.itemSize = d.itemSize * 10 + static_cast<size_t>(c - '0');
  }
  if (d.itemSize == 0) {
    error = "unsupported dtype descriptor '" + std::string(s) + "'";
    return std::nullopt;
  }
  if (d.byteOrder == '>' && d.itemSize > 1) {
    error = "big-endian data ('" + std::string(s) + "') is not supported; save little-endian";
    return std::nullopt;
  }
  return d;
}

// The header: a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  bool parse(NpyArray &array, std::string &error) {
    bool sawDescr = false, sawOrder = false, sawShape = false, fortranOrder = false;
    if (!consume('{'))
      return fail("the header is not a dictionary", error);
    while (!consume('}')) {
      std::optional<std::string> key = parseString();
      if (!key || !consume(':'))
        return fail("malformed header dictionary", error);
      if (*key == "descr") {
        std::optional<std::string> descr = parseString();
        if (!descr)
          return fail("'descr' is not a simple type string (structured arrays are not "
                      "supported)",
                      error);
        array.descr = *descr;
        sawDescr = true;
      } else if (*key == "fortran_order") {
        std::optional<bool> order = parseBool();
        if (!order)
          return fail("'fortran_order' is not True or False", error);
        fortranOrder = *order;
        sawOrder = true;
      } else if (*key == "shape") {
        std::optional<std::vector<int64_t>> shape = parseShape();
        if (!shape)
          return fail("'shape' is not a tuple of non-negative integers", error);
        array.shape = std::move(*shape);
        sawShape = true;
      } else {
        return fail("unknown header key '" + *key + "'", error);
      }
      if (!consume(',') && !peek('}'))
        return fail("malformed header dictionary", error);
    }
    if (!sawDescr || !sawOrder || !sawShape)
      return fail("the header lacks one of 'descr', 'fortran_order', 'shape'", error);
    if (fortranOrder)
      return fail("Fortran-order arrays are not supported; save in C order", error);
    return true;
  }

private:
  static bool fail(const std::string &message, std::string &error) {
    error = message;
    return false;
  }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool peek(char c) {
    skipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool consume(char c) {
    if (!peek(c))
      return false;
    ++pos_;
    return true;
  }
  bool consumeWord(std::string_view word) {
    skipSpace();
    if (text_.substr(pos_, word.size()) != word)
      return false;
    pos_ += word.size();
    return true;
  }
  std::optional<std::string> parseString() {
    skipSpace();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
      return std::nullopt;
    const char quote = text_[pos_++];
    const size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos)
      return std::nullopt;
    std::string s(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return s;
  }
  std::optional<bool> parseBool() {
    if (consumeWord("True"))
      return true;
    if (consumeWord("False"))
      return false;
    return std::nullopt;
  }
  std::optional<int64_t> parseExtent() {
    skipSpace();
    int64_t v = 0;
    const size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const int64_t digit = text_[pos_++] - '0';
      if (v > (std::numeric_limits<int64_t>::max() - digit) / 10)
        return std::nullopt;
      v = v * 10 + digit;
    }
    if (pos_ == start)
      return std::nullopt;
    consumeWord("L"); // Python 2 long suffix, in files written long ago
    return v;
  }
  std::optional<std::vector<int64_t>> parseShape() {
    std::vector<int64_t> shape;
    if (!consume('('))
      return std::nullopt;
    while (!consume(')')) {
      std::optional<int64_t> extent = parseExtent();
      if (!extent)
        return std::nullopt;
      shape.push_back(*extent);
      if (!consume(',') && !peek(')'))
        return std::nullopt;
    }
    return shape;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

std::string extentsString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// numel * itemSize, or nullopt when it overflows size_t.
std::optional<size_t> byteCount(const std::vector<int64_t> &shape, size_t itemSize) {
  size_t bytes = itemSize;
  for (int64_t extent : shape) {
    const auto e = static_cast<size_t>(extent);
    if (e != 0 && bytes > std::numeric_limits<size_t>::max() / e)
      return std::nullopt;
    bytes *= e;
  }
  return bytes;
}

size_t itemSizeOf(DType dtype) {
  return dtype == DType::BF16 ? 4 : static_cast<size_t>(dtypeBytes(dtype));
}

// Element i of a tensor, as the bits of its exchange type.
uint64_t exchangeBits(const Tensor &t, size_t i) {
  switch (t.dtype()) {
  case DType::Bool:
  case DType::I32:
  case DType::I64:
    return static_cast<uint64_t>(t.getInt(i));
  case DType::F16:
    return toHalfBits(t.getFloat(i), DType::F16);
  case DType::BF16:
  case DType::F32:
    return std::bit_cast<uint32_t>(static_cast<float>(t.getFloat(i)));
  case DType::F64:
    return std::bit_cast<uint64_t>(t.getFloat(i));
  }
  return 0;
}

// Sign-extends the low `bytes` bytes of v.
int64_t signExtend(uint64_t v, size_t bytes) {
  const unsigned shift = static_cast<unsigned>(64 - 8 * bytes);
  return static_cast<int64_t>(v << shift) >> shift;
}

} // namespace

std::string encodeNpy(const NpyArray &array) {
  std::string shape = "(";
  for (int64_t extent : array.shape)
    shape += std::to_string(extent) + (array.shape.size() == 1 ? "," : ", ");
  if (array.shape.size() > 1)
    shape.resize(shape.size() - 2);
  shape += ")";
  std::string header =
      "{'descr': '" + array.descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic, version, 2-byte length, header, padding, newline: a multiple of 64.
  const size_t unpadded = kMagic.size() + 2 + 2 + header.size() + 1;
  header.append((kHeaderAlignment - unpadded % kHeaderAlignment) % kHeaderAlignment, ' ');
  header += '\n';

  std::string bytes(kMagic);
  bytes += '\x01';
  bytes += '\x00';
  uint8_t length[2];
  storeLittleEndian(length, header.size(), 2);
  bytes.append(reinterpret_cast<const char *>(length), 2);
  bytes += header;
  bytes.append(reinterpret_cast<const char *>(array.data.data()), array.data.size());
  return bytes;
}

std::optional<NpyArray> decodeNpy(std::string_view bytes, std::string &error) {
  if (bytes.substr(0, kMagic.size()) != kMagic || bytes.size() < kMagic.size() + 4) {
    error = "not a .npy file (no \\x93NUMPY magic)";
    return std::nullopt;
  }
  const auto *raw = reinterpret_cast<const uint8_t *>(bytes.data());
  const unsigned major = raw[6];
  size_t headerStart = 10, headerLength = 0;
  if (major == 1) {
    headerLength = loadLittleEndian(raw + 8, 2);
  } else if (major == 2 || major == 3) {
    headerStart = 12;
    if (bytes.size() < headerStart) {
      error = "truncated .npy header";
      return std::nullopt;
    }
    headerLength = loadLittleEndian(raw + 8, 4);
  } else {
    error = "unsupported .npy format version " + std::to_string(major) + "." +
            std::to_string(raw[7]) + " (1.0, 2.0 and 3.0 are read)";
    return std::nullopt;
  }
  if (bytes.size() < headerStart + headerLength) {
    error = "truncated .npy header";
    return std::nullopt;
  }
  NpyArray array;
  if (!HeaderParser(bytes.substr(headerStart, headerLength)).parse(array, error))
    return std::nullopt;
  std::optional<Descr> descr = parseDescr(array.descr, error);
  if (!descr)
    return std::nullopt;
  const std::string_view data = bytes.substr(headerStart + headerLength);
  std::optional<size_t> expected = byteCount(array.shape, descr->itemSize);
  if (!expected || *expected != data.size()) {
    error = "the data is " + std::to_string(data.size()) + " bytes, but shape " +
            extentsString(array.shape) + " of '" + array.descr + "' needs " +
            (expected ? std::to_string(*expected) : std::string("more than can be addressed"));
    return std::nullopt;
  }
  array.data.assign(data.begin(), data.end());
  return array;
}

std::optional<NpyArray> readNpyFile(const std::string &path, std::string &error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read '" + path + "': " + std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  std::string decodeError;
  std::optional<NpyArray> array = decodeNpy(contents.str(), decodeError);
  if (!array)
    error = "'" + path + "': " + decodeError;
  return array;
}

bool writeNpyFile(const std::string &path, const NpyArray &array, std::string &error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const std::string bytes = encodeNpy(array);
  if (out)
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (out)
    out.close();
  if (!out) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

std::string_view npyDescr(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return "|b1";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::F16:
    return "<f2";
  case DType::BF16:
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  }
  return "";
}

NpyArray tensorToNpy(const Tensor &tensor) {
  NpyArray array;
  array.descr = npyDescr(tensor.dtype());
  array.shape = tensor.shape();
  const size_t itemSize = itemSizeOf(tensor.dtype());
  array.data.resize(tensor.numel() * itemSize);
  for (size_t i = 0; i < tensor.numel(); ++i)
    storeLittleEndian(array.data.data() + i * itemSize, exchangeBits(tensor, i), itemSize);
  return array;
}

std::optional<Tensor> npyToTensor(const NpyArray &array, DType dtype, std::string &error) {
  const std::string_view want = npyDescr(dtype);
  // One-byte types have no byte order: '|b1', '<b1' and '=b1' are all bool.
  const bool sameBool = dtype == DType::Bool && array.descr.size() == 3 &&
                        array.descr.substr(1) == "b1" &&
                        std::string_view("<|=").find(array.descr[0]) != std::string_view::npos;
  if (array.descr != want && !sameBool) {
    error = "expected dtype '" + std::string(want) + "' for " + std::string(dtypeName(dtype)) +
            ", found '" + array.descr + "'";
    return std::nullopt;
  }
  const size_t itemSize = itemSizeOf(dtype);
  Tensor tensor(dtype, array.shape);
  for (size_t i = 0; i < tensor.numel(); ++i) {
    const uint64_t bits = loadLittleEndian(array.data.data() + i * itemSize, itemSize);
    switch (dtype) {
    case DType::Bool:
      tensor.setInt(i, bits != 0);
      break;
    case DType::I32:
    case DType::I64:
      tensor.setInt(i, signExtend(bits, itemSize));
      break;
    case DType::F16:
      tensor.setFloat(i, fromHalfBits(static_cast<uint16_t>(bits), DType::F16));
      break;
    case DType::BF16:
    case DType::F32: {
      const double v = std::bit_cast<float>(static_cast<uint32_t>(bits));
      if (dtype == DType::BF16 && !std::isnan(v) && roundToFloatType(v, DType::BF16) != v) {
        error = "element " + std::to_string(i) + " (" + std::to_string(v) +
                ") is not a bf16 value; bf16 tensors travel as '<f4' holding exact bf16 values";
        return std::nullopt;
      }
      tensor.setFloat(i, v);
      break;
    }
    case DType::F64:
      tensor.setFloat(i, std::bit_cast<double>(bits));
      break;
    }
  }
  return tensor;
}

} // namespace fuserc

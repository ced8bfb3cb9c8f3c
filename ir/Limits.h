// The sizes fuserc accepts, in one place (documented in docs/limits.md).
//
// A compiler in a build pipeline must refuse hostile or absurd input with a
// diagnostic instead of crashing, hanging or exhausting memory. Each limit is
// far above what a real fusion needs and low enough that every recursive
// walk over the syntax tree, the op graph or an extent expression stays well
// within the stack, and that the work per op stays bounded.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fuserc::limits {

// Nesting of op calls and attribute lists in one statement (text form), and
// of collections in a YAML file.
inline constexpr size_t kMaxNesting = 256;

// Bytes of one fusion file (text or YAML); only regular files are read.
inline constexpr uint64_t kMaxInputFileBytes = uint64_t{64} << 20;

// YAML nodes that aliases (`*name`) may add to a document, all aliases
// together: an alias of an n-node collection adds n - 1. Nested aliases
// multiply ("billion laughs"); this bounds the expanded document.
inline constexpr uint64_t kMaxYamlAliasNodes = 100000;

// Errors that get a "did you mean" among the fusion's names; each search
// reads every name, so later errors get none.
inline constexpr unsigned kMaxErrorsWithNameSuggestions = 20;

// Characters in a name: fusions, inputs, values, symbolic extents. Names
// become C identifiers in the generated header.
inline constexpr size_t kMaxIdentifierLength = 255;

// Dimensions of a tensor: generated kernels and the header's launch-time
// checks index shapes and strides with fixed-size arrays.
inline constexpr size_t kMaxRank = 8;

// Ops in one fusion, counting each nested call as one op.
inline constexpr size_t kMaxOps = 200000;

// The longest chain of dependent ops from an input to a value. Kernels are
// generated consumer-first, recursing once per op along such a chain.
inline constexpr size_t kMaxOpDepth = 2000;

// Elements of one tensor (and bytes, at 8 bytes an element, stay within
// int64): static extents and their products are checked against this.
inline constexpr int64_t kMaxElements = int64_t{1} << 60;

// Printed length of one symbolic extent ("ceildiv(N - 3, 2) + M"). Extent
// expressions nest (slices of slices); the limit keeps their size, and the
// recursion that walks them, bounded.
inline constexpr size_t kMaxExtentLength = 1024;

} // namespace fuserc::limits

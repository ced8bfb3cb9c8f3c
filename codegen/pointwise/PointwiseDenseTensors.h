// Tensors a pointwise kernel addresses by the linear index of its
// iteration: dense in the reference output's memory order with its shape,
// so element i of the iteration is element i of the tensor. Shared by the
// rvec<V> and svec<V> variants, which read and write such tensors by
// vectors of consecutive linear indices.
#pragma once

#include "codegen/core/KernelTensors.h"
#include "codegen/core/ValueEmitter.h"
#include "schedulers/FusionAnalysis.h"

#include <set>
#include <string>

namespace fuserc::pointwise {

// Whether `kt` is, by its declaration, dense in `order` with the shape of
// `ref` (the launch checks its strides again: denseInOrderHostCheck).
bool denseInOrder(const KernelTensor &kt, const Value &ref, const Layout &order,
                  const FusionAnalysis &analysis);

// Whether `coords` are a thread's own coordinates c0, c1, ... over all
// `rank` dims of the iteration (a read at the element it computes).
bool ownCoordinates(const Coords &coords, size_t rank);

// Host statements setting `flag` to 0 unless every tensor of `tensors`
// has, at launch, the strides of a dense tensor of the iteration's extents
// (`a.size`) in `order` (dims of extent 1 may have any stride).
std::string denseInOrderHostCheck(const std::vector<KernelTensor> &kernelTensors,
                                  const std::set<size_t> &tensors, const Layout &order,
                                  const std::string &flag);

} // namespace fuserc::pointwise

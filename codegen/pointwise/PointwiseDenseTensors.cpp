// Tensors dense in the iteration order (see PointwiseDenseTensors.h).
#include "codegen/pointwise/PointwiseDenseTensors.h"

namespace fuserc::pointwise {

bool denseInOrder(const KernelTensor &kt, const Value &ref, const Layout &order,
                  const FusionAnalysis &analysis) {
  const Value &v = *kt.value;
  if (v.shape() != ref.shape() || !analysis.isDense(v))
    return false;
  Layout layout = v.isInput() ? v.layout() : analysis.storedLayout(v);
  return layout == order;
}

bool ownCoordinates(const Coords &coords, size_t rank) {
  if (coords.size() != rank)
    return false;
  for (size_t d = 0; d < rank; ++d)
    if (coords[d] != "c" + std::to_string(d))
      return false;
  return true;
}

std::string denseInOrderHostCheck(const std::vector<KernelTensor> &kernelTensors,
                                  const std::set<size_t> &tensors, const Layout &order,
                                  const std::string &flag) {
  if (tensors.empty())
    return "";
  const size_t rank = order.size();
  std::string s = "  {\n    long long dense[" + std::to_string(rank) + "];\n";
  for (size_t k = rank; k-- > 0;) {
    const std::string d = std::to_string(order[k]);
    s += "    dense[" + d + "] = " +
         (k + 1 == rank ? std::string("1")
                        : "dense[" + std::to_string(order[k + 1]) + "] * a.size[" +
                              std::to_string(order[k + 1]) + "]") +
         ";\n";
  }
  for (size_t t : tensors) {
    const std::string ts = std::to_string(t);
    std::string bad;
    for (size_t d = 0; d < rank; ++d) {
      const std::string ds = std::to_string(d);
      bad += std::string(d ? " ||\n        " : "") + "(a.size[" + ds + "] != 1 && a.st[" + ts +
             "][" + ds + "] != dense[" + ds + "])";
    }
    s += "    if (" + bad + ")  /* " + kernelTensors[t].what +
         ": dense in the iteration order */\n      " + flag + " = 0;\n";
  }
  return s + "  }\n";
}

} // namespace fuserc::pointwise

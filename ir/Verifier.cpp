// The IR verifier (see Verifier.h).
#include "ir/Verifier.h"

#include "ir/Inference.h"

#include <set>
#include <variant>

namespace fuserc {
namespace {

class Verifier {
public:
  explicit Verifier(const Fusion &fusion) : fusion_(fusion) {}

  std::vector<std::string> run() {
    for (const Value *in : fusion_.inputs())
      checkInput(*in);
    for (const auto &op : fusion_.ops())
      checkOp(*op);
    if (fusion_.outputs().empty())
      problem("the fusion has no outputs");
    for (const FusionOutput &out : fusion_.outputs())
      checkOutput(out);
    return std::move(problems_);
  }

private:
  void problem(std::string message) {
    problems_.push_back("fusion '" + fusion_.name() + "': " + std::move(message));
  }

  bool owned(const Value *v) const {
    return v && v->id() < fusion_.values().size() && fusion_.values()[v->id()].get() == v;
  }

  void checkInput(const Value &in) {
    if (!names_.insert(in.name()).second)
      problem("two inputs are named '" + in.name() + "'");
    if (!in.isScalarInput() && !isPermutation(in.layout(), in.rank()))
      problem("input '" + in.name() + "' has layout " + layoutString(in.layout()) +
              ", not a permutation of its rank");
    defined_.insert(&in);
  }

  void checkOp(const Op &op) {
    std::string what = "op '" + std::string(op.info().name) + "' (value " +
                       std::to_string(op.result()->id()) + ")";
    for (const Value *operand : op.operands()) {
      if (!owned(operand))
        problem(what + " uses a value of another fusion");
      else if (!operand->isLiteral() && !defined_.count(operand))
        problem(what + " uses value " + std::to_string(operand->id()) + " before its definition");
    }
    if (op.result()->definingOp() != &op)
      problem(what + " result does not point back at its op");
    if (!op.result()->name().empty() && !names_.insert(op.result()->name()).second)
      problem(what + " redefines the name '" + op.result()->name() + "'");
    Attributes attrs = op.attrs();
    InferenceResult inferred = inferResultType(op.kind(), op.operands(), attrs);
    if (const auto *error = std::get_if<InferenceError>(&inferred)) {
      problem(what + " does not type-check: " + error->message);
    } else {
      const TensorType &type = std::get<TensorType>(inferred);
      if (type.dtype != op.result()->dtype() || type.shape != op.result()->shape())
        problem(what + " has type " + std::string(dtypeName(op.result()->dtype())) +
                shapeString(op.result()->shape()) + " but its operands give " +
                std::string(dtypeName(type.dtype)) + shapeString(type.shape));
      if (!(attrs == op.attrs()))
        problem(what + " has attributes that are not in normal form");
    }
    defined_.insert(op.result());
  }

  void checkOutput(const FusionOutput &out) {
    if (!owned(out.value) || out.value->isLiteral()) {
      problem("an output is not a value of the fusion");
      return;
    }
    if (out.pinnedLayout && !isPermutation(*out.pinnedLayout, out.value->rank()))
      problem("output '" + out.name + "' has an invalid pinned layout " +
              layoutString(*out.pinnedLayout));
    if (!out.layout.empty() && !isPermutation(out.layout, out.value->rank()))
      problem("output '" + out.name + "' has an invalid layout " + layoutString(out.layout));
    if (out.name.empty())
      problem("output " + std::to_string(out.value->id()) + " has no name");
    if (out.aliases && (!out.aliases->isInput() || out.aliases->dtype() != out.value->dtype() ||
                        out.aliases->shape() != out.value->shape()))
      problem("output '" + out.name + "'" +
              " aliases a value that is not a tensor input of the same type");
  }

  const Fusion &fusion_;
  std::vector<std::string> problems_;
  std::set<std::string> names_;
  std::set<const Value *> defined_;
};

} // namespace

std::vector<std::string> verifyFusion(const Fusion &fusion) { return Verifier(fusion).run(); }

} // namespace fuserc

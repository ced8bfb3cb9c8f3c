// PLACEHOLDER during development: a plain copy. Replaced by the real pass.
#include "passes/Canonicalize.h"

#include <map>

namespace fuserc {

std::unique_ptr<Fusion> canonicalize(const Fusion &fusion) {
  auto out = std::make_unique<Fusion>(fusion.name(), fusion.loc());
  std::map<const Value *, Value *> map;
  for (const Value *in : fusion.inputs())
    map[in] = in->isScalarInput()
                  ? out->addScalarInput(in->name(), in->dtype(), in->loc())
                  : out->addTensorInput(in->name(), in->dtype(), in->shape(), in->layout(),
                                        in->isStrided(), in->loc());
  for (const auto &op : fusion.ops()) {
    std::vector<Value *> operands;
    for (Value *v : op->operands()) {
      if (v->isLiteral() && !map.count(v))
        map[v] = out->addLiteral(v->literal(), v->loc());
      operands.push_back(map.at(v));
    }
    map[op->result()] = out->addOp(op->kind(), operands, op->attrs(),
                                   {op->result()->dtype(), op->result()->shape()},
                                   op->result()->name(), op->loc())
                            ->result();
  }
  for (FusionOutput o : fusion.outputs()) {
    o.value = map.at(o.value);
    if (o.aliases)
      o.aliases = map.at(o.aliases);
    out->addOutput(o);
  }
  return out;
}

} // namespace fuserc

// Semantic analysis of parsed fusions (see FusionBuilder.h).
#include "frontend/FusionBuilder.h"

#include "frontend/ExtentExpressions.h"

#include "frontend/AttributeConversion.h"
#include "frontend/Parser.h"
#include "frontend/Suggestions.h"
#include "ir/Inference.h"
#include "ir/Limits.h"
#include "support/CNames.h"

#include "llvm/ADT/StringExtras.h"

#include <map>
#include <set>

namespace fuserc {
namespace {

// The fusion's names are searched for a suggestion only for the first
// errors: one search per error over thousands of names would make
// thousands of misspellings cost time quadratic in the input. (Ops and
// attributes are few, so their suggestions are always searched.)
bool searchNamesFor(const DiagnosticEngine &diag) {
  return diag.errorCount() < limits::kMaxErrorsWithNameSuggestions;
}

class Builder {
public:
  Builder(const ast::Fusion &fusion, DiagnosticEngine &diag, const SymbolBindings &bound)
      : ast_(fusion), diag_(diag), bound_(bound),
        fusion_(std::make_unique<Fusion>(fusion.name, fusion.loc)) {}

  // The symbols the fusion's inputs declare, bound or not.
  const std::set<std::string> &symbols() const { return symbols_; }

  std::unique_ptr<Fusion> build() {
    unsigned errorsBefore = diag_.errorCount();
    collectDefinitions();
    for (const ast::InputDecl &in : ast_.inputs)
      declareInput(in);
    for (const ast::Assignment &a : ast_.assignments)
      define(a);
    for (const ast::OutputDecl &out : ast_.outputs)
      declareOutput(out);
    if (ast_.outputs.empty())
      diag_.error(ast_.loc, "fusion '" + ast_.name +
                                "' has no outputs; declare at least one "
                                "with 'output NAME'");
    for (const ast::InputDecl &in : ast_.inputs)
      if (Value *v = boundValue(in.name); v && !used_.count(v) && isFirstDefinition(in))
        diag_.warning(in.loc, "input '" + in.name + "' is never used", "unused-input");
    if (diag_.errorCount() != errorsBefore)
      return nullptr;
    return std::move(fusion_);
  }

private:
  // `e` with the --shape bindings substituted for their symbols.
  Extent bind(const Extent &e) const { return bound_.empty() ? e : e.substitute(bound_); }

  struct Binding {
    Value *value = nullptr; // null: poisoned by an earlier error
    llvm::SMLoc loc;
  };

  // The value a name was first bound to, or null. (Fusion::findValue would
  // do, but it scans every value: quadratic in a fusion with many inputs.)
  Value *boundValue(const std::string &name) const {
    auto it = names_.find(name);
    return it == names_.end() ? nullptr : it->second.value;
  }

  bool isFirstDefinition(const ast::InputDecl &in) const {
    auto it = firstDefinition_.find(in.name);
    return it != firstDefinition_.end() && it->second.getPointer() == in.loc.getPointer();
  }

  // Every name's first definition, so a use before it can point at it.
  void collectDefinitions() {
    for (const ast::InputDecl &in : ast_.inputs)
      firstDefinition_.try_emplace(in.name, in.loc);
    for (const ast::Assignment &a : ast_.assignments)
      firstDefinition_.try_emplace(a.name, a.loc);
    for (const ast::InputDecl &in : ast_.inputs)
      if (in.dims)
        for (const ast::Dim &d : *in.dims) {
          if (!d.symbol.empty())
            symbols_.insert(d.symbol);
          if (d.expr)
            collectExtentSymbols(*d.expr, symbols_);
        }
  }

  bool bindName(const std::string &name, llvm::SMLoc loc, Value *value) {
    auto [it, inserted] = names_.try_emplace(name, Binding{value, loc});
    if (!inserted) {
      diag_.error(loc, "redefinition of '" + name + "'; values are defined once (SSA)");
      diag_.note(it->second.loc, "previous definition of '" + name + "' is here");
      return false;
    }
    return true;
  }

  void declareInput(const ast::InputDecl &in) {
    std::optional<DType> dtype = parseDType(in.dtype);
    bool ok = true;
    if (!dtype) {
      diag_.error(in.dtypeLoc, "unknown dtype '" + in.dtype +
                                   "'; expected one of bool, i32, i64, f16, bf16, f32, f64");
      ok = false;
    }
    std::vector<Extent> shape;
    if (in.dims) {
      // Nothing more is checked past the rank limit: the element count of
      // thousands of symbolic extents takes time quadratic in the rank.
      if (in.dims->size() > limits::kMaxRank) {
        diag_.error(in.dimsLoc, "input '" + in.name + "' has rank " +
                                    std::to_string(in.dims->size()) + "; tensors have at most " +
                                    std::to_string(limits::kMaxRank) + " dims");
        bindName(in.name, in.loc, nullptr);
        return;
      }
      for (const ast::Dim &d : *in.dims) {
        Extent extent = d.value ? Extent(*d.value) : Extent::symbol(d.symbol);
        if (d.expr) {
          std::variant<Extent, ExtentExprError> e = extentOf(*d.expr, nullptr);
          if (auto *error = std::get_if<ExtentExprError>(&e)) {
            diag_.error(error->loc, error->message);
            ok = false;
            extent = Extent(1);
          } else {
            extent = std::get<Extent>(e);
          }
        }
        if (!bound_.empty()) {
          const Extent written = extent;
          extent = bind(extent);
          if (extent.hasRemainder()) {
            std::string with;
            for (const std::string &sym : written.symbols())
              if (auto it = bound_.find(sym); it != bound_.end())
                with += (with.empty() ? " " : ", ") + sym + "=" + std::to_string(it->second);
            diag_.error(d.loc, "extent " + written.str() + " of input '" + in.name +
                                   "' is not a whole number with --shape" + with);
            ok = false;
            extent = Extent(1);
          }
        }
        // A static extent, written or computed (`N - N - 1`).
        if (std::optional<int64_t> value = extent.constant(); value && *value < 0) {
          diag_.error(d.loc, "extent " + std::to_string(*value) + " of input '" + in.name +
                                 "' is negative");
          ok = false;
        } else if (value && *value > limits::kMaxElements) {
          diag_.error(d.loc, "extent " + std::to_string(*value) + " of input '" + in.name +
                                 "' is larger than " + std::to_string(limits::kMaxElements) +
                                 " (2^60)");
          ok = false;
        }
        shape.push_back(extent);
      }
      Extent count = numElements(shape);
      std::optional<int64_t> c = count.constant();
      if (ok && (count.problems() || (c && *c > limits::kMaxElements))) {
        diag_.error(in.dimsLoc, "input '" + in.name + "' " + shapeString(shape) +
                                    " has more than 2^60 elements");
        ok = false;
      }
    } else {
      if (in.layout) {
        diag_.error(in.layout->loc, "scalar input '" + in.name + "' cannot have a layout");
        ok = false;
      }
      if (in.stridedLoc) {
        diag_.error(*in.stridedLoc, "scalar input '" + in.name + "' cannot be strided");
        ok = false;
      }
    }
    Layout layout = rowMajorLayout(shape.size());
    if (in.layout && in.dims) {
      if (!isPermutation(in.layout->values, shape.size())) {
        diag_.error(in.layout->loc, "layout" + layoutString(in.layout->values) + " of input '" +
                                        in.name + "' is not a permutation of " +
                                        layoutString(rowMajorLayout(shape.size())) +
                                        " (one entry per dim of its rank-" +
                                        std::to_string(shape.size()) + " shape)");
        ok = false;
      } else {
        layout = in.layout->values;
      }
    }
    Value *v = nullptr;
    if (ok)
      v = in.dims ? fusion_->addTensorInput(in.name, *dtype, std::move(shape), std::move(layout),
                                            in.stridedLoc.has_value(), in.loc)
                  : fusion_->addScalarInput(in.name, *dtype, in.loc);
    bindName(in.name, in.loc, v);
  }

  void define(const ast::Assignment &a) {
    Value *v = buildExpr(a.value, a.name);
    // A bare name or literal on the right gets no op of its own.
    if (v && (a.value.kind != ast::Expr::Kind::Call)) {
      diag_.error(a.value.loc, "'" + a.name + " = ...' must be an op call; to use '" +
                                   (a.value.kind == ast::Expr::Kind::Name ? a.value.name
                                                                          : a.value.number.str()) +
                                   "' under another name, refer to it directly");
      v = nullptr;
    }
    bindName(a.name, a.loc, v);
  }

  // Returns the value, or null after an error (or when an operand is poisoned).
  Value *buildExpr(const ast::Expr &e, const std::string &resultName) {
    switch (e.kind) {
    case ast::Expr::Kind::Number:
      return fusion_->addLiteral(e.number, e.loc);
    case ast::Expr::Kind::Name:
      return resolve(e.name, e.loc);
    case ast::Expr::Kind::Call:
      return buildCall(e, resultName);
    }
    return nullptr;
  }

  Value *resolve(const std::string &name, llvm::SMLoc loc) {
    auto it = names_.find(name);
    if (it != names_.end()) {
      if (it->second.value)
        used_.insert(it->second.value);
      return it->second.value;
    }
    auto def = firstDefinition_.find(name);
    if (def != firstDefinition_.end()) {
      diag_.error(loc, "'" + name +
                           "' is used before its definition; statements must be in "
                           "dependency order (no cycles)");
      diag_.note(def->second, "'" + name + "' is defined here");
      return nullptr;
    }
    if (symbols_.count(name))
      return symbolValue(name, loc);
    if (lookupOp(name)) {
      diag_.error(loc, "'" + name + "' is an op; call it as '" + name + "(...)'");
      return nullptr;
    }
    std::string best = closestName(name);
    diag_.error(loc, "use of undefined value '" + name + "'" +
                         (best.empty() ? "" : "; did you mean '" + best + "'?"));
    // The misspelt use was most likely meant for the suggestion: do not
    // also report it as an unused input.
    if (Value *meant = best.empty() ? nullptr : names_[best].value)
      used_.insert(meant);
    return nullptr;
  }

  // A symbol of the input extents used as an operand: its value at launch,
  // `extent(value=N)` (i64, rank 0), one op per symbol.
  Value *symbolValue(const std::string &name, llvm::SMLoc loc) {
    if (auto it = symbolValues_.find(name); it != symbolValues_.end())
      return it->second;
    Attributes attrs;
    attrs.set("value", bind(Extent::symbol(name)));
    attrs.set("dtype", DType::I64);
    InferenceResult type = inferResultType(OpKind::Extent, {}, attrs);
    Value *v = fusion_
                   ->addOp(OpKind::Extent, {}, std::move(attrs),
                           std::get<TensorType>(std::move(type)), "", loc)
                   ->result();
    depth_.resize(v->id() + 1, 0);
    return symbolValues_[name] = v;
  }

  // The defined name closest to a misspelt one, or "" (also once past the
  // errors that get suggestions).
  std::string closestName(const std::string &name) const {
    if (!searchNamesFor(diag_))
      return "";
    std::vector<std::string> known;
    for (const auto &[n, b] : names_)
      known.push_back(n);
    return closest(name, known);
  }

  // How many ops lead from an input to `v` along the longest chain.
  size_t depthOf(const Value *v) const { return v->id() < depth_.size() ? depth_[v->id()] : 0; }

  // Refuses a fusion past limits::kMaxOps ops (once) or an op deeper than
  // limits::kMaxOpDepth, whose users then fail quietly as poisoned.
  bool withinOpLimits(const ast::Expr &call, const std::vector<Value *> &operands, size_t *depth) {
    if (fusion_->ops().size() >= limits::kMaxOps) {
      if (!tooManyOps_)
        diag_.error(call.loc, "fusion '" + ast_.name + "' has more than " +
                                  std::to_string(limits::kMaxOps) + " ops; split it");
      tooManyOps_ = true;
      return false;
    }
    *depth = 0;
    for (const Value *v : operands)
      *depth = std::max(*depth, depthOf(v));
    if (++*depth > limits::kMaxOpDepth) {
      diag_.error(call.loc, "'" + call.name + "' is at the end of a chain of more than " +
                                std::to_string(limits::kMaxOpDepth) +
                                " dependent ops; split the fusion");
      return false;
    }
    return true;
  }

  Value *buildCall(const ast::Expr &call, const std::string &resultName) {
    const OpInfo *info = lookupOp(call.name);
    if (!info) {
      std::vector<std::string> ops;
      for (const OpInfo &op : allOps())
        ops.emplace_back(op.name);
      diag_.error(call.loc, "unknown op '" + call.name + "'" + suggest(call.name, ops));
      return nullptr;
    }
    std::vector<Value *> operands;
    std::vector<llvm::SMLoc> operandLocs;
    Attributes attrs;
    std::map<std::string, const ast::Argument *> attrArgs;
    bool ok = true;
    for (const ast::Argument &arg : call.args) {
      if (arg.attrName.empty()) {
        Value *v = buildExpr(*arg.operand, "");
        ok &= v != nullptr;
        operands.push_back(v);
        operandLocs.push_back(arg.operand->loc);
        continue;
      }
      ok &= convertAttribute(*info, arg, attrs, attrArgs);
    }
    size_t depth = 0;
    if (!ok || !withinOpLimits(call, operands, &depth))
      return nullptr;

    InferenceResult result = inferResultType(info->kind, operands, attrs);
    if (auto *error = std::get_if<InferenceError>(&result)) {
      llvm::SMLoc loc = call.loc;
      if (error->operand >= 0 && size_t(error->operand) < operandLocs.size())
        loc = operandLocs[error->operand];
      else if (auto it = attrArgs.find(error->attr); it != attrArgs.end())
        loc = attrLoc(it->second->attr, error->attrItem);
      diag_.error(loc, error->message);
      return nullptr;
    }
    Value *v = fusion_
                   ->addOp(info->kind, std::move(operands), std::move(attrs),
                           std::get<TensorType>(std::move(result)), resultName, call.loc)
                   ->result();
    depth_.resize(v->id() + 1, 0);
    depth_[v->id()] = depth;
    return v;
  }

  // Where an attribute value, or one entry of a list value, was written.
  static llvm::SMLoc attrLoc(const ast::AttrValue &value, int item) {
    if (value.kind == ast::AttrValue::Kind::List && item >= 0 && size_t(item) < value.items.size())
      return value.items[item].loc;
    return value.loc;
  }

  bool convertAttribute(const OpInfo &info, const ast::Argument &arg, Attributes &attrs,
                        std::map<std::string, const ast::Argument *> &attrArgs) {
    const AttrSpec *spec = info.findAttr(arg.attrName);
    if (!spec) {
      std::vector<std::string> names;
      std::string list;
      for (const AttrSpec &s : info.attrs) {
        names.emplace_back(s.name);
        list += (list.empty() ? "" : ", ") + std::string(s.name);
      }
      if (info.attrs.empty())
        diag_.error(arg.nameLoc, "'" + std::string(info.name) + "' has no attribute '" +
                                     arg.attrName + "' (it takes no attributes)");
      else
        diag_.error(arg.nameLoc, "'" + std::string(info.name) + "' has no attribute '" +
                                     arg.attrName + "'" + suggest(arg.attrName, names) +
                                     " (attributes: " + list + ")");
      return false;
    }
    if (attrs.has(spec->name)) {
      diag_.error(arg.nameLoc, "attribute '" + arg.attrName + "' is given twice");
      diag_.note(attrArgs[arg.attrName]->nameLoc, "first given here");
      return false;
    }
    AttrConversion converted = convertAttrValue(info, *spec, arg.attr, symbols_);
    if (auto *error = std::get_if<AttrConversionError>(&converted)) {
      diag_.error(error->loc.isValid() ? error->loc : arg.attr.loc, error->message);
      return false;
    }
    AttrValue value = std::get<AttrValue>(std::move(converted));
    if (auto *e = std::get_if<Extent>(&value))
      *e = bind(*e);
    else if (auto *list = std::get_if<std::vector<Extent>>(&value))
      for (Extent &x : *list)
        x = bind(x);
    attrs.set(spec->name, std::move(value));
    attrArgs[arg.attrName] = &arg;
    return true;
  }

  void declareOutput(const ast::OutputDecl &out) {
    auto it = names_.find(out.name);
    if (it == names_.end()) {
      std::string best = closestName(out.name);
      diag_.error(out.loc, "output '" + out.name + "' is not defined" +
                               (best.empty() ? "" : "; did you mean '" + best + "'?"));
      return;
    }
    Value *v = it->second.value;
    if (!v)
      return; // its definition already failed
    used_.insert(v);
    if (auto [prev, inserted] = outputs_.try_emplace(out.name, out.loc); !inserted) {
      diag_.error(out.loc, "'" + out.name + "' is declared as an output twice");
      diag_.note(prev->second, "first declared here");
      return;
    }
    if (v->isScalarInput()) {
      diag_.error(out.loc, "output '" + out.name + "' is a scalar input; outputs are tensors");
      return;
    }
    FusionOutput output;
    output.name = out.name;
    output.value = v;
    output.loc = out.loc;
    output.aliasesLoc = out.aliasesLoc;
    if (out.layout) {
      if (!isPermutation(out.layout->values, v->rank())) {
        diag_.error(out.layout->loc, "layout" + layoutString(out.layout->values) + " of output '" +
                                         out.name + "' is not a permutation of " +
                                         layoutString(rowMajorLayout(v->rank())) + " (it is " +
                                         std::string(dtypeName(v->dtype())) +
                                         shapeString(v->shape()) + ")");
        return;
      }
      output.pinnedLayout = out.layout->values;
    }
    if (!out.aliases.empty() && !(output.aliases = checkAlias(out, v)))
      return;
    fusion_->addOutput(std::move(output));
  }

  Value *checkAlias(const ast::OutputDecl &out, Value *v) {
    Value *target = boundValue(out.aliases);
    if (!target || !target->isInput() || target->isScalarInput()) {
      diag_.error(out.aliasesLoc, "'" + out.aliases +
                                      "' is not a tensor input; 'aliases' names "
                                      "the input whose buffer the output reuses");
      return nullptr;
    }
    if (target->dtype() != v->dtype() || target->shape() != v->shape()) {
      diag_.error(out.aliasesLoc,
                  "output '" + out.name + "' (" + std::string(dtypeName(v->dtype())) +
                      shapeString(v->shape()) + ") cannot alias input '" + out.aliases + "' (" +
                      std::string(dtypeName(target->dtype())) + shapeString(target->shape()) +
                      "): an in-place update needs the same dtype and shape");
      return nullptr;
    }
    for (const FusionOutput &o : fusion_->outputs())
      if (o.aliases == target) {
        diag_.error(out.aliasesLoc,
                    "input '" + out.aliases + "' is already aliased by output '" + o.name + "'");
        return nullptr;
      }
    return target;
  }

  const ast::Fusion &ast_;
  DiagnosticEngine &diag_;
  const SymbolBindings &bound_;
  std::unique_ptr<Fusion> fusion_;
  std::map<std::string, Binding> names_;
  std::map<std::string, llvm::SMLoc> firstDefinition_;
  std::map<std::string, llvm::SMLoc> outputs_;
  std::set<std::string> symbols_;
  std::map<std::string, Value *> symbolValues_; // see symbolValue
  std::set<const Value *> used_;
  std::vector<size_t> depth_; // by value id: see depthOf
  bool tooManyOps_ = false;
};

} // namespace

bool buildFusions(std::span<const ast::Fusion> fusions, DiagnosticEngine &diag, Module &module) {
  unsigned errorsBefore = diag.errorCount();
  for (const ast::Fusion &f : fusions) {
    if (std::string problem = cNameProblem("fusion name", f.name); !problem.empty()) {
      diag.error(f.loc, problem);
      continue;
    }
    const Fusion *previous = nullptr;
    for (const auto &existing : module.fusions)
      if (existing->name() == f.name)
        previous = existing.get();
    if (previous) {
      diag.error(f.loc, "fusion '" + f.name + "' is defined twice; fusion names must be unique");
      diag.note(previous->loc(), "previous definition is here");
      continue;
    }
    Builder builder(f, diag, module.bound);
    std::unique_ptr<Fusion> built = builder.build();
    module.declaredSymbols.insert(builder.symbols().begin(), builder.symbols().end());
    if (built)
      module.fusions.push_back(std::move(built));
  }
  return diag.errorCount() == errorsBefore;
}

} // namespace fuserc

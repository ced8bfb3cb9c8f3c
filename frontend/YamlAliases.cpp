// The YAML alias pre-pass (see YamlAliases.h).
#include "frontend/YamlAliases.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <sstream>
#include <vector>

namespace fuserc {
namespace {

// Thrown by the handler to stop the parse at the first offending alias.
struct Refused {
  YamlAliasError error;
};

class AliasBudget : public YAML::EventHandler {
public:
  AliasBudget(llvm::StringRef text, uint64_t maxRepeatedNodes, size_t maxNesting)
      : text_(text), maxRepeatedNodes_(maxRepeatedNodes), maxNesting_(maxNesting) {}

  void OnDocumentStart(const YAML::Mark &) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark &, YAML::anchor_t anchor) override { finished({1, 0, anchor}); }
  void OnScalar(const YAML::Mark &, const std::string &, YAML::anchor_t anchor,
                const std::string &) override {
    finished({1, 0, anchor});
  }
  void OnSequenceStart(const YAML::Mark &, const std::string &, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    opened(anchor);
  }
  void OnSequenceEnd() override { closed(); }
  void OnMapStart(const YAML::Mark &, const std::string &, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    opened(anchor);
  }
  void OnMapEnd() override { closed(); }

  void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override {
    Anchored &target = anchored(anchor);
    if (target.open)
      refuse(mark, "alias '*" + aliasName(mark) +
                       "' is inside the collection it names; a YAML document cannot contain "
                       "itself");
    if (open_.size() + target.height > maxNesting_)
      refuse(mark, "alias '*" + aliasName(mark) + "' nests YAML collections more than " +
                       std::to_string(maxNesting_) + " deep");
    repeated_ += target.size - 1;
    if (repeated_ > maxRepeatedNodes_)
      refuse(mark, "aliases repeat more than " + std::to_string(maxRepeatedNodes_) +
                       " YAML nodes in this document (at alias '*" + aliasName(mark) +
                       "'); write the repeated parts out or use fewer aliases");
    finished({target.size, target.height, 0});
  }

private:
  struct Node {
    uint64_t size; // nodes in its expansion, itself included
    size_t height; // collections nested in its expansion, itself included
    YAML::anchor_t anchor;
  };
  struct Anchored {
    uint64_t size = 1;
    size_t height = 0;
    bool open = false; // still being parsed: an alias to it is a cycle
  };

  // Anchors are numbered 1, 2, ... in the order they are defined.
  Anchored &anchored(YAML::anchor_t anchor) {
    if (anchor >= anchors_.size())
      anchors_.resize(anchor + 1);
    return anchors_[anchor];
  }

  void opened(YAML::anchor_t anchor) {
    open_.push_back({1, 1, anchor});
    if (anchor)
      anchored(anchor).open = true;
  }

  void closed() {
    Node node = open_.back();
    open_.pop_back();
    finished(node);
  }

  // A complete node: recorded under its anchor and added to its parent.
  void finished(const Node &node) {
    if (node.anchor)
      anchored(node.anchor) = {node.size, node.height, false};
    if (open_.empty())
      return;
    open_.back().size += node.size;
    open_.back().height = std::max(open_.back().height, node.height + 1);
  }

  // The name after the alias's '*', as written.
  std::string aliasName(const YAML::Mark &mark) const {
    if (mark.pos < 0 || size_t(mark.pos) >= text_.size())
      return "";
    llvm::StringRef rest = text_.drop_front(mark.pos).drop_front(text_[mark.pos] == '*');
    return rest.take_until([](char c) { return llvm::StringRef(" \t\r\n,[]{}").contains(c); })
        .str();
  }

  [[noreturn]] void refuse(const YAML::Mark &mark, std::string message) {
    throw Refused{{mark.pos < 0 ? 0 : size_t(mark.pos), std::move(message)}};
  }

  llvm::StringRef text_;
  uint64_t maxRepeatedNodes_;
  size_t maxNesting_;
  std::vector<Node> open_;
  std::vector<Anchored> anchors_;
  uint64_t repeated_ = 0;
};

} // namespace

std::optional<YamlAliasError> checkYamlAliases(llvm::StringRef text, uint64_t maxRepeatedNodes,
                                               size_t maxNesting) {
  std::istringstream stream{std::string(text)};
  AliasBudget budget(text, maxRepeatedNodes, maxNesting);
  try {
    YAML::Parser parser(stream);
    parser.HandleNextDocument(budget);
  } catch (const Refused &r) {
    return r.error;
  } catch (const YAML::Exception &e) {
    return YamlAliasError{e.mark.pos < 0 ? 0 : size_t(e.mark.pos), "invalid YAML: " + e.msg};
  }
  return std::nullopt;
}

} // namespace fuserc

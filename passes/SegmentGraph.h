// The segmenter's working state: the ops of one fusion partitioned into
// groups (candidate segments), the tensors each group reads and writes,
// the global-memory traffic merging two groups would save, and whether a
// merge would close a cycle in the graph of groups.
//
// Traffic model: a group reads each tensor input once and writes each
// output once (fusion outputs that are views of inputs are not written);
// scalar inputs and literals cost nothing. Merging A and B
// saves traffic(A) + traffic(B) - traffic(A ∪ B): a tensor passed from A to
// B is no longer read back (nor written, when nothing else needs it), and a
// tensor both read is read once (a horizontal merge of siblings).
#pragma once

#include "schedulers/Segment.h"

#include <memory>
#include <optional>
#include <vector>

namespace fuserc {

class SegmentGraph {
public:
  // One group per op. `valueBytes` gives the size of every value by id.
  SegmentGraph(std::shared_ptr<const FusionAnalysis> analysis, std::vector<double> valueBytes);

  // Live groups, ordered by their first op.
  std::vector<size_t> groups() const;
  bool alive(size_t group) const { return groups_[group].alive; }
  // Bumped by every merge into the group.
  unsigned version(size_t group) const { return groups_[group].version; }
  size_t groupOfOp(size_t opPosition) const { return groupOfOp_[opPosition]; }
  // Op positions, ascending.
  const std::vector<size_t> &ops(size_t group) const { return groups_[group].ops; }
  size_t firstOp(size_t group) const { return groups_[group].ops.front(); }

  Segment segment(size_t group) const;
  Segment mergedSegment(size_t a, size_t b) const;

  // Groups that produce a tensor `group` reads, read one it produces, or
  // read a tensor it also reads next to one of its reading ops (in op
  // order); ascending ids, without `group`.
  std::vector<size_t> neighbours(size_t group) const;
  // Groups reading a tensor `group` produces; ascending ids.
  std::vector<size_t> successors(size_t group) const;
  // Groups producing a tensor `group` reads; ascending ids.
  std::vector<size_t> predecessors(size_t group) const;
  double saving(size_t a, size_t b) const;
  // A group on a path a ~> x ~> b or b ~> x ~> a, which merging a and b
  // would turn into a cycle; none when the merge is safe. The search visits
  // only the groups between a and b in a topological order of the groups,
  // which merges keep (so it costs what lies between them, not the graph).
  std::optional<size_t> cycleThrough(size_t a, size_t b) const;

  // Merges the later group (by first op) into the earlier; returns the
  // surviving id.
  size_t merge(size_t a, size_t b);

private:
  struct Group {
    std::vector<size_t> ops;
    std::vector<const Value *> inputs;  // by value id
    std::vector<const Value *> outputs; // by value id
    unsigned version = 0;
    bool alive = true;
  };
  void deriveInputsAndOutputs(Group &group) const;
  bool readOnlyBy(const Value &value, size_t a, size_t b) const;
  std::optional<size_t> pathStart(size_t from, size_t to) const;
  void reorderForMerge(size_t u, size_t v, size_t merged);

  std::shared_ptr<const FusionAnalysis> analysis_;
  std::vector<double> bytes_;
  std::vector<Group> groups_;
  std::vector<size_t> groupOfOp_;
  // A topological order of the live groups: each group's slot (slots that
  // merges emptied stay unused).
  std::vector<size_t> slotOf_;
  mutable std::vector<unsigned> visited_; // DFS stamps, by group
  mutable unsigned stamp_ = 0;
};

} // namespace fuserc

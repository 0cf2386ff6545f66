//===- PTXCFG.h - PTX basic blocks as an LLVM graph -----------------------===//
//
// Private to lib/Profile: the basic blocks of a PTX function body and the
// llvm::GraphTraits that let LLVM's generic algorithms run on them
// (ReversePostOrderTraversal, DominatorTreeBase, LoopInfoBase), so the PTX
// front end needs no hand-written dominator or loop code.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_LIB_PROFILE_PTXCFG_H
#define FLIPFLOP_LIB_PROFILE_PTXCFG_H

#include "llvm/ADT/GraphTraits.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/GenericDomTree.h"
#include "llvm/Support/GenericLoopInfo.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace flipflop {
namespace ptx {

class BlockGraph;

/// A basic block: a range of a function's instructions and its edges, as
/// block indices (the position in the BlockGraph, also its graph number).
struct Block {
  unsigned Begin = 0, End = 0; ///< Instruction range [Begin, End).
  llvm::SmallVector<unsigned, 2> Succs, Preds;
  double Weight = 1;
  bool Reachable = false;
  unsigned Index = 0; ///< Next to Reachable: it fills the padding.
  /// Loops containing it, outer to inner (indices into the function's
  /// loops, which are in header reverse post-order).
  llvm::SmallVector<unsigned, 2> Loops;
  BlockGraph *Parent = nullptr;

  /// The graph, for DominatorTreeBase (which asks a node for its parent).
  BlockGraph *getParent() const { return Parent; }
  /// For the debug output of LLVM's dominator and loop code.
  void printAsOperand(llvm::raw_ostream &OS, bool) const {
    OS << "bb" << Index;
  }
};

/// The blocks of one function; block 0 is the entry. Blocks are only ever
/// appended, so their indices (the graph's node numbers) never change; their
/// addresses, which LLVM's trees keep, are stable once the last is added.
class BlockGraph {
public:
  BlockGraph() = default;
  /// Blocks point back at their graph.
  BlockGraph(const BlockGraph &) = delete;
  BlockGraph &operator=(const BlockGraph &) = delete;

  Block &add() {
    Block &B = Blocks.emplace_back();
    B.Index = Blocks.size() - 1;
    B.Parent = this;
    return B;
  }
  Block &operator[](unsigned I) { return Blocks[I]; }
  const Block &operator[](unsigned I) const { return Blocks[I]; }
  unsigned size() const { return Blocks.size(); }
  bool empty() const { return Blocks.empty(); }
  Block &front() { return Blocks.front(); }
  Block &back() { return Blocks.back(); }
  Block *begin() { return Blocks.data(); }
  Block *end() { return Blocks.data() + Blocks.size(); }
  const Block *begin() const { return Blocks.data(); }
  const Block *end() const { return Blocks.data() + Blocks.size(); }

private:
  std::vector<Block> Blocks;
};

/// Maps a block index to its block (the child iterators of GraphTraits).
template <typename BlockPtr> struct BlockAt {
  BlockPtr Base = nullptr; ///< Block 0.
  BlockPtr operator()(unsigned I) const { return Base + I; }
};

/// GraphTraits for Block * and const Block *: forward edges are Succs,
/// Inverse edges Preds.
template <typename BlockPtr, bool Inverted> struct BlockGraphTraitsBase {
  using NodeRef = BlockPtr;
  using ChildIteratorType =
      llvm::mapped_iterator<const unsigned *, BlockAt<BlockPtr>>;

  // The blocks lie in one vector, so N - N->Index is block 0.
  static ChildIteratorType child_begin(NodeRef N) {
    return ChildIteratorType(edges(N).begin(), BlockAt<BlockPtr>{N - N->Index});
  }
  static ChildIteratorType child_end(NodeRef N) {
    return ChildIteratorType(edges(N).end(), BlockAt<BlockPtr>{N - N->Index});
  }
  static unsigned getNumber(NodeRef N) { return N->Index; }

private:
  static const llvm::SmallVector<unsigned, 2> &edges(NodeRef N) {
    return Inverted ? N->Preds : N->Succs;
  }
};

class CFGLoop;
using LoopBlockBase = llvm::LoopBase<Block, CFGLoop>;

/// A natural loop as LLVM's LoopInfoBase finds it: all back edges to one
/// header form one loop.
class CFGLoop : public LoopBlockBase {
  friend class llvm::LoopInfoBase<Block, CFGLoop>;
  explicit CFGLoop(Block *Header) : LoopBlockBase(Header) {}
};

using BlockDomTree = llvm::DominatorTreeBase<Block, false>;
using BlockLoopInfo = llvm::LoopInfoBase<Block, CFGLoop>;

} // namespace ptx
} // namespace flipflop

namespace llvm {

template <>
struct GraphTraits<flipflop::ptx::Block *>
    : flipflop::ptx::BlockGraphTraitsBase<flipflop::ptx::Block *, false> {
  static NodeRef getEntryNode(NodeRef N) { return N; }
};
template <>
struct GraphTraits<const flipflop::ptx::Block *>
    : flipflop::ptx::BlockGraphTraitsBase<const flipflop::ptx::Block *, false> {
  static NodeRef getEntryNode(NodeRef N) { return N; }
};
template <>
struct GraphTraits<Inverse<flipflop::ptx::Block *>>
    : flipflop::ptx::BlockGraphTraitsBase<flipflop::ptx::Block *, true> {
  static NodeRef getEntryNode(Inverse<NodeRef> G) { return G.Graph; }
};
template <>
struct GraphTraits<Inverse<const flipflop::ptx::Block *>>
    : flipflop::ptx::BlockGraphTraitsBase<const flipflop::ptx::Block *, true> {
  static NodeRef getEntryNode(Inverse<NodeRef> G) { return G.Graph; }
};

/// The dominator tree as a graph (LoopInfoBase::analyze walks it).
template <> struct GraphTraits<const DomTreeNodeBase<flipflop::ptx::Block> *> {
  using NodeRef = const DomTreeNodeBase<flipflop::ptx::Block> *;
  using ChildIteratorType =
      DomTreeNodeBase<flipflop::ptx::Block>::const_iterator;
  static NodeRef getEntryNode(NodeRef N) { return N; }
  static ChildIteratorType child_begin(NodeRef N) { return N->begin(); }
  static ChildIteratorType child_end(NodeRef N) { return N->end(); }
};

/// The whole function: entered at block 0.
template <>
struct GraphTraits<flipflop::ptx::BlockGraph *>
    : GraphTraits<flipflop::ptx::Block *> {
  using nodes_iterator = pointer_iterator<flipflop::ptx::Block *>;
  static NodeRef getEntryNode(flipflop::ptx::BlockGraph *G) {
    return &G->front();
  }
  static nodes_iterator nodes_begin(flipflop::ptx::BlockGraph *G) {
    return nodes_iterator(G->begin());
  }
  static nodes_iterator nodes_end(flipflop::ptx::BlockGraph *G) {
    return nodes_iterator(G->end());
  }
  static unsigned size(flipflop::ptx::BlockGraph *G) { return G->size(); }
  static unsigned getMaxNumber(flipflop::ptx::BlockGraph *G) {
    return G->size();
  }
  /// Blocks are never renumbered once the graph is built.
  static unsigned getNumberEpoch(flipflop::ptx::BlockGraph *G) { return 0; }
};

} // namespace llvm

#endif

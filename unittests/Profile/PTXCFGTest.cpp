//===- PTXCFGTest.cpp - PTX blocks under LLVM's graph algorithms ----------===//
//
// The GraphTraits of lib/Profile/PTXCFG.h, checked on a hand-made graph:
// the dominator tree verifies, loops nest, an irreducible cycle is no loop
// and an unreachable block is in neither.
//
//===----------------------------------------------------------------------===//
#include "PTXCFG.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Support/GenericDomTreeConstruction.h"
#include "llvm/Support/GenericLoopInfoImpl.h"
#include "gtest/gtest.h"

using namespace flipflop::ptx;
using namespace llvm;

namespace {

//  0 -> 1 -> 2 -> 3 -> 4 -> {5, 6}, 5 <-> 6 -> 7
//       ^    ^|   |
//       |    ++   |        8 (unreachable) -> 2
//       +---------+
void buildGraph(BlockGraph &G) {
  for (unsigned I = 0; I < 9; ++I)
    G.add();
  const unsigned Edges[][2] = {{0, 1}, {1, 2}, {2, 2}, {2, 3}, {3, 1}, {3, 4},
                               {4, 5}, {4, 6}, {5, 6}, {6, 5}, {6, 7}, {8, 2}};
  for (const auto &E : Edges) {
    G[E[0]].Succs.push_back(E[1]);
    G[E[1]].Preds.push_back(E[0]);
  }
}

TEST(PTXCFG, DominatorsLoopsAndOrder) {
  BlockGraph G;
  buildGraph(G);

  std::vector<unsigned> RPO;
  for (Block *B : ReversePostOrderTraversal<BlockGraph *>(&G))
    RPO.push_back(B->Index);
  EXPECT_EQ(RPO, (std::vector<unsigned>{0, 1, 2, 3, 4, 5, 6, 7}));

  BlockDomTree DT;
  DT.recalculate(G);
  EXPECT_TRUE(DT.verify());
  const int IDom[] = {-1, 0, 1, 2, 3, 4, 4, 6, -1};
  for (unsigned BI = 0; BI < G.size(); ++BI) {
    const DomTreeNodeBase<Block> *N = DT.getNode(&G[BI]);
    const DomTreeNodeBase<Block> *D = N ? N->getIDom() : nullptr;
    EXPECT_EQ(D ? (int)D->getBlock()->Index : -1, IDom[BI]) << "block " << BI;
  }
  EXPECT_FALSE(DT.isReachableFromEntry(&G[8]));
  EXPECT_TRUE(DT.dominates(&G[4], &G[7]));
  // Neither block of the cycle dominates the other.
  EXPECT_FALSE(DT.dominates(&G[5], &G[6]));
  EXPECT_FALSE(DT.dominates(&G[6], &G[5]));

  BlockLoopInfo LI;
  LI.analyze(DT);
  const CFGLoop *Outer = LI.getLoopFor(&G[1]);
  const CFGLoop *Inner = LI.getLoopFor(&G[2]);
  ASSERT_NE(Outer, nullptr);
  ASSERT_NE(Inner, nullptr);
  EXPECT_EQ(Outer->getHeader(), &G[1]);
  EXPECT_EQ(Inner->getHeader(), &G[2]);
  EXPECT_EQ(Inner->getParentLoop(), Outer);
  EXPECT_EQ(LI.getLoopDepth(&G[2]), 2u);
  EXPECT_EQ(Outer->getNumBlocks(), 3u); // 1, 2, 3; not the unreachable 8
  EXPECT_EQ(Inner->getNumBlocks(), 1u);
  for (unsigned BI : {0u, 4u, 5u, 6u, 7u, 8u})
    EXPECT_EQ(LI.getLoopFor(&G[BI]), nullptr) << "block " << BI;
}

} // namespace

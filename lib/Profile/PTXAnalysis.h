//===- PTXAnalysis.h - per-function PTX analysis --------------------------===//
//
// Private to lib/Profile: the per-function analysis of a parsed PTX body,
// split over
//   PTXCFG.cpp       basic blocks, dominator tree, natural loops (the
//                    graph LLVM's algorithms run on is in PTXCFG.h),
//   PTXValues.cpp    abstract values (lane strides, constants, taints),
//                    affine forms and bounds checks (guards),
//   PTXLoopTrip.cpp  counted-loop trip counts,
//   PTXClassify.cpp  register estimate, parallelism, instruction
//                    classification and the driver (run).
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_LIB_PROFILE_PTXANALYSIS_H
#define FLIPFLOP_LIB_PROFILE_PTXANALYSIS_H

#include "PTXCFG.h"
#include "PTXSyntax.h"
#include "flipflop/Profile/KernelProfile.h"
#include "flipflop/Profile/LaneSplit.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace flipflop {
namespace ptx {

using llvm::ArrayRef;
using llvm::BitVector;
using llvm::SmallVectorImpl;
using llvm::StringSet;
using llvm::StringSwitch;

/// Special registers a value depends on.
enum Taint : unsigned {
  TTidX = 1,
  TTidY = 2,
  TTidZ = 4,
  TNTid = 8,
  TCtaId = 16,
  TNCtaId = 32,
  TParam = 64,
  TMem = 128,
  TLane = 256,
  TCtaIdX = 512, ///< With TCtaId: which dimension.
  TCtaIdY = 1024,
  TCtaIdZ = 2048,
  TMemTid = 4096, ///< Loaded from an address that varies across threads.
  /// Holds a data-scaled coordinate that followed threadIdx.y or .z
  /// (smoothCoordinateTaint dropped them).
  TSmooth = 8192
};

/// cvt from a floating-point to an integer type (cvt.rzi.s32.f32 etc.).
bool isFloatToInt(const Instr &I);
/// cvt from an integer to a floating-point type (cvt.rn.f32.s32 etc.).
bool isIntToFloat(const Instr &I);

/// Data-scaled coordinates: a float value computed from thread or block
/// indices and data loaded from a warp-uniform address (a table of
/// coefficients), converted to an integer. Such an index moves smoothly with
/// the thread index (neighbouring threads land on neighbouring elements), so
/// its dependence on the y/z indices and on the data is not a gather
/// (docs/MODEL.md, "Data-scaled coordinates").
unsigned smoothCoordinateTaint(unsigned T);

/// Abstract value: bytes per lane along threadIdx.x (Coef), a constant.
/// With Mod > 0 the thread index t is split (a flattened thread id cut into
/// the rows of a tile): Coef * (t % Mod) + Coef2 * (t / Mod), plus a uniform
/// part assumed aligned to the split.
struct AbsVal {
  enum StateTy : uint8_t { Bottom, Known, Top } State = Bottom;
  int64_t Coef = 0;
  bool HasConst = false;
  int64_t Const = 0;
  unsigned Mod = 0;
  int64_t Coef2 = 0;
  static AbsVal top() {
    AbsVal V;
    V.State = Top;
    return V;
  }
  static AbsVal uniform() {
    AbsVal V;
    V.State = Known;
    return V;
  }
  static AbsVal constant(int64_t C) {
    AbsVal V;
    V.State = Known;
    V.HasConst = true;
    V.Const = C;
    return V;
  }
  static AbsVal affine(int64_t C) {
    AbsVal V;
    V.State = Known;
    V.Coef = C;
    return V;
  }
  bool operator==(const AbsVal &O) const {
    return State == O.State && Coef == O.Coef && HasConst == O.HasConst &&
           Const == O.Const && Mod == O.Mod && Coef2 == O.Coef2;
  }
  bool known() const { return State == Known; }
  bool uniformV() const {
    return State == Known && Coef == 0 && (Mod == 0 || Coef2 == 0);
  }
  /// Coef * (t % M) + Coef2 * (t / M), folded to a plain stride when the
  /// split cancels (Coef2 == Coef * M) or vanishes (LaneSplit::make).
  static AbsVal split(unsigned M, int64_t C, int64_t C2) {
    return lanes(LaneSplit::make(M, C, C2));
  }
  static AbsVal lanes(const LaneSplit &L) {
    AbsVal V = affine(L.Stride);
    V.Mod = L.Mod;
    V.Coef2 = L.DivStride;
    return V;
  }
  LaneSplit lanes() const { return {Mod, Coef, Coef2}; }
};

AbsVal join(const AbsVal &A, const AbsVal &B);

/// Affine form over the guard variables (GuardVar) for bounds checks:
/// sum(C[v] * v) + K. Bottom: not yet defined; Top: not affine.
struct AffVal {
  enum StateTy : uint8_t { Bottom, Known, Top } State = Bottom;
  std::array<int64_t, NumGuardVars> C{};
  int64_t K = 0;
  /// Plus a term that is the same for the whole block but not known (an
  /// array's base address): address forms only (FunctionAnalysis::AddrMode).
  bool Opaque = false;
  /// Where the unknown term comes from: 0 none (a data-scaled coordinate),
  /// 1 + the defining instruction of a kernel argument (an array's base),
  /// MixedSrc for several.
  unsigned Src = 0;
  static constexpr unsigned MixedSrc = ~0u;
  /// Holds only where blockDim.y = blockDim.z = 1 (address forms only): a
  /// product of thread indices and block sizes the form cannot hold, taken
  /// at a 1-D block (threadIdx.y = threadIdx.z = 0, blockDim.y = blockDim.z
  /// = 1), as cooperative groups' linear thread rank `(threadIdx.z *
  /// blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x` is threadIdx.x
  /// there (AddrForm::OneD).
  bool OneD = false;
  static AffVal top() {
    AffVal V;
    V.State = Top;
    return V;
  }
  static AffVal constant(int64_t X) {
    AffVal V;
    V.State = Known;
    V.K = X;
    return V;
  }
  static AffVal var(unsigned I) {
    AffVal V;
    V.State = Known;
    V.C[I] = 1;
    return V;
  }
  bool operator==(const AffVal &O) const {
    return State == O.State && C == O.C && K == O.K && Opaque == O.Opaque &&
           Src == O.Src && OneD == O.OneD;
  }
  bool known() const { return State == Known; }
  bool isConst() const {
    return known() && !Opaque &&
           std::all_of(C.begin(), C.end(), [](int64_t X) { return X == 0; });
  }
  /// Exactly the variable \p I.
  bool isVar(unsigned I) const {
    if (!known() || K != 0 || Opaque)
      return false;
    for (unsigned V = 0; V < NumGuardVars; ++V)
      if (C[V] != (V == I ? 1 : 0))
        return false;
    return true;
  }
};

/// Coefficients beyond this are treated as not affine (no overflow).
constexpr int64_t AffLimit = int64_t(1) << 40;

AffVal affCombine(const AffVal &A, const AffVal &B, int64_t MA, int64_t MB);

/// A * B when one side is a constant, or blockIdx.d * blockDim.d.
/// \p AtOneD: where neither side is a constant, the product at a 1-D block
/// (AffVal::OneD) rather than top.
AffVal affMul(const AffVal &A, const AffVal &B, bool AtOneD = false);

/// Instructions whose first operand is not a definition.
bool isStoreLike(StringRef Base);

/// A set of block indices kept as a bit window [Lo, Lo + span): a loop body
/// costs its span, not the function's block count (a function of many
/// sequential loops stays linear in memory).
class BlockSet {
public:
  BlockSet() = default;
  /// The set of \p Ids (any order, no duplicates).
  explicit BlockSet(const std::vector<unsigned> &Ids) {
    if (Ids.empty())
      return;
    auto [Min, Max] = std::minmax_element(Ids.begin(), Ids.end());
    Lo = *Min;
    Bits.resize(*Max - Lo + 1);
    for (unsigned I : Ids)
      Bits.set(I - Lo);
  }
  bool test(unsigned I) const {
    return I >= Lo && I - Lo < Bits.size() && Bits.test(I - Lo);
  }
  unsigned count() const { return Bits.count(); }
  /// The members in increasing order.
  std::vector<unsigned> members() const {
    std::vector<unsigned> Out;
    for (unsigned I : Bits.set_bits())
      Out.push_back(I + Lo);
    return Out;
  }

private:
  unsigned Lo = 0;
  BitVector Bits;
};

/// Per-function result of the analysis, before callee work is folded in.
struct FuncSummary {
  std::array<double, NumOpClasses> Ops{};
  double Flops32 = 0, Flops64 = 0, Flops16 = 0, TensorFlops = 0;
  double ConvIntToF32 = 0; ///< KernelProfile::ConvIntToF32.
  std::map<std::string, double> TensorByType;
  /// tcgen05.mma's FLOPs, one issue's (not in TensorFlops): the kernel's
  /// launch bounds spread them over its threads (a callee's are its
  /// caller's).
  double EngineIssueFlops = 0;
  std::string EngineType; ///< Their type (the first met).
  std::vector<MemAccess> Accesses;
  std::vector<LoopRecord> Loops;
  std::vector<std::string> Guesses, Warnings;
  std::vector<std::pair<std::string, double>> Calls; ///< Callee, weight.
  bool IndirectCalls = false;
  unsigned DivergentBranches = 0;
  unsigned EstimatedRegs = 0;
  /// Without ptxas: spill bytes (stores and loads together, as ptxas -v
  /// counts them) under any register cap; at MaxThreadRegisters, those of
  /// code that needs more registers than a thread may hold.
  SpillCurve Spills;
  HeldLoads Held; ///< KernelProfile::Held.
  unsigned EstimatedSpillFrameBytes = 0; ///< Their stack slots, uncapped.
  /// Per block of code, its peak register pressure and its loop weight
  /// (KernelProfile::PressureSteps).
  std::vector<std::pair<unsigned, double>> BlockPressure;
  unsigned BarrierIds = 0;
  StringSet<> Symbols; ///< Symbols referenced (shared/const variables).
  ShapeInfo Shape;
  SrcLoc FirstLoc;
  unsigned UnknownInstrs = 0;
  std::vector<AffineGuard> Guards;
  std::vector<GuardedWork> Guarded;
  /// Memory- and instruction-level parallelism (loop-weighted, 1 unknown).
  double MLP = 1, ILP = 1;
};

/// Executions per thread are capped here (deeply nested loops stay finite).
constexpr double MaxBlockWeight = 1e15;

/// Registers ptxas needs beyond the virtual registers live at once.
constexpr unsigned RegisterReserve = 0;

/// The most registers a thread may hold (every architecture since sm_35;
/// GPUSpec::MaxRegistersPerThread, which the profile, made before a GPU is
/// chosen, cannot read).
constexpr unsigned MaxThreadRegisters = 255;

/// The smallest register cap a spill estimate is kept for (a register cap
/// needs more than 4,096 resident threads to fall below it; ptxas raises a
/// smaller one to what the code needs at least: 24 for the 24 addresses of
/// test/PTX/cap-spills.test).
constexpr unsigned MinSpillCap = 16;

/// Registers a thread may use while an SM keeps its most threads resident
/// (65,536 / threads per SM, in steps of 8) for compute capability \p SM
/// (75 for sm_75); 0 when \p SM is 0 (not known).
unsigned fullOccupancyRegisters(unsigned SM);

/// What ptxas can prove of a value's low bits: it is Residue modulo
/// Align (a power of two up to 16, Residue < Align); Open marks the
/// induction hypothesis not yet formed (the optimistic start, which
/// every other fact refines).
struct AlignFact {
  uint64_t Align = 1, Residue = 0;
  bool Open = false;
  bool operator==(const AlignFact &O) const {
    return Open == O.Open && (Open || (Align == O.Align && Residue == O.Residue));
  }
};

class FunctionAnalysis {
public:
  FunctionAnalysis(const Function &F, const PTXParseOptions &Opts,
                   unsigned TargetSM = 0,
                   const StringMap<VarDecl> *Globals = nullptr)
      : F(F), Opts(Opts), Globals(Globals), TargetSM(TargetSM) {}
  FuncSummary run();

private:
  const Function &F;
  const PTXParseOptions &Opts;
  /// The module's variables (MemAccess::FootprintBytes of a table).
  const StringMap<VarDecl> *Globals = nullptr;
  /// The declared bytes of the global array register \p R's address
  /// indexes (its address polynomial has that symbol once, at coefficient
  /// 1); 0 when not known.
  uint64_t tableBytes(unsigned R) const;
  /// The dimensions d whose %ntid.d or %nctaid.d register \p R's value is
  /// computed from (bit d), through every definition.
  unsigned launchDims(unsigned R) const;
  /// The module's .target (80 for sm_80; 0 when not known).
  unsigned TargetSM = 0;
  std::vector<const Instr *> Instrs;
  std::vector<unsigned> InstrBlock;
  BlockGraph Blocks;
  struct Loop {
    unsigned Header;
    BlockSet Body;
    double Trip = 1;
    std::string ExitDesc; ///< The exit comparison, for explanations.
    std::optional<int64_t> ConstBound; ///< Its constant bound, if any.
    LoopRecord Rec;
    /// Counted loops: the induction register.
    int IVReg = -1;
    /// Several exits: the trip count is the smallest counted one (an upper
    /// bound when another exit is not counted).
    bool MultiExit = false;
    /// Index in S.Guesses of its guess (guessTrip), -1 when none.
    int GuessAt = -1;
    /// Run by a flag (flagTrip): a register set before the loop and set
    /// again in a latch is Start on the first pass and the latch's value
    /// after it.
    bool FlagRun = false;
    /// The induction variable starts at a thread index (a block-stride
    /// loop, `for (i = tid; i < n; i += 256)`): the trip is thread 0's.
    bool ThreadStart = false;
    /// The bound or the step follows blockDim (`i < (blockDim.x + 4) *
    /// (blockDim.y + 4)`, `i += blockDim.x * blockDim.y`): the trip is the
    /// one at the reference block, as in the IR front end.
    bool AtRefBlock = false;
    /// ... and the step is blockDim too: the block shares the loop's work.
    bool BlockStride = false;
    /// Not run: the branch before it goes around it (skippedByGuard).
    bool Skipped = false;
  };
  /// The launch dimensions (bit d: blockDim.d or gridDim.d) the step of
  /// loop \p L's counter (Loop::IVReg) reads; 0 when unknown.
  unsigned stepDims(const Loop &L) const;
  std::vector<Loop> Loops;
  /// Instruction indices a `.pragma "nounroll"` precedes (buildBlocks).
  std::vector<unsigned> NoUnrollAt;
  /// Per block, the factor by which ptxas unrolls the innermost loop it
  /// belongs to (1: not unrolled); docs/MODEL.md, "Loads in flight after
  /// ptxas".
  std::vector<unsigned> ptxasUnrollFactors() const;
  StringMap<unsigned> RegIds;
  StringMap<unsigned> LabelBlock;
  std::vector<unsigned> RegWidth;
  /// Per block, the most registers its live values take at once
  /// (estimateRegisters).
  std::vector<unsigned> BlockPeak;
  /// The most registers live at once in block instructions run in
  /// \p Order, with \p LiveOut live after them; \p Reload: loads are
  /// issued again at each use rather than held.
  unsigned blockPressure(const BitVector &LiveOut, ArrayRef<unsigned> Order,
                         bool Reload, ArrayRef<unsigned> Width) const;
  /// Registers a value takes in the scheduled orders (estimateRegisters).
  std::vector<unsigned> PressWidth;
  /// The values ptxas can compute again at each use (estimateRegisters).
  BitVector recomputable() const;
  /// KernelProfile::Held from each block's upward-exposed uses \p Use and
  /// the registers each value takes, \p Width (estimateRegisters).
  HeldLoads heldLoads(ArrayRef<BitVector> Use,
                      ArrayRef<unsigned> Width) const;
  /// Block \p BI's instructions in dependence order, each as early as its
  /// operands allow (\p Early) or as late as its uses allow; instructions
  /// without a register result keep their place.
  void scheduleBlock(unsigned BI, bool Early,
                     std::vector<unsigned> &Order) const;
  std::vector<AbsVal> Vals;
  std::vector<unsigned> Taints;
  std::vector<SmallVector<unsigned, 2>> DefSites;
  FuncSummary S;

  /// Prefix of messages about a called function ("in NAME: "); none for
  /// the kernel itself.
  std::string where() const {
    return F.IsEntry ? std::string() : "in " + F.Name + ": ";
  }
  void buildBlocks();
  void computeLoops();
  void analyseValues();
  void analyseAffine();
  /// The fixpoint of analyseAffine over Affs (IVRegs set).
  void affineFixpoint();
  /// Address forms (AddrForm): Affs evaluated again with block-uniform
  /// unknowns and data-scaled coordinates dropped, into AddrAffs.
  void analyseAddressForms();
  /// The AddrForm of an access in block \p BI at address register \p R
  /// plus \p Offset bytes (`[%r+Offset]`).
  AddrForm addressForm(unsigned R, unsigned BI, int64_t Offset) const;
  void analyseGuards();
  /// Each block's bounds checks (indices into S.Guards), by analyseGuards:
  /// the accesses it makes run behind them (MemAccess::Guards).
  std::vector<SmallVector<unsigned, 4>> BlockGuards;
  /// For block \p BI that ends in a predicated `bra LABEL` with two
  /// successors: the taken block (the other is BI + 1); none otherwise.
  std::optional<unsigned> conditionalTaken(unsigned BI) const {
    const Block &B = Blocks[BI];
    if (!B.Reachable || B.End == B.Begin || B.Succs.size() != 2)
      return std::nullopt;
    const Instr &Br = *Instrs[B.End - 1];
    if (Br.Mods[0] != "bra" || Br.Guard.empty() || Br.Ops.empty() ||
        Br.Ops[0].Kind != Operand::Sym)
      return std::nullopt;
    auto Taken = LabelBlock.find(Br.Ops[0].Name);
    if (Taken == LabelBlock.end() || Taken->second == BI + 1)
      return std::nullopt;
    return Taken->second;
  }
  /// Whether the predicate \p Reg, read at instruction \p At, holds on the
  /// rare side of a magnitude test (rareWhenHolds), fails there, or is no
  /// such test.
  std::optional<bool> rareWhenPredicate(StringRef Reg, unsigned At,
                                        unsigned Depth = 0) const;
  /// Blocks that only the rare side of a magnitude test reaches: weight 0.
  std::vector<bool> rareOnlyBlocks() const;
  /// The blocks reached from the entry without the edges \p Skip names.
  std::vector<bool>
  reachedWithout(llvm::function_ref<bool(unsigned, unsigned)> Skip) const;
  /// Per block, the share of the reference block's warps that run it past
  /// thread checks that are no bounds checks (`if (tid < s)` of a tree
  /// reduction, `if (tid % (2 * s) == 0)`).
  std::vector<double> shrinkingCheckShares();
  /// The bank conflicts of a shared access whose lane stride the loop
  /// around it moves (`sdata[2 * s * tid]` with `s *= 2`: 2-, 4-, 8-way as
  /// the passes go), where the lanes' pattern is no constant stride: its
  /// address \p R at instruction \p At (plus \p Offset bytes), for each
  /// thread of the reference block at each pass of the innermost counted
  /// loop (at most 64), the lanes that reach it past that loop's thread
  /// checks only; none where no pass changes the lanes' pattern (which
  /// lanes take part and how far apart: a stride the loop does not move,
  /// which ptxas may merge into wider accesses). The mean over the requests of
  /// the active warps of the wavefronts a request takes (passBankWays of each
  /// pass of 128 bytes of lane data), as the model
  /// takes MemAccess::BankConflictWays of an access of unknown pattern.
  std::optional<double> loopBankWays(unsigned R, unsigned At, unsigned BI,
                                     int64_t Offset, unsigned Bytes);
  /// Checks of %ntid against constants whose failing side does no work
  /// (PTXShapeChecks.cpp): ShapeInfo::Checked* and CheckFacts.
  void analyseShapeChecks();
  void analyseParallelism();
  /// What ptxas makes of an instruction that it fuses with another.
  enum class Fold : uint8_t {
    Kept,           ///< Counted as the PTX has it.
    Gone,           ///< Costs nothing of its own: an integer add folded into
                    ///< a later add of its block as one IADD3
                    ///< (foldsIntoThreeInputAdd), or a wide multiply folded
                    ///< into the 64-bit adds of its product.
    WideMultiplyAdd ///< A 64-bit add of such a product: one IMAD.WIDE.
  };
  /// Per instruction index, what ptxas makes of it.
  std::vector<Fold> findFolded() const;
  AffVal affOf(const Operand &O) const;
  int reachingDef(unsigned R, unsigned At) const;
  /// What constAt may substitute (bits): thread 0 (threadIdx and the lane
  /// index 0: a representative thread, as the IR front end evaluates trip
  /// counts), and the reference block (blockDim = PTXReferenceBlockThreads
  /// x 1 x 1, the IR front end's reference block).
  /// AtTid1X << d: with AtThread0, threadIdx.d is 1 (the others 0).
  /// AtTidLastX: threadIdx.x is the reference block's last thread
  /// (PTXReferenceBlockThreads - 1), with AtThread0.
  enum Subst : unsigned {
    AtThread0 = 1,
    AtRefBlock = 2,
    AtTid1X = 4,
    AtTidLastX = 32,
    /// threadIdx.x is TidX (the lane TidX % 32), the others 0, with
    /// AtThread0.
    AtTidSetX = 64,
    /// blockIdx is 0 along every dimension.
    AtBlock0 = 128
  };
  int64_t TidX = 0;
  /// blockIdx along every dimension while tripOfFirstBlock counts a loop
  /// for one block (-1: not substituted).
  int64_t BlockIdx = -1;
  /// While tripAtStatedGrid counts a loop: gridDim is the stated grid.
  bool AtStatedGrid = false;
  /// While a grid-stride loop's elements are counted: one thread in the
  /// grid (threadIdx and blockIdx 0, blockDim and gridDim 1).
  bool UnitGrid = false;
  /// While loopBankWays reads the lanes' addresses: a symbol (a shared
  /// array) is at 0 (banks read only the lanes' distances).
  bool SymbolsAtZero = false;
  /// The constant register \p R holds at instruction \p At, through its
  /// reaching definitions, with the substitutions \p At0 (Subst bits).
  std::optional<int64_t> constAt(unsigned R, unsigned At, unsigned Depth = 0,
                                 unsigned At0 = 0) const;
  /// The constant instruction \p Def computes (constAt's evaluation).
  std::optional<int64_t> constOf(unsigned Def, unsigned Depth,
                                 unsigned At0) const;
  /// What ptxas can prove of register \p R's low bits from the arithmetic
  /// of its definitions (PTXClassify.cpp).
  AlignFact provenAlign(unsigned R, unsigned Depth = 0) const;
  /// provenAlign with the registers whose proof is open and their current
  /// hypotheses; \p MinOpen receives the lowest position in \p Open whose
  /// hypothesis the answer read, -1 where the depth limit cut it short
  /// (such answers are not memoised).
  using OpenProof = SmallVectorImpl<std::pair<unsigned, AlignFact>>;
  AlignFact provenAlignIn(unsigned R, unsigned Depth, OpenProof &Open,
                          int &MinOpen) const;
  AlignFact alignOfDef(const Instr &I, bool Stepped, unsigned Depth,
                       OpenProof &Open, int &MinOpen) const;
  mutable llvm::DenseMap<unsigned, AlignFact> AlignMemo;
  mutable unsigned AlignSteps = 0; ///< Definitions read by one provenAlign.
  /// Shared accesses whose base register a definition earlier in their
  /// block changed: their own base id (MemAccess::BaseId) -> the register.
  llvm::DenseMap<unsigned, unsigned> RedefinedBase;
  /// A register's value as a polynomial: monomials (sorted names of opaque
  /// registers "rN", symbols "s:NAME" and the thread and block indices
  /// "%tid.x" ... "%ctaid.z") -> integer coefficient; the empty monomial is
  /// the constant term.
  using AddressPoly = std::map<std::vector<std::string>, int64_t>;
  /// Register \p R's value as an AddressPoly through its single
  /// definitions: mov, integer cvt and cvta (taken as not wrapping: address
  /// arithmetic), add, sub, mul (not .hi), shl by a constant and mad. A
  /// register of several definitions, any other instruction, or a result
  /// beyond 24 terms, degree 4 or coefficients of 2^40 is opaque (a leaf of
  /// its own). Computed once per register (AddressPolys).
  const AddressPoly &addressPoly(unsigned R, unsigned Depth = 0) const;
  /// The sibling base of global address register \p R: one id per
  /// addressPoly without its constant term, which is added to \p Offset.
  /// Two addresses that differ by a constant only are siblings.
  unsigned siblingBase(unsigned R, int64_t &Offset);
  StringMap<unsigned> AddressBases; ///< Non-constant part -> base id.
  /// ShapeInfo::TidPitch from the addressPoly of every register defined by
  /// address arithmetic (an opaque register is taken as free of thread
  /// indices).
  unsigned tidPitch() const;
  mutable std::map<unsigned, AddressPoly> AddressPolys;
  /// The threadIdx.\p D coefficient of the integer a data-scaled
  /// coordinate in register \p R's value was computed from (through a
  /// float-to-int conversion back to the int-to-float one), and that
  /// integer's register; none when the value has no such coordinate.
  std::optional<std::pair<int64_t, unsigned>> smoothTidStep(unsigned R,
                                                            unsigned D) const;
  /// A global access whose address holds a data-scaled coordinate: its
  /// threadIdx steps and the bounds on how far it moves the address.
  struct SmoothCoordinate {
    size_t Access = 0;                ///< Index into S.Accesses.
    std::array<int64_t, 3> TidStep{}; ///< Coordinate units per threadIdx.d.
    double Bound = 0;  ///< The coordinate stays below this (a bounds check).
    double Extent = 0; ///< Bytes of the row the other index terms check.
    double Pitch = 0;  ///< Smallest other step of the address >= Extent.
    AffVal Addr;       ///< The address form; copies differ in Addr.K only.
  };
  /// (Sets \p A's SmoothDims.)
  std::optional<SmoothCoordinate> smoothCoordinate(unsigned R, unsigned T,
                                                   MemAccess &A) const;
  /// Sets MemAccess::SmoothStepBytes of PendingSmooth's accesses.
  void finishSmooth();
  std::vector<SmoothCoordinate> PendingSmooth, SmoothSeen;
  bool predicateGuards(StringRef Reg, bool Want,
                       SmallVectorImpl<AffineGuard> &Out, unsigned Depth) const;
  /// A path from block \p From to block \p To exists (that does not pass
  /// through block \p Avoid, when given).
  bool reaches(unsigned From, unsigned To, int Avoid = -1) const {
    std::vector<bool> Seen(Blocks.size(), false);
    SmallVector<unsigned, 16> Work{From};
    Seen[From] = true;
    while (!Work.empty()) {
      unsigned X = Work.pop_back_val();
      for (unsigned Sx : Blocks[X].Succs) {
        if (Sx == To)
          return true;
        if (int(Sx) != Avoid && !Seen[Sx]) {
          Seen[Sx] = true;
          Work.push_back(Sx);
        }
      }
    }
    return false;
  }
  /// Block \p A dominates block \p B (both reachable; a block dominates
  /// itself). O(1): computeLoops numbers the tree (updateDFSNumbers).
  bool dominates(unsigned A, unsigned B) const {
    // LLVM says an unreachable block is dominated by every block; here
    // unreachable blocks dominate and are dominated by none.
    if (A >= Blocks.size() || B >= Blocks.size() || !Blocks[A].Reachable ||
        !Blocks[B].Reachable)
      return false;
    return DomTree.dominates(&Blocks[A], &Blocks[B]);
  }
  /// The immediate dominator of block \p BI; -1 for the entry and for
  /// unreachable blocks.
  int idom(unsigned BI) const {
    const llvm::DomTreeNodeBase<Block> *N = DomTree.getNode(&Blocks[BI]);
    if (!N || !N->getIDom())
      return -1;
    return N->getIDom()->getBlock()->Index;
  }
  AffVal affEval(const Instr &I) const;
  /// Address forms: `X / 32` and `X % 32` (shr, div, and, rem) of a form in
  /// threadIdx.x, blockIdx.x * blockDim.x or blockDim.x, in the GVWarp
  /// variables; nullopt where \p I is no such split.
  std::optional<AffVal> warpSplit(const Instr &I) const;
  /// The split of \p X by \p Base ("shr", "div", "and", "rem") with the
  /// constant \p Y (warpSplit).
  static std::optional<AffVal> warpSplitOf(llvm::StringRef Base,
                                           const AffVal &X, int64_t Y,
                                           bool Signed);
  /// Address forms: register \p R read at instruction \p At after loops
  /// that step it (`add R, R, c`: nvcc's counter of a runtime-unrolled loop,
  /// stepped in its remainder loop and in its main loop), none of them
  /// around \p At: its one other definition, the start, whose value the
  /// form takes (off by the remainder's few steps, as affineFixpoint's join
  /// allows one); -1 where \p R is no such register.
  int steppedStart(unsigned R, unsigned At) const;
  /// Predicate \p Pred is an equality test of a value that moves with the
  /// lane (distinct on each lane of a row) against one that does not (`i ==
  /// 0`, `i != n - 1`): true on at most one lane of a row. Which way most
  /// lanes go (true for `ne`); none for any other predicate. A `selp` on it
  /// takes that arm's value (a neighbour clamped at an edge), as in the IR
  /// front end (StrideAnalysis::mostLanes).
  std::optional<bool> mostLanes(const Operand &Pred) const;
  std::vector<AffVal> Affs;
  /// Address forms of the registers (analyseAddressForms).
  std::vector<AffVal> AddrAffs;
  /// affEval drops block-uniform unknowns (Opaque) and data-scaled
  /// coordinates: address forms, never guards.
  bool AddrMode = false;
  /// The instruction affEval is evaluating in affineFixpoint (-1 elsewhere):
  /// affOf reads an induction register outside its loop as its start there.
  int EvalAt = -1;
  /// Starts of stepped registers being followed (affOf, steppedStart).
  mutable unsigned SteppedDepth = 0;
  /// Induction registers of counted loops (analyseAffine): their value is
  /// Start + Step * iteration inside Loop only.
  struct IVInfo {
    unsigned Slot;
    int64_t Step;
    unsigned StartDef;
    unsigned Loop;
    /// d + 1 for a block-stride counter (`i += blockDim.d`; address forms
    /// only): its slot's variable is the iteration times blockDim.d.
    unsigned PerNtid = 0;
    /// For a grid-stride counter (`r += gridDim.x`, `i += blockDim.x *
    /// gridDim.x`; address forms only), the step's launch dimensions (bit
    /// d: gridDim.d, bit 3 + d: blockDim.d, AddrForm::LoopPerGrid): its
    /// slot's variable is the iteration times the step at the launch.
    unsigned GridStep = 0;
  };
  std::map<unsigned, IVInfo> IVRegs;
  /// The induction registers of the address forms (analyseAddressForms):
  /// IVRegs and the block-stride counters.
  std::map<unsigned, IVInfo> AddrIVRegs;
  /// Register \p R's definitions in loop \p L (its step) and before it
  /// (its start) when it has exactly those two; (-1, -1) otherwise.
  std::pair<int, int> stepAndStart(const Loop &L, unsigned R) const;
  /// Block-stride and grid-stride counters as induction registers, in the
  /// free slots (analyseAddressForms, with IVRegs and IterTrip extended in
  /// place).
  void addStridedCounters();
  std::array<double, NumIterSlots> IterTrip = unitIterTrips(); ///< Trips of the GVIter loops.
  BlockDomTree DomTree;      ///< Of the reachable blocks (computeLoops).
  std::vector<unsigned> RPO; ///< Reachable blocks in reverse post-order.
  void assignRegisterIds();
  /// Warns of irreducible cycles; true when there is a back edge.
  bool checkRetreatingEdges(const std::vector<unsigned> &RPONum);
  void findNaturalLoops();
  void estimateRegisters();
  void classify(const Instr &I, double W, unsigned BlockIdx);

public:
  /// One instruction being classified (classify and its helpers).
  struct InstrCtx {
    InstrCtx(const Instr &I, double W, unsigned BlockIdx)
        : I(I), W(W), BlockIdx(BlockIdx) {}
    const Instr &I;
    double W; ///< Executions per thread of its block.
    unsigned BlockIdx;
    StringRef Base;                  ///< Mods[0].
    SmallVector<StringRef, 4> Types; ///< Type modifiers in order.
    unsigned Vec = 1;                ///< .vN
    StringRef Ty;                    ///< The last type modifier.
    unsigned Lanes = 1;              ///< 2 for f16x2 / bf16x2.
    const Operand *AddrOp = nullptr; ///< The first address operand.
  };

private:
  /// The texel and lane pattern of texture fetch \p X's access \p A.
  void readTextureFetch(const InstrCtx &X, MemAccess &A);
  /// The registers the function's instructions read (readTextureFetch's,
  /// gathered at its first fetch).
  std::optional<llvm::DenseSet<StringRef>> ReadRegs;
  void addOp(const InstrCtx &X, OpClass C, double N = 1);
  void addAccess(const InstrCtx &X, AddrSpace Sp, bool Store, bool Atomic,
                 unsigned Bytes, const Operand *AddrOp);
  void addArith(const InstrCtx &X, double Flops);
  bool classifyDivSFU(const InstrCtx &X);
  bool classifyALU(const InstrCtx &X);
  bool classifySync(const InstrCtx &X);
  void classifyCopy(const InstrCtx &X);
  void classifyBulkCopy(const InstrCtx &X, int Dir);
  /// Who issues a bulk copy and the bytes a thread moves (bulkIssue).
  struct BulkIssue {
    enum { Checked, Block, EveryThread } Mode = Block;
    double Bytes = 0;     ///< Of one copy.
    unsigned Threads = 1; ///< Block: the threads it is spread over.
    /// Checked: the threads of a warp one of which it elects.
    unsigned Lanes = 1;
    bool ThreadsAssumed = false;
    double perThread() const {
      return Mode == Block ? Bytes / Threads : Bytes / Lanes;
    }
  };
  /// The issue of bulk copy \p I behind checks \p Checks (indices into
  /// S.Guards); none when its bytes are not known.
  std::optional<BulkIssue> bulkIssue(const Instr &I,
                                     ArrayRef<unsigned> Checks) const;
  bool checksThreads(ArrayRef<unsigned> Gs) const;
  /// The copy engine's and the tensor memory's work, before the checks'
  /// shares are taken (analyseEngineWork): the bytes of the function's
  /// bulk copies (a plain copy's stated size; each execution of a tensor
  /// copy into shared memory, from the mbarriers' expected transaction
  /// counts) and the FLOPs of its tensor-memory MMAs.
  void analyseEngineWork();
  llvm::DenseMap<const Instr *, double> BulkBytes;
  /// Blackwell's tensor-memory MMAs of a constant instruction descriptor:
  /// the FLOPs of one issue and their type.
  llvm::DenseMap<const Instr *, std::pair<double, std::string>> EngineFlops;
  void classifyTensorMemoryMMA(const InstrCtx &X);
  bool BulkThreadsWarned = false;
  /// Whether loop \p L waits on an mbarrier: a poll in its own blocks
  /// (`mbarrier.try_wait` / `test_wait`) decides a branch that leaves it.
  bool waitsOnBarrier(const Loop &L) const;
  bool classifyMemory(const InstrCtx &X);
  void classifyMMA(const InstrCtx &X);
  void classifyWMMAMemory(const InstrCtx &X);
  bool classifyTensor(const InstrCtx &X);
  void classifyOther(const InstrCtx &X);
  std::optional<double> countedTrip(Loop &L);
  /// countedTrip's count over the loop's exits (countedTripThrough).
  std::optional<double> countedTripOfExits(Loop &L);
  /// A loop counted at each pass of an enclosing counted loop whose
  /// counters set its bound or start (a stencil's area shrinking with the
  /// time step, `for (j = ty + it; j < H - it; j += 8)` inside `for (it =
  /// 1; it <= T; ++it)`): the mean over those passes.
  std::optional<double> tripOverEnclosing(Loop &L);
  /// A loop counted for block 0 (thread 0), where every block runs about
  /// as many passes (sameInEveryBlock, KernelProfile.h): a grid stride
  /// written as num_blocks * block_size_x, or each block's own chunk.
  std::optional<double> tripOfFirstBlock(Loop &L);
  /// Thread 0's count of \p Try in block \p B (countedTrip, else over the
  /// enclosing loops, else stepped pass by pass).
  std::optional<double> tripInBlock(Loop &Try, int64_t B);
  /// A count that falls with the block's index until it runs out: the mean
  /// over the blocks that run it (meanOverFallingBlocks, KernelProfile.h).
  std::optional<double> tripOverFallingBlocks(Loop &L);
  /// A loop whose bounds read gridDim, counted at the stated grid
  /// (PTXParseOptions::Grid) as the other counts are; not a grid-stride
  /// loop (its step reads gridDim).
  std::optional<double> tripAtStatedGrid(Loop &L);
  /// While tripOverEnclosing counts a loop at one pass of an enclosing
  /// loop: that loop and the pass (0-based). constAt then gives each of
  /// its counters (a register stepped once a pass by a constant, constant
  /// on entry) its value at that pass.
  const Loop *PinLoop = nullptr;
  int64_t PinPass = 0;
  /// constAt's answers by (definition, substitutions) while trip counts are
  /// taken (computeTripCounts); cleared whenever PinLoop, PinPass or
  /// BlockIdx change what an answer is.
  mutable std::optional<llvm::DenseMap<uint64_t, std::optional<int64_t>>>
      ConstMemo;
  bool runsOncePerPass(const Loop &P, unsigned K) const;
  /// A loop counted by running it (steppedTrip): while it runs, constOf
  /// reads the registers of SimRegs inside SimLoop from there (their
  /// values in the pass being run) instead of their reaching definitions.
  std::optional<double> steppedTrip(Loop &L);
  /// The one block of \p L with a successor outside it; -1 when several
  /// or none.
  int soleExitingBlock(const Loop &L) const;
  const Loop *SimLoop = nullptr;
  llvm::DenseMap<unsigned, int64_t> SimRegs;
  /// Instructions steppedTrip may still run for the loop being counted (it
  /// runs at each pass of enclosing loops and for several blocks) and in
  /// the whole function: a bound on the time a kernel of many
  /// data-dependent loops takes, whose per-loop part keeps one loop's
  /// count from depending on the loops counted before it.
  uint64_t SteppedBudget = 0, SteppedTotal = 0;
  std::optional<int64_t> counterAtPass(unsigned R, unsigned At,
                                       unsigned Depth, unsigned At0) const;
  void guessTrip(Loop &L);
  std::optional<int64_t> remainderMask(const Loop &L) const;
  std::pair<const Loop *, const Loop *> siblingsAround(const Loop &L) const;
  /// \p Peeled: the remainder is straight-line code, not a loop.
  std::optional<int64_t> unrolledBy(const Loop &L,
                                    bool *Peeled = nullptr) const;
  std::optional<int64_t> peeledUnrollMask(const Loop &L) const;
  /// The `setp` that defines the exit predicate of \p L's one exiting block
  /// (in that block); null when there is none.
  const Instr *soleExitSetp(const Loop &L) const;
  void computeTripCounts();
  std::optional<double> countedTripThrough(Loop &L, unsigned ExitBlock);
  int exitSetp(Loop &L, unsigned ExitBlock, unsigned Pred) const;
  int exitGuard(const Loop &L, unsigned ExitBlock, bool &ContinueWhen) const;
  std::optional<double> flagTrip(Loop &L, unsigned Guard,
                                 bool ContinueWhen) const;
  std::optional<int64_t> constOutside(const Loop &L, const Operand &O,
                                      unsigned At0 = 0) const;
  /// The instruction that copies register \p R into \p Op's register in
  /// loop \p L (its only definition there, an unguarded mov or integer cvt
  /// of R, or of such a copy of R, up to three hops); -1 when \p Op is no
  /// such copy (nvcc's header copy of a counter whose test reads it before
  /// the step: `header: mov X, R; latch: add R, X, 4`; clang's round trip
  /// `cvt.s64.s32 %rd, %r; cvt.u32.u64 %x, %rd; add.s32 %r, %x, %ntid`).
  int loopCopyOf(const Loop &L, const Operand &Op, int R) const;
  /// The one instruction in loop \p L that defines register \p Reg; -1
  /// when none or several do.
  int soleLoopDef(const Loop &L, int Reg) const;
  /// The bytes (units) register \p R moves per pass of \p L: 0 when no
  /// instruction of L defines it; the sum of steps of its one definition
  /// there (the loop's counter `add R, R, C`, copies, sums, products and
  /// shifts by constants); none otherwise. A start the data sets (a CSR
  /// row's first element) does not matter.
  std::optional<int64_t> stepPerPass(unsigned R, const Loop &L,
                                     unsigned Depth = 0) const;
  /// Increments that step their IV through a chain of adds (traceIV): the
  /// adds in the chain and the operand index of the added value.
  mutable std::map<unsigned, std::pair<unsigned, unsigned>> ChainedSteps;
  /// \p OffsetCopy: the compared value may also be a copied counter plus
  /// an offset (`add %c, %i, 2; setp %c, 5; ... mov %i, %n` with `add %n,
  /// %i, 1`), tried when neither side is a counter otherwise (the other
  /// side may then be the counter's own successor, wrap-bound.ptx).
  bool traceIV(const Loop &L, const Operand &O, int &IV, int &IncIdx,
               int64_t &Offset, int &ChangeIdx, unsigned At0 = 0,
               bool OffsetCopy = false) const;
  std::optional<int64_t> ivStart(const Loop &L, unsigned IV,
                                 unsigned At0 = 0) const;
  std::optional<int64_t> startAfterLoop(const Loop &L, unsigned IV,
                                        unsigned At0, unsigned Depth) const;
  /// Where block \p B's conditional branch goes for the representative
  /// thread (\p At0): the successor, when its predicate is a constant there.
  std::optional<unsigned> branchGoes(unsigned B, unsigned At0) const;
  /// Loop \p L does not run: a conditional branch that dominates its header
  /// (a rotated loop's first test, `if (n > 0)` around it, an unrolled
  /// loop's `n < U` guard) goes, at \p At0, where the header cannot be
  /// reached without passing that branch again. Sets L.Skipped and
  /// L.ExitDesc to say so.
  bool skippedByGuard(Loop &L, unsigned At0) const;
  std::optional<SmallVector<int64_t, 4>>
  ivStarts(const Loop &L, unsigned IV, unsigned At0 = 0,
           unsigned Depth = 0, bool SkipDead = false) const;
  /// Definition \p K of \p L's counter \p IV (outside L) runs and reaches
  /// L's header: a path from the entry to it and on to the header, not
  /// through another unguarded definition, where every branch whose
  /// predicate is a constant (stated arguments; no thread substitution)
  /// goes only its way (branchGoes).
  bool liveInto(const Loop &L, unsigned IV, unsigned K) const;
  /// Per block, the successor its branch takes whatever the thread, block
  /// or enclosing pass (a predicate of constants and stated arguments);
  /// -1 where none (computeTripCounts).
  std::vector<int> ConstSucc;

  int regId(StringRef Name) const {
    auto It = RegIds.find(Name);
    return It == RegIds.end() ? -1 : static_cast<int>(It->second);
  }
  void regsOf(const Operand &O, SmallVectorImpl<unsigned> &Out) const {
    auto Add = [&](StringRef N) {
      int Id = regId(N);
      if (Id >= 0)
        Out.push_back(static_cast<unsigned>(Id));
    };
    switch (O.Kind) {
    case Operand::Reg:
      Add(O.Name);
      for (StringRef R : O.Regs)
        Add(R);
      break;
    case Operand::Addr:
      if (O.BaseIsReg)
        Add(O.Name);
      break;
    case Operand::Vec:
    case Operand::List:
    case Operand::Sym: // `_|p`: the sink, then a predicate (elect.sync).
      for (StringRef R : O.Regs)
        Add(R);
      break;
    default:
      break;
    }
  }
  bool hasDef(const Instr &I) const {
    return !I.Ops.empty() && !isStoreLike(I.Mods[0]) &&
           !(I.Mods[0] == "wmma" && I.Mods.size() > 1 &&
             I.Mods[1] == "store") &&
           !(I.Mods[0] == "mbarrier" && I.Ops[0].Kind == Operand::Addr);
  }
  void defsOf(const Instr &I, SmallVectorImpl<unsigned> &Out) const {
    if (hasDef(I))
      regsOf(I.Ops[0], Out);
  }
  void usesOf(const Instr &I, SmallVectorImpl<unsigned> &Out) const {
    for (size_t K = hasDef(I) ? 1 : 0; K < I.Ops.size(); ++K)
      regsOf(I.Ops[K], Out);
    if (hasDef(I) && I.Ops[0].Kind == Operand::Addr)
      regsOf(I.Ops[0], Out);
    if (!I.Guard.empty()) {
      int Id = regId(I.Guard);
      if (Id >= 0)
        Out.push_back(Id);
    }
  }
  /// \p U and \p D cleared, then the registers \p I reads and writes.
  void usesAndDefs(const Instr &I, SmallVectorImpl<unsigned> &U,
                   SmallVectorImpl<unsigned> &D) const {
    U.clear();
    D.clear();
    usesOf(I, U);
    defsOf(I, D);
  }
  AbsVal valOf(const Operand &O) const {
    switch (O.Kind) {
    case Operand::Imm:
      return AbsVal::constant(O.Value);
    case Operand::FImm:
    case Operand::Sym:
      return AbsVal::uniform();
    case Operand::Reg: {
      int Id = regId(O.Name);
      if (Id >= 0)
        return Vals[Id];
      return specialVal(O.Name);
    }
    default:
      return AbsVal::top();
    }
  }
  unsigned taintOf(const Operand &O) const {
    if (O.Kind == Operand::Reg) {
      int Id = regId(O.Name);
      return Id >= 0 ? Taints[Id] : specialTaint(O.Name);
    }
    if (O.Kind == Operand::Addr && O.BaseIsReg) {
      int Id = regId(O.Name);
      return Id >= 0 ? Taints[Id] : 0;
    }
    return 0;
  }
  static AbsVal specialVal(StringRef N) {
    if (N == "%tid.x" || N == "%laneid")
      return AbsVal::affine(1);
    if (N.starts_with("%tid") || N.starts_with("%ntid") ||
        N.starts_with("%ctaid") || N.starts_with("%nctaid") ||
        N.starts_with("%warpid") || N.starts_with("%nwarpid") ||
        N.starts_with("%smid") || N.starts_with("%cluster") ||
        N.starts_with("%is_explicit_cluster"))
      return AbsVal::uniform();
    return AbsVal::top();
  }
  static unsigned specialTaint(StringRef N) {
    return StringSwitch<unsigned>(N)
        .Case("%tid.x", TTidX)
        .Case("%tid.y", TTidY)
        .Case("%tid.z", TTidZ)
        .Case("%laneid", TLane)
        .StartsWith("%ntid", TNTid)
        .StartsWith("%nctaid", TNCtaId)
        .Case("%ctaid.x", TCtaId | TCtaIdX)
        .Case("%ctaid.y", TCtaId | TCtaIdY)
        .Case("%ctaid.z", TCtaId | TCtaIdZ)
        .StartsWith("%ctaid", TCtaId)
        .Default(0);
  }
  AbsVal eval(const Instr &I) const;
  AbsVal opVal(const Instr &I, size_t K) const;
  /// For an `ld.local` of a slot that exactly one `st.local` of the
  /// function writes (at the same base and offset, with no store through
  /// another base that could alias it): the stored operand. A `volatile`
  /// scalar that clang keeps in memory (CLBlast's `volatile int tid`) is
  /// read back as the value it was given.
  const Operand *localSlotValue(const Instr &Ld) const;
  /// The (depot symbol, byte offset) a local address names, through the
  /// single definitions of its base (`mov %SPL, __local_depot0`, `cvta`,
  /// `add` of an immediate); none when the address is computed otherwise.
  std::optional<std::pair<StringRef, int64_t>>
  localSlot(const Operand &Addr) const;
  std::optional<std::pair<StringRef, int64_t>>
  regSlot(StringRef Reg, unsigned Depth) const;
  /// The function's `st.local`s by slot, made once (localSlotValue()):
  /// the operand stored, or null when the slot is written more than once,
  /// predicated or as a vector. Unusable when a store's address is not a
  /// known slot or the stores name several depots.
  struct LocalStoreMap {
    bool Usable = true;
    StringRef Depot;
    std::map<int64_t, const Operand *> BySlot;
  };
  mutable std::optional<LocalStoreMap> LocalStores;
  AbsVal allUniform(const Instr &I) const;
  AbsVal evalLoad(const Instr &I) const;
  AbsVal evalAddSub(const Instr &I) const;
  AbsVal evalMulMad(const Instr &I) const;
  bool narrowedShift(const Instr &I, const AbsVal &A) const;
  AbsVal evalIntFold(const Instr &I) const;
  AbsVal evalShl(const Instr &I) const;
  std::optional<int64_t> bfiAsSum(const Instr &I) const;
  bool belowPow2(const Operand &O, int64_t Pos) const;
  /// The user-stated value of the kernel parameter \p I loads
  /// (ld.param [NAME_param_N]), if any. Only whole scalar loads count.
  std::optional<int64_t> paramValue(const Instr &I) const {
    if (!F.IsEntry || Opts.ArgValues.empty() || I.Ops.size() != 2 ||
        I.Ops[1].Kind != Operand::Addr || I.Ops[1].BaseIsReg ||
        I.Ops[1].Value != 0)
      return std::nullopt;
    StringRef Sym = I.Ops[1].Name;
    size_t At = Sym.rfind("_param_");
    unsigned Idx;
    if (At == StringRef::npos || Sym.drop_front(At + 7).getAsInteger(10, Idx))
      return std::nullopt;
    auto It = Opts.ArgValues.find(Idx);
    if (It == Opts.ArgValues.end())
      return std::nullopt;
    return It->second;
  }
};

/// Adds \p From's work, weighted by \p W calls, to \p Into.
void addScaled(FuncSummary &Into, const FuncSummary &From, double W);

} // namespace ptx
} // namespace flipflop

#endif

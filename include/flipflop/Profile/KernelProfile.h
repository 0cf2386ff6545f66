//===- flipflop/Profile/KernelProfile.h - What FlipFlop knows of a kernel -===//
//
// Plain data shared by the IR front end (the pass), the PTX front end
// (flipflop-ptx, the plugin's PTX reader) and the model. No LLVM IR types, so
// the model and the PTX path are testable without building IR.
//
// All work counts are *per thread*, already weighted by loop trip counts.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_PROFILE_KERNELPROFILE_H
#define FLIPFLOP_PROFILE_KERNELPROFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace flipflop {

/// Functional-unit classes of the instruction mix.
enum class OpClass : unsigned {
  FP32,       ///< add/sub/mul/fma/min/max on f32 (an FMA counts once).
  FP64,       ///< f64 arithmetic.
  FP16,       ///< f16/bf16 arithmetic, scalar lanes (packed x2 counts 2).
  Int,        ///< integer add/sub/logic/shift/compare/select/min/max.
  IntMul,     ///< integer multiply, mad, divide/remainder (expanded).
  SFU,        ///< transcendentals, rcp, rsqrt, sqrt (MUFU).
  Conv,       ///< conversions between types.
  Shuffle,    ///< warp shuffles, votes, match, redux.
  Barrier,    ///< bar.sync / __syncthreads and friends.
  AtomicGlobal,
  AtomicShared,
  LoadGlobal,
  StoreGlobal,
  LoadShared,
  StoreShared,
  LoadLocal,
  StoreLocal,
  LoadConst,
  LoadParam,
  LoadGeneric,
  StoreGeneric,
  Branch,
  Tensor,     ///< tensor-core instructions (count); FLOPs in TensorFlops.
  Other,
  NumClasses
};
constexpr unsigned NumOpClasses = static_cast<unsigned>(OpClass::NumClasses);
/// Stable lower-case name ("fp32", "load.global", ...), used in every report.
const char *opClassName(OpClass C);

/// Address spaces as NVPTX numbers them.
enum class AddrSpace : unsigned {
  Generic = 0,
  Global = 1,
  Shared = 3,
  Const = 4,
  Local = 5,
  Param = 101
};

/// How a warp's 32 lanes spread over memory for one access.
enum class AccessPattern : unsigned {
  Uniform,   ///< every lane the same address (broadcast).
  Coalesced, ///< consecutive lanes, consecutive elements.
  Strided,   ///< constant stride larger than the element.
  Unknown    ///< data-dependent (gather/scatter) or not analysable.
};
const char *accessPatternName(AccessPattern P);

/// An address as an affine form, in bytes, of the thread and block indices
/// and the iterations of the loops around the access, with the terms that
/// are the same for the whole block dropped (the array's base, kernel
/// arguments) and so are data-scaled coordinates (docs/MODEL.md,
/// "Data-scaled coordinates"). What a block reads between two reads of the
/// same data follows from it (the model's "Re-reads and the L2 capacity").
struct AddrForm {
  bool Known = false;
  /// The form holds at 1-D blocks only (blockDim.y = blockDim.z = 1):
  /// products of thread indices and block sizes it cannot hold were taken
  /// there (cooperative groups' linear thread rank is threadIdx.x there);
  /// formAtBlock makes it unknown at any other block.
  bool OneD = false;
  std::array<int64_t, 3> Tid{};   ///< Bytes per threadIdx.d.
  std::array<int64_t, 3> Ctaid{}; ///< Bytes per blockIdx.d.
  /// Bytes per blockIdx.d * blockDim.d (an index written with blockDim).
  std::array<int64_t, 3> Global{};
  /// Bytes per blockIdx.d * blockDim.e, e != d, at gvCrossSlot(d, e) (rows
  /// picked by `blockIdx.x * blockDim.y + threadIdx.y`): formAtBlock takes
  /// them into Ctaid at a launch's block.
  std::array<int64_t, 6> Cross{};
  /// threadIdx.x split at the warp (a row a warp): bytes per lane
  /// (threadIdx.x % 32) and per warp of the block (threadIdx.x / 32), kept
  /// at a launch's block (threadTerms), and bytes per blockIdx.x *
  /// (blockDim.x / 32) and per blockDim.x / 32, which formAtBlock takes
  /// into Ctaid and the offset.
  int64_t Lane = 0, Warp = 0, CtaidWarps = 0, Warps = 0;
  /// Bytes per blockDim.d (`x[i + blockDim.x]`, the copies of an unrolled
  /// block-stride loop): an offset that follows the block (formAtBlock).
  std::array<int64_t, 3> Ntid{};
  /// The loops around the access, innermost first: their trip counts and
  /// bytes per iteration (0: the address does not change with the loop).
  unsigned NumLoops = 0;
  std::array<double, 4> LoopTrip{1, 1, 1, 1};
  std::array<int64_t, 4> LoopStep{};
  /// Which loop: equal ids are one loop (within one profile).
  std::array<unsigned, 4> LoopId{};
  /// d + 1 for a block-stride loop (`i += blockDim.d`), 0 otherwise: it
  /// steps LoopStep bytes per thread along d each iteration, and LoopTrip
  /// is the passes of a block one thread wide along d (the elements it
  /// covers); formAtBlock takes both at a launch's block.
  std::array<uint8_t, 4> LoopPerBlockDim{};
  /// For a grid-stride loop (`r += gridDim.x`), the launch dimensions of
  /// its step (bit d: gridDim.d, bit 3 + d: blockDim.d), 0 otherwise: it
  /// steps LoopStep bytes per unit of the step each iteration, LoopTrip is
  /// the units it covers (LoopRecord::GridStrideElements) and LoopRefTrip
  /// the passes the profile counted; formAtBlock takes them at the launch.
  std::array<uint8_t, 4> LoopPerGrid{};
  std::array<double, 4> LoopRefTrip{1, 1, 1, 1};
  /// Which array (0: none known) and the constant bytes past it: two loads
  /// of one form, array and offset read the same data (a loop the compiler
  /// unrolled into copies).
  unsigned Array = 0;
  int64_t Offset = 0;
};

/// \p F at block \p Block: its blockDim terms (AddrForm::Ntid) in the
/// offset, its blockIdx.d * blockDim.e terms (AddrForm::Cross) in Ctaid,
/// and its block-stride loops (AddrForm::LoopPerBlockDim) each
/// stepping LoopStep x Block[d] bytes, ceil(LoopTrip / Block[d]) times.
/// \p RefShare, where given, is set to the passes the profile counted at
/// its reference block (PTXReferenceBlockThreads x 1 x 1) over those of
/// \p Block (LoopTrip / Block[d], a part of a pass where the block is wider
/// than the range): the access's counts are the reference's, and over it
/// they are the launch's.
/// Grid-stride loops (AddrForm::LoopPerGrid) step their step at the
/// launch's \p Grid (where given and known, else as many passes as the
/// profile counted), ceil(LoopTrip / step) times.
AddrForm formAtBlock(const AddrForm &F, const std::array<unsigned, 3> &Block,
                     double *RefShare = nullptr,
                     const std::array<unsigned, 3> *Grid = nullptr);

/// Whether \p F has terms that formAtBlock takes at a launch (blockDim
/// terms, blockIdx.d * blockDim.e, warps a block, block- or grid-stride
/// loops): without them it is the same at every launch.
bool followsLaunch(const AddrForm &F);

/// The thread terms of \p F at block \p Block, as (bytes per step, steps):
/// threadIdx.d over the block, and a threadIdx.x split at the warp
/// (AddrForm::Lane, AddrForm::Warp) as the lanes of a warp and the warps of
/// the block. Terms of no bytes are left out.
std::vector<std::pair<double, double>>
threadTerms(const AddrForm &F, const std::array<unsigned, 3> &Block);

/// One static memory access in the kernel.
struct MemAccess {
  AddrSpace Space = AddrSpace::Global;
  bool IsStore = false;
  bool IsAtomic = false;
  bool ReadOnly = false;     ///< __ldg / ld.global.nc / invariant.
  unsigned Bytes = 4;        ///< Bytes per lane (vector width included).
  double Count = 1;          ///< Executions per thread (loop weighted).
  AccessPattern Pattern = AccessPattern::Unknown;
  int64_t StrideBytes = 0;   ///< Address delta between adjacent lanes.
  /// A split thread index (t % LaneMod, t / LaneMod: a flattened thread id
  /// cut into rows of a tile): when nonzero, lane t's address is
  /// StrideBytes * (t % LaneMod) + LaneDivStrideBytes * (t / LaneMod) past
  /// the warp's base (laneOffsetBytes()); 0 for a plain stride.
  unsigned LaneMod = 0;
  int64_t LaneDivStrideBytes = 0;
  /// Bytes the address moves per threadIdx.y and threadIdx.z step (a shared
  /// tile's row pitch), when the front end found them (RowStepsKnown):
  /// lanes of one warp in different rows of the block are that far apart,
  /// which decides their shared-memory banks (sharedWork). Without them the
  /// model continues the x stride over the linear thread index.
  std::array<int64_t, 2> RowStepBytes{};
  bool RowStepsKnown = false;
  bool LoopInvariant = false; ///< Same address on every iteration.
  double SectorsPerRequest = 0; ///< 32-byte sectors per warp request.
  /// Shared: serialisation degree (1 = none) for 32 distinct lanes; the
  /// model recounts the ways for each block shape (sharedWork) and keeps
  /// this figure only for unknown patterns.
  unsigned BankConflictWays = 1;
  /// Shared, unknown pattern: BankConflictWays counted lane by lane at each
  /// pass of the loop around it, whose passes move the lanes' stride (the
  /// PTX front end's loopBankWays).
  bool WaysByPass = false;
  /// Bit d set: the address depends on blockIdx.d (0 unknown/none);
  /// bit 3 (AddrDependsOnData): on loaded data (a gather).
  unsigned BlockDims = 0;
  /// Bit d set: the address depends on threadIdx.d; ThreadDimsKnown false
  /// when the front end does not say (then no in-block reuse is assumed).
  unsigned ThreadDims = 0;
  bool ThreadDimsKnown = false;
  /// Other blocks read the same data (the address misses a blockIdx
  /// dimension the kernel's other accesses use, e.g. a GEMM operand panel):
  /// most of its traffic hits in L2 rather than DRAM.
  bool ReusedAcrossBlocks = false;
  /// Bytes of the array the access indexes, where the front end knows them
  /// (a module-scope global variable of declared size: a lookup table such
  /// as libdevice's sin/cos coefficients); 0 unknown. No request touches
  /// more of its sectors, and a small one stays in L1 and L2 (docs/MODEL.md,
  /// "Small tables").
  uint64_t FootprintBytes = 0;
  /// The bounds checks (KernelProfile::Guards) it runs behind, where the
  /// front end knows them (the PTX's): the threads that pass them make it.
  std::vector<unsigned> Guards;
  unsigned Line = 0;         ///< Source line (0 unknown).
  /// Accesses with the same nonzero BaseId address BaseId's pointer plus
  /// their constant Offset (bytes): siblings that fill each other's stride
  /// gaps hit in L1 (the model counts their lines once).
  unsigned BaseId = 0;
  int64_t Offset = 0;
  /// The address as a form of indices and loop iterations (PTX front end).
  AddrForm Form;
  /// Bytes the address moves per iteration of the innermost loop around
  /// the access (0: unknown or it does not move) and that loop's trip
  /// count: a loop that steps a coalesced run by less than its length
  /// reads mostly what its previous pass brought into L1.
  int64_t InnerLoopStep = 0;
  double InnerLoopTrip = 0;
  /// A data-scaled coordinate in the address (docs/MODEL.md, "Data-scaled
  /// coordinates"): bit d set when it follows threadIdx.d (which ThreadDims
  /// then leaves out), and the mean bytes it moves the address per
  /// threadIdx.d step where a bound on it was found (0: none). Rows of a
  /// warp read that far apart, not the same elements.
  unsigned SmoothDims = 0;
  std::array<double, 3> SmoothStepBytes{};
  /// A bulk asynchronous copy's side (TMA, `cp.async.bulk`): the copy
  /// engine moves the bytes, past the LSU (no load/store instruction) and
  /// the L1. Count holds them as the PTX front end's bulkIssue says: the
  /// issuing threads' copies behind their checks (Guards), or the block's
  /// bytes over its threads (docs/MODEL.md, "Bulk copies").
  bool Bulk = false;
};

/// A loop and how its trip count was found.
struct LoopRecord {
  unsigned Depth = 1;
  unsigned Line = 0;
  double Trip = 1;           ///< Trip count used for weighting.
  bool Exact = false;        ///< Constant trip count.
  bool Guessed = false;      ///< Default used (symbolic, unresolved).
  /// The remainder loop of a loop the compiler unrolled at run time, whose
  /// guessed count follows its main loop's (one guess per source loop).
  bool UnrollRemainder = false;
  std::string Symbolic;      ///< e.g. "n / blockDim.x" when not constant.
  std::string DependsOn;     ///< In words: "kernel argument #3, blockDim".
  bool DependsOnBlockDim = false; ///< Trip count scales with 1/blockDim.
  /// A block-stride loop's step spans the block's threads of these
  /// dimensions (bit d: blockDim.d in the step, `i += blockDim.x` with the
  /// rows of a 2-D block along y); 0 when not known (all of them).
  unsigned BlockStrideDims = 0;
  bool GridStride = false;   ///< Grid-stride loop (trip ~ N / (grid*block)).
  /// A grid-stride loop's elements N, from the stated arguments: its count
  /// when the grid is one thread (0 when not known). The model takes it
  /// for the problem size in threads where none is stated.
  double GridStrideElements = 0;
  /// A grid-stride loop whose counter steps by the grid's blocks along x,
  /// not its threads, to a bound that does not read blockDim (`for (r =
  /// blockIdx.x; r < rows; r += gridDim.x)`, a block per row at a time,
  /// the block's threads sharing the row in loops of their own):
  /// GridStrideElements counts units of a block (rows, the count with one
  /// block in the grid), and each block runs GridStrideElements / gridDim
  /// passes of it (the model's gridPlan).
  bool GridStrideBlocks = false;
  /// A grid-stride loop's step spans the launched threads of these
  /// dimensions (bit d: blockDim.d * gridDim.d in the step); 0 when not
  /// known (all). Threads along the others repeat the range: `o[y * N +
  /// i]` with i stepped by blockDim.x * gridDim.x runs N elements per row.
  unsigned GridStrideDims = 0;
  /// The trip count follows a block dimension: TripPerBlockDim *
  /// blockDim[TripBlockDim] + TripBlockOffset (e.g. for (j = 0; j <
  /// blockDim.y; ++j), also once unrolled); -1 when it does not. Trip then
  /// holds its value at the reference block (256, 1, 1), at least
  /// TripPerBlockDim (it may be below 1: an average over the block), and
  /// the model evaluates it for each configuration.
  int TripBlockDim = -1;
  double TripPerBlockDim = 0, TripBlockOffset = 0;
  /// Share (0..1) of the thread's weighted work inside this loop, nested
  /// loops and calls included; set for loops with TripBlockDim >= 0.
  double WorkShare = 0;
  /// The same share of the thread's global-memory bytes (loads and stores,
  /// Count x Bytes): a block-wide reduction over blockDim.z in shared
  /// memory scales instructions, not DRAM traffic. Negative: not known,
  /// WorkShare stands for it.
  double MemShare = -1;
};

/// Resource facts: exact from ptxas when available, else estimated.
struct Resources {
  unsigned Registers = 0;
  bool RegistersExact = false;   ///< From ptxas -v.
  unsigned EstimatedRegisters = 0; ///< IR/PTX liveness estimate.
  unsigned SpillStoreBytes = 0, SpillLoadBytes = 0;
  unsigned StackFrameBytes = 0;
  unsigned StaticSharedBytes = 0;
  bool UsesDynamicShared = false;
  /// Dynamic shared memory of a block as the user states it (the launch's
  /// third argument): DynamicSharedBytes plus DynamicSharedPerThread per
  /// thread of the block; both 0 with UsesDynamicShared: unknown.
  unsigned DynamicSharedBytes = 0;
  unsigned DynamicSharedPerThread = 0;
  /// The dynamic shared memory of a block of \p Threads threads.
  uint64_t dynamicSharedBytes(uint64_t Threads) const {
    return DynamicSharedBytes + uint64_t(DynamicSharedPerThread) * Threads;
  }
  /// Whether the size is known: not used, or stated.
  bool dynamicSharedKnown() const {
    return !UsesDynamicShared || DynamicSharedBytes || DynamicSharedPerThread;
  }
  unsigned ConstBytes = 0;
  unsigned Barriers = 0;
};

/// Where in the code the register pressure reaches a level: the largest
/// loop weight (executions per thread) of the code whose live values reach
/// \c Pressure registers, as a share of the kernel's largest weight. The
/// steps run from the peak down, each with a larger share than the one
/// before (PTX front end, over the final code; see spillShare()).
struct PressureStep {
  unsigned Pressure = 0;
  double Share = 1;
};

/// The steps of KernelProfile::PressureSteps from (pressure, loop weight)
/// pairs of the code's blocks.
std::vector<PressureStep>
pressureSteps(std::vector<std::pair<unsigned, double>> BlockPressure);

/// What ptxas reported when the kernel was compiled under a register cap
/// (its own .maxnreg), for the caps the recommender considers.
struct CapFact {
  unsigned Cap = 0;
  unsigned Registers = 0;
  unsigned SpillStoreBytes = 0, SpillLoadBytes = 0;
};

/// Without ptxas: the spill bytes ptxas -v would report under any register
/// cap, estimated from the final code (PTX front end; docs/REGISTERS.md,
/// "Under a register cap"). A block of code spills once the cap is below
/// the fewest registers its function can be scheduled in (Fits: values
/// computed as late as their uses allow, loads repeated and cheap values
/// recomputed at their uses); then it spills its peak above the cap in the
/// order ptxas schedules for latency (Peak), in proportion to the share of
/// the values entering and leaving it that it reads and writes (Share), 4
/// bytes an access.
struct SpillCurve {
  struct Block {
    unsigned Fits = 0, Peak = 0;
    double Share = 0;
  };
  bool Known = false;
  std::vector<Block> Blocks; ///< Only those that can spill.
  /// Spill bytes (stores and loads together) with \p Cap registers a thread.
  unsigned bytesAt(unsigned Cap) const;
  /// The fewest registers the code fits in: every cap below it spills.
  unsigned fits() const;
};

/// What holds registers across blocks (PTX front end): the values one block
/// reads that another block loaded (a load's single result; kernel
/// parameters and constants ptxas makes operands are not counted), in the
/// block that reads the most of them, by state space, and the most blocks
/// that read one of them. Many such values read in several blocks are loads
/// the compiler left above the branches that use them (clang's MachineSink
/// moving each guarded result's arithmetic into its guard; FF016).
struct HeldLoads {
  unsigned Values = 0, Shared = 0, Global = 0, Other = 0;
  unsigned Readers = 0;
};

/// Launch bounds the author wrote (0 = absent).
struct LaunchBounds {
  std::array<unsigned, 3> MaxNTid{0, 0, 0};
  std::array<unsigned, 3> ReqNTid{0, 0, 0};
  unsigned MinCTAsPerSM = 0;
  unsigned MaxNReg = 0;
  unsigned maxThreads() const;
  bool any() const;
};

/// A kernel parameter as the PTX declares it (PTX front end only).
struct KernelParam {
  std::string Name;   ///< E.g. "Xgemm_param_0".
  std::string Type;   ///< The PTX type without its dot: "u64", "b8", ...
  uint64_t Bytes = 0; ///< Element size times array length.
};

/// A per-thread array that the optimised IR still keeps in memory, so the
/// compiled kernel holds it in local memory (IR front end only), with what
/// keeps it there: the advice remark FF015 names it.
struct LocalArray {
  uint64_t Bytes = 0;
  std::string Function; ///< The function that holds it (demangled).
  /// The device function it is passed to, which was not inlined
  /// (demangled; "an indirect call"), or empty when it is indexed by a
  /// value known only at run time.
  std::string PassedTo;
};

/// How the kernel depends on its block shape.
struct ShapeInfo {
  bool ReadsBlockDim = false;
  std::array<bool, 3> UsesTid{false, false, false};
  std::array<bool, 3> ReadsNTid{false, false, false};
  bool ReadsGridDim = false;
  /// The code is written for one block shape (threadIdx indexes without
  /// blockDim: a shared tile, a tile copy's loops, constant index
  /// arithmetic); FixedBlock says which when something gives it.
  bool FixedByTile = false;
  std::array<unsigned, 3> FixedBlock{0, 0, 0}; ///< Shape it requires.
  std::string FixedReason;
  /// The smallest constant step of a block-stride loop that starts at
  /// threadIdx.d plus terms without a thread index (`for (r = threadIdx.y;
  /// r < 22; r += 4)`, a tile copy with the block a compile-time constant):
  /// the block's extent along d. 0 = no such loop.
  std::array<unsigned, 3> StrideBlock{0, 0, 0};
  /// The smallest C of an index whose thread terms are `threadIdx.y * C +
  /// threadIdx.x` (both scaled alike, other terms free of thread indices):
  /// a flattened thread id (`ty * 16 + tx`) or a tile row `Tile[ty][tx]`,
  /// whose pitch is at least the block's width. 0 = none.
  unsigned TidPitch = 0;
  /// The block the global stores' address forms are written for
  /// (blockFromStoreForms), {0, 0, 0} when they do not say, and the
  /// evidence in words.
  std::array<unsigned, 3> StoreBlock{0, 0, 0};
  std::string StoreBlockReason;
  /// FixedBlock is the IR front end's inference from a shared tile's
  /// dimensions or __launch_bounds__' thread count, not a fact of the code
  /// (reqntid, block-stride loops, the stores' forms).
  bool FixedGuessed = false;
  /// Work per thread scales with 1/blockDim (block-stride loop inside).
  bool WorkScalesWithBlock = false;
  bool GridStrideLoop = false;
  /// Checks of blockDim against constants whose failing side does no work
  /// (an assert, a trap, an early return): only shapes that pass them run
  /// the kernel's work. 0 = no check on that dimension.
  std::array<unsigned, 3> CheckedDim{0, 0, 0}; ///< blockDim.d == value.
  std::array<unsigned, 3> CheckedMax{0, 0, 0}; ///< blockDim.d <= value.
  std::array<unsigned, 3> CheckedMin{0, 0, 0}; ///< blockDim.d >= value.
  unsigned CheckedThreads = 0; ///< blockDim.x * .y (* .z) == value.
  /// The checks in words, with their lines ("assert(blockDim.x == 256) at
  /// line 12").
  std::vector<std::string> CheckFacts;
  bool anyCheck() const;
  /// True when \p Block passes every check.
  bool passesChecks(const std::array<unsigned, 3> &Block) const;
};

/// Counted loops whose iterations are variables of the affine forms (the
/// first ones in program order; the copies of an unrolled outer loop each
/// have their own inner loop, so a kernel easily has more than four).
constexpr unsigned NumIterSlots = 8;

/// Trip counts of the iteration slots, all 1 (no loop).
inline std::array<double, NumIterSlots> unitIterTrips() {
  std::array<double, NumIterSlots> T;
  T.fill(1);
  return T;
}

/// Variables of an affine guard: threadIdx.d, blockIdx.d, blockIdx.d *
/// blockDim.d (the usual global index), blockIdx.d * blockDim.e for e != d
/// (a row picked by threadIdx.y in blocks of blockDim.y rows: `blockIdx.x
/// * blockDim.y + threadIdx.y`) and blockDim.d, d = x, y, z. The index
/// terms come before GVNtid.
enum GuardVar : unsigned {
  GVTid = 0,     ///< + d
  GVCtaid = 3,   ///< + d
  GVGlobal = 6,  ///< + d: blockIdx.d * blockDim.d
  GVCross = 9,   ///< + gvCrossSlot(d, e): blockIdx.d * blockDim.e, e != d
  GVNtid = 15,   ///< + d
  GVIter = 18,   ///< + k: iteration (0-based) of counted loop k
  /// threadIdx.x split at the warp (address forms only: guards never hold
  /// them): + 0 threadIdx.x % 32, + 1 threadIdx.x / 32, + 2 blockIdx.x *
  /// (blockDim.x / 32), + 3 blockDim.x / 32. A row a warp (`(blockIdx.x *
  /// blockDim.x + threadIdx.x) / 32`) is GVWarp + 2 plus GVWarp + 1.
  GVWarp = GVIter + NumIterSlots,
  NumGuardVars = GVWarp + 4
};

/// The slot (0-5) of blockIdx.\p D * blockDim.\p E, \p E != \p D, past
/// GVCross and in AddrForm::Cross.
constexpr unsigned gvCrossSlot(unsigned D, unsigned E) {
  return 2 * D + (E > D ? E - 1 : E);
}

/// Warps a block as the warp split takes them (GVWarp + 3): blockDim.x /
/// 32, a kernel that splits the block at the warp assuming a multiple of 32.
inline double warpsOfBlock(const std::array<unsigned, 3> &Block) {
  return std::floor(std::max(1u, Block[0]) / 32.0);
}

/// The coefficient of blockIdx.\p D in \p Coef (a guard's or a form's
/// variables) at block \p Block: its own term, blockIdx.d * blockDim.d and
/// the blockIdx.d * blockDim.e terms taken at the block.
inline double blockIdxCoef(const std::array<int64_t, NumGuardVars> &Coef,
                           unsigned D, const std::array<unsigned, 3> &Block) {
  double A = double(Coef[GVCtaid + D]) +
             double(Coef[GVGlobal + D]) * std::max(1u, Block[D]);
  for (unsigned E = 0; E < 3; ++E)
    if (E != D)
      A += double(Coef[GVCross + gvCrossSlot(D, E)]) * std::max(1u, Block[E]);
  // blockIdx.x * warps a block (blockDim.x / 32).
  if (D == 0)
    A += double(Coef[GVWarp + 2]) * warpsOfBlock(Block);
  return A;
}

/// The terms of \p Coef that are the same for every thread of a launch at
/// block \p Block: blockDim.d and warps a block.
inline double blockDimTerms(const std::array<int64_t, NumGuardVars> &Coef,
                            const std::array<unsigned, 3> &Block) {
  double C = double(Coef[GVWarp + 3]) * warpsOfBlock(Block);
  for (unsigned E = 0; E < 3; ++E)
    C += double(Coef[GVNtid + E]) * std::max(1u, Block[E]);
  return C;
}

/// A bounds check on thread and block indices that the kernel's work sits
/// behind: the work runs where sum(Coef[v] * v) + Const < 0 (or <= 0 when
/// not Strict). `if (i < n)` with i = blockIdx.x * blockDim.x + threadIdx.x
/// and n known is {Coef[GVGlobal] = 1, Coef[GVTid] = 1, Const = -n}. The
/// model evaluates the share of threads that pass for each launch.
struct AffineGuard {
  std::array<int64_t, NumGuardVars> Coef{};
  int64_t Const = 0;
  bool Strict = true;
  unsigned Line = 0;
  /// Trip counts of the loops whose iteration GVIter + k stands for.
  std::array<double, NumIterSlots> IterTrip = unitIterTrips();
  /// The check's form holds at 1-D blocks only (AddrForm::OneD: cooperative
  /// groups' warp index `meta_group_rank()`): no check at other blocks.
  bool OneD = false;
  /// Whether it reads a thread index (threadIdx, or the warp split's lane
  /// or warp): a check that picks threads of a block, not blocks.
  bool readsThreads() const {
    return Coef[GVTid] || Coef[GVTid + 1] || Coef[GVTid + 2] || Coef[GVWarp] ||
           Coef[GVWarp + 1];
  }
  /// Whether it is a check at \p Block (not one that holds at 1-D blocks
  /// only, at another).
  bool at(const std::array<unsigned, 3> &Block) const {
    return !OneD || (Block[1] <= 1 && Block[2] <= 1);
  }
};

/// Share of the kernel's (loop-weighted) instructions that run only where
/// all of Guards hold (indices into KernelProfile::Guards).
struct GuardedWork {
  std::vector<unsigned> Guards;
  double Share = 0;
  /// Share of the kernel's (loop-weighted) global-memory bytes behind the
  /// same guards, which scales the memory traffic where Share scales the
  /// instructions; -1 when the front end did not count it (Share then).
  /// The PTX front end weighs the bytes that reach DRAM
  /// (weighGuardedTraffic), which the plugin takes.
  double MemShare = -1;
};

/// Everything FlipFlop knows of one kernel.
struct KernelProfile {
  std::string Name;          ///< Mangled symbol.
  std::string DisplayName;   ///< Demangled where possible.
  std::string File;
  unsigned Line = 0;
  std::string Source = "ir"; ///< "ir", "ptx" or "ir+ptx".

  /// Per-thread dynamic instruction counts by class (loop weighted).
  std::array<double, NumOpClasses> Ops{};
  /// Tensor-core FLOPs per thread (warp-level MMA FLOPs / 32) and the type.
  double TensorFlops = 0;
  std::string TensorType; ///< "f16", "bf16", "tf32", "s8", "f64", "".
  /// Of TensorFlops: Blackwell's tensor-memory MMAs (`tcgen05.mma`), one
  /// thread's issue for the block spread over its threads (PTX front end;
  /// the plugin takes them from the PTX it emits).
  double EngineTensorFlops = 0;
  /// FLOPs per thread (FMA = 2), by precision, excluding tensor cores.
  double Flops32 = 0, Flops64 = 0, Flops16 = 0;
  /// Of Ops[Conv]: conversions to f32 from u8, u16, u32 or s32. Compute
  /// capability 8.6 and later run them as I2FP on the integer pipe, earlier
  /// GPUs as I2F on the conversion pipe (docs/MODEL.md, "Conversions").
  double ConvIntToF32 = 0;

  std::vector<MemAccess> Accesses;
  /// Global loads whose address form is known (collectFormLoads): the
  /// model checks, for each launch, whether an outer loop reads again data
  /// that the L2 still holds, and which bytes neighbouring blocks read
  /// twice. From the PTX (the plugin takes them from the PTX it emits).
  std::vector<MemAccess> FormLoads;
  /// The global, non-atomic stores of known address form (collectFormLoads):
  /// the sectors a block's stores fill between them (PTX facts, for the
  /// plugin as for the loads).
  std::vector<MemAccess> FormStores;
  std::vector<LoopRecord> Loops;
  /// Bounds checks and the work behind them (empty: every launched thread
  /// does all the work). See activeFraction() in the model.
  std::vector<AffineGuard> Guards;
  std::vector<GuardedWork> Guarded;
  /// Every shared access names the checks it runs behind (MemAccess::
  /// Guards): the PTX front end's, and the plugin's where the IR's shared
  /// accesses pair up with the PTX's one by one (Merge.cpp). The model
  /// then counts each behind its own checks (sharedWork, SharedChecks).
  bool SharedChecksKnown = false;

  /// Aggregates derived from Accesses (see finalizeProfile()).
  double GlobalBytesRead = 0;    ///< Requested bytes per thread.
  double GlobalBytesWritten = 0;
  double GlobalSectorBytes = 0;  ///< Bytes moved in 32 B sectors per thread.
  double SharedBytes = 0;        ///< Shared bytes per thread.
  /// Shared accesses x conflict ways / thread, for 32 distinct lanes (the
  /// profile dump; the model uses it only without shared accesses).
  double SharedWavefronts = 0;
  double LocalBytes = 0;         ///< Local (stack/spill) bytes per thread.
  unsigned MaxBankConflictWays = 1;
  double UncoalescedFraction = 0; ///< Of global requests, share not coalesced.

  Resources Res;
  std::vector<CapFact> CapFacts; ///< ptxas under register caps (may be empty).
  /// Without ptxas under a cap: the estimate (not known from the IR alone).
  SpillCurve CapSpills;
  HeldLoads Held; ///< Loaded values held across blocks (not from the IR).
  /// Register pressure against loop weight (empty: not known).
  std::vector<PressureStep> PressureSteps;
  LaunchBounds Bounds;
  /// The entry's parameters in order (PTX front end; empty from the IR).
  std::vector<KernelParam> Params;
  /// Per-thread arrays left in local memory and why (IR front end).
  std::vector<LocalArray> LocalArrays;
  ShapeInfo Shape;

  /// Divergence.
  unsigned DivergentBranches = 0;
  double DivergentWorkFraction = 0; ///< Share of ops under divergent branches.

  /// Parallelism within a thread: independent global loads in flight (MLP)
  /// and independent arithmetic chains (ILP); 1 when unknown.
  double MLP = 1, ILP = 1;

  /// Call graph facts.
  unsigned CallsFollowed = 0;
  bool HasRecursion = false, HasIndirectCalls = false;

  /// What was guessed, in words the explanation can repeat.
  std::vector<std::string> Guesses;
  /// Non-fatal problems found while building the profile.
  std::vector<std::string> Warnings;
  /// Non-empty when the profile could not be built (an internal problem):
  /// no recommendation is made and the reason is reported.
  std::string Internal;

  /// Registers per thread the kernel wants without a cap: ptxas's count when
  /// known, else the estimate, else 32.
  unsigned registersNeeded() const;
  /// The share of the kernel's largest loop weight at which the code runs
  /// that an allocation of \p Regs registers spills: the code whose
  /// estimated pressure exceeds \p Regs (or, when none does, the code at the
  /// peak). 1 when the pressure is not known.
  double spillShare(unsigned Regs) const;
  /// The spill code (stores and loads, in bytes as ptxas -v counts them)
  /// of the compile that runs with \p Regs registers a thread: the
  /// kernel's own when it needs no more, else ptxas's compile under that
  /// cap, else the estimate from the final code (CapSpills). None when
  /// neither is known (the IR alone under a cap).
  struct SpillCode {
    unsigned Bytes = 0;
    bool Ptxas = false; ///< ptxas's report, not the estimate.
  };
  std::optional<SpillCode> spillCodeAt(unsigned Regs) const;
  /// The ptxas fact for exactly \p Cap registers, or nullptr.
  const CapFact *capFact(unsigned Cap) const {
    for (const CapFact &F : CapFacts)
      if (F.Cap == Cap)
        return &F;
    return nullptr;
  }
  double op(OpClass C) const { return Ops[static_cast<unsigned>(C)]; }
  double &op(OpClass C) { return Ops[static_cast<unsigned>(C)]; }
  /// FLOPs per DRAM byte (sectors moved); 0 when no DRAM traffic.
  double arithmeticIntensity() const;
  /// FLOPs per shared-memory byte.
  double sharedIntensity() const;
  /// Total FLOPs per thread including tensor work.
  double totalFlops() const { return Flops32 + Flops64 + Flops16 + TensorFlops; }
};

/// True when the kernel computes the same result for any block size with its
/// grid left as written: its shape is not baked in (no tile, no reqntid) and
/// its threads cover the work by striding (a grid-stride loop, or
/// block-stride loops over a per-block range such as a row). flipflop-apply
/// rewrites launch sites only for such kernels.
/// Whether a loop counted for blocks 0, 1 and 8 (\p T0, \p T1, \p T8) runs
/// about as many passes in every block, so that block 0's count stands for
/// all (both front ends' tripOfFirstBlock): the same in all three (each
/// block's own chunk), or block 8 within 2 passes of block 0's 4 or more (a
/// loop over the problem stepped by a constant, of at least 4 blocks). Not
/// a count that grows or shrinks with the block's index.
inline bool sameInEveryBlock(double T0, double T1, double T8) {
  return (T0 == T1 && T0 == T8) || (T0 >= 4 && T0 - T8 <= 2 && T8 - T0 <= 2);
}

/// Whether the kernel's grid-stride loops step over blocks
/// (LoopRecord::GridStrideBlocks): true when there is at least one and
/// every one does.
inline bool gridStrideByBlocks(const KernelProfile &K) {
  bool Any = false;
  for (const LoopRecord &L : K.Loops)
    if (L.GridStride) {
      if (!L.GridStrideBlocks)
        return false;
      Any = true;
    }
  return Any;
}

/// The dimensions the kernel's grid-stride loops stride over
/// (LoopRecord::GridStrideDims; of those gridStrideElements reads); 0 when
/// unknown or when they differ.
inline unsigned gridStrideDims(const KernelProfile &K) {
  unsigned Dims = 0, Strided = 0;
  bool Same = true;
  const bool Blocks = gridStrideByBlocks(K);
  for (const LoopRecord &L : K.Loops)
    if (L.GridStride && L.GridStrideBlocks == Blocks) {
      Same = Same && (!Strided++ || Dims == L.GridStrideDims);
      Dims = L.GridStrideDims;
    }
  return Same ? Dims : 0;
}

/// The block dimensions the kernel's block-stride loops step over
/// (LoopRecord::BlockStrideDims, all of them together); 7 when one of them
/// does not say.
inline unsigned blockStrideDims(const KernelProfile &K) {
  unsigned Dims = 0;
  for (const LoopRecord &L : K.Loops)
    if (L.DependsOnBlockDim && !L.GridStride)
      Dims |= L.BlockStrideDims ? L.BlockStrideDims : 7u;
  return Dims ? Dims : 7u;
}

/// The elements the kernel's grid-stride loops run over
/// (LoopRecord::GridStrideElements; units of a block where they all step
/// over blocks, gridStrideByBlocks, else those of the loops over the
/// launched threads): several loops over the same elements (a kernel's
/// passes over one array, one after the other) are one problem size; 0
/// when unknown or when they differ (a 2-D nest over rows and columns:
/// each knows only its own extent).
inline double gridStrideElements(const KernelProfile &K) {
  const bool Blocks = gridStrideByBlocks(K);
  double E = 0;
  unsigned Strided = 0;
  bool Same = true;
  for (const LoopRecord &L : K.Loops)
    if (L.GridStride && L.GridStrideBlocks == Blocks) {
      Same = Same && (!Strided++ || E == L.GridStrideElements);
      E = L.GridStrideElements;
    }
  return Same ? E : 0;
}

/// A loop whose count falls with the block's index until it runs out (a
/// loop from the thread's global index to a bound, `for (j = i + 1; j < n;
/// j++)` with i = blockIdx.x * blockDim.x + threadIdx.x, the triangle of a
/// correlation matrix): the mean of \p CountAt (thread 0's count in block
/// B, at the reference block size) over the blocks before it reaches 0,
/// found by doubling and bisection (at most 2^20 blocks), sampled evenly at
/// up to 64 of them; \p Blocks, where given, gets their number. None when
/// a count is unknown, when it rises, or when it does not reach 0 (both
/// front ends; the launched grid is not needed). The blocks that run none
/// are those a guard skips (`j1 < m - 1`, or `blockIdx.x == 0` for a loop of
/// block 0 alone), and the model scales the guarded work by the share of
/// the launch that passes the guard (docs/MODEL.md), so the mean over the
/// blocks that run it is the count to charge them.
std::optional<double> meanOverFallingBlocks(
    llvm::function_ref<std::optional<double>(uint64_t)> CountAt,
    uint64_t *Blocks = nullptr);

/// Shrinking thread checks (both front ends; docs/MODEL.md): the share of
/// a block of \p Threads threads' warps with a thread on each side of a
/// branch, the mean over a loop's \p Passes passes (sampled evenly beyond
/// 64). \p Taken says whether thread T takes the branch at pass P. None
/// when it does not know, or when no pass moves any thread's way (a check
/// the loop does not change is not followed).
struct BranchSideShares {
  double Taken = 0, NotTaken = 0;
};
std::optional<BranchSideShares> warpSideShares(
    uint64_t Passes, unsigned Threads,
    llvm::function_ref<std::optional<bool>(uint64_t Pass, unsigned Thread)>
        Taken);

/// A comparison of a float's magnitude |x| with a constant, as both front
/// ends read it (`fcmp`/`setp` of `fabs`/`abs`, the magnitude on the left).
enum class MagnitudeTest { Less, LessEq, Greater, GreaterEq, Equal, NotEqual };

/// Smallest threshold of a magnitude test taken to be out of the data's
/// range: 2^16. Math libraries send arguments past such a bound to a slow
/// path (libdevice: sinf, cosf, tanf, sincosf at |x| >= 105615, sin, cos,
/// tan at |x| >= 2^31, to a Payne-Hanek argument reduction of a 6-pass
/// loop, table loads and a local array); kernels' data rarely come near it.
constexpr double RareMagnitude = 65536.0;

/// Whether the rare side of a magnitude test (docs/MODEL.md, "Rare
/// branches") is where it holds (true) or where it fails (false); none
/// when neither side is rare. Rare: |x| at or past RareMagnitude, or
/// infinite. Both front ends give the blocks that only the rare side
/// reaches no weight, as they do blocks the stated arguments rule out.
std::optional<bool> rareWhenHolds(MagnitudeTest T, double Threshold);

bool isBlockSizeAgnostic(const KernelProfile &P);

/// Physical bound on a profile's per-thread work: no real kernel issues more
/// than ~1e9 instructions (or loop iterations) per thread in one launch (at
/// 1e9 a thread alone runs for about a second, a full GPU of them for
/// hours). Beyond it a count is an artefact (a wrapped or unresolved trip
/// count), not a figure.
constexpr double MaxPlausibleWorkPerThread = 1e9;

/// Why the counts of \p P are outside physical bounds (a non-finite or
/// negative count, more than MaxPlausibleWorkPerThread instructions or loop
/// iterations per thread), in words; empty when they are within them. The
/// recommender makes no recommendation from such a profile.
std::string implausibility(const KernelProfile &P);

/// True when \p P executes nothing but its return: no arithmetic, memory
/// access, barrier, call or tensor work (CUB's `EmptyKernel`, which every
/// program built with CUB or Thrust carries to query the PTX version, or a
/// kernel whose body the optimizer removed). Every launch of such a kernel
/// costs only the launch overhead, so no block shape, register cap or
/// power setting changes anything and the recommender makes none.
bool doesNoWork(const KernelProfile &P);

/// The threadIdx dimensions that \p P's memory addresses depend on (bit d:
/// threadIdx.d), over the accesses whose dimensions the front end knows;
/// AllKnown when it knows them for every access and there is one.
struct IndexedThreadDims {
  unsigned Dims = 0;
  bool AllKnown = false;
};
IndexedThreadDims indexedThreadDims(const KernelProfile &P);

/// BlockDims bit: the address depends on loaded data.
constexpr unsigned AddrDependsOnData = 8;

/// Marks the global loads whose address misses a blockIdx dimension the
/// kernel's other global accesses use (ReusedAcrossBlocks): every block
/// along that dimension reads the same data, from L2. Both front ends.
void markInterBlockReuse(KernelProfile &P);

/// The block a kernel's stores are written for, read off their address
/// forms, for a kernel that indexes by threadIdx without reading blockDim
/// (`x = blockIdx.x * 128 + threadIdx.x`): along each dimension d the
/// threads use, a store's blockIdx.d step over its threadIdx.d step is the
/// block's extent times the outputs per thread along d, and the offsets
/// between one array's stores (an unrolled tile) and its loops' steps are
/// multiples of the block's extent (`x + i * 128`). The extent is the
/// greatest common divisor of them all, over every store that qualifies.
/// {0, 0, 0} when a used dimension has no such store, the forms disagree
/// or the block would exceed \p MaxThreads (1024 when 0). \p Why gets the
/// evidence in words.
/// The block a kernel written for one shape (ShapeInfo::FixedByTile) that
/// no fact fixes is most likely launched with, from what both front ends
/// read alike: a 2-D index's pitch (ShapeInfo::TidPitch) that divides the
/// launch bounds' \p MaxThreads into rows, or the block-stride loops along
/// all but one used dimension, the bounds giving the last. {0, 0, 0} when
/// neither applies; \p Why gets the evidence in words.
std::array<unsigned, 3> guessTileBlock(const ShapeInfo &S,
                                       unsigned MaxThreads, std::string &Why);

std::array<unsigned, 3> blockFromStoreForms(const KernelProfile &P,
                                            unsigned MaxThreads,
                                            std::string &Why);

/// Whether a block read off the stores (blockFromStoreForms) can be the
/// block of a kernel whose shared tile suggests \p Tile (guessTileBlock):
/// a tile of whole warps holds a whole number of such blocks along each
/// dimension (a tile with a halo proves nothing). The
/// blocks of a ghost-zone kernel overlap (Rodinia's pathfinder: 256 threads
/// a block, each block's outputs 256 - 2 x 20 = 216 apart after 20 steps),
/// so its stores' spacing is not its block.
inline bool storeBlockFitsTile(const std::array<unsigned, 3> &Store,
                               const std::array<unsigned, 3> &Tile) {
  // A tile of whole warps is laid out for the block; one with a halo
  // (B + 2R elements, a stencil's) is not, and says nothing against the
  // stores' spacing.
  uint64_t Threads = 1;
  for (unsigned D = 0; D < 3; ++D)
    Threads *= Tile[D] ? Tile[D] : 1;
  if (!Tile[0] || Threads % 32)
    return true;
  for (unsigned D = 0; D < 3; ++D)
    if (Tile[D] && Store[D] && Tile[D] % Store[D] != 0)
      return false;
  return true;
}

/// Fills P.FormLoads from P.Accesses: the global, non-atomic loads of known
/// address form whose address does not depend on loaded data; and
/// P.FormStores with the stores of the same kind.
void collectFormLoads(KernelProfile &P);

/// Recomputes the aggregate fields of \p P from its accesses.
void finalizeProfile(KernelProfile &P);

/// Sector bytes a thread that the global access \p A moves between the SM
/// and the L2 (its share of KernelProfile::GlobalSectorBytes).
double globalSectorBytes(const MemAccess &A);

/// Sets each GuardedWork::MemShare of \p P to the share of the DRAM
/// traffic (sector bytes of the accesses that reach DRAM, as the model
/// charges them) made by the accesses behind exactly its checks, where
/// every guarded access names them (MemAccess::Guards, the PTX front
/// end's; otherwise the shares stay the front end's). The model scales all
/// global traffic by the share that passes the checks (activeMemoryFraction): a
/// share of the instructions' raw bytes made `if (tid == 0) out[b] = s` after a
/// 4-byte load half the kernel's bytes, so the check scaled the load's DRAM
/// bytes by 0.5 where the store moves one sector a block.
void weighGuardedTraffic(KernelProfile &P);

/// A block's dynamic shared memory as the user writes it: `BYTES`,
/// `PER*t` (bytes per thread of the block) or `BYTES+PER*t`
/// (-flipflop-dynamic-shared, flipflop-ptx --dynamic-shared).
struct DynamicSharedSize {
  unsigned Bytes = 0, PerThread = 0;
};
/// std::nullopt when \p S is none of those forms.
std::optional<DynamicSharedSize> parseDynamicShared(const std::string &S);

/// "4096 B", "8 B per thread", "1024 B + 8 B per thread".
std::string dynamicSharedText(const Resources &R);

/// States \p Size for \p K when it uses dynamic shared memory (the guess
/// that it has none is dropped); kernels without any are left alone.
void stateDynamicShared(KernelProfile &K, const DynamicSharedSize &Size);

/// Merges the facts of the same kernel's PTX (\p PTX, from the PTX front end,
/// possibly with ptxas resources) into an IR profile: exact resources,
/// static shared memory after code generation, and the PTX's warnings. Work
/// and memory counts stay the IR's (its trip counts come from SCEV).
void mergePTXFacts(KernelProfile &Into, const KernelProfile &PTX);

/// Sectors (32 B) touched by one warp request of \p Bytes per lane at
/// \p StrideBytes between lanes, for a full warp of \p Lanes lanes.
double sectorsPerRequest(unsigned Bytes, int64_t StrideBytes,
                         AccessPattern Pattern, unsigned Lanes = 32);
/// Byte offset of thread index \p T's address from thread 0's for a Strided
/// or Coalesced access (MemAccess::LaneMod splits the index).
inline int64_t laneOffsetBytes(const MemAccess &A, uint64_t T) {
  if (A.LaneMod == 0)
    return A.StrideBytes * int64_t(T);
  return A.StrideBytes * int64_t(T % A.LaneMod) +
         A.LaneDivStrideBytes * int64_t(T / A.LaneMod);
}
/// Distinct 32-byte sectors the 32 consecutive thread indices of a warp
/// touch, each reading A.Bytes from laneOffsetBytes().
double laneSectors(const MemAccess &A);
/// Distinct 128-byte lines that thread indices First .. First + N - 1 touch,
/// each reading A.Bytes from laneOffsetBytes(): one L1 pass's wavefronts.
double laneLines(const MemAccess &A, unsigned First, unsigned N);
/// Shared-memory wavefronts of one pass of \p N lanes, lane i reading
/// \p Bytes (1..16) at byte offset \p Offsets[i] (N <= 32): lanes that read
/// one 32-bit word share it, distinct words in one bank serialise.
unsigned passBankWays(const int64_t *Offsets, unsigned N, unsigned Bytes);
/// The bank-conflict degree (as bankConflictWays()) of a split access
/// (MemAccess::LaneMod) for 32 consecutive thread indices.
unsigned laneBankConflictWays(const MemAccess &A);
/// Bank-conflict degree of a shared access with the given lane stride.
unsigned bankConflictWays(unsigned Bytes, int64_t StrideBytes,
                          AccessPattern Pattern, unsigned Banks = 32);

} // namespace flipflop

#endif

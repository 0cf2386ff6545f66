//===- PTXValues.cpp - PTX value and bounds-check analysis ----------------===//
//
// An abstract interpretation of each register (stride in bytes per lane of
// threadIdx.x, constants, which special registers it depends on), affine
// forms of the thread/block indices and induction variables, reaching
// definitions, and the bounds checks (guards) they make.
//
//===----------------------------------------------------------------------===//
#include "PTXAnalysis.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include <algorithm>
#include <functional>
#include <optional>

using namespace llvm;

namespace flipflop {
namespace ptx {

/// A conversion from a type whose name starts with \p From to one that
/// starts with one of \p To (cvt.rzi.s32.f32: to "su", from "f").
static bool isCvtBetween(const Instr &I, StringRef To, char From) {
  SmallVector<StringRef, 2> Types;
  for (size_t K = 1; K < I.Mods.size(); ++K)
    if (typeBits(I.Mods[K]) && I.Mods[K] != "pred")
      Types.push_back(I.Mods[K]);
  return Types.size() == 2 && To.contains(Types[0][0]) && Types[1][0] == From;
}

/// cvt from a floating-point to an integer type (cvt.rzi.s32.f32 etc.).
bool isFloatToInt(const Instr &I) {
  return I.Mods[0] == "cvt" && isCvtBetween(I, "su", 'f');
}

bool isIntToFloat(const Instr &I) {
  return I.Mods[0] == "cvt" &&
         (isCvtBetween(I, "f", 's') || isCvtBetween(I, "f", 'u'));
}

unsigned smoothCoordinateTaint(unsigned T) {
  if (!(T & TMem) || (T & TMemTid))
    return T;
  return (T & ~unsigned(TMem | TTidY | TTidZ | TCtaIdY | TCtaIdZ)) |
         ((T & (TTidY | TTidZ)) ? TSmooth : 0u);
}

AbsVal join(const AbsVal &A, const AbsVal &B) {
  if (A.State == AbsVal::Bottom)
    return B;
  if (B.State == AbsVal::Bottom)
    return A;
  if (A.State == AbsVal::Top || B.State == AbsVal::Top)
    return AbsVal::top();
  if (A.Coef != B.Coef || A.Mod != B.Mod || A.Coef2 != B.Coef2)
    return AbsVal::top();
  AbsVal R = AbsVal::split(A.Mod, A.Coef, A.Coef2);
  if (A.HasConst && B.HasConst && A.Const == B.Const) {
    R.HasConst = true;
    R.Const = A.Const;
  }
  return R;
}

AffVal affCombine(const AffVal &A, const AffVal &B, int64_t MA, int64_t MB) {
  if (A.State == AffVal::Bottom || B.State == AffVal::Bottom)
    return AffVal();
  if (!A.known() || !B.known())
    return AffVal::top();
  AffVal R = AffVal::constant(0);
  R.Opaque = A.Opaque || B.Opaque;
  R.OneD = A.OneD || B.OneD;
  R.Src = !A.Src ? B.Src : !B.Src || A.Src == B.Src ? A.Src : AffVal::MixedSrc;
  auto Ok = [](int64_t X) { return X > -AffLimit && X < AffLimit; };
  for (unsigned V = 0; V < NumGuardVars; ++V) {
    if (!Ok(A.C[V]) || !Ok(B.C[V]))
      return AffVal::top();
    R.C[V] = MA * A.C[V] + MB * B.C[V];
  }
  if (!Ok(A.K) || !Ok(B.K))
    return AffVal::top();
  R.K = MA * A.K + MB * B.K;
  return R;
}

/// A * B when one side is a constant, or blockIdx.d * blockDim.d.
/// 2^k for the largest k such that every coefficient and the constant of
/// \p A are multiples of 2^k: the low k bits of its value are zero (the
/// guard variables are integers). 2^62 for zero.
int64_t lowZeroSpan(const AffVal &A) {
  if (A.Opaque)
    return 1;
  uint64_t Bits = uint64_t(A.K);
  for (int64_t C : A.C)
    Bits |= uint64_t(C);
  return Bits ? int64_t(Bits & (~Bits + 1)) : int64_t(1) << 62;
}

/// The smallest nonzero coefficient of a form, in magnitude (0: none).
static int64_t smallestStep(const AffVal &A) {
  int64_t Min = 0;
  for (int64_t C : A.C)
    if (C != 0 && (Min == 0 || std::llabs(C) < Min))
      Min = std::llabs(C);
  return Min;
}

/// The largest value of a form over thread indices and loop iterations
/// only, with nonnegative coefficients (threadIdx.x and .y are below 1024,
/// .z below 64: the CUDA limits of a block; iteration k below \p IterTrip
/// [k]); nullopt for any other form.
static std::optional<int64_t>
maxOverThreads(const AffVal &A,
               const std::array<double, NumIterSlots> &IterTrip) {
  if (!A.known() || A.K < 0 || A.Opaque)
    return std::nullopt;
  static constexpr int64_t Limit[3] = {1024, 1024, 64};
  int64_t Max = A.K;
  for (unsigned V = 0; V < NumGuardVars; ++V) {
    if (A.C[V] == 0)
      continue;
    if (A.C[V] < 0 || A.C[V] > AffLimit)
      return std::nullopt;
    if (V >= GVTid && V < GVTid + 3)
      Max += A.C[V] * (Limit[V - GVTid] - 1);
    else if (V == GVWarp || V == GVWarp + 1) // A lane; a warp of a block.
      Max += A.C[V] * 31;
    else if (V == GVWarp + 3) // Warps a block.
      Max += A.C[V] * 32;
    else if (V >= GVIter && V < GVIter + NumIterSlots &&
             IterTrip[V - GVIter] <= AffLimit)
      Max += A.C[V] * (int64_t(IterTrip[V - GVIter]) - 1);
    else
      return std::nullopt;
    if (Max > AffLimit * 1024)
      return std::nullopt; // far beyond any bit a real address sets
  }
  return Max;
}

/// \p A at a 1-D block: threadIdx.y/z 0, blockDim.y/z 1 (their products
/// with blockIdx: blockIdx.d); AffVal::OneD where that changed it.
static AffVal atOneD(const AffVal &A) {
  AffVal R = A;
  for (unsigned D = 1; D < 3; ++D) {
    R.C[GVTid + D] = 0;
    R.K += A.C[GVNtid + D];
    R.C[GVNtid + D] = 0;
    for (unsigned E = 0; E < 3; ++E)
      if (E != D) {
        R.C[GVCtaid + E] += A.C[GVCross + gvCrossSlot(E, D)];
        R.C[GVCross + gvCrossSlot(E, D)] = 0;
      }
  }
  R.OneD = A.OneD || !(R == A);
  return R;
}

static AffVal affMulOf(const AffVal &A, const AffVal &B, bool AtOneD);

AffVal affMul(const AffVal &A, const AffVal &B, bool AtOneD) {
  AffVal R = affMulOf(A, B, AtOneD);
  if (R.known())
    R.OneD = R.OneD || A.OneD || B.OneD;
  return R;
}

static AffVal affMulOf(const AffVal &A, const AffVal &B, bool AtOneD) {
  if (A.State == AffVal::Bottom || B.State == AffVal::Bottom)
    return AffVal();
  if (!A.known() || !B.known())
    return AffVal::top();
  auto NoVars = [](const AffVal &V) {
    return std::all_of(V.C.begin(), V.C.end(), [](int64_t X) { return X == 0; });
  };
  if (A.Opaque || B.Opaque) {
    // A form with an unknown block-uniform term times a constant stays one
    // (a scaled base is no array's base); times another unknown, it does
    // only when neither side has indices.
    const AffVal &X = B.Opaque ? B : A, &Y = B.Opaque ? A : B;
    AffVal R;
    if (Y.isConst() && Y.K > -AffLimit && Y.K < AffLimit) {
      R = affCombine(X, AffVal::constant(0), Y.K, 0);
    } else if (NoVars(A) && NoVars(B)) {
      R = AffVal::constant(0);
      R.Opaque = true;
    } else {
      return AffVal::top();
    }
    R.Src = A.Src || B.Src ? AffVal::MixedSrc : 0;
    return R;
  }
  for (unsigned D = 0; D < 3; ++D)
    for (unsigned E = 0; E < 3; ++E)
      if ((A.isVar(GVCtaid + D) && B.isVar(GVNtid + E)) ||
          (B.isVar(GVCtaid + D) && A.isVar(GVNtid + E)))
        return AffVal::var(D == E ? GVGlobal + D
                                  : GVCross + gvCrossSlot(D, E));
  if ((A.isVar(GVCtaid) && B.isVar(GVWarp + 3)) ||
      (B.isVar(GVCtaid) && A.isVar(GVWarp + 3)))
    return AffVal::var(GVWarp + 2);
  if (B.isConst() && B.K > -AffLimit && B.K < AffLimit)
    return affCombine(A, AffVal::constant(0), B.K, 0);
  if (A.isConst() && A.K > -AffLimit && A.K < AffLimit)
    return affCombine(B, AffVal::constant(0), A.K, 0);
  // Neither side a constant, but one is at a 1-D block (cooperative
  // groups' rank: `tid.z * ntid.y`, then that plus tid.y times ntid.x; its
  // warps a block, `ntid.x * ntid.y * ntid.z`): the product there.
  if (AtOneD && !A.Opaque && !B.Opaque) {
    AffVal A1 = atOneD(A), B1 = atOneD(B);
    if ((A1.isConst() || B1.isConst()) && (A1.OneD || B1.OneD)) {
      AffVal R = affMul(A1, B1);
      if (R.known())
        R.OneD = true;
      return R;
    }
  }
  return AffVal::top();
}

bool isStoreLike(StringRef Base) {
  return Base == "st" || Base == "red" || Base == "bar" || Base == "barrier" ||
         Base == "bra" || Base == "brx" || Base == "call" || Base == "ret" ||
         Base == "exit" || Base == "prefetch" || Base == "prefetchu" ||
         Base == "cp" || Base == "stmatrix" || Base == "membar" ||
         Base == "fence" || Base == "trap" || Base == "nanosleep" ||
         Base == "sust" || Base == "sured" || Base == "pmevent" ||
         Base == "brkpt" || Base == "griddepcontrol" || Base == "setmaxnreg" ||
         Base == "discard" || Base == "applypriority" || Base == "wgmma" ||
         Base == "stackrestore" || Base == "tensormap";
}

/// The value of an instruction's operand \p K (top when absent).
AbsVal FunctionAnalysis::opVal(const Instr &I, size_t K) const {
  return K < I.Ops.size() ? valOf(I.Ops[K]) : AbsVal::top();
}

/// Uniform when every source operand is, bottom while one is undefined.
AbsVal FunctionAnalysis::allUniform(const Instr &I) const {
  for (size_t K = 1; K < I.Ops.size(); ++K) {
    AbsVal V = valOf(I.Ops[K]);
    if (V.State == AbsVal::Bottom)
      return AbsVal();
    if (!V.uniformV())
      return AbsVal::top();
  }
  return AbsVal::uniform();
}

/// Loads and other instructions whose result comes from memory or other
/// lanes: uniform when the address is.
AbsVal FunctionAnalysis::evalLoad(const Instr &I) const {
  StringRef Base = I.Mods[0];
  if (Base == "ld" && I.hasMod("param")) {
    if (auto V = paramValue(I))
      return AbsVal::constant(*V);
    return AbsVal::uniform();
  }
  if (Base == "ld" && I.hasMod("local")) {
    // Local memory is per thread: a uniform address says nothing of the
    // value, unless the slot's one store says it.
    if (const Operand *V = localSlotValue(I)) {
      if (V->Kind == Operand::Imm)
        return AbsVal::constant(V->Value);
      if (V->Kind == Operand::Reg) {
        int R = regId(V->Name);
        return R >= 0 ? Vals[R] : specialVal(V->Name);
      }
    }
    return AbsVal::top();
  }
  if (Base == "ld" || Base == "ldu") {
    for (const Operand &O : I.Ops)
      if (O.Kind == Operand::Addr) {
        if (!O.BaseIsReg)
          return AbsVal::uniform();
        int R = regId(O.Name);
        AbsVal A = R >= 0 ? Vals[R] : AbsVal::top();
        if (A.State == AbsVal::Bottom)
          return AbsVal();
        return A.uniformV() ? AbsVal::uniform() : AbsVal::top();
      }
  }
  return AbsVal::top();
}

const Operand *FunctionAnalysis::localSlotValue(const Instr &Ld) const {
  if (Ld.Ops.size() < 2 || Ld.Ops[0].Kind != Operand::Reg ||
      Ld.Ops[1].Kind != Operand::Addr)
    return nullptr;
  if (DefSites.size() != RegWidth.size())
    return nullptr; // before analyseValues(): the bases cannot be followed
  if (!LocalStores) {
    LocalStoreMap M;
    for (const Instr *J : Instrs) {
      if (J->Mods.empty() || J->Mods[0] != "st" || !J->hasMod("local") ||
          J->Ops.size() < 2 || J->Ops[0].Kind != Operand::Addr)
        continue;
      auto At = localSlot(J->Ops[0]);
      if (!At || (!M.Depot.empty() && At->first != M.Depot)) {
        M.Usable = false; // an address not known: it may alias any slot
        break;
      }
      M.Depot = At->first;
      bool Single = J->Ops[1].Kind != Operand::Vec && J->Guard.empty();
      auto [It, New] = M.BySlot.try_emplace(At->second,
                                            Single ? &J->Ops[1] : nullptr);
      if (!New)
        It->second = nullptr; // written twice
    }
    LocalStores = std::move(M);
  }
  auto Slot = localSlot(Ld.Ops[1]);
  if (!Slot || !LocalStores->Usable || Slot->first != LocalStores->Depot)
    return nullptr;
  auto It = LocalStores->BySlot.find(Slot->second);
  return It == LocalStores->BySlot.end() ? nullptr : It->second;
}

std::optional<std::pair<StringRef, int64_t>>
FunctionAnalysis::localSlot(const Operand &Addr) const {
  if (Addr.Kind != Operand::Addr)
    return std::nullopt;
  if (!Addr.BaseIsReg)
    return std::make_pair(Addr.Name, Addr.Value);
  auto S = regSlot(Addr.Name, 0);
  if (S)
    S->second += Addr.Value;
  return S;
}

std::optional<std::pair<StringRef, int64_t>>
FunctionAnalysis::regSlot(StringRef Reg, unsigned Depth) const {
  int R = regId(Reg);
  if (Depth > 8 || R < 0 || unsigned(R) >= DefSites.size() ||
      DefSites[R].size() != 1)
    return std::nullopt;
  const Instr &I = *Instrs[DefSites[R][0]];
  if (I.Ops.size() < 2)
    return std::nullopt;
  StringRef Base = I.Mods[0];
  if (Base == "mov" || Base == "cvta") {
    const Operand &O = I.Ops[1];
    if (O.Kind == Operand::Sym)
      return std::make_pair(O.Name, int64_t(0));
    if (O.Kind == Operand::Reg)
      return regSlot(O.Name, Depth + 1);
    return std::nullopt;
  }
  if (Base == "add" && I.Ops.size() == 3) {
    const Operand &A = I.Ops[1], &B = I.Ops[2];
    const Operand *RegOp = A.Kind == Operand::Reg ? &A : &B;
    const Operand *ImmOp = A.Kind == Operand::Imm ? &A : &B;
    if (RegOp->Kind != Operand::Reg || ImmOp->Kind != Operand::Imm)
      return std::nullopt;
    auto S = regSlot(RegOp->Name, Depth + 1);
    if (S)
      S->second += ImmOp->Value;
    return S;
  }
  return std::nullopt;
}

/// MA * A + MB * B of two known values (the constant parts aside); top when
/// they split the thread index differently.
static AbsVal absCombine(const AbsVal &A, const AbsVal &B, int64_t MA,
                         int64_t MB) {
  std::optional<LaneSplit> R = combineLaneSplits(A.lanes(), B.lanes(), MA, MB);
  return R ? AbsVal::lanes(*R) : AbsVal::top();
}

/// \p A % M (Rem) or \p A / M of a plain stride (splitLanes()): the split
/// a tile's rows make of a flattened thread id (`and t, M-1`, `rem t, M`,
/// `shr t, log2 M`, `div t, M`).
static std::optional<AbsVal> absSplit(const AbsVal &A, int64_t M, bool Rem) {
  if (!A.known() || A.Mod || A.HasConst)
    return std::nullopt;
  std::optional<LaneSplit> L = splitLanes(A.Coef, M, Rem);
  return L ? std::optional<AbsVal>(AbsVal::lanes(*L)) : std::nullopt;
}

/// \p A / \p D of a quotient of the lanes, A = C2 * (t / M) with C2
/// dividing D: t / (M * D / C2), the split a second shift or mask makes of
/// a first one (clang writes 4 * (t / 16) as `and (t >> 2), ~3`).
static std::optional<AbsVal> absQuotient(const AbsVal &A, int64_t D) {
  if (!A.known() || !A.Mod || A.HasConst || A.Coef != 0 || A.Coef2 <= 0 ||
      D <= 0 || D % A.Coef2 != 0)
    return std::nullopt;
  int64_t M = int64_t(A.Mod) * (D / A.Coef2);
  if (M > (int64_t(1) << 30))
    return std::nullopt;
  return AbsVal::split(unsigned(M), 0, 1);
}

AbsVal FunctionAnalysis::evalAddSub(const Instr &I) const {
  if (I.hasMod("f32") || I.hasMod("f64") || I.hasMod("f16") ||
      I.hasMod("f16x2") || I.hasMod("bf16") || I.hasMod("bf16x2"))
    return allUniform(I);
  AbsVal A = opVal(I, 1), B = opVal(I, 2);
  if (A.State == AbsVal::Bottom || B.State == AbsVal::Bottom)
    return AbsVal();
  if (!A.known() || !B.known())
    return AbsVal::top();
  bool Sub = I.Mods[0] == "sub";
  AbsVal R = absCombine(A, B, 1, Sub ? -1 : 1);
  if (!R.known())
    return R;
  if (A.HasConst && B.HasConst) {
    R.HasConst = true;
    R.Const = Sub ? A.Const - B.Const : A.Const + B.Const;
  }
  return R;
}

/// Integer mul / mad (low half).
AbsVal FunctionAnalysis::evalMulMad(const Instr &I) const {
  AbsVal A = opVal(I, 1), B = opVal(I, 2);
  if (A.State == AbsVal::Bottom || B.State == AbsVal::Bottom)
    return AbsVal();
  AbsVal P;
  if (!A.known() || !B.known())
    P = AbsVal::top();
  else if (A.HasConst && B.HasConst)
    P = AbsVal::constant(A.Const * B.Const);
  else if (B.HasConst)
    P = absCombine(A, A, B.Const, 0);
  else if (A.HasConst)
    P = absCombine(B, B, A.Const, 0);
  else if (A.uniformV() && B.uniformV())
    P = AbsVal::uniform();
  else
    P = AbsVal::top();
  // A thread or row index times a runtime pitch: lanes or rows far apart
  // (as the IR front end's mulStride; LaneSplit.h, FarRowPitch).
  if (!P.known() && A.known() && B.known() && (A.uniformV() || B.uniformV()))
    if (std::optional<LaneSplit> R =
            scaleByUnknown((A.uniformV() ? B : A).lanes()))
      P = AbsVal::lanes(*R);
  if (I.Mods[0] == "mul")
    return P;
  AbsVal C = opVal(I, 3);
  if (C.State == AbsVal::Bottom)
    return AbsVal();
  if (!P.known() || !C.known())
    return AbsVal::top();
  AbsVal R = absCombine(P, C, 1, 1);
  if (!R.known())
    return R;
  if (P.HasConst && C.HasConst) {
    R.HasConst = true;
    R.Const = P.Const + C.Const;
  }
  return R;
}

/// The integer operation \p I of constants \p X and \p Y (the second
/// operand 0 for a unary one): and, or, xor, shr (by the type's signedness),
/// div, rem, min, max, neg, not. \p ToWidth first cuts 32-bit operands to
/// their width (the address forms); the trip counts' folding takes them as
/// they are.
static std::optional<int64_t> foldIntOp(const Instr &I, int64_t X, int64_t Y,
                                        bool ToWidth) {
  StringRef Base = I.Mods[0];
  bool Wide = I.hasMod("u64") || I.hasMod("s64") || I.hasMod("b64");
  bool U = I.hasMod("u32") || I.hasMod("u64") || I.hasMod("b32") ||
           I.hasMod("b64");
  if (ToWidth && !Wide) {
    X = U ? int64_t(uint32_t(X)) : int64_t(int32_t(X));
    Y = U ? int64_t(uint32_t(Y)) : int64_t(int32_t(Y));
  }
  bool Overflows = X == INT64_MIN && Y == -1;
  if (Base == "and")
    return X & Y;
  if (Base == "or")
    return X | Y;
  if (Base == "xor")
    return X ^ Y;
  if (Base == "shr" && Y >= 0 && Y < (ToWidth && !Wide ? 32 : 63))
    return U ? int64_t(uint64_t(X) >> Y) : X >> Y;
  if (Base == "div" && Y != 0 && !Overflows)
    return X / Y;
  if (Base == "rem" && Y != 0 && !Overflows)
    return X % Y;
  if (Base == "min")
    return std::min(X, Y);
  if (Base == "max")
    return std::max(X, Y);
  if (Base == "neg" && X != INT64_MIN)
    return -X;
  if (Base == "not")
    return ~X;
  return std::nullopt;
}

/// A mask that clears the bits of \p A from \p High up (0: none) changes a
/// warp's lanes alike unless their span crosses a multiple of High, which
/// the lanes of one warp (32 * stride) do for at most 1 warp in 64 when
/// High is 64 such spans: then High is not a cut between lanes.
static bool highCutAboveLanes(const AbsVal &A, uint64_t High) {
  // A quotient of the lanes (C2 * (t / M)) spans at most 32 * C2.
  int64_t Span = A.Mod && A.Coef == 0 ? A.Coef2 : A.Mod ? 0 : A.Coef;
  return High == 0 || High >= (1u << 24) ||
         (Span != 0 && std::llabs(Span) < (int64_t(1) << 24) &&
          uint64_t(64 * 32 * std::llabs(Span)) <= High);
}

/// `bfe.u32 d, a, pos, len`, (a >> pos) mod 2^len, which compilers write
/// for a narrowed quotient (cooperative groups' warp index of a flattened
/// thread rank, `(unsigned short)(rank >> 5)`), is the shift where the bits
/// it drops from pos + len up do not change across a warp's lanes.
bool FunctionAnalysis::narrowedShift(const Instr &I, const AbsVal &A) const {
  if (I.Mods[0] != "bfe" || !I.hasMod("u32") || I.Ops.size() != 4)
    return false;
  AbsVal Pos = opVal(I, 2), Len = opVal(I, 3);
  return Pos.HasConst && Len.HasConst && Pos.Const > 0 && Len.Const > 0 &&
         Pos.Const + Len.Const <= 32 &&
         highCutAboveLanes(A, uint64_t(1) << (Pos.Const + Len.Const));
}

/// Integer constants fold through the rest of the arithmetic (trip counts
/// of unrolled loops over stated arguments: n & ~3, n >> 2, n % 4, ...).
AbsVal FunctionAnalysis::evalIntFold(const Instr &I) const {
  StringRef Base = I.Mods[0];
  AbsVal A = opVal(I, 1),
         B = I.Ops.size() > 2 ? opVal(I, 2) : AbsVal::constant(0);
  if (A.State == AbsVal::Bottom || B.State == AbsVal::Bottom)
    return AbsVal();
  if (A.HasConst && B.HasConst)
    if (std::optional<int64_t> R = foldIntOp(I, A.Const, B.Const, false))
      return AbsVal::constant(*R);
  // A negated index (`neg.s32 %r, %tid.x`: nw's anti-diagonal `t[m - tx +
  // 1][tx + 1]`) moves the other way across the lanes.
  if (Base == "neg" && A.known() && !A.uniformV())
    return absCombine(A, A, -1, 0);
  // The constant on the left of a commutative operation (nvcc's `and.b32
  // %lane, %mask, %tid` with the mask `WARP_SZ - 1` in a register): as on
  // the right.
  if (A.HasConst && !B.HasConst &&
      (Base == "and" || Base == "or" || Base == "xor"))
    std::swap(A, B);
  // Compilers write an add of disjoint bits as `or` (a tile's column into
  // its row base, x | 1 of an even x): in an index it is that add.
  if (Base == "or" && A.known() && B.known() &&
      !(A.uniformV() && B.uniformV()))
    return absCombine(A, B, 1, 1);
  // A flattened thread id split into a tile's rows and columns: t % M,
  // t / M and the forms compilers write them in. Thread indices are taken
  // as nonnegative, so signed division rounds as unsigned does and the sign
  // word of the signed-division idiom (t >> 31) is zero.
  if (B.HasConst && A.known() && !A.uniformV()) {
    int64_t Y = B.Const;
    const int64_t Bits = I.hasMod("u64") || I.hasMod("s64") || I.hasMod("b64")
                             ? 64
                             : 32;
    std::optional<AbsVal> S;
    if (Base == "shr" && Y == Bits - 1 && !A.Mod && A.Coef > 0)
      return AbsVal::constant(0);
    if (Base == "and" && Y > 0 && ((Y + 1) & Y) == 0) {
      S = absSplit(A, Y + 1, true);
    } else if (Base == "and" && Y != 0) {
      // Low bits cleared (t & ~(M-1), high bits beyond any index kept):
      // M * (t / M). A mask that also clears bits from High up (clang
      // narrows it to the bits a thread index can set: `and 4t, 0x1ff00`
      // for 4 * (t & ~63) when t < 1024) changes the warp's lanes alike
      // unless their span crosses a multiple of High, which the lanes of
      // one warp (32 * stride) do for at most 1 warp in 64 when High is
      // 64 such spans: then High is not a cut between lanes.
      uint64_t U = uint64_t(Y);
      if (Bits == 32)
        U &= 0xffffffffu;
      uint64_t LowU = U & (~U + 1), High = U + LowU; // High 0: to bit 63.
      int64_t Low = int64_t(LowU);
      if ((High & (High - 1)) == 0 && highCutAboveLanes(A, High) &&
          Low < (int64_t(1) << 30))
        if ((S = absSplit(A, Low, false)) || (S = absQuotient(A, Low)))
          S = absCombine(*S, *S, Low, 0);
    } else if ((Base == "shr" || narrowedShift(I, A)) && Y > 0 && Y < 31) {
      S = absSplit(A, int64_t(1) << Y, false);
      if (!S)
        S = absQuotient(A, int64_t(1) << Y);
    } else if ((Base == "rem" || Base == "div") && Y > 1) {
      S = absSplit(A, Y, Base == "rem");
      if (!S && Base == "div")
        S = absQuotient(A, Y);
    }
    if (S)
      return *S;
  }
  return allUniform(I);
}

AbsVal FunctionAnalysis::evalShl(const Instr &I) const {
  AbsVal A = opVal(I, 1), B = opVal(I, 2);
  if (A.State == AbsVal::Bottom || B.State == AbsVal::Bottom)
    return AbsVal();
  if (A.known() && B.HasConst && B.Const >= 0 && B.Const < 32) {
    AbsVal R = absCombine(A, A, int64_t(1) << B.Const, 0);
    if (A.HasConst) {
      R.HasConst = true;
      R.Const = A.Const * (int64_t(1) << B.Const);
    }
    return R;
  }
  return allUniform(I);
}

std::optional<bool> FunctionAnalysis::mostLanes(const Operand &Pred) const {
  int P = Pred.Kind == Operand::Reg ? regId(Pred.Name) : -1;
  if (P < 0 || DefSites[P].size() != 1)
    return std::nullopt;
  const Instr &C = *Instrs[DefSites[P].front()];
  if (C.Mods[0] != "setp" || C.Mods.size() != 3 || C.Ops.size() != 3 ||
      (C.Mods[1] != "eq" && C.Mods[1] != "ne") || isFloatType(C.Mods[2]))
    return std::nullopt;
  AbsVal X = valOf(C.Ops[1]), Y = valOf(C.Ops[2]);
  auto Moves = [](const AbsVal &V) {
    return V.known() && !V.Mod && V.Coef != 0;
  };
  if (!((Moves(X) && Y.uniformV()) || (Moves(Y) && X.uniformV())))
    return std::nullopt;
  return C.Mods[1] == "ne";
}

AbsVal FunctionAnalysis::eval(const Instr &I) const {
  StringRef Base = I.Mods[0];
  bool LoadLike = (!I.Ops.empty() && I.Ops[0].Kind == Operand::Vec) ||
                  Base == "ld" || Base == "ldu" || Base == "atom" ||
                  Base == "tex" || Base == "suld" || Base == "ldmatrix" ||
                  Base == "wmma" || Base == "mma" || Base == "shfl";
  if (LoadLike)
    return evalLoad(I);
  if (Base == "mov" || Base == "cvta" || Base == "cvt") {
    AbsVal V = opVal(I, 1);
    if (Base == "cvt" && V.HasConst && I.Mods.size() >= 3 &&
        isFloatType(I.Mods[I.Mods.size() - 2]))
      V.HasConst = false;
    return V;
  }
  if (Base == "add" || Base == "sub")
    return evalAddSub(I);
  if ((Base == "mul" || Base == "mad") && !I.hasMod("hi") && !I.hasMod("f32") &&
      !I.hasMod("f64") && !I.hasMod("f16"))
    return evalMulMad(I);
  // A value clamped at an edge (affEval's address forms say the same): how
  // it moves across most lanes, never a constant.
  if (Base == "selp" && I.Ops.size() == 4)
    if (std::optional<bool> Most = mostLanes(I.Ops[3])) {
      AbsVal V = opVal(I, *Most ? 1 : 2);
      V.HasConst = false;
      return V;
    }
  if ((Base == "min" || Base == "max") && I.Ops.size() == 3 &&
      !I.hasMod("f32") && !I.hasMod("f64")) {
    AbsVal A = opVal(I, 1), B = opVal(I, 2);
    if (A.known() && B.known() && A.uniformV() != B.uniformV())
      return A.uniformV() ? B : A;
  }
  if ((Base == "and" || Base == "or" || Base == "xor" || Base == "shr" ||
       Base == "bfe" || Base == "div" || Base == "rem" || Base == "min" ||
       Base == "max" || Base == "neg" || Base == "not") &&
      !I.hasMod("pred") && !I.hasMod("f32") && !I.hasMod("f64"))
    return evalIntFold(I);
  if (Base == "shl")
    return evalShl(I);
  // A bit-field insertion up to the top bit over a value below 2^pos: an
  // add of disjoint bits.
  if (std::optional<int64_t> Pos = bfiAsSum(I);
      Pos && belowPow2(I.Ops[2], *Pos)) {
    AbsVal A = opVal(I, 1), B = opVal(I, 2);
    if (A.State == AbsVal::Bottom || B.State == AbsVal::Bottom)
      return AbsVal();
    if (A.known() && B.known())
      return absCombine(absCombine(A, A, int64_t(1) << *Pos, 0), B, 1, 1);
  }
  return allUniform(I);
}

/// Whether operand \p O is known below 2^\p Pos from its own arithmetic:
/// an immediate, or one definition that masks (`and` with a mask below it),
/// takes a remainder (`rem.u32` by at most 2^Pos), shifts right far enough
/// (`shr.u32` by 32 - Pos or more), extracts at most Pos bits (`bfe.u32`),
/// in 32 or 64 bits, or zero-extends a value of at most Pos bits
/// (`cvt.u64.u32`).
bool FunctionAnalysis::belowPow2(const Operand &O, int64_t Pos) const {
  const int64_t Lim = int64_t(1) << Pos;
  if (O.Kind == Operand::Imm)
    return O.Value >= 0 && O.Value < Lim;
  int R = O.Kind == Operand::Reg ? regId(O.Name) : -1;
  if (R < 0 || DefSites[R].size() != 1)
    return false;
  const Instr &D = *Instrs[DefSites[R][0]];
  // A zero extension is below 2^(its source's width).
  if (D.Mods[0] == "cvt" && D.Mods.size() >= 3 && D.Guard.empty() &&
      D.Ops.size() == 2) {
    StringRef From = D.Mods.back();
    return (From == "u32" || From == "u16" || From == "u8") &&
           int64_t(typeBits(From)) <= Pos;
  }
  if (D.Guard.size() || D.Ops.size() < 3)
    return false;
  auto Imm = [&](size_t K) -> std::optional<int64_t> {
    if (K < D.Ops.size() && D.Ops[K].Kind == Operand::Imm)
      return D.Ops[K].Value;
    return std::nullopt;
  };
  StringRef Base = D.Mods[0];
  // 32- and 64-bit alike (size_t indices: `and.b64 %rd, %t, 15`).
  const bool Wide = D.hasMod("b64") || D.hasMod("u64");
  const int64_t Width = Wide ? 64 : 32;
  if (Base == "and" && (D.hasMod("b32") || D.hasMod("b64"))) {
    std::optional<int64_t> M = Imm(2) ? Imm(2) : Imm(1);
    return M && *M >= 0 && *M < Lim;
  }
  if (Base == "rem" && (D.hasMod("u32") || D.hasMod("u64")))
    return Imm(2) && *Imm(2) > 0 && *Imm(2) <= Lim;
  if (Base == "shr" && (D.hasMod("u32") || D.hasMod("u64")))
    return Imm(2) && *Imm(2) >= Width - Pos && *Imm(2) < Width;
  if (Base == "bfe" && (D.hasMod("u32") || D.hasMod("u64")) &&
      D.Ops.size() == 4)
    return Imm(3) && *Imm(3) >= 0 && *Imm(3) <= Pos;
  return false;
}

/// The field position of `bfi.b32 d, a, b, pos, len` (or `bfi.b64`;
/// constant pos in 1..30, an index's column) whose field reaches the top
/// bit (pos + len >= the type's width) or holds all of a (a below 2^len),
/// so that d is (a << pos) | (b's low pos bits): an add where b < 2^pos.
/// nvcc writes size_t indices' columns so (`bfi.b64 %rd, %k, (%t & 15), 4,
/// 60`: k * 16 + t % 16).
std::optional<int64_t> FunctionAnalysis::bfiAsSum(const Instr &I) const {
  const bool Wide = I.hasMod("b64");
  if (I.Mods[0] != "bfi" || !(Wide || I.hasMod("b32")) || I.Ops.size() != 5 ||
      I.Ops[3].Kind != Operand::Imm || I.Ops[4].Kind != Operand::Imm)
    return std::nullopt;
  const int64_t Width = Wide ? 64 : 32;
  int64_t Pos = I.Ops[3].Value, Len = I.Ops[4].Value;
  // Positions above 30 are no index's columns, and 2^pos must stay a
  // coefficient the lane and address forms can scale by.
  if (Pos < 1 || Pos > 30 || Len < 1)
    return std::nullopt;
  // A field short of the top bit keeps the old value's bits above it and
  // drops the inserted value's beyond Len: still the sum where both are
  // zero, b below 2^pos (the callers' belowPow2) and a below 2^Len
  // (`bfi.b64 %rd, (cvt.u64.u32 %ctaid.x), (%t & 127), 7, 32`).
  if (Pos + Len < Width && !belowPow2(I.Ops[1], Len))
    return std::nullopt;
  return Pos;
}

void FunctionAnalysis::analyseValues() {
  unsigned NR = RegWidth.size();
  Vals.assign(NR, AbsVal());
  Taints.assign(NR, 0);
  DefSites.assign(NR, {});
  for (unsigned K = 0; K < Instrs.size(); ++K) {
    SmallVector<unsigned, 4> D;
    defsOf(*Instrs[K], D);
    for (unsigned R : D)
      DefSites[R].push_back(K);
  }
  for (unsigned Pass = 0; Pass < 64; ++Pass) {
    bool Changed = false;
    for (const Instr *IP : Instrs) {
      const Instr &I = *IP;
      SmallVector<unsigned, 4> D;
      defsOf(I, D);
      if (D.empty())
        continue;
      AbsVal V = eval(I);
      unsigned T = 0;
      for (size_t K = 1; K < I.Ops.size(); ++K)
        T |= taintOf(I.Ops[K]);
      if (I.Ops[0].Kind == Operand::Addr)
        T |= taintOf(I.Ops[0]);
      StringRef Base = I.Mods[0];
      if (Base == "ld" || Base == "ldu" || Base == "atom" || Base == "tex" ||
          Base == "suld") {
        if (T & (TTidX | TTidY | TTidZ | TLane | TMemTid))
          T |= TMemTid;
        const Operand *Fwd = Base == "ld" && I.hasMod("local")
                                 ? localSlotValue(I)
                                 : nullptr;
        if (Fwd)
          T = taintOf(*Fwd);
        else
          T |= I.hasMod("param") ? TParam : TMem;
      } else if (Base == "cvt" && isFloatToInt(I)) {
        T = smoothCoordinateTaint(T);
      }
      for (unsigned R : D) {
        AbsVal NV = D.size() > 1 && !V.uniformV() ? join(Vals[R], AbsVal::top())
                                                  : join(Vals[R], V);
        if (!(NV == Vals[R])) {
          Vals[R] = NV;
          Changed = true;
        }
        if ((Taints[R] | T) != Taints[R]) {
          Taints[R] |= T;
          Changed = true;
        }
      }
    }
    if (!Changed)
      break;
  }
}

AffVal FunctionAnalysis::affOf(const Operand &O) const {
  if (O.Kind == Operand::Imm)
    return AffVal::constant(O.Value);
  if (O.Kind != Operand::Reg)
    return AffVal::top();
  int Id = regId(O.Name);
  if (Id >= 0) {
    // An induction register read outside its loop where only its start
    // reaches (nvcc reuses a register as a later loop's counter): its
    // value there is the start's, iteration 0.
    if (EvalAt >= 0) {
      auto IV = IVRegs.find(unsigned(Id));
      if (IV != IVRegs.end() && Affs[Id].known() &&
          !Loops[IV->second.Loop].Body.test(InstrBlock[EvalAt]) &&
          reachingDef(unsigned(Id), unsigned(EvalAt)) ==
              int(IV->second.StartDef)) {
        AffVal V = Affs[Id];
        V.C[GVIter + IV->second.Slot] = 0;
        return V;
      }
      // A start read through another such register (`mov R, X`) is
      // followed a few registers deep.
      if (AddrMode && !Affs[Id].known() && SteppedDepth < 4)
        if (int S = steppedStart(unsigned(Id), unsigned(EvalAt)); S >= 0) {
          ++SteppedDepth;
          AffVal V = affEval(*Instrs[S]);
          --SteppedDepth;
          return V;
        }
    }
    return Affs[Id];
  }
  for (unsigned D = 0; D < 3; ++D) {
    char C = "xyz"[D];
    StringRef N = O.Name;
    if (N.consume_front("%") && N.size() >= 3 && N.back() == C) {
      N = N.drop_back();
      if (N == "tid.")
        return AffVal::var(GVTid + D);
      if (N == "ctaid.")
        return AffVal::var(GVCtaid + D);
      if (N == "ntid.")
        return AffVal::var(GVNtid + D);
    }
  }
  return AffVal::top();
}

int FunctionAnalysis::steppedStart(unsigned R, unsigned At) const {
  int Start = -1;
  for (unsigned D : DefSites[R]) {
    const Instr &I = *Instrs[D];
    bool Step = (I.Mods[0] == "add" || I.Mods[0] == "sub") &&
                I.Ops.size() == 3 && I.Ops[1].Kind == Operand::Reg &&
                regId(I.Ops[1].Name) == int(R) &&
                I.Ops[2].Kind == Operand::Imm;
    if (!Step) {
      // One start, or copies of it on the paths around the remainder loop
      // (nvcc sets `mov R, X` on both).
      auto Same = [](const Instr &A, const Instr &B) {
        if (A.Mods != B.Mods || A.Ops.size() != B.Ops.size())
          return false;
        for (size_t K = 0; K < A.Ops.size(); ++K)
          if (A.Ops[K].Kind != B.Ops[K].Kind ||
              A.Ops[K].Name != B.Ops[K].Name ||
              A.Ops[K].Value != B.Ops[K].Value)
            return false;
        return true;
      };
      if (Start >= 0 && !Same(*Instrs[unsigned(Start)], I))
        return -1;
      if (Start < 0)
        Start = int(D);
      continue;
    }
    // The loop around the step: not around the read, and either a
    // remainder loop (`n & 3` passes) or one that cannot reach the read (a
    // read after the main loop sees the whole range stepped, not a few
    // steps).
    bool InLoop = false;
    for (const Loop &L : Loops)
      if (L.Body.test(InstrBlock[D])) {
        if (L.Body.test(InstrBlock[At]) ||
            (!remainderMask(L) && reaches(InstrBlock[D], InstrBlock[At])))
          return -1;
        InLoop = true;
      }
    if (!InLoop)
      return -1;
  }
  if (Start < 0 || DefSites[R].size() < 2)
    return -1;
  for (const Loop &L : Loops)
    if (L.Body.test(InstrBlock[unsigned(Start)]) &&
        !L.Body.test(InstrBlock[At]))
      return -1;
  return Start;
}

std::optional<AffVal> FunctionAnalysis::warpSplit(const Instr &I) const {
  StringRef Base = I.Mods[0];
  if (I.Ops.size() != 3 ||
      (Base != "shr" && Base != "div" && Base != "and" && Base != "rem"))
    return std::nullopt;
  AffVal X = affOf(I.Ops[1]), Y = affOf(I.Ops[2]);
  if (!Y.isConst())
    return std::nullopt;
  return warpSplitOf(Base, X, Y.K, I.hasMod("s32") || I.hasMod("s64"));
}

std::optional<AffVal> FunctionAnalysis::warpSplitOf(StringRef Base,
                                                    const AffVal &X,
                                                    int64_t Y, bool Signed) {
  if (!X.known() || X.Opaque)
    return std::nullopt;
  // Index forms are not negative: their signed shifts and divisions are
  // the unsigned ones, and the sign of the signed-division idiom (`x >> 31`)
  // is zero.
  bool NonNeg = X.K >= 0 && llvm::all_of(X.C, [](int64_t C) { return C >= 0; });
  if (Signed && !NonNeg)
    return std::nullopt;
  bool Split = X.C[GVTid] || X.C[GVGlobal] || X.C[GVNtid] || X.C[GVWarp] ||
               X.C[GVWarp + 1];
  if (!Split)
    return std::nullopt;
  if (Base == "shr" && Signed && (Y == 31 || Y == 63))
    return AffVal::constant(0);
  bool Quot = (Base == "shr" && Y == 5) || (Base == "div" && Y == 32);
  bool Rem = (Base == "and" && Y == 31) || (Base == "rem" && Y == 32);
  if (!Quot && !Rem)
    return std::nullopt;
  // threadIdx.x = 32 * warp + lane, and blockDim.x a multiple of 32 (as a
  // kernel that splits it assumes): blockIdx.x * blockDim.x / 32 is
  // blockIdx.x * warps. One term below 32 (the lane) at most.
  AffVal R = AffVal::constant(0);
  R.OneD = X.OneD;
  unsigned Below = 0;
  for (unsigned V = 0; V < NumGuardVars; ++V) {
    int64_t C = X.C[V];
    if (!C)
      continue;
    if (V == GVTid || V == GVWarp) {
      if (C == 1) {
        ++Below;
        if (Quot && V == GVTid)
          R.C[GVWarp + 1] = 1;
        if (Rem)
          R.C[GVWarp] = 1;
        continue;
      }
    } else if (C == 1 && (V == GVGlobal || V == GVNtid)) {
      if (Quot)
        R.C[V == GVGlobal ? GVWarp + 2 : GVWarp + 3] += 1;
      continue;
    }
    if (C % 32 != 0)
      return std::nullopt;
    if (Quot)
      R.C[V] += C / 32;
  }
  // Without a term below 32, the quotient of the multiples of 32 and the
  // constant is the sum of theirs: the warps a block rounded up, `(ntid.x
  // + 31) / 32` (cooperative groups' meta_group_size), is ntid.x / 32.
  if (Below > 1 || (X.K % 32 != 0 && (Below || !Quot)))
    return std::nullopt;
  if (Quot)
    R.K = llvm::divideFloorSigned(X.K, 32);
  return R;
}

AffVal FunctionAnalysis::affEval(const Instr &I) const {
  StringRef Base = I.Mods[0];
  // The warp split, in the address forms and in the checks (a row a warp:
  // `if (row >= rows) return`).
  if (std::optional<AffVal> Split = warpSplit(I))
    return *Split;
  // A narrowed index: `and X, 2^k - 1` of an X below 2^k (cooperative
  // groups' `(unsigned short)` warp index and warps a block), and `bfe.u32
  // d, X, pos, len` of such, (X >> pos) mod 2^len, whose shift is a split.
  // Thread and warp terms only: a loop's count may be a guess.
  auto Below = [&](const AffVal &V, int64_t Bits) {
    for (unsigned Sl = 0; Sl < NumIterSlots; ++Sl)
      if (V.C[GVIter + Sl])
        return false;
    std::optional<int64_t> Max = maxOverThreads(V, IterTrip);
    return Bits > 0 && Bits < 62 && Max && *Max < (int64_t(1) << Bits);
  };
  if (Base == "and" && I.Ops.size() == 3 && I.hasMod("b32")) {
    AffVal X = affOf(I.Ops[1]), M = affOf(I.Ops[2]);
    if (M.isConst() && M.K > 0 && ((M.K + 1) & M.K) == 0 && X.known() &&
        !X.isConst() && Below(X, llvm::Log2_64(uint64_t(M.K) + 1)))
      return X;
  }
  if (Base == "bfe" && I.hasMod("u32") && I.Ops.size() == 4) {
    AffVal Pos = affOf(I.Ops[2]), Len = affOf(I.Ops[3]);
    if (Pos.isConst() && Len.isConst() && Pos.K == 5)
      if (std::optional<AffVal> Q =
              warpSplitOf("shr", affOf(I.Ops[1]), 5, false);
          Q && Below(*Q, Len.K))
        return *Q;
  }
  if (AddrMode) {
    auto Opaque = [] {
      AffVal V = AffVal::constant(0);
      V.Opaque = true;
      return V;
    };
    // A kernel argument (a base pointer, a pitch) is the same for the whole
    // block; a float converted to an integer is a data-scaled coordinate
    // (its dependence on indices and data is dropped, as in the taints).
    if (Base == "ld" && I.hasMod("param") && !paramValue(I)) {
      AffVal V = Opaque();
      // The argument's name identifies the array.
      size_t H = I.Ops.size() > 1
                     ? size_t(llvm::hash_combine(I.Ops[1].Name, I.Ops[1].Value))
                     : 0;
      V.Src = 1 + unsigned(H % 0x7fffffffu);
      return V;
    }
    if (Base == "cvt" && isFloatToInt(I))
      return Opaque();
    if (Base == "cvta" && I.Ops.size() == 2)
      return affOf(I.Ops[1]);
    // A value clamped at an edge takes one form on all but a lane or so of
    // the warp (as StrideAnalysis reads it in the IR): `max(i - 1, 0)` and
    // `min(i + 1, n - 1)` with a clamp the same for the whole block, and
    // `selp` on a comparison true on at most one lane of a row (`(i == 0)
    // ? c : c - 1`, nvcc's `c + selp(-1, 0, i != 0)`).
    auto AcrossLanes = [](const AffVal &V) {
      return V.C[GVTid] || V.C[GVTid + 1] || V.C[GVTid + 2];
    };
    if ((Base == "min" || Base == "max") && I.Ops.size() == 3) {
      AffVal A = affOf(I.Ops[1]), B = affOf(I.Ops[2]);
      if (A.State == AffVal::Bottom || B.State == AffVal::Bottom)
        return AffVal();
      if (A.known() && B.known() && AcrossLanes(A) != AcrossLanes(B))
        return AcrossLanes(A) ? A : B;
    }
    if (Base == "selp" && I.Ops.size() == 4)
      if (std::optional<bool> Most = mostLanes(I.Ops[3]))
        return affOf(I.Ops[*Most ? 1 : 2]);
    // The address of a variable (a shared tile): the same for the whole
    // block, and its name identifies the array.
    if (Base == "mov" && I.Ops.size() == 2 && I.Ops[1].Kind == Operand::Sym) {
      AffVal V = Opaque();
      V.Src = 1 + unsigned(size_t(llvm::hash_value(I.Ops[1].Name)) %
                           0x7fffffffu);
      return V;
    }
  }
  for (size_t K = 1; K < I.Mods.size(); ++K)
    if (isFloatType(I.Mods[K]) || I.Mods[K] == "pred")
      return AffVal::top();
  auto Op = [&](size_t K) {
    return K < I.Ops.size() ? affOf(I.Ops[K]) : AffVal::top();
  };
  if (Base == "ld" && I.hasMod("param")) {
    if (auto V = paramValue(I))
      return AffVal::constant(*V);
    return AffVal::top();
  }
  if ((Base == "mov" || Base == "cvt") && I.Ops.size() == 2)
    return Op(1);
  if ((Base == "add" || Base == "sub") && I.Ops.size() == 3 && !I.hasMod("cc"))
    return affCombine(Op(1), Op(2), 1, Base == "sub" ? -1 : 1);
  if ((Base == "mul" || Base == "mad") && !I.hasMod("hi") && !I.hasMod("cc")) {
    AffVal P = affMul(Op(1), Op(2), /*AtOneD=*/true);
    return Base == "mul" ? P : affCombine(P, Op(3), 1, 1);
  }
  if (Base == "shl" && I.Ops.size() == 3) {
    AffVal B = Op(2);
    if (B.isConst() && B.K >= 0 && B.K < 32)
      return affMul(Op(1), AffVal::constant(int64_t(1) << B.K));
    return B.State == AffVal::Bottom ? AffVal() : AffVal::top();
  }
  if (Base == "neg" && I.Ops.size() == 2)
    return affCombine(Op(1), AffVal::constant(0), -1, 0);
  if (Base == "or" && I.Ops.size() == 3) {
    // `or X, c` is `add X, c` when c fits in the low bits X is known to
    // have clear (clang writes x + 1 of an even x as x | 1).
    AffVal A = Op(1), B = Op(2);
    if (A.isConst() && !B.isConst())
      std::swap(A, B);
    if (A.State == AffVal::Bottom || B.State == AffVal::Bottom)
      return AffVal();
    if (A.known() && B.isConst() && B.K >= 0 && B.K < lowZeroSpan(A))
      return affCombine(A, B, 1, 1);
    // Two forms with disjoint bits: `or (ctaid.y << 10), tid.y` is the
    // add, as tid.y < 1024 (clang proves it from the range of %tid.y and
    // writes `or disjoint`, which PTX cannot say); so is `or 2 * x, k` of
    // an iteration k of a two-pass loop.
    for (int Swap = 0; Swap < 2; ++Swap, std::swap(A, B)) {
      std::optional<int64_t> Max = maxOverThreads(B, IterTrip);
      if (A.known() && Max && *Max < lowZeroSpan(A))
        return affCombine(A, B, 1, 1);
    }
    // An address form may be off by at most one step of its smallest
    // term (affineFixpoint's join): `or X, c` with c no larger than that
    // step is taken as X + c (exact where X has those bits clear), which
    // is how clang writes the start of a loop after the odd iteration its
    // unrolling peeled (`or tid.y, 1` on the path where tid.y is even).
    if (AddrMode && A.known() && !A.isConst() && B.isConst() && B.K > 0 &&
        B.K <= smallestStep(A))
      return affCombine(A, B, 1, 1);
  }
  // `bfi d, a, b, pos, len` inserting a's low bits at pos up to the top bit
  // over a value b below 2^pos is b + (a << pos): nvcc's `(y << 5) | (t &
  // 31)` of a 32-wide tile's column.
  if (auto Parts = bfiAsSum(I)) {
    AffVal A = Op(1), B = Op(2);
    if (A.State == AffVal::Bottom || B.State == AffVal::Bottom)
      return AffVal();
    std::optional<int64_t> Max = maxOverThreads(B, IterTrip);
    if (A.known() && B.known() &&
        (belowPow2(I.Ops[2], *Parts) ||
         (Max && *Max >= 0 && *Max < (int64_t(1) << *Parts))))
      return affCombine(affMul(A, AffVal::constant(int64_t(1) << *Parts)), B, 1,
                        1);
    return AffVal::top();
  }
  // Constants fold through the rest of the integer arithmetic: a stated
  // argument divided in the signed-division idiom (`(n + (n >>> 31)) >> 1`,
  // a pitch counted in vectors) is a constant of the address.
  static const char *const Folded[] = {"and", "or",  "xor", "shr", "div",
                                       "rem", "min", "max", "not"};
  if (llvm::is_contained(Folded, Base)) {
    AffVal A = Op(1),
           B = I.Ops.size() > 2 ? Op(2) : AffVal::constant(0);
    if (A.State == AffVal::Bottom || B.State == AffVal::Bottom)
      return AffVal();
    if (A.isConst() && B.isConst())
      if (std::optional<int64_t> R = foldIntOp(I, A.K, B.K, true);
          R && *R > -AffLimit && *R < AffLimit)
        return AffVal::constant(*R);
  }
  return AffVal::top();
}

std::pair<int, int> FunctionAnalysis::stepAndStart(const Loop &L,
                                                   unsigned R) const {
  int In = -1, Out = -1;
  if (DefSites[R].size() == 2)
    for (unsigned K : DefSites[R])
      (L.Body.test(InstrBlock[K]) ? In : Out) = int(K);
  return In >= 0 && Out >= 0 ? std::make_pair(In, Out)
                             : std::make_pair(-1, -1);
}

void FunctionAnalysis::analyseAffine() {
  Affs.assign(RegWidth.size(), AffVal());
  // Induction registers of (up to NumIterSlots) counted loops are variables: a
  // register defined once before the loop (its start) and once in it as
  // `add R, R, c` is Start + c * k, k = 0 .. trip - 1 (nvcc keeps several
  // such registers per loop after strength reduction).
  std::map<unsigned, IVInfo> &IVs = IVRegs;
  IVs.clear();
  IterTrip = unitIterTrips();
  unsigned Slot = 0;
  for (unsigned LI = 0; LI < Loops.size(); ++LI) {
    const Loop &L = Loops[LI];
    // Counted loops, and block-stride loops that start at a thread index
    // (their trip is thread 0's, the block's largest; a tile copy's rows).
    bool Counted = L.Rec.Exact || (L.ThreadStart && !L.MultiExit &&
                                   !L.AtRefBlock && L.IVReg >= 0);
    if (Slot == IterTrip.size() || (L.IVReg < 0 && !L.FlagRun) ||
        !Counted || L.Trip < 1)
      continue;
    bool Any = false;
    for (unsigned R = 0; R < RegWidth.size(); ++R) {
      auto [In, Out] = stepAndStart(L, R);
      if (In < 0 || IVs.count(R))
        continue;
      const Instr &D = *Instrs[In];
      if (L.FlagRun) {
        // A flag-run loop: Start on the first pass, the constant a latch
        // sets after it (the latch ends the pass).
        if (D.Mods[0] != "mov" || !D.Guard.empty() || D.Ops.size() != 2 ||
            D.Ops[1].Kind != Operand::Imm ||
            !llvm::is_contained(Blocks[InstrBlock[In]].Succs, L.Header))
          continue;
        AbsVal Start = eval(*Instrs[Out]);
        if (!Start.HasConst)
          continue;
        IVs[R] = {Slot, D.Ops[1].Value - Start.Const, unsigned(Out), LI};
        Any = true;
        continue;
      }
      // `add R, R, c`, or `add R, X, c` with X a copy of R made in the loop.
      auto StepsFrom = [&](const Operand &Op) {
        return (Op.Kind == Operand::Reg && regId(Op.Name) == int(R)) ||
               loopCopyOf(L, Op, int(R)) >= 0;
      };
      if ((D.Mods[0] != "add" && D.Mods[0] != "sub") || D.Ops.size() != 3 ||
          !StepsFrom(D.Ops[1]) || D.Ops[2].Kind != Operand::Imm)
        continue;
      int64_t Step = D.Mods[0] == "sub" ? -D.Ops[2].Value : D.Ops[2].Value;
      IVs[R] = {Slot, Step, unsigned(Out), LI};
      Any = true;
    }
    if (Any)
      IterTrip[Slot++] = L.Trip;
  }
  affineFixpoint();
}

void FunctionAnalysis::affineFixpoint() {
  std::map<unsigned, IVInfo> &IVs = IVRegs;
  for (unsigned Pass = 0; Pass < 16; ++Pass) {
    bool Changed = false;
    auto Set = [&](unsigned R, const AffVal &V) {
      AffVal &Cur = Affs[R];
      AffVal NV = Cur.State == AffVal::Bottom ? V
                  : Cur == V                  ? Cur
                                              : AffVal::top();
      // Address forms only: two definitions that differ by at most one
      // step of their smallest term (a loop's start after the iteration
      // its unrolling peeled: i or i + 1) are one form, at the larger
      // constant. A footprint is off by at most that one step, where
      // without a form every block's reads go to DRAM whole.
      if (AddrMode && NV.State == AffVal::Top && Cur.known() && V.known() &&
          !Cur.isConst() && Cur.C == V.C && Cur.Opaque == V.Opaque &&
          Cur.Src == V.Src && Cur.OneD == V.OneD &&
          std::llabs(Cur.K - V.K) <= smallestStep(Cur)) {
        NV = Cur;
        NV.K = std::max(Cur.K, V.K);
      }
      if (!(NV == Cur)) {
        Cur = NV;
        Changed = true;
      }
    };
    for (auto &[R, IV] : IVs) {
      EvalAt = int(IV.StartDef);
      AffVal Start = affEval(*Instrs[IV.StartDef]);
      EvalAt = -1;
      if (Start.State == AffVal::Bottom)
        continue;
      // The start is set before the loop, where its own iterations are 0:
      // a counter started from another of the loop's counters (`k = j + 1`
      // ahead of the loop, both stepped in it) takes that counter's entry
      // value, not its value in the loop.
      if (Start.known())
        Start.C[GVIter + IV.Slot] = 0;
      AffVal Iter = AffVal::var(GVIter + IV.Slot);
      Set(R, affCombine(Start, Iter, 1, IV.Step));
    }
    for (unsigned K = 0; K < Instrs.size(); ++K) {
      const Instr *IP = Instrs[K];
      SmallVector<unsigned, 4> D;
      defsOf(*IP, D);
      if (D.empty())
        continue;
      EvalAt = int(K);
      AffVal V = D.size() == 1 ? affEval(*IP) : AffVal::top();
      EvalAt = -1;
      if (V.State == AffVal::Bottom)
        continue;
      for (unsigned R : D)
        if (!IVs.count(R))
          Set(R, V);
    }
    if (!Changed)
      break;
  }
}

void FunctionAnalysis::addStridedCounters() {
  unsigned Slot = 0;
  std::vector<bool> Counted(Loops.size(), false);
  for (const auto &[R, IV] : IVRegs) {
    Slot = std::max(Slot, IV.Slot + 1);
    Counted[IV.Loop] = true;
  }
  // A register the loop leaves alone whose value is c * blockDim.d.
  auto PerNtid = [&](const Loop &L, const Operand &Op)
      -> std::optional<std::pair<unsigned, int64_t>> {
    int S = Op.Kind == Operand::Reg ? regId(Op.Name) : -1;
    if (S < 0 || DefSites[S].empty() || !Affs[S].known() || Affs[S].K ||
        Affs[S].Opaque || Affs[S].OneD ||
        llvm::any_of(DefSites[S],
                     [&](unsigned K) { return L.Body.test(InstrBlock[K]); }))
      return std::nullopt;
    std::optional<std::pair<unsigned, int64_t>> Out;
    for (unsigned V = 0; V < NumGuardVars; ++V) {
      if (!Affs[S].C[V])
        continue;
      if (V < GVNtid || V >= GVNtid + 3 || Out)
        return std::nullopt;
      Out = std::make_pair(V - GVNtid, Affs[S].C[V]);
    }
    return Out;
  };
  // A register the loop leaves alone whose value is c times gridDim (and
  // blockDim) along some dimensions, followed through moves, conversions,
  // products and shifts: (bit d gridDim.d, bit 3 + d blockDim.d; c).
  std::function<std::optional<std::pair<unsigned, int64_t>>(
      const Loop &, const Operand &, unsigned)>
      GridShape = [&](const Loop &L, const Operand &Op, unsigned Depth)
      -> std::optional<std::pair<unsigned, int64_t>> {
    if (Op.Kind == Operand::Imm)
      return std::make_pair(0u, Op.Value);
    if (Op.Kind != Operand::Reg || Depth > 6)
      return std::nullopt;
    for (auto [Prefix, Bit] : {std::make_pair("%nctaid.", 1u),
                               std::make_pair("%ntid.", 8u)}) {
      StringRef N = Op.Name;
      if (N.consume_front(Prefix) && N.size() == 1 && N[0] >= 'x' &&
          N[0] <= 'z')
        return std::make_pair(Bit << (N[0] - 'x'), int64_t(1));
    }
    int S = regId(Op.Name);
    if (S < 0 || DefSites[S].size() != 1 ||
        L.Body.test(InstrBlock[DefSites[S].front()]))
      return std::nullopt;
    const Instr &I = *Instrs[DefSites[S].front()];
    StringRef Base = I.Mods[0];
    if (!I.Guard.empty())
      return std::nullopt;
    if ((Base == "mov" || Base == "cvt") && I.Ops.size() == 2 &&
        !isFloatType(I.Mods.back()))
      return GridShape(L, I.Ops[1], Depth + 1);
    if (Base == "mul" && I.Ops.size() == 3 && !I.hasMod("hi")) {
      auto A = GridShape(L, I.Ops[1], Depth + 1),
           B = GridShape(L, I.Ops[2], Depth + 1);
      if (!A || !B || (A->first & B->first))
        return std::nullopt;
      return std::make_pair(A->first | B->first, A->second * B->second);
    }
    if (Base == "shl" && I.Ops.size() == 3 && I.Ops[2].Kind == Operand::Imm &&
        I.Ops[2].Value >= 0 && I.Ops[2].Value < 16) {
      auto A = GridShape(L, I.Ops[1], Depth + 1);
      if (!A)
        return std::nullopt;
      return std::make_pair(A->first, A->second << I.Ops[2].Value);
    }
    return std::nullopt;
  };
  for (unsigned LI = 0; LI < Loops.size() && Slot < IterTrip.size(); ++LI) {
    const Loop &L = Loops[LI];
    if (Counted[LI] || !(L.Trip > 0))
      continue;
    // Counters stepped by a multiple of gridDim: at a stated grid, a
    // block's step (`r += gridDim.x`, counted there, block 0's passes) is a
    // counter of the step's value at that grid; a loop the model takes for
    // grid-stride, over elements it knows, steps the launched threads
    // (blockDim.d * gridDim.d along each dimension, gridPlan), or the
    // launched blocks (LoopRecord::GridStrideBlocks), and is a variable of
    // them.
    if (Opts.Grid[0] || L.Rec.GridStride) {
      bool Any = false;
      for (unsigned R = 0; R < RegWidth.size(); ++R) {
        auto [In, Out] = stepAndStart(L, R);
        if (In < 0 || IVRegs.count(R))
          continue;
        const Instr &D = *Instrs[In];
        if (D.Mods[0] != "add" || D.Ops.size() != 3 ||
            D.Ops[1].Kind != Operand::Reg || D.Ops[2].Kind != Operand::Reg ||
            (regId(D.Ops[1].Name) != int(R) &&
             loopCopyOf(L, D.Ops[1], int(R)) < 0))
          continue;
        auto Shape = GridShape(L, D.Ops[2], 0);
        if (!Shape || !(Shape->first & 7u) || Shape->second <= 0)
          continue;
        if (L.Rec.GridStride) {
          // Over the launched threads, or over blocks (the step's gridDim
          // alone).
          if (!(L.Rec.GridStrideElements > 0) ||
              (Shape->first >> 3) !=
                  (L.Rec.GridStrideBlocks ? 0u : Shape->first & 7u))
            continue;
          IVRegs[R] = {Slot, Shape->second, unsigned(Out), LI, 0,
                       Shape->first};
          Any = true;
          continue;
        }
        int S = regId(D.Ops[2].Name);
        if ((Shape->first & ~7u) || S < 0)
          continue;
        AtStatedGrid = true;
        if (ConstMemo)
          ConstMemo->clear();
        std::optional<int64_t> Step = constAt(unsigned(S), unsigned(In));
        AtStatedGrid = false;
        if (ConstMemo)
          ConstMemo->clear();
        if (!Step || *Step <= 0)
          continue;
        IVRegs[R] = {Slot, *Step, unsigned(Out), LI};
        Any = true;
      }
      if (Any)
        IterTrip[Slot++] =
            L.Rec.GridStride ? L.Rec.GridStrideElements : L.Trip;
      if (Any || L.Rec.GridStride)
        continue;
    }
    bool Any = false;
    for (unsigned R = 0; R < RegWidth.size(); ++R) {
      auto [In, Out] = stepAndStart(L, R);
      if (In < 0 || IVRegs.count(R))
        continue;
      const Instr &D = *Instrs[In];
      if ((D.Mods[0] != "add" && D.Mods[0] != "sub") || D.Ops.size() != 3 ||
          D.Ops[1].Kind != Operand::Reg)
        continue;
      std::optional<std::pair<unsigned, int64_t>> Step = PerNtid(L, D.Ops[2]);
      if (!Step)
        continue;
      // `add R, R, S` (or R's copy in the loop), or the last add of a chain
      // of adds of S back to R: an unrolled loop's copies, k S a pass.
      int64_t Chain = 1;
      for (int Cur = regId(D.Ops[1].Name);
           Cur != int(R) && loopCopyOf(L, D.Ops[1], int(R)) < 0; ++Chain) {
        int CD = Cur >= 0 && D.Mods[0] == "add" && Chain < 16
                     ? soleLoopDef(L, unsigned(Cur))
                     : -1;
        const Instr *C = CD >= 0 ? Instrs[CD] : nullptr;
        if (!C || C->Mods[0] != "add" || C->Ops.size() != 3 ||
            !C->Guard.empty() || C->Ops[1].Kind != Operand::Reg ||
            C->Ops[2].Kind != Operand::Reg || C->Ops[2].Name != D.Ops[2].Name) {
          Chain = 0;
          break;
        }
        Cur = regId(C->Ops[1].Name);
      }
      if (!Chain)
        continue;
      int64_t C = (D.Mods[0] == "sub" ? -1 : 1) * Step->second * Chain;
      IVRegs[R] = {Slot, C, unsigned(Out), LI, Step->first + 1};
      Any = true;
      // The slot's variable, the iteration times blockDim.d, runs over the
      // elements the loop covers at the reference block.
      IterTrip[Slot] =
          L.Trip * (Step->first == 0 ? double(PTXReferenceBlockThreads) : 1.0);
    }
    if (Any)
      ++Slot;
  }
}

void FunctionAnalysis::analyseAddressForms() {
  // Block-stride counters are variables of the forms only: the guards and
  // the values keep their plain induction registers.
  std::map<unsigned, IVInfo> PlainIVs = IVRegs;
  std::array<double, NumIterSlots> PlainTrips = IterTrip;
  addStridedCounters();
  std::vector<AffVal> Saved = std::move(Affs);
  Affs.assign(RegWidth.size(), AffVal());
  AddrMode = true;
  affineFixpoint();
  AddrMode = false;
  AddrAffs = std::move(Affs);
  Affs = std::move(Saved);
  AddrIVRegs = std::move(IVRegs);
  IVRegs = std::move(PlainIVs);
  IterTrip = PlainTrips;
}

AddrForm FunctionAnalysis::addressForm(unsigned R, unsigned BI,
                                       int64_t Offset) const {
  AddrForm Out;
  if (R >= AddrAffs.size() || !AddrAffs[R].known())
    return Out;
  const AffVal &V = AddrAffs[R];
  const auto &Around = Blocks[BI].Loops; // Outer first.
  if (Around.size() > Out.LoopTrip.size())
    return Out;
  // The loop each iteration slot stands for.
  std::array<int, NumIterSlots> SlotLoop;
  std::array<unsigned, NumIterSlots> SlotPerNtid{}, SlotGrid{};
  SlotLoop.fill(-1);
  for (const auto &[Reg, IV] : AddrIVRegs) {
    SlotLoop[IV.Slot] = int(IV.Loop);
    SlotPerNtid[IV.Slot] = IV.PerNtid;
    SlotGrid[IV.Slot] = IV.GridStep;
  }
  for (unsigned Sl = 0; Sl < NumIterSlots; ++Sl) {
    if (V.C[GVIter + Sl] == 0)
      continue;
    // An iteration of a loop that is not around the access (the value a
    // loop left behind) is not a form of this access's iterations.
    if (SlotLoop[Sl] < 0 ||
        std::find(Around.begin(), Around.end(), unsigned(SlotLoop[Sl])) ==
            Around.end())
      return Out;
  }
  Out.Array = V.Src == AffVal::MixedSrc ? 0 : V.Src;
  Out.OneD = V.OneD;
  Out.Offset = V.K + Offset;
  for (unsigned D = 0; D < 3; ++D) {
    Out.Tid[D] = V.C[GVTid + D];
    Out.Ctaid[D] = V.C[GVCtaid + D];
    Out.Global[D] = V.C[GVGlobal + D];
    Out.Ntid[D] = V.C[GVNtid + D];
  }
  for (unsigned S = 0; S < Out.Cross.size(); ++S)
    Out.Cross[S] = V.C[GVCross + S];
  Out.Lane = V.C[GVWarp];
  Out.Warp = V.C[GVWarp + 1];
  Out.CtaidWarps = V.C[GVWarp + 2];
  Out.Warps = V.C[GVWarp + 3];
  for (auto It = Around.rbegin(); It != Around.rend(); ++It) {
    unsigned K = Out.NumLoops++;
    Out.LoopTrip[K] = std::max(1.0, Loops[*It].Trip);
    Out.LoopId[K] = *It;
    for (unsigned Sl = 0; Sl < NumIterSlots; ++Sl)
      if (SlotLoop[Sl] == int(*It) && V.C[GVIter + Sl]) {
        Out.LoopStep[K] = V.C[GVIter + Sl];
        // A block-stride loop: its step and trip follow the block.
        if (unsigned D = SlotPerNtid[Sl]) {
          Out.LoopPerBlockDim[K] = uint8_t(D);
          Out.LoopTrip[K] =
              std::max(0.0, Loops[*It].Trip) *
              (D == 1 ? double(PTXReferenceBlockThreads) : 1.0);
        }
        // A grid-stride loop: over its elements, at the launch's step.
        if (unsigned M = SlotGrid[Sl]) {
          Out.LoopPerGrid[K] = uint8_t(M);
          Out.LoopTrip[K] = Loops[*It].Rec.GridStrideElements;
          Out.LoopRefTrip[K] = std::max(1.0, Loops[*It].Trip);
        }
      }
  }
  Out.Known = true;
  return Out;
}

/// The bounds checks that make predicate \p Reg equal \p Want: a `setp` on
/// two affine forms, or a conjunction of them through and/or/not.pred.
/// False when the condition is not such a conjunction.
bool FunctionAnalysis::predicateGuards(StringRef Reg, bool Want,
                                       SmallVectorImpl<AffineGuard> &Out,
                                       unsigned Depth) const {
  int Pred = regId(Reg);
  if (Pred < 0 || DefSites[Pred].size() != 1 || Depth > 4)
    return false;
  const Instr &D = *Instrs[DefSites[Pred][0]];
  StringRef Base = D.Mods[0];
  auto Sub = [&](const Operand &O, bool W) {
    return O.Kind == Operand::Reg &&
           predicateGuards(O.Name, O.Neg ? !W : W, Out, Depth + 1);
  };
  if (Base == "not" && D.Ops.size() == 2)
    return Sub(D.Ops[1], !Want);
  if ((Base == "and" || Base == "or") && D.hasMod("pred") &&
      D.Ops.size() == 3) {
    // Only conjunctions: and(a, b) wanted true, or(a, b) wanted false.
    if ((Base == "and") != Want)
      return false;
    return Sub(D.Ops[1], Want) && Sub(D.Ops[2], Want);
  }
  if (Base != "setp" || D.Mods.size() != 3 || D.Ops.size() != 3 ||
      !D.Ops[0].Regs.empty() || isFloatType(D.Mods[2]))
    return false;
  // An operand defined earlier in the setp's own block has that value there,
  // whatever other definitions the register has (nvcc reuses registers).
  const unsigned At = DefSites[Pred][0];
  auto Local = [&](const Operand &O) {
    int R = O.Kind == Operand::Reg ? regId(O.Name) : -1;
    auto IV = R >= 0 ? IVRegs.find(R) : IVRegs.end();
    bool InIVLoop =
        IV != IVRegs.end() && Loops[IV->second.Loop].Body.test(InstrBlock[At]);
    if (R < 0 || DefSites[R].size() <= 1 || InIVLoop)
      return affOf(O); // One definition, or an induction variable.
    int Def = reachingDef(R, At);
    AffVal V = Def >= 0 ? affEval(*Instrs[Def]) : AffVal::top();
    if (!V.known())
      if (auto C = constAt(R, At))
        return AffVal::constant(*C);
    return V;
  };
  AffVal E = affCombine(Local(D.Ops[1]), Local(D.Ops[2]), 1, -1);
  // A lane of the warp (threadIdx.x % 32) is no variable of the checks.
  if (!E.known() || E.C[GVWarp])
    return false;
  // A test on blockDim alone is the same for every thread (an unrolled
  // loop's remainder test): loop control, not a bounds check.
  bool ByThread = false;
  for (unsigned V = 0; V < NumGuardVars; ++V)
    ByThread |= E.C[V] && (V < GVNtid || V >= GVIter) && V != GVWarp + 3;
  if (!E.isConst() && !ByThread)
    return false;
  StringRef Cmp = D.Mods[1];
  AffineGuard G;
  G.Line = D.Loc.Line;
  G.OneD = E.OneD;
  if (E.isConst()) {
    // Decided by stated arguments (a remainder loop that n % 4 == 0
    // skips): a guard that always or never holds.
    bool Lt = E.K < 0, Eq = E.K == 0, T;
    if (Cmp == "eq")
      T = Eq;
    else if (Cmp == "ne")
      T = !Eq;
    else if (Cmp == "lt" || Cmp == "lo")
      T = Lt;
    else if (Cmp == "le" || Cmp == "ls")
      T = Lt || Eq;
    else if (Cmp == "gt" || Cmp == "hi")
      T = !Lt && !Eq;
    else if (Cmp == "ge" || Cmp == "hs")
      T = !Lt;
    else
      return false;
    if (Cmp.ends_with("o") || Cmp.ends_with("s") || Cmp == "hi")
      return false;                 // Unsigned: the sign of E.K says nothing.
    G.Const = (T == Want) ? -1 : 1; // -1 < 0 holds, 1 < 0 does not.
    Out.push_back(G);
    return true;
  }
  if (Cmp == "eq" || Cmp == "ne") {
    // Work where E == 0 is the conjunction E <= 0, -E <= 0 (work where
    // E != 0 is no such region): clang's `blockIdx.y == 0` for `blockIdx.y
    // * 2048 + threadIdx.y < 2048`, which threadIdx.y < 1024 reduces to.
    if ((Cmp == "eq") != Want)
      return false;
    G.Coef = E.C;
    G.Const = E.K;
    G.Strict = false;
    G.IterTrip = IterTrip;
    Out.push_back(G);
    for (int64_t &X : G.Coef)
      X = -X;
    G.Const = -G.Const;
    Out.push_back(G);
    return true;
  }
  if (Cmp == "lt" || Cmp == "lo" || Cmp == "le" || Cmp == "ls") {
    G.Strict = Cmp == "lt" || Cmp == "lo";
  } else if (Cmp == "gt" || Cmp == "hi" || Cmp == "ge" || Cmp == "hs") {
    E = affCombine(E, AffVal::constant(0), -1, 0);
    G.Strict = Cmp == "gt" || Cmp == "hi";
  } else {
    return false;
  }
  G.Coef = E.C;
  G.Const = E.K;
  G.IterTrip = IterTrip;
  if (!Want) {
    // The negation of (F < 0) is (-F <= 0), and the other way round.
    for (int64_t &X : G.Coef)
      X = -X;
    G.Const = -G.Const;
    G.Strict = !G.Strict;
  }
  Out.push_back(G);
  return true;
}

/// The one definition of \p R that reaches instruction \p At (-1 when
/// none or several may): the last one before it in its block, else the one
/// in the nearest dominating block when no other definition can reach.
int FunctionAnalysis::reachingDef(unsigned R, unsigned At) const {
  const unsigned UseBlock = InstrBlock[At];
  auto DefinesOnly = [&](unsigned K) {
    SmallVector<unsigned, 2> Ds;
    defsOf(*Instrs[K], Ds);
    return Ds.size() == 1 && Ds[0] == R;
  };
  for (unsigned K = At; K-- > Blocks[UseBlock].Begin;)
    if (std::find(DefSites[R].begin(), DefSites[R].end(), K) !=
        DefSites[R].end())
      return DefinesOnly(K) ? int(K) : -1;
  int Chosen = -1;
  for (unsigned K : DefSites[R]) {
    unsigned B = InstrBlock[K];
    if (B == UseBlock || !dominates(B, UseBlock))
      continue;
    if (Chosen < 0 || dominates(InstrBlock[Chosen], B))
      Chosen = K;
  }
  if (Chosen < 0)
    return -1;
  // Another definition reaches the use unless Chosen overwrites it on
  // every path: an unrolled loop's preheader sets the bound that its
  // remainder's path had set to 0 (llm.c's `(blockDim.x / 32) & 56`).
  // A predicated definition kills nothing.
  int Kills = Instrs[Chosen]->Guard.empty() ? int(InstrBlock[Chosen]) : -1;
  for (unsigned K : DefSites[R])
    if (int(K) != Chosen &&
        (InstrBlock[K] == InstrBlock[Chosen]
             ? K > unsigned(Chosen) || Kills < 0
             : reaches(InstrBlock[K], UseBlock, Kills)))
      return -1;
  return DefinesOnly(Chosen) ? Chosen : -1;
}

/// The integer constant register \p R holds at instruction \p At, following
/// the definitions that reach it (flow-sensitive, unlike Vals).
std::optional<int64_t> FunctionAnalysis::constAt(unsigned R, unsigned At,
                                                 unsigned Depth,
                                                 unsigned At0) const {
  if (Vals[R].HasConst)
    return Vals[R].Const;
  // Deep enough for divisions by constants (multiply-high, shifts, narrow
  // types, twice for a remainder) on top of an index; memoized while trip
  // counts are taken (ConstMemo), so shared subexpressions cost once.
  if (Depth > (ConstMemo ? 64u : 8u))
    return std::nullopt;
  int Def = reachingDef(R, At);
  if (Def < 0)
    return PinLoop ? counterAtPass(R, At, Depth, At0) : std::nullopt;
  if (!ConstMemo)
    return constOf(unsigned(Def), Depth, At0);
  uint64_t Key = (uint64_t(Def) << 8) | (At0 & 0xff);
  if (auto It = ConstMemo->find(Key); It != ConstMemo->end())
    return It->second;
  std::optional<int64_t> V = constOf(unsigned(Def), Depth, At0);
  (*ConstMemo)[Key] = V;
  return V;
}

/// Whether instruction \p K runs once on every pass of \p P: in no loop
/// inside P, and on the way to each of P's latches.
bool FunctionAnalysis::runsOncePerPass(const Loop &P, unsigned K) const {
  unsigned B = InstrBlock[K];
  if (Blocks[B].Loops.size() != Blocks[P.Header].Loops.size())
    return false;
  for (unsigned Pred : Blocks[P.Header].Preds)
    if (P.Body.test(Pred) && !dominates(B, Pred))
      return false;
  return true;
}

/// Register \p R's value at instruction \p At in pass PinPass of PinLoop,
/// where R is one of that loop's counters: defined once in it, on every
/// pass, by an unguarded `add`/`sub R, R, C` with C constant (or a copy of
/// such a sum, or a constant), and outside it by definitions that all give
/// the same constant.
std::optional<int64_t> FunctionAnalysis::counterAtPass(unsigned R, unsigned At,
                                                       unsigned Depth,
                                                       unsigned At0) const {
  const Loop &P = *PinLoop;
  if (At >= InstrBlock.size() || !P.Body.test(InstrBlock[At]))
    return std::nullopt;
  int Inc = -1;
  std::optional<int64_t> Start;
  for (unsigned K : DefSites[R]) {
    if (!P.Body.test(InstrBlock[K])) {
      auto V = constOf(K, Depth + 1, At0);
      if (!V || (Start && *Start != *V))
        return std::nullopt;
      Start = V;
      continue;
    }
    if (Inc >= 0)
      return std::nullopt;
    Inc = int(K);
  }
  if (Inc < 0 || !Start)
    return std::nullopt;
  // It changes once on every pass: in no loop inside P, and on the way to
  // each of P's latches.
  if (!runsOncePerPass(P, unsigned(Inc)))
    return std::nullopt;
  unsigned IB = InstrBlock[Inc], AB = InstrBlock[At];
  bool Stepped = IB == AB ? unsigned(Inc) < At : dominates(IB, AB);
  // Set to a constant on every pass (clang's two-pass loop run by a flag:
  // `mov R, 2` in the latch): the start on the first pass, then that.
  if (const Instr &M = *Instrs[Inc]; M.Guard.empty() && M.Ops.size() == 2 &&
                                     M.Ops[1].Kind == Operand::Imm &&
                                     (M.Mods[0] == "mov" || M.Mods[0] == "cvt"))
    return PinPass == 0 && !Stepped ? *Start : M.Ops[1].Value;
  // nvcc's copy form, `add N, R, 1; ...; mov R, N`: R steps through N.
  int Step = Inc;
  if (const Instr &M = *Instrs[Inc];
      (M.Mods[0] == "mov" || M.Mods[0] == "cvt") && M.Guard.empty() &&
      M.Ops.size() == 2 && M.Ops[1].Kind == Operand::Reg &&
      regId(M.Ops[1].Name) >= 0)
    Step = soleLoopDef(P, regId(M.Ops[1].Name));
  // In the copy form the sum is made before the copy in the pass.
  if (Step < 0 || !runsOncePerPass(P, unsigned(Step)) ||
      (Step != Inc &&
       !(InstrBlock[Step] == InstrBlock[Inc]
             ? Step < Inc
             : dominates(InstrBlock[Step], InstrBlock[Inc]))))
    return std::nullopt;
  const Instr &I = *Instrs[Step];
  StringRef B = I.Mods[0];
  // Shifted by a constant each pass (bitonic sort's `size <<= 1`, whose
  // inner loop halves from size / 2): Start shifted Passes times.
  if ((B == "shl" || B == "shr") && I.Guard.empty() && I.Ops.size() == 3 &&
      I.Ops[1].Kind == Operand::Reg && regId(I.Ops[1].Name) == int(R) &&
      I.Ops[2].Kind == Operand::Imm && I.Ops[2].Value > 0 &&
      I.Ops[2].Value < 64) {
    bool Wide = I.hasMod("b64") || I.hasMod("u64") || I.hasMod("s64");
    unsigned Bits = Wide ? 64 : 32;
    int64_t By = (PinPass + (Stepped ? 1 : 0)) * I.Ops[2].Value;
    if (By >= int64_t(Bits))
      return B == "shr" && I.hasMod(Wide ? "s64" : "s32") && *Start < 0 ? -1
                                                                        : 0;
    uint64_t U = Wide ? uint64_t(*Start) : uint64_t(uint32_t(*Start));
    if (B == "shl")
      return Wide ? int64_t(U << By) : int64_t(int32_t(uint32_t(U << By)));
    if (I.hasMod(Wide ? "s64" : "s32"))
      return Wide ? (*Start >> By) : int64_t(int32_t(*Start) >> By);
    return int64_t(U >> By);
  }
  if ((B != "add" && B != "sub") || !I.Guard.empty() || I.Ops.size() != 3)
    return std::nullopt;
  // R itself, or a copy of it made earlier in the pass (nvcc's `header: mov
  // %c, %r; ...; add %r, %c, 1`, whose copy is an inner loop's bound).
  auto IsR = [&](const Operand &O) {
    if (O.Kind != Operand::Reg)
      return false;
    if (regId(O.Name) == int(R))
      return true;
    int X = loopCopyOf(P, O, int(R));
    return X >= 0 && runsOncePerPass(P, unsigned(X)) &&
           (InstrBlock[X] == InstrBlock[Step]
                ? X < Step
                : dominates(InstrBlock[X], InstrBlock[Step]));
  };
  const Operand *C = IsR(I.Ops[1])                 ? &I.Ops[2]
                     : B == "add" && IsR(I.Ops[2]) ? &I.Ops[1]
                                                   : nullptr;
  if (!C)
    return std::nullopt;
  // A block-stride counter steps by blockDim: its value at the reference
  // block when the substitutions say so.
  auto By = constOutside(P, *C, At0);
  if (!By)
    return std::nullopt;
  // The pass's own step is taken once R has changed before At.
  int64_t Passes = PinPass + (Stepped ? 1 : 0);
  return *Start + Passes * (B == "sub" ? -*By : *By);
}

/// \p V read in \p Bits bits (8, 16, 32; 64 as it is), unsigned or not.
static int64_t narrowTo(int64_t V, unsigned Bits, bool Unsigned) {
  switch (Bits) {
  case 8:
    return Unsigned ? int64_t(uint8_t(V)) : int64_t(int8_t(V));
  case 16:
    return Unsigned ? int64_t(uint16_t(V)) : int64_t(int16_t(V));
  case 32:
    return Unsigned ? int64_t(uint32_t(V)) : int64_t(int32_t(V));
  default:
    return V;
  }
}

/// `setp.CMP.TY X, Y` as the type and the comparison read the bits.
static std::optional<bool> setpHolds(StringRef Cmp, StringRef Ty, int64_t X,
                                     int64_t Y) {
  unsigned Bits = typeBits(Ty);
  if (Bits < 8 || Bits > 64)
    return std::nullopt;
  bool U = Ty.starts_with("u") || Ty.starts_with("b") || Cmp == "lo" ||
           Cmp == "ls" || Cmp == "hi" || Cmp == "hs";
  int64_t A = narrowTo(X, Bits, U), C = narrowTo(Y, Bits, U);
  bool Lt = Bits == 64 && U ? uint64_t(A) < uint64_t(C) : A < C;
  bool Eq = A == C;
  return Cmp == "eq"                  ? std::optional<bool>(Eq)
         : Cmp == "ne"                ? std::optional<bool>(!Eq)
         : Cmp == "lt" || Cmp == "lo" ? std::optional<bool>(Lt)
         : Cmp == "le" || Cmp == "ls" ? std::optional<bool>(Lt || Eq)
         : Cmp == "gt" || Cmp == "hi" ? std::optional<bool>(!Lt && !Eq)
         : Cmp == "ge" || Cmp == "hs" ? std::optional<bool>(!Lt)
                                      : std::nullopt;
}

std::optional<int64_t> FunctionAnalysis::constOf(unsigned Def, unsigned Depth,
                                                 unsigned At0) const {
  const Instr &D = *Instrs[Def];
  for (size_t K = 1; K < D.Mods.size(); ++K)
    if (isFloatType(D.Mods[K]))
      return std::nullopt;
  if (D.Mods[0] == "ld" && D.hasMod("param"))
    return paramValue(D);
  auto Op = [&](size_t K) -> std::optional<int64_t> {
    if (K >= D.Ops.size())
      return std::nullopt;
    const Operand &O = D.Ops[K];
    if (O.Kind == Operand::Imm)
      return O.Value;
    if (O.Kind == Operand::Sym && SymbolsAtZero)
      return 0;
    int Id = O.Kind == Operand::Reg ? regId(O.Name) : -1;
    if (Id >= 0 && SimLoop && SimLoop->Body.test(InstrBlock[Def]))
      if (auto It = SimRegs.find(unsigned(Id)); It != SimRegs.end())
        return It->second;
    if (Id < 0 && UnitGrid && O.Kind == Operand::Reg) {
      StringRef N = O.Name;
      if (N.starts_with("%tid.") || N.starts_with("%ctaid.") ||
          N == "%laneid")
        return 0;
      if (N.starts_with("%ntid.") || N.starts_with("%nctaid."))
        return 1;
    }
    if (Id < 0 && (At0 & AtThread0) && O.Kind == Operand::Reg &&
        (StringRef(O.Name).starts_with("%tid.") || O.Name == "%laneid")) {
      if (At0 & AtTidSetX) {
        if (O.Name == "%tid.x")
          return TidX;
        if (O.Name == "%laneid")
          return TidX % 32;
        return 0;
      }
      for (unsigned Dm = 0; Dm < 3; ++Dm)
        if ((At0 & (AtTid1X << Dm)) && O.Name == std::string("%tid.") + "xyz"[Dm])
          return 1;
      if ((At0 & AtTidLastX) && O.Name == "%tid.x")
        return int64_t(PTXReferenceBlockThreads) - 1;
      return 0;
    }
    if (Id < 0 && BlockIdx >= 0 && O.Kind == Operand::Reg &&
        StringRef(O.Name).starts_with("%ctaid."))
      return BlockIdx;
    if (Id < 0 && (At0 & AtBlock0) && O.Kind == Operand::Reg &&
        StringRef(O.Name).starts_with("%ctaid."))
      return 0;
    if (Id < 0 && AtStatedGrid && O.Kind == Operand::Reg &&
        StringRef(O.Name).starts_with("%nctaid.") && O.Name.size() == 9) {
      unsigned Dm = unsigned(O.Name.back() - 'x');
      if (Dm < 3 && Opts.Grid[Dm])
        return int64_t(Opts.Grid[Dm]);
    }
    if (Id < 0 && (At0 & AtRefBlock) && O.Kind == Operand::Reg &&
        StringRef(O.Name).starts_with("%ntid."))
      return O.Name == "%ntid.x" ? int64_t(PTXReferenceBlockThreads) : 1;
    return Id >= 0 ? constAt(Id, Def, Depth + 1, At0) : std::nullopt;
  };
  StringRef B = D.Mods[0];
  // A product with a zero factor is zero whatever the other (block 0's
  // `blockIdx.x * blockDim.x` needs no blockDim).
  if ((B == "mul" || B == "mad") && D.Ops.size() >= 3 &&
      (D.hasMod("lo") || D.hasMod("wide"))) {
    auto Zero = [&](size_t K) {
      std::optional<int64_t> V = Op(K);
      return V && *V == 0;
    };
    if (Zero(1) || Zero(2)) {
      if (B == "mul")
        return 0;
      if (D.Ops.size() == 4)
        return Op(3);
    }
  }
  auto X = Op(1);
  if (!X)
    return std::nullopt;
  // Values are int64_t. Conversions, comparisons, shifts, max/min and the
  // high and wide products read their operands in the type's width and
  // signedness (Narrow), and give narrow results sign-extended (as PTX
  // prints immediates), but for mul.wide.u*, zero-extended; 8- and 16-bit
  // sums and products wrap; 32-bit add/sub/mul/shl/mad results are left
  // unwrapped, as before (divisions by a constant: `mul.wide.u32 %rd, %r,
  // -1431655765; shr.u64 %rd, %rd, 33; cvt.u32.u64 %r, %rd`, the
  // remainder of a loop unrolled 3 times).
  auto Narrow = narrowTo;
  StringRef Ty = D.Mods.back();
  unsigned Bits = typeBits(Ty);
  bool Unsigned = Ty.starts_with("u") || Ty.starts_with("b");
  // Held form of a result of Bits bits.
  auto Held = [&](int64_t V) { return Narrow(V, Bits, false); };
  if (B == "cvt" && D.Ops.size() == 2 && D.Mods.size() >= 3) {
    StringRef To = D.Mods[D.Mods.size() - 2], From = Ty;
    bool FromU = From.starts_with("u") || From.starts_with("b");
    int64_t V = Narrow(*X, typeBits(From), FromU);
    return Narrow(V, typeBits(To), false);
  }
  if ((B == "mov" || B == "cvt") && D.Ops.size() == 2)
    return X;
  if (B == "neg")
    return -*X;
  if (B == "not")
    return Ty == "pred" ? int64_t(*X == 0) : ~*X;
  // Bit counts of a 32- or 64-bit value (`clz.b32`: the next power of two
  // as `1 << (32 - clz(n - 1))`).
  if ((B == "clz" || B == "popc") && D.Ops.size() == 2 &&
      (Bits == 32 || Bits == 64)) {
    uint64_t V = Bits == 32 ? uint64_t(uint32_t(*X)) : uint64_t(*X);
    if (B == "popc")
      return int64_t(llvm::popcount(V));
    return int64_t(Bits == 32 ? llvm::countl_zero(uint32_t(V))
                              : llvm::countl_zero(V));
  }
  auto Y = Op(2);
  if (!Y)
    return std::nullopt;
  // Sums and products of 8- and 16-bit types wrap in their width (nvcc
  // divides 16-bit remainders by multiplying: `mul.wide.u16`, `shr.u16`,
  // the remainder of a loop unrolled 7 times); 32-bit ones are held as
  // before, unwrapped.
  bool Short = Bits == 8 || Bits == 16;
  if (B == "add")
    return Short ? Held(*X + *Y) : *X + *Y;
  if (B == "sub")
    return Short ? Held(*X - *Y) : *X - *Y;
  // A comparison (1 or 0), as the type and the comparison read the bits.
  if (B == "setp" && D.Mods.size() == 3 && Bits >= 8 && Bits <= 64) {
    std::optional<bool> R = setpHolds(D.Mods[1], Ty, *X, *Y);
    if (!R)
      return std::nullopt;
    return int64_t(*R);
  }
  if (B == "selp" && D.Ops.size() == 4) {
    auto P = Op(3);
    if (!P)
      return std::nullopt;
    return (*P != 0) != D.Ops[3].Neg ? X : Y;
  }
  if ((B == "max" || B == "min") && Bits >= 8 && Bits <= 64) {
    bool U = Ty.starts_with("u");
    int64_t A = Narrow(*X, Bits, U), C = Narrow(*Y, Bits, U);
    bool Less = Bits == 64 && U ? uint64_t(A) < uint64_t(C) : A < C;
    return Held((B == "max") != Less ? A : C);
  }
  // The high half of a product (a division by a constant, clang's form).
  if (B == "mul" && D.hasMod("hi") && (Bits == 16 || Bits == 32)) {
    if (Ty.starts_with("u"))
      return Held(int64_t((uint64_t(Narrow(*X, Bits, true)) *
                           uint64_t(Narrow(*Y, Bits, true))) >> Bits));
    return Held((Narrow(*X, Bits, false) * Narrow(*Y, Bits, false)) >> Bits);
  }
  // A product twice the operands' width (nvcc's division by a constant:
  // `mul.wide.u32 %rd, %r, -1431655765; shr.u64 %rd, %rd, 33`).
  if (B == "mul" && D.hasMod("wide") && (Bits == 16 || Bits == 32)) {
    if (Unsigned)
      return int64_t(uint64_t(Narrow(*X, Bits, true)) *
                     uint64_t(Narrow(*Y, Bits, true)));
    return Narrow(*X, Bits, false) * Narrow(*Y, Bits, false);
  }
  if (B == "mul" && !D.hasMod("hi"))
    return Short ? Held(*X * *Y) : *X * *Y;
  if (B == "mad" && !D.hasMod("hi")) {
    auto Z = Op(3);
    return Z ? std::optional<int64_t>(*X * *Y + *Z) : std::nullopt;
  }
  if (Ty == "pred" && (B == "and" || B == "or" || B == "xor")) {
    bool P = *X != 0, Q = *Y != 0;
    return int64_t(B == "and" ? P && Q : B == "or" ? P || Q : P != Q);
  }
  if (B == "and")
    return *X & *Y;
  if (B == "or")
    return *X | *Y;
  if (B == "xor")
    return *X ^ *Y;
  if (B == "shl" && *Y >= 0 && *Y < 63)
    return *X << *Y;
  // Quotients and remainders (a block's share of the input, n / gridDim.x),
  // in the type's width and signedness; never by zero.
  if ((B == "div" || B == "rem") && Bits >= 16 && Bits <= 64) {
    int64_t A = Narrow(*X, Bits, Unsigned), C = Narrow(*Y, Bits, Unsigned);
    // Never by zero, and not the one signed quotient that overflows.
    int64_t Min = Bits == 64 ? INT64_MIN : -(int64_t(1) << (Bits - 1));
    if (C == 0 || (!Unsigned && C == -1 && A == Min))
      return std::nullopt;
    if (Unsigned && Bits == 64) {
      uint64_t UA = uint64_t(A), UC = uint64_t(C);
      return int64_t(B == "div" ? UA / UC : UA % UC);
    }
    return Held(B == "div" ? A / C : A % C);
  }
  if (B == "shr" && *Y >= 0 && *Y < 63) {
    // .u and .b shift in zeros, .s the sign, in the type's width.
    if (Bits == 64)
      return Unsigned ? int64_t(uint64_t(*X) >> *Y) : *X >> *Y;
    return Held(Narrow(*X, Bits, Unsigned) >> *Y);
  }
  return std::nullopt;
}

std::optional<bool> FunctionAnalysis::rareWhenPredicate(StringRef Reg,
                                                        unsigned At,
                                                        unsigned Depth) const {
  int P = regId(Reg);
  int Def = P >= 0 ? reachingDef(P, At) : -1;
  if (Def < 0)
    return std::nullopt;
  const Instr &D = *Instrs[Def];
  // A part's answer, its '!' applied.
  auto Part = [&](const Operand &O) -> std::optional<bool> {
    if (O.Kind != Operand::Reg || Depth >= 4)
      return std::nullopt;
    std::optional<bool> R = rareWhenPredicate(O.Name, Def, Depth + 1);
    return R ? std::optional<bool>(*R != O.Neg) : std::nullopt;
  };
  if (D.Mods[0] == "not" && D.Ops.size() == 2) {
    std::optional<bool> R = Part(D.Ops[1]);
    return R ? std::optional<bool>(!*R) : std::nullopt;
  }
  // and: rare where one part is rare when it holds; or: where one part is
  // rare when it fails.
  if ((D.Mods[0] == "and" || D.Mods[0] == "or") && D.hasMod("pred") &&
      D.Ops.size() == 3) {
    bool Want = D.Mods[0] == "and";
    for (unsigned K = 1; K <= 2; ++K)
      if (Part(D.Ops[K]) == std::optional<bool>(Want))
        return Want;
    return std::nullopt;
  }
  // setp.CMP[.ftz].fTYPE %p, a, b: one side |x| (abs), the other a constant.
  if (D.Mods[0] != "setp" || D.Mods.size() < 3 || D.Ops.size() != 3 ||
      !D.Ops[0].Regs.empty() || !isFloatType(D.Mods.back()))
    return std::nullopt;
  auto IsAbs = [&](const Operand &O) {
    int R = O.Kind == Operand::Reg ? regId(O.Name) : -1;
    int A = R >= 0 ? reachingDef(R, Def) : -1;
    return A >= 0 && Instrs[A]->Mods[0] == "abs";
  };
  bool Mirror = !IsAbs(D.Ops[1]);
  const Operand &C = D.Ops[Mirror ? 1 : 2];
  std::optional<double> Threshold = fimm(C);
  if (!Threshold || (Mirror && !IsAbs(D.Ops[2])))
    return std::nullopt;
  // Unordered variants (ltu, geu, ...) differ only for NaN.
  StringRef Cmp = D.Mods[1];
  if (Cmp.size() == 3 && Cmp.back() == 'u')
    Cmp = Cmp.drop_back();
  std::optional<MagnitudeTest> T =
      llvm::StringSwitch<std::optional<MagnitudeTest>>(Cmp)
          .Case("lt", Mirror ? MagnitudeTest::Greater : MagnitudeTest::Less)
          .Case("le", Mirror ? MagnitudeTest::GreaterEq : MagnitudeTest::LessEq)
          .Case("gt", Mirror ? MagnitudeTest::Less : MagnitudeTest::Greater)
          .Case("ge", Mirror ? MagnitudeTest::LessEq : MagnitudeTest::GreaterEq)
          .Case("eq", MagnitudeTest::Equal)
          .Case("ne", MagnitudeTest::NotEqual)
          .Default(std::nullopt);
  return T ? rareWhenHolds(*T, *Threshold) : std::nullopt;
}

/// Rare branches (docs/MODEL.md): the blocks reachable from the entry only
/// across the rare edge of a magnitude test, libdevice's slow paths of
/// sinf/cosf (Payne-Hanek argument reduction) inlined into the kernel.
std::vector<bool> FunctionAnalysis::rareOnlyBlocks() const {
  std::vector<int> RareSucc(Blocks.size(), -1);
  bool Any = false;
  for (unsigned BI = 0; BI < Blocks.size(); ++BI) {
    std::optional<unsigned> Taken = conditionalTaken(BI);
    if (!Taken)
      continue;
    const Block &B = Blocks[BI];
    const Instr &Br = *Instrs[B.End - 1];
    std::optional<bool> HoldsRare = rareWhenPredicate(Br.Guard, B.End - 1);
    if (!HoldsRare)
      continue;
    // The branch is taken where the predicate (negated by '!') holds.
    unsigned Succ = *HoldsRare != Br.GuardNeg ? *Taken : BI + 1;
    // A loop that ends leaves by one of its exits: an edge out of a loop
    // is never rare.
    if (Succ >= Blocks.size() ||
        llvm::any_of(B.Loops,
                     [&](unsigned LI) { return !Loops[LI].Body.test(Succ); }))
      continue;
    RareSucc[BI] = int(Succ);
    Any = true;
  }
  std::vector<bool> Rare(Blocks.size(), false);
  if (!Any)
    return Rare;
  std::vector<bool> Seen = reachedWithout(
      [&](unsigned From, unsigned To) { return int(To) == RareSucc[From]; });
  for (unsigned BI = 0; BI < Blocks.size(); ++BI)
    Rare[BI] = Blocks[BI].Reachable && !Seen[BI];
  return Rare;
}

std::vector<bool> FunctionAnalysis::reachedWithout(
    function_ref<bool(unsigned, unsigned)> Skip) const {
  std::vector<bool> Seen(Blocks.size(), false);
  if (Blocks.empty())
    return Seen;
  SmallVector<unsigned, 16> Work{0};
  Seen[0] = true;
  while (!Work.empty()) {
    unsigned X = Work.pop_back_val();
    for (unsigned S : Blocks[X].Succs)
      if (S < Blocks.size() && !Seen[S] && !Skip(X, S)) {
        Seen[S] = true;
        Work.push_back(S);
      }
  }
  return Seen;
}

std::optional<double> FunctionAnalysis::loopBankWays(unsigned R, unsigned At,
                                                     unsigned BI,
                                                     int64_t Offset,
                                                     unsigned Bytes) {
  if (!F.IsEntry || BI >= Blocks.size() || Blocks[BI].Loops.empty() ||
      (Bytes != 4 && Bytes != 8 && Bytes != 16))
    return std::nullopt;
  const Loop &L = Loops[Blocks[BI].Loops.back()];
  if (L.Rec.Guessed || !(L.Trip >= 2) || L.Trip > 64)
    return std::nullopt;
  // The loop's thread checks on the way to the access: each branch on its
  // dominator chain inside the loop, and the side that leads to it.
  SmallVector<std::pair<unsigned, bool>, 4> Checks;
  for (int D = idom(BI); D >= 0 && L.Body.test(unsigned(D));
       D = unsigned(D) == L.Header ? -1 : idom(unsigned(D))) {
    std::optional<unsigned> Taken = conditionalTaken(unsigned(D));
    if (!Taken)
      continue;
    bool ToTaken = dominates(*Taken, BI),
         ToNext = dominates(unsigned(D) + 1, BI);
    if (ToTaken == ToNext)
      continue;
    if (regId(Instrs[Blocks[D].End - 1]->Guard) < 0)
      return std::nullopt;
    Checks.push_back({unsigned(D), ToTaken});
  }
  const unsigned Base = AtThread0 | AtRefBlock | AtTidSetX;
  auto Eval = [&](unsigned Reg, unsigned K) -> std::optional<int64_t> {
    ConstMemo->clear();
    std::optional<int64_t> V = constAt(Reg, K, 0, Base);
    if (!V)
      V = constAt(Reg, K, 0, Base | AtBlock0);
    return V;
  };
  const bool HadMemo = ConstMemo.has_value();
  if (!HadMemo)
    ConstMemo.emplace();
  const unsigned PhaseLanes = 128 / Bytes; // Passes of 128 bytes of lane data.
  double Requests = 0, Wavefronts = 0;
  bool Failed = false, Moves = false;
  std::array<std::optional<std::array<std::optional<int64_t>, 32>>,
             PTXReferenceBlockThreads / 32>
      Seen;
  SymbolsAtZero = true;
  for (int64_t Pass = 0; Pass < int64_t(L.Trip) && !Failed; ++Pass) {
    PinLoop = &L;
    PinPass = Pass;
    for (unsigned W = 0; W < PTXReferenceBlockThreads / 32 && !Failed; ++W) {
      // Per lane its address, or none where it does not reach the access.
      std::array<std::optional<int64_t>, 32> Addr;
      bool Any = false;
      for (unsigned Lane = 0; Lane < 32 && !Failed; ++Lane) {
        TidX = W * 32 + Lane;
        bool Active = true;
        for (auto [D, ToTaken] : Checks) {
          const Instr &Br = *Instrs[Blocks[D].End - 1];
          std::optional<int64_t> P =
              Eval(unsigned(regId(Br.Guard)), Blocks[D].End - 1);
          if (!P) {
            Failed = true;
            break;
          }
          if (((*P != 0) != Br.GuardNeg) != ToTaken) {
            Active = false;
            break;
          }
        }
        if (Failed || !Active)
          continue;
        std::optional<int64_t> A = Eval(R, At);
        if (!A) {
          Failed = true;
          break;
        }
        Addr[Lane] = *A + Offset;
        Any = true;
      }
      if (Failed || !Any)
        continue;
      // The lanes' addresses from the first active lane's (which lanes take
      // part, and how far apart): a pattern that no pass changes is a
      // stride the loop does not move (and which ptxas may have merged
      // into wider accesses): not counted here.
      std::array<std::optional<int64_t>, 32> Rel;
      std::optional<int64_t> First;
      for (unsigned Lane = 0; Lane < 32; ++Lane)
        if (Addr[Lane]) {
          if (!First)
            First = *Addr[Lane];
          Rel[Lane] = *Addr[Lane] - *First;
        }
      if (!Seen[W])
        Seen[W] = Rel;
      else if (*Seen[W] != Rel)
        Moves = true;
      Requests += 1;
      for (unsigned Ph = 0; Ph < 32; Ph += PhaseLanes) {
        int64_t Off[32];
        unsigned N = 0;
        for (unsigned Lane = Ph; Lane < Ph + PhaseLanes; ++Lane)
          if (Rel[Lane])
            Off[N++] = *Rel[Lane];
        if (N)
          Wavefronts += flipflop::passBankWays(Off, N, Bytes);
      }
    }
  }
  PinLoop = nullptr;
  PinPass = 0;
  TidX = 0;
  SymbolsAtZero = false;
  if (!HadMemo)
    ConstMemo.reset();
  else
    ConstMemo->clear();
  if (Failed || !Moves || Requests <= 0)
    return std::nullopt;
  return Wavefronts / Requests;
}

/// Thread checks that are no bounds checks (docs/MODEL.md "Shrinking
/// thread checks"): a branch in a counted loop on a predicate of
/// threadIdx.x that is not a conjunction of affine checks (those the
/// model takes per launch) and that the loop's passes move, such as a
/// tree reduction's `if (tid < s)` with `s >>= 1` or `if (tid % (2 * s) ==
/// 0)`. The predicate is evaluated for each thread of the reference block
/// (PTXReferenceBlockThreads x 1 x 1, block 0's where a block index is
/// read), at each pass of the loop (sampled evenly beyond 64). The warps
/// with a thread on a side run what only that side reaches: per block,
/// the mean of that share of the block's warps. 1 elsewhere.
std::vector<double> FunctionAnalysis::shrinkingCheckShares() {
  std::vector<double> Factor(Blocks.size(), 1.0);
  if (!F.IsEntry)
    return Factor;
  const unsigned Base = AtThread0 | AtRefBlock | AtTidSetX;
  // The blocks that only the edge BI -> Succ reaches from the entry.
  auto OnlyThrough = [&](unsigned BI, unsigned Succ) {
    return reachedWithout(
        [&](unsigned From, unsigned To) { return From == BI && To == Succ; });
  };
  bool AffineReady = false;
  // The loops' counters (their registers, by their step).
  std::set<unsigned> IVRegSet;
  for (const Loop &L : Loops)
    if (L.IVReg >= 0)
      IVRegSet.insert(unsigned(L.IVReg));
  ConstMemo.emplace();
  for (unsigned BI = 0; BI < Blocks.size(); ++BI) {
    std::optional<unsigned> Taken = conditionalTaken(BI);
    const Block &B = Blocks[BI];
    if (!Taken || !B.Reachable)
      continue;
    const Instr &Br = *Instrs[B.End - 1];
    int P = regId(Br.Guard);
    // A predicate of threadIdx.x (or the lane) alone among the thread
    // indices.
    if (P < 0 || !(Taints[P] & (TTidX | TLane)) ||
        (Taints[P] & (TTidY | TTidZ)))
      continue;
    // Bounds checks are the model's, per launch.
    if (!AffineReady) {
      analyseAffine();
      AffineReady = true;
    }
    SmallVector<AffineGuard, 2> Gs;
    if (predicateGuards(Br.Guard, true, Gs, 0) ||
        predicateGuards(Br.Guard, false, Gs, 0))
      continue;
    // In a counted loop of two passes or more, whose passes move the
    // predicate (a check of the thread alone, or one decided before the
    // loop, is not followed: a peeled prologue's per-thread choice is loop
    // control, which the loops' counts take as thread 0's).
    if (B.Loops.empty())
      continue;
    const Loop *L = &Loops[B.Loops.back()];
    if (L->Rec.Guessed || !(L->Trip >= 2) || L->Trip > 1e6)
      continue;
    std::optional<BranchSideShares> Sh = warpSideShares(
        uint64_t(L->Trip), PTXReferenceBlockThreads,
        [&](uint64_t Pass, unsigned T) -> std::optional<bool> {
          PinLoop = L;
          PinPass = int64_t(Pass);
          TidX = T;
          ConstMemo->clear();
          std::optional<int64_t> V = constAt(unsigned(P), B.End - 1, 0, Base);
          if (!V)
            V = constAt(unsigned(P), B.End - 1, 0, Base | AtBlock0);
          if (!V)
            return std::nullopt;
          return (*V != 0) != Br.GuardNeg; // The branch is taken.
        });
    PinLoop = nullptr;
    TidX = 0;
    if (!Sh)
      continue;
    std::pair<unsigned, double> Sides[2] = {{*Taken, Sh->Taken},
                                            {BI + 1, Sh->NotTaken}};
    // Each side's blocks; none where a side sets a loop's counter (a
    // peeled prologue's copies, which the loop's count takes as run once
    // each: loop control, decided per thread as thread 0's counts are).
    std::vector<bool> Seen[2];
    bool Control = false;
    for (unsigned Sd = 0; Sd < 2 && !Control; ++Sd) {
      unsigned Succ = Sides[Sd].first;
      if (Succ >= Blocks.size())
        continue;
      Seen[Sd] = OnlyThrough(BI, Succ);
      for (unsigned X = 0; X < Blocks.size() && !Control; ++X)
        if (Blocks[X].Reachable && !Seen[Sd][X])
          for (unsigned K = Blocks[X].Begin; K < Blocks[X].End && !Control;
               ++K)
            for (const Operand &O : ArrayRef<Operand>(Instrs[K]->Ops).take_front(1))
              if (O.Kind == Operand::Reg)
                if (int R = regId(O.Name); R >= 0 && IVRegSet.count(unsigned(R)))
                  Control = true;
    }
    if (Control)
      continue;
    for (unsigned Sd = 0; Sd < 2; ++Sd) {
      auto [Succ, Share] = Sides[Sd];
      // Not an edge out of a loop (its exit), nor a side every warp runs.
      if (Succ >= Blocks.size() || Share >= 1 || Seen[Sd].empty() ||
          llvm::any_of(B.Loops,
                       [&](unsigned LI) { return !Loops[LI].Body.test(Succ); }))
        continue;
      for (unsigned X = 0; X < Blocks.size(); ++X)
        if (Blocks[X].Reachable && !Seen[Sd][X])
          Factor[X] *= Share;
    }
  }
  ConstMemo.reset();
  return Factor;
}

/// Bounds checks: a conditional branch on `setp` comparing two affine forms
/// of the thread/block indices guards every block its one-predecessor
/// successor dominates. The share of loop-weighted instructions behind each
/// set of guards goes to the profile; the model evaluates, per launch, the
/// share of threads that pass (docs/MODEL.md, "Bounds checks").
void FunctionAnalysis::analyseGuards() {
  if (!F.IsEntry || Blocks.empty())
    return;
  analyseAffine(); // Again: shrinkingCheckShares may have run it before the weights.
  constexpr unsigned MaxGuards = 32, MaxPerBlock = 8;
  std::vector<SmallVector<unsigned, 2>> Own(Blocks.size());
  for (unsigned BI = 0; BI < Blocks.size(); ++BI) {
    std::optional<unsigned> Taken = conditionalTaken(BI);
    if (!Taken || S.Guards.size() >= MaxGuards)
      continue;
    const Block &B = Blocks[BI];
    const Instr &Br = *Instrs[B.End - 1];
    // The taken side runs where the predicate (negated by '!') holds.
    for (auto [Succ, Want] :
         {std::pair<unsigned, bool>(*Taken, !Br.GuardNeg),
          {BI + 1, Br.GuardNeg}}) {
      // The edge BI -> Succ dominates what Succ dominates when Succ's other
      // predecessors are its own back edges (a loop right behind the check).
      if (Succ >= Blocks.size() ||
          std::any_of(Blocks[Succ].Preds.begin(), Blocks[Succ].Preds.end(),
                      [&](unsigned P) {
                        return P == BI
                                   ? Blocks[BI].Succs[0] == Blocks[BI].Succs[1]
                                   : !dominates(Succ, P);
                      }))
        continue;
      // A loop's exit test is not a bounds check (what follows the loop
      // runs once, not per iteration).
      if (std::any_of(B.Loops.begin(), B.Loops.end(),
                      [&](unsigned LI) { return !Loops[LI].Body.test(Succ); }))
        continue;
      SmallVector<AffineGuard, 2> Gs;
      if (!predicateGuards(Br.Guard, Want, Gs, 0))
        continue;
      for (AffineGuard &G : Gs) {
        // The same check again (nvcc repeats a bounds check in each copy
        // of an unrolled or peeled loop): one guard, so the limit holds
        // distinct checks.
        auto Same = llvm::find_if(S.Guards, [&](const AffineGuard &O) {
          return O.Coef == G.Coef && O.Const == G.Const &&
                 O.Strict == G.Strict && O.IterTrip == G.IterTrip &&
                 O.OneD == G.OneD;
        });
        if (Same != S.Guards.end()) {
          unsigned I = unsigned(Same - S.Guards.begin());
          if (!llvm::is_contained(Own[Succ], I))
            Own[Succ].push_back(I);
          continue;
        }
        if (S.Guards.size() >= MaxGuards)
          break;
        Own[Succ].push_back(S.Guards.size());
        S.Guards.push_back(G);
      }
    }
  }
  if (S.Guards.empty())
    return;
  // Guard sets down the dominator tree (RPO visits a block after its idom).
  std::vector<SmallVector<unsigned, 4>> &Set = BlockGuards;
  Set.assign(Blocks.size(), {});
  std::map<SmallVector<unsigned, 4>, std::pair<double, double>> Shares;
  // A block's global (and generic) memory bytes a thread: the guarded
  // share of the traffic, apart from that of the instructions (a loop of
  // loads behind `blockIdx.x == 0` holds all of a kernel's bytes but not
  // all of its instructions).
  auto GlobalBytes = [&](unsigned BI) {
    double Bytes = 0;
    for (unsigned K = Blocks[BI].Begin; K < Blocks[BI].End; ++K) {
      const Instr &I = *Instrs[K];
      StringRef Base = I.Mods[0];
      // A bulk copy's global side, as classifyBulkCopy counts it.
      if (Base == "cp")
        if (std::optional<BulkIssue> Is = bulkIssue(I, Set[BI])) {
          Bytes += Is->perThread();
          continue;
        }
      if ((Base != "ld" && Base != "ldu" && Base != "st" && Base != "atom" &&
           Base != "red") ||
          llvm::any_of(I.Mods, [](StringRef M) {
            return M.starts_with("shared") || M == "local" || M == "param" ||
                   M == "const";
          }))
        continue;
      unsigned Vec = I.hasMod("v8") ? 8 : I.hasMod("v4") ? 4
                     : I.hasMod("v2")                    ? 2
                                                         : 1;
      Bytes += double(Vec * std::max(8u, typeBits(I.Mods.back()))) / 8;
    }
    return Bytes;
  };
  double Total = 0, TotalMem = 0;
  for (unsigned BI : RPO) {
    if (int D = idom(BI); D >= 0)
      Set[BI] = Set[D];
    for (unsigned G : Own[BI])
      if (Set[BI].size() < MaxPerBlock && !llvm::is_contained(Set[BI], G))
        Set[BI].push_back(G);
    double W = Blocks[BI].Weight * (Blocks[BI].End - Blocks[BI].Begin);
    double M = Blocks[BI].Weight * GlobalBytes(BI);
    Total += W;
    TotalMem += M;
    if (!Set[BI].empty()) {
      Shares[Set[BI]].first += W;
      Shares[Set[BI]].second += M;
    }
  }
  if (Total <= 0)
    return;
  for (auto &[Gs, WM] : Shares) {
    GuardedWork GW;
    GW.Guards.assign(Gs.begin(), Gs.end());
    GW.Share = WM.first / Total;
    GW.MemShare = TotalMem > 0 ? WM.second / TotalMem : -1;
    S.Guarded.push_back(std::move(GW));
  }
}

} // namespace ptx
} // namespace flipflop

//===- IRInlineAsm.cpp - Inline PTX in the IR front end -------------------===//
//
// Libraries write the instructions that matter most in inline PTX: CUB its
// read-only loads (`ld.global.nc`), shuffles and votes, CUTLASS its
// `mma.sync`, `ldmatrix` and `cp.async`. The IR holds them as calls to an
// InlineAsm value, which no IR rule sees. Here each inline asm text is
// counted as the PTX front end counts the same instructions in the emitted
// PTX: its operands ($N) become registers (or the constants the call
// passes), the text is wrapped in an entry and parsed once, and the parsed
// profile's work is added per execution of the call. Its memory
// instructions whose address is a call operand also become accesses of
// the IR pointer, so that their pattern, reuse and sectors come from the
// IR's stride analysis as for an ordinary load.
//
//===----------------------------------------------------------------------===//
#include "IRProfileBuilder.h"
#include "PTXSyntax.h"
#include "flipflop/Profile/PTXParser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Regex.h"
#include <algorithm>
#include <cctype>

using namespace llvm;

namespace flipflop {
namespace irprof {

namespace {

/// One $N of an inline asm: its constraint letter and, where the call
/// passes it (inputs, indirect outputs), the call's argument.
struct AsmOperand {
  char Code = 'r';
  Value *Arg = nullptr;
};

std::vector<AsmOperand> asmOperands(const CallBase &CB, const InlineAsm &IA) {
  std::vector<AsmOperand> Ops;
  unsigned ArgNo = 0;
  for (const InlineAsm::ConstraintInfo &C : IA.ParseConstraints()) {
    if (C.Type == InlineAsm::isClobber || C.Type == InlineAsm::isLabel)
      continue;
    AsmOperand O;
    StringRef Code = C.Codes.empty() ? StringRef("r") : StringRef(C.Codes[0]);
    unsigned Tied = 0;
    if (!Code.empty() && isDigit(Code[0]) && !Code.getAsInteger(10, Tied) &&
        Tied < Ops.size())
      O.Code = Ops[Tied].Code; // "0": the register of output 0.
    else if (!Code.empty())
      O.Code = Code[0];
    if ((C.Type != InlineAsm::isOutput || C.isIndirect) &&
        ArgNo < CB.arg_size())
      O.Arg = CB.getArgOperand(ArgNo++);
    Ops.push_back(O);
  }
  return Ops;
}

/// The PTX register type of constraint \p Code.
StringRef regType(char Code) {
  switch (Code) {
  case 'h':
  case 'c':
    return ".b16";
  case 'r':
    return ".b32";
  case 'f':
    return ".f32";
  case 'd':
    return ".f64";
  default:
    return ".b64";
  }
}

/// \p Asm with each $N replaced by a register of its constraint's type, or
/// by the integer the call passes, and `${:uid}` (`%=`) by 0; the
/// registers' declarations go to \p Decls. False when the text has an
/// operand form this does not read (`${0:...}`, an operand beyond the
/// constraints).
bool substitute(StringRef Asm, ArrayRef<AsmOperand> Ops, std::string &Body,
                std::string &Decls) {
  std::vector<bool> Declared(Ops.size());
  for (size_t I = 0; I < Asm.size(); ++I) {
    char C = Asm[I];
    if (C != '$') {
      Body += C;
      continue;
    }
    if (I + 1 < Asm.size() && Asm[I + 1] == '$') {
      Body += '$';
      ++I;
      continue;
    }
    // `%=` in the source: a number unique to this asm statement (labels).
    if (Asm.substr(I).starts_with("${:uid}")) {
      Body += '0';
      I += StringRef("${:uid}").size() - 1;
      continue;
    }
    size_t J = I + 1;
    while (J < Asm.size() && isDigit(Asm[J]))
      ++J;
    unsigned N = 0;
    if (J == I + 1 || Asm.slice(I + 1, J).getAsInteger(10, N) ||
        N >= Ops.size())
      return false;
    const AsmOperand &O = Ops[N];
    if (const auto *CI = dyn_cast_or_null<ConstantInt>(O.Arg);
        CI && CI->getBitWidth() <= 64) {
      Body += std::to_string(CI->getSExtValue());
    } else {
      std::string Reg = "%ffasm" + std::to_string(N);
      if (!Declared[N]) {
        Decls += ".reg " + regType(O.Code).str() + " " + Reg + ";\n";
        Declared[N] = true;
      }
      Body += Reg;
    }
    I = J - 1;
  }
  return true;
}

/// A memory instruction of the text whose address is an operand: what the
/// IR's access of that operand's pointer needs.
struct AsmMemRef {
  unsigned Operand = 0;
  int64_t Offset = 0;
  unsigned Bytes = 4;
  bool IsStore = false, IsAtomic = false, ReadOnly = false;
  /// A texture or surface access (`tex`, `tld4`, `suld`, `sust`, `sured`):
  /// no pointer operand; the parsed text's own access stands for it.
  bool Texture = false;
  /// A texture fetch's destination operands and its x coordinate's ($N;
  /// ~0u where a constant or not read).
  SmallVector<unsigned, 4> Dests, Coords;
  unsigned CoordX = ~0u;
  /// `tex`/`tld4`: a fetch of texels by coordinates (surfaces address
  /// bytes: not read here).
  bool Fetch = false;
  std::optional<AddrSpace> Space;
};

/// The memory references of the substituted text \p Asm's statements
/// `ld/ldu/st/atom/red [$N]` or `[$N+off]`, `ldmatrix ... [$N]` and
/// `cp.async ... [$D], [$S], size` ($N as substitute() names it, so that a
/// copy's size passed as an operand is already its value), and its texture
/// and surface statements (Texture), in the order of the text.
std::vector<AsmMemRef> memoryRefs(StringRef Asm) {
  static const Regex Addr("\\[[[:space:]]*%ffasm([0-9]+)[[:space:]]*(\\+[[:space:]]*"
                          "(-?[0-9]+))?[[:space:]]*\\]");
  std::vector<AsmMemRef> Refs;
  SmallVector<StringRef, 16> Stmts;
  Asm.split(Stmts, ';');
  for (StringRef S : Stmts) {
    S = S.ltrim(" \t\r\n{}");
    if (S.starts_with("@")) // A guard: @p or @!p.
      S = S.drop_until([](char C) { return isSpace(C); }).ltrim();
    StringRef Mnemonic = S.take_until([](char C) { return isSpace(C); });
    SmallVector<StringRef, 8> Mods;
    Mnemonic.split(Mods, '.');
    if (Mods.empty())
      continue;
    StringRef Base = Mods.front();
    bool IsCopy = Base == "cp" && Mods.size() > 1 && Mods[1] == "async" &&
                  llvm::is_contained(Mods, "shared") &&
                  llvm::is_contained(Mods, "global");
    bool IsMatrix = Base == "ldmatrix";
    if (Base == "tex" || Base == "tld4" || Base == "suld" || Base == "sust" ||
        Base == "sured") {
      AsmMemRef T;
      T.Texture = true;
      // A component's bytes: the destination type, the first after vN.
      for (StringRef M : ArrayRef<StringRef>(Mods).drop_front())
        if (unsigned Bits = ptx::typeBits(M); Bits >= 8) {
          T.Bytes = Bits / 8;
          break;
        }
      // `{$d0, $d1, ...}, [$h, {$x, $y}]`; a layered texture's first
      // coordinate is the layer.
      T.Fetch = Base == "tex" || Base == "tld4";
      bool Layered = llvm::is_contained(Mods, "a1d") ||
                     llvm::is_contained(Mods, "a2d") ||
                     llvm::is_contained(Mods, "acube");
      static const Regex Fetch(
          "\\{([^}]*)\\}[[:space:]]*,[[:space:]]*\\[[^{]*\\{([^}]*)\\}");
      SmallVector<StringRef, 3> M;
      auto Names = [](StringRef List) {
        SmallVector<unsigned, 4> Out;
        SmallVector<StringRef, 4> Parts;
        List.split(Parts, ',');
        for (StringRef D : Parts) {
          unsigned N;
          D = D.trim();
          Out.push_back(D.consume_front("%ffasm") && !D.getAsInteger(10, N)
                            ? N
                            : ~0u);
        }
        return Out;
      };
      if (T.Fetch && Fetch.match(S, &M)) {
        for (unsigned N : Names(M[1]))
          if (N != ~0u)
            T.Dests.push_back(N);
        SmallVector<unsigned, 4> Coords = Names(M[2]);
        if (Coords.size() > (Layered ? 1u : 0u)) {
          T.Coords.assign(Coords.begin() + (Layered ? 1 : 0), Coords.end());
          T.CoordX = T.Coords.front();
        }
      }
      Refs.push_back(T);
      continue;
    }
    if (Base != "ld" && Base != "ldu" && Base != "st" && Base != "atom" &&
        Base != "red" && !IsCopy && !IsMatrix)
      continue;
    AsmMemRef R;
    R.IsStore = Base == "st" || Base == "atom" || Base == "red";
    R.IsAtomic = Base == "atom" || Base == "red";
    unsigned Vec = 1, Elem = 0;
    for (StringRef M : Mods) {
      if (M == "global")
        R.Space = AddrSpace::Global;
      else if (M == "shared" || M.starts_with("shared::"))
        R.Space = AddrSpace::Shared;
      else if (M == "local")
        R.Space = AddrSpace::Local;
      else if (M == "const")
        R.Space = AddrSpace::Const;
      else if (M == "nc")
        R.ReadOnly = true;
      else if (M == "v2" || M == "v4" || M == "v8")
        Vec = M[1] - '0';
      else if (M == "x1" || M == "x2" || M == "x4")
        Vec = M[1] - '0'; // ldmatrix: 8x8 matrices, 4 bytes a lane each
      else if (unsigned Bits = ptx::typeBits(M); Bits >= 8)
        Elem = Bits / 8; // The PTX front end's type widths.
    }
    R.Bytes = std::max(1u, Vec * (IsMatrix ? 4 : Elem ? Elem : 4));
    SmallVector<StringRef, 4> M;
    StringRef Rest = S;
    std::vector<AsmMemRef> Found;
    while (Addr.match(Rest, &M)) {
      AsmMemRef X = R;
      M[1].getAsInteger(10, X.Operand);
      if (M.size() > 3 && !M[3].empty())
        M[3].getAsInteger(10, X.Offset);
      Found.push_back(X);
      Rest = Rest.drop_front(M[0].data() + M[0].size() - Rest.data());
    }
    if (IsCopy && Found.size() == 2) {
      // cp.async.{ca,cg}.shared.global [dst], [src], bytes: a global read
      // and a shared write of the copy's size (its third operand).
      unsigned Size = 0;
      // The size, and an optional source size after it.
      StringRef Tail = Rest.ltrim(" \t,").take_until(
          [](char C) { return C == ',' || isSpace(C); });
      if (!Tail.getAsInteger(10, Size) && (Size == 4 || Size == 8 || Size == 16))
        Found[0].Bytes = Found[1].Bytes = Size;
      Found[0].IsStore = true;
      Found[0].Space = AddrSpace::Shared;
      Found[1].Space = AddrSpace::Global;
      Found[1].ReadOnly = false;
    }
    Refs.insert(Refs.end(), Found.begin(), Found.end());
  }
  return Refs;
}

/// The address value of operand \p V: the pointer itself, the pointer a
/// `ptrtoint` made the integer from (CUB passes `l`(size_t(ptr)) as often
/// as `l`(ptr)), or else the integer (a 32-bit shared address), which
/// addAccess reads by its lane pattern alone.
Value *addressOf(Value *V) {
  if (!V || isa<Constant>(V))
    return nullptr;
  if (auto *PI = dyn_cast<PtrToIntOperator>(V))
    return PI->getPointerOperand();
  if (V->getType()->isPointerTy() || V->getType()->isIntegerTy())
    return V;
  return nullptr;
}

/// A texture fetch's texel and lanes, as the PTX front end reads them
/// (docs/MODEL.md "Texture fetches"): the components the kernel reads
/// (the call's results it extracts) times their size, and the lanes'
/// pattern along the x coordinate, an integer converted to float (plus a
/// constant such as 0.5).
void readTextureFetch(const CallBase &CB, ArrayRef<AsmOperand> Ops,
                      const AsmMemRef &R, MemAccess &A, StrideAnalysis &SA,
                      BlockDepAnalysis &BlockDeps,
                      BlockDepAnalysis &ThreadDeps) {
  if (!R.Fetch || R.Dests.empty() || R.CoordX >= Ops.size() ||
      !Ops[R.CoordX].Arg)
    return;
  unsigned Elem = std::max(1u, R.Bytes);
  unsigned Used = 0;
  auto *ST = dyn_cast<StructType>(CB.getType());
  for (unsigned D : R.Dests) {
    bool Read = false;
    if (!ST)
      Read = D == 0 && !CB.use_empty();
    else
      for (const User *U : CB.users())
        if (const auto *EV = dyn_cast<ExtractValueInst>(U))
          Read |= EV->getNumIndices() >= 1 && EV->getIndices()[0] == D;
    Used += Read;
  }
  A.Bytes = std::max(1u, Used) * Elem;
  A.SectorsPerRequest = 0; // Of the pattern found here (finalizeProfile).
  // The coordinates' block indices; the x coordinate's integer.
  // The indices every coordinate reads: threads of other rows read other
  // texels (the y coordinate), blocks read apart.
  unsigned Blocks = 0, Threads = 0;
  for (unsigned N : R.Coords)
    if (N < Ops.size() && Ops[N].Arg &&
        !Ops[N].Arg->getType()->isPointerTy()) {
      Blocks |= BlockDeps.get(Ops[N].Arg) & 7u;
      Threads |= ThreadDeps.get(Ops[N].Arg) & 7u;
    }
  A.BlockDims = Blocks;
  const Value *X = Ops[R.CoordX].Arg;
  for (unsigned Hop = 0; Hop < 4 && X && !X->getType()->isIntegerTy(); ++Hop) {
    if (const auto *C = dyn_cast<CastInst>(X))
      X = C->getOperand(0);
    else if (const auto *B = dyn_cast<BinaryOperator>(X);
             B && B->getOpcode() == Instruction::FAdd)
      X = isa<Constant>(B->getOperand(1)) ? B->getOperand(0)
          : isa<Constant>(B->getOperand(0)) ? B->getOperand(1)
                                            : nullptr;
    else
      X = nullptr;
  }
  if (!X || !X->getType()->isIntegerTy())
    return;
  A.ThreadDims = Threads;
  A.ThreadDimsKnown = true;
  Stride St = SA.get(X);
  if (St.Kind != Stride::Known || St.Mod)
    return;
  if (St.S == 0) {
    A.Pattern = AccessPattern::Uniform;
    return;
  }
  A.StrideBytes = St.S * int64_t(A.Bytes);
  A.Pattern = std::llabs(St.S) == 1 ? AccessPattern::Coalesced
                                    : AccessPattern::Strided;
}

} // namespace

void ProfileBuilder::classifyInlineAsm(Instruction &I, CallBase &CB, double W,
                                       StrideAnalysis &SA, LoopInfo &LI,
                                       ScalarEvolution &SE) {
  const auto &IA = *cast<InlineAsm>(CB.getCalledOperand());
  StringRef Asm = IA.getAsmString();
  if (Asm.trim().empty())
    return; // An optimization barrier (`asm volatile("" ::: "memory")`).
  std::vector<AsmOperand> Ops = asmOperands(CB, IA);
  // The work of one execution, parsed once per text and operand types
  // (constants are substituted, so they are part of the key).
  std::string Body, Decls;
  bool Read = substitute(Asm, Ops, Body, Decls);
  auto [It, New] = AsmWork.try_emplace(Decls + "\n" + Body);
  KernelProfile &Work = It->second;
  if (New) {
    Expected<std::vector<KernelProfile>> Parsed =
        !Read ? createStringError("an operand form not read")
              : parsePTX(".version 8.0\n.target sm_80\n.address_size 64\n"
                         ".visible .entry __flipflop_asm()\n{\n" +
                             Decls + Body + "\nret;\n}\n",
                         "inline-asm");
    if (Parsed && Parsed->size() == 1) {
      Work = std::move(Parsed->front());
      // The wrapper's ret (unreachable after an `exit;` of the text).
      Work.op(OpClass::Branch) = std::max(0.0, Work.op(OpClass::Branch) - 1);
    } else {
      if (!Parsed)
        consumeError(Parsed.takeError());
      // Unread: one instruction, as an unknown call (the PTX front end
      // reads the same code in the emitted PTX).
      Work.op(OpClass::Other) = 1;
      P.Warnings.push_back("inline asm '" + Asm.take_front(60).str() +
                           "' not read; counted as one instruction");
    }
  }
  for (unsigned C = 0; C < NumOpClasses; ++C)
    P.Ops[C] += W * Work.Ops[C];
  P.Flops32 += W * Work.Flops32;
  P.Flops64 += W * Work.Flops64;
  P.Flops16 += W * Work.Flops16;
  P.ConvIntToF32 += W * Work.ConvIntToF32;
  // Tensor-memory MMAs: one thread's issue for the block, which the
  // wrapper's unknown block cannot spread: the PTX's (mergePTXFacts).
  P.TensorFlops += W * (Work.TensorFlops - Work.EngineTensorFlops);
  if (P.TensorType.empty())
    P.TensorType = Work.TensorType;
  // Special registers read inside the text (`mov.u32 $0, %tid.x;`).
  for (unsigned D = 0; D < 3; ++D) {
    P.Shape.UsesTid[D] = P.Shape.UsesTid[D] || Work.Shape.UsesTid[D];
    TidIndexes[D] = TidIndexes[D] || Work.Shape.UsesTid[D];
    P.Shape.ReadsNTid[D] = P.Shape.ReadsNTid[D] || Work.Shape.ReadsNTid[D];
  }
  P.Shape.ReadsBlockDim = P.Shape.ReadsBlockDim || Work.Shape.ReadsBlockDim;
  P.Shape.ReadsGridDim = P.Shape.ReadsGridDim || Work.Shape.ReadsGridDim;
  // Its memory instructions through the call's pointers: accesses, their
  // instructions already counted above.
  std::vector<AsmMemRef> Refs =
      Read ? memoryRefs(Body) : std::vector<AsmMemRef>();
  // A texture fetch has no pointer: the parsed text's access, as the PTX
  // front end reads it in the emitted PTX (each memory statement is one
  // access there, in order).
  if (Work.Accesses.size() == Refs.size())
    for (size_t K = 0; K < Refs.size(); ++K)
      if (Refs[K].Texture) {
        MemAccess A = Work.Accesses[K];
        A.Count *= W;
        A.BaseId = 0; // The wrapper's registers: no siblings here.
        A.Line = I.getDebugLoc() ? I.getDebugLoc().getLine() : 0;
        readTextureFetch(CB, Ops, Refs[K], A, SA, BlockDeps, ThreadDeps);
        P.Accesses.push_back(A);
      }
  for (const AsmMemRef &R : Refs) {
    if (R.Texture)
      continue;
    Value *Ptr = R.Operand < Ops.size() ? addressOf(Ops[R.Operand].Arg)
                                        : nullptr;
    if (!Ptr)
      continue;
    AccessFacts F;
    F.Space = R.Space;
    F.ReadOnly = R.ReadOnly;
    F.CountOp = false;
    addAccess(I, Ptr, Type::getIntNTy(I.getContext(), R.Bytes * 8), R.IsStore,
              R.IsAtomic, W, SA, LI, SE, R.Offset, F);
  }
}

} // namespace irprof
} // namespace flipflop

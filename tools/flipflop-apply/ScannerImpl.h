//===- ScannerImpl.h - The scanner's state, shared by its parts -----------===//
//
// Scanner.cpp: locations, names, kernel definitions and the bounds written
// on them, the AST visitors; ScanBlockSize.cpp: what a block argument may
// be at compile time (constants, local variables and every write to them);
// ScanLaunches.cpp: launch sites, other uses of a kernel's address, and
// whether a launch's block argument can be rewritten.
//
//===----------------------------------------------------------------------===//
#ifndef FLIPFLOP_TOOLS_APPLY_SCANNERIMPL_H
#define FLIPFLOP_TOOLS_APPLY_SCANNERIMPL_H

#include "Scanner.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace flipflop {
namespace apply {

/// The block size of a launch as far as it can be known at compile time.
/// Candidates are the whole values the block may take; component writes
/// (b.x = 256) make the answer the component-wise maximum.
struct BlockVal {
  bool Known = false;
  std::string Why;
  std::vector<std::array<uint64_t, 3>> Candidates;
  std::array<uint64_t, 3> CompMax{0, 0, 0};
  bool HasCompWrites = false;

  static BlockVal known(uint64_t X, uint64_t Y = 1, uint64_t Z = 1) {
    BlockVal V;
    V.Known = true;
    V.Candidates.push_back({X, Y, Z});
    return V;
  }
  static BlockVal unknown(std::string Why) {
    BlockVal V;
    V.Why = std::move(Why);
    return V;
  }
  void merge(const BlockVal &O);
  /// The largest block this launch may use (threads, per-dimension shape).
  std::array<uint64_t, 3> largest() const;
};

/// Whether \p T is CUDA's dim3.
bool isDim3(clang::QualType T);

/// \p E without parentheses, implicit nodes, record-typed or no-op casts.
const clang::Expr *stripImplicit(const clang::Expr *E);

class Scanner {
public:
  Scanner(clang::ASTContext &Ctx, ScanResult &R);

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  const clang::LangOptions &LO;
  ScanResult &R;
  std::unique_ptr<clang::MangleContext> MC;
  llvm::SmallPtrSet<const clang::Decl *, 16> TemplatesDone;
  /// Kernel references in launches.
  llvm::SmallPtrSet<const clang::Expr *, 32> Consumed;

  //===--- Locations (Scanner.cpp) ----------------------------------------===//
  std::string realPath(clang::FileID F);
  SourcePos pos(clang::SourceLocation L);
  std::string locStr(clang::SourceLocation L);
  bool inSystemHeader(clang::SourceLocation L);
  /// The name of the outermost macro whose expansion holds \p L.
  std::string macroName(clang::SourceLocation L);

  //===--- Names (Scanner.cpp) --------------------------------------------===//
  std::string mangle(const clang::FunctionDecl *FD);
  std::string display(const clang::FunctionDecl *FD);

  //===--- Kernels and their bounds (Scanner.cpp) -------------------------===//
  void kernel(clang::FunctionDecl *FD);
  void kernelTemplate(clang::FunctionTemplateDecl *FTD);
  void record(const clang::FunctionDecl *Def, bool IsTemplate,
              const std::map<std::string, std::string> &Instances,
              llvm::ArrayRef<const clang::FunctionDecl *> Redecls);
  /// The first macro or named constant an argument's text mentions, in
  /// words ("macro 'N'", "constant 'kN'"), or "" for literal arithmetic.
  std::string namedIn(llvm::StringRef Text);
  WrittenBound bound(const clang::CUDALaunchBoundsAttr *A);

  //===--- Block sizes (ScanBlockSize.cpp) --------------------------------===//
  enum class UseKind { Read, Write, WriteComp, Modify, Escape };
  struct Use {
    UseKind Kind;
    /// Members named on the way up.
    llvm::SmallVector<llvm::StringRef, 2> Path;
    const clang::Expr *RHS = nullptr;
    clang::SourceLocation Loc;
  };

  BlockVal evalBlock(const clang::Expr *E, unsigned Depth);
  const clang::Stmt *parentStmt(const clang::Stmt *S,
                                const clang::Decl **D = nullptr);
  Use classify(const clang::DeclRefExpr *DRE);
  /// The values a local variable (or its member \p Prefix) may hold: its
  /// initialiser and every constant assignment in its function, provided
  /// nothing else can change it (no escape, no compound assignment).
  BlockVal evalVar(const clang::VarDecl *V,
                   llvm::ArrayRef<llvm::StringRef> Prefix, unsigned Depth);
  /// The initial value of member \p Prefix of an object initialised by
  /// \p Init (a launch configuration's blockDim).
  BlockVal evalMemberInit(const clang::Expr *Init, clang::QualType T,
                          llvm::ArrayRef<llvm::StringRef> Prefix,
                          unsigned Depth);

  //===--- Launch sites (ScanLaunches.cpp) --------------------------------===//
  static bool isLaunchExName(const clang::FunctionDecl *FD);
  const clang::DeclRefExpr *kernelRef(const clang::Expr *E);
  void addSite(const clang::FunctionDecl *Kernel, clang::SourceLocation Loc,
               llvm::StringRef Via, const clang::Expr *Grid,
               const clang::Expr *Block, const clang::Expr *Shmem, BlockVal V);
  void rewriteInfo(LaunchSite &S, const clang::Expr *Grid,
                   const clang::Expr *Block, const clang::Expr *Shmem);
  bool dependent(const std::vector<const clang::Decl *> &Stack);
  void call(const clang::CallExpr *E, bool Dependent);
  void reference(const clang::DeclRefExpr *E, bool Dependent);
};

} // namespace apply
} // namespace flipflop

#endif

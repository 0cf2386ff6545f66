//===- PtxEdit.cpp - Entry parameters and launch bounds in PTX text -------===//
#include "PtxEdit.h"
#include <cctype>
#include <cstdlib>

namespace flipflop {
namespace measure {

namespace {
/// A copy of \p S with comments blanked out (offsets preserved), so searches
/// do not match text in comments.
std::string maskComments(const std::string &S) {
  std::string M = S;
  size_t I = 0;
  while (I < M.size()) {
    if (M.compare(I, 2, "//") == 0) {
      while (I < M.size() && M[I] != '\n')
        M[I++] = ' ';
    } else if (M.compare(I, 2, "/*") == 0) {
      size_t End = M.find("*/", I + 2);
      End = End == std::string::npos ? M.size() : End + 2;
      for (; I < End; ++I)
        if (M[I] != '\n')
          M[I] = ' ';
    } else if (M[I] == '"') {
      ++I;
      while (I < M.size() && M[I] != '"')
        ++I;
      ++I;
    } else {
      ++I;
    }
  }
  return M;
}

bool isIdentChar(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) || C == '_' || C == '$' ||
         C == '.' || C == '%';
}

unsigned typeBytes(const std::string &T) {
  if (T.size() < 3)
    return 0;
  int Bits = std::atoi(T.c_str() + 2);
  if (T[1] == 'p' && T == ".pred")
    return 1;
  if (T[1] != 'u' && T[1] != 's' && T[1] != 'b' && T[1] != 'f')
    return 0;
  return Bits > 0 && Bits % 8 == 0 ? unsigned(Bits / 8) : 0;
}

/// Where one entry's pieces lie in the text.
struct EntrySpan {
  PtxEntry E;
  size_t DirectivesBegin = 0; ///< After ')' (or the name).
  size_t BodyBegin = 0;       ///< The '{'.
};

Error parseDirectiveDims(const std::string &Text, std::array<unsigned, 3> &Out) {
  Out = {1, 1, 1};
  size_t I = 0;
  for (int D = 0; D < 3; ++D) {
    while (I < Text.size() && (Text[I] == ' ' || Text[I] == '\t' || Text[I] == ','))
      ++I;
    if (I >= Text.size() || !std::isdigit(static_cast<unsigned char>(Text[I]))) {
      if (D == 0)
        return makeError("malformed launch-bounds directive");
      break;
    }
    Out[D] = unsigned(std::strtoul(Text.c_str() + I, nullptr, 10));
    while (I < Text.size() && std::isdigit(static_cast<unsigned char>(Text[I])))
      ++I;
  }
  return Error::success();
}

Result<std::vector<EntrySpan>> scanEntries(const std::string &Ptx) {
  std::string M = maskComments(Ptx);
  std::vector<EntrySpan> Out;
  size_t Pos = 0;
  while ((Pos = M.find(".entry", Pos)) != std::string::npos) {
    bool StartOk = Pos == 0 || !isIdentChar(M[Pos - 1]);
    size_t I = Pos + 6;
    if (!StartOk || I >= M.size() || isIdentChar(M[I])) {
      Pos = I;
      continue;
    }
    EntrySpan S;
    while (I < M.size() && std::isspace(static_cast<unsigned char>(M[I])))
      ++I;
    size_t NameBegin = I;
    while (I < M.size() && isIdentChar(M[I]))
      ++I;
    S.E.Name = Ptx.substr(NameBegin, I - NameBegin);
    if (S.E.Name.empty())
      return makeError("malformed .entry (no name)");
    while (I < M.size() && std::isspace(static_cast<unsigned char>(M[I])))
      ++I;
    if (I < M.size() && M[I] == '(') {
      size_t Close = M.find(')', I);
      if (Close == std::string::npos)
        return makeError("entry " + S.E.Name + ": unterminated parameter list");
      std::string List = M.substr(I + 1, Close - I - 1);
      size_t Start = 0;
      while (Start <= List.size()) {
        size_t Comma = List.find(',', Start);
        if (Comma == std::string::npos)
          Comma = List.size();
        std::string Decl = List.substr(Start, Comma - Start);
        Start = Comma + 1;
        // Tokens: .param [.attrs...] .type [.align N] name[N]
        std::vector<std::string> Tok;
        size_t J = 0;
        while (J < Decl.size()) {
          while (J < Decl.size() && std::isspace(static_cast<unsigned char>(Decl[J])))
            ++J;
          size_t B = J;
          while (J < Decl.size() && !std::isspace(static_cast<unsigned char>(Decl[J])))
            ++J;
          if (J > B)
            Tok.push_back(Decl.substr(B, J - B));
        }
        if (Tok.empty())
          continue;
        if (Tok[0] != ".param")
          return makeError("entry " + S.E.Name + ": unexpected parameter '" +
                           Decl + "'");
        PtxParam P;
        for (size_t K = 1; K < Tok.size(); ++K) {
          if (typeBytes(Tok[K]) && P.Type.empty())
            P.Type = Tok[K];
          else if (Tok[K][0] != '.' && !std::isdigit(static_cast<unsigned char>(Tok[K][0])))
            P.Name = Tok[K];
        }
        if (P.Type.empty() || P.Name.empty())
          return makeError("entry " + S.E.Name + ": cannot read parameter '" +
                           Decl + "'");
        P.Bytes = typeBytes(P.Type);
        size_t LB = P.Name.find('[');
        if (LB != std::string::npos) {
          unsigned Len = unsigned(std::strtoul(P.Name.c_str() + LB + 1, nullptr, 10));
          P.Bytes *= Len;
          P.Name.resize(LB);
        }
        S.E.Params.push_back(P);
      }
      I = Close + 1;
    }
    S.DirectivesBegin = I;
    size_t Body = M.find('{', I);
    if (Body == std::string::npos)
      return makeError("entry " + S.E.Name + ": no body");
    S.BodyBegin = Body;
    std::string Dirs = M.substr(I, Body - I);
    auto Read = [&](const char *Dir, std::array<unsigned, 3> &Out) -> Error {
      size_t D = Dirs.find(Dir);
      if (D == std::string::npos)
        return Error::success();
      size_t End = Dirs.find('\n', D);
      return parseDirectiveDims(
          Dirs.substr(D + std::string(Dir).size(),
                      End == std::string::npos ? std::string::npos
                                               : End - D - std::string(Dir).size()),
          Out);
    };
    if (Error Er = Read(".maxntid", S.E.MaxNTid))
      return Er.prefix("entry " + S.E.Name + ": ");
    if (Error Er = Read(".reqntid", S.E.ReqNTid))
      return Er.prefix("entry " + S.E.Name + ": ");
    std::array<unsigned, 3> Min{0, 0, 0};
    if (Dirs.find(".minnctapersm") != std::string::npos) {
      if (Error Er = Read(".minnctapersm", Min))
        return Er.prefix("entry " + S.E.Name + ": ");
      S.E.MinNCtaPerSM = Min[0];
    }
    Out.push_back(S);
    Pos = Body;
  }
  return Out;
}
} // namespace

Result<std::vector<PtxEntry>> listPtxEntries(const std::string &Ptx) {
  Result<std::vector<EntrySpan>> S = scanEntries(Ptx);
  if (!S)
    return S.takeError();
  std::vector<PtxEntry> Out;
  for (const EntrySpan &E : *S)
    Out.push_back(E.E);
  return Out;
}

Result<std::string> setPtxLaunchBounds(const std::string &Ptx,
                                       const std::string &Kernel,
                                       const std::array<unsigned, 3> &Block,
                                       unsigned MinBlocks) {
  Result<std::vector<EntrySpan>> Spans = scanEntries(Ptx);
  if (!Spans)
    return Spans.takeError();
  for (const EntrySpan &S : *Spans) {
    if (S.E.Name != Kernel)
      continue;
    if (S.E.ReqNTid[0] && S.E.ReqNTid != Block)
      return makeError("entry " + Kernel + " requires block [" +
                       std::to_string(S.E.ReqNTid[0]) + ", " +
                       std::to_string(S.E.ReqNTid[1]) + ", " +
                       std::to_string(S.E.ReqNTid[2]) + "] (.reqntid)");
    // Rebuild the directive region line by line, dropping the old bounds.
    std::string Region = Ptx.substr(S.DirectivesBegin, S.BodyBegin - S.DirectivesBegin);
    std::string Kept;
    size_t Start = 0;
    while (Start < Region.size()) {
      size_t End = Region.find('\n', Start);
      End = End == std::string::npos ? Region.size() : End + 1;
      std::string Line = Region.substr(Start, End - Start);
      Start = End;
      if (Line.find(".maxntid") != std::string::npos ||
          Line.find(".minnctapersm") != std::string::npos)
        continue;
      Kept += Line;
    }
    std::string Dirs;
    if (MinBlocks > 0)
      Dirs = ".maxntid " + std::to_string(Block[0]) + ", " +
             std::to_string(Block[1]) + ", " + std::to_string(Block[2]) +
             "\n.minnctapersm " + std::to_string(MinBlocks) + "\n";
    std::string Out = Ptx.substr(0, S.DirectivesBegin);
    if (!Dirs.empty())
      Out += "\n" + Dirs;
    // Keep whatever else was there (.maxnreg, .pragma, blank lines).
    size_t FirstNonSpace = Kept.find_first_not_of(" \t\r\n");
    Out += FirstNonSpace == std::string::npos ? std::string(Dirs.empty() ? "\n" : "")
                                              : Kept;
    Out += Ptx.substr(S.BodyBegin);
    return Out;
  }
  return makeError("no entry named " + Kernel + " in the PTX");
}

} // namespace measure
} // namespace flipflop

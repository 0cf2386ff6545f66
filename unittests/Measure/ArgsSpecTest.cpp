//===- ArgsSpecTest.cpp - Args files: parsing, errors, fills, grids -------===//
#include "ArgsSpec.h"
#include "gtest/gtest.h"
#include <cstring>

using namespace flipflop::measure;

namespace {

Result<ArgsSpec> parseText(const std::string &T) {
  Result<json::Value> V = json::parse(T);
  EXPECT_TRUE(bool(V)) << T;
  if (!V)
    return V.takeError();
  return parseArgsSpec(*V);
}

std::string errorOf(const std::string &T) {
  Result<ArgsSpec> S = parseText(T);
  return S ? std::string("(no error)") : S.error().message();
}

const char *Saxpy = R"({
  "kernel": "_Z15saxpyGridStridelfPKfS0_Pf",
  "total_threads": 1000,
  "args": [
    {"type": "i64", "value": "N"},
    {"type": "f32", "value": 2.5},
    {"type": "buffer", "elem": "f32", "count": "N", "fill": "random", "seed": 1},
    {"type": "buffer", "elem": "f32", "count": "N", "fill": "ones"},
    {"type": "buffer", "elem": "f32", "count": "4*N+32"}
  ]})";

TEST(ArgsSpec, ParsesAFullFile) {
  Result<ArgsSpec> S = parseText(Saxpy);
  ASSERT_TRUE(bool(S)) << S.error().message();
  EXPECT_EQ(S->Kernel, "_Z15saxpyGridStridelfPKfS0_Pf");
  EXPECT_EQ(S->totalThreads(), 1000u);
  ASSERT_EQ(S->Args.size(), 5u);
  EXPECT_FALSE(S->Args[0].IsBuffer);
  EXPECT_EQ(S->Args[0].Type, ScalarType::I64);
  EXPECT_EQ(S->Args[2].Fill, FillKind::Random);
  EXPECT_EQ(S->Args[4].Fill, FillKind::Zero);
  EXPECT_EQ(*bufferBytes(S->Args[4], S->Total), (4 * 1000 + 32) * 4u);
  std::vector<unsigned char> N = *scalarBytes(S->Args[0], S->Total);
  int64_t V;
  ASSERT_EQ(N.size(), 8u);
  std::memcpy(&V, N.data(), 8);
  EXPECT_EQ(V, 1000);
  std::vector<unsigned char> A = *scalarBytes(S->Args[1], S->Total);
  float F;
  std::memcpy(&F, A.data(), 4);
  EXPECT_EQ(F, 2.5f);
}

TEST(ArgsSpec, Errors) {
  EXPECT_EQ(errorOf("[]"), "expected an object at the top level");
  EXPECT_EQ(errorOf("{}"), "missing \"args\" (use [] for a kernel without parameters)");
  EXPECT_EQ(errorOf(R"({"args": [], "extra": 1})"), "unknown member \"extra\"");
  EXPECT_EQ(errorOf(R"({"args": [{"type": "f16", "value": 1}]})"),
            "args[0]: type: unknown type \"f16\" (buffer, i8 u8 i16 u16 i32 u32 i64 u64 f32 f64)");
  EXPECT_EQ(errorOf(R"({"args": [{"type": "buffer", "elem": "f32"}]})"),
            "args[0]: missing \"count\"");
  EXPECT_EQ(errorOf(R"({"args": [{"type": "buffer", "count": "N"}]})"),
            "args[0]: uses N but \"total_threads\" is not given");
  EXPECT_EQ(errorOf(R"({"total_threads": 8, "args": [{"type": "buffer", "count": "N*"}]})"),
            "args[0]: count: in \"N*\": unexpected end");
  EXPECT_EQ(errorOf(R"({"args": [{"type": "buffer", "count": 4, "fill": "sine"}]})"),
            "args[0]: fill: unknown pattern \"sine\" (zero, ones, iota, random)");
  EXPECT_EQ(errorOf(R"({"args": [{"type": "i32", "value": 1.5}]})"),
            "args[0]: value: expected an integer for i32");
  EXPECT_EQ(errorOf(R"({"args": [{"type": "f32", "value": "N"}]})"),
            "args[0]: value: expressions are for integer scalars");
  EXPECT_EQ(errorOf(R"({"args": [{"type": "i32"}]})"), "args[0]: missing \"value\"");
  EXPECT_EQ(errorOf(R"({"args": [{"type": "i32", "value": 1, "fill": "zero"}]})"),
            "args[0]: a scalar takes no \"fill\"");
  EXPECT_EQ(errorOf(R"({"args": [{"type": "buffer", "count": 4, "min": 1}]})"),
            "args[0]: give both \"min\" and \"max\", or neither");
  EXPECT_EQ(errorOf(R"({"args": [{"type": "buffer", "count": 4, "colour": 1}]})"),
            "args[0]: unknown member \"colour\"");
  EXPECT_EQ(errorOf(R"({"total_threads": 0, "args": []})"),
            "total_threads: expected positive integers");
  EXPECT_EQ(errorOf(R"({"grid": [0, 1], "args": []})"), "grid: dimensions must be positive");
}

TEST(ArgsSpec, LoadErrorsNameTheFile) {
  Result<ArgsSpec> S = loadArgsSpec("/nonexistent/args.json");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(S.error().message().rfind("/nonexistent/args.json: cannot open", 0), 0u);
}

TEST(ArgsSpec, SizeExpressions) {
  std::array<uint64_t, 3> T{100, 50, 2};
  EXPECT_EQ(*evalSizeExpr("N", T), 10000u);
  EXPECT_EQ(*evalSizeExpr("4*N+32", T), 40032u);
  EXPECT_EQ(*evalSizeExpr("(NX+15)/16", T), 7u);
  EXPECT_EQ(*evalSizeExpr("NX * NY - NZ", T), 4998u);
  EXPECT_EQ(*evalSizeExpr(" 7 ", T), 7u);
  EXPECT_EQ(evalSizeExpr("N/0", T).error().message(), "in \"N/0\": division by zero");
  EXPECT_EQ(evalSizeExpr("1-2", T).error().message(), "in \"1-2\": negative value");
  EXPECT_EQ(evalSizeExpr("(1", T).error().message(), "in \"(1\": missing ')'");
  EXPECT_EQ(evalSizeExpr("M", T).error().message(), "in \"M\": unexpected 'M'");
  EXPECT_FALSE(bool(evalSizeExpr("N*N*N*N*N*N", T)));
}

TEST(ArgsSpec, Grids) {
  ArgsSpec S;
  EXPECT_EQ(computeGrid(S, {256, 1, 1}).error().message(),
            "neither \"grid\" nor \"total_threads\" is given");
  S.Total = {1000, 1, 1};
  S.HasTotal = true;
  EXPECT_EQ(*computeGrid(S, {256, 1, 1}), (std::array<unsigned, 3>{4, 1, 1}));
  S.Total = {100, 50, 1};
  EXPECT_EQ(*computeGrid(S, {16, 16, 1}), (std::array<unsigned, 3>{7, 4, 1}));
  S.Total = {1, 100000, 1};
  EXPECT_FALSE(bool(computeGrid(S, {1, 1, 1}))); // y > 65535
  S.HasGrid = true;
  S.Grid = {12, 3, 1};
  EXPECT_EQ(*computeGrid(S, {16, 16, 1}), (std::array<unsigned, 3>{12, 3, 1}));
}

TEST(ArgsSpec, Fills) {
  std::array<uint64_t, 3> T{4, 1, 1};
  ArgSpec A;
  A.IsBuffer = true;
  A.CountExpr = "N";
  A.Type = ScalarType::I32;
  A.Fill = FillKind::Iota;
  std::vector<unsigned char> B = *fillBuffer(A, T);
  ASSERT_EQ(B.size(), 16u);
  int32_t I[4];
  std::memcpy(I, B.data(), 16);
  EXPECT_EQ(I[0], 0);
  EXPECT_EQ(I[3], 3);
  A.Type = ScalarType::F32;
  A.Fill = FillKind::Ones;
  B = *fillBuffer(A, T);
  float F[4];
  std::memcpy(F, B.data(), 16);
  EXPECT_EQ(F[2], 1.0f);
  // Random integers default to [0, count): valid indices.
  A.Type = ScalarType::U32;
  A.Fill = FillKind::Random;
  A.CountExpr = "1000";
  B = *fillBuffer(A, T);
  for (size_t K = 0; K < 1000; ++K) {
    uint32_t U;
    std::memcpy(&U, B.data() + 4 * K, 4);
    ASSERT_LT(U, 1000u);
  }
  EXPECT_EQ(*fillBuffer(A, T), B); // Same seed, same data.
  A.Seed = 2;
  EXPECT_NE(*fillBuffer(A, T), B);
  A.Type = ScalarType::F64;
  B = *fillBuffer(A, T);
  for (size_t K = 0; K < 1000; ++K) {
    double D;
    std::memcpy(&D, B.data() + 8 * K, 8);
    ASSERT_GE(D, 0.0);
    ASSERT_LT(D, 1.0);
  }
}

TEST(ArgsSpec, ScalarRanges) {
  ArgSpec A;
  A.Type = ScalarType::U8;
  A.Number = 300;
  EXPECT_EQ(scalarBytes(A, {1, 1, 1}).error().message(), "value 300 does not fit in u8");
  A.Type = ScalarType::I16;
  A.Number = -2;
  std::vector<unsigned char> B = *scalarBytes(A, {1, 1, 1});
  ASSERT_EQ(B.size(), 2u);
  EXPECT_EQ(B[0], 0xFE);
  EXPECT_EQ(B[1], 0xFF);
}

} // namespace

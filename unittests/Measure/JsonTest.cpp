//===- JsonTest.cpp - The measurement tools' JSON reader and writer -------===//
#include "Json.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstdio>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

using namespace flipflop::measure;

namespace {

TEST(Json, RoundTrip) {
  json::Value O = json::Value::object();
  O.set("schema_version", 1);
  O.set("name", "NVIDIA H200");
  O.set("block", json::Array{json::Value(256), json::Value(1), json::Value(1)});
  O.set("time_s", 1.25e-5);
  O.set("energy_j", 0.1);
  O.set("ok", true);
  O.set("none", nullptr);
  json::Value K = json::Value::object();
  K.set("text", "quote\" back\\ tab\t nl\n ctl\x01");
  O.set("kernel", json::Array{K});
  for (unsigned Indent : {0u, 2u}) {
    std::string S = json::write(O, Indent);
    Result<json::Value> Back = json::parse(S);
    ASSERT_TRUE(bool(Back)) << Back.error().message();
    EXPECT_EQ(*Back, O) << S;
    EXPECT_EQ(json::write(*Back, Indent), S);
  }
  EXPECT_EQ(json::write(O, 0),
            "{\"schema_version\":1,\"name\":\"NVIDIA H200\",\"block\":[256,1,1],"
            "\"time_s\":1.25e-05,\"energy_j\":0.1,\"ok\":true,\"none\":null,"
            "\"kernel\":[{\"text\":\"quote\\\" back\\\\ tab\\t nl\\n "
            "ctl\\u0001\"}]}");
}

TEST(Json, KeysKeepOrderAndSetReplaces) {
  json::Value O = json::Value::object();
  O.set("b", 1);
  O.set("a", 2);
  O.set("b", 3);
  EXPECT_EQ(json::write(O, 0), "{\"b\":3,\"a\":2}");
  ASSERT_NE(O.get("a"), nullptr);
  EXPECT_EQ(O.get("a")->getNumber(), 2);
  EXPECT_EQ(O.get("zz"), nullptr);
}

TEST(Json, NumbersAreShortestExact) {
  EXPECT_EQ(json::formatNumber(3), "3");
  EXPECT_EQ(json::formatNumber(-0.0), "0");
  EXPECT_EQ(json::formatNumber(0.1), "0.1");
  EXPECT_EQ(json::formatNumber(1e-7), "1e-07");
  EXPECT_EQ(json::formatNumber(700.5), "700.5");
  EXPECT_EQ(json::formatNumber(std::numeric_limits<double>::quiet_NaN()), "null");
  double Third = 1.0 / 3;
  EXPECT_EQ(std::strtod(json::formatNumber(Third).c_str(), nullptr), Third);
  Result<json::Value> V = json::parse("[-0.5, 2E3, 1e-2, 0]");
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(V->getArray()[0].getNumber(), -0.5);
  EXPECT_EQ(V->getArray()[1].getNumber(), 2000);
  EXPECT_EQ(V->getArray()[2].getNumber(), 0.01);
}

TEST(Json, UnicodeEscapes) {
  Result<json::Value> V = json::parse("\"caf\\u00e9 \\ud83d\\ude00\"");
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(V->getString(), "caf\xc3\xa9 \xf0\x9f\x98\x80");
}

TEST(Json, ErrorsNameLineAndColumn) {
  Result<json::Value> V = json::parse("{\n  \"a\": tru }");
  ASSERT_FALSE(bool(V));
  EXPECT_EQ(V.error().message(), "line 2, column 8: unexpected character 't'");
  V = json::parse("{\"a\": 1,}");
  ASSERT_FALSE(bool(V));
  EXPECT_EQ(V.error().message(), "line 1, column 9: expected a member name in quotes");
  EXPECT_FALSE(bool(json::parse("{\"a\": 1, \"a\": 2}")));
  EXPECT_FALSE(bool(json::parse("[1, 2")));
  EXPECT_FALSE(bool(json::parse("01")));
  EXPECT_FALSE(bool(json::parse("1.")));
  EXPECT_FALSE(bool(json::parse("\"\\ud800\"")));
  EXPECT_FALSE(bool(json::parse("\"a\nb\"")));
  EXPECT_FALSE(bool(json::parse("[] []")));
  EXPECT_FALSE(bool(json::parse(std::string(1000, '['))));
}

TEST(Json, TypedAccessors) {
  json::Value O = *json::parse("{\"n\": 2, \"s\": \"x\", \"d\": [16, 16], \"bad\": [1, -1]}");
  double N = 0;
  std::string S;
  unsigned D[3] = {0, 0, 0};
  EXPECT_FALSE(bool(json::getNumber(O, "n", N)));
  EXPECT_EQ(N, 2);
  EXPECT_EQ(json::getNumber(O, "s", N).message(), "\"s\": expected a number");
  EXPECT_EQ(json::getString(O, "missing", S).message(), "missing \"missing\"");
  EXPECT_FALSE(bool(json::getString(O, "missing", S, /*Required=*/false)));
  EXPECT_FALSE(bool(json::getDim3(O, "d", D)));
  EXPECT_EQ(D[0], 16u);
  EXPECT_EQ(D[1], 16u);
  EXPECT_EQ(D[2], 1u);
  EXPECT_TRUE(bool(json::getDim3(O, "bad", D)));
}

TEST(Json, FileRoundTrip) {
  std::string Path = ::testing::TempDir() + "/flipflop-json-test.json";
  json::Value O = json::Value::object();
  O.set("x", 1.5);
  ASSERT_FALSE(bool(json::writeFile(O, Path)));
  Result<json::Value> Back = json::readFile(Path);
  ASSERT_TRUE(bool(Back));
  EXPECT_EQ(*Back, O);
  std::remove(Path.c_str());
  Result<json::Value> Missing = json::readFile(Path);
  ASSERT_FALSE(bool(Missing));
  EXPECT_NE(Missing.error().message().find(Path + ": cannot open"), std::string::npos);
}

TEST(Json, WriterNeverFollowsAPlantedTemporary) {
  // The old writer opened PATH.tmp with truncation: a symlink planted there
  // redirected a root-run tool's output into any file.
  std::string Dir = ::testing::TempDir() + "/flipflop-json-writer";
  std::string Victim = Dir + "-victim", Path = Dir + "-out.json";
  std::remove(Victim.c_str());
  std::remove(Path.c_str());
  std::remove((Path + ".tmp").c_str());
  {
    std::FILE *F = std::fopen(Victim.c_str(), "w");
    ASSERT_NE(F, nullptr);
    std::fputs("precious\n", F);
    std::fclose(F);
  }
  ASSERT_EQ(::symlink(Victim.c_str(), (Path + ".tmp").c_str()), 0);
  json::Value O = json::Value::object();
  O.set("x", 1.0);
  ASSERT_FALSE(bool(json::writeFile(O, Path)));
  Result<json::Value> Back = json::readFile(Path);
  ASSERT_TRUE(bool(Back));
  EXPECT_EQ(*Back, O);
  char Buf[32] = {};
  std::FILE *F = std::fopen(Victim.c_str(), "r");
  ASSERT_NE(F, nullptr);
  ASSERT_NE(std::fgets(Buf, sizeof(Buf), F), nullptr);
  std::fclose(F);
  EXPECT_STREQ(Buf, "precious\n");
  // An existing file keeps its permissions.
  ASSERT_EQ(::chmod(Path.c_str(), 0640), 0);
  ASSERT_FALSE(bool(json::writeFile(O, Path)));
  struct stat St;
  ASSERT_EQ(::stat(Path.c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0640u);
  std::remove(Victim.c_str());
  std::remove(Path.c_str());
  std::remove((Path + ".tmp").c_str());
}

} // namespace

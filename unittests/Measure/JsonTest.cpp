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
  O["schema_version"] = 1;
  O["name"] = "NVIDIA H200";
  O["block"] = json::Array{json::Value(256), json::Value(1), json::Value(1)};
  O["time_s"] = 1.25e-5;
  O["energy_j"] = 0.1;
  O["ok"] = true;
  O["none"] = nullptr;
  json::Value K = json::Value::object();
  K["text"] = "quote\" back\\ tab\t nl\n ctl\x01 caf\xc3\xa9";
  O["kernel"] = json::Array{K};
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
            "ctl\\u0001 caf\xc3\xa9\"}]}");
}

TEST(Json, IndentedLayout) {
  // The reports' layout: one member per line, arrays of scalars on one line,
  // arrays of objects one element per line, empty containers closed at once.
  Result<json::Value> V = json::parse(
      R"({"a": [1, 2.5, "x", null], "b": [{"c": []}, {}], "d": {"e": true}})");
  ASSERT_TRUE(bool(V)) << V.error().message();
  EXPECT_EQ(json::write(*V), "{\n"
                             "  \"a\": [1, 2.5, \"x\", null],\n"
                             "  \"b\": [\n"
                             "    {\n"
                             "      \"c\": []\n"
                             "    },\n"
                             "    {}\n"
                             "  ],\n"
                             "  \"d\": {\n"
                             "    \"e\": true\n"
                             "  }\n"
                             "}");
}

TEST(Json, KeysKeepOrderAndAssignmentReplaces) {
  json::Value O = json::Value::object();
  O["b"] = 1;
  O["a"] = 2;
  O["b"] = 3;
  EXPECT_EQ(json::write(O, 0), "{\"b\":3,\"a\":2}");
  ASSERT_NE(json::find(O, "a"), nullptr);
  EXPECT_EQ(json::find(O, "a")->get<double>(), 2);
  EXPECT_EQ(json::find(O, "zz"), nullptr);
  EXPECT_EQ(json::find(json::Value(3), "a"), nullptr);
}

TEST(Json, NumbersAreShortestExact) {
  EXPECT_EQ(json::formatNumber(3), "3");
  EXPECT_EQ(json::formatNumber(-0.0), "0");
  EXPECT_EQ(json::formatNumber(0.1), "0.1");
  EXPECT_EQ(json::formatNumber(1e-7), "1e-07");
  EXPECT_EQ(json::formatNumber(700.5), "700.5");
  EXPECT_EQ(json::formatNumber(1e15), "1e+15");
  EXPECT_EQ(json::formatNumber(std::numeric_limits<double>::quiet_NaN()), "null");
  double Third = 1.0 / 3;
  EXPECT_EQ(std::strtod(json::formatNumber(Third).c_str(), nullptr), Third);
  Result<json::Value> V = json::parse("[-0.5, 2E3, 1e-2, 0]");
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(json::elements(*V)[0].get<double>(), -0.5);
  EXPECT_EQ(json::elements(*V)[1].get<double>(), 2000);
  EXPECT_EQ(json::elements(*V)[2].get<double>(), 0.01);
}

TEST(Json, NumbersWriteTheSameWhateverTheirStoredType) {
  // nlohmann keeps integers as integers and 3.0 as a double; the writer
  // prints every number from its double value, as the reports always had.
  json::Value O = json::Value::object();
  O["int"] = 3;
  O["float"] = 3.0;
  O["unsigned"] = uint64_t(1) << 60;
  O["big"] = 1e300;
  O["tiny"] = 5e-324;
  O["third"] = 1.0 / 3;
  O["inf"] = std::numeric_limits<double>::infinity();
  std::string S = json::write(O, 0);
  EXPECT_EQ(S, "{\"int\":3,\"float\":3,\"unsigned\":1.152921504606847e+18,"
               "\"big\":1e+300,\"tiny\":4.94065645841247e-324,"
               "\"third\":0.3333333333333333,\"inf\":null}");
  Result<json::Value> Back = json::parse(S);
  ASSERT_TRUE(bool(Back)) << Back.error().message();
  for (const char *K : {"int", "float", "unsigned", "big", "tiny", "third"})
    EXPECT_EQ(json::find(*Back, K)->get<double>(), json::find(O, K)->get<double>()) << K;
  // Integers too long for a double's exact range still read and print.
  Result<json::Value> Big =
      json::parse("[18446744073709551615, -9223372036854775808, 123456789012345678]");
  ASSERT_TRUE(bool(Big));
  EXPECT_EQ(json::write(*Big, 0),
            "[1.8446744073709552e+19,-9.223372036854776e+18,1.2345678901234568e+17]");
}

TEST(Json, InvalidUTF8IsWrittenAsReplacementCharacter) {
  // nlohmann's reader rejects ill-formed UTF-8, so the writer never emits it.
  json::Value O = json::Value::object();
  O["caf\xe9"] = "caf\xe9";
  EXPECT_EQ(json::write(O, 0), "{\"caf\xef\xbf\xbd\":\"caf\xef\xbf\xbd\"}");
  EXPECT_TRUE(bool(json::parse(json::write(O, 0))));
}

TEST(Json, UnicodeEscapes) {
  Result<json::Value> V = json::parse("\"caf\\u00e9 \\ud83d\\ude00\"");
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(V->get_ref<const std::string &>(), "caf\xc3\xa9 \xf0\x9f\x98\x80");
}

std::string parseError(const std::string &Text) {
  Result<json::Value> V = json::parse(Text);
  return V ? std::string("(parsed)") : V.error().message();
}

TEST(Json, ErrorsNameLineAndColumn) {
  // The place is the character where the document went wrong (one past the
  // end when it stops early); the message is nlohmann's, on one line.
  EXPECT_EQ(parseError("{\n  \"a\": tru }"),
            "line 2, column 11: syntax error while parsing value - invalid literal; "
            "last read: '\"a\": tru '");
  EXPECT_EQ(parseError("{\"a\": 1,}"),
            "line 1, column 9: syntax error while parsing object key - unexpected '}'; "
            "expected string literal");
  EXPECT_EQ(parseError("[1, 2"), "line 1, column 6: syntax error while parsing array - "
                                 "unexpected end of input; expected ']'");
  EXPECT_EQ(parseError(""), "line 1, column 1: syntax error while parsing value - "
                            "unexpected end of input; expected '[', '{', or a literal");
  EXPECT_EQ(parseError("{\"x\": \"a\nb\"}"),
            "line 1, column 9: syntax error while parsing value - invalid string: control "
            "character U+000A (LF) must be escaped to \\u000A or \\n; last read: '\"a<U+000A>'");
  EXPECT_EQ(parseError("[1e400]"), "line 1, column 6: number overflow parsing '1e400'");
  EXPECT_EQ(parseError("{\"a\": 1,\n \"a\": 2}"), "line 2, column 4: duplicate member \"a\"");
  EXPECT_EQ(parseError("[" + std::string(300, '[')), "line 1, column 258: nesting too deep");
  for (const char *Bad : {"01", "1.", "\"\\ud800\"", "[] []", "{\"a\" 1}", "\"\\q\"",
                          "'a'", "[1,]", "NaN", "\"caf\xe9\""}) {
    std::string Msg = parseError(Bad);
    EXPECT_EQ(Msg.compare(0, 5, "line "), 0) << Bad << ": " << Msg;
    EXPECT_EQ(Msg.find('\n'), std::string::npos) << Bad << ": " << Msg;
  }
}

TEST(Json, LongTokensAreCutInErrors) {
  std::string Msg = parseError("{\"a\": \"" + std::string(100000, 'x'));
  EXPECT_LT(Msg.size(), 200u) << Msg;
  EXPECT_NE(Msg.find("missing closing quote; last read: '..."), std::string::npos) << Msg;
}

TEST(Json, DepthLimit) {
  std::string Ok = std::string(257, '[') + std::string(257, ']');
  EXPECT_TRUE(bool(json::parse(Ok))) << parseError(Ok);
  std::string Deep = std::string(258, '[') + std::string(258, ']');
  EXPECT_EQ(parseError(Deep), "line 1, column 258: nesting too deep");
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

TEST(Json, WrongTypesAreErrorsNotAborts) {
  // Every accessor checks the type before it reads: a wrong type is an
  // Error naming the key (nlohmann's get<T>() would abort here).
  json::Value O = *json::parse(R"({"n": "2", "s": 3, "d": {"x": 1}, "e": [true], "f": [1.5],
                                   "g": [1, 2, 3, 4], "h": [], "i": [4294967296]})");
  double N = 0;
  std::string S;
  unsigned D[3] = {7, 7, 7};
  EXPECT_EQ(json::getNumber(O, "n", N).message(), "\"n\": expected a number");
  EXPECT_EQ(json::getString(O, "s", S).message(), "\"s\": expected a string");
  EXPECT_EQ(json::getDim3(O, "d", D).message(), "\"d\": expected an array of 1 to 3 integers");
  EXPECT_EQ(json::getDim3(O, "e", D).message(), "\"e\": expected non-negative integers");
  EXPECT_EQ(json::getDim3(O, "f", D).message(), "\"f\": expected non-negative integers");
  EXPECT_EQ(json::getDim3(O, "g", D).message(), "\"g\": expected an array of 1 to 3 integers");
  EXPECT_EQ(json::getDim3(O, "h", D).message(), "\"h\": expected an array of 1 to 3 integers");
  EXPECT_EQ(json::getDim3(O, "i", D).message(), "\"i\": expected non-negative integers");
  EXPECT_EQ(D[0], 7u);
  // Not an object at all: every key is missing.
  EXPECT_EQ(json::getNumber(json::Value(1), "n", N).message(), "missing \"n\"");
  EXPECT_EQ(json::getString(json::Value::array(), "s", S).message(), "missing \"s\"");
}

TEST(Json, FileRoundTrip) {
  std::string Path = ::testing::TempDir() + "/flipflop-json-test.json";
  json::Value O = json::Value::object();
  O["x"] = 1.5;
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
  O["x"] = 1.0;
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

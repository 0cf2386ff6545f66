//===- OptionsTest.cpp - Command-line values of the measurement tools -----===//
#include "Options.h"
#include "gtest/gtest.h"

using namespace flipflop::measure;

namespace {

TEST(Options, UnsignedLists) {
  EXPECT_EQ(*parseUnsignedList("32:128:32,16"), (std::vector<unsigned>{16, 32, 64, 96, 128}));
  EXPECT_EQ(*parseUnsignedList("4,2,4"), (std::vector<unsigned>{2, 4}));
  EXPECT_EQ(parseUnsignedList("").error().message(), "empty list");
  EXPECT_EQ(parseUnsignedList("1,x").error().message(), "'x' is not a non-negative integer");
  EXPECT_EQ(parseUnsignedList("8:4:1").error().message(), "'8:4:1': empty range or zero step");
  EXPECT_EQ(parseUnsignedList("1:2").error().message(), "'1:2': a range is first:last:step");
  EXPECT_FALSE(bool(parseUnsignedList("99999999999")));
}

TEST(Options, DoubleLists) {
  EXPECT_EQ(*parseDoubleList("300,200,250.5"), (std::vector<double>{200, 250.5, 300}));
  EXPECT_FALSE(bool(parseDoubleList("0")));
  EXPECT_FALSE(bool(parseDoubleList("-5")));
  EXPECT_FALSE(bool(parseDoubleList("5W")));
}

TEST(Options, Dims) {
  EXPECT_EQ(*parseDim3("256"), (std::array<unsigned, 3>{256, 1, 1}));
  EXPECT_EQ(*parseDim3("16x16"), (std::array<unsigned, 3>{16, 16, 1}));
  EXPECT_EQ(*parseDim3("8,8,4"), (std::array<unsigned, 3>{8, 8, 4}));
  EXPECT_FALSE(bool(parseDim3("0x4")));
  EXPECT_FALSE(bool(parseDim3("1x2x3x4")));
  EXPECT_EQ(parseDim3List("256;16x16")->size(), 2u);
}

TEST(Options, CommandLine) {
  std::vector<OptionSpec> Specs = {{"o", true, "out"}, {"quick", false, "fast"}};
  const char *Argv[] = {"tool", "in.ptx", "--o=x.json", "--quick"};
  Result<ParsedOptions> P = parseCommandLine(4, Argv, Specs);
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(P->get("o"), "x.json");
  EXPECT_TRUE(P->has("quick"));
  EXPECT_EQ(P->Positional, (std::vector<std::string>{"in.ptx"}));
  const char *Argv2[] = {"tool", "--o", "y.json"};
  EXPECT_EQ(parseCommandLine(3, Argv2, Specs)->get("o"), "y.json");
  const char *Short[] = {"tool", "-o", "z.json", "-"};
  P = parseCommandLine(4, Short, Specs);
  EXPECT_EQ(P->get("o"), "z.json");
  EXPECT_EQ(P->Positional, (std::vector<std::string>{"-"}));
  const char *Bad[] = {"tool", "--nope"};
  EXPECT_EQ(parseCommandLine(2, Bad, Specs).error().message(),
            "unknown option --nope (see --help)");
  const char *Missing[] = {"tool", "--o"};
  EXPECT_EQ(parseCommandLine(2, Missing, Specs).error().message(), "option --o needs a value");
  const char *FlagValue[] = {"tool", "--quick=1"};
  EXPECT_FALSE(bool(parseCommandLine(2, FlagValue, Specs)));
}

} // namespace

// The helper's wire format: round trips, bounds, and replies that do not
// parse (the daemon side never trusts the helper's bytes blindly either).
#include "app/priv_protocol.h"

#include <gtest/gtest.h>

namespace dp::priv {
namespace {

Request ToolRequest() {
  Request r;
  r.op = Op::kRunTool;
  r.tool_id = "smartctl";
  r.timeout_ms = 30000;
  r.max_output_bytes = 1 << 20;
  r.args = {"-x", "-j", "-n", "standby", "/dev/sda"};
  return r;
}

TEST(PrivProtocolTest, RequestsRoundTrip) {
  auto back = DecodeRequest(EncodeRequest(ToolRequest()));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->op, Op::kRunTool);
  EXPECT_EQ(back->tool_id, "smartctl");
  EXPECT_EQ(back->timeout_ms, 30000u);
  EXPECT_EQ(back->max_output_bytes, 1u << 20);
  EXPECT_EQ(back->args, ToolRequest().args);

  Request open;
  open.path = "/dev/disk/by-id/ata-X";
  auto o = DecodeRequest(EncodeRequest(open));
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->op, Op::kOpenDevice);
  EXPECT_EQ(o->path, open.path);
}

TEST(PrivProtocolTest, RequestsOutOfBoundsAreRefused) {
  Request many = ToolRequest();
  many.args.assign(kMaxArgs + 1, "x");
  Request no_timeout = ToolRequest();
  no_timeout.timeout_ms = 0;
  Request huge_output = ToolRequest();
  huge_output.max_output_bytes = kMaxOutputBytes + 1;
  Request empty_path;
  Request long_path;
  long_path.path = "/" + std::string(kMaxPathBytes, 'a');
  for (const Request& r : {many, no_timeout, huge_output, empty_path, long_path}) {
    auto d = DecodeRequest(EncodeRequest(r));
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.status().code(), StatusCode::kInvalidArgument);
  }
  EXPECT_FALSE(DecodeRequest("").ok());
}

TEST(PrivProtocolTest, RepliesRoundTripAndBadOnesAreCorrupt) {
  CommandOutput out;
  out.exit_code = 4;
  out.term_signal = 0;
  out.stdout_text = std::string("{\"json\": 1}\0binary\xff", 19);
  out.stderr_text = "warn";
  out.stdout_truncated = true;
  out.seconds = 1.25;
  auto r = DecodeReply(EncodeOutputReply(out), -1);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->kind, ReplyKind::kOutput);
  EXPECT_EQ(r->output.exit_code, 4);
  EXPECT_EQ(r->output.stdout_text, out.stdout_text);
  EXPECT_EQ(r->output.stderr_text, "warn");
  EXPECT_TRUE(r->output.stdout_truncated);
  EXPECT_FALSE(r->output.stderr_truncated);
  EXPECT_DOUBLE_EQ(r->output.seconds, 1.25);

  auto e = DecodeReply(EncodeErrorReply(PermissionDenied("no")), -1);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->kind, ReplyKind::kError);
  EXPECT_EQ(e->error.code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(e->error.message(), "no");

  std::string output = EncodeOutputReply(out);
  for (const std::string& bad :
       {std::string(), std::string("\x09"), output.substr(0, output.size() - 1), output + "x",
        EncodeDeviceReply() /* without a descriptor */,
        std::string("\x00\x00\x00\x00\x00\x00\x00\x00\x00", 9) /* error with code OK */}) {
    auto d = DecodeReply(bad, -1);
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.status().code(), StatusCode::kCorrupt);
  }
}

}  // namespace
}  // namespace dp::priv

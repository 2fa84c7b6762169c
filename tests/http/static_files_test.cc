// Static file safety: everything that could reach outside webui_root is
// refused, tried on a real folder with a secret beside it and symlinks.
#include "http/static_files.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include "http/mime_types.h"
#include "support/temp_dir.h"

namespace dp::http {
namespace {

using dp::testing::TempDir;

class StaticFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_.Write("secret.txt", "top secret");
    tmp_.Write("webui/index.html", "<h1>hi</h1>");
    tmp_.Write("webui/css/site.css", "body{}");
    tmp_.Write("webui/js/app.js", "export {}");
    tmp_.Write("webui/.hidden", "dot");
    tmp_.Write("webui/sub/index.html", "sub index");
    ASSERT_EQ(::symlink(tmp_.Path("secret.txt").c_str(), tmp_.Path("webui/escape").c_str()), 0);
    ASSERT_EQ(::symlink("/", tmp_.Path("webui/rootdir").c_str()), 0);
    ASSERT_EQ(::symlink("css/site.css", tmp_.Path("webui/inside-link.css").c_str()), 0);
    files_ = std::make_unique<StaticFiles>(tmp_.Path("webui"));
  }
  Response Get(const std::string& target) {
    return files_->Serve(Request::Make(Method::kGet, target));
  }

  TempDir tmp_;
  std::unique_ptr<StaticFiles> files_;
};

TEST_F(StaticFilesTest, ServesIndexForRootWithHtmlType) {
  Response r = Get("/");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "<h1>hi</h1>");
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  ASSERT_NE(r.Header("Content-Security-Policy"), nullptr);
  EXPECT_EQ(Get("/index.html").body, "<h1>hi</h1>");
  EXPECT_EQ(Get("/sub/").body, "sub index");
}

TEST_F(StaticFilesTest, ServesFilesWithTheirMimeTypes) {
  Response css = Get("/css/site.css");
  EXPECT_EQ(css.status, 200);
  EXPECT_EQ(css.body, "body{}");
  EXPECT_EQ(css.content_type, "text/css; charset=utf-8");
  Response js = Get("/js/app.js?v=3");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.content_type, "text/javascript; charset=utf-8");
  EXPECT_EQ(Get("/inside-link.css").status, 200);  // a symlink within the root is fine
}

TEST_F(StaticFilesTest, MissingFilesAndFoldersAre404) {
  EXPECT_EQ(Get("/nope.html").status, 404);
  EXPECT_EQ(Get("/css").status, 404);  // a folder without a trailing slash
  EXPECT_EQ(Get("/css/").status, 404);  // a folder without index.html
}

TEST_F(StaticFilesTest, DotSegmentsAreRefused) {
  for (const char* t : {"/../secret.txt", "/css/../../secret.txt", "/%2e%2e/secret.txt",
                        "/%2E%2E/secret.txt", "/.%2e/secret.txt", "/css/%2e%2e/index.html",
                        "/./index.html", "/css/.."}) {
    Response r = Get(t);
    EXPECT_EQ(r.status, 400) << t;
    EXPECT_EQ(r.body.find("top secret"), std::string::npos) << t;
  }
}

TEST_F(StaticFilesTest, EncodedSeparatorsAndNulAreRefused) {
  for (const char* t : {"/..%2fsecret.txt", "/css%2f..%2f..%2fsecret.txt", "/%2fetc%2fpasswd",
                        "/..%5csecret.txt", "/index.html%00.css", "/%00"}) {
    EXPECT_EQ(Get(t).status, 400) << t;
  }
}

TEST_F(StaticFilesTest, AbsoluteAndOddPathsAreRefused) {
  EXPECT_EQ(Get("//etc/passwd").status, 400);
  EXPECT_EQ(Get("/css//site.css").status, 400);
  EXPECT_EQ(files_->Serve(Request::Make(Method::kGet, "etc/passwd")).status, 400);
  EXPECT_EQ(files_->Serve(Request::Make(Method::kGet, "http://x/etc/passwd")).status, 400);
  EXPECT_EQ(Get("/%zz").status, 400);
}

TEST_F(StaticFilesTest, HiddenFilesAre404) { EXPECT_EQ(Get("/.hidden").status, 404); }

TEST_F(StaticFilesTest, SymlinksOutOfTheRootAre404) {
  Response r = Get("/escape");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body.find("top secret"), std::string::npos);
  EXPECT_EQ(Get("/rootdir/etc/passwd").status, 404);
}

TEST_F(StaticFilesTest, MissingRootIs404) {
  StaticFiles none(tmp_.Path("does-not-exist"));
  EXPECT_EQ(none.Serve(Request::Make(Method::kGet, "/")).status, 404);
}

TEST(MimeTypes, KnownAndUnknownExtensions) {
  EXPECT_EQ(MimeTypeForPath("/a/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(MimeTypeForPath("x.MJS"), "text/javascript; charset=utf-8");
  EXPECT_EQ(MimeTypeForPath("logo.svg"), "image/svg+xml");
  EXPECT_EQ(MimeTypeForPath("f.woff2"), "font/woff2");
  EXPECT_EQ(MimeTypeForPath("data.json"), "application/json");
  EXPECT_EQ(MimeTypeForPath("README"), "application/octet-stream");
  EXPECT_EQ(MimeTypeForPath("dir.d/file"), "application/octet-stream");
  EXPECT_EQ(MimeTypeForPath("archive.tar.zst"), "application/octet-stream");
}

}  // namespace
}  // namespace dp::http

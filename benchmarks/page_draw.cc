// page_draw: the page in headless Chromium on a big database — how long the
// first screen takes and how much it transfers, and how long the trend
// charts take to draw with 260+ points per series, hand-written SVG
// (webui/js/chart.js) side by side with uPlot when its file is given.
//
//   page_draw [--db FILE] [--webui DIR] [--rounds 5] [--uplot uPlot.iife.min.js]
//
// FILE is the database benchmarks/page_api seeds (24 drives x 5 years by
// default); it is served by the real router and static files on loopback,
// and the page is driven over the DevTools protocol (tests/webui's
// Browser). Figures: navigation to the overview drawn (the page's own
// data-overview-ms) with each load's requests (start-end ms), bytes
// transferred on first load (Resource Timing), the overview drawn again from
// its answer (the page's own work), and the median drawing time of 5 charts
// x 3 series x 260 points.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "base/clock.h"
#include "http/api.h"
#include "http/server.h"
#include "store/store.h"
#include "webui/browser_util.h"

namespace {

using nlohmann::json;

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Draws 5 charts of 3 series x 260 weekly points with `draw` ('svg' or
// 'uplot') into a fresh box and returns the milliseconds, layout included.
constexpr const char* kDrawJs = R"((async (kind) => {
  const { lineChart } = await import('/js/chart.js');
  const now = Math.floor(Date.now() / 1000);
  const series = ['outer', 'middle', 'inner'].map((key, k) => ({ key, baseline:
      { ready: true, runs: 100, wanted: 5, median: 200 - 40 * k, low: 185 - 40 * k, high: 215 - 40 * k },
    samples: Array.from({ length: 260 }, (_, i) => ({ run_id: i, at: now - (260 - i) * 604800,
      value: 200 - 40 * k + 5 * Math.sin(i / 7), contended: i % 37 === 0, partial: false })) }));
  const box = document.createElement('div');
  box.style.width = '560px';
  document.body.append(box);
  const t0 = performance.now();
  for (let c = 0; c < 5; c += 1) {
    if (kind === 'svg') {
      box.append(lineChart(series, { unit: 'MB/s', title: 'bench' }));
    } else {
      const x = series[0].samples.map((p) => p.at);
      const data = [x, ...series.map((s) => s.samples.map((p) => p.value))];
      const el = document.createElement('div');
      box.append(el);
      new uPlot({ width: 560, height: 210, series: [{}, ...series.map((s) => ({ label: s.key, stroke: '#1f6feb' }))] }, data, el);
    }
  }
  box.getBoundingClientRect();
  await new Promise((r) => requestAnimationFrame(() => r()));
  const ms = performance.now() - t0;
  box.remove();
  return ms;
}))";

// Draws the overview's 24 cards and the pool map again from its answer into
// a fresh box and returns the milliseconds, layout included: the part of
// "drawn after navigation" that is the page's own work, not loading.
constexpr const char* kOverviewJs = R"((async () => {
  const { renderOverview, renderPools } = await import('/js/overview_view.js');
  const overview = await (await fetch('/api/v1/overview', { cache: 'no-store' })).json();
  const box = document.createElement('div');
  const pools = document.createElement('div');
  document.body.append(box, pools);
  const t0 = performance.now();
  renderOverview(box, overview);
  renderPools(pools, overview.pools);
  box.getBoundingClientRect();
  await new Promise((r) => requestAnimationFrame(() => r()));
  const ms = performance.now() - t0;
  box.remove();
  pools.remove();
  return ms;
}))";

}  // namespace

int main(int argc, char** argv) {
  std::string db = "/dev/shm/diskpulse-page-bench.db", webui = "webui", uplot;
  int rounds = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--db") db = v;
    else if (k == "--webui") webui = v;
    else if (k == "--rounds") rounds = std::stoi(v);
    else if (k == "--uplot") uplot = v;
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  if (!std::filesystem::exists(db)) {
    std::fprintf(stderr, "%s does not exist: run benchmarks/page_api first\n", db.c_str());
    return 1;
  }
  const std::string chromium = dp::testing::Browser::FindChromium();
  if (chromium.empty()) {
    std::fprintf(stderr, "chromium is not installed\n");
    return 1;
  }
  auto store = dp::Store::Open(db);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().ToString().c_str());
    return 1;
  }
  dp::SystemClock clock;
  dp::http::ApiContext ctx;
  ctx.store = store->get();
  ctx.clock = &clock;
  ctx.started_at = clock.Now();
  ctx.webui_root = std::filesystem::absolute(webui).string();
  dp::http::ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  auto server = dp::http::Server::Bind(options, dp::http::BuildApiRouter(ctx));
  if (!server.ok()) {
    std::fprintf(stderr, "%s\n", server.status().ToString().c_str());
    return 1;
  }
  (*server)->Start();
  const std::string profile = "/tmp/diskpulse-page-draw-profile";
  std::filesystem::remove_all(profile);
  auto browser = dp::testing::Browser::Launch(chromium, profile);
  if (!browser.ok()) {
    std::fprintf(stderr, "%s\n", browser.status().ToString().c_str());
    return 1;
  }
  auto& b = **browser;
  std::vector<double> overview_ms, kb;
  for (int r = 0; r < rounds; ++r) {
    // A fresh load each round (no cache): what a first visit costs.
    if (!b.Open((*server)->url() + "?round=" + std::to_string(r)).ok() ||
        !b.WaitFor("document.body.dataset.overviewMs").ok()) {
      std::fprintf(stderr, "the page did not draw the overview\n");
      return 1;
    }
    auto ms = b.Eval("Number(document.body.dataset.overviewMs)");
    auto bytes = b.Eval(
        "performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
        ".reduce((n, e) => n + (e.transferSize || e.encodedBodySize || 0), 0)");
    if (ms.ok()) overview_ms.push_back(ms->get<double>());
    if (bytes.ok() && r == 0) kb.push_back(bytes->get<double>() / 1000);
    auto cards = b.Eval("document.querySelectorAll('.drive-card').length");
    if (r == 0 && cards.ok()) std::printf("overview: %d drive cards\n", cards->get<int>());
    // Where the first load's time went: each request's start and end (ms
    // from navigation), in the order they started.
    auto timeline = b.Eval(
        "[performance.getEntriesByType('navigation')[0]].concat(performance.getEntriesByType("
        "'resource')).map((e) => [new URL(e.name).pathname.split('/').pop() || '/', "
        "Math.round(e.startTime), Math.round(e.responseEnd)])");
    if (timeline.ok()) {
      std::string line;
      for (const json& e : *timeline)
        line += " " + e[0].get<std::string>() + " " + std::to_string(e[1].get<int>()) + "-" +
                std::to_string(e[2].get<int>());
      std::printf("  load %d: drawn at %.0f ms;%s\n", r, ms.ok() ? ms->get<double>() : -1.0,
                  line.c_str());
    }
  }
  std::printf("overview drawn after navigation: median %.0f ms over %d loads\n",
              Median(overview_ms), rounds);
  if (!kb.empty()) std::printf("first load transferred: %.1f KB (resource timing)\n", kb.front());

  std::vector<double> redraw;
  for (int r = 0; r < rounds; ++r) {
    auto t = b.Eval(std::string(kOverviewJs) + "()");
    if (t.ok()) redraw.push_back(t->get<double>());
  }
  std::printf("overview drawn again from its answer (cards + pool map): median %.1f ms\n",
              Median(redraw));

  std::vector<double> svg, up;
  for (int r = 0; r < rounds; ++r) {
    auto t = b.Eval(std::string(kDrawJs) + "('svg')");
    if (t.ok()) svg.push_back(t->get<double>());
  }
  std::printf("5 charts x 3 series x 260 points, hand-written SVG: median %.1f ms\n", Median(svg));
  if (!uplot.empty()) {
    std::ifstream f(uplot);
    std::string src((std::istreambuf_iterator<char>(f)), {});
    if (!b.Eval(src + "\n;true").ok()) {
      std::fprintf(stderr, "cannot load %s\n", uplot.c_str());
    } else {
      for (int r = 0; r < rounds; ++r) {
        auto t = b.Eval(std::string(kDrawJs) + "('uplot')");
        if (t.ok()) up.push_back(t->get<double>());
        else std::fprintf(stderr, "%s\n", t.status().ToString().c_str());
      }
      std::printf("the same with uPlot (%s, %zu bytes): median %.1f ms\n", uplot.c_str(),
                  src.size(), Median(up));
    }
  }
  for (const auto& e : b.Errors()) std::printf("page error: %s\n", e.c_str());
  (*server)->Stop();
  return 0;
}

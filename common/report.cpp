#include "common/report.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "common/bandwidth.hpp"

namespace common {
namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// CSV fields never contain separators or quotes: they are names we choose, but make sure.
std::string clean(std::string s) {
  for (char& c : s)
    if (c == ',' || c == '"' || c == '\n') c = ';';
  return s;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

void finish_row(result_row& row) { row.gbps = gb_per_s(row.bytes, row.time.median_ms); }

std::string csv_header() {
  return "part,step,variant,type,n,rows,cols,bytes,reps,median_ms,min_ms,max_ms,gbps,"
         "copy_gbps,read_gbps,pct_copy,pct_read,peer,peer_gbps,pct_peer,check";
}

std::string to_csv(const result_row& r) {
  std::ostringstream os;
  os << clean(r.part) << ',' << clean(r.step) << ',' << clean(r.variant) << ',' << clean(r.type)
     << ',' << r.n << ',' << r.rows << ',' << r.cols << ',' << fixed(r.bytes, 0) << ','
     << r.time.reps << ',' << fixed(r.time.median_ms, 6) << ',' << fixed(r.time.min_ms, 6) << ','
     << fixed(r.time.max_ms, 6) << ',' << fixed(r.gbps, 1) << ',' << fixed(r.copy_gbps, 1) << ','
     << fixed(r.read_gbps, 1) << ',' << fixed(percent(r.gbps, r.copy_gbps), 1) << ','
     << fixed(percent(r.gbps, r.read_gbps), 1) << ',' << clean(r.peer) << ','
     << fixed(r.peer_gbps, 1) << ',' << fixed(percent(r.gbps, r.peer_gbps), 1) << ','
     << (r.ok ? "ok" : "WRONG");
  return os.str();
}

std::string to_json(const result_row& r) {
  std::ostringstream os;
  os << "{\"part\":" << json_string(r.part) << ",\"step\":" << json_string(r.step)
     << ",\"variant\":" << json_string(r.variant) << ",\"type\":" << json_string(r.type)
     << ",\"n\":" << r.n << ",\"rows\":" << r.rows << ",\"cols\":" << r.cols
     << ",\"bytes\":" << fixed(r.bytes, 0) << ",\"reps\":" << r.time.reps
     << ",\"median_ms\":" << fixed(r.time.median_ms, 6) << ",\"min_ms\":"
     << fixed(r.time.min_ms, 6) << ",\"max_ms\":" << fixed(r.time.max_ms, 6)
     << ",\"gbps\":" << fixed(r.gbps, 1) << ",\"copy_gbps\":" << fixed(r.copy_gbps, 1)
     << ",\"read_gbps\":" << fixed(r.read_gbps, 1) << ",\"peer\":" << json_string(r.peer)
     << ",\"peer_gbps\":" << fixed(r.peer_gbps, 1) << ",\"check\":" << (r.ok ? "\"ok\"" : "\"WRONG\"")
     << "}";
  return os.str();
}

std::string human_header() {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-16s %-14s %-6s %12s %10s %9s %7s %7s %7s  %s", "step",
                "variant", "type", "n", "median ms", "GB/s", "%copy", "%read", "%peer", "check");
  return buf;
}

std::string to_human(const result_row& r) {
  char buf[512];
  const std::string size =
      r.rows > 0 ? std::to_string(r.rows) + "x" + std::to_string(r.cols) : std::to_string(r.n);
  const std::string peer_pct = r.peer_gbps > 0 ? fixed(percent(r.gbps, r.peer_gbps), 1) : "-";
  std::snprintf(buf, sizeof buf, "%-16s %-14s %-6s %12s %10.4f %9.1f %7.1f %7.1f %7s  %s",
                r.step.c_str(), r.variant.c_str(), r.type.c_str(), size.c_str(),
                r.time.median_ms, r.gbps, percent(r.gbps, r.copy_gbps),
                percent(r.gbps, r.read_gbps), peer_pct.c_str(), r.ok ? "ok" : "WRONG");
  return buf;
}

std::string show_bytes(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (std::fabs(bytes) >= 1000 && u < 4) {
    bytes /= 1000;
    ++u;
  }
  return (u == 0 ? fixed(bytes, 0) : fixed(bytes, bytes < 10 ? 2 : bytes < 100 ? 1 : 0)) + " " +
         units[u];
}

}  // namespace common

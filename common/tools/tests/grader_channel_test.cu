// Tests of the grader's channel (common/grader_channel.hpp). Host: it stays silent without the
// grader's environment or with a malformed one, and its records are the JSON lines grade.py
// parses (nonce, numbers, NaN and infinities, escaped names). GPU: a digest sees every byte and
// its place, and the nonce; a perturbation changes the input and its undo restores it exactly.
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/grader_channel.hpp"
#include "common/testing.hpp"

namespace {

// The grader's side of a channel: a pipe, its write end named in the environment.
class fake_grader {
 public:
  explicit fake_grader(const char* nonce = "00000000000000ab") {
    REQUIRE(pipe(fds_) == 0);
    fcntl(fds_[0], F_SETFL, O_NONBLOCK);
    setenv("BOOK_GRADER_FD", std::to_string(fds_[1]).c_str(), 1);
    setenv("BOOK_GRADER_NONCE", nonce, 1);
  }
  ~fake_grader() {
    unsetenv("BOOK_GRADER_FD");
    unsetenv("BOOK_GRADER_NONCE");
    close(fds_[0]);
    close(fds_[1]);
  }
  std::string received() {
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = read(fds_[0], buf, sizeof buf)) > 0;) text.append(buf, std::size_t(n));
    return text;
  }

 private:
  int fds_[2] = {-1, -1};
};

// The digest a record carries: the text after "digest":".
std::string digest_of(const std::string& record) {
  const std::string key = "\"digest\":\"";
  const std::size_t at = record.find(key);
  REQUIRE(at != std::string::npos);
  return record.substr(at + key.size(), record.find('"', at + key.size()) - at - key.size());
}

}  // namespace

HOST_TEST_CASE("grader_channel is silent without the grader's environment") {
  unsetenv("BOOK_GRADER_FD");
  unsetenv("BOOK_GRADER_NONCE");
  common::grader_channel quiet;
  CHECK_FALSE(quiet.active());
  quiet.values("x", {1.0});  // nothing to write to: no effect
  CHECK(quiet.rep_jitter(100) == 0);
  const std::vector<std::pair<std::string, std::string>> malformed{
      {"x", "ab"}, {"2", "ab"}, {"", "ab"}, {"9", "zz"}, {"9", ""}};
  for (const auto& fd_and_nonce : malformed) {
    CAPTURE(fd_and_nonce.first);
    CAPTURE(fd_and_nonce.second);
    setenv("BOOK_GRADER_FD", fd_and_nonce.first.c_str(), 1);
    setenv("BOOK_GRADER_NONCE", fd_and_nonce.second.c_str(), 1);
    CHECK_FALSE(common::grader_channel().active());
  }
  unsetenv("BOOK_GRADER_FD");
  unsetenv("BOOK_GRADER_NONCE");
}

HOST_TEST_CASE("grader_channel writes one JSON line per record with the nonce") {
  fake_grader grader;
  common::grader_channel channel;
  REQUIRE(channel.active());
  channel.values("mean \"m\"\\", {1.5, NAN, INFINITY, -INFINITY}, 0.25, {1.0});
  common::timing_stats time;
  time.median_ms = 0.5;
  time.min_ms = 0.25;
  time.max_ms = 2;
  time.reps = 30;
  channel.timing(time, 1e9, 4000, 4300.5);
  CHECK(grader.received() ==
        "{\"nonce\":\"00000000000000ab\",\"kind\":\"values\",\"what\":\"mean \\\"m\\\"\\\\\","
        "\"values\":[1.5,\"nan\",\"inf\",\"-inf\"],\"tolerance\":0.25,\"reference\":[1]}\n"
        "{\"nonce\":\"00000000000000ab\",\"kind\":\"time\",\"median_ms\":0.5,\"min_ms\":0.25,"
        "\"max_ms\":2,\"reps\":30,\"bytes\":1000000000,\"copy_gbps\":4000,"
        "\"read_gbps\":4300.5}\n");
  CHECK(channel.rep_jitter(0) == 0);
  CHECK(channel.rep_jitter(7) <= 7);
}

HOST_TEST_CASE("grader_channel's last record is the device memory the run held at most") {
  fake_grader grader;
  // No device here: the counter behind device_buffer stands in for buffers that came and went.
  common::count_device_buffer_bytes(3000, true);
  common::count_device_buffer_bytes(5000, true);
  common::count_device_buffer_bytes(3000, false);
  common::count_device_buffer_bytes(1000, true);
  CHECK(common::device_buffer_bytes_now.load() == 6000);
  const std::size_t peak = common::device_buffer_bytes_peak.load();
  CHECK(peak >= 8000);
  { common::grader_channel channel; }
  CHECK(grader.received() == "{\"nonce\":\"00000000000000ab\",\"kind\":\"memory\","
                             "\"device_peak_bytes\":" + std::to_string(peak) + "}\n");
  common::count_device_buffer_bytes(6000, false);
}

GPU_TEST_CASE("grader_channel's digest sees every byte and its place and the nonce") {
  std::vector<std::uint32_t> words(100003);
  for (std::size_t i = 0; i < words.size(); ++i) words[i] = std::uint32_t(i * 2654435761u);
  common::device_buffer<std::uint32_t> d_words(words.size());
  d_words.upload(words);
  const auto digest = [&](const char* nonce, std::size_t bytes) {
    fake_grader grader(nonce);
    common::grader_channel channel;
    channel.output("w", d_words.data(), bytes);
    return digest_of(grader.received());
  };
  const std::string base = digest("00000000000000ab", d_words.bytes());
  CHECK(base == digest("00000000000000ab", d_words.bytes()));      // the same bytes: the same
  CHECK(base != digest("00000000000000ac", d_words.bytes()));      // another nonce: another
  CHECK(base != digest("00000000000000ab", d_words.bytes() - 1));  // one byte fewer
  std::swap(words[5], words[77777]);                               // the same words, moved
  d_words.upload(words);
  CHECK(base != digest("00000000000000ab", d_words.bytes()));
  std::swap(words[5], words[77777]);
  words[99999] ^= 1u << 20;  // one bit
  d_words.upload(words);
  CHECK(base != digest("00000000000000ab", d_words.bytes()));
}

GPU_TEST_CASE("grader_channel's perturbation changes the input and its undo restores it") {
  for (const int element_bytes : {1, 4, 8}) {
    CAPTURE(element_bytes);
    std::vector<unsigned char> bytes(std::size_t(4099) * element_bytes);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(i * 7);
    common::device_buffer<unsigned char> d_bytes(bytes.size());
    d_bytes.upload(bytes);
    fake_grader grader;
    common::grader_channel channel;
    std::vector<std::string> seen;
    const auto digest = [&] { channel.rep_output(d_bytes.data(), d_bytes.bytes()); };
    for (int rep = 0; rep < 3; ++rep) {
      channel.begin_rep(digest);
      channel.perturb(d_bytes.data(), 4099, element_bytes);
      const std::vector<unsigned char> perturbed = d_bytes.download();
      seen.emplace_back(perturbed.begin(), perturbed.end());
      CHECK(perturbed != bytes);
    }
    channel.end_reps(digest);
    CHECK(d_bytes.download() == bytes);  // undone
    CHECK(seen[0] != seen[1]);           // each repetition its own perturbation
    const std::string received = grader.received();
    CHECK(received.find("\"kind\":\"reps\",\"digests\":[\"") != std::string::npos);
  }
}

// The grader's channel (see grader_channel.hpp). Its own translation unit: a student's header is
// never part of it.
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/check.cuh"
#include "common/device_buffer.cuh"
#include "common/grader_channel.hpp"

namespace common {
namespace {

// Elements overwritten before each repetition: enough that a stale output differs in many places,
// few enough that the perturbation costs microseconds.
constexpr int PERTURBED = 256;
constexpr int MAX_ELEMENT_BYTES = 16;

__host__ __device__ inline std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Two keyed sums over every 32-bit word: word w at index i adds mix64(w ^ mix64(key + i)) (and a
// second lane with another key), so a word's value and its place both count. Wrapping sums do not
// depend on the order the threads add in.
__global__ void digest_words(const std::uint32_t* words, std::uint64_t count, std::uint64_t key,
                             unsigned long long* sums) {
  std::uint64_t lane0 = 0, lane1 = 0;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const std::uint64_t w = words[i];
    lane0 += mix64(w ^ mix64(key + i));
    lane1 += mix64((w << 17) ^ mix64(~key - i));
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    lane0 += __shfl_down_sync(0xFFFFFFFFu, lane0, offset);
    lane1 += __shfl_down_sync(0xFFFFFFFFu, lane1, offset);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(&sums[0], static_cast<unsigned long long>(lane0));
    atomicAdd(&sums[1], static_cast<unsigned long long>(lane1));
  }
}

// One thread, in order, so that overlapping positions behave the same in every process: saves the
// old values and the positions, then copies element j over element i.
__global__ void perturb_elements(unsigned char* data, std::uint64_t count, int element_bytes,
                                 std::uint64_t key, int perturbed, unsigned char* saved,
                                 std::uint64_t* positions) {
  for (int k = 0; k < perturbed; ++k) {
    const std::uint64_t i = mix64(key + 2 * std::uint64_t(k)) % count;
    const std::uint64_t j = mix64(key + 2 * std::uint64_t(k) + 1) % count;
    positions[k] = i;
    for (int b = 0; b < element_bytes; ++b) {
      saved[std::size_t(k) * MAX_ELEMENT_BYTES + b] = data[i * element_bytes + b];
      data[i * element_bytes + b] = data[j * element_bytes + b];
    }
  }
}

__global__ void undo_elements(unsigned char* data, int element_bytes, int perturbed,
                              const unsigned char* saved, const std::uint64_t* positions) {
  for (int k = perturbed - 1; k >= 0; --k)
    for (int b = 0; b < element_bytes; ++b)
      data[positions[k] * element_bytes + b] = saved[std::size_t(k) * MAX_ELEMENT_BYTES + b];
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string json_number(double v) {
  if (v != v) return "\"nan\"";
  if (v > 1.7976931348623157e308) return "\"inf\"";
  if (v < -1.7976931348623157e308) return "\"-inf\"";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string json_numbers(const std::vector<double>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + json_number(values[i]);
  return out + "]";
}

}  // namespace

grader_channel::grader_channel() {
  const char* fd = std::getenv("BOOK_GRADER_FD");
  const char* nonce = std::getenv("BOOK_GRADER_NONCE");
  if (!fd || !nonce) return;
  char* end = nullptr;
  const long fd_number = std::strtol(fd, &end, 10);
  if (*fd == '\0' || *end != '\0' || fd_number < 3) return;
  nonce_ = std::strtoull(nonce, &end, 16);
  if (*nonce == '\0' || *end != '\0') return;
  fd_ = int(fd_number);
}

grader_channel::~grader_channel() {
  for (saved_perturbation& p : perturbed_) cudaFree(p.d_saved);
  // How much device memory the run held at most: the grader admits runs side by side by what the
  // solution's run of the case needed, on the device as on the host.
  if (active())
    write_line("\"kind\":\"memory\",\"device_peak_bytes\":" +
               std::to_string(device_buffer_bytes_peak.load()));
}

void grader_channel::write_line(const std::string& json) {
  char nonce[24];
  std::snprintf(nonce, sizeof nonce, "%016" PRIx64, nonce_);
  const std::string line = "{\"nonce\":\"" + std::string(nonce) + "\"," + json + "}\n";
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the grader reads what arrived; a missing record fails the case
    done += std::size_t(n);
  }
}

std::string grader_channel::digest_hex(const void* d_data, std::size_t bytes) {
  const std::uint64_t key = mix64(nonce_ ^ 0xD16E57ull);
  unsigned long long sums[2] = {0, 0};
  const std::size_t words = (reinterpret_cast<std::uintptr_t>(d_data) % 4 == 0) ? bytes / 4 : 0;
  if (words > 0) {
    unsigned long long* d_sums = nullptr;
    CUDA_CHECK(cudaMalloc(&d_sums, sizeof sums));
    CUDA_CHECK(cudaMemset(d_sums, 0, sizeof sums));
    digest_words<<<1024, 256>>>(static_cast<const std::uint32_t*>(d_data), words, key, d_sums);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpy(sums, d_sums, sizeof sums, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_sums));
  }
  // The bytes past the last whole word (or all of them, from a misaligned pointer), on the host.
  const std::size_t tail = bytes - 4 * words;
  if (tail > 0) {
    std::vector<unsigned char> host(tail);
    CUDA_CHECK(cudaMemcpy(host.data(), static_cast<const unsigned char*>(d_data) + 4 * words, tail,
                          cudaMemcpyDeviceToHost));
    for (std::size_t b = 0; b < tail; ++b) {
      const std::uint64_t i = 4 * words + b;
      sums[0] += mix64(host[b] ^ mix64(key + (i << 8)));
      sums[1] += mix64((std::uint64_t(host[b]) << 17) ^ mix64(~key - (i << 8)));
    }
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%016llx%016llx-%zu", sums[0], sums[1], bytes);
  return buf;
}

void grader_channel::output(const std::string& what, const void* d_data, std::size_t bytes) {
  if (!active()) return;
  write_line("\"kind\":\"output\",\"what\":" + json_string(what) + ",\"digest\":\"" +
             digest_hex(d_data, bytes) + "\"");
}

void grader_channel::values(const std::string& what, const std::vector<double>& v, double tolerance,
                            const std::vector<double>& reference) {
  if (!active()) return;
  write_line("\"kind\":\"values\",\"what\":" + json_string(what) +
             ",\"values\":" + json_numbers(v) + ",\"tolerance\":" + json_number(tolerance) +
             ",\"reference\":" + json_numbers(reference));
}

void grader_channel::undo_perturbations() {
  for (auto p = perturbed_.rbegin(); p != perturbed_.rend(); ++p) {
    auto* saved = static_cast<unsigned char*>(p->d_saved);
    undo_elements<<<1, 1>>>(
        static_cast<unsigned char*>(p->data), p->element_bytes, p->count, saved,
        reinterpret_cast<std::uint64_t*>(saved + PERTURBED * MAX_ELEMENT_BYTES));
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaFree(p->d_saved));
  }
  perturbed_.clear();
}

void grader_channel::begin_rep(const std::function<void()>& digest) {
  if (!active()) return;
  if (rep_ >= 0) {
    digest();
    undo_perturbations();
  }
  ++rep_;
}

void grader_channel::perturb(void* d_data, std::int64_t count, int element_bytes) {
  if (!active() || count < 2 || element_bytes < 1 || element_bytes > MAX_ELEMENT_BYTES) return;
  saved_perturbation p{d_data, element_bytes, nullptr, PERTURBED};
  CUDA_CHECK(cudaMalloc(&p.d_saved, PERTURBED * (MAX_ELEMENT_BYTES + sizeof(std::uint64_t))));
  auto* saved = static_cast<unsigned char*>(p.d_saved);
  const std::uint64_t key =
      mix64(nonce_ ^ mix64(std::uint64_t(rep_) * 1000003ull + perturbed_.size()));
  perturb_elements<<<1, 1>>>(
      static_cast<unsigned char*>(d_data), std::uint64_t(count), element_bytes, key, PERTURBED,
      saved, reinterpret_cast<std::uint64_t*>(saved + PERTURBED * MAX_ELEMENT_BYTES));
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());
  perturbed_.push_back(p);
}

void grader_channel::end_reps(const std::function<void()>& digest) {
  if (!active()) return;
  if (rep_ >= 0) {
    digest();
    undo_perturbations();
  }
  std::string list = "[";
  for (std::size_t i = 0; i < rep_digests_.size(); ++i)
    list += (i ? ",\"" : "\"") + rep_digests_[i] + "\"";
  write_line("\"kind\":\"reps\",\"digests\":" + list + "]");
  CUDA_CHECK(cudaDeviceSynchronize());
  rep_ = -1;  // a program that times several variants starts each list afresh
  rep_digests_.clear();
}

void grader_channel::rep_output(const void* d_data, std::size_t bytes) {
  if (active()) rep_digests_.push_back(digest_hex(d_data, bytes));
}

void grader_channel::rep_values(const std::vector<double>& v) {
  if (!active()) return;
  std::string text;
  for (const double x : v) text += json_number(x) + " ";
  // Kept as text: the grader compares each repetition's values with the solution's.
  std::string escaped;
  for (const char c : text) escaped += (c == '"') ? '\'' : c;
  rep_digests_.push_back(escaped);
}

std::uint64_t grader_channel::rep_jitter(std::uint64_t max) const {
  if (!active() || max == 0) return 0;
  return mix64(nonce_ ^ mix64(0x717E5ull + std::uint64_t(rep_ < 0 ? 0 : rep_))) % (max + 1);
}

void grader_channel::timing(const timing_stats& time, double bytes, double copy_gbps,
                            double read_gbps) {
  if (!active()) return;
  write_line("\"kind\":\"time\",\"median_ms\":" + json_number(time.median_ms) +
             ",\"min_ms\":" + json_number(time.min_ms) + ",\"max_ms\":" + json_number(time.max_ms) +
             ",\"reps\":" + std::to_string(time.reps) + ",\"bytes\":" + json_number(bytes) +
             ",\"copy_gbps\":" + json_number(copy_gbps) +
             ",\"read_gbps\":" + json_number(read_gbps));
}

}  // namespace common

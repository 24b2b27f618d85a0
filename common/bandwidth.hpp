// Effective bandwidth: the bytes an algorithm must move, divided by the time it took.
// Units are 1e9 bytes per second (GB/s), never GiB/s.
#pragma once

namespace common {

// bytes / (ms / 1e3) / 1e9; 0 when the time is not positive.
constexpr double gb_per_s(double bytes, double ms) { return ms > 0 ? bytes / ms * 1e-6 : 0.0; }

// 100 * part / whole; 0 when whole is not positive.
constexpr double percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

// Theoretical DRAM bandwidth from the memory clock (kHz) and bus width (bits): data moves on both
// clock edges (HBM and GDDR report the clock this formula expects), bus_width/8 bytes per edge.
constexpr double theoretical_gb_per_s(double memory_clock_khz, double bus_width_bits) {
  return 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9;
}

}  // namespace common

// launch_trace.hpp: every kernel launch of transpose_any_shape goes through launch_kernel(), which
//   can record it (kernel, grid, block, dynamic shared bytes) instead of launching it, when a
//   trace sink is set on the calling thread (the GPU's facts then come from the sink). The step's
//   trace test records the launches of every variant at fixed GPU facts on the host, without a GPU,
//   and compares them with the committed goldens (tools/launch_traces.txt): a change of the launch
//   code that changes no launch leaves them equal.
#pragma once

#include <cuda_runtime.h>

#include <cxxabi.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "plan.hpp"

namespace transpose_any_shape::trace {

// Where launches go while it is set: their lines; and the GPU the plan is to assume.
struct sink {
  gpu_facts gpu;
  std::vector<std::string> lines;
};
inline sink*& current_sink() {
  static thread_local sink* s = nullptr;
  return s;
}

// Kernel names by address, registered by named<K>() wherever a kernel is chosen.
inline std::map<const void*, std::string>& names() {
  static std::map<const void*, std::string> table;
  return table;
}
inline std::mutex& names_mutex() {
  static std::mutex m;
  return m;
}
template <auto K>
std::string pretty_name() {
  // The demangled name of a type that holds K: every template argument spelled out, however the
  // kernel was named where it was chosen: "kernel<true, ...>".
  const char* mangled = typeid(std::integral_constant<decltype(K), K>).name();
  int status = 0;
  char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string name = status == 0 ? demangled : mangled;
  std::free(demangled);
  // "...(void transpose_any_shape::kernel<true, ...>(float const*, ...))>": from the name to
  // its parameter list.
  // A kernel that is no template: "...&transpose_any_shape::kernel_stretch_cols>".
  std::size_t from = name.rfind("(void ");
  from = from != std::string::npos ? from + 6 : name.rfind('&') + 1;
  std::size_t to = from;
  for (int depth = 0; to < name.size() && !(depth <= 0 && (name[to] == '(' || name[to] == '>'));
       ++to)
    depth += name[to] == '<' ? 1 : name[to] == '>' ? -1 : 0;
  name = name.substr(from, to - from);
  const std::string space = "transpose_any_shape::";
  for (std::size_t at; (at = name.find(space)) != std::string::npos;) name.erase(at, space.size());
  return name;
}
// K itself, its name registered for the trace.
template <auto K>
auto named() {
  static const bool registered = [] {
    std::lock_guard<std::mutex> lock(names_mutex());
    names()[reinterpret_cast<const void*>(K)] = pretty_name<K>();
    return true;
  }();
  (void)registered;
  return K;
}
inline std::string name_of(const void* kernel) {
  std::lock_guard<std::mutex> lock(names_mutex());
  const auto found = names().find(kernel);
  return found == names().end() ? "unregistered kernel" : found->second;
}

inline void record(const std::string& line) { current_sink()->lines.push_back(line); }

}  // namespace transpose_any_shape::trace

namespace transpose_any_shape {

// The one place a kernel is launched: recorded instead where a trace sink is set.
template <class... Params, class... Args>
void launch_kernel(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
                   cudaStream_t stream, Args... args) {
  if (trace::current_sink() != nullptr) {
    std::ostringstream line;
    line << trace::name_of(reinterpret_cast<const void*>(kernel)) << " grid " << grid.x << "x"
         << grid.y << "x" << grid.z << " block " << block.x << " shared " << shared_bytes;
    trace::record(line.str());
    return;
  }
  kernel<<<grid, block, shared_bytes, stream>>>(Params(args)...);
}

}  // namespace transpose_any_shape

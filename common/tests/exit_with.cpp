// Test fixture for tools/expect_exit.sh: prints argv[2] and exits with argv[1].
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc > 2) std::puts(argv[2]);
  return argc > 1 ? std::atoi(argv[1]) : 0;
}

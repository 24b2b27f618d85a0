# add_chapter(<step> PART <part> [BENCH "<args>" ...] [LIBS <targets>...] [RACY])
#
# Called from a step directory holding <step>.cuh, main.cu and <step>_test.cu. Creates:
#   <step>            the program (build/bin/<step>)
#   <step>_test       its doctest binary; each case is a CTest test labelled unit or gpu
#   <step>.smoke      `<step> --quick` (label smoke)
#   <step>.usage.*    bad command lines exit with 2 and say why (label unit; no GPU needed)
#   <step>.<tool>     `<step> --quick` under compute-sanitizer memcheck, racecheck, synccheck and
#                     initcheck (label sanitize), when compute-sanitizer is found. RACY marks a
#                     deliberately racy classic step: its racecheck test must *find* hazards
#                     (label racy; sanitize.sh --expect-hazards) and it stays out of the clean
#                     sanitize set.
# and registers each BENCH argument string as one run of `bench` at the reference sizes.
set(COMMON_TOOLS_DIR ${CMAKE_CURRENT_LIST_DIR}/../tools)
# What common::program prints before it exits with EXIT_NOT_AVAILABLE (78).
set(NOT_AVAILABLE_MESSAGE "not available on this GPU: .*; skipped, exit 78")

function(add_chapter step)
  cmake_parse_arguments(ARG "RACY" "PART" "BENCH;LIBS" ${ARGN})
  if(NOT ARG_PART)
    message(FATAL_ERROR "add_chapter(${step}): PART is required")
  endif()

  add_executable(${step} main.cu)
  target_link_libraries(${step} PRIVATE common ${ARG_LIBS})

  add_executable(${step}_test ${step}_test.cu)
  target_link_libraries(${step}_test PRIVATE common_test_main ${ARG_LIBS})
  # A case that cannot run here (common::testing::device_holds: too little device memory) prints
  # "GPU test skipped" and returns: Skipped, as a case without a device that exits with 77.
  doctest_discover_tests(${step}_test TEST_PREFIX "${step}." ADD_LABELS 1
                         PROPERTIES SKIP_RETURN_CODE 77
                                    SKIP_REGULAR_EXPRESSION "GPU test skipped")

  if(ARG_RACY)
    add_program_tests(${step} RACY)
  else()
    add_program_tests(${step})
  endif()

  foreach(args IN LISTS ARG_BENCH)
    set_property(GLOBAL APPEND PROPERTY BOOK_BENCH_RUNS "${ARG_PART}\t${step}\t${args}")
  endforeach()
  set_property(GLOBAL APPEND PROPERTY BOOK_STEPS "${ARG_PART}\t${step}\t${CMAKE_CURRENT_SOURCE_DIR}")
endfunction()

# add_program_tests(<target> [RACY]): the tests every program of the book gets (smoke, the
# standard usage errors, the sanitizers); see add_chapter() above.
function(add_program_tests target)
  cmake_parse_arguments(ARG "RACY" "" "" ${ARGN})
  add_test(NAME ${target}.smoke COMMAND ${target} --quick)
  # Skipped without a device (77), and where the step's one idea is a feature this GPU or build
  # lacks (exit 78, common::EXIT_NOT_AVAILABLE, with this message).
  set_tests_properties(${target}.smoke PROPERTIES LABELS smoke SKIP_RETURN_CODE 77
                       SKIP_REGULAR_EXPRESSION "${NOT_AVAILABLE_MESSAGE}")

  # A 2-D part's program refuses --n itself (give --rows and --cols).
  add_usage_test(${target} negative_n "must be in|--n does not apply" --n -5)
  add_usage_test(${target} non_integer_n "not an integer|--n does not apply" --n abc)
  add_usage_test(${target} non_integer_size "not an integer|--n does not apply" --n 1.5e9)
  add_usage_test(${target} unknown_option "unknown option" --no-such-option)
  add_usage_test(${target} missing_value "needs a value" --reps)
  add_usage_test(${target} zero_reps "must be in" --reps 0)
  add_usage_test(${target} bad_format "must be one of" --format xml)

  if(COMPUTE_SANITIZER)
    foreach(tool memcheck racecheck synccheck initcheck)
      set(mode "")
      set(args --quick)
      set(labels sanitize)
      if(ARG_RACY AND tool STREQUAL "racecheck")
        # Must report hazards. Reporting every hazard is slow, so a small input shows them.
        set(mode --expect-hazards)
        set(args --quick --n 4099)
        set(labels racy)
      endif()
      add_test(NAME ${target}.${tool}
               COMMAND bash ${COMMON_TOOLS_DIR}/sanitize.sh ${mode} $<TARGET_FILE:gpu_info>
                       ${COMPUTE_SANITIZER} ${tool} $<TARGET_FILE:${target}> ${args})
      set_tests_properties(${target}.${tool} PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 77)
    endforeach()
  endif()
endfunction()

# add_usage_test(<step> <name> <regex> <args>...): `<step> <args>` must exit 2 and print <regex>,
# GPU or not: usage errors are reported before the device probe, so exit 77 (no device) fails it.
function(add_usage_test step name regex)
  add_test(NAME ${step}.usage.${name}
           COMMAND bash ${COMMON_TOOLS_DIR}/expect_exit.sh 2 "${regex}" $<TARGET_FILE:${step}>
                   ${ARGN})
  set_tests_properties(${step}.usage.${name} PROPERTIES LABELS unit)
endfunction()

# add_device_usage_test(<step> <name> <regex> <args>...): like add_usage_test, for a case that
# needs the device to decide (a size that does not fit its memory): Skipped without one.
function(add_device_usage_test step name regex)
  add_test(NAME ${step}.usage.${name}
           COMMAND bash ${COMMON_TOOLS_DIR}/expect_exit.sh 2 "${regex}" $<TARGET_FILE:${step}>
                   ${ARGN})
  set_tests_properties(${step}.usage.${name} PROPERTIES LABELS unit SKIP_RETURN_CODE 77)
endfunction()

# Writes build/bench_manifest.tsv (part, step, program, arguments) and build/steps.tsv
# (part, step, source directory) for the bench and the book. Called once, at the end of the
# top-level CMakeLists.txt.
function(write_bench_manifest)
  get_property(runs GLOBAL PROPERTY BOOK_BENCH_RUNS)
  set(text "")
  foreach(run IN LISTS runs)
    string(APPEND text "${run}\n")
  endforeach()
  file(WRITE ${CMAKE_BINARY_DIR}/bench_manifest.tsv "${text}")
  get_property(steps GLOBAL PROPERTY BOOK_STEPS)
  set(text "")
  foreach(step IN LISTS steps)
    string(APPEND text "${step}\n")
  endforeach()
  file(WRITE ${CMAKE_BINARY_DIR}/steps.tsv "${text}")
endfunction()

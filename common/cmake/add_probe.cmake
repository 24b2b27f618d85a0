# add_probe(<name> <source> [LIBS <lib>...]): a step's probe, <step>/tools/<source>: a program that
# makes evidence for its step's pages (book/README.md, "Evidence"), not a step of the book. Not
# built by default: `cmake --build build --target <name>`, and the part's gpu_checks_<part> target
# builds it with the step's other programs. The step's directory is on its include path.
function(add_probe name source)
  cmake_parse_arguments(ARG "" "" "LIBS" ${ARGN})
  add_executable(${name} EXCLUDE_FROM_ALL ${source})
  target_link_libraries(${name} PRIVATE common ${ARG_LIBS})
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()

# add_probe_usage_test(<probe> <name> <regex> <args>...): like add_usage_test, for a probe: it runs
# once the probe is built and is Skipped (77) before, since a plain build leaves probes out.
function(add_probe_usage_test probe name regex)
  add_test(NAME ${probe}.usage.${name}
           COMMAND bash -c "[ -x \"$0\" ] || { echo \"$0 not built\"; exit 77; }; exec \"$@\""
                   $<TARGET_FILE:${probe}> bash ${COMMON_TOOLS_DIR}/expect_exit.sh 2 "${regex}"
                   $<TARGET_FILE:${probe}> ${ARGN})
  set_tests_properties(${probe}.usage.${name} PROPERTIES LABELS unit SKIP_RETURN_CODE 77)
endfunction()

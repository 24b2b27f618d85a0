# The instructor's kit (exercises/ and solutions/). An exercise directory exercises/<NN_name>/
# holds the program and its tests (main.cu, <name>_test.cu), shared by the skeleton and the
# solution, and the skeleton <name>.cuh; solutions/<NN_name>/ holds the answer <name>.cuh. Both
# sides include the header as <name.cuh> (angle brackets: found through the include path, never
# next to main.cu), so the same program builds either side.
#
# add_exercise(<name> [LIBS <targets>...]) in exercises/<NN_name>/CMakeLists.txt creates
#   exercise_<name>        the skeleton's program (build/bin/exercise_<name>)
#   exercise_<name>_test   its doctest cases, labelled "exercise" only: they fail until the
#                          student fills in the TODO regions, so run_tests.sh leaves them out;
#                          a student runs them with `ctest --test-dir build -L exercise -R <name>`
# The header comes from EXERCISE_HEADERS_DIR/<NN_name>/ when that cache variable is set (the
# grader builds a student's copy that way, from a scratch tree where that folder holds only the
# student's <name>.cuh), else from this directory.
#
# add_solution(<name> [BENCH "<args>" ...] [LIBS <targets>...]) in solutions/<NN_name>/ creates
#   solution_<name>, solution_<name>_test: the same sources with this directory's header, tested
#   like a chapter (unit, gpu, smoke, usage, sanitize) and benched in the part "exercises".
set(EXERCISE_HEADERS_DIR "" CACHE PATH
    "Build the exercises from the <NN_name>/<name>.cuh files of this directory (the grader sets it)")
set(BOOK_EXERCISES_DIR ${CMAKE_CURRENT_LIST_DIR}/../../exercises)

# The grader's channel (common/grader_channel.hpp): compiled in a translation unit that never
# includes a student's header, and linked as objects (not an archive), so that a student's
# definition of one of its functions is a link error rather than a silent replacement.
if(NOT TARGET exercise_grader_channel)
  add_library(exercise_grader_channel OBJECT ${CMAKE_CURRENT_LIST_DIR}/../grader_channel.cu)
  target_link_libraries(exercise_grader_channel PUBLIC common)
  # Its tests: the records grade.py parses (host), digests and perturbations (GPU).
  add_executable(grader_channel_test ${CMAKE_CURRENT_LIST_DIR}/../tools/tests/grader_channel_test.cu)
  target_link_libraries(grader_channel_test PRIVATE exercise_grader_channel common_test_main)
  doctest_discover_tests(grader_channel_test TEST_PREFIX "grader_channel." ADD_LABELS 1
                         PROPERTIES SKIP_RETURN_CODE 77
                                    SKIP_REGULAR_EXPRESSION "GPU test skipped")
endif()

# The program is main.cu plus <name>_entry.cu, the only translation unit that includes the
# student's <name>.cuh (main.cu calls it through <name>_entry.hpp). header_dir holds <name>.cuh
# and nothing else the program may include (the grader copies a student's one file into a folder
# of its own), so it cannot shadow a project header.
function(_exercise_program target name source_dir header_dir libs)
  add_executable(${target} ${source_dir}/main.cu ${source_dir}/${name}_entry.cu)
  set_source_files_properties(${source_dir}/${name}_entry.cu TARGET_DIRECTORY ${target}
                              PROPERTIES INCLUDE_DIRECTORIES ${header_dir})
  target_link_libraries(${target} PRIVATE common exercise_grader_channel ${libs})
  add_executable(${target}_test ${source_dir}/${name}_test.cu)
  target_include_directories(${target}_test PRIVATE ${header_dir})
  target_link_libraries(${target}_test PRIVATE common_test_main ${libs})
endfunction()

function(add_exercise name)
  cmake_parse_arguments(ARG "" "" "LIBS" ${ARGN})
  get_filename_component(dir_name ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set(header_dir ${CMAKE_CURRENT_SOURCE_DIR})
  if(EXERCISE_HEADERS_DIR)
    set(header_dir ${EXERCISE_HEADERS_DIR}/${dir_name})
  endif()
  _exercise_program(exercise_${name} ${name} ${CMAKE_CURRENT_SOURCE_DIR} ${header_dir}
                    "${ARG_LIBS}")
  doctest_discover_tests(exercise_${name}_test TEST_PREFIX "exercise_${name}."
                         PROPERTIES LABELS exercise SKIP_RETURN_CODE 77
                                    SKIP_REGULAR_EXPRESSION "GPU test skipped")
endfunction()

function(add_solution name)
  cmake_parse_arguments(ARG "" "" "BENCH;LIBS" ${ARGN})
  get_filename_component(dir_name ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set(target solution_${name})
  _exercise_program(${target} ${name} ${BOOK_EXERCISES_DIR}/${dir_name}
                    ${CMAKE_CURRENT_SOURCE_DIR} "${ARG_LIBS}")
  doctest_discover_tests(${target}_test TEST_PREFIX "${target}." ADD_LABELS 1
                         PROPERTIES SKIP_RETURN_CODE 77
                                    SKIP_REGULAR_EXPRESSION "GPU test skipped")
  add_program_tests(${target})
  foreach(args IN LISTS ARG_BENCH)
    set_property(GLOBAL APPEND PROPERTY BOOK_BENCH_RUNS "exercises\t${target}\t${args}")
  endforeach()
endfunction()

# add_numbered_subdirectories(): add_subdirectory() for every <NN_name>/ here that has a
# CMakeLists.txt, in NN order (exercises/ and solutions/ use it, so a new exercise needs no line).
function(add_numbered_subdirectories)
  file(GLOB dirs LIST_DIRECTORIES true RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}
       ${CMAKE_CURRENT_SOURCE_DIR}/[0-9][0-9]_*)
  list(SORT dirs)
  foreach(dir IN LISTS dirs)
    if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/CMakeLists.txt)
      add_subdirectory(${dir})
    endif()
  endforeach()
endfunction()

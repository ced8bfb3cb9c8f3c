# Sanitizer and fuzzing builds (README, "Fuzzing and sanitizers").
#
# FUSERC_SANITIZE=address,undefined instruments every target of this project
# (compile and link). UB is made fatal so a test that triggers it fails
# instead of printing a report and passing.
#
# FUSERC_FUZZ=ON (Clang only) adds the libFuzzer targets of fuzz/. One build
# serves both: every target gets libFuzzer's coverage instrumentation
# (-fsanitize=fuzzer-no-link, whose callbacks the sanitizer runtimes provide),
# and only the fuzz executables link libFuzzer's main.
set(FUSERC_SANITIZE "" CACHE STRING
    "Comma-separated -fsanitize= list for every target (e.g. address,undefined)")
option(FUSERC_FUZZ "Build the libFuzzer targets in fuzz/ (requires Clang)" OFF)

if(FUSERC_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "FUSERC_FUZZ=ON needs Clang (libFuzzer); this build uses "
                        "${CMAKE_CXX_COMPILER_ID}. Configure with "
                        "-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14.")
  endif()
  if(FUSERC_SANITIZE STREQUAL "")
    # The coverage callbacks come with a sanitizer runtime, and a fuzzer
    # without one finds only crashes, not memory errors.
    set(FUSERC_SANITIZE "address,undefined" CACHE STRING "" FORCE)
    message(STATUS "FUSERC_FUZZ: sanitizers default to ${FUSERC_SANITIZE}")
  endif()
endif()

if(NOT FUSERC_SANITIZE STREQUAL "")
  message(STATUS "Sanitizers: ${FUSERC_SANITIZE}")
  set(sanitize_flags -fsanitize=${FUSERC_SANITIZE} -fno-omit-frame-pointer)
  if(FUSERC_SANITIZE MATCHES "undefined")
    list(APPEND sanitize_flags -fno-sanitize-recover=undefined)
  endif()
  add_compile_options(${sanitize_flags})
  add_link_options(${sanitize_flags})
  if(FUSERC_FUZZ)
    add_compile_options(-fsanitize=fuzzer-no-link)
  endif()
endif()

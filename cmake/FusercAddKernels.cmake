# fuserc_add_kernels(): compiles fusion files with fuserc at build time into a
# static library to link (README.md, "Using fuserc from CMake"). Part of the installed
# package (fusercConfig.cmake includes it) and of the source tree (the
# top-level CMakeLists.txt includes it, for add_subdirectory users).
#
#   fuserc_add_kernels(<target>
#                      SOURCES <file.fus|file.yaml>...
#                      [ARCHS sm_80 sm_90 ...]      # fuserc --arch (default: fuserc's)
#                      [NAME <base>]                # --name; only with one source
#                      [OUTPUT_DIR <dir>]           # default: <binary dir>/<target>_fuserc
#                      [DUMP <stage>... | all]      # dumps into <OUTPUT_DIR>/<name>.dumps/
#                      [OPTIONS <fuserc flag>...]   # anything else fuserc takes
#                      [SHARED_LIBRARY])            # also lib<name>.so (--emit so)
#
# Each source is one fuserc run writing <name>.h, <name>.c, <name>.fatbin and
# <name>.manifest.json into OUTPUT_DIR, where <name> is NAME or the source's
# stem. The run repeats when the source, a file fuserc reports in its depfile,
# or the fuserc executable changes. <target> is a STATIC library of every
# <name>.c (compiled as C, or as C++ in a project without C) and carries what
# a user of the headers needs: OUTPUT_DIR and dlpack's headers as include
# directories, CUDA::cuda_driver and Threads::Threads. With SHARED_LIBRARY,
# each run also writes OUTPUT_DIR/lib<name>.so (fuserc --emit so), the
# library the Python package loads (docs/python.md).

# Functions run under the policies in force where they are defined: DEPFILE
# for Ninja needs CMP0116 (paths in the depfile are made relative to the
# build directory, as Ninja expects), whatever the calling project's minimum.
cmake_policy(PUSH)
cmake_policy(VERSION 3.20)

function(fuserc_add_kernels target)
  # The pipeline's stages in order (driver/Pipeline.cpp, kStages): with
  # --dump-dir, stage N is written to NN-<stage>.txt. (Set here: a function
  # sees its caller's variables, not those where it was defined.)
  set(all_stages parsed canonicalize layout alias segments schedule cuda)
  set(value_keywords NAME OUTPUT_DIR)
  set(list_keywords SOURCES ARCHS DUMP OPTIONS)
  cmake_parse_arguments(PARSE_ARGV 1 arg "SHARED_LIBRARY" "${value_keywords}" "${list_keywords}")
  set(context "fuserc_add_kernels(${target})")
  set(keywords_hint "(keywords: SOURCES ARCHS NAME OUTPUT_DIR DUMP OPTIONS SHARED_LIBRARY)")

  if(arg_UNPARSED_ARGUMENTS)
    list(GET arg_UNPARSED_ARGUMENTS 0 unknown)
    message(FATAL_ERROR "${context}: unknown argument '${unknown}' ${keywords_hint}")
  endif()
  if(arg_KEYWORDS_MISSING_VALUES)
    list(GET arg_KEYWORDS_MISSING_VALUES 0 empty)
    message(FATAL_ERROR "${context}: ${empty} needs a value")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "${context}: SOURCES is required (the fusion files to compile)")
  endif()
  if(NOT TARGET fuserc::fuserc)
    message(FATAL_ERROR "${context}: there is no fuserc::fuserc executable; use "
                        "find_package(fuserc CONFIG REQUIRED) or add_subdirectory(<fuserc source>)")
  endif()

  # A misspelt keyword after a list keyword becomes one of that list's
  # values, so SOURCES, ARCHS and DUMP accept only values of their own kind.
  foreach(source IN LISTS arg_SOURCES)
    if(NOT source MATCHES "\\.(fus|yaml|yml)$")
      message(FATAL_ERROR "${context}: unknown argument '${source}': SOURCES are fusion files "
                          "(.fus, .yaml or .yml) ${keywords_hint}")
    endif()
  endforeach()
  foreach(arch IN LISTS arg_ARCHS)
    if(NOT arch MATCHES "^sm_[0-9][0-9][0-9]?a?$")
      message(FATAL_ERROR "${context}: unknown argument '${arch}': ARCHS are architectures like "
                          "sm_80 or sm_90 ${keywords_hint}")
    endif()
  endforeach()
  set(dump_stages)
  foreach(stage IN LISTS arg_DUMP)
    if(stage STREQUAL "all")
      list(APPEND dump_stages ${all_stages})
    elseif(stage IN_LIST all_stages)
      list(APPEND dump_stages ${stage})
    else()
      string(REPLACE ";" " " known "${all_stages}")
      message(FATAL_ERROR "${context}: unknown argument '${stage}': DUMP stages are ${known} "
                          "and all ${keywords_hint}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES dump_stages)
  # The outputs' names and places are this function's to choose: it
  # declares them to the build system.
  foreach(option IN LISTS arg_OPTIONS)
    if(option MATCHES "^(-o|--output|--name|--depfile|--dump|--dump-dir|--dump-format|--emit|--arch)(=.*)?$"
       OR option MATCHES "^-o.")
      string(REGEX REPLACE "=.*" "" flag "${option}")
      message(FATAL_ERROR "${context}: OPTIONS may not contain '${flag}': fuserc_add_kernels sets "
                          "it (use ARCHS, NAME, OUTPUT_DIR or DUMP)")
    endif()
  endforeach()

  list(LENGTH arg_SOURCES source_count)
  if(arg_NAME AND source_count GREATER 1)
    message(FATAL_ERROR "${context}: NAME names the outputs of one source, but SOURCES has "
                        "${source_count}; each source's outputs are named after its stem")
  endif()

  if(arg_OUTPUT_DIR)
    cmake_path(ABSOLUTE_PATH arg_OUTPUT_DIR BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
               NORMALIZE OUTPUT_VARIABLE output_dir)
  else()
    set(output_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}_fuserc")
  endif()
  file(MAKE_DIRECTORY "${output_dir}")

  set(emit_flags)
  if(arg_SHARED_LIBRARY)
    set(emit_flags "--emit=header,source,fatbin,manifest,so")
  endif()
  set(arch_flags)
  if(arg_ARCHS)
    list(JOIN arg_ARCHS "," arch_list)
    set(arch_flags "--arch=${arch_list}")
  endif()

  set(headers)
  set(implementations)
  set(names)
  foreach(source IN LISTS arg_SOURCES)
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE
               OUTPUT_VARIABLE source_path)
    if(arg_NAME)
      set(name "${arg_NAME}")
    else()
      cmake_path(GET source_path STEM LAST_ONLY name)
    endif()
    if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      message(FATAL_ERROR "${context}: the outputs' base name '${name}' (from ${source}) is not a "
                          "C identifier; rename the file or give NAME")
    endif()
    if(name IN_LIST names)
      message(FATAL_ERROR "${context}: two SOURCES would both write ${name}.h; give them "
                          "different stems, or use two fuserc_add_kernels calls with different "
                          "OUTPUT_DIRs")
    endif()
    list(APPEND names "${name}")

    # In the order fuserc's depfile names them (sorted): Ninja reads the
    # depfile only if its first target is the command's first output.
    set(outputs "${output_dir}/${name}.c" "${output_dir}/${name}.fatbin" "${output_dir}/${name}.h"
                "${output_dir}/${name}.manifest.json")
    if(arg_SHARED_LIBRARY)
      list(APPEND outputs "${output_dir}/lib${name}.so")
      list(SORT outputs)
    endif()
    set(depfile "${output_dir}/${name}.d")
    set(dump_flags)
    set(dump_files)
    if(dump_stages)
      set(dump_dir "${output_dir}/${name}.dumps")
      list(JOIN dump_stages "," dump_list)
      set(dump_flags "--dump=${dump_list}" "--dump-dir=${dump_dir}")
      foreach(stage IN LISTS dump_stages)
        list(FIND all_stages ${stage} index)
        math(EXPR number "${index} + 1")
        string(LENGTH "${number}" digits)
        if(digits EQUAL 1)
          set(number "0${number}")
        endif()
        list(APPEND dump_files "${dump_dir}/${number}-${stage}.txt")
      endforeach()
    endif()

    add_custom_command(
      OUTPUT ${outputs}
      BYPRODUCTS ${dump_files}
      COMMAND fuserc::fuserc "${source_path}" -o "${output_dir}" --name ${name}
              --depfile "${depfile}" ${arch_flags} ${emit_flags} ${dump_flags} ${arg_OPTIONS}
      DEPENDS "${source_path}" fuserc::fuserc
      DEPFILE "${depfile}"
      COMMENT "fuserc: ${source} -> ${name}.h, ${name}.c, ${name}.fatbin, ${name}.manifest.json"
      VERBATIM)
    list(APPEND headers "${output_dir}/${name}.h")
    list(APPEND implementations "${output_dir}/${name}.c")
  endforeach()

  # <name>.c is valid C99 and C++: compile it as C++ when the project has no C.
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "C" IN_LIST languages)
    set_source_files_properties(${implementations} PROPERTIES LANGUAGE CXX)
  endif()

  if(NOT FUSERC_DLPACK_INCLUDE_DIR)
    find_path(FUSERC_DLPACK_INCLUDE_DIR dlpack/dlpack.h
              DOC "Directory holding dlpack/dlpack.h, which fuserc's headers include")
  endif()
  if(NOT FUSERC_DLPACK_INCLUDE_DIR)
    message(FATAL_ERROR "${context}: dlpack/dlpack.h was not found; install dlpack (Debian: "
                        "libdlpack-dev) or set FUSERC_DLPACK_INCLUDE_DIR to the directory that "
                        "holds dlpack/dlpack.h")
  endif()
  # Imported targets are visible only below the directory that found them.
  if(NOT TARGET CUDA::cuda_driver)
    find_package(CUDAToolkit REQUIRED)
  endif()
  if(NOT TARGET Threads::Threads)
    find_package(Threads REQUIRED)
  endif()

  # The headers are sources too: that ties their fuserc runs to this target,
  # so they are generated before anything that links it is compiled.
  add_library(${target} STATIC ${implementations} ${headers})
  target_include_directories(${target} PUBLIC "${output_dir}")
  target_include_directories(${target} SYSTEM PUBLIC "${FUSERC_DLPACK_INCLUDE_DIR}")
  target_link_libraries(${target} PUBLIC CUDA::cuda_driver Threads::Threads)
endfunction()

cmake_policy(POP)

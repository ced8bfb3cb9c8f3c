# Third-party dependencies, all from Debian packages (see README) and the
# CUDA toolkit.
find_package(LLVM 14 REQUIRED CONFIG HINTS /usr/lib/llvm-14/lib/cmake/llvm)
message(STATUS "LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_INSTALL_PREFIX}")

# LLVM's static component libraries, wrapped with their headers as SYSTEM
# includes so LLVM's own warnings do not fail our -Werror build.
add_library(fuserc_llvm_support INTERFACE)
target_include_directories(fuserc_llvm_support SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
target_compile_definitions(fuserc_llvm_support INTERFACE ${LLVM_DEFINITIONS})
target_link_libraries(fuserc_llvm_support INTERFACE LLVMSupport)

add_library(fuserc_llvm_tablegen INTERFACE)
target_link_libraries(fuserc_llvm_tablegen INTERFACE fuserc_llvm_support LLVMTableGen)

find_package(CLI11 REQUIRED CONFIG)
find_package(yaml-cpp REQUIRED CONFIG)
find_path(DLPACK_INCLUDE_DIR dlpack/dlpack.h REQUIRED)
find_package(CUDAToolkit REQUIRED)
# The driver API stub (soname libcuda.so.1): `fuserc --emit so` links
# libNAME.so against it, and test programs that link the generated headers
# start with it on machines without a driver. The toolkit's layout differs
# between machines, so everything uses this one lookup.
find_library(FUSERC_CUDA_DRIVER_STUB cuda
             PATHS ${CUDAToolkit_LIBRARY_DIR}/stubs ${CUDAToolkit_TARGET_DIR}/lib/stubs
                   ${CUDAToolkit_TARGET_DIR}/lib64/stubs
             NO_DEFAULT_PATH)
set(FUSERC_CUDA_STUB_DIR "")
if(FUSERC_CUDA_DRIVER_STUB)
  get_filename_component(FUSERC_CUDA_STUB_DIR ${FUSERC_CUDA_DRIVER_STUB} DIRECTORY)
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# Only the tests use these (a project that add_subdirectory()s fuserc need
# not have them).
if(FUSERC_BUILD_TESTS)
  find_program(FILECHECK_EXECUTABLE FileCheck HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
  find_program(LLVM_NOT_EXECUTABLE not HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
  find_file(LIT_SCRIPT lit.py HINTS ${LLVM_INSTALL_PREFIX}/build/utils/lit REQUIRED)
  find_package(GTest REQUIRED)
endif()

# Warnings for the project's own targets; errors unless FUSERC_WERROR=OFF.
option(FUSERC_WERROR "Treat compiler warnings as errors" ON)

add_library(fuserc_warnings INTERFACE)
target_compile_options(fuserc_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow
                                                 -Wnon-virtual-dtor -Wno-unused-parameter
                                                 # GCC 12 false positives on std::string (GCC bug 105329)
                                                 $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
if(FUSERC_WERROR)
  target_compile_options(fuserc_warnings INTERFACE -Werror)
endif()

# Link only the shared libraries actually used (LLVM's export lists more).
add_link_options(LINKER:--as-needed)

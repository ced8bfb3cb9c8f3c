# Installation: the fuserc executable and the CMake package that lets other
# projects call find_package(fuserc CONFIG) and fuserc_add_kernels(). Only
# the executable is exported: fuserc's libraries (and LLVM, yaml-cpp, ...,
# linked into it) are not installed. Scheduler plugins and tests are not
# installed either.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(FUSERC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/fuserc
    CACHE STRING "Where the fuserc CMake package is installed, under the prefix")

install(TARGETS fuserc EXPORT fusercTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(EXPORT fusercTargets NAMESPACE fuserc:: DESTINATION ${FUSERC_INSTALL_CMAKEDIR})

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/fusercConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/package/fusercConfig.cmake
                              INSTALL_DESTINATION ${FUSERC_INSTALL_CMAKEDIR})
# 0.x: a minor version may break compatibility.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/fusercConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/fusercConfig.cmake
              ${PROJECT_BINARY_DIR}/package/fusercConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/FusercAddKernels.cmake
        DESTINATION ${FUSERC_INSTALL_CMAKEDIR})

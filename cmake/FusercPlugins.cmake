# fuserc_add_scheduler_plugin(TARGET SOURCES...): builds a scheduler plugin
# (the contract is schedulers/Plugin.h) into BUILD/plugins/libTARGET.so: a
# MODULE library compiled against fuserc's headers and linked against
# nothing of fuserc; the fuserc executable exports what plugins use.
function(fuserc_add_scheduler_plugin target)
  add_library(${target} MODULE ${ARGN})
  add_dependencies(${target} fuserc_op_tables)
  target_include_directories(${target} PRIVATE ${fuserc_SOURCE_DIR} ${fuserc_BINARY_DIR}/generated)
  target_include_directories(${target} SYSTEM PRIVATE ${LLVM_INCLUDE_DIRS})
  target_compile_definitions(${target} PRIVATE ${LLVM_DEFINITIONS})
  target_link_libraries(${target} PRIVATE fuserc_warnings)
  set_target_properties(${target} PROPERTIES CXX_VISIBILITY_PRESET hidden
                                             LIBRARY_OUTPUT_DIRECTORY ${fuserc_BINARY_DIR}/plugins)
endfunction()

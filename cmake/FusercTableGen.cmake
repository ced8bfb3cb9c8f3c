# fuserc_tablegen(TARGET ACTION OUTPUT): runs fuserc-tblgen ACTION on ops.td,
# writing OUTPUT in the binary dir, and names the result TARGET.
function(fuserc_tablegen target action output)
  set(out ${fuserc_BINARY_DIR}/generated/${output})
  add_custom_command(
    OUTPUT ${out}
    COMMAND fuserc-tblgen ${action} ${fuserc_SOURCE_DIR}/ops.td -o ${out}
    DEPENDS fuserc-tblgen ${fuserc_SOURCE_DIR}/ops.td
    COMMENT "fuserc-tblgen ${action} ops.td"
    VERBATIM)
  add_custom_target(${target} DEPENDS ${out})
endfunction()

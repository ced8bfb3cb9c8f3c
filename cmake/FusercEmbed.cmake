# fuserc_embed_text(TARGET FILE SYMBOL): compiles FILE (relative to the
# calling CMakeLists.txt), C or CUDA that fuserc emits verbatim, into TARGET
# as the constant `const std::string_view SYMBOL` (namespace-qualified:
# fuserc::embedded::kName). The files live in the tree as real sources,
# compiled and read on their own; this is what puts them into the binary.
#
# The file's first comment says what the file is for and is not embedded
# (EmbedText.cmake drops it, with the blank line after it). The generated
# .cpp depends on FILE, so editing FILE rebuilds it, and its bytes depend on
# nothing else: the build is deterministic.
set(FUSERC_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/EmbedText.cmake)

function(fuserc_embed_text target file symbol)
  get_filename_component(input ${file} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  file(RELATIVE_PATH name ${fuserc_SOURCE_DIR} ${input})
  set(output ${fuserc_BINARY_DIR}/generated/embedded/${name}.cpp)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DNAME=${name} -DSYMBOL=${symbol}
            -DOUTPUT=${output} -P ${FUSERC_EMBED_SCRIPT}
    DEPENDS ${input} ${FUSERC_EMBED_SCRIPT}
    COMMENT "Embedding ${name}"
    VERBATIM)
  target_sources(${target} PRIVATE ${output})
endfunction()

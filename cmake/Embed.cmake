# gleaner_embed_text(TARGET <lib> FILES a.js b.js NAMESPACE ns)
# Turns each file into a `std::string_view` constant `ns::<stem>_js` (dots and dashes become
# underscores) in a generated header `<lib>_embedded.h`, so in-page scripts live as real .js files
# beside their C++ and ship inside the binary. The file is re-embedded whenever it changes.
function(gleaner_embed_text)
  cmake_parse_arguments(E "" "TARGET;NAMESPACE" "FILES" ${ARGN})
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/embedded)
  set(header ${out_dir}/${E_TARGET}_embedded.h)
  set(inputs)
  foreach(f IN LISTS E_FILES)
    get_filename_component(abs ${f} ABSOLUTE)
    list(APPEND inputs ${abs})
  endforeach()
  add_custom_command(
    OUTPUT ${header}
    COMMAND ${CMAKE_COMMAND} -DOUT=${header} -DNS=${E_NAMESPACE} "-DINPUTS=${inputs}"
            -P ${CMAKE_SOURCE_DIR}/cmake/EmbedScript.cmake
    VERBATIM
    DEPENDS ${inputs} ${CMAKE_SOURCE_DIR}/cmake/EmbedScript.cmake
    COMMENT "Embedding ${E_TARGET} scripts")
  target_sources(${E_TARGET} PRIVATE ${header})
  target_include_directories(${E_TARGET} PUBLIC ${out_dir})
endfunction()

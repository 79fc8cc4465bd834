# gleaner_embed_text(TARGET <lib> FILES a.js b.js NAMESPACE ns [HEADER name] [BASE_DIR dir] [TABLE t])
# Turns each file into a `std::string_view` constant in namespace `ns`, in a generated header
# `<HEADER>.h` (default `<lib>_embedded.h`), so in-page scripts live as real .js files beside their
# C++ and ship inside the binary. The constant is named after the file's path relative to BASE_DIR
# (default: its name alone), non-alphanumerics becoming underscores: `serp.js` → `serp_js`,
# `google/serp.js` under BASE_DIR extract/sites → `google_serp_js`. The file is re-embedded
# whenever it changes. TABLE t: also `<ns>::t`, every (name relative to BASE_DIR, text) pair, for
# lookups by name.
function(gleaner_embed_text)
  cmake_parse_arguments(E "" "TARGET;NAMESPACE;HEADER;BASE_DIR;TABLE" "FILES" ${ARGN})
  if(NOT E_HEADER)
    set(E_HEADER ${E_TARGET}_embedded)
  endif()
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/embedded)
  set(header ${out_dir}/${E_HEADER}.h)
  set(inputs)
  foreach(f IN LISTS E_FILES)
    get_filename_component(abs ${f} ABSOLUTE)
    list(APPEND inputs ${abs})
  endforeach()
  add_custom_command(
    OUTPUT ${header}
    COMMAND ${CMAKE_COMMAND} -DOUT=${header} -DNS=${E_NAMESPACE} "-DINPUTS=${inputs}"
            "-DBASE_DIR=${E_BASE_DIR}" "-DTABLE=${E_TABLE}" -P ${CMAKE_SOURCE_DIR}/cmake/EmbedScript.cmake
    VERBATIM
    DEPENDS ${inputs} ${CMAKE_SOURCE_DIR}/cmake/EmbedScript.cmake
    COMMENT "Embedding ${E_HEADER} scripts")
  # The target may live in another directory (the sites' scripts are embedded from extract/sites
  # into gleaner_extract): a custom target orders the generation before its compilation.
  add_custom_target(${E_HEADER}_generate DEPENDS ${header})
  add_dependencies(${E_TARGET} ${E_HEADER}_generate)
  target_sources(${E_TARGET} PRIVATE ${header})
  target_include_directories(${E_TARGET} PUBLIC ${out_dir})
endfunction()

# Applied through one interface target so that every library and test gets the same flags.
add_library(gleaner_sanitizers INTERFACE)
if(GLEANER_SANITIZE)
  target_compile_options(gleaner_sanitizers INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(gleaner_sanitizers INTERFACE -fsanitize=address,undefined)
endif()

add_library(gleaner_warnings INTERFACE)
target_compile_options(gleaner_warnings INTERFACE
  -Wall -Wextra -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Wunused
  -Woverloaded-virtual -Wimplicit-fallthrough)

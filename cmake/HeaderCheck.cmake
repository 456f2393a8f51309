# baton_check_headers(NAME target DIRECTORIES dir... [EXCLUDE dir...] LIBS lib...)
# Compiles every public header under the directories (and their subdirectories, but not
# those under EXCLUDE) in a translation unit of its own, so a header that forgets an
# include fails the build (as seastar does).
function(baton_check_headers)
  cmake_parse_arguments(H "" "NAME" "DIRECTORIES;EXCLUDE;LIBS" ${ARGN})
  set(sources "")
  foreach(dir IN LISTS H_DIRECTORIES)
    file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/${dir}/*.h)
    foreach(excluded IN LISTS H_EXCLUDE)
      list(FILTER headers EXCLUDE REGEX "^${excluded}/")
    endforeach()
    foreach(header IN LISTS headers)
      string(MAKE_C_IDENTIFIER "${header}" id)
      set(source ${CMAKE_CURRENT_BINARY_DIR}/header_check/${id}.cpp)
      file(CONFIGURE OUTPUT ${source} CONTENT "#include \"${header}\"\n")
      list(APPEND sources ${source})
    endforeach()
  endforeach()
  add_library(${H_NAME} OBJECT ${sources})
  target_link_libraries(${H_NAME} PRIVATE baton::build_flags ${H_LIBS})
  # The check is that each header parses alone (with every warning an error); the code the
  # header's inline functions make is compiled, optimized and warned about in the .cpp files
  # that use them. So no optimizer and no debug info here: half the CPU of -O2 -g on the
  # heavy headers (docs/build.md), and, unlike -fsyntax-only, still an object file ninja and
  # ccache keep, so an unchanged header is not checked again.
  target_compile_options(${H_NAME} PRIVATE -O0 -g0)
endfunction()

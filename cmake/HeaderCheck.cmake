# baton_check_headers(NAME target DIRECTORIES dir... [EXCLUDE dir...] LIBS lib...)
# Compiles every public header under the directories (and their subdirectories, but not
# those under EXCLUDE) in a translation unit of its own, so a header that forgets an
# include fails the build (as seastar does).
#
# A header whose own source (x.h beside x.cpp) is compiled in this tree and includes it
# before anything else is already compiled alone there, with the same warnings: its own
# check would repeat that work, so it gets none (docs/build.md, "Header checks"), unless
# sources are compiled in batches (BATON_UNITY), where a source follows others. Call after
# every target of the tree is defined.
function(baton_check_headers)
  cmake_parse_arguments(H "" "NAME" "DIRECTORIES;EXCLUDE;LIBS" ${ARGN})
  _baton_compiled_sources(${PROJECT_SOURCE_DIR} compiled)
  set(sources "")
  foreach(dir IN LISTS H_DIRECTORIES)
    file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/${dir}/*.h)
    foreach(excluded IN LISTS H_EXCLUDE)
      list(FILTER headers EXCLUDE REGEX "^${excluded}/")
    endforeach()
    foreach(header IN LISTS headers)
      _baton_checked_by_own_source(${header} "${compiled}" checked)
      if(checked)
        continue()
      endif()
      string(MAKE_C_IDENTIFIER "${header}" id)
      set(source ${CMAKE_CURRENT_BINARY_DIR}/header_check/${id}.cpp)
      file(CONFIGURE OUTPUT ${source} CONTENT "#include \"${header}\"\n")
      list(APPEND sources ${source})
    endforeach()
  endforeach()
  if(NOT sources)
    return()
  endif()
  add_library(${H_NAME} OBJECT ${sources})
  set_target_properties(${H_NAME} PROPERTIES BATON_SOURCES_ALONE TRUE)
  target_link_libraries(${H_NAME} PRIVATE baton::build_flags ${H_LIBS})
  # The check is that each header parses alone (with every warning an error); the code the
  # header's inline functions make is compiled, optimized and warned about in the .cpp files
  # that use them. So no optimizer and no debug info here: half the CPU of -O2 -g on the
  # heavy headers (docs/build.md), and, unlike -fsyntax-only, still an object file ninja and
  # ccache keep, so an unchanged header is not checked again.
  target_compile_options(${H_NAME} PRIVATE -O0 -g0)
endfunction()

# The absolute paths of the sources of every target under `dir` that the build builds.
function(_baton_compiled_sources dir out)
  set(result "")
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY" OR type STREQUAL "UTILITY")
      continue()
    endif()
    get_target_property(left_out ${target} EXCLUDE_FROM_ALL)
    if(left_out)
      continue()
    endif()
    get_target_property(target_sources ${target} SOURCES)
    get_target_property(target_dir ${target} SOURCE_DIR)
    foreach(source IN LISTS target_sources)
      if(source MATCHES "^\\$<")
        continue()
      endif()
      cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${target_dir} NORMALIZE OUTPUT_VARIABLE absolute)
      list(APPEND result ${absolute})
    endforeach()
  endforeach()
  get_property(subdirectories DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdirectory IN LISTS subdirectories)
    _baton_compiled_sources(${subdirectory} below)
    list(APPEND result ${below})
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# Whether `header` (relative to the project) has a compiled source of the same name whose
# first preprocessor line includes the header (nothing defined before it).
function(_baton_checked_by_own_source header compiled out)
  set(${out} FALSE PARENT_SCOPE)
  if(BATON_UNITY)  # the source is compiled in a batch, after others (cmake/Unity.cmake)
    return()
  endif()
  string(REGEX REPLACE "\\.h$" ".cpp" own_source "${PROJECT_SOURCE_DIR}/${header}")
  if(NOT own_source IN_LIST compiled)
    return()
  endif()
  file(STRINGS ${own_source} directives REGEX "^[ \t]*#")
  list(LENGTH directives count)
  if(count EQUAL 0)
    return()
  endif()
  list(GET directives 0 first)
  if(first STREQUAL "#include \"${header}\"")
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

# Runs at `cmake --install` time (install(CODE) in systemd/CMakeLists.txt): configures
# the unit files with this install's paths and installs them, the sysusers and tmpfiles
# snippets and the example configurations. A configuration the operator already has is
# kept; the new example always lands beside it as NAME.example.
# In: BATON_SYSTEMD_SOURCE_DIR, BATON_SYSTEMD_BINARY_DIR, BATON_INSTALL_BINDIR,
# BATON_INSTALL_DOCDIR, BATON_CONFIG_DIR (may be empty), CMAKE_INSTALL_PREFIX (--prefix).

function(baton_full_path out dir)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "${CMAKE_INSTALL_PREFIX}/${dir}" PARENT_SCOPE)
  endif()
endfunction()

# The values the units' @VARIABLES@ take.
baton_full_path(BATON_BINDIR "${BATON_INSTALL_BINDIR}")
baton_full_path(BATON_DOCDIR "${BATON_INSTALL_DOCDIR}")
if(NOT BATON_CONFIG_DIR)
  if(CMAKE_INSTALL_PREFIX MATCHES "^/usr(/local)?/?$")
    set(BATON_CONFIG_DIR "/etc/baton")
  else()
    set(BATON_CONFIG_DIR "${CMAKE_INSTALL_PREFIX}/etc/baton")
  endif()
endif()

# systemd reads units, sysusers.d and tmpfiles.d under both /usr/lib and /usr/local/lib.
# Each install configures the units in a directory of its own, named after where it
# installs: two installs of one build at once (the suites stage several) wrote the same
# file in the build tree, and one failed in configure_file.
string(SHA1 install_key "$ENV{DESTDIR}|${CMAKE_INSTALL_PREFIX}")
set(configured "${BATON_SYSTEMD_BINARY_DIR}/install-${install_key}")
foreach(unit baton-agent.service baton-coordinator.service)
  configure_file("${BATON_SYSTEMD_SOURCE_DIR}/${unit}.in" "${configured}/${unit}" @ONLY)
  file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/systemd/system" TYPE FILE FILES "${configured}/${unit}")
endforeach()
file(REMOVE_RECURSE "${configured}")
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/sysusers.d" TYPE FILE RENAME baton.conf
     FILES "${BATON_SYSTEMD_SOURCE_DIR}/baton-sysusers.conf")
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/tmpfiles.d" TYPE FILE RENAME baton.conf
     FILES "${BATON_SYSTEMD_SOURCE_DIR}/baton-tmpfiles.conf")

foreach(config agent.toml coordinator.toml)
  file(INSTALL DESTINATION "${BATON_CONFIG_DIR}" TYPE FILE RENAME ${config}.example
       FILES "${BATON_SYSTEMD_SOURCE_DIR}/${config}")
  if(EXISTS "$ENV{DESTDIR}${BATON_CONFIG_DIR}/${config}")
    message(STATUS "Keeping: $ENV{DESTDIR}${BATON_CONFIG_DIR}/${config} (the new example is ${config}.example)")
  else()
    file(INSTALL DESTINATION "${BATON_CONFIG_DIR}" TYPE FILE FILES "${BATON_SYSTEMD_SOURCE_DIR}/${config}")
  endif()
endforeach()

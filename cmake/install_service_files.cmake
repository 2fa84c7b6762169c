# Install-time part of `cmake --install` (and of cpack): writes the example
# configuration and the service files with the paths of the prefix in effect
# at install time, so `cmake --install BUILD --prefix /usr` and the .deb
# (prefix /usr: configuration in /etc) are right without reconfiguring.
# The files in the tree are written for the default prefix, /usr/local.
# Set by the top-level CMakeLists.txt: DP_SOURCE_DIR, DP_BINARY_DIR,
# DP_SYSTEM, DP_SBINDIR, DP_DATADIR.
set(prefix "${CMAKE_INSTALL_PREFIX}")
if(prefix STREQUAL "/usr")
  set(etc "/etc")
else()
  set(etc "${prefix}/etc")
endif()
set(state "/var/lib/diskpulse")
if(DP_SYSTEM STREQUAL "FreeBSD")
  set(state "/var/db/diskpulse")
endif()
set(sbin "${prefix}/${DP_SBINDIR}")
set(share "${prefix}/${DP_DATADIR}")

function(dp_install_substituted src dest_dir name)
  file(READ "${DP_SOURCE_DIR}/${src}" text)
  foreach(pair IN LISTS ARGN)
    string(REPLACE "=>" ";" kv "${pair}")
    list(GET kv 0 from)
    list(GET kv 1 to)
    string(REPLACE "${from}" "${to}" text "${text}")
  endforeach()
  set(out "${DP_BINARY_DIR}/install-files/${name}")
  file(WRITE "${out}" "${text}")
  file(INSTALL "${out}" DESTINATION "${dest_dir}")
endfunction()

dp_install_substituted(config/diskpulse.json "${etc}/diskpulse" diskpulse.json.example
  "\"./var/diskpulse.db\"=>\"${state}/diskpulse.db\""
  "\"./webui\"=>\"${share}/diskpulse/webui\""
  "\"./var/diskpulsed.pid\"=>\"\"")
if(DP_SYSTEM STREQUAL "FreeBSD")
  dp_install_substituted(rc.d/diskpulsed "${etc}/rc.d" diskpulsed
    "/usr/local/sbin=>${sbin}"
    "/usr/local/etc=>${etc}")
  file(CHMOD "$ENV{DESTDIR}${etc}/rc.d/diskpulsed" PERMISSIONS OWNER_READ OWNER_WRITE
       OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
else()
  dp_install_substituted(systemd/diskpulsed.service "${prefix}/lib/systemd/system"
    diskpulsed.service
    "/usr/local/sbin=>${sbin}"
    "/usr/local/etc=>${etc}"
    "/var/lib/diskpulse=>${state}")
endif()

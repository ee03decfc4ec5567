# Install rules and the CMake/pkg-config packages (README.md "Install and use
# from your own program"). Included last from the top CMakeLists.txt, once
# every library is defined; nothing here adds build work.
#
#   cmake --install build --prefix P
#     P/bin/baresm                       the command line
#     P/include/baresm/<folder>/*.h      the public headers, same paths as in-tree:
#                                        -IP/include/baresm, #include "host_driver/driver.h"
#     P/lib/libbaresm_*.a                the libraries
#     P/lib/cmake/baresm/                find_package(baresm CONFIG): baresm::driver,
#                                        baresm::isa, baresm::cosim (when built)
#     P/lib/pkgconfig/baresm.pc          driver + toolchain/model for plain Makefiles
#     P/lib/pkgconfig/baresm-cosim.pc    + the RTL co-simulation (when built)
#     P/share/baresm/kernels/            the sample kernels (baresm run --kernels DIR)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(BARESM_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/baresm)
set(BARESM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/baresm)

# Library target -> name in the package (baresm::<name>). The co-simulation
# needs the rest of its link closure exported too (static libraries carry
# their dependencies to the final link).
set(BARESM_EXPORTED isa:baresm_isa contract:baresm_contract cq:baresm_cq driver:baresm_driver)
set(BARESM_INSTALL_COSIM OFF)
if(TARGET baresm_cosim)
  set(BARESM_INSTALL_COSIM ON)
  list(APPEND BARESM_EXPORTED samples:baresm_samples mem_model:baresm_mem_model sm_harness:baresm_sm_harness
       top_sc:baresm_top_sc timeline:baresm_timeline cosim:baresm_cosim)
endif()

set(exported_targets "")
foreach(pair ${BARESM_EXPORTED})
  string(REPLACE ":" ";" pair ${pair})
  list(GET pair 0 name)
  list(GET pair 1 tgt)
  list(APPEND exported_targets ${tgt})
  set_target_properties(${tgt} PROPERTIES EXPORT_NAME ${name})
  # In-tree every library says PUBLIC ${CMAKE_SOURCE_DIR} (and verilate() adds
  # its output folder); an installed target must not point into the
  # checkout or the build: those paths become build-only, and the installed
  # headers come from INCLUDES DESTINATION below.
  get_target_property(dirs ${tgt} INTERFACE_INCLUDE_DIRECTORIES)
  if(dirs)
    set(fixed "")
    foreach(d ${dirs})
      string(FIND "${d}" "${CMAKE_SOURCE_DIR}" in_src)
      string(FIND "${d}" "${CMAKE_BINARY_DIR}" in_bin)
      if(in_src EQUAL 0 OR in_bin EQUAL 0)
        list(APPEND fixed "$<BUILD_INTERFACE:${d}>")
      else()
        list(APPEND fixed "${d}")
      endif()
    endforeach()
    set_target_properties(${tgt} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${fixed}")
  endif()
  # The headers need C++17 (and SystemC's library is built for it).
  set_property(TARGET ${tgt} APPEND PROPERTY INTERFACE_COMPILE_FEATURES cxx_std_17)
endforeach()

install(TARGETS ${exported_targets} EXPORT baresmTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${BARESM_INSTALL_INCLUDEDIR})
install(TARGETS baresm RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The CLI's default kernel folder is the checkout's; an installed one is
# pointed at its own copy with --kernels.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/kernels/ DESTINATION ${CMAKE_INSTALL_DATADIR}/baresm/kernels)

# Public headers: what driver.h, model_transport.h, the assembler, module
# loader and functional model include, and the contract they all include
# (contract/: the .def X-macro tables, regs.h, rings.h).
foreach(dir contract isa cq_model host_driver)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/${dir}/ DESTINATION ${BARESM_INSTALL_INCLUDEDIR}/${dir}
    FILES_MATCHING PATTERN "*.h" PATTERN "*.def"
    PATTERN "*_impl.h" EXCLUDE)  # private: shared by one library's .cpp files only
endforeach()
if(BARESM_INSTALL_COSIM)
  # The RTL transport: sc_transport.h -> testbench.h -> sim/harness/mem_model.h,
  # sim/harness/state_names.h.
  # None includes systemc.h; testbench.h needs baresm::top_sc's BARESM_TOP_* definitions.
  install(FILES ${CMAKE_SOURCE_DIR}/sim/systemc/sc_transport.h ${CMAKE_SOURCE_DIR}/sim/systemc/testbench.h
    DESTINATION ${BARESM_INSTALL_INCLUDEDIR}/sim/systemc)
  install(FILES ${CMAKE_SOURCE_DIR}/sim/harness/mem_model.h ${CMAKE_SOURCE_DIR}/sim/harness/state_names.h
    DESTINATION ${BARESM_INSTALL_INCLUDEDIR}/sim/harness)
endif()

# Where SystemC was found here: the package's first guess on the user's machine.
set(BARESM_SYSTEMC_LIBDIR "")
if(SYSTEMC_LIBRARY)
  get_filename_component(BARESM_SYSTEMC_LIBDIR "${SYSTEMC_LIBRARY}" DIRECTORY)
endif()

install(EXPORT baresmTargets NAMESPACE baresm:: DESTINATION ${BARESM_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/baresmConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/baresmConfig.cmake
  INSTALL_DESTINATION ${BARESM_INSTALL_CMAKEDIR})
# The version the driver reports to programs: the register map's major.minor
# is the device's; this is the software's.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/baresmConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/cmake/baresmConfig.cmake ${CMAKE_BINARY_DIR}/cmake/baresmConfigVersion.cmake
  DESTINATION ${BARESM_INSTALL_CMAKEDIR})

# pkg-config: relative to the .pc file, so any --prefix given at install
# time works (CMAKE_INSTALL_PREFIX is only known at configure time).
file(RELATIVE_PATH BARESM_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" BARESM_PC_TO_PREFIX "${BARESM_PC_TO_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/baresm.pc.in ${CMAKE_BINARY_DIR}/cmake/baresm.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/cmake/baresm.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(BARESM_INSTALL_COSIM)
  get_target_property(top_defs baresm_top_sc INTERFACE_COMPILE_DEFINITIONS)
  list(TRANSFORM top_defs PREPEND -D)
  list(JOIN top_defs " " BARESM_PC_TOP_DEFS)
  configure_file(${CMAKE_SOURCE_DIR}/cmake/baresm-cosim.pc.in ${CMAKE_BINARY_DIR}/cmake/baresm-cosim.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/cmake/baresm-cosim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

# rtl/baresm.f, the one ordered list of the RTL's files, for CMake.
#   baresm_rtl_files(OUT [MATCH REGEX] [SM_DIR DIR])
# OUT gets absolute paths in the list's order; MATCH keeps the entries whose
# path (relative to the repository) matches REGEX (a block test's subset, in
# the list's order); SM_DIR takes the rtl/sm entries from DIR instead (a
# snapshot of the SM's sources).
set(BARESM_RTL_LIST ${CMAKE_SOURCE_DIR}/rtl/baresm.f)
set(BARESM_RTL_INCDIR ${CMAKE_SOURCE_DIR}/rtl/prim)
set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${BARESM_RTL_LIST})

function(baresm_rtl_files out)
  cmake_parse_arguments(A "" "MATCH;SM_DIR" "" ${ARGN})
  file(STRINGS ${BARESM_RTL_LIST} lines)
  set(files)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "//.*" "" line "${line}")
    string(STRIP "${line}" line)
    if(line STREQUAL "" OR line MATCHES "^\\+")   # blank, comment, +incdir+
      continue()
    endif()
    if(A_MATCH AND NOT line MATCHES "${A_MATCH}")
      continue()
    endif()
    set(path ${CMAKE_SOURCE_DIR}/${line})
    if(A_SM_DIR AND line MATCHES "^rtl/sm/")
      get_filename_component(name ${line} NAME)
      set(path ${A_SM_DIR}/${name})
    endif()
    if(NOT EXISTS ${path})
      message(FATAL_ERROR "rtl/baresm.f: ${line} does not exist (${path})")
    endif()
    list(APPEND files ${path})
  endforeach()
  if(NOT files)
    message(FATAL_ERROR "baresm_rtl_files: no file of rtl/baresm.f matches '${A_MATCH}'")
  endif()
  # Verilator's verilate() fixes the list of C++ files it generates when CMake
  # configures, and their names carry hashes of the design: after an RTL edit
  # the old list names files Verilator no longer writes (undefined references
  # at link time). So an edit of any RTL file configures again.
  file(GLOB headers ${BARESM_RTL_INCDIR}/*.svh)
  set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${files} ${headers})
  set(${out} ${files} PARENT_SCOPE)
endfunction()

# rtl/configs.txt, the named SM configurations.
#   baresm_sm_params(NAME OUT)   OUT gets the list Name=Value ... of NAME
set(BARESM_SM_CONFIGS ${CMAKE_SOURCE_DIR}/rtl/configs.txt)
set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${BARESM_SM_CONFIGS})

function(baresm_sm_params name out)
  file(STRINGS ${BARESM_SM_CONFIGS} lines)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "#.*" "" line "${line}")
    string(STRIP "${line}" line)
    if(line MATCHES "^${name}[ \t]+(.*)$")
      string(REGEX REPLACE "[ \t]+" ";" params "${CMAKE_MATCH_1}")
      set(${out} ${params} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "rtl/configs.txt: no SM configuration named '${name}'")
endfunction()

# baresm_design_stamp(STAMP OLD STAMP_FILE TEXT FILE...): STAMP gets the hash
# of TEXT and of every FILE's contents, OLD what STAMP_FILE holds ("" when
# it does not exist): a design is made again when they differ.
function(baresm_design_stamp stamp_out old_out stamp_file text)
  foreach(f IN LISTS ARGN)
    file(SHA256 ${f} h)
    string(APPEND text ";${h}")
  endforeach()
  string(SHA256 stamp "${text}")
  set(old "")
  if(EXISTS ${stamp_file})
    file(READ ${stamp_file} old)
  endif()
  set(${stamp_out} ${stamp} PARENT_SCOPE)
  set(${old_out} "${old}" PARENT_SCOPE)
endfunction()

# baresm_verilate(TARGET ...): verilate() with the same arguments, starting
# from an empty output directory whenever the design changed. Verilator names
# its C++ files after hashes of the design and lists, in the file list
# verilate() reads at configure time, the stale files of earlier designs left
# in its directory too (link errors: undefined or missing members). The
# stamp is a hash of the arguments and of every source and RTL header.
function(baresm_verilate target)
  cmake_parse_arguments(V "COVERAGE;TRACE;TRACE_FST;SYSTEMC;TRACE_STRUCTS"
    "PREFIX;TOP_MODULE;THREADS;TRACE_THREADS;DIRECTORY"
    "SOURCES;VERILATOR_ARGS;INCLUDE_DIRS;OPT_SLOW;OPT_FAST;OPT_GLOBAL" ${ARGN})
  set(vdir ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.dir/${V_PREFIX}.dir)
  file(GLOB headers ${BARESM_RTL_INCDIR}/*.svh)
  set(stamp_file ${vdir}/baresm_design.sha256)
  baresm_design_stamp(stamp old ${stamp_file} "${ARGN}" ${V_SOURCES} ${headers})
  if(NOT old STREQUAL stamp)
    file(GLOB stale ${vdir}/*)
    if(stale)
      file(REMOVE_RECURSE ${stale})
    endif()
  endif()
  verilate(${target} ${ARGN})
  file(WRITE ${stamp_file} ${stamp})
endfunction()

# baresm_fpga_netlist(BOARD TOP OUT [CHPARAM Name=Value ...]): the gate-level
# netlist of BOARD's top that scripts/fpga.sh writes from the same Yosys run
# as the bitstream (synth_ice40; write_verilog), for a netlist simulation. It
# is made when CMake configures, because verilate() reads its sources then,
# and made again when an RTL file, the script or the parameters change (a
# hash stamp; the RTL files are configure dependencies). OUT is empty, with a
# warning, when Yosys is missing or the synthesis fails.
function(baresm_fpga_netlist board top out)
  cmake_parse_arguments(A "" "" "CHPARAM" ${ARGN})
  set(${out} "" PARENT_SCOPE)
  find_program(BARESM_YOSYS yosys)
  if(NOT BARESM_YOSYS)
    message(WARNING "yosys not found: no netlist of ${board}, its netlist simulation is skipped")
    return()
  endif()
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/netlist-${board})
  set(net ${dir}/${top}.net.v)
  baresm_rtl_files(rtl)
  file(GLOB headers ${BARESM_RTL_INCDIR}/*.svh)
  set(script ${CMAKE_SOURCE_DIR}/scripts/fpga.sh)
  set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${script})
  set(stamp_file ${dir}/netlist.sha256)
  baresm_design_stamp(stamp old ${stamp_file} "${board};${top};${A_CHPARAM}" ${rtl} ${headers} ${script})
  if(NOT old STREQUAL stamp OR NOT EXISTS ${net})
    message(STATUS "Synthesizing the ${board} netlist (scripts/fpga.sh --synth-only ${board})")
    string(REPLACE ";" " " chparam "${A_CHPARAM}")
    execute_process(COMMAND env FPGA_CHPARAM=${chparam} ${script} --synth-only -o ${dir} ${board}
      WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
    if(NOT EXISTS ${net} OR (NOT rc EQUAL 0 AND NOT log MATCHES "does not fit"))
      message(WARNING "no netlist of ${board}: scripts/fpga.sh failed:\n${log}")
      file(REMOVE ${stamp_file})
      return()
    endif()
    if(NOT rc EQUAL 0)
      # Function first: the netlist of a design over the part still runs kernels.
      message(WARNING "the ${board} netlist is simulated although it does not fit the part:\n${log}")
    endif()
    file(WRITE ${stamp_file} ${stamp})
  endif()
  set(${out} ${net} PARENT_SCOPE)
endfunction()

# baresm_firmware(PROGRAM BUILD_TARGET UPDATE_TARGET FRESH_VAR): the control
# core's firmware fw/PROGRAM, built by fw/build.sh with clang for rv32i into
# the binary folder (BUILD_TARGET, part of `all`; its sources: fw/common,
# fw/PROGRAM, the files fw/PROGRAM/sources names, fw/include and the contract
# tables). UPDATE_TARGET copies the fresh image over the committed
# fw/PROGRAM/PROGRAM.hex, which the tests run. FRESH_VAR: the fresh image, or
# "" (with a loud warning) where clang, ld.lld or llvm-objcopy is missing.
function(baresm_firmware program build_target update_target fresh_var)
  find_program(BARESM_FW_CLANG clang)
  find_program(BARESM_FW_LLD ld.lld)
  find_program(BARESM_FW_OBJCOPY llvm-objcopy)
  set(fw ${CMAKE_SOURCE_DIR}/fw)
  set(image ${fw}/${program}/${program}.hex)
  set(${fresh_var} "" PARENT_SCOPE)
  if(NOT (BARESM_FW_CLANG AND BARESM_FW_LLD AND BARESM_FW_OBJCOPY))
    message(WARNING "\n*** clang, ld.lld or llvm-objcopy NOT FOUND: the firmware fw/${program} is NOT rebuilt; "
      "the tests run the committed image ${image}, which may be older than its sources. ***\n")
    return()
  endif()
  set(globs ${fw}/common/* ${fw}/${program}/*.c ${fw}/${program}/*.cpp ${fw}/${program}/*.h ${fw}/${program}/*.ld ${fw}/include/*.h
    ${CMAKE_SOURCE_DIR}/contract/*.def)
  if(EXISTS ${fw}/${program}/sources)
    list(APPEND globs ${fw}/${program}/sources)
    file(STRINGS ${fw}/${program}/sources shared REGEX "^[^#]")
    foreach(s ${shared})
      get_filename_component(d ${fw}/${s} DIRECTORY)
      list(APPEND globs ${fw}/${s} ${d}/*.h)
    endforeach()
  endif()
  file(GLOB sources ${globs})
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/fw-${program})
  set(fresh ${dir}/${program}.hex)
  add_custom_command(OUTPUT ${fresh}
    COMMAND ${CMAKE_COMMAND} -E env CLANG=${BARESM_FW_CLANG} LLD=${BARESM_FW_LLD} OBJCOPY=${BARESM_FW_OBJCOPY}
            ${fw}/build.sh ${program} ${dir}
    DEPENDS ${sources} ${fw}/build.sh
    COMMENT "Building the firmware fw/${program} (clang rv32i)")
  add_custom_target(${build_target} ALL DEPENDS ${fresh})
  add_custom_target(${update_target} COMMAND ${CMAKE_COMMAND} -E copy ${fresh} ${image} DEPENDS ${fresh}
    COMMENT "Copying the fresh firmware over fw/${program}/${program}.hex")
  set(${fresh_var} ${fresh} PARENT_SCOPE)
endfunction()

# rt: the runtime library, libktcrt.so (include/ktc/rt.h, docs/deploy.md):
# a template and its wisdom in, a launch at any shape out. It is built
# from the few files of the lower stages it needs (util, grammar, the
# wisdom file, the CUDA backend's NVRTC compile, configuration and driver
# loader) and links NVRTC, cJSON and libdl alone: no libclang, no tuner,
# no worker. Exports kt_rt_* only (rt/ktcrt.map).
if(NOT KTC_HAVE_CUDA)
  return()
endif()
set(KTC_RT_DIR ${CMAKE_CURRENT_LIST_DIR})
# rt.c alone, for the tests (which link the stages themselves).
add_library(ktcrt_core OBJECT ${KTC_RT_DIR}/rt.c)
add_library(ktcrt SHARED
  $<TARGET_OBJECTS:ktcrt_core>
  $<TARGET_OBJECTS:ktc_util>
  $<TARGET_OBJECTS:ktc_grammar>
  ${CMAKE_SOURCE_DIR}/tuner/wisdom.c
  ${CMAKE_SOURCE_DIR}/runtime/buffers.c
  ${CMAKE_SOURCE_DIR}/runtime/cuda/nvrtc.c
  ${CMAKE_SOURCE_DIR}/runtime/cuda/compile.c
  ${CMAKE_SOURCE_DIR}/runtime/cuda/config.c
  ${CMAKE_SOURCE_DIR}/runtime/cuda/driver.c
)
foreach(t ktcrt_core ktcrt)
  set_target_properties(${t} PROPERTIES POSITION_INDEPENDENT_CODE ON
                        C_VISIBILITY_PRESET hidden)
  target_include_directories(${t} PRIVATE ${CMAKE_SOURCE_DIR}/include
                             ${CMAKE_SOURCE_DIR} ${CJSON_INCLUDE_DIR}
                             ${CUDA_INCLUDE_DIR})
  target_compile_definitions(${t} PRIVATE ${KTC_DEFINES})
endforeach()
target_link_libraries(ktcrt PRIVATE ${NVRTC_LIBRARY} ${CMAKE_DL_LIBS}
                      ${CJSON_LIBRARY} Threads::Threads m)
target_link_options(ktcrt PRIVATE -Wl,-z,defs
                    -Wl,--version-script=${KTC_RT_DIR}/ktcrt.map)
set_target_properties(ktcrt PROPERTIES VERSION ${PROJECT_VERSION}
                      SOVERSION ${PROJECT_VERSION_MAJOR}
                      LINK_DEPENDS ${KTC_RT_DIR}/ktcrt.map)
install(TARGETS ktcrt LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
configure_file(${KTC_RT_DIR}/ktcrt.pc.in ktcrt.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/ktcrt.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# The Python package over the runtime (python/ktc): PREFIX/share/ktc/python
# on PYTHONPATH; it finds PREFIX/lib/libktcrt.so.0 from there.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/python/ktc
        DESTINATION ${CMAKE_INSTALL_DATADIR}/ktc/python
        PATTERN __pycache__ EXCLUDE)

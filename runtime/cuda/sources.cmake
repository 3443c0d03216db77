# The CUDA backend: NVRTC in the parent, the driver API (dlopen'd) and CUPTI
# in a worker process. Included by runtime/sources.cmake where the toolkit
# is found; libcuda is not linked (runtime/cuda/driver.h says why).
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/nvrtc.c
  ${CMAKE_CURRENT_LIST_DIR}/compile.c
  ${CMAKE_CURRENT_LIST_DIR}/compiler.c
  ${CMAKE_CURRENT_LIST_DIR}/config.c
  ${CMAKE_CURRENT_LIST_DIR}/backend.c
  ${CMAKE_CURRENT_LIST_DIR}/evaluate.c
  ${CMAKE_CURRENT_LIST_DIR}/spawn.c
  ${CMAKE_CURRENT_LIST_DIR}/proto.c
  ${CMAKE_CURRENT_LIST_DIR}/driver.c
  ${CMAKE_CURRENT_LIST_DIR}/worker.c
  ${CMAKE_CURRENT_LIST_DIR}/worker_eval.c
  ${CMAKE_CURRENT_LIST_DIR}/profile.c
  ${CMAKE_CURRENT_LIST_DIR}/export.c
)
list(APPEND KTC_LIBS ${NVRTC_LIBRARY} ${CMAKE_DL_LIBS})
list(APPEND KTC_INCLUDES ${CUDA_INCLUDE_DIR})
list(APPEND KTC_RUNTIME_BACKENDS cuda)
# The worker a host program that links libktc starts by default: the ktc
# this build installs (runtime/cuda/spawn.c).
set_property(SOURCE ${CMAKE_CURRENT_LIST_DIR}/spawn.c APPEND PROPERTY
             COMPILE_DEFINITIONS KTC_WORKER_DEFAULT="${CMAKE_INSTALL_FULL_BINDIR}/ktc")
# cupti_profiler_host.h includes C++'s <string>; profile.c gets a stand-in.
set_property(SOURCE ${CMAKE_CURRENT_LIST_DIR}/profile.c APPEND PROPERTY
             INCLUDE_DIRECTORIES ${CMAKE_CURRENT_LIST_DIR}/cshim)

# OpenCL backend (runtime/opencl/): the ICD loader (libOpenCL) and the
# Khronos headers; included by runtime/sources.cmake where OpenCL is found.
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/backend.c
  ${CMAKE_CURRENT_LIST_DIR}/wire.c
  ${CMAKE_CURRENT_LIST_DIR}/worker.c
  ${CMAKE_CURRENT_LIST_DIR}/build.c
  ${CMAKE_CURRENT_LIST_DIR}/run.c
  ${CMAKE_CURRENT_LIST_DIR}/device.c
)
list(APPEND KTC_LIBS ${OPENCL_LIBRARY})
list(APPEND KTC_INCLUDES ${OPENCL_INCLUDE_DIR})
list(APPEND KTC_RUNTIME_BACKENDS opencl)

# runtime: the backend registry and the simulation backend.
# A backend in runtime/<name>/ joins by writing runtime/<name>/sources.cmake
# (see runtime/backend_impl.h): it appends its sources to KTC_SOURCES and its
# name to KTC_RUNTIME_BACKENDS; the registry in backend.c is then switched on
# for it through KTC_BUILD_<NAME>_BACKEND.
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/backend.c
  ${CMAKE_CURRENT_LIST_DIR}/sim.c
  ${CMAKE_CURRENT_LIST_DIR}/wire.c
  ${CMAKE_CURRENT_LIST_DIR}/pool.c
  ${CMAKE_CURRENT_LIST_DIR}/mpi.c
)
# MPI (Open MPI from Debian): ranks on other hosts evaluate for rank 0.
if(KTC_HAVE_MPI)
  list(APPEND KTC_LIBS ${MPI_C_LIBRARIES})
  list(APPEND KTC_INCLUDES ${MPI_C_INCLUDE_DIRS})
endif()
set(KTC_RUNTIME_BACKENDS "")
if(KTC_HAVE_CUDA AND EXISTS ${CMAKE_CURRENT_LIST_DIR}/cuda/sources.cmake)
  include(${CMAKE_CURRENT_LIST_DIR}/cuda/sources.cmake)
endif()
if(KTC_HAVE_OPENCL AND EXISTS ${CMAKE_CURRENT_LIST_DIR}/opencl/sources.cmake)
  include(${CMAKE_CURRENT_LIST_DIR}/opencl/sources.cmake)
endif()
foreach(backend ${KTC_RUNTIME_BACKENDS})
  string(TOUPPER ${backend} BACKEND)
  set_property(SOURCE ${CMAKE_CURRENT_LIST_DIR}/backend.c APPEND PROPERTY
               COMPILE_DEFINITIONS KTC_BUILD_${BACKEND}_BACKEND=1)
endforeach()
# Host-side buffers and output comparison, shared by the CUDA and OpenCL
# backends (owned by the CUDA backend's engineer).
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/buffers.c
  ${CMAKE_CURRENT_LIST_DIR}/verify.c
)

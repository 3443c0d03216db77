# rewriter: edits on source ranges, diffs, verification by nvcc and NVRTC,
# and the annotation rewriter. Built where libclang is found: it reads the
# frontend's translation unit.
if(NOT KTC_HAVE_LIBCLANG)
  return()
endif()
list(APPEND KTC_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/edit.c
  ${CMAKE_CURRENT_LIST_DIR}/diff.c
  ${CMAKE_CURRENT_LIST_DIR}/ptx.c
  ${CMAKE_CURRENT_LIST_DIR}/verify.c
  ${CMAKE_CURRENT_LIST_DIR}/gen.c
  ${CMAKE_CURRENT_LIST_DIR}/domain.c
  ${CMAKE_CURRENT_LIST_DIR}/host.c
  ${CMAKE_CURRENT_LIST_DIR}/run.c
  ${CMAKE_CURRENT_LIST_DIR}/opencl.c
  ${CMAKE_CURRENT_LIST_DIR}/ties.c
  ${CMAKE_CURRENT_LIST_DIR}/rewrite.c
)
# Verification compiles with NVRTC in process where the toolkit is found,
# through the CUDA backend's driver (runtime/cuda/nvrtc.h).

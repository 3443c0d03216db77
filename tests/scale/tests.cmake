# Tuning on many workers and MPI ranks (docs/scale.md): scale.sh compares
# each against a one-process run. The MPI cases skip (77) without mpirun,
# the OpenCL ones without an OpenCL platform.
add_executable(t4_where ${CMAKE_CURRENT_LIST_DIR}/t4_where.c)
target_link_libraries(t4_where PRIVATE ktc_lib)
set(scale_cases sim_workers_same sim_mpi_same sim_mpi_rank_killed
    sim_campaign_mpi bad_job)
# t4_check exists with the OpenCL backend only ($<IF> would evaluate its
# $<TARGET_FILE:t4_check> branch in a build without it, and fail)
set(scale_t4_check none)
if(KTC_HAVE_OPENCL)
  list(APPEND scale_cases opencl_workers opencl_mpi opencl_mpi_killed_resume)
  set(scale_t4_check $<TARGET_FILE:t4_check>)
endif()
foreach(case ${scale_cases})
  add_test(NAME scale_${case}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/scale.sh ${case}
                   $<TARGET_FILE:ktc> $<TARGET_FILE:t4_same>
                   ${scale_t4_check}
                   $<TARGET_FILE:t4_where>)
  set_tests_properties(scale_${case} PROPERTIES
    LABELS scale SKIP_RETURN_CODE 77 TIMEOUT 300)
  # real PoCL timings decide the best: no other test may share the cores
  # (three ranks and another test under ASan once made a configuration
  # three times faster than the next time slower than it)
  if(case MATCHES "^opencl")
    set_tests_properties(scale_${case} PROPERTIES RUN_SERIAL TRUE)
  endif()
endforeach()

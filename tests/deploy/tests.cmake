# deploy: wisdom files (per-shape results), the runtime library (ktcrt),
# `ktc export` and the Python package (docs/deploy.md).
ktc_unit_test(test_wisdom ${CMAKE_CURRENT_LIST_DIR}/test_wisdom.c)

# `ktc tune` over a grid of shapes, with a wisdom file, on PoCL.
if(KTC_HAVE_OPENCL)
  foreach(case wisdom resume warm_start killed refine refusals)
    add_test(NAME deploy_grid_${case}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/grid_cli.sh ${case}
                     $<TARGET_FILE:ktc>)
    set_tests_properties(deploy_grid_${case} PROPERTIES
      LABELS "deploy;opencl" SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
endif()

# The runtime library: selection, the compile cache, refusals (NVRTC, no
# GPU); the launch itself on a GPU (label gpu, 77 without one).
if(TARGET ktcrt_core)
  ktc_unit_test(test_rt ${CMAKE_CURRENT_LIST_DIR}/test_rt.c
                $<TARGET_OBJECTS:ktcrt_core>)
  target_compile_definitions(test_rt PRIVATE
    KTC_DEPLOY_INPUTS="${CMAKE_CURRENT_LIST_DIR}/inputs")
  set_tests_properties(test_rt PROPERTIES LABELS "unit;deploy" TIMEOUT 300)
  ktc_unit_test(test_rt_gpu ${CMAKE_CURRENT_LIST_DIR}/test_rt_gpu.c
                $<TARGET_OBJECTS:ktcrt_core>)
  target_compile_definitions(test_rt_gpu PRIVATE
    KTC_DEPLOY_INPUTS="${CMAKE_CURRENT_LIST_DIR}/inputs")
  set_tests_properties(test_rt_gpu PROPERTIES LABELS "gpu;deploy" TIMEOUT 300)
endif()

# `ktc export`: the C it writes compiles and dispatches (needs nvcc: 77
# without), and its refusals.
if(KTC_HAVE_CUDA)
  foreach(case compiles runs pdl refusals)
    add_test(NAME deploy_export_${case}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/export_cli.sh ${case}
                     $<TARGET_FILE:ktc>)
    set_tests_properties(deploy_export_${case} PROPERTIES
      LABELS "deploy;cuda" SKIP_RETURN_CODE 77 TIMEOUT 300)
  endforeach()
endif()

# The Python package over the runtime (python/ktc): offline without torch;
# its tensor and GPU tests skip themselves where torch or a GPU is missing.
# (Not under the sanitizers: python3 cannot load a library built with
# them unless their runtime is preloaded.)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(TARGET ktcrt AND Python3_Interpreter_FOUND AND NOT KTC_SANITIZE)
  add_test(NAME deploy_python
           COMMAND ${Python3_EXECUTABLE} -m unittest -v test_python
           WORKING_DIRECTORY ${CMAKE_CURRENT_LIST_DIR})
  set_tests_properties(deploy_python PROPERTIES LABELS "deploy;python"
    TIMEOUT 300
    ENVIRONMENT "KTC_RT_LIB=$<TARGET_FILE:ktcrt>;PYTHONPATH=${CMAKE_SOURCE_DIR}/python")
endif()

# `ktc tune --objective graph|cold`: separate caches, refusals (sim, no GPU).
foreach(case separate_caches refusals)
  add_test(NAME deploy_objective_${case}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/objective_cli.sh ${case}
                   $<TARGET_FILE:ktc>
                   ${CMAKE_SOURCE_DIR}/tests/tune/inputs/scale.kt.cu)
  set_tests_properties(deploy_objective_${case} PROPERTIES
    LABELS deploy TIMEOUT 120)
endforeach()

# The deploy benchmark's programs (bench/deploy.sh runs them on a GPU; not
# tests): they link the runtime library and libcuda (the toolkit's stub
# here, the driver's on the GPU machine).
if(TARGET ktcrt)
  foreach(prog deploy_bench rt_overhead)
    string(REPLACE "_" "-" exe "ktc-${prog}")
    add_executable(${exe} ${CMAKE_SOURCE_DIR}/bench/${prog}.c)
    target_include_directories(${exe} PRIVATE ${CMAKE_SOURCE_DIR}/include
                               ${CUDA_INCLUDE_DIR})
    target_link_libraries(${exe} PRIVATE ktcrt ${CUDA_DRIVER_LIBRARY}
                          ${NVRTC_LIBRARY} m)
  endforeach()
endif()

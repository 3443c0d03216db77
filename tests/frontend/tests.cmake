# frontend tests: the edit plan (always built) and, with libclang, the
# parser, candidate finder and planner: unit tests on the small kernels of
# tests/frontend/inputs, golden candidate lists (kt-candidates FILE), and
# a valid plan for every annotate sample.
ktc_unit_test(test_plan ${CMAKE_CURRENT_LIST_DIR}/test_plan.c)

if(KTC_HAVE_LIBCLANG)
  add_executable(kt-candidates ${CMAKE_CURRENT_LIST_DIR}/kt_candidates.c)
  target_link_libraries(kt-candidates PRIVATE ktc_lib)

  ktc_unit_test(test_frontend ${CMAKE_CURRENT_LIST_DIR}/test_frontend.c)
  target_compile_definitions(test_frontend PRIVATE
    KT_FRONTEND_INPUTS="${CMAKE_CURRENT_LIST_DIR}/inputs")
  # the header cache of these tests lives in the build folder
  set(KTC_FRONTEND_TEST_ENV KTC_CACHE_DIR=${CMAKE_BINARY_DIR}/ktc-cache)
  set_tests_properties(test_frontend PROPERTIES ENVIRONMENT
    "${KTC_FRONTEND_TEST_ENV}")

  file(GLOB KTC_FRONTEND_INPUTS ${CMAKE_CURRENT_LIST_DIR}/inputs/*.cu)
  foreach(f ${KTC_FRONTEND_INPUTS})
    get_filename_component(name ${f} NAME_WE)
    add_test(NAME frontend_candidates_${name}
      COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/golden.sh $<TARGET_FILE:kt-candidates>
              inputs/${name}.cu expected/${name}.txt
      WORKING_DIRECTORY ${CMAKE_CURRENT_LIST_DIR})
    set_tests_properties(frontend_candidates_${name} PROPERTIES LABELS golden
      ENVIRONMENT "${KTC_FRONTEND_TEST_ENV}")
  endforeach()

  # The planner validates each plan against its file before returning it.
  file(GLOB KTC_ANNOTATE_SAMPLES ${CMAKE_SOURCE_DIR}/tests/annotate/inputs/*.cu)
  foreach(f ${KTC_ANNOTATE_SAMPLES})
    get_filename_component(name ${f} NAME_WE)
    add_test(NAME frontend_plan_${name}
      COMMAND kt-candidates --plan ${f})
    set_tests_properties(frontend_plan_${name} PROPERTIES LABELS unit
      ENVIRONMENT "${KTC_FRONTEND_TEST_ENV}")
  endforeach()
endif()

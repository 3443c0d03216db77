# tune: results, cache, T4, the simulation backend and the tuning driver.
ktc_unit_test(test_results ${CMAKE_CURRENT_LIST_DIR}/test_results.c)
ktc_unit_test(test_tune ${CMAKE_CURRENT_LIST_DIR}/test_tune.c)

# The kill -9 test: a killed and resumed run ends with the results of an
# uninterrupted one (t4_same compares two result files).
add_executable(t4_same ${CMAKE_CURRENT_LIST_DIR}/t4_same.c)
target_link_libraries(t4_same PRIVATE ktc_lib)
add_test(NAME tune_kill_resume
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/kill_resume.sh $<TARGET_FILE:ktc>
                 $<TARGET_FILE:t4_same> ${CMAKE_CURRENT_LIST_DIR}/inputs/scale.kt.cu)
set_tests_properties(tune_kill_resume PROPERTIES LABELS tune TIMEOUT 120)

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

# Golden tests of `ktc tune` and `ktc landscape`: NAME, then the arguments
# after `ktc`, run where golden.sh prepares landscapes and a cache; the
# expected output is golden/NAME.out (KTC_UPDATE_GOLDEN=1 rewrites it).
function(ktc_tune_golden name)
  add_test(NAME tune_golden_${name}
           COMMAND sh ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/golden.sh $<TARGET_FILE:ktc>
                   ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/golden/${name}.out ${ARGN})
  set_tests_properties(tune_golden_${name} PROPERTIES LABELS golden)
endfunction()

ktc_tune_golden(summary tune scale.kt.cu --from rugged.json --budget 40 --seed 2 --no-cache -q)
ktc_tune_golden(json tune scale.kt.cu --from roofline.json --strategy local_search --budget 30 --no-cache --json)
ktc_tune_golden(progress tune scale.kt.cu --from bowl.json --strategy brute_force --budget 3 --batch 1 --no-cache)
ktc_tune_golden(default_cache tune scale.kt.cu --from bowl.json --budget 5 -q)
ktc_tune_golden(resume_from_cache tune scale.kt.cu --from bowl.json --budget 12 --seed 3 -q --cache bowl-cache.jsonl)
ktc_tune_golden(sim_from_cache tune scale.kt.cu --from bowl-cache.jsonl --budget 10 --seed 3 -q --no-cache)
ktc_tune_golden(not_in_recording tune scale.kt.cu --from part.json --budget 20 --seed 4 -q --no-cache)
ktc_tune_golden(cache_of_other_device tune scale.kt.cu --from rugged.json --budget 5 -q --cache bowl-cache.jsonl)
ktc_tune_golden(other_problem tune scale.kt.cu --from bowl.json --problem N=4096 -q --no-cache)
ktc_tune_golden(unknown_problem tune scale.kt.cu --from bowl.json --problem M=3 -q)
ktc_tune_golden(unknown_strategy tune scale.kt.cu --from bowl.json --strategy nope -q --no-cache)
ktc_tune_golden(sim_needs_from tune scale.kt.cu --backend sim -q --no-cache)
ktc_tune_golden(unknown_backend tune scale.kt.cu --backend hip -q --no-cache)
ktc_tune_golden(bad_batch tune scale.kt.cu --from bowl.json --batch 0)
ktc_tune_golden(missing_template tune nothere.kt.cu --from bowl.json)
ktc_tune_golden(help tune --help)
ktc_tune_golden(landscape_help landscape --help)
ktc_tune_golden(landscape_unknown_kind landscape --kind flat -o x.json scale.kt.cu)
ktc_tune_golden(landscape_too_big landscape --kind bowl --limit 100 -o x.json scale.kt.cu)
ktc_tune_golden(landscape_no_output landscape --kind bowl scale.kt.cu)

# Hostile uses of the output files, standard output, inputs, spaces and
# signals (hostile.sh).
foreach(case symlink_written_through fifo_refused folder_refused
        missing_folder_before_the_run output_is_the_cache
        output_is_the_recording apply_output_is_the_results
        apply_value_outside_domain stdout_full
        inputs_without_end space_too_large_to_build space_build_interrupted
        tune_interrupted_by_sigterm cache_with_repeated_records)
  add_test(NAME tune_hostile_${case}
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/hostile.sh $<TARGET_FILE:ktc> ${case})
  set_tests_properties(tune_hostile_${case} PROPERTIES LABELS tune TIMEOUT 60)
endforeach()
ktc_tune_golden(runs_out_of_range tune scale.kt.cu --from bowl.json --runs 4294967297)
ktc_tune_golden(timeout_nan tune scale.kt.cu --from bowl.json --timeout nan)

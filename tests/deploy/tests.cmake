# deploy: wisdom files (per-shape results), the runtime library (ktcrt),
# `ktc export` and the Python package (docs/deploy.md).
ktc_unit_test(test_wisdom ${CMAKE_CURRENT_LIST_DIR}/test_wisdom.c)

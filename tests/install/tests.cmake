# install: `cmake --install` into a temporary prefix, then a separate CMake
# project (find_package) and a Makefile project (pkg-config) that tune a
# template through the C API on PoCL. The sanitizer build leaves it out: its
# libktc.a needs the sanitizer runtimes, which a host does not link.
if(NOT KTC_SANITIZE)
  add_test(NAME install_find_package_and_pkg_config
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/install_check.sh
                   ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
  set_tests_properties(install_find_package_and_pkg_config PROPERTIES
                       LABELS "install;opencl" SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()

# The runtime library installed: ktc::rt from find_package in a separate
# CMake project, and pkg-config's ktcrt; they compile a shape with NVRTC.
if(TARGET ktcrt AND NOT KTC_SANITIZE)
  add_test(NAME install_rt_find_package_and_pkg_config
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/rt_check.sh
                   ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
  set_tests_properties(install_rt_find_package_and_pkg_config PROPERTIES
                       LABELS "install;deploy" TIMEOUT 300)
endif()

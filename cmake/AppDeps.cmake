# Third-party pieces of the window, built from Debian's packages only:
#  - glad: the GL 3.3 core loader, generated here at configure time, offline;
#  - ImGui's GLFW and OpenGL3 backends, compiled from the sources libimgui-dev ships;
#  - libimgui.a, libstb, libglfw.
# layoutlab_gui_deps is the one interface target the app links.

find_package(PkgConfig REQUIRED)
pkg_check_modules(GLFW3 REQUIRED IMPORTED_TARGET glfw3)

set(GLAD_DIR ${CMAKE_BINARY_DIR}/glad)
if(NOT EXISTS ${GLAD_DIR}/src/gl.c)
    # The system python: another python3 may come first on PATH without glad.
    execute_process(
        COMMAND /usr/bin/python3 -m glad --quiet --reproducible --api gl:core=3.3
                --out-path ${GLAD_DIR} c
        RESULT_VARIABLE glad_rc ERROR_VARIABLE glad_err OUTPUT_QUIET)
    if(NOT glad_rc EQUAL 0 OR NOT EXISTS ${GLAD_DIR}/src/gl.c)
        message(FATAL_ERROR "glad generation failed (is python3-glad installed?): ${glad_err}")
    endif()
endif()
add_library(glad STATIC ${GLAD_DIR}/src/gl.c)
target_include_directories(glad SYSTEM PUBLIC ${GLAD_DIR}/include)

set(IMGUI_BACKENDS /usr/share/doc/libimgui-dev/examples/backends)
add_library(imgui_backends STATIC
    ${IMGUI_BACKENDS}/imgui_impl_glfw.cpp
    ${IMGUI_BACKENDS}/imgui_impl_opengl3.cpp)
target_include_directories(imgui_backends SYSTEM PUBLIC /usr/include/imgui /usr/include/imgui/backends
                           /usr/include/stb)
target_link_libraries(imgui_backends PUBLIC imgui stb PkgConfig::GLFW3 ${CMAKE_DL_LIBS})

add_library(layoutlab_gui_deps INTERFACE)
target_link_libraries(layoutlab_gui_deps INTERFACE imgui_backends glad)

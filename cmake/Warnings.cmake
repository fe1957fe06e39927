# Strict warnings on our own targets only (never on imgui, glad or stb).
function(layoutlab_warnings target)
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                           -Wnon-virtual-dtor -Wcast-align -Wnull-dereference)
    if(LAYOUTLAB_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()

# tcpu_set_warnings(<target>): the project's warning set, errors when TCPU_WERROR is on.
function(tcpu_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                                           -Wnon-virtual-dtor -Wconversion -Wno-sign-conversion)
  if(TCPU_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

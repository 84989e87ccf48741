"""tcpu's engine for Triton's Python kernels: a kernel's definition -> tl C++ -> a compiled
kernel -> a launch, in floors by job (each imports only the floors before it):

  kernel_def.py   KernelDef: a @jit function, its options, its compiled specializations
  source.py       read a @jit function's source, parse it with positions in the user's file
  specialize.py   an argument -> its part of the specialization key (Triton's rules)
  foreign.py      a real Triton's objects -> tcpu's (real_triton.py tells them apart)
  arguments.py    a launch's arguments -> key parts and launch values; the grid
  compiled.py     CompiledKernel: a compiled specialization and how it is launched
  ops/            the builtins: each op's typing and its tl spelling, by group
  lowering/       one walk over the AST: resolve names and constexprs, type every value by
                  Triton's rules (promotion.py's tables), emit typed tl C++ (cpp.py); a file
                  per job: core, statements, loops (loop_state), names, calls, expressions
  generate.py     a specialization -> its C++ source and run-time parameters
  build/          the build route (route.py): the disk cache (cache_key.py, disk_cache.py) or
                  a compile in process
  launcher.py     the per-launch path: arguments -> key -> specialization -> launch
  fast_launch.py  its common case in a function generated per kernel, the rest to launcher.py
Errors are CompilationError: file, line, column, the source line, and what is wrong.
scripts/checks/check-python-layering.py holds the floors and fails on an import that runs back
up."""

"""tcpu's compiler for Triton's Python kernels: a pipeline of small passes.

  source.py       read a @jit function's source, parse it with positions in the user's file
  specialize.py   bound arguments -> a specialization key (Triton's rules)
  lowering/       one walk over the AST: resolve names and constexprs, type every value by
                  Triton's rules (promotion.py's tables), emit typed tl C++ (cpp.py);
                  a file per job: core, statements, loops (loop_state), names, calls,
                  expressions
  ops/            the builtins: each op's typing and its tl spelling, by group
  compiler.py     kernel + specialization -> C++ source -> compiled kernel (extension)
Errors are CompilationError: file, line, column, the source line, and what is wrong."""

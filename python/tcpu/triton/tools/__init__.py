"""``triton.tools`` on tcpu: the host-side tensor descriptor and the microscaling (MX) formats'
host tensors (mxfp)."""

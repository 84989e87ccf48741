"""``triton.tools`` on tcpu: the host-side tensor descriptor and microscaling (mxfp) data."""

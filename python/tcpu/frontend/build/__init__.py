"""Specializations built into compiled kernels: the build route (route.py: from the disk cache,
or compiled into a shared object there, or compiled in process), the disk cache's key
(cache_key.py) and its files (disk_cache.py), and independent specializations compiled at once
(parallel.py)."""

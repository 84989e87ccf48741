#!/usr/bin/env bash
# Fails when an #include crosses tcpu's layering the wrong way:
# - between the parts: runtime <- codegen <- tools, python/src (the runtime includes nothing of
#   the others, codegen nothing of tools or python; kernels/ may use the runtime's headers only);
# - inside runtime/src, codegen/src and tools/src: each file lives in a folder, and a folder
#   includes only the folders its README.md says it may use (the table below), by their path
#   from src/ ("state/runtime_state.hpp", never "runtime_state.hpp" from next door).
# - inside the Python package python/tcpu: its floors (triton.language <- frontend <- triton
#   <- the tools), and no import circles (scripts/checks/check-python-layering.py).
#   scripts/checks/check-layering.sh [source-dir]   (default: this checkout)
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
python3 "$(dirname "${BASH_SOURCE[0]}")/check-python-layering.py" "$root"
exec python3 - "$root" <<'PY'
import os
import re
import sys

root = sys.argv[1]

# Each part: the folders scanned, the include roots its headers are found under, and the parts
# it may include.
PARTS = {
    "runtime": (["runtime"], ["runtime/include", "runtime/src"], set()),
    "kernels": (["kernels"], ["kernels/include"], {"runtime"}),
    "codegen": (["codegen"], ["codegen/include", "codegen/src"], {"runtime"}),
    "tools": (["tools"], ["tools/src"], {"runtime", "codegen"}),
    "python": (["python/src"], ["python/src"], {"runtime", "codegen"}),
}

# Inside a part's src/: each folder and the folders it may include (its README.md says the same).
FOLDERS = {
    "runtime": {
        "modules": set(),
        "settings": set(),
        "memory": set(),
        "state": {"modules", "settings", "memory"},
        "launch": {"state", "settings", "memory"},
        "backend": {"state"},
        "cpu": {"backend", "state", "settings", "memory", "modules", "launch"},
        "cuda": {"backend", "state"},
        "api": {"backend", "state", "settings", "cpu", "cuda"},
    },
    "codegen": {
        "support": set(),
        "ir": {"support"},
        "target": {"support"},
        "pipeline": {"support", "ir", "target"},
        "jit": {"support", "target"},
        "cache": {"support", "pipeline"},
        "clang": {"support", "target", "cache"},
        "ptx": {"support", "ir", "target", "pipeline"},
        "loader": {"support", "target", "pipeline", "jit", "clang", "cache"},
    },
    "tools": {
        "formats": set(),
        "cli": set(),
        "xcheck": {"cli", "formats"},
        "run": {"cli", "formats", "xcheck"},
        "aot": {"cli", "formats", "run", "xcheck"},
        "inspect": {"cli", "formats", "run"},
    },
}

SOURCE = re.compile(r"\.(c|cc|cpp|h|hpp)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def part_of(path):
    for part, (dirs, _, _) in PARTS.items():
        if any(path == d or path.startswith(d + "/") for d in dirs):
            return part
    return None


def folder_of(path):
    """(part, folder) for a file under <part>/src/, folder None for one directly in src/."""
    parts = path.split("/")
    if len(parts) >= 3 and parts[0] in FOLDERS and parts[1] == "src":
        return parts[0], (parts[2] if len(parts) > 3 else None)
    return None, None


def exists(path):
    return os.path.isfile(os.path.join(root, path))


errors = []
files = 0
for part, (dirs, _, _) in PARTS.items():
    for d in dirs:
        for here, subdirs, names in os.walk(os.path.join(root, d)):
            subdirs[:] = sorted(s for s in subdirs if s != "__pycache__")
            for name in sorted(names):
                if not SOURCE.search(name):
                    continue
                path = os.path.relpath(os.path.join(here, name), root)
                files += 1
                src_part, folder = folder_of(path)
                if src_part and folder is None:
                    errors.append(f"{path}: directly in {src_part}/src; put it in a folder")
                elif src_part and folder not in FOLDERS[src_part]:
                    errors.append(f"{path}: {src_part}/src/{folder} is not in "
                                  "scripts/checks/check-layering.sh's table of folders")
                with open(os.path.join(root, path), errors="replace") as f:
                    lines = f.read().split("\n")
                for number, line in enumerate(lines, 1):
                    match = INCLUDE.match(line)
                    if not match:
                        continue
                    quoted, name_ = match.group(1) == '"', match.group(2)
                    spelled = f'"{name_}"' if quoted else f"<{name_}>"
                    where = f"{path}:{number}: #include {spelled}"
                    # Where the include can land: next to the file (quoted), then each part's roots.
                    found = []
                    if quoted:
                        beside = os.path.normpath(os.path.join(os.path.dirname(path), name_))
                        if exists(beside):
                            found.append(beside)
                    for other, (_, roots, _) in PARTS.items():
                        for r in roots:
                            if exists(os.path.join(r, name_)):
                                found.append(os.path.normpath(os.path.join(r, name_)))
                    if not found:
                        continue  # a system, third-party or generated header
                    target = found[0]
                    if part_of(target) != part:
                        # Outside this part: fine if a part it may use has it.
                        allowed = [t for t in found if part_of(t) in PARTS[part][2]]
                        if not allowed:
                            errors.append(f"{where}: {part} may not include {part_of(target)} "
                                          f"({target}); the layering is runtime <- codegen <- "
                                          "tools, python")
                        continue
                    if not src_part or folder is None:
                        continue
                    target_part, target_folder = folder_of(target)
                    if target_part != src_part:
                        continue  # a public header of its own part (<part>/include)
                    from_root = os.path.normpath(os.path.join(src_part, "src", name_))
                    if target != from_root:
                        errors.append(f"{where}: name it by its path from {src_part}/src "
                                      f"(\"{os.path.relpath(target, src_part + '/src')}\")")
                    elif target_folder != folder and target_folder not in FOLDERS[src_part].get(folder, ()):
                        errors.append(f"{where}: {src_part}/src/{folder} may not use "
                                      f"{target_folder}/ (its README.md and the table in "
                                      "scripts/checks/check-layering.sh say what it may use)")

for part, folders in FOLDERS.items():
    for folder in folders:
        if not os.path.isdir(os.path.join(root, part, "src", folder)):
            errors.append(f"{part}/src/{folder}: in the table but not in the tree")
        elif not exists(os.path.join(part, "src", folder, "README.md")):
            errors.append(f"{part}/src/{folder}: no README.md saying what it owns and may use")

if errors:
    print("\n".join(errors), file=sys.stderr)
    print(f"check-layering: {len(errors)} problem(s)", file=sys.stderr)
    sys.exit(1)
print(f"check-layering: {files} files include within the layering")
PY

// tcpuModule* and tcpuFunc* entry points.
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

#include "api/context.hpp"
#include "state/error.hpp"
#include "state/runtime_state.hpp"

using namespace tcpu;
using namespace tcpu::detail;

namespace {

Expected<std::vector<std::byte>> readFile(const std::string& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status))
    return Status(TCPU_ERROR_FILE_NOT_FOUND, concat("fname '", path, "' does not exist"));
  if (!std::filesystem::is_regular_file(status))
    return Status(TCPU_ERROR_INVALID_VALUE, concat("fname '", path, "' is not a regular file"));
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(TCPU_ERROR_FILE_NOT_FOUND, concat("fname '", path, "' cannot be opened"));
  std::vector<std::byte> bytes(std::filesystem::file_size(path, error));
  if (!bytes.empty())
    in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (error || !in)
    return Status(TCPU_ERROR_OPERATING_SYSTEM, concat("reading '", path, "' failed"));
  return bytes;
}

tcpuModule publishModule(std::string origin, std::unique_ptr<LoadedModule> image,
                         std::shared_ptr<Backend> backend) {
  auto object = std::make_shared<Module>();
  object->backend = std::move(backend);
  object->origin = std::move(origin);
  object->image = std::move(image);
  return runtime().modules.insert(std::move(object));
}

tcpuResult loadModule(const char* api, tcpuModule* module, const ModuleSource& source) {
  if (source.bytes.empty())
    return fail(TCPU_ERROR_INVALID_IMAGE, api, ": ", source.path.empty() ? "image" : source.path,
                " is empty");
  const std::string name = source.path.empty() ? std::string("image") : "'" + source.path + "'";
  const std::shared_ptr<Backend>& backend = currentBackend();
  if (Status refused = backend->checkImage(source.bytes); !refused.ok())
    return fail(refused.code(), api, ": ", name, " ", refused.message());
  auto image = backend->loadModule(source);
  if (!image) return fail(image.status().code(), api, ": ", name, ": ", image.status().message());
  *module =
      publishModule(source.path.empty() ? "<memory image>" : source.path, image.take(), backend);
  return TCPU_SUCCESS;
}

std::shared_ptr<Function> findFunction(tcpuFunction function) {
  return runtime().functions.find(function);
}

tcpuResult invalidFunction(const char* api, tcpuFunction function) {
  return fail(TCPU_ERROR_INVALID_HANDLE, api, ": function ", static_cast<const void*>(function),
              " is not a valid function handle (null, unloaded with its module, or another kind "
              "of handle)");
}

} // namespace

Expected<std::vector<JitOption>>
tcpu::collectJitOptions(unsigned int numOptions, tcpuJitOption* options, void** optionValues) {
  std::vector<JitOption> collected;
  if (numOptions == 0) return collected;
  if (!options || !optionValues)
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("numOptions=", numOptions, " but ", !options ? "options" : "optionValues",
                         " is NULL"));
  for (unsigned int i = 0; i < numOptions; ++i) {
    if (options[i] < TCPU_JIT_KERNEL_NAME || options[i] > TCPU_JIT_CHECK_BOUNDS)
      return Status(
          TCPU_ERROR_INVALID_VALUE,
          concat("options[", i, "]=", static_cast<int>(options[i]), " is not a tcpuJitOption"));
    collected.push_back({options[i], optionValues[i]});
  }
  return collected;
}

extern "C" {

tcpuResult tcpuModuleLoadEx(tcpuModule* module, const char* fname, unsigned int numOptions,
                            tcpuJitOption* options, void** optionValues) {
  return initializedApi("tcpuModuleLoad", [&] {
    if (!module) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuModuleLoad: module is NULL");
    if (!fname) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuModuleLoad: fname is NULL");
    auto collected = collectJitOptions(numOptions, options, optionValues);
    if (!collected)
      return fail(collected.status().code(), "tcpuModuleLoad: ", collected.status().message());
    auto bytes = readFile(fname);
    if (!bytes) return fail(bytes.status().code(), "tcpuModuleLoad: ", bytes.status().message());
    return loadModule("tcpuModuleLoad", module, ModuleSource{fname, *bytes, collected.take()});
  });
}

tcpuResult tcpuModuleLoad(tcpuModule* module, const char* fname) {
  return tcpuModuleLoadEx(module, fname, 0, nullptr, nullptr);
}

tcpuResult tcpuModuleLoadDataEx(tcpuModule* module, const void* image, size_t size,
                                unsigned int numOptions, tcpuJitOption* options,
                                void** optionValues) {
  return initializedApi("tcpuModuleLoadData", [&] {
    if (!module) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuModuleLoadData: module is NULL");
    if (!image) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuModuleLoadData: image is NULL");
    if (size == 0) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuModuleLoadData: size is 0");
    auto collected = collectJitOptions(numOptions, options, optionValues);
    if (!collected)
      return fail(collected.status().code(), "tcpuModuleLoadData: ", collected.status().message());
    return loadModule(
        "tcpuModuleLoadData", module,
        ModuleSource{"", {static_cast<const std::byte*>(image), size}, collected.take()});
  });
}

tcpuResult tcpuModuleLoadData(tcpuModule* module, const void* image, size_t size) {
  return tcpuModuleLoadDataEx(module, image, size, 0, nullptr, nullptr);
}

tcpuResult tcpuModuleLoadKernels(tcpuModule* module, const tcpuKernelDesc* const* kernels,
                                 unsigned int count) {
  return initializedApi("tcpuModuleLoadKernels", [&] {
    if (!module) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuModuleLoadKernels: module is NULL");
    if (!kernels) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuModuleLoadKernels: kernels is NULL");
    if (count == 0) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuModuleLoadKernels: count is 0");
    const std::shared_ptr<Backend>& backend = currentBackend();
    auto image = backend->loadLinkedKernels({kernels, count});
    if (!image)
      return fail(image.status().code(), "tcpuModuleLoadKernels: ", image.status().message());
    *module = publishModule("<linked kernels>", image.take(), backend);
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuModuleGetText(const char** text, tcpuModule module, tcpuModuleText kind) {
  return initializedApi("tcpuModuleGetText", [&] {
    if (!text) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuModuleGetText: text is NULL");
    if (kind < TCPU_MODULE_TEXT_INPUT_IR || kind > TCPU_MODULE_TEXT_ASSEMBLY)
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuModuleGetText: kind=", static_cast<int>(kind),
                  " is not a tcpuModuleText");
    std::shared_ptr<Module> object = runtime().modules.find(module);
    if (!object)
      return fail(TCPU_ERROR_INVALID_HANDLE, "tcpuModuleGetText: module ",
                  static_cast<const void*>(module), " is not a loaded module");
    std::lock_guard lock(object->mutex);
    auto cached = object->texts.find(kind);
    if (cached == object->texts.end()) {
      Expected<std::string> produced = object->image->text(kind);
      if (!produced)
        return fail(produced.status().code(), "tcpuModuleGetText: ", object->origin, ": ",
                    produced.status().message());
      cached = object->texts.emplace(kind, produced.take()).first;
    }
    *text = cached->second.c_str();
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuModuleUnload(tcpuModule module) {
  return initializedApi("tcpuModuleUnload", [&] {
    std::shared_ptr<Module> object = runtime().modules.remove(module);
    if (!object)
      return fail(TCPU_ERROR_INVALID_HANDLE, "tcpuModuleUnload: module ",
                  static_cast<const void*>(module), " is not a loaded module");
    std::lock_guard lock(object->mutex);
    object->unloaded = true;
    for (const auto& [name, function] : object->functions)
      runtime().functions.remove(function);
    object->functions.clear();
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuModuleGetFunction(tcpuFunction* function, tcpuModule module, const char* name) {
  return initializedApi("tcpuModuleGetFunction", [&] {
    if (!function) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuModuleGetFunction: function is NULL");
    if (!name) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuModuleGetFunction: name is NULL");
    std::shared_ptr<Module> object = runtime().modules.find(module);
    if (!object)
      return fail(TCPU_ERROR_INVALID_HANDLE, "tcpuModuleGetFunction: module ",
                  static_cast<const void*>(module), " is not a loaded module");
    std::lock_guard lock(object->mutex);
    if (object->unloaded)
      return fail(TCPU_ERROR_INVALID_HANDLE, "tcpuModuleGetFunction: module ",
                  static_cast<const void*>(module), " was unloaded");
    if (auto it = object->functions.find(name); it != object->functions.end()) {
      *function = it->second;
      return TCPU_SUCCESS;
    }
    const tcpuKernelDesc* desc = object->image->findKernel(name);
    if (!desc)
      return fail(TCPU_ERROR_NOT_FOUND, "tcpuModuleGetFunction: module ", object->origin,
                  " has no kernel named '", name, "'");
    if (Status valid = object->backend->checkKernel(*desc, name, *object); !valid.ok())
      return fail(valid.code(), "tcpuModuleGetFunction: ", valid.message());
    auto entry = std::make_shared<Function>(Function{object, desc, name});
    *function = object->functions[name] = runtime().functions.insert(std::move(entry));
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuFuncGetName(const char** name, tcpuFunction function) {
  return initializedApi("tcpuFuncGetName", [&] {
    if (!name) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuFuncGetName: name is NULL");
    auto object = findFunction(function);
    if (!object) return invalidFunction("tcpuFuncGetName", function);
    *name = object->desc->name ? object->desc->name : object->name.c_str();
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuFuncGetParamCount(unsigned int* count, tcpuFunction function) {
  return initializedApi("tcpuFuncGetParamCount", [&] {
    if (!count) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuFuncGetParamCount: count is NULL");
    auto object = findFunction(function);
    if (!object) return invalidFunction("tcpuFuncGetParamCount", function);
    *count = object->desc->numParams;
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuFuncGetFlags(unsigned int* flags, tcpuFunction function) {
  return initializedApi("tcpuFuncGetFlags", [&] {
    if (!flags) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuFuncGetFlags: flags is NULL");
    auto object = findFunction(function);
    if (!object) return invalidFunction("tcpuFuncGetFlags", function);
    *flags = object->flags();
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuFuncGetParamInfo(tcpuParamDesc* info, tcpuFunction function, unsigned int index) {
  return initializedApi("tcpuFuncGetParamInfo", [&] {
    if (!info) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuFuncGetParamInfo: info is NULL");
    auto object = findFunction(function);
    if (!object) return invalidFunction("tcpuFuncGetParamInfo", function);
    if (index >= object->desc->numParams)
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuFuncGetParamInfo: index=", index, " but kernel '",
                  object->name, "' has ", object->desc->numParams, " parameters");
    *info = object->desc->params[index];
    return TCPU_SUCCESS;
  });
}

const char* tcpuDataTypeName(tcpuDataType type) {
  switch (type) {
  case TCPU_TYPE_I1:
    return "i1";
  case TCPU_TYPE_I8:
    return "i8";
  case TCPU_TYPE_I16:
    return "i16";
  case TCPU_TYPE_I32:
    return "i32";
  case TCPU_TYPE_I64:
    return "i64";
  case TCPU_TYPE_U8:
    return "u8";
  case TCPU_TYPE_U16:
    return "u16";
  case TCPU_TYPE_U32:
    return "u32";
  case TCPU_TYPE_U64:
    return "u64";
  case TCPU_TYPE_FP16:
    return "fp16";
  case TCPU_TYPE_BF16:
    return "bf16";
  case TCPU_TYPE_FP32:
    return "fp32";
  case TCPU_TYPE_FP64:
    return "fp64";
  case TCPU_TYPE_PTR:
    return "ptr";
  case TCPU_TYPE_UNKNOWN:
  case TCPU_TYPE_MAX_ENUM:
    break;
  }
  return "unknown";
}

} // extern "C"

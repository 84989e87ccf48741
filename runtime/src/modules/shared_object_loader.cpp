#include "modules/shared_object_loader.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "modules/dlopen_probe.hpp"
#include "tcpu/shared_object_image.hpp"

// ELF images are checked before dlopen where the layout is the one this code knows.
#if defined(__linux__) && defined(__LP64__) && (defined(__x86_64__) || defined(__aarch64__))
#define TCPU_CHECK_ELF_IMAGES 1
#include <elf.h>
#else
#define TCPU_CHECK_ELF_IMAGES 0
#endif

namespace tcpu::detail {
namespace {

class SharedObjectModule final : public LoadedModule {
public:
  // `keptFile`: a descriptor to close after dlclose (the memory file a module was opened from,
  // kept open so that its /proc/self/fd/N name is not reused, and so not taken by dlopen for
  // this module, while it is loaded); -1 for none.
  SharedObjectModule(void* handle, int keptFile, std::string path)
      : handle_(handle), keptFile_(keptFile), path_(std::move(path)) {}
  ~SharedObjectModule() override {
    dlclose(handle_);
    if (keptFile_ < 0) return;
    // An object can outlive dlclose (DF_1_NODELETE, STB_GNU_UNIQUE symbols): then its name must
    // stay taken, or the next memory image given this descriptor number would get this object
    // from dlopen. Such a descriptor is kept for the life of the process, as the object is.
    if (void* still = dlopen(path_.c_str(), RTLD_LAZY | RTLD_NOLOAD)) {
      dlclose(still);
      return;
    }
    ::close(keptFile_);
  }
  SharedObjectModule(const SharedObjectModule&) = delete;
  SharedObjectModule& operator=(const SharedObjectModule&) = delete;

  const tcpuKernelDesc* findKernel(const std::string& name) const override {
    const std::string symbol = TCPU_KERNEL_DESC_PREFIX + name;
    return static_cast<const tcpuKernelDesc*>(dlsym(handle_, symbol.c_str()));
  }
  // dlopen offers no portable way to list symbols; kernels are found by name.
  std::vector<std::string> kernelNames() const override { return {}; }

private:
  void* handle_;
  int keptFile_;
  std::string path_;
};

// dlopen(path); `keptFile` as SharedObjectModule's, owned from here on (closed on failure too).
Expected<std::unique_ptr<LoadedModule>> openShared(const std::string& path, int keptFile = -1) {
  struct CloseOnFailure {
    int fd;
    ~CloseOnFailure() {
      if (fd >= 0) ::close(fd);
    }
  } guard{keptFile};
  if (Status probed = probeDlopen(path); !probed.ok()) return probed;
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    return Status(TCPU_ERROR_INVALID_IMAGE, concat("the shared object cannot be loaded: ",
                                                   why ? why : "unknown dlopen error"));
  }
  guard.fd = -1;
  return std::unique_ptr<LoadedModule>(new SharedObjectModule(handle, keptFile, path));
}

// Writes all of `bytes` to `fd`; false (errno set) on failure.
bool writeAll(int fd, std::span<const std::byte> bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    written += static_cast<std::size_t>(n);
  }
  return true;
}

#if defined(__linux__)
// dlopen needs a file: on Linux an anonymous memory file (memfd_create), opened through
// /proc/self/fd. Nothing touches the disk, and a noexec or unwritable $TMPDIR does not matter.
// nullopt where memfd_create is missing (ENOSYS: kernels before 3.17) or refused (a seccomp
// policy), and where /proc is not mounted: the caller falls back to a temporary file.
std::optional<Expected<std::unique_ptr<LoadedModule>>>
openSharedMemoryFile(std::span<const std::byte> bytes) {
  const int created = memfd_create("tcpu-module", MFD_CLOEXEC);
  if (created < 0) return std::nullopt;
  // Above the standard streams: with stdin, stdout or stderr closed, memfd_create can return
  // 0, 1 or 2, which the dlopen probe's child replaces with its pipe (and the process's own
  // output would go into the module).
  const int fd = created > 2 ? created : ::fcntl(created, F_DUPFD_CLOEXEC, 3);
  if (fd != created) ::close(created);
  if (fd < 0) return std::nullopt;
  const std::string path = concat("/proc/self/fd/", fd);
  if (!writeAll(fd, bytes)) {
    const int error = errno;
    ::close(fd);
    return Expected<std::unique_ptr<LoadedModule>>(
        Status(TCPU_ERROR_OPERATING_SYSTEM,
               concat("cannot write the module to a memory file: ", std::strerror(error))));
  }
  if (::access(path.c_str(), R_OK) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  // dlopen finds an already loaded object by its name before anything else: the descriptor
  // stays open while the module is loaded, so that no other module gets the same name.
  return openShared(path, fd);
}
#endif

// Elsewhere (or as a fallback): a private temporary file, opened, its name removed at once
// (the mapping stays valid).
Expected<std::unique_ptr<LoadedModule>> openSharedImage(std::span<const std::byte> bytes) {
#if defined(__linux__)
  if (auto inMemory = openSharedMemoryFile(bytes)) return std::move(*inMemory);
#endif
  std::error_code ignored;
  std::filesystem::path directory = std::filesystem::temp_directory_path(ignored);
  if (directory.empty()) directory = "/tmp";
  std::string name = (directory / "tcpu-module-XXXXXX").string();
  const int fd = mkstemp(name.data());
  if (fd < 0)
    return Status(TCPU_ERROR_OPERATING_SYSTEM, concat("cannot create a temporary file in ",
                                                      directory, ": ", std::strerror(errno)));
  if (!writeAll(fd, bytes)) {
    const int error = errno;
    ::close(fd);
    ::unlink(name.c_str());
    return Status(TCPU_ERROR_OPERATING_SYSTEM,
                  concat("cannot write temporary file ", name, ": ", std::strerror(error)));
  }
  ::close(fd);
  auto module = openShared(name);
  ::unlink(name.c_str());
  return module;
}

#if TCPU_CHECK_ELF_IMAGES
// dlopen trusts the file: the dynamic loader follows the offsets, addresses and table sizes in
// it without bounds checks, so a damaged image crashes the process inside ld.so instead of
// failing (found by tests/fuzz/fuzz_module). So before dlopen, everything ld.so reads or
// writes while mapping, relocating and looking up symbols is checked against the image: the
// headers, the segments, the dynamic section and the tables it names (strings, symbols, hash
// tables, versions, relocations, notes), and the fields glibc asserts on or divides by.
// An image that passes is still code: its initializers and IFUNC resolvers run at load. Their
// addresses are checked to be in executable segments; what they do is the module's business.
class ElfImageChecker {
public:
  explicit ElfImageChecker(std::span<const std::byte> file) : file_(file) {}

  Status check() {
    for (Status (ElfImageChecker::*step)() :
         {&ElfImageChecker::checkHeader, &ElfImageChecker::checkSegments,
          &ElfImageChecker::readDynamic, &ElfImageChecker::checkStrings,
          &ElfImageChecker::checkHashTables, &ElfImageChecker::checkRelocations,
          &ElfImageChecker::checkSymbols, &ElfImageChecker::checkVersions,
          &ElfImageChecker::checkInitializers})
      if (Status status = (this->*step)(); !status.ok()) return status;
    return {};
  }

private:
#if defined(__x86_64__)
  static constexpr uint16_t kMachine = EM_X86_64;
  static constexpr uint32_t kRelative = R_X86_64_RELATIVE, kIrelative = R_X86_64_IRELATIVE,
                            kTlsDescriptor = R_X86_64_TLSDESC;
  static bool knownRelocation(uint32_t type) {
    switch (type) {
    case R_X86_64_NONE:
    case R_X86_64_64:
    case R_X86_64_GLOB_DAT:
    case R_X86_64_JUMP_SLOT:
    case R_X86_64_RELATIVE:
    case R_X86_64_DTPMOD64:
    case R_X86_64_DTPOFF64:
    case R_X86_64_TPOFF64:
    case R_X86_64_TLSDESC:
    case R_X86_64_IRELATIVE:
      return true;
    default:
      return false;
    }
  }
#else
  static constexpr uint16_t kMachine = EM_AARCH64;
  static constexpr uint32_t kRelative = R_AARCH64_RELATIVE, kIrelative = R_AARCH64_IRELATIVE,
                            kTlsDescriptor = R_AARCH64_TLSDESC;
  static bool knownRelocation(uint32_t type) {
    switch (type) {
    case R_AARCH64_NONE:
    case R_AARCH64_ABS64:
    case R_AARCH64_GLOB_DAT:
    case R_AARCH64_JUMP_SLOT:
    case R_AARCH64_RELATIVE:
    case R_AARCH64_TLS_DTPMOD:
    case R_AARCH64_TLS_DTPREL:
    case R_AARCH64_TLS_TPREL:
    case R_AARCH64_TLSDESC:
    case R_AARCH64_IRELATIVE:
      return true;
    default:
      return false;
    }
  }
#endif
  static constexpr int64_t kRelrSize = 35, kRelr = 36, kRelrEntry = 37; // DT_RELR*, glibc 2.36+

  template <class... Parts>
  static Status bad(const Parts&... parts) {
    return Status(TCPU_ERROR_INVALID_IMAGE,
                  concat("the shared object cannot be loaded: ", parts...));
  }
  static std::string hex(uint64_t value) { return concat("0x", std::hex, value); }

  // [offset, offset + size) lies in the file.
  bool inFile(uint64_t offset, uint64_t size) const {
    return offset <= file_.size() && size <= file_.size() - offset;
  }
  template <class T>
  T fileAt(uint64_t offset) const { // offset checked by the caller
    T value;
    std::memcpy(&value, file_.data() + offset, sizeof value);
    return value;
  }

  // The file offset of [address, address + size) of the loaded image, when that range is file
  // contents of one PT_LOAD segment (and so what ld.so will find there).
  std::optional<uint64_t> fileOffset(uint64_t address, uint64_t size) const {
    for (const Elf64_Phdr& load : loads_)
      if (address >= load.p_vaddr && address - load.p_vaddr <= load.p_filesz &&
          size <= load.p_filesz - (address - load.p_vaddr))
        return load.p_offset + (address - load.p_vaddr);
    return std::nullopt;
  }
  template <class T>
  std::optional<T> loaded(uint64_t address) const {
    const std::optional<uint64_t> offset = fileOffset(address, sizeof(T));
    if (!offset) return std::nullopt;
    return fileAt<T>(*offset);
  }
  // [address, address + size) lies in the memory of one segment with all of `flags`
  // (size 0: the address may be one past the end, as _end is).
  bool inSegment(uint64_t address, uint64_t size, uint32_t flags = 0) const {
    for (const Elf64_Phdr& load : loads_)
      if ((load.p_flags & flags) == flags && address >= load.p_vaddr &&
          address - load.p_vaddr <= load.p_memsz && size <= load.p_memsz - (address - load.p_vaddr))
        return true;
    return false;
  }
  bool has(int64_t tag) const { return dynamic_.contains(tag); }
  uint64_t value(int64_t tag) const { return dynamic_.at(tag); }

  Status checkHeader() {
    if (!inFile(0, sizeof(Elf64_Ehdr))) return bad("the file is shorter than an ELF header");
    header_ = fileAt<Elf64_Ehdr>(0);
    const unsigned char* ident = header_.e_ident;
    if (ident[EI_CLASS] != ELFCLASS64 || ident[EI_DATA] != ELFDATA2LSB ||
        ident[EI_VERSION] != EV_CURRENT)
      return bad("not a 64-bit little-endian ELF file of version 1");
    if (header_.e_type != ET_DYN)
      return bad("ELF type ", header_.e_type, " is not a shared object (", ET_DYN, ")");
    if (header_.e_machine != kMachine)
      return bad("built for machine ", header_.e_machine, ", not this one (", kMachine, ")");
    if (header_.e_phentsize != sizeof(Elf64_Phdr) || header_.e_phnum == 0 ||
        header_.e_phnum == PN_XNUM ||
        !inFile(header_.e_phoff, uint64_t{header_.e_phnum} * sizeof(Elf64_Phdr)))
      return bad("the program headers (", header_.e_phnum, " of ", header_.e_phentsize,
                 " bytes at ", hex(header_.e_phoff), ") are not in the file");
    for (uint16_t i = 0; i < header_.e_phnum; ++i)
      segments_.push_back(fileAt<Elf64_Phdr>(header_.e_phoff + i * sizeof(Elf64_Phdr)));
    return {};
  }

  Status checkSegments() {
    const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    for (const Elf64_Phdr& segment : segments_) {
      if (segment.p_type != PT_LOAD) continue;
      if (segment.p_filesz > segment.p_memsz || !inFile(segment.p_offset, segment.p_filesz) ||
          segment.p_vaddr > UINT64_MAX - page ||
          segment.p_memsz > UINT64_MAX - page - segment.p_vaddr ||
          (segment.p_vaddr - segment.p_offset) % page != 0)
        return bad("PT_LOAD at ", hex(segment.p_vaddr), " (", hex(segment.p_memsz), " bytes, ",
                   hex(segment.p_filesz), " from file offset ", hex(segment.p_offset),
                   ") does not fit the file or the page size");
      // Ascending and on pages of their own, as ld.so maps them.
      if (!loads_.empty() && segment.p_vaddr / page <
                                 (loads_.back().p_vaddr + loads_.back().p_memsz + page - 1) / page)
        return bad("PT_LOAD segments overlap or are not in ascending order");
      loads_.push_back(segment);
    }
    if (loads_.empty()) return bad("no PT_LOAD segment");
    int dynamics = 0;
    for (const Elf64_Phdr& segment : segments_) {
      const auto mapped = [&](uint64_t size) { return fileOffset(segment.p_vaddr, size); };
      switch (segment.p_type) {
      case PT_DYNAMIC:
        ++dynamics;
        dynamicSegment_ = segment;
        if (!mapped(segment.p_filesz)) return bad("PT_DYNAMIC is not in a loaded segment");
        break;
      case PT_PHDR: {
        // ld.so's copy of the program headers (dl_iterate_phdr's): the file's own.
        const uint64_t size = uint64_t{header_.e_phnum} * sizeof(Elf64_Phdr);
        const std::optional<uint64_t> offset = mapped(size);
        if (!offset ||
            std::memcmp(file_.data() + *offset, file_.data() + header_.e_phoff, size) != 0)
          return bad("PT_PHDR does not map the program headers");
        break;
      }
      case PT_TLS:
        tls_ = segment;
        if (segment.p_filesz > segment.p_memsz || !mapped(segment.p_filesz) ||
            (segment.p_align & (segment.p_align - 1)) != 0 || segment.p_memsz > (1u << 30))
          return bad("PT_TLS is not in a loaded segment or has a bad size or alignment");
        break;
      case PT_GNU_RELRO:
        if (!inSegment(segment.p_vaddr, segment.p_memsz)) return bad("PT_GNU_RELRO is not loaded");
        break;
      case PT_NOTE:
      case PT_GNU_PROPERTY:
        if (Status status = checkNotes(segment); !status.ok()) return status;
        break;
      default:
        break;
      }
    }
    if (dynamics != 1) return bad(dynamics, " PT_DYNAMIC segments (expected 1)");
    return {};
  }

  // ld.so reads GNU property notes trusting each note's sizes.
  Status checkNotes(const Elf64_Phdr& segment) {
    const std::optional<uint64_t> begin = fileOffset(segment.p_vaddr, segment.p_memsz);
    if (!begin) return bad("a note segment is not in a loaded segment");
    const uint64_t align = segment.p_align == 8 ? 8 : 4;
    const auto up = [&](uint64_t n) { return (n + align - 1) / align * align; };
    for (uint64_t at = 0; at < segment.p_memsz;) {
      if (segment.p_memsz - at < sizeof(Elf64_Nhdr)) return bad("a truncated note");
      const auto note = fileAt<Elf64_Nhdr>(*begin + at);
      const uint64_t descriptor = at + up(sizeof(Elf64_Nhdr) + note.n_namesz);
      if (descriptor > segment.p_memsz || note.n_descsz > segment.p_memsz - descriptor)
        return bad("a note runs past its segment");
      at = descriptor + up(note.n_descsz);
    }
    return {};
  }

  Status readDynamic() {
    const uint64_t count = dynamicSegment_.p_filesz / sizeof(Elf64_Dyn);
    for (uint64_t i = 0; i < count; ++i) {
      const auto entry = *loaded<Elf64_Dyn>(dynamicSegment_.p_vaddr + i * sizeof(Elf64_Dyn));
      if (entry.d_tag == DT_NULL) return {};
      if (entry.d_tag == DT_NEEDED) needed_.push_back(entry.d_un.d_val);
      dynamic_[entry.d_tag] = entry.d_un.d_val; // the last one counts, as in ld.so
    }
    return bad("the dynamic section has no DT_NULL end");
  }

  Status checkStrings() {
    if (has(DT_TEXTREL) || (has(DT_FLAGS) && (value(DT_FLAGS) & DF_TEXTREL) != 0))
      return bad("text relocations are not supported");
    if (!has(DT_STRTAB) || !has(DT_STRSZ) || !has(DT_SYMTAB))
      return bad("DT_STRTAB, DT_STRSZ or DT_SYMTAB is missing");
    if (has(DT_SYMENT) && value(DT_SYMENT) != sizeof(Elf64_Sym)) return bad("bad DT_SYMENT");
    stringsSize_ = value(DT_STRSZ);
    const std::optional<uint64_t> strings = fileOffset(value(DT_STRTAB), stringsSize_);
    // A final NUL ends every string that starts inside the table.
    if (!strings || stringsSize_ == 0 || file_[*strings + stringsSize_ - 1] != std::byte{0})
      return bad("the string table is not loaded or not NUL-terminated");
    strings_ = *strings;
    for (uint64_t name : needed_)
      if (name >= stringsSize_) return bad("a DT_NEEDED name is outside the string table");
    for (int64_t tag : {DT_SONAME, DT_RPATH, DT_RUNPATH, DT_AUXILIARY, DT_FILTER})
      if (has(tag) && value(tag) >= stringsSize_)
        return bad("dynamic tag ", tag, " names a string outside the string table");
    return {};
  }
  std::string_view string(uint64_t offset) const { // offset < stringsSize_
    return reinterpret_cast<const char*>(file_.data() + strings_ + offset);
  }

  Status checkHashTables() {
    if (!has(DT_HASH) && !has(DT_GNU_HASH)) return bad("no symbol hash table");
    if (has(DT_HASH)) {
      const uint64_t table = value(DT_HASH);
      const auto counts = loaded<std::array<uint32_t, 2>>(table);
      if (!counts || (*counts)[0] == 0) return bad("DT_HASH is not loaded or has no buckets");
      const uint64_t buckets = (*counts)[0], chains = (*counts)[1];
      const std::optional<uint64_t> words = fileOffset(table, 4 * (2 + buckets + chains));
      if (!words) return bad("DT_HASH runs past its segment");
      // Every bucket and chain link names a symbol, and no chain loops (ld.so would spin).
      std::vector<uint8_t> state(chains, 0); // 0 unseen, 1 on the current walk, 2 ends well
      for (uint64_t b = 0; b < buckets; ++b) {
        std::vector<uint32_t> walk;
        for (uint32_t symbol = fileAt<uint32_t>(*words + 4 * (2 + b)); symbol != 0;
             symbol = fileAt<uint32_t>(*words + 4 * (2 + buckets + symbol))) {
          if (symbol >= chains) return bad("a DT_HASH link names symbol ", symbol, " of ", chains);
          if (state[symbol] == 2) break;
          if (state[symbol] == 1) return bad("a DT_HASH chain loops");
          state[symbol] = 1;
          walk.push_back(symbol);
        }
        for (uint32_t symbol : walk)
          state[symbol] = 2;
      }
      symbolCount_ = chains;
    }
    if (has(DT_GNU_HASH)) {
      const uint64_t table = value(DT_GNU_HASH);
      const auto header = loaded<std::array<uint32_t, 4>>(table);
      if (!header) return bad("DT_GNU_HASH is not loaded");
      const auto [buckets, offset, bloomWords, shift] = *header;
      const uint64_t bucketsAt = table + 16 + 8 * uint64_t{bloomWords};
      const std::optional<uint64_t> bucketWords = fileOffset(bucketsAt, 4 * uint64_t{buckets});
      if (buckets == 0 || bloomWords == 0 || shift >= 64 || !bucketWords)
        return bad("DT_GNU_HASH has a bad header or runs past its segment");
      // A bucket starts a chain of symbols that ends at the first odd hash value.
      uint64_t first = UINT64_MAX, last = 0;
      for (uint64_t b = 0; b < buckets; ++b) {
        const uint32_t symbol = fileAt<uint32_t>(*bucketWords + 4 * b);
        if (symbol == 0) continue;
        if (symbol < offset) return bad("a DT_GNU_HASH bucket names an unhashed symbol");
        first = std::min<uint64_t>(first, symbol);
        last = std::max<uint64_t>(last, symbol);
      }
      uint64_t count = offset;
      if (first != UINT64_MAX) {
        const uint64_t chainsAt = bucketsAt + 4 * uint64_t{buckets};
        for (uint64_t symbol = first;; ++symbol) {
          const std::optional<uint32_t> hash = loaded<uint32_t>(chainsAt + 4 * (symbol - offset));
          if (!hash) return bad("a DT_GNU_HASH chain runs past its segment");
          if (symbol >= last && (*hash & 1) != 0) {
            count = symbol + 1;
            break;
          }
        }
      }
      symbolCount_ = std::max(symbolCount_, count);
    }
    symbolCount_ = std::max<uint64_t>(symbolCount_, 1); // symbol 0, the undefined one
    return {};
  }

  Status checkSymbols() {
    const std::optional<uint64_t> symbols =
        fileOffset(value(DT_SYMTAB), symbolCount_ * sizeof(Elf64_Sym));
    if (!symbols) return bad("the symbol table (", symbolCount_, " symbols) is not loaded");
    symbols_ = *symbols;
    for (uint64_t i = 0; i < symbolCount_; ++i) {
      const auto symbol = fileAt<Elf64_Sym>(symbols_ + i * sizeof(Elf64_Sym));
      if (symbol.st_name >= stringsSize_) return bad("symbol ", i, " has its name outside");
      if (symbol.st_shndx == SHN_UNDEF || symbol.st_shndx == SHN_ABS) continue;
      const unsigned type = ELF64_ST_TYPE(symbol.st_info);
      const bool fits = type == STT_TLS ? tls_ && symbol.st_value <= tls_->p_memsz &&
                                              symbol.st_size <= tls_->p_memsz - symbol.st_value
                        : type == STT_GNU_IFUNC
                            ? inSegment(symbol.st_value, 1, PF_X) // its resolver runs
                            : inSegment(symbol.st_value, symbol.st_size);
      if (!fits) return bad("symbol '", string(symbol.st_name), "' is outside the image");
    }
    return {};
  }

  // Version tables: ld.so walks them by their own offsets and indexes its version array with
  // the numbers in them.
  Status checkVersions() {
    uint64_t highest = 0;
    if (has(DT_VERNEED)) {
      for (uint64_t at = value(DT_VERNEED);;) {
        const std::optional<Elf64_Verneed> need = loaded<Elf64_Verneed>(at);
        if (!need || need->vn_version != 1 || need->vn_file >= stringsSize_)
          return bad("a bad version dependency (DT_VERNEED)");
        // glibc asserts that the file is a dependency.
        if (std::none_of(needed_.begin(), needed_.end(),
                         [&](uint64_t name) { return string(name) == string(need->vn_file); }))
          return bad("version dependency on '", string(need->vn_file), "', not a DT_NEEDED");
        for (uint64_t auxAt = at + need->vn_aux;;) {
          const std::optional<Elf64_Vernaux> aux = loaded<Elf64_Vernaux>(auxAt);
          if (!aux || aux->vna_name >= stringsSize_) return bad("a bad DT_VERNEED entry");
          highest = std::max<uint64_t>(highest, aux->vna_other & 0x7fff);
          if (aux->vna_next == 0) break;
          auxAt += aux->vna_next;
        }
        if (need->vn_next == 0) break;
        at += need->vn_next;
      }
    }
    if (has(DT_VERDEF)) {
      for (uint64_t at = value(DT_VERDEF);;) {
        const std::optional<Elf64_Verdef> definition = loaded<Elf64_Verdef>(at);
        if (!definition || definition->vd_version != 1)
          return bad("a bad version definition (DT_VERDEF)");
        highest = std::max<uint64_t>(highest, definition->vd_ndx & 0x7fff);
        for (uint64_t auxAt = at + definition->vd_aux;;) {
          const std::optional<Elf64_Verdaux> aux = loaded<Elf64_Verdaux>(auxAt);
          if (!aux || aux->vda_name >= stringsSize_) return bad("a bad DT_VERDEF entry");
          if (aux->vda_next == 0) break;
          auxAt += aux->vda_next;
        }
        if (definition->vd_next == 0) break;
        at += definition->vd_next;
      }
    }
    if (has(DT_VERSYM)) {
      const std::optional<uint64_t> versions = fileOffset(value(DT_VERSYM), 2 * symbolCount_);
      if (!versions || highest == 0) return bad("DT_VERSYM is not loaded or has no versions");
      for (uint64_t i = 0; i < symbolCount_; ++i)
        if ((fileAt<uint16_t>(*versions + 2 * i) & 0x7fff) > highest)
          return bad("symbol ", i, " has version index beyond the ", highest, " defined");
    }
    return {};
  }

  // Relocations as glibc applies them under RTLD_NOW: DT_RELR, then DT_RELA and DT_JMPREL
  // (merged where one ends where the other starts, DT_RELACOUNT leading entries taken as
  // relative whatever their type). Each writes inside a writable segment.
  Status checkRelocations() {
    if (has(DT_REL) || has(DT_RELSZ) || (has(DT_PLTREL) && value(DT_PLTREL) != DT_RELA))
      return bad("REL relocations on a machine that uses RELA");
    if (has(DT_RELA) &&
        (!has(DT_RELASZ) || !has(DT_RELAENT) || value(DT_RELAENT) != sizeof(Elf64_Rela)))
      return bad("DT_RELA without DT_RELASZ or a DT_RELAENT of ", sizeof(Elf64_Rela));
    if (has(DT_PLTREL) && (!has(DT_JMPREL) || !has(DT_PLTRELSZ)))
      return bad("DT_PLTREL without DT_JMPREL and DT_PLTRELSZ");
    if (has(DT_JMPREL) && has(DT_PLTREL) &&
        !inSegment(has(DT_PLTGOT) ? value(DT_PLTGOT) : 0, 24, PF_W))
      return bad("DT_PLTGOT is missing or not writable");
    struct Range {
      uint64_t start = 0, size = 0;
    };
    std::vector<Range> ranges;
    Range main;
    if (has(DT_RELA)) main = {value(DT_RELA), value(DT_RELASZ)};
    if (has(DT_PLTREL)) {
      const Range plt{value(DT_JMPREL), value(DT_PLTRELSZ)};
      if (main.start + main.size == plt.start + plt.size) {
        if (plt.size > main.size) return bad("DT_JMPREL and DT_RELA overlap");
        main.size -= plt.size;
      }
      if (main.start + main.size == plt.start)
        main.size += plt.size;
      else
        ranges.push_back(plt);
    }
    ranges.insert(ranges.begin(), main);
    // The first DT_RELACOUNT entries are applied as relative (glibc asserts their type).
    uint64_t relativeCount = has(DT_RELACOUNT) ? value(DT_RELACOUNT) : 0;
    for (const Range& range : ranges) {
      if (range.size == 0) continue;
      const std::optional<uint64_t> entries = fileOffset(range.start, range.size);
      if (!entries || range.size % sizeof(Elf64_Rela) != 0)
        return bad("a relocation table is not loaded or has a partial entry");
      for (uint64_t at = *entries; at < *entries + range.size; at += sizeof(Elf64_Rela)) {
        const auto rela = fileAt<Elf64_Rela>(at);
        const uint32_t type = ELF64_R_TYPE(rela.r_info);
        const uint64_t symbol = ELF64_R_SYM(rela.r_info);
        if (!knownRelocation(type)) return bad("relocation type ", type, " is not supported");
        if (&range == &ranges.front() && relativeCount > 0) {
          --relativeCount;
          if (type != kRelative) return bad("DT_RELACOUNT counts a relocation of type ", type);
        }
        if (!inSegment(rela.r_offset, type == kTlsDescriptor ? 16 : 8, PF_W))
          return bad("a relocation writes to ", hex(rela.r_offset), ", outside writable memory");
        // The hash tables cover the defined symbols; relocations name undefined ones too.
        if (symbol >= UINT32_MAX) return bad("a relocation names symbol ", symbol);
        symbolCount_ = std::max(symbolCount_, symbol + 1);
        if (type == kIrelative && !inSegment(static_cast<uint64_t>(rela.r_addend), 1, PF_X))
          return bad("an IFUNC resolver at ", hex(static_cast<uint64_t>(rela.r_addend)),
                     " is not in an executable segment");
        writes_.push_back({rela.r_offset, type, symbol, static_cast<uint64_t>(rela.r_addend)});
      }
    }
    if (has(kRelr)) {
      if (!has(kRelrSize) || !has(kRelrEntry) || value(kRelrEntry) != 8)
        return bad("DT_RELR without DT_RELRSZ or a DT_RELRENT of 8");
      const std::optional<uint64_t> entries = fileOffset(value(kRelr), value(kRelrSize));
      if (!entries || value(kRelrSize) % 8 != 0) return bad("DT_RELR is not loaded");
      uint64_t base = 0;
      for (uint64_t at = *entries; at < *entries + value(kRelrSize); at += 8) {
        const uint64_t entry = fileAt<uint64_t>(at);
        std::vector<uint64_t> targets;
        if ((entry & 1) == 0) {
          targets.push_back(entry);
          base = entry + 8;
        } else {
          for (unsigned bit = 1; bit < 64; ++bit)
            if ((entry >> bit) & 1) targets.push_back(base + (bit - 1) * 8);
          base += 63 * 8;
        }
        for (uint64_t target : targets) {
          if (!inSegment(target, 8, PF_W))
            return bad("a DT_RELR relocation writes outside writable memory");
          writes_.push_back({target, kRelative, 0, 0, true});
        }
      }
    }
    return {};
  }

  // DT_INIT, DT_FINI and the pointers in DT_INIT_ARRAY and DT_FINI_ARRAY are called at load and
  // unload: each must end up pointing into an executable segment (or at another library's
  // function, through a symbol).
  Status checkInitializers() {
    for (int64_t tag : {DT_INIT, DT_FINI})
      if (has(tag) && !inSegment(value(tag), 1, PF_X))
        return bad(tag == DT_INIT ? "DT_INIT" : "DT_FINI", " is not in an executable segment");
    if (!has(DT_INIT_ARRAY) && !has(DT_FINI_ARRAY)) return {};
    std::map<uint64_t, std::vector<const Write*>> writesTo;
    for (const Write& write : writes_)
      writesTo[write.address].push_back(&write);
    for (const auto& [array, size] :
         {std::pair{DT_INIT_ARRAY, DT_INIT_ARRAYSZ}, {DT_FINI_ARRAY, DT_FINI_ARRAYSZ}}) {
      if (!has(array)) continue;
      if (!has(size) || value(size) % 8 != 0 || !fileOffset(value(array), value(size)))
        return bad("an initializer or finalizer array is not loaded or has no size");
      for (uint64_t slot = value(array); slot < value(array) + value(size); slot += 8) {
        const auto found = writesTo.find(slot);
        if (found == writesTo.end() || found->second.size() != 1)
          return bad("initializer or finalizer slot ", hex(slot), " is not relocated once");
        const Write& write = *found->second.front();
        uint64_t target = write.addend;
        if (write.fromFile) target = *loaded<uint64_t>(slot);
        if (write.type != kRelative && write.type != kIrelative) {
          const auto symbol = fileAt<Elf64_Sym>(symbols_ + write.symbol * sizeof(Elf64_Sym));
          if (write.symbol == 0 || symbol.st_shndx == SHN_UNDEF) continue; // another library's
          target = symbol.st_value + write.addend;
        }
        if (!inSegment(target, 1, PF_X))
          return bad("initializer or finalizer ", hex(target), " is not in an executable segment");
      }
    }
    return {};
  }

  struct Write {
    uint64_t address;
    uint32_t type;
    uint64_t symbol;
    uint64_t addend;
    bool fromFile = false; // DT_RELR: the addend is what the file holds there
  };

  std::span<const std::byte> file_;
  Elf64_Ehdr header_{};
  std::vector<Elf64_Phdr> segments_;
  std::vector<Elf64_Phdr> loads_;
  Elf64_Phdr dynamicSegment_{};
  std::optional<Elf64_Phdr> tls_;
  std::map<int64_t, uint64_t> dynamic_;
  std::vector<uint64_t> needed_;
  uint64_t strings_ = 0, stringsSize_ = 0;
  uint64_t symbols_ = 0, symbolCount_ = 0;
  std::vector<Write> writes_;
};
#endif

bool hasMagic(std::span<const std::byte> bytes, std::initializer_list<uint8_t> magic) {
  if (bytes.size() < magic.size()) return false;
  std::size_t i = 0;
  for (uint8_t expected : magic)
    if (static_cast<uint8_t>(bytes[i++]) != expected) return false;
  return true;
}

} // namespace

} // namespace tcpu::detail

namespace tcpu {

Status checkSharedObjectImage(std::span<const std::byte> bytes) {
#if TCPU_CHECK_ELF_IMAGES
  if (!detail::hasMagic(bytes, {0x7f, 'E', 'L', 'F'}))
    return Status(TCPU_ERROR_INVALID_IMAGE, "not an ELF file (no ELF magic)");
  return detail::ElfImageChecker(bytes).check();
#else
  (void)bytes;
  return {};
#endif
}

} // namespace tcpu

namespace tcpu::detail {

bool SharedObjectLoader::accepts(const ModuleSource& source) const {
  const auto& b = source.bytes;
  return hasMagic(b, {0x7f, 'E', 'L', 'F'}) ||    // ELF
         hasMagic(b, {0xcf, 0xfa, 0xed, 0xfe}) || // Mach-O 64-bit, little endian
         hasMagic(b, {0xca, 0xfe, 0xba, 0xbe});   // Mach-O universal
}

Expected<std::unique_ptr<LoadedModule>> SharedObjectLoader::load(const ModuleSource& source) const {
  if (!source.options.empty())
    return Status(TCPU_ERROR_INVALID_VALUE,
                  concat("a precompiled shared object takes no JIT options (got ",
                         source.options.size(), ")"));
#if TCPU_CHECK_ELF_IMAGES
  if (hasMagic(source.bytes, {0x7f, 'E', 'L', 'F'}))
    if (Status status = ElfImageChecker(source.bytes).check(); !status.ok()) return status;
#endif
  // Always from a private copy of the bytes already read: dlopen of the same
  // path twice would return the first (possibly since replaced) library, and
  // modules would share their static data; CUDA's modules are independent.
  return openSharedImage(source.bytes);
}

} // namespace tcpu::detail

// Copies of read-only blocks that the programs of one launch share: tl's dot packs each block of
// B it reads once per launch into a buffer from here, instead of once per program that reads it.
// A launch has a table only when codegen found that its kernel may share them
// (TCPU_KERNEL_SHARES_READS, kernel_abi.h); the buffers are freed when the launch ends.
#ifndef TCPU_SRC_SHARED_COPIES_HPP
#define TCPU_SRC_SHARED_COPIES_HPP

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace tcpu::detail {

class SharedCopies {
public:
  // What one launch may hold in copies; past it, programs copy for themselves.
  static constexpr uint64_t kCapacityBytes = uint64_t{256} << 20;

  // The copy of `rows` rows of `rowBytes` bytes, the first at `source` and each `rowStride`
  // bytes after the one before: *fill is 1 where the caller must write the rows into it (and
  // then call filled()), 0 where another program has. Null where another program is filling it
  // now, or the launch's copies would pass kCapacityBytes.
  void* find(const void* source, int64_t rowStride, uint32_t rows, uint32_t rowBytes,
             uint32_t* fill);
  // The copy that find() asked this caller to fill holds its rows.
  static void filled(void* copy);

private:
  struct Key {
    const void* source;
    int64_t rowStride;
    uint32_t rows, rowBytes;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const;
  };
  struct FreeDeleter {
    void operator()(void* p) const;
  };
  using Buffer = std::unique_ptr<unsigned char, FreeDeleter>;

  std::mutex mutex_;
  std::unordered_map<Key, Buffer, KeyHash> copies_;
  uint64_t bytes_ = 0;
};

} // namespace tcpu::detail

#endif // TCPU_SRC_SHARED_COPIES_HPP

// Opaque handles for runtime objects. A handle is an id, never a pointer the
// runtime dereferences, so null, destroyed, and foreign handles (a module
// passed as a function) are detected instead of being undefined behaviour.
// Ids are never reused.
#ifndef TCPU_SRC_HANDLE_TABLE_HPP
#define TCPU_SRC_HANDLE_TABLE_HPP

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

namespace tcpu::detail {

// One id space for all tables, so that a handle of one kind is never valid as another.
uint64_t nextHandleId();

template <class Object, class Handle>
class HandleTable {
public:
  Handle insert(std::shared_ptr<Object> object) {
    const uint64_t id = nextHandleId();
    std::unique_lock lock(mutex_);
    objects_.emplace(id, std::move(object));
    return toHandle(id);
  }

  // The object, or nullptr for a null, removed or foreign handle.
  std::shared_ptr<Object> find(Handle handle) const {
    std::shared_lock lock(mutex_);
    auto it = objects_.find(toId(handle));
    return it == objects_.end() ? nullptr : it->second;
  }

  // Removes and returns the object (nullptr if the handle is not valid).
  std::shared_ptr<Object> remove(Handle handle) {
    std::unique_lock lock(mutex_);
    auto it = objects_.find(toId(handle));
    if (it == objects_.end()) return nullptr;
    std::shared_ptr<Object> object = std::move(it->second);
    objects_.erase(it);
    return object;
  }

  std::vector<std::shared_ptr<Object>> snapshot() const {
    std::shared_lock lock(mutex_);
    std::vector<std::shared_ptr<Object>> all;
    all.reserve(objects_.size());
    for (const auto& [id, object] : objects_)
      all.push_back(object);
    return all;
  }

  // The handles of the objects `matches` accepts.
  template <class Predicate>
  std::vector<Handle> handlesWhere(Predicate matches) const {
    std::shared_lock lock(mutex_);
    std::vector<Handle> handles;
    for (const auto& [id, object] : objects_)
      if (matches(*object)) handles.push_back(toHandle(id));
    return handles;
  }

private:
  static Handle toHandle(uint64_t id) {
    return reinterpret_cast<Handle>(static_cast<uintptr_t>(id));
  }
  static uint64_t toId(Handle handle) { return reinterpret_cast<uintptr_t>(handle); }

  mutable std::shared_mutex mutex_;
  std::unordered_map<uint64_t, std::shared_ptr<Object>> objects_;
};

} // namespace tcpu::detail

#endif // TCPU_SRC_HANDLE_TABLE_HPP

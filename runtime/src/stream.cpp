#include "stream.hpp"

namespace tcpu::detail {
namespace {
thread_local const Stream* currentStream = nullptr;
} // namespace

Stream::Stream(unsigned int flags, std::atomic<int64_t>& blockingWork)
    : blocking_((flags & TCPU_STREAM_NON_BLOCKING) == 0), blockingWork_(blockingWork),
      worker_([this] { workerLoop(); }) {}

Stream::~Stream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  workReady_.notify_one();
  worker_.join();
}

const Stream* Stream::current() {
  return currentStream;
}

void Stream::enqueue(Work work) {
  if (blocking_) blockingWork_.fetch_add(1, std::memory_order_acq_rel);
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(work));
  }
  workReady_.notify_one();
}

void Stream::workerLoop() {
  currentStream = this;
  std::unique_lock lock(mutex_);
  for (;;) {
    workReady_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return; // stopping, and all work done
    Work work = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    Status status = work();
    work = nullptr; // release what the work held (functions, events) outside the lock
    lock.lock();
    if (!status.ok() && firstError_.ok()) firstError_ = std::move(status);
    busy_ = false;
    if (blocking_) blockingWork_.fetch_sub(1, std::memory_order_acq_rel);
    if (queue_.empty()) drained_.notify_all();
  }
}

void Stream::waitIdle() {
  if (currentStream == this) return; // work on this stream waiting for itself would never end
  std::unique_lock lock(mutex_);
  drained_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

Status Stream::synchronize() {
  waitIdle();
  std::lock_guard lock(mutex_);
  return std::exchange(firstError_, Status());
}

bool Stream::idle() const {
  std::lock_guard lock(mutex_);
  return queue_.empty() && !busy_;
}

tcpuStream StreamSet::create(unsigned int flags) {
  return table_.insert(std::make_shared<Stream>(flags, blockingWork_));
}

void StreamSet::waitForBlocking() const {
  if (blockingWork_.load(std::memory_order_acquire) == 0) return;
  for (const auto& stream : table_.snapshot())
    if (stream->blocking()) stream->waitIdle();
}

void StreamSet::waitForAll() const {
  for (const auto& stream : table_.snapshot())
    stream->waitIdle();
}

} // namespace tcpu::detail

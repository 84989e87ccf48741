#include "state/stream.hpp"

#include <exception>

namespace tcpu::detail {
namespace {
// The queue whose worker is the calling thread, or nullptr.
thread_local const void* currentQueue = nullptr;
} // namespace

Stream::Stream(unsigned int flags, std::atomic<int64_t>& blockingWork)
    : queue_(std::make_shared<Queue>((flags & TCPU_STREAM_NON_BLOCKING) == 0, blockingWork)),
      worker_([queue = queue_] { workerLoop(queue); }) {}

Stream::~Stream() {
  {
    std::lock_guard lock(queue_->mutex);
    queue_->stopping = true;
  }
  queue_->workReady.notify_one();
  if (isCurrentThreadWorker())
    worker_.detach(); // it finishes its loop on its own
  else
    worker_.join();
}

bool Stream::isCurrentThreadWorker() const {
  return currentQueue == queue_.get();
}

void Stream::enqueue(Work work) {
  {
    std::lock_guard lock(queue_->mutex);
    queue_->work.push_back(std::move(work));
  }
  if (queue_->blocking) queue_->blockingWork.fetch_add(1, std::memory_order_acq_rel);
  queue_->workReady.notify_one();
}

void Stream::workerLoop(const std::shared_ptr<Queue>& queue) {
  currentQueue = queue.get();
  std::unique_lock lock(queue->mutex);
  for (;;) {
    queue->workReady.wait(lock, [&] { return queue->stopping || !queue->work.empty(); });
    if (queue->work.empty()) return; // stopping, and all work done
    Work work = std::move(queue->work.front());
    queue->work.pop_front();
    queue->busy = true;
    lock.unlock();
    Status status;
    try {
      status = work();
    } catch (const std::exception& e) { // nothing may escape a worker thread
      status = Status(TCPU_ERROR_UNKNOWN, concat("queued work threw: ", e.what()));
    } catch (...) {
      status = Status(TCPU_ERROR_UNKNOWN, "queued work threw");
    }
    work = nullptr; // release what the work held (functions, events) outside the lock
    lock.lock();
    if (!status.ok() && queue->firstError.ok()) queue->firstError = std::move(status);
    queue->busy = false;
    if (queue->blocking) queue->blockingWork.fetch_sub(1, std::memory_order_acq_rel);
    if (queue->work.empty()) queue->drained.notify_all();
  }
}

void Stream::waitIdle() {
  if (isCurrentThreadWorker()) return; // work on this stream waiting for itself would never end
  std::unique_lock lock(queue_->mutex);
  queue_->drained.wait(lock, [&] { return queue_->work.empty() && !queue_->busy; });
}

Status Stream::synchronize() {
  waitIdle();
  std::lock_guard lock(queue_->mutex);
  return std::exchange(queue_->firstError, Status());
}

bool Stream::idle() const {
  std::lock_guard lock(queue_->mutex);
  return queue_->work.empty() && !queue_->busy;
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

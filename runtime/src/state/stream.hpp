// Streams: an in-order queue of work run by a worker thread of its own.
#ifndef TCPU_SRC_STREAM_HPP
#define TCPU_SRC_STREAM_HPP

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "state/handle_table.hpp"
#include "tcpu/status.hpp"

namespace tcpu::detail {

class Stream {
public:
  using Work = std::function<Status()>;

  // `blockingWork` counts queued work of all blocking streams, so that the
  // null stream can skip waiting when there is none.
  Stream(unsigned int flags, std::atomic<int64_t>& blockingWork);
  // Finishes the queued work, then ends the worker. Safe on any thread,
  // the worker's own included (it then detaches and ends by itself).
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  void enqueue(Work work);
  // Waits for all queued work; returns the first error since the last call and clears it.
  Status synchronize();
  // Waits for all queued work; leaves any error for synchronize().
  void waitIdle();
  bool idle() const;
  bool blocking() const { return queue_->blocking; }
  // Whether the calling thread is this stream's worker (waiting would never end).
  bool isCurrentThreadWorker() const;

private:
  // Shared with the worker thread, so the worker may outlive the Stream.
  struct Queue {
    Queue(bool isBlocking, std::atomic<int64_t>& counter)
        : blocking(isBlocking), blockingWork(counter) {}
    const bool blocking;
    std::atomic<int64_t>& blockingWork;
    mutable std::mutex mutex;
    std::condition_variable workReady;
    std::condition_variable drained;
    std::deque<Work> work;
    bool busy = false;
    bool stopping = false;
    Status firstError;
  };
  static void workerLoop(const std::shared_ptr<Queue>& queue);

  std::shared_ptr<Queue> queue_;
  std::thread worker_;
};

// The created streams, and the null stream's implicit wait on blocking ones.
class StreamSet {
public:
  tcpuStream create(unsigned int flags);
  std::shared_ptr<Stream> find(tcpuStream stream) const { return table_.find(stream); }
  std::shared_ptr<Stream> remove(tcpuStream stream) { return table_.remove(stream); }
  // Before null-stream work: waits for queued work of blocking streams.
  void waitForBlocking() const;
  // Waits for the work of every stream (before freeing memory).
  void waitForAll() const;

private:
  HandleTable<Stream, tcpuStream> table_;
  mutable std::atomic<int64_t> blockingWork_{0};
};

} // namespace tcpu::detail

#endif // TCPU_SRC_STREAM_HPP

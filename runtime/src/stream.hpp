// Streams: an in-order queue of work run by a worker thread of its own.
#ifndef TCPU_SRC_STREAM_HPP
#define TCPU_SRC_STREAM_HPP

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "handle_table.hpp"
#include "tcpu/status.hpp"

namespace tcpu::detail {

class Stream {
public:
  using Work = std::function<Status()>;

  // `blockingWork` counts queued work of all blocking streams, so that the
  // null stream can skip waiting when there is none.
  Stream(unsigned int flags, std::atomic<int64_t>& blockingWork);
  ~Stream(); // finishes the queued work, then joins the worker
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  void enqueue(Work work);
  // Waits for all queued work; returns the first error since the last call and clears it.
  Status synchronize();
  // Waits for all queued work; leaves any error for synchronize().
  void waitIdle();
  bool idle() const;
  bool blocking() const { return blocking_; }

  // The stream whose worker is the calling thread, or nullptr.
  static const Stream* current();

private:
  void workerLoop();

  const bool blocking_;
  std::atomic<int64_t>& blockingWork_;
  mutable std::mutex mutex_;
  std::condition_variable workReady_;
  std::condition_variable drained_;
  std::deque<Work> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  Status firstError_;
  std::thread worker_; // last: started once everything above exists
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

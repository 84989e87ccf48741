// The CPU backend's streams and events: state/'s queues of work, each run by its own thread, and
// events that mark a point in them.
#include <chrono>

#include "cpu/cpu_backend.hpp"
#include "state/runtime_state.hpp"

namespace tcpu::detail {
namespace {

Status invalidStream(tcpuStream stream) {
  return Status(TCPU_ERROR_INVALID_HANDLE,
                concat("stream ", static_cast<const void*>(stream), " is not a live stream"));
}

Status invalidEvent(const char* what, tcpuEvent event) {
  return Status(TCPU_ERROR_INVALID_HANDLE,
                concat(what, " ", static_cast<const void*>(event), " is not a live event"));
}

} // namespace

Expected<tcpuStream> CpuBackend::streamCreate(unsigned int flags) {
  return runtime().streams.create(flags);
}

Status CpuBackend::streamDestroy(tcpuStream stream) {
  std::shared_ptr<Stream> object = runtime().streams.find(stream);
  if (!object) return invalidStream(stream);
  if (object->isCurrentThreadWorker())
    return Status(TCPU_ERROR_NOT_PERMITTED, "called from work running on that same stream");
  if (!runtime().streams.remove(stream)) return invalidStream(stream);
  object->waitIdle();
  return {};
}

Status CpuBackend::streamSynchronize(tcpuStream stream) {
  if (!stream) {
    runtime().streams.waitForBlocking();
    return {};
  }
  std::shared_ptr<Stream> object = runtime().streams.find(stream);
  if (!object) return invalidStream(stream);
  if (object->isCurrentThreadWorker())
    return Status(TCPU_ERROR_NOT_PERMITTED, "called from work running on that same stream");
  Status status = object->synchronize();
  if (status.ok()) return status;
  return Status(status.code(), concat("earlier work failed: ", status.message()));
}

Status CpuBackend::streamQuery(tcpuStream stream) {
  if (!stream) return {}; // the null stream is synchronous
  std::shared_ptr<Stream> object = runtime().streams.find(stream);
  if (!object) return invalidStream(stream);
  return object->idle() ? Status() : Status(TCPU_ERROR_NOT_READY, "work is still queued");
}

Status CpuBackend::streamWaitEvent(tcpuStream stream, tcpuEvent event) {
  RuntimeState& state = runtime();
  std::shared_ptr<Event> object = state.events.find(event);
  if (!object) return invalidEvent("event", event);
  // The record to wait for is fixed now: later records of the event do not delay the stream.
  const uint64_t record = object->latestRecord();
  if (!stream) {
    object->waitFor(record);
    return {};
  }
  std::shared_ptr<Stream> queue = state.streams.find(stream);
  if (!queue) return invalidStream(stream);
  // A record of this stream is queued before this wait, so the wait never waits for itself.
  queue->enqueue([object, record] {
    object->waitFor(record);
    return Status();
  });
  return {};
}

Expected<tcpuEvent> CpuBackend::eventCreate(unsigned int flags) {
  return runtime().events.insert(std::make_shared<Event>((flags & TCPU_EVENT_DISABLE_TIMING) == 0));
}

Status CpuBackend::eventRecord(tcpuEvent event, tcpuStream stream) {
  RuntimeState& state = runtime();
  std::shared_ptr<Event> object = state.events.find(event);
  if (!object) return invalidEvent("event", event);
  if (!stream) {
    state.streams.waitForBlocking();
    object->complete(object->beginRecord());
    return {};
  }
  std::shared_ptr<Stream> queue = state.streams.find(stream);
  if (!queue) return invalidStream(stream);
  const uint64_t record = object->beginRecord();
  queue->enqueue([object, record] {
    object->complete(record);
    return Status();
  });
  return {};
}

Status CpuBackend::eventQuery(tcpuEvent event) {
  std::shared_ptr<Event> object = runtime().events.find(event);
  if (!object) return invalidEvent("event", event);
  return object->reached() ? Status() : Status(TCPU_ERROR_NOT_READY, "the record is pending");
}

Status CpuBackend::eventSynchronize(tcpuEvent event) {
  std::shared_ptr<Event> object = runtime().events.find(event);
  if (!object) return invalidEvent("event", event);
  object->wait();
  return {};
}

Status CpuBackend::eventElapsedTime(float* milliseconds, tcpuEvent start, tcpuEvent end) {
  if (!milliseconds) return Status(TCPU_ERROR_INVALID_VALUE, "milliseconds is NULL");
  std::shared_ptr<Event> first = runtime().events.find(start);
  if (!first) return invalidEvent("start", start);
  std::shared_ptr<Event> last = runtime().events.find(end);
  if (!last) return invalidEvent("end", end);
  if (!first->timed() || !last->timed())
    return Status(TCPU_ERROR_INVALID_HANDLE,
                  concat(first->timed() ? "end" : "start",
                         " event was created with TCPU_EVENT_DISABLE_TIMING"));
  if (!first->everRecorded() || !last->everRecorded())
    return Status(TCPU_ERROR_INVALID_HANDLE,
                  concat(first->everRecorded() ? "end" : "start", " event was never recorded"));
  if (!first->reached() || !last->reached())
    return Status(TCPU_ERROR_NOT_READY,
                  concat(first->reached() ? "end" : "start", " event has not completed yet"));
  const auto elapsed = last->time() - first->time();
  *milliseconds = std::chrono::duration<float, std::milli>(elapsed).count();
  return {};
}

Status CpuBackend::eventDestroy(tcpuEvent event) {
  // A record still queued keeps its own reference, so this never waits.
  if (!runtime().events.remove(event)) return invalidEvent("event", event);
  return {};
}

} // namespace tcpu::detail

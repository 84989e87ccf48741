// tcpuStream* and tcpuEvent* entry points.
#include <chrono>

#include "api/context.hpp"
#include "state/error.hpp"
#include "state/runtime_state.hpp"

using namespace tcpu;
using namespace tcpu::detail;

namespace {

tcpuResult invalidStream(const char* api, tcpuStream stream) {
  return fail(TCPU_ERROR_INVALID_HANDLE, api, ": stream ", static_cast<const void*>(stream),
              " is not a live stream");
}

tcpuResult invalidEvent(const char* api, const char* what, tcpuEvent event) {
  return fail(TCPU_ERROR_INVALID_HANDLE, api, ": ", what, " ", static_cast<const void*>(event),
              " is not a live event");
}

} // namespace

extern "C" {

tcpuResult tcpuStreamCreate(tcpuStream* stream, unsigned int flags) {
  return initializedApi("tcpuStreamCreate", [&] {
    if (!stream) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuStreamCreate: stream is NULL");
    if (flags & ~static_cast<unsigned int>(TCPU_STREAM_NON_BLOCKING))
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuStreamCreate: flags=", flags,
                  " (only TCPU_STREAM_NON_BLOCKING is defined)");
    if (std::shared_ptr<CudaContext> cuda = currentCuda()) {
      Expected<tcpuStream> created = cuda->streamCreate(flags);
      if (!created) return reportAs("tcpuStreamCreate", created.status());
      *stream = *created;
      return TCPU_SUCCESS;
    }
    *stream = runtime().streams.create(flags);
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuStreamDestroy(tcpuStream stream) {
  return initializedApi("tcpuStreamDestroy", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuStreamDestroy", cuda->streamDestroy(stream));
    std::shared_ptr<Stream> object = runtime().streams.find(stream);
    if (!object) return invalidStream("tcpuStreamDestroy", stream);
    if (object->isCurrentThreadWorker())
      return fail(TCPU_ERROR_NOT_PERMITTED,
                  "tcpuStreamDestroy: called from work running on that same stream");
    if (!runtime().streams.remove(stream)) return invalidStream("tcpuStreamDestroy", stream);
    object->waitIdle();
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuStreamSynchronize(tcpuStream stream) {
  return initializedApi("tcpuStreamSynchronize", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuStreamSynchronize", cuda->streamSynchronize(stream));
    if (!stream) {
      runtime().streams.waitForBlocking();
      return TCPU_SUCCESS;
    }
    std::shared_ptr<Stream> object = runtime().streams.find(stream);
    if (!object) return invalidStream("tcpuStreamSynchronize", stream);
    if (object->isCurrentThreadWorker())
      return fail(TCPU_ERROR_NOT_PERMITTED,
                  "tcpuStreamSynchronize: called from work running on that same stream");
    Status status = object->synchronize();
    return status.ok() ? TCPU_SUCCESS
                       : fail(status.code(),
                              "tcpuStreamSynchronize: earlier work failed: ", status.message());
  });
}

tcpuResult tcpuStreamQuery(tcpuStream stream) {
  return initializedApi("tcpuStreamQuery", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda()) {
      const Status status = cuda->streamQuery(stream);
      return status.code() == TCPU_ERROR_NOT_READY
                 ? fail(TCPU_ERROR_NOT_READY, "tcpuStreamQuery: work is still queued")
                 : reportAs("tcpuStreamQuery", status);
    }
    if (!stream) return TCPU_SUCCESS; // the null stream is synchronous
    std::shared_ptr<Stream> object = runtime().streams.find(stream);
    if (!object) return invalidStream("tcpuStreamQuery", stream);
    return object->idle() ? TCPU_SUCCESS
                          : fail(TCPU_ERROR_NOT_READY, "tcpuStreamQuery: work is still queued");
  });
}

tcpuResult tcpuEventCreate(tcpuEvent* event, unsigned int flags) {
  return initializedApi("tcpuEventCreate", [&] {
    if (!event) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuEventCreate: event is NULL");
    constexpr unsigned int known = TCPU_EVENT_BLOCKING_SYNC | TCPU_EVENT_DISABLE_TIMING;
    if (flags & ~known)
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuEventCreate: flags=", flags,
                  " (defined: TCPU_EVENT_BLOCKING_SYNC 1, TCPU_EVENT_DISABLE_TIMING 2)");
    if (std::shared_ptr<CudaContext> cuda = currentCuda()) {
      Expected<tcpuEvent> created = cuda->eventCreate(flags);
      if (!created) return reportAs("tcpuEventCreate", created.status());
      *event = *created;
      return TCPU_SUCCESS;
    }
    *event =
        runtime().events.insert(std::make_shared<Event>((flags & TCPU_EVENT_DISABLE_TIMING) == 0));
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuEventRecord(tcpuEvent event, tcpuStream stream) {
  return initializedApi("tcpuEventRecord", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuEventRecord", cuda->eventRecord(event, stream));
    RuntimeState& state = runtime();
    std::shared_ptr<Event> object = state.events.find(event);
    if (!object) return invalidEvent("tcpuEventRecord", "event", event);
    if (!stream) {
      state.streams.waitForBlocking();
      object->complete(object->beginRecord());
      return TCPU_SUCCESS;
    }
    std::shared_ptr<Stream> queue = state.streams.find(stream);
    if (!queue) return invalidStream("tcpuEventRecord", stream);
    const uint64_t record = object->beginRecord();
    queue->enqueue([object, record] {
      object->complete(record);
      return Status();
    });
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuEventQuery(tcpuEvent event) {
  return initializedApi("tcpuEventQuery", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuEventQuery", cuda->eventQuery(event));
    std::shared_ptr<Event> object = runtime().events.find(event);
    if (!object) return invalidEvent("tcpuEventQuery", "event", event);
    return object->reached() ? TCPU_SUCCESS
                             : fail(TCPU_ERROR_NOT_READY, "tcpuEventQuery: the record is pending");
  });
}

tcpuResult tcpuEventSynchronize(tcpuEvent event) {
  return initializedApi("tcpuEventSynchronize", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuEventSynchronize", cuda->eventSynchronize(event));
    std::shared_ptr<Event> object = runtime().events.find(event);
    if (!object) return invalidEvent("tcpuEventSynchronize", "event", event);
    object->wait();
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuEventElapsedTime(float* milliseconds, tcpuEvent start, tcpuEvent end) {
  return initializedApi("tcpuEventElapsedTime", [&] {
    constexpr const char* kApi = "tcpuEventElapsedTime";
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs(kApi, cuda->eventElapsedTime(milliseconds, start, end));
    if (!milliseconds) return fail(TCPU_ERROR_INVALID_VALUE, kApi, ": milliseconds is NULL");
    std::shared_ptr<Event> first = runtime().events.find(start);
    if (!first) return invalidEvent(kApi, "start", start);
    std::shared_ptr<Event> last = runtime().events.find(end);
    if (!last) return invalidEvent(kApi, "end", end);
    if (!first->timed() || !last->timed())
      return fail(TCPU_ERROR_INVALID_HANDLE, kApi, ": ", first->timed() ? "end" : "start",
                  " event was created with TCPU_EVENT_DISABLE_TIMING");
    if (!first->everRecorded() || !last->everRecorded())
      return fail(TCPU_ERROR_INVALID_HANDLE, kApi, ": ", first->everRecorded() ? "end" : "start",
                  " event was never recorded");
    if (!first->reached() || !last->reached())
      return fail(TCPU_ERROR_NOT_READY, kApi, ": ", first->reached() ? "end" : "start",
                  " event has not completed yet");
    const auto elapsed = last->time() - first->time();
    *milliseconds = std::chrono::duration<float, std::milli>(elapsed).count();
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuStreamWaitEvent(tcpuStream stream, tcpuEvent event, unsigned int flags) {
  return initializedApi("tcpuStreamWaitEvent", [&] {
    constexpr const char* kApi = "tcpuStreamWaitEvent";
    if (flags != 0) return fail(TCPU_ERROR_INVALID_VALUE, kApi, ": flags=", flags, " must be 0");
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs(kApi, cuda->streamWaitEvent(stream, event));
    RuntimeState& state = runtime();
    std::shared_ptr<Event> object = state.events.find(event);
    if (!object) return invalidEvent(kApi, "event", event);
    // The record to wait for is fixed now: later records of the event do not delay the stream.
    const uint64_t record = object->latestRecord();
    if (!stream) {
      object->waitFor(record);
      return TCPU_SUCCESS;
    }
    std::shared_ptr<Stream> queue = state.streams.find(stream);
    if (!queue) return invalidStream(kApi, stream);
    // A record of this stream is queued before this wait, so the wait never waits for itself.
    queue->enqueue([object, record] {
      object->waitFor(record);
      return Status();
    });
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuEventDestroy(tcpuEvent event) {
  return initializedApi("tcpuEventDestroy", [&] {
    if (std::shared_ptr<CudaContext> cuda = currentCuda())
      return reportAs("tcpuEventDestroy", cuda->eventDestroy(event));
    // A record still queued keeps its own reference, so this never waits.
    if (!runtime().events.remove(event)) return invalidEvent("tcpuEventDestroy", "event", event);
    return TCPU_SUCCESS;
  });
}

} // extern "C"

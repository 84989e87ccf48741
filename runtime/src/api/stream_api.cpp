// tcpuStream* and tcpuEvent* entry points: the flags checked here, the streams and events the
// current context's backend's (cpu/cpu_streams.cpp on the CPU).
#include "api/context.hpp"
#include "state/error.hpp"

using namespace tcpu;
using namespace tcpu::detail;

extern "C" {

tcpuResult tcpuStreamCreate(tcpuStream* stream, unsigned int flags) {
  return initializedApi("tcpuStreamCreate", [&] {
    if (!stream) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuStreamCreate: stream is NULL");
    if (flags & ~static_cast<unsigned int>(TCPU_STREAM_NON_BLOCKING))
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuStreamCreate: flags=", flags,
                  " (only TCPU_STREAM_NON_BLOCKING is defined)");
    Expected<tcpuStream> created = currentBackend()->streamCreate(flags);
    if (!created) return reportAs("tcpuStreamCreate", created.status());
    *stream = *created;
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuStreamDestroy(tcpuStream stream) {
  return initializedApi("tcpuStreamDestroy", [&] {
    return reportAs("tcpuStreamDestroy", currentBackend()->streamDestroy(stream));
  });
}

tcpuResult tcpuStreamSynchronize(tcpuStream stream) {
  return initializedApi("tcpuStreamSynchronize", [&] {
    return reportAs("tcpuStreamSynchronize", currentBackend()->streamSynchronize(stream));
  });
}

tcpuResult tcpuStreamQuery(tcpuStream stream) {
  return initializedApi("tcpuStreamQuery", [&] {
    const Status status = currentBackend()->streamQuery(stream);
    return status.code() == TCPU_ERROR_NOT_READY
               ? fail(TCPU_ERROR_NOT_READY, "tcpuStreamQuery: work is still queued")
               : reportAs("tcpuStreamQuery", status);
  });
}

tcpuResult tcpuEventCreate(tcpuEvent* event, unsigned int flags) {
  return initializedApi("tcpuEventCreate", [&] {
    if (!event) return fail(TCPU_ERROR_INVALID_VALUE, "tcpuEventCreate: event is NULL");
    constexpr unsigned int known = TCPU_EVENT_BLOCKING_SYNC | TCPU_EVENT_DISABLE_TIMING;
    if (flags & ~known)
      return fail(TCPU_ERROR_INVALID_VALUE, "tcpuEventCreate: flags=", flags,
                  " (defined: TCPU_EVENT_BLOCKING_SYNC 1, TCPU_EVENT_DISABLE_TIMING 2)");
    Expected<tcpuEvent> created = currentBackend()->eventCreate(flags);
    if (!created) return reportAs("tcpuEventCreate", created.status());
    *event = *created;
    return TCPU_SUCCESS;
  });
}

tcpuResult tcpuEventRecord(tcpuEvent event, tcpuStream stream) {
  return initializedApi("tcpuEventRecord", [&] {
    return reportAs("tcpuEventRecord", currentBackend()->eventRecord(event, stream));
  });
}

tcpuResult tcpuEventQuery(tcpuEvent event) {
  return initializedApi("tcpuEventQuery", [&] {
    return reportAs("tcpuEventQuery", currentBackend()->eventQuery(event));
  });
}

tcpuResult tcpuEventSynchronize(tcpuEvent event) {
  return initializedApi("tcpuEventSynchronize", [&] {
    return reportAs("tcpuEventSynchronize", currentBackend()->eventSynchronize(event));
  });
}

tcpuResult tcpuEventElapsedTime(float* milliseconds, tcpuEvent start, tcpuEvent end) {
  return initializedApi("tcpuEventElapsedTime", [&] {
    return reportAs("tcpuEventElapsedTime",
                    currentBackend()->eventElapsedTime(milliseconds, start, end));
  });
}

tcpuResult tcpuStreamWaitEvent(tcpuStream stream, tcpuEvent event, unsigned int flags) {
  return initializedApi("tcpuStreamWaitEvent", [&] {
    constexpr const char* kApi = "tcpuStreamWaitEvent";
    if (flags != 0) return fail(TCPU_ERROR_INVALID_VALUE, kApi, ": flags=", flags, " must be 0");
    return reportAs(kApi, currentBackend()->streamWaitEvent(stream, event));
  });
}

tcpuResult tcpuEventDestroy(tcpuEvent event) {
  return initializedApi("tcpuEventDestroy", [&] {
    return reportAs("tcpuEventDestroy", currentBackend()->eventDestroy(event));
  });
}

} // extern "C"

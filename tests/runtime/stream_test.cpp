// Streams run their work asynchronously and in order; events time it.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace tcpu::test {
namespace {

class Streams : public RuntimeTest {};

TEST_F(Streams, ManyHostThreadsKeepPerStreamOrder) {
  constexpr int kHostThreads = 4, kStreamsPerThread = 4, kLaunches = 1000;
  constexpr int kStreams = kHostThreads * kStreamsPerThread;
  std::vector<uint32_t> last(kStreams, 0), runs(kStreams, 0);
  uint32_t violations = 0;
  const tcpuFunction f = function("stream_sequence");
  std::vector<std::thread> hosts;
  std::vector<tcpuResult> failures(kHostThreads, TCPU_SUCCESS);
  for (int h = 0; h < kHostThreads; ++h) {
    hosts.emplace_back([&, h] {
      tcpuStream streams[kStreamsPerThread];
      for (auto& stream : streams)
        if (tcpuStreamCreate(&stream, 0) != TCPU_SUCCESS) failures[h] = TCPU_ERROR_UNKNOWN;
      uint32_t* lastPtr = last.data();
      uint32_t* violationsPtr = &violations;
      uint32_t* runsPtr = runs.data();
      uint32_t streamIndex = 0, seq = 0;
      void* params[] = {&lastPtr, &violationsPtr, &runsPtr, &streamIndex, &seq};
      for (int i = 1; i <= kLaunches; ++i) {
        for (int s = 0; s < kStreamsPerThread; ++s) {
          // The same variables are reused: each launch must have copied its values.
          streamIndex = static_cast<uint32_t>(h * kStreamsPerThread + s);
          seq = static_cast<uint32_t>(i);
          const tcpuResult r =
              tcpuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, streams[s], params, nullptr);
          if (r != TCPU_SUCCESS) failures[h] = r;
        }
      }
      for (auto& stream : streams) {
        if (tcpuStreamSynchronize(stream) != TCPU_SUCCESS) failures[h] = TCPU_ERROR_UNKNOWN;
        if (tcpuStreamDestroy(stream) != TCPU_SUCCESS) failures[h] = TCPU_ERROR_UNKNOWN;
      }
    });
  }
  for (auto& host : hosts)
    host.join();
  for (tcpuResult r : failures)
    EXPECT_EQ(r, TCPU_SUCCESS);
  EXPECT_EQ(violations, 0u) << "launches on a stream ran out of order";
  for (int s = 0; s < kStreams; ++s) {
    EXPECT_EQ(runs[s], static_cast<uint32_t>(kLaunches)) << "stream " << s << " lost or repeated";
    EXPECT_EQ(last[s], static_cast<uint32_t>(kLaunches)) << "stream " << s;
  }
}

// Holds a stream busy until open() (or 10 s).
class Gate {
public:
  explicit Gate(tcpuFunction waitGate) : waitGate_(waitGate) {}
  tcpuResult launch(tcpuStream stream) {
    return tcpuLaunchKernel(waitGate_, 1, 1, 1, 1, 1, 1, 0, stream, params_, nullptr);
  }
  void open() { std::atomic_ref<uint32_t>(flag_).store(1); }

private:
  tcpuFunction waitGate_;
  uint32_t flag_ = 0;
  uint32_t* flagPtr_ = &flag_;
  void* params_[1] = {&flagPtr_};
};

TEST_F(Streams, QueryReportsPendingWorkAndSynchronizeWaits) {
  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, 0));
  Gate gate(function("wait_gate"));
  ASSERT_TCPU(gate.launch(stream));
  EXPECT_EQ(tcpuStreamQuery(stream), TCPU_ERROR_NOT_READY);
  gate.open();
  ASSERT_TCPU(tcpuStreamSynchronize(stream));
  EXPECT_EQ(tcpuStreamQuery(stream), TCPU_SUCCESS);
  EXPECT_EQ(tcpuStreamQuery(nullptr), TCPU_SUCCESS);
  ASSERT_TCPU(tcpuStreamDestroy(stream));
}

TEST_F(Streams, NullStreamWaitsForBlockingStreams) {
  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, TCPU_STREAM_DEFAULT));
  tcpuDeviceptr buffer;
  ASSERT_TCPU(tcpuMemAlloc(&buffer, 4));
  ASSERT_TCPU(tcpuMemsetD32(buffer, 0, 1));
  uint32_t micros = 100000;
  void* spinParams[] = {&micros};
  ASSERT_TCPU(tcpuLaunchKernel(function("spin"), 1, 1, 1, 1, 1, 1, 0, stream, spinParams, nullptr));
  const uint32_t value = 42;
  ASSERT_TCPU(tcpuMemcpyHtoDAsync(buffer, &value, 4, stream));
  uint32_t readBack = 0;
  ASSERT_TCPU(tcpuMemcpyDtoH(&readBack, buffer, 4)); // null stream: waits for the stream's copy
  EXPECT_EQ(readBack, 42u);
  EXPECT_EQ(tcpuStreamQuery(stream), TCPU_SUCCESS);
  ASSERT_TCPU(tcpuMemFree(buffer));
  ASSERT_TCPU(tcpuStreamDestroy(stream));
}

TEST_F(Streams, NonBlockingStreamDoesNotHoldTheNullStream) {
  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, TCPU_STREAM_NON_BLOCKING));
  uint32_t micros = 500000;
  void* spinParams[] = {&micros};
  ASSERT_TCPU(tcpuLaunchKernel(function("spin"), 1, 1, 1, 1, 1, 1, 0, stream, spinParams, nullptr));
  ASSERT_TCPU(tcpuLaunchKernel(function("empty"), 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
  EXPECT_EQ(tcpuStreamQuery(stream), TCPU_ERROR_NOT_READY); // the null launch did not wait
  ASSERT_TCPU(tcpuStreamDestroy(stream));                   // destroy waits for the work
}

TEST_F(Streams, QueuedLaunchOutlivesModuleUnload) {
  tcpuModule second;
  ASSERT_TCPU(tcpuModuleLoad(&second, TCPU_TEST_KERNELS_PATH));
  tcpuFunction spin, sequence;
  ASSERT_TCPU(tcpuModuleGetFunction(&spin, second, "spin"));
  ASSERT_TCPU(tcpuModuleGetFunction(&sequence, second, "stream_sequence"));
  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, 0));
  uint32_t micros = 100000;
  void* spinParams[] = {&micros};
  ASSERT_TCPU(tcpuLaunchKernel(spin, 1, 1, 1, 1, 1, 1, 0, stream, spinParams, nullptr));
  uint32_t last = 0, violations = 0, runs = 0, index = 0, seq = 1;
  uint32_t *lastPtr = &last, *violationsPtr = &violations, *runsPtr = &runs;
  void* params[] = {&lastPtr, &violationsPtr, &runsPtr, &index, &seq};
  ASSERT_TCPU(tcpuLaunchKernel(sequence, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr));
  ASSERT_TCPU(tcpuModuleUnload(second)); // while both launches are still queued
  EXPECT_EQ(tcpuLaunchKernel(sequence, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr),
            TCPU_ERROR_INVALID_HANDLE);
  ASSERT_TCPU(tcpuStreamSynchronize(stream));
  EXPECT_EQ(runs, 1u);
  EXPECT_EQ(violations, 0u);
  ASSERT_TCPU(tcpuStreamDestroy(stream));
}

TEST_F(Streams, StreamStaysUsableAfterARejectedLaunch) {
  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, 0));
  EXPECT_EQ(tcpuLaunchKernel(function("spin"), 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr),
            TCPU_ERROR_INVALID_VALUE);
  uint32_t micros = 1;
  void* params[] = {&micros};
  EXPECT_TCPU(tcpuLaunchKernel(function("spin"), 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr));
  EXPECT_TCPU(tcpuStreamSynchronize(stream));
  EXPECT_TCPU(tcpuStreamDestroy(stream));
}

class Events : public RuntimeTest {};

TEST_F(Events, MeasureElapsedTimeOfStreamWork) {
  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, 0));
  tcpuEvent start, stop;
  ASSERT_TCPU(tcpuEventCreate(&start, 0));
  ASSERT_TCPU(tcpuEventCreate(&stop, 0));
  uint32_t micros = 50000;
  void* params[] = {&micros};
  ASSERT_TCPU(tcpuEventRecord(start, stream));
  ASSERT_TCPU(tcpuLaunchKernel(function("spin"), 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr));
  ASSERT_TCPU(tcpuEventRecord(stop, stream));
  float early = 0;
  const tcpuResult before = tcpuEventElapsedTime(&early, start, stop);
  EXPECT_TRUE(before == TCPU_ERROR_NOT_READY || before == TCPU_SUCCESS);
  ASSERT_TCPU(tcpuEventSynchronize(stop));
  EXPECT_EQ(tcpuEventQuery(stop), TCPU_SUCCESS);
  float ms = 0;
  ASSERT_TCPU(tcpuEventElapsedTime(&ms, start, stop));
  EXPECT_GE(ms, 50.0f);
  EXPECT_LT(ms, 5000.0f);
  ASSERT_TCPU(tcpuEventDestroy(start));
  ASSERT_TCPU(tcpuEventDestroy(stop));
  ASSERT_TCPU(tcpuStreamDestroy(stream));
}

TEST_F(Events, PendingRecordIsNotReady) {
  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, 0));
  tcpuEvent start, stop;
  ASSERT_TCPU(tcpuEventCreate(&start, 0));
  ASSERT_TCPU(tcpuEventCreate(&stop, 0));
  ASSERT_TCPU(tcpuEventRecord(start, nullptr));
  Gate gate(function("wait_gate"));
  ASSERT_TCPU(gate.launch(stream));
  ASSERT_TCPU(tcpuEventRecord(stop, stream));
  EXPECT_EQ(tcpuEventQuery(stop), TCPU_ERROR_NOT_READY);
  float ms = 0;
  EXPECT_TCPU_ERROR(tcpuEventElapsedTime(&ms, start, stop), TCPU_ERROR_NOT_READY, "end event");
  gate.open();
  ASSERT_TCPU(tcpuStreamSynchronize(stream));
  EXPECT_TCPU(tcpuEventElapsedTime(&ms, start, stop));
  EXPECT_GE(ms, 0.0f);
  ASSERT_TCPU(tcpuEventDestroy(start));
  ASSERT_TCPU(tcpuEventDestroy(stop));
  ASSERT_TCPU(tcpuStreamDestroy(stream));
}

// A stream that waits on an event recorded on another stream holds its later work until that
// record is reached; records made after the wait do not delay it.
TEST_F(Events, StreamWaitsForAnEventOfAnotherStream) {
  tcpuStream producer, consumer;
  ASSERT_TCPU(tcpuStreamCreate(&producer, TCPU_STREAM_NON_BLOCKING));
  ASSERT_TCPU(tcpuStreamCreate(&consumer, TCPU_STREAM_NON_BLOCKING));
  tcpuEvent ready;
  ASSERT_TCPU(tcpuEventCreate(&ready, TCPU_EVENT_DISABLE_TIMING));
  ASSERT_TCPU(tcpuStreamWaitEvent(consumer, ready, 0)); // never recorded: no wait
  ASSERT_TCPU(tcpuStreamSynchronize(consumer));
  Gate gate(function("wait_gate"));
  ASSERT_TCPU(gate.launch(producer));
  ASSERT_TCPU(tcpuEventRecord(ready, producer));
  ASSERT_TCPU(tcpuStreamWaitEvent(consumer, ready, 0));
  ASSERT_TCPU(tcpuLaunchKernel(function("empty"), 1, 1, 1, 1, 1, 1, 0, consumer, nullptr, nullptr));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(tcpuStreamQuery(consumer), TCPU_ERROR_NOT_READY); // held by the closed gate
  gate.open();
  ASSERT_TCPU(tcpuStreamSynchronize(consumer));
  EXPECT_EQ(tcpuEventQuery(ready), TCPU_SUCCESS);
  // A record queued after the wait is not waited for.
  Gate later(function("wait_gate"));
  ASSERT_TCPU(tcpuEventRecord(ready, producer));
  ASSERT_TCPU(tcpuStreamWaitEvent(consumer, ready, 0));
  ASSERT_TCPU(later.launch(producer));
  ASSERT_TCPU(tcpuEventRecord(ready, producer));
  ASSERT_TCPU(tcpuStreamSynchronize(consumer));
  EXPECT_EQ(tcpuEventQuery(ready), TCPU_ERROR_NOT_READY);
  later.open();
  ASSERT_TCPU(tcpuStreamWaitEvent(nullptr, ready, 0)); // the null stream: the caller waits
  EXPECT_EQ(tcpuEventQuery(ready), TCPU_SUCCESS);
  EXPECT_TCPU_ERROR(tcpuStreamWaitEvent(consumer, ready, 1), TCPU_ERROR_INVALID_VALUE, "flags=1");
  EXPECT_TCPU_ERROR(tcpuStreamWaitEvent(consumer, nullptr, 0), TCPU_ERROR_INVALID_HANDLE, "event");
  ASSERT_TCPU(tcpuStreamDestroy(producer));
  EXPECT_TCPU_ERROR(tcpuStreamWaitEvent(producer, ready, 0), TCPU_ERROR_INVALID_HANDLE, "stream");
  ASSERT_TCPU(tcpuEventDestroy(ready));
  ASSERT_TCPU(tcpuStreamDestroy(consumer));
}

// What a launch hook on a stream's worker does to that stream.
struct HookCalls {
  tcpuResult destroy = TCPU_SUCCESS;
  tcpuResult synchronize = TCPU_SUCCESS;
  std::atomic<int> enters{0};
};

void destroyOwnStream(const tcpuLaunchHookInfo* info, void* user) {
  auto* calls = static_cast<HookCalls*>(user);
  calls->enters++;
  if (!info->stream) return;
  calls->destroy = tcpuStreamDestroy(info->stream);
  calls->synchronize = tcpuStreamSynchronize(info->stream);
}

TEST_F(Streams, WorkOnAStreamMayNotWaitForOrDestroyIt) {
  HookCalls calls;
  ASSERT_TCPU(tcpuSetLaunchHooks(destroyOwnStream, nullptr, &calls));
  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, 0));
  ASSERT_TCPU(tcpuLaunchKernel(function("empty"), 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr));
  ASSERT_TCPU(tcpuStreamSynchronize(stream));
  EXPECT_EQ(calls.destroy, TCPU_ERROR_NOT_PERMITTED);
  EXPECT_EQ(calls.synchronize, TCPU_ERROR_NOT_PERMITTED);
  ASSERT_TCPU(tcpuSetLaunchHooks(nullptr, nullptr, nullptr));
  EXPECT_TCPU(tcpuLaunchKernel(function("empty"), 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr));
  EXPECT_TCPU(tcpuStreamDestroy(stream)); // still whole
}

void countEnter(const tcpuLaunchHookInfo*, void* user) {
  static_cast<HookCalls*>(user)->enters++;
}

TEST_F(Streams, QueuedLaunchKeepsTheHooksOfItsLaunchTime) {
  HookCalls calls;
  tcpuStream stream;
  ASSERT_TCPU(tcpuStreamCreate(&stream, 0));
  Gate gate(function("wait_gate"));
  ASSERT_TCPU(gate.launch(stream));
  ASSERT_TCPU(tcpuSetLaunchHooks(countEnter, nullptr, &calls));
  ASSERT_TCPU(tcpuLaunchKernel(function("empty"), 1, 1, 1, 1, 1, 1, 0, stream, nullptr, nullptr));
  ASSERT_TCPU(tcpuSetLaunchHooks(nullptr, nullptr, nullptr)); // before the launch runs
  gate.open();
  ASSERT_TCPU(tcpuStreamSynchronize(stream));
  EXPECT_EQ(calls.enters.load(), 1);
  ASSERT_TCPU(tcpuStreamDestroy(stream));
}

TEST_F(Events, NeverRecordedEventIsAnInvalidHandleForElapsedTime) {
  tcpuEvent a, b;
  ASSERT_TCPU(tcpuEventCreate(&a, 0));
  ASSERT_TCPU(tcpuEventCreate(&b, 0));
  EXPECT_EQ(tcpuEventQuery(a), TCPU_SUCCESS); // as CUDA: nothing pending
  ASSERT_TCPU(tcpuEventRecord(a, nullptr));
  float ms;
  EXPECT_TCPU_ERROR(tcpuEventElapsedTime(&ms, a, b), TCPU_ERROR_INVALID_HANDLE, "never recorded");
  ASSERT_TCPU(tcpuEventDestroy(a));
  ASSERT_TCPU(tcpuEventDestroy(b));
}

TEST_F(Events, TimingCanBeDisabled) {
  tcpuEvent a, b;
  ASSERT_TCPU(tcpuEventCreate(&a, TCPU_EVENT_DISABLE_TIMING | TCPU_EVENT_BLOCKING_SYNC));
  ASSERT_TCPU(tcpuEventCreate(&b, 0));
  ASSERT_TCPU(tcpuEventRecord(a, nullptr));
  ASSERT_TCPU(tcpuEventRecord(b, nullptr));
  ASSERT_TCPU(tcpuEventSynchronize(a));
  float ms;
  EXPECT_TCPU_ERROR(tcpuEventElapsedTime(&ms, a, b), TCPU_ERROR_INVALID_HANDLE,
                    "TCPU_EVENT_DISABLE_TIMING");
  EXPECT_EQ(tcpuEventCreate(&a, 4), TCPU_ERROR_INVALID_VALUE);
  ASSERT_TCPU(tcpuEventDestroy(a));
  ASSERT_TCPU(tcpuEventDestroy(b));
}

} // namespace
} // namespace tcpu::test

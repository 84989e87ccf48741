// Controls for the ThreadSanitizer stage (scripts/hardening/run-sanitizers.sh): shows that TSan
// with Archer sees OpenMP's synchronization (no report without "race") and still finds a race
// inside an OpenMP region (a report with "race"). Not part of the build; the script compiles it.
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  const bool race = argc > 1 && std::strcmp(argv[1], "race") == 0;
  constexpr int kN = 4096;
  std::vector<int> previous(kN, 1), next(kN, 0);
  long counter = 0;
  for (int round = 0; round < 4; ++round) {
    // Each element is written by one thread of a region and read by other threads in the next
    // round and by the caller at the end: ordered by the regions' joins and forks only.
#pragma omp parallel for num_threads(4) schedule(static)
    for (int i = 0; i < kN; ++i) {
      next[i] = previous[kN - 1 - i] % 7 + i;
      if (race) ++counter; // unsynchronized read-modify-write from each of the 4 threads
    }
    previous.swap(next);
  }
  long sum = 0;
  for (int value : previous)
    sum += value;
  std::printf("%ld %ld\n", sum, counter);
  return 0;
}

/* Symbol visibility of the runtime's API: everything else stays hidden. */
#ifndef TCPU_EXPORT_H
#define TCPU_EXPORT_H

#if defined(_WIN32)
#define TCPU_API __declspec(dllexport)
#else
#define TCPU_API __attribute__((visibility("default")))
#endif

#endif /* TCPU_EXPORT_H */

// The C allocator's policy for a process that runs tensor programs (the `relay` binary
// sets it first thing).
//
// glibc serves blocks of 128 KiB and more with mmap and returns the top of its heap to the
// system once 128 KiB of it is free (both thresholds then rise to the largest block freed,
// but trimming keeps returning the heap's top). A tensor program allocates and frees the
// same few hundred KiB call after call (a quantized dense layer's int32 copy of its
// weights, a reference kernel's scratch), so each call mapped fresh pages and faulted them
// in again: on the virtual machines this project is measured on, page faults were 40% of
// tests/models/quantized_cnn.relay's time. Blocks up to 32 MiB (glibc's largest mmap
// threshold) now come from the heap, and up to 64 MiB of free heap stays mapped. Tensors
// of 1 MiB and more have their own cache (buffer_cache.h); this covers everything else.
// quantized_cnn: 2.53 -> 0.72 ms median a call compiled, 2.64 -> 0.72 ms interpreted;
// ResNet-18 unchanged (`relay run FILE --random-inputs 1 --bench 200`, 2 threads).
#pragma once

namespace relay::rt {

// Sets the thresholds above, unless GLIBC_TUNABLES already sets a glibc.malloc tunable
// (the user's choice wins). Nothing on a C library other than glibc.
void tune_allocator();

}  // namespace relay::rt

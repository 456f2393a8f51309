// Memory defaults for libfabric's rxm utility provider, so that a fabric context stays
// within its buffer pool + 32 MiB (issue 3) like the TCP one.
//
// Decision (docs/transport.md, "Peak memory"): rxm posts bounce buffers for unexpected
// and eager messages, by default a shared receive queue of 4096 × 16 KiB = 64 MiB per
// process, more than Baton's whole pool budget. Baton's data frames are pool buffers
// (1 MiB by default) that rxm moves by rendezvous whatever its eager size, and its control
// frames are under 600 bytes, so those buffers buy nothing here. Unless the environment
// already sets them, Baton asks for 4 KiB bounce buffers (FI_OFI_RXM_BUFFER_SIZE) and
// per-connection receive queues of rxm's default 128 (FI_OFI_RXM_USE_SRX=0). Measured on
// 512 MiB through a 64 MiB pool, 16 flows: receiver 173 → 82 MiB, sender 171 → 96 MiB
// (the sender then still staged every frame; it is at 80 MiB since it sends from the pool).
#pragma once

namespace baton::transport::fabric {

// Sets the variables above in this process's environment unless they are set already.
// libfabric reads them when it first initializes its providers (the first fi_getinfo),
// so this must run before that; it runs once, later calls do nothing.
void apply_rxm_memory_defaults();

}  // namespace baton::transport::fabric

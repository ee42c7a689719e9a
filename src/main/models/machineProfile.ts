import { availableParallelism } from 'node:os'
import type { MachineProfile } from './speedEstimate'

const MIB = 1024 * 1024

/**
 * Bytes per second one memory copy moves (read plus write): buffers far larger than the CPU caches,
 * touched first so page faults are not timed, best of three rounds. About 30 ms of main-process time.
 */
export function measureMemoryBandwidth(sizeBytes = 64 * MIB, rounds = 3): number {
  const from = Buffer.alloc(sizeBytes, 1)
  const to = Buffer.alloc(sizeBytes)
  let best = Number.POSITIVE_INFINITY
  for (let round = 0; round < rounds; round++) {
    const started = performance.now()
    from.copy(to)
    best = Math.min(best, performance.now() - started)
  }
  return (2 * sizeBytes) / (Math.max(best, 0.001) / 1000)
}

/** GPU back-ends with their drivers present, as node-llama-cpp sees them (no binary is loaded). */
async function usableGpus(): Promise<string[]> {
  try {
    const { getLlamaGpuTypes } = await import('node-llama-cpp')
    return (await getLlamaGpuTypes('supported')).filter(
      (gpu): gpu is Exclude<typeof gpu, false> => gpu !== false,
    )
  } catch {
    return []
  }
}

let cached: Promise<MachineProfile> | undefined

/** This computer's cores, memory bandwidth and GPUs, measured once per process. */
export function probeMachine(): Promise<MachineProfile> {
  cached ??= usableGpus().then((gpus) => ({
    cpuCores: availableParallelism(),
    memoryBandwidth: measureMemoryBandwidth(),
    gpus,
  }))
  return cached
}

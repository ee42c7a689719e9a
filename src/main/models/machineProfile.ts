import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { dirname } from 'node:path'
import { z } from 'zod'
import type { MachineProfile } from './speedEstimate'

const MIB = 1024 * 1024

/**
 * Bytes per second one memory copy moves (read plus write): buffers far larger than the CPU caches,
 * touched first so page faults are not timed, best of five rounds. About 50 ms of main-process time.
 */
export function measureMemoryBandwidth(sizeBytes = 64 * MIB, rounds = 5): number {
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

const Remembered = z.object({ memoryBandwidth: z.number().positive().finite() })

/**
 * The best bandwidth measured on this computer so far, this one included, kept in `file`. A busy moment
 * only lowers a measurement (other processes share the memory bus), so the highest one is the nearest to
 * the hardware, and the estimate stops swinging from one start to the next.
 */
export async function rememberedBandwidth(file: string, measured: number): Promise<number> {
  const stored = await readFile(file, 'utf8')
    .then((text) => Remembered.safeParse(JSON.parse(text)).data?.memoryBandwidth)
    .catch(() => undefined)
  if (stored !== undefined && stored >= measured) return stored
  if (Number.isFinite(measured) && measured > 0) {
    const temp = `${file}.${process.pid}.tmp`
    await mkdir(dirname(file), { recursive: true })
    await writeFile(temp, `${JSON.stringify({ memoryBandwidth: measured })}\n`)
    await rename(temp, file)
  }
  return measured
}

const cached = new Map<string, Promise<MachineProfile>>()

/**
 * This computer's cores, memory bandwidth and GPUs, measured once per process; with `file`, the
 * bandwidth is the best one measured here in any run (see `rememberedBandwidth`).
 */
export function probeMachine(file?: string): Promise<MachineProfile> {
  const key = file ?? ''
  let profile = cached.get(key)
  if (!profile) {
    profile = usableGpus().then(async (gpus) => {
      const measured = measureMemoryBandwidth()
      return {
        cpuCores: availableParallelism(),
        memoryBandwidth: file ? await rememberedBandwidth(file, measured).catch(() => measured) : measured,
        gpus,
      }
    })
    cached.set(key, profile)
  }
  return profile
}

/** What the estimate needs to know about this computer (see `probeMachine`). */
export interface MachineProfile {
  /** CPU threads the process may use. */
  cpuCores: number
  /** Bytes per second a memory copy moves (read plus write), measured on this machine. */
  memoryBandwidth: number
  /** GPU back-ends node-llama-cpp found usable here (`cuda`, `vulkan`, `metal`); empty for the CPU only. */
  gpus: readonly string[]
}

export interface SpeedEstimate {
  wordsPerSecond: number
  tokensPerSecond: number
  /** What caps the speed: reading the weights from memory for every token, or the CPU's arithmetic. */
  limitedBy: 'memory' | 'cpu'
  /** A usable GPU was found: the estimate (for the CPU) is then too low. */
  gpu: string | null
}

/**
 * Multiply-adds per second one CPU core sustains on quantised weights with llama.cpp's SIMD kernels
 * (AVX2 or NEON), a conservative round figure: 25 GFLOP/s.
 */
export const FLOPS_PER_CORE = 25e9
/** English text averages about 1.33 tokens per word. */
export const WORDS_PER_TOKEN = 0.75

/** `"1.7B"` → 1.7e9, `"500M"` → 5e8; anything else is unknown. */
export function parseParameters(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMB])\s*$/i.exec(text)
  if (!match) return undefined
  const scale = { K: 1e3, M: 1e6, B: 1e9 }[(match[2] ?? '').toUpperCase() as 'K' | 'M' | 'B']
  return Number(match[1]) * scale
}

/**
 * Generation speed of a model on this machine's CPU, from first principles: every new token reads all
 * the weights once (so at most bandwidth ÷ file size tokens per second) and costs about two operations
 * per parameter (so at most cores × FLOPS_PER_CORE ÷ (2 × parameters)). The lower bound wins. An
 * estimate, documented in docs/providers-config.md; the real figure depends on the model and the load.
 */
export function estimateSpeed(
  model: { sizeBytes: number; parameters: string },
  machine: MachineProfile,
): SpeedEstimate | null {
  if (model.sizeBytes <= 0 || machine.memoryBandwidth <= 0 || machine.cpuCores <= 0) return null
  const byMemory = machine.memoryBandwidth / model.sizeBytes
  const parameters = parseParameters(model.parameters)
  const byCpu = parameters ? (machine.cpuCores * FLOPS_PER_CORE) / (2 * parameters) : Number.POSITIVE_INFINITY
  const tokensPerSecond = Math.min(byMemory, byCpu)
  return {
    tokensPerSecond,
    wordsPerSecond: tokensPerSecond * WORDS_PER_TOKEN,
    limitedBy: byCpu < byMemory ? 'cpu' : 'memory',
    gpu: machine.gpus[0] ?? null,
  }
}

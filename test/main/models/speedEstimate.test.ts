import { describe, expect, it } from 'vitest'
import { measureMemoryBandwidth } from '../../../src/main/models/machineProfile'
import {
  estimateSpeed,
  FLOPS_PER_CORE,
  type MachineProfile,
  parseParameters,
  WORDS_PER_TOKEN,
} from '../../../src/main/models/speedEstimate'

const GB = 1e9
const machine = (patch: Partial<MachineProfile> = {}): MachineProfile => ({
  cpuCores: 8,
  memoryBandwidth: 20 * GB,
  gpus: [],
  ...patch,
})

describe('the expected speed of a catalogue model on this machine', () => {
  it('reads the parameter count from the catalogue text', () => {
    expect(parseParameters('1.7B')).toBe(1.7e9)
    expect(parseParameters('8B')).toBe(8e9)
    expect(parseParameters('500M')).toBe(5e8)
    expect(parseParameters('tiny')).toBeUndefined()
  })

  it('with many cores the memory bandwidth caps it: bandwidth ÷ file size tokens per second', () => {
    const speed = estimateSpeed({ sizeBytes: 2.5 * GB, parameters: '4B' }, machine())
    expect(speed).toEqual({
      tokensPerSecond: 8,
      wordsPerSecond: 8 * WORDS_PER_TOKEN,
      limitedBy: 'memory',
      gpu: null,
    })
  })

  it('with few cores the arithmetic caps it: cores × FLOPS_PER_CORE ÷ (2 × parameters)', () => {
    const speed = estimateSpeed(
      { sizeBytes: 5 * GB, parameters: '8B' },
      machine({ cpuCores: 1, memoryBandwidth: 100 * GB }),
    )
    expect(speed?.limitedBy).toBe('cpu')
    expect(speed?.tokensPerSecond).toBeCloseTo(FLOPS_PER_CORE / 16e9)
  })

  it('a larger model on the same machine is slower, an unknown parameter count falls back to memory', () => {
    const small = estimateSpeed({ sizeBytes: 1.8 * GB, parameters: '1.7B' }, machine())
    const large = estimateSpeed({ sizeBytes: 5 * GB, parameters: '8B' }, machine())
    expect(small?.wordsPerSecond).toBeGreaterThan(large?.wordsPerSecond ?? Number.POSITIVE_INFINITY)
    expect(estimateSpeed({ sizeBytes: 2 * GB, parameters: 'tiny' }, machine({ cpuCores: 1 }))).toMatchObject({
      tokensPerSecond: 10,
      limitedBy: 'memory',
    })
  })

  it('names a usable GPU (the CPU estimate is then too low), and gives none without a measurement', () => {
    expect(estimateSpeed({ sizeBytes: GB, parameters: '1B' }, machine({ gpus: ['vulkan'] }))?.gpu).toBe(
      'vulkan',
    )
    expect(estimateSpeed({ sizeBytes: GB, parameters: '1B' }, machine({ memoryBandwidth: 0 }))).toBeNull()
  })

  it('the memory probe measures a finite positive bandwidth', () => {
    const bandwidth = measureMemoryBandwidth(4 * 1024 * 1024, 2)
    expect(Number.isFinite(bandwidth)).toBe(true)
    expect(bandwidth).toBeGreaterThan(0)
  })
})

// What the tiny test models' writers share: seeded random numbers, half floats, and running as a script.
import { fileURLToPath } from 'node:url'

/** A small seeded generator of numbers in [0, 1): the same seed gives the same weights on every machine. */
export function mulberry32(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const floatView = new Float32Array(1)
const bitsView = new Uint32Array(floatView.buffer)

/** IEEE half precision of a small float (no infinities or NaN needed here). */
export function toHalf(value: number): number {
  floatView[0] = value
  const x = bitsView[0] ?? 0
  const sign = (x >>> 16) & 0x8000
  const exponent = ((x >>> 23) & 0xff) - 127 + 15
  if (exponent <= 0) return sign
  if (exponent >= 31) return sign | 0x7bff
  return sign | (exponent << 10) | ((x >>> 13) & 0x3ff)
}

/** When the module at `moduleUrl` is the script being run: writes the file named by its argument. */
export function writeWhenRun(moduleUrl: string, usage: string, write: (out: string) => void): void {
  if (!process.argv[1] || fileURLToPath(moduleUrl) !== process.argv[1]) return
  const out = process.argv[2]
  if (!out) {
    console.error(`usage: ${usage}`)
    process.exit(2)
  }
  write(out)
  console.log(`wrote ${out}`)
}

/** One line of the benchmark table. */
export interface BenchRow {
  name: string
  value: number
  unit: string
  /** The target as text, e.g. "< 0.1 ms" or "≤ pandoc". */
  target?: string
  /** Whether the target is met; omitted for informative rows. */
  pass?: boolean
  note?: string
}

export type Bench = () => Promise<BenchRow[]>

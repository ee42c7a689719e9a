/** One run of text on a page, in top-down page coordinates (points). */
export interface TextRun {
  text: string
  x: number
  /** Baseline, measured from the top of the page. */
  y: number
  width: number
  size: number
  bold: boolean
  italic: boolean
}

/** Runs on one line that belong together (separated from neighbours by a wide gap). */
export interface Segment {
  text: string
  x0: number
  x1: number
  size: number
  bold: boolean
}

export interface Line {
  y: number
  x0: number
  x1: number
  size: number
  bold: boolean
  segments: Segment[]
  text: string
  /** Set on the stand-in line of a bordered table found from ruling lines. */
  table?: string[][]
}

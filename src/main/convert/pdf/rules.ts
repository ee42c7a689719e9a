/** A horizontal or vertical ruling line in top-down page coordinates. */
export interface Rule {
  orientation: 'h' | 'v'
  /** y for horizontal rules, x for vertical ones. */
  at: number
  from: number
  to: number
}

/** A PDF transformation matrix [a b c d e f]. */
export type Matrix = [number, number, number, number, number, number]

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0]

/** Strokes thinner than this (points) count as lines when they are filled rectangles. */
const MAX_LINE_THICKNESS = 2.5

/** `n` applied first, then `m`. */
export function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ]
}

export function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]
}

/**
 * The rules one painted polyline (top-down points) makes: a filled shape only when it is a thin bar
 * (larger fills are backgrounds), a stroked one each of its straight horizontal and vertical edges.
 */
export function edgesOf(points: [number, number][], filled: boolean, out: Rule[]): void {
  if (filled) {
    const xs = points.map((point) => point[0])
    const ys = points.map((point) => point[1])
    const width = Math.max(...xs) - Math.min(...xs)
    const height = Math.max(...ys) - Math.min(...ys)
    if (height <= MAX_LINE_THICKNESS && width > height) {
      out.push({
        orientation: 'h',
        at: (Math.max(...ys) + Math.min(...ys)) / 2,
        from: Math.min(...xs),
        to: Math.max(...xs),
      })
    } else if (width <= MAX_LINE_THICKNESS && height > width) {
      out.push({
        orientation: 'v',
        at: (Math.max(...xs) + Math.min(...xs)) / 2,
        from: Math.min(...ys),
        to: Math.max(...ys),
      })
    }
    return
  }
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1] as [number, number]
    const [x1, y1] = points[i] as [number, number]
    if (Math.abs(y1 - y0) < 0.5 && Math.abs(x1 - x0) > 1) {
      out.push({ orientation: 'h', at: y0, from: Math.min(x0, x1), to: Math.max(x0, x1) })
    } else if (Math.abs(x1 - x0) < 0.5 && Math.abs(y1 - y0) > 1) {
      out.push({ orientation: 'v', at: x0, from: Math.min(y0, y1), to: Math.max(y0, y1) })
    }
  }
}

/** A horizontal or vertical ruling line in top-down page coordinates. */
export interface Rule {
  orientation: 'h' | 'v'
  /** y for horizontal rules, x for vertical ones. */
  at: number
  from: number
  to: number
}

type Matrix = [number, number, number, number, number, number]

// Operator codes from pdf.js's OPS table and its path encoding (DrawOPS); stable across 4.x/5.x.
const OP = { save: 10, restore: 11, transform: 12, constructPath: 91, formBegin: 74, formEnd: 75 } as const
const PAINTING = new Set([20, 21, 22, 23, 24, 25, 26, 27])
const FILLS = new Set([22, 23])
const DRAW = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const

/** Strokes thinner than this (points) count as lines when they are filled rectangles. */
const MAX_LINE_THICKNESS = 2.5

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ]
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]
}

/** Splits a pdf.js path buffer into polylines (curves are skipped: they never make table borders). */
function polylines(path: ArrayLike<number>): [number, number][][] {
  const lines: [number, number][][] = []
  let current: [number, number][] = []
  for (let i = 0; i < path.length; ) {
    const op = path[i] as number
    if (op === DRAW.moveTo) {
      if (current.length > 1) lines.push(current)
      current = [[path[i + 1] as number, path[i + 2] as number]]
      i += 3
    } else if (op === DRAW.lineTo) {
      current.push([path[i + 1] as number, path[i + 2] as number])
      i += 3
    } else if (op === DRAW.curveTo) {
      if (current.length > 1) lines.push(current)
      current = [[path[i + 5] as number, path[i + 6] as number]]
      i += 7
    } else if (op === DRAW.quadraticCurveTo) {
      if (current.length > 1) lines.push(current)
      current = [[path[i + 3] as number, path[i + 4] as number]]
      i += 5
    } else {
      const first = current[0]
      if (op === DRAW.closePath && first && current.length > 1) current.push(first)
      i += 1
    }
  }
  if (current.length > 1) lines.push(current)
  return lines
}

function edgesOf(points: [number, number][], filled: boolean, out: Rule[]): void {
  const xs = points.map((point) => point[0])
  const ys = points.map((point) => point[1])
  const width = Math.max(...xs) - Math.min(...xs)
  const height = Math.max(...ys) - Math.min(...ys)
  if (filled) {
    // A filled shape is a rule only when it is a thin bar; larger fills are backgrounds.
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

/**
 * The straight horizontal and vertical lines a page draws (stroked paths and thin filled bars), in
 * top-down page coordinates: the borders that bordered tables are made of.
 */
export function extractRules(
  operators: { fnArray: number[]; argsArray: unknown[] },
  pageTop: number,
): Rule[] {
  const rules: Rule[] = []
  let matrix: Matrix = [1, 0, 0, 1, 0, 0]
  const stack: Matrix[] = []
  for (const [index, op] of operators.fnArray.entries()) {
    const args = operators.argsArray[index] as unknown[] | null
    if (op === OP.save) stack.push(matrix)
    else if (op === OP.restore) matrix = stack.pop() ?? matrix
    else if (op === OP.transform && args) matrix = multiply(matrix, args as Matrix)
    else if (op === OP.formBegin && args) {
      stack.push(matrix)
      if (Array.isArray(args[0]) || ArrayBuffer.isView(args[0]))
        matrix = multiply(matrix, Array.from(args[0] as ArrayLike<number>) as Matrix)
    } else if (op === OP.formEnd) matrix = stack.pop() ?? matrix
    else if (op === OP.constructPath && args) {
      const paint = args[0] as number
      const path = (args[1] as (ArrayLike<number> | null)[] | undefined)?.[0]
      if (!path || !PAINTING.has(paint)) continue
      for (const line of polylines(path)) {
        const points = line.map(([x, y]) => {
          const [px, py] = apply(matrix, x, y)
          return [px, pageTop - py] as [number, number]
        })
        edgesOf(points, FILLS.has(paint), rules)
      }
    }
  }
  return rules
}

import type { Pdfium } from './pdfium'
import { ObjectType, type Ptr, SegmentType } from './pdfiumExports'
import { apply, edgesOf, IDENTITY, type Matrix, multiply, type Rule } from './rules'

/** Form XObjects nest; PDFium refuses cycles, this bounds the depth of honest ones. */
const MAX_FORM_DEPTH = 12

// Out-parameter offsets in the engine's scratch area.
const MATRIX = 0
const POINT = 32
const MODE = 48

export interface ImageObject {
  object: Ptr
  width: number
  height: number
}

interface Walk {
  engine: Pdfium
  top: number
  rules?: Rule[]
  largest?: ImageObject
}

function matrixOf(engine: Pdfium, object: Ptr): Matrix {
  const scratch = engine.heap.scratch
  if (!engine.x.FPDFPageObj_GetMatrix(object, scratch + MATRIX)) return IDENTITY
  return engine.heap.matrix(scratch + MATRIX)
}

/** The path's polylines in top-down page coordinates; curves end one (they never make table borders). */
function polylines(walk: Walk, path: Ptr, matrix: Matrix): [number, number][][] {
  const { x, heap } = walk.engine
  const scratch = heap.scratch
  const lines: [number, number][][] = []
  let current: [number, number][] = []
  const count = x.FPDFPath_CountSegments(path)
  for (let index = 0; index < count; index++) {
    const segment = x.FPDFPath_GetPathSegment(path, index)
    if (!segment || !x.FPDFPathSegment_GetPoint(segment, scratch + POINT, scratch + POINT + 4)) continue
    const [px, py] = apply(matrix, heap.f32(scratch + POINT), heap.f32(scratch + POINT + 4))
    const point: [number, number] = [px, walk.top - py]
    const type = x.FPDFPathSegment_GetType(segment)
    if (type === SegmentType.lineTo) current.push(point)
    else {
      // A move starts a polyline; so does each point of a curve, the last one being where it ends.
      if (current.length > 1) lines.push(current)
      current = [point]
    }
    const first = current[0]
    if (x.FPDFPathSegment_GetClose(segment) && first && current.length > 1) current.push(first)
  }
  if (current.length > 1) lines.push(current)
  return lines
}

function pathRules(walk: Walk, path: Ptr, outer: Matrix, rules: Rule[]): void {
  const { x, heap } = walk.engine
  const scratch = heap.scratch
  if (!x.FPDFPath_GetDrawMode(path, scratch + MODE, scratch + MODE + 4)) return
  const filled = heap.i32(scratch + MODE) !== 0
  const stroked = heap.i32(scratch + MODE + 4) !== 0
  // Neither filled nor stroked: a clipping path, nothing drawn.
  if (!filled && !stroked) return
  const matrix = multiply(outer, matrixOf(walk.engine, path))
  for (const line of polylines(walk, path, matrix)) edgesOf(line, !stroked, rules)
}

function noteImage(walk: Walk, image: Ptr): void {
  const { x, heap } = walk.engine
  const scratch = heap.scratch
  if (!x.FPDFImageObj_GetImagePixelSize(image, scratch + POINT, scratch + POINT + 4)) return
  const width = heap.i32(scratch + POINT) >>> 0
  const height = heap.i32(scratch + POINT + 4) >>> 0
  const best = walk.largest
  if (!best || width * height > best.width * best.height) walk.largest = { object: image, width, height }
}

function visit(walk: Walk, object: Ptr, outer: Matrix, depth: number): void {
  const { x } = walk.engine
  const type = x.FPDFPageObj_GetType(object)
  if (type === ObjectType.path && walk.rules) pathRules(walk, object, outer, walk.rules)
  else if (type === ObjectType.image && !walk.rules) noteImage(walk, object)
  else if (type === ObjectType.form && depth < MAX_FORM_DEPTH) {
    const inner = multiply(outer, matrixOf(walk.engine, object))
    const count = x.FPDFFormObj_CountObjects(object)
    for (let index = 0; index < count; index++) {
      const child = x.FPDFFormObj_GetObject(object, index)
      if (child) visit(walk, child, inner, depth + 1)
    }
  }
}

function walkPage(walk: Walk, page: Ptr): void {
  const { x } = walk.engine
  const count = x.FPDFPage_CountObjects(page)
  for (let index = 0; index < count; index++) {
    const object = x.FPDFPage_GetObject(page, index)
    if (object) visit(walk, object, IDENTITY, 0)
  }
}

/**
 * The straight horizontal and vertical lines a page draws (stroked paths and thin filled bars, in forms
 * too), in top-down page coordinates: the borders that bordered tables are made of.
 */
export function pageRules(engine: Pdfium, page: Ptr, top: number): Rule[] {
  const walk: Walk = { engine, top, rules: [] }
  walkPage(walk, page)
  return walk.rules ?? []
}

/** The image with the most pixels that the page draws (in forms too), not yet decoded. */
export function largestImage(engine: Pdfium, page: Ptr): ImageObject | undefined {
  const walk: Walk = { engine, top: 0 }
  walkPage(walk, page)
  return walk.largest
}

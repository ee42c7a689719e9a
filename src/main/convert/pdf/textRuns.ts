import type { Pdfium } from './pdfium'
import { FontFlag, type Ptr } from './pdfiumExports'
import type { TextRun } from './types'

// Runs are cut where pdf.js cut its text items, which the layout code (lines.ts, tables.ts) was tuned
// on: a gap wider than 0.6 em starts a new run, one wider than 0.102 em is a space inside it.
const RUN_GAP_EM = 0.6
const SPACE_GAP_EM = 0.102
/**
 * A character may start before the run's end (the parts of a ligature PDFium splits share its advance,
 * accents are drawn back over their letter), but not this far before the previous character's origin.
 */
const BACKSTEP_EM = 0.5
/** A baseline shift larger than this (sub- and superscripts) starts a new run; lines.ts regroups them. */
const BASELINE_EM = 0.25

const SPACE = 0x20
const CR = 0x0d
const LF = 0x0a
const MAX_CODE_POINT = 0x10ffff
/** PDFium's stand-in for a hyphen that ends a line (FPDFText_IsHyphen); the page has a hyphen there. */
const LINE_END_HYPHEN = 0x02

// Out-parameter offsets in the engine's scratch area.
const ORIGIN = 0
const BOX = 16
const MATRIX = 32
const FLAGS = 56
const NAME = 64
const NAME_BYTES = 448

interface Style {
  /** Effective size in points (the Tf size through the text matrix and page transformation), to 0.5. */
  size: number
  bold: boolean
  italic: boolean
  /** False for rotated or skewed text, which is left out as before. */
  upright: boolean
}

interface OpenRun {
  text: string
  x: number
  baseline: number
  right: number
  /** The origin of the last character. */
  last: number
  style: Style
  /** PDFium put a space here (a word gap drawn without a space character). */
  space: boolean
  /** Where the space character that ends the text starts, and where the text before it ended. */
  spaceAt?: number
  beforeSpace: number
  /** Right-to-left text: characters come in reading order, each drawn left of the one before. */
  rtl: boolean
}

const BOLD_NAME = /bold|black|heavy|semibold|demi/i
const ITALIC_NAME = /italic|oblique/i
const utf8 = new TextDecoder()

function styleOf(engine: Pdfium, textPage: Ptr, index: number): Style {
  const { x, heap } = engine
  const scratch = heap.scratch
  const fontSize = x.FPDFText_GetFontSize(textPage, index)
  x.FPDFText_GetMatrix(textPage, index, scratch + MATRIX)
  const [a = 1, b = 0, c = 0, d = 1] = heap.f32s(scratch + MATRIX, 4)
  const length = x.FPDFText_GetFontInfo(textPage, index, scratch + NAME, NAME_BYTES, scratch + FLAGS)
  const flags = length > 0 ? heap.i32(scratch + FLAGS) : 0
  const end = scratch + NAME + Math.max(0, Math.min(length, NAME_BYTES) - 1)
  // A subset's tag ("ABCDEF+") could spell a style by chance.
  const name = utf8.decode(heap.u8().subarray(scratch + NAME, end)).replace(/^[A-Z]{6}\+/, '')
  return {
    size: Math.round(fontSize * Math.hypot(c, d) * 2) / 2,
    bold: BOLD_NAME.test(name) || (flags & FontFlag.forceBold) !== 0,
    italic: ITALIC_NAME.test(name) || (flags & FontFlag.italic) !== 0,
    upright: Math.abs(b) <= Math.abs(a) * 0.1 && Math.abs(c) <= Math.abs(d) * 0.1,
  }
}

function sameStyle(a: Style, b: Style): boolean {
  return a === b || (a.size === b.size && a.bold === b.bold && a.italic === b.italic)
}

/** Hebrew, Arabic, Syriac, Thaana, N'Ko... and their presentation forms. */
function isRtl(unicode: number): boolean {
  return (
    (unicode >= 0x0590 && unicode <= 0x08ff) ||
    (unicode >= 0xfb1d && unicode <= 0xfdff) ||
    (unicode >= 0xfe70 && unicode <= 0xfefc) ||
    (unicode >= 0x10800 && unicode <= 0x10fff) ||
    (unicode >= 0x1e800 && unicode <= 0x1efff)
  )
}

/** Whether the character goes on leftwards, as right-to-left text does. */
function leftwards(run: OpenRun, unicode: number, x: number): boolean {
  return (run.rtl || isRtl(unicode)) && x < run.last
}

function continues(
  run: OpenRun,
  style: Style,
  x: number,
  right: number,
  baseline: number,
  rtl: boolean,
): boolean {
  const size = style.size
  if (!sameStyle(run.style, style) || Math.abs(baseline - run.baseline) > BASELINE_EM * size) return false
  if (rtl) {
    const gap = run.x - right
    return gap <= RUN_GAP_EM * size && gap >= -BACKSTEP_EM * size
  }
  return x - run.right <= RUN_GAP_EM * size && x >= run.last - BACKSTEP_EM * size
}

function appendTo(run: OpenRun, char: string, x: number, right: number, rtl: boolean): void {
  const gap = rtl ? run.x - right : x - run.right
  const wordGap = run.space || gap > SPACE_GAP_EM * run.style.size
  // A space character the next glyph is drawn over (some producers draw one under each link) is no gap.
  const overdrawn = run.spaceAt !== undefined && char !== ' ' && x < (run.spaceAt + run.right) / 2
  if (overdrawn && x - run.beforeSpace <= SPACE_GAP_EM * run.style.size) run.text = run.text.slice(0, -1)
  else if (wordGap && !run.text.endsWith(' ') && char !== ' ') run.text += ' '
  run.spaceAt = char === ' ' ? x : undefined
  if (char === ' ') run.beforeSpace = rtl ? run.x : run.right
  run.text += char
  run.right = Math.max(run.right, right)
  run.x = Math.min(run.x, x)
  run.last = x
  run.rtl ||= rtl
  run.space = false
}

function toRun(run: OpenRun, top: number): TextRun {
  const { size, bold, italic } = run.style
  return { text: run.text, x: run.x, y: top - run.baseline, width: run.right - run.x, size, bold, italic }
}

/**
 * The text of one page as runs (text, origin, width, size, style) from PDFium's characters, in
 * top-down page coordinates: consecutive characters of one style on one baseline, cut at wide gaps.
 * PDFium's own line breaks are dropped (lines.ts groups runs by baseline); its word spaces are kept.
 */
export function textRuns(engine: Pdfium, textPage: Ptr, top: number): TextRun[] {
  const { x, heap } = engine
  const scratch = heap.scratch
  const runs: TextRun[] = []
  const styles = new Map<Ptr, Style>()
  let run: OpenRun | undefined
  let lastObject = -1
  let style: Style | undefined
  const count = x.FPDFText_CountChars(textPage)
  for (let index = 0; index < count; index++) {
    const unicode = x.FPDFText_GetUnicode(textPage, index)
    if (unicode === CR || unicode === LF || unicode === 0 || unicode > MAX_CODE_POINT) continue
    if (unicode === SPACE && x.FPDFText_IsGenerated(textPage, index)) {
      if (run) run.space = true
      continue
    }
    const object = x.FPDFText_GetTextObject(textPage, index)
    if (object !== lastObject || !style) {
      style = styles.get(object) ?? styleOf(engine, textPage, index)
      styles.set(object, style)
      lastObject = object
    }
    if (!style.upright || style.size <= 0) continue
    x.FPDFText_GetCharOrigin(textPage, index, scratch + ORIGIN, scratch + ORIGIN + 8)
    const originX = heap.f64(scratch + ORIGIN)
    const baseline = heap.f64(scratch + ORIGIN + 8)
    x.FPDFText_GetLooseCharBox(textPage, index, scratch + BOX)
    const right = Math.max(originX, heap.f32(scratch + BOX + 8))
    const char = unicode === LINE_END_HYPHEN ? '-' : String.fromCodePoint(unicode)
    const rtl = run !== undefined && leftwards(run, unicode, originX)
    if (run && continues(run, style, originX, right, baseline, rtl)) {
      appendTo(run, char, originX, right, rtl)
      continue
    }
    if (run) runs.push(toRun(run, top))
    run = {
      text: char,
      x: originX,
      baseline,
      right,
      last: originX,
      beforeSpace: originX,
      style,
      space: false,
      rtl: false,
    }
  }
  if (run) runs.push(toRun(run, top))
  return runs
}

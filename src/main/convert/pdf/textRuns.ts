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
  /**
   * How far the baseline sits above the bottom of a character's loose box. Set for text drawn left to
   * right (not mirrored), whose origin is then the box's left edge: one call per character instead of two.
   */
  baselineAbove?: number
}

const BOLD_NAME = /bold|black|heavy|semibold|demi/i
const ITALIC_NAME = /italic|oblique/i
const utf8 = new TextDecoder()
const utf16 = new TextDecoder('utf-16le')

function fontName(engine: Pdfium, textPage: Ptr, index: number): { name: string; flags: number } {
  const { x, heap } = engine
  const scratch = heap.scratch
  const length = x.FPDFText_GetFontInfo(textPage, index, scratch + NAME, NAME_BYTES, scratch + FLAGS)
  if (length <= 0) return { name: '', flags: 0 }
  const end = scratch + NAME + Math.max(0, Math.min(length, NAME_BYTES) - 1)
  // A subset's tag ("ABCDEF+") could spell a style by chance.
  const name = utf8.decode(heap.u8().subarray(scratch + NAME, end)).replace(/^[A-Z]{6}\+/, '')
  return { name, flags: heap.i32(scratch + FLAGS) }
}

/** The baseline's height above the loose box's bottom, when the box's left edge is the origin. */
function baselineAbove(engine: Pdfium, textPage: Ptr, index: number): number | undefined {
  const { x, heap } = engine
  const scratch = heap.scratch
  x.FPDFText_GetCharOrigin(textPage, index, scratch + ORIGIN, scratch + ORIGIN + 8)
  x.FPDFText_GetLooseCharBox(textPage, index, scratch + BOX)
  const offset = heap.f64(scratch + ORIGIN) - heap.f32(scratch + BOX)
  return Math.abs(offset) < 0.01 ? heap.f64(scratch + ORIGIN + 8) - heap.f32(scratch + BOX + 12) : undefined
}

function styleOf(engine: Pdfium, textPage: Ptr, index: number): Style {
  const { x, heap } = engine
  const scratch = heap.scratch
  const fontSize = x.FPDFText_GetFontSize(textPage, index)
  x.FPDFText_GetMatrix(textPage, index, scratch + MATRIX)
  const [a, b, c, d] = heap.matrix(scratch + MATRIX)
  const { name, flags } = fontName(engine, textPage, index)
  const upright = Math.abs(b) <= Math.abs(a) * 0.1 && Math.abs(c) <= Math.abs(d) * 0.1
  return {
    size: Math.round(fontSize * Math.hypot(c, d) * 2) / 2,
    bold: BOLD_NAME.test(name) || (flags & FontFlag.forceBold) !== 0,
    italic: ITALIC_NAME.test(name) || (flags & FontFlag.italic) !== 0,
    upright,
    baselineAbove: upright && a > 0 && d > 0 ? baselineAbove(engine, textPage, index) : undefined,
  }
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

/**
 * The run being built. Its fields are plain numbers and strings, updated in place by one loop: the
 * loop runs once per character, mostly before V8 has optimised it, where each call and object costs.
 */
class RunBuilder {
  text = ''
  x = 0
  baseline = 0
  right = 0
  /** The origin of the last character. */
  last = 0
  size = 0
  bold = false
  italic = false
  /** PDFium put a space here (a word gap drawn without a space character). */
  space = false
  /** Where the space character that ends the text starts (-Infinity: it does not end in one)... */
  spaceAt = Number.NEGATIVE_INFINITY
  /** ...and where the text before that space ended. */
  beforeSpace = 0
  /** Right-to-left text: characters come in reading order, each drawn left of the one before. */
  rtl = false
  open = false

  constructor(
    private readonly top: number,
    private readonly out: TextRun[],
  ) {}

  start(char: string, x: number, right: number, baseline: number, style: Style): void {
    this.close()
    this.text = char
    this.x = x
    this.last = x
    this.beforeSpace = x
    this.right = right
    this.baseline = baseline
    this.size = style.size
    this.bold = style.bold
    this.italic = style.italic
    this.space = false
    this.spaceAt = Number.NEGATIVE_INFINITY
    this.rtl = false
    this.open = true
  }

  /** Appends the character if it continues the run (same style and baseline, no wide gap). */
  extend(char: string, rtlChar: boolean, x: number, right: number, baseline: number, style: Style): boolean {
    const size = this.size
    if (!this.open || style.size !== size || style.bold !== this.bold || style.italic !== this.italic)
      return false
    if (Math.abs(baseline - this.baseline) > BASELINE_EM * size) return false
    const rtl = (this.rtl || rtlChar) && x < this.last
    const gap = rtl ? this.x - right : x - this.right
    if (gap > RUN_GAP_EM * size) return false
    if (rtl ? gap < -BACKSTEP_EM * size : x < this.last - BACKSTEP_EM * size) return false
    const isSpace = char === ' '
    // A space character the next glyph is drawn over (some producers draw one under each link) is no gap.
    const overdrawn = !isSpace && x < (this.spaceAt + this.right) / 2
    if (overdrawn && x - this.beforeSpace <= SPACE_GAP_EM * size) this.text = this.text.slice(0, -1)
    else if ((this.space || gap > SPACE_GAP_EM * size) && !isSpace && !this.text.endsWith(' '))
      this.text += ' '
    if (isSpace) {
      this.spaceAt = x
      this.beforeSpace = rtl ? this.x : this.right
    } else this.spaceAt = Number.NEGATIVE_INFINITY
    this.text += char
    if (right > this.right) this.right = right
    if (x < this.x) this.x = x
    this.last = x
    if (rtl) this.rtl = true
    this.space = false
    return true
  }

  close(): void {
    if (!this.open) return
    this.open = false
    const { text, x, right, size, bold, italic } = this
    this.out.push({ text, x, y: this.top - this.baseline, width: right - x, size, bold, italic })
  }
}

/** The page's characters as one string, one UTF-16 unit each; undefined when one is outside the BMP. */
function pageText(engine: Pdfium, textPage: Ptr, count: number): string | undefined {
  const { x, heap } = engine
  const buffer = x.malloc((count + 1) * 2)
  if (!buffer) return undefined
  try {
    if (x.FPDFText_GetText(textPage, 0, count, buffer) !== count + 1) return undefined
    const text = utf16.decode(heap.u8().subarray(buffer, buffer + count * 2))
    return text.length === count ? text : undefined
  } finally {
    x.free(buffer)
  }
}

/** Reads a float32 of the engine's memory: from a view taken once, or checked on each read. */
type FloatReader = (ptr: Ptr) => number

function collect(engine: Pdfium, textPage: Ptr, top: number, text: string | undefined, f32: FloatReader) {
  const { x, heap } = engine
  const box = heap.scratch + BOX
  const origin = heap.scratch + ORIGIN
  const runs: TextRun[] = []
  const run = new RunBuilder(top, runs)
  const styles = new Map<Ptr, Style>()
  let lastObject = -1
  let style: Style | undefined
  const count = x.FPDFText_CountChars(textPage)
  for (let index = 0; index < count; index++) {
    const unicode = text === undefined ? x.FPDFText_GetUnicode(textPage, index) : text.charCodeAt(index)
    if (unicode === CR || unicode === LF || unicode === 0 || unicode > MAX_CODE_POINT) continue
    if (unicode === SPACE && x.FPDFText_IsGenerated(textPage, index)) {
      run.space = true
      continue
    }
    const object = x.FPDFText_GetTextObject(textPage, index)
    if (object !== lastObject || style === undefined) {
      style = styles.get(object)
      if (style === undefined) {
        style = styleOf(engine, textPage, index)
        styles.set(object, style)
      }
      lastObject = object
    }
    if (!style.upright || style.size <= 0) continue
    x.FPDFText_GetLooseCharBox(textPage, index, box)
    let left = f32(box)
    let baseline = 0
    if (style.baselineAbove === undefined) {
      x.FPDFText_GetCharOrigin(textPage, index, origin, origin + 8)
      left = heap.f64(origin)
      baseline = heap.f64(origin + 8)
    } else baseline = f32(box + 12) + style.baselineAbove
    const boxRight = f32(box + 8)
    const right = Math.max(boxRight, left)
    // PDFium's stand-ins for a hyphen that ends a line (FPDFText_IsHyphen): U+0002 from GetUnicode,
    // U+FFFE in GetText; the page has a hyphen there.
    const char =
      unicode === 0x02 || unicode === 0xfffe
        ? '-'
        : text === undefined
          ? String.fromCodePoint(unicode)
          : (text[index] as string)
    if (!run.extend(char, unicode >= 0x0590 && isRtl(unicode), left, right, baseline, style))
      run.start(char, left, right, baseline, style)
  }
  run.close()
  return runs
}

/**
 * The text of one page as runs (text, origin, width, size, style) from PDFium's characters, in
 * top-down page coordinates: consecutive characters of one style on one baseline, cut at wide gaps.
 * PDFium's own line breaks are dropped (lines.ts groups runs by baseline); its word spaces are kept.
 */
export function textRuns(engine: Pdfium, textPage: Ptr, top: number): TextRun[] {
  const { heap } = engine
  const text = pageText(engine, textPage, engine.x.FPDFText_CountChars(textPage))
  // The calls in the loop allocate nothing, so a view taken now stays valid; should the memory have
  // grown all the same, the page is read again checking the memory on every read.
  const view = heap.floatView()
  const runs = collect(engine, textPage, top, text, (ptr) => view[ptr >> 2] as number)
  return heap.grew(view) ? collect(engine, textPage, top, text, (ptr) => heap.f32(ptr)) : runs
}

import type { CellStyle } from '../../../shared/ipc'
import { elements, firstElement } from './xml'

/** The number formats Excel does not write into styles.xml (ECMA-376 18.8.30). */
const BUILTIN_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'm/d/yyyy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yyyy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
}

/** The palette of `indexed` colours 8..63 that old files and some generators still use. */
const INDEXED: readonly string[] = [
  '000000',
  'FFFFFF',
  'FF0000',
  '00FF00',
  '0000FF',
  'FFFF00',
  'FF00FF',
  '00FFFF',
  '800000',
  '008000',
  '000080',
  '808000',
  '800080',
  '008080',
  'C0C0C0',
  '808080',
  '9999FF',
  '993366',
  'FFFFCC',
  'CCFFFF',
  '660066',
  'FF8080',
  '0066CC',
  'CCCCFF',
  '000080',
  'FF00FF',
  'FFFF00',
  '00FFFF',
  '800080',
  '800000',
  '008080',
  '0000FF',
  '00CCFF',
  'CCFFFF',
  'CCFFCC',
  'FFFF99',
  '99CCFF',
  'FF99CC',
  'CC99FF',
  'FFCC99',
  '3366FF',
  '33CCCC',
  '99CC00',
  'FFCC00',
  'FF9900',
  'FF6600',
  '666699',
  '969696',
  '003366',
  '339966',
  '003300',
  '333300',
  '993300',
  '993366',
  '333399',
  '333333',
]

function colorOf(attrs: Record<string, string> | undefined): string | undefined {
  if (!attrs) return undefined
  const rgb = attrs.rgb
  if (rgb && /^[0-9A-Fa-f]{6,8}$/.test(rgb)) return `#${rgb.slice(-6).toLowerCase()}`
  const indexed = attrs.indexed === undefined ? undefined : Number(attrs.indexed)
  if (indexed !== undefined && indexed >= 8 && indexed < 64)
    return `#${(INDEXED[indexed - 8] ?? '000000').toLowerCase()}`
  return undefined
}

export interface WorkbookStyles {
  /** Style of each cellXfs entry (`s` of a cell), empty styles as `{}`. */
  styles: CellStyle[]
  /** Number format of each cellXfs entry. */
  formats: string[]
}

const BORDER_SIDES = ['top', 'right', 'bottom', 'left'] as const

/** Fonts, fills, borders, alignment and number formats of `xl/styles.xml`, resolved per cell style. */
export function readStyles(xml: string | undefined): WorkbookStyles {
  if (!xml) return { styles: [{}], formats: ['General'] }
  const numFmts = new Map<number, string>()
  const numFmtsXml = firstElement(xml, 'numFmts')?.inner ?? ''
  for (const f of elements(numFmtsXml, 'numFmt'))
    numFmts.set(Number(f.attrs.numFmtId), f.attrs.formatCode ?? 'General')

  const fonts = [...elements(firstElement(xml, 'fonts')?.inner ?? '', 'font')].map((font) => {
    const b = firstElement(font.inner, 'b')
    const i = firstElement(font.inner, 'i')
    const u = firstElement(font.inner, 'u')
    const on = (e: typeof b) => e !== undefined && e.attrs.val !== '0' && e.attrs.val !== 'false'
    const color = colorOf(firstElement(font.inner, 'color')?.attrs)
    return { bold: on(b), italic: on(i), underline: on(u), color }
  })
  const fills = [...elements(firstElement(xml, 'fills')?.inner ?? '', 'fill')].map((fill) => {
    const pattern = firstElement(fill.inner, 'patternFill')
    if (!pattern || pattern.attrs.patternType === 'none' || !pattern.attrs.patternType) return undefined
    return (
      colorOf(firstElement(pattern.inner, 'fgColor')?.attrs) ??
      colorOf(firstElement(pattern.inner, 'bgColor')?.attrs)
    )
  })
  const borders = [...elements(firstElement(xml, 'borders')?.inner ?? '', 'border')].map((border) => {
    const sides: Partial<Record<(typeof BORDER_SIDES)[number], string>> = {}
    for (const side of BORDER_SIDES) {
      const style = firstElement(border.inner, side)?.attrs.style
      if (style && style !== 'none') sides[side] = style
    }
    return Object.keys(sides).length ? sides : undefined
  })

  const styles: CellStyle[] = []
  const formats: string[] = []
  for (const xf of elements(firstElement(xml, 'cellXfs')?.inner ?? '', 'xf')) {
    const id = Number(xf.attrs.numFmtId ?? 0)
    formats.push(numFmts.get(id) ?? BUILTIN_FORMATS[id] ?? 'General')
    const style: CellStyle = {}
    const font = fonts[Number(xf.attrs.fontId ?? 0)]
    if (font?.bold) style.bold = true
    if (font?.italic) style.italic = true
    if (font?.underline) style.underline = true
    if (font?.color && font.color !== '#000000') style.color = font.color
    const fill = fills[Number(xf.attrs.fillId ?? 0)]
    if (fill) style.fill = fill
    const border = borders[Number(xf.attrs.borderId ?? 0)]
    if (border) style.borders = border
    const alignment = firstElement(xf.inner, 'alignment')?.attrs
    const horizontal = alignment?.horizontal
    if (
      horizontal === 'left' ||
      horizontal === 'center' ||
      horizontal === 'right' ||
      horizontal === 'justify'
    )
      style.align = horizontal
    else if (horizontal === 'centerContinuous') style.align = 'center'
    if (alignment?.wrapText === '1' || alignment?.wrapText === 'true') style.wrap = true
    styles.push(style)
  }
  if (styles.length === 0) {
    styles.push({})
    formats.push('General')
  }
  return { styles, formats }
}

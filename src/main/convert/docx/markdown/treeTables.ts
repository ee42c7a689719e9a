import { Unsupported } from './buildTree'
import { children, descendants, LightElement, rows, textContent } from './lightDom'
import type { Rule } from './turndownTree'

// The GFM plugin's table rules (@joplin/turndown-plugin-gfm 1.0.68) on the light tree. Cells never
// carry `align` or `style` here (buildTree.ts admits neither), so every column's border is `---`; a
// table holding a list, heading or quote, which the plugin writes as HTML, is left to the DOM path.

const HTML_CONTENT = new Set('UL OL H1 H2 H3 H4 H5 H6 HR BLOCKQUOTE'.split(' '))
const BORDER = '---'
const skipped = new WeakMap<LightElement, boolean>()

function parentTable(node: LightElement): LightElement | null {
  let parent = node.parent
  while (parent && parent.name !== 'TABLE') parent = parent.parent
  return parent
}

const childCount = (node: LightElement) => children(node).length
const containsTable = (node: LightElement) =>
  descendants(node, (element) => element.name === 'TABLE').length > 0

/** Tables written cell after cell, as paragraphs: one cell, or a table inside. */
function isSkipped(table: LightElement | null): boolean {
  if (!table) return true
  let result = skipped.get(table)
  if (result === undefined) {
    const found = rows(table)
    result = (found.length === 1 && childCount(found[0] as LightElement) <= 1) || containsTable(table)
    skipped.set(table, result)
  }
  return result
}

function columnCount(table: LightElement): number {
  let most = 0
  for (const row of rows(table)) most = Math.max(most, childCount(row))
  return most
}

function isFirstBody(element: LightElement): boolean {
  const previous = element.previous
  return (
    element.name === 'TBODY' &&
    (!previous ||
      (previous instanceof LightElement && previous.name === 'THEAD' && /^\s*$/.test(textContent(previous))))
  )
}

function isHeadingRow(row: LightElement): boolean {
  const parent = row.parent as LightElement
  return (
    parent.name === 'THEAD' ||
    (parent.first === row &&
      (parent.name === 'TABLE' || isFirstBody(parent)) &&
      children(row).every((cell) => cell instanceof LightElement && cell.name === 'TH'))
  )
}

function cell(content: string, node: LightElement | null, index: number): string {
  const prefix = index === 0 ? '| ' : ' '
  let filtered = content.trim().replace(/\n\r/g, '<br>').replace(/\n/g, '<br>').replace(/\|+/g, '\\|')
  while (filtered.length < 3) filtered += ' '
  if (node) {
    const colspan = Number(node.attribute('colspan') || 1)
    for (let column = 1; column < colspan; column++) filtered += ' |    '
  }
  return `${prefix}${filtered} |`
}

export const tableCellRule: Rule = (content, node) => {
  if (isSkipped(parentTable(node))) return content
  const parent = node.parent as LightElement
  return cell(content, node, children(parent).indexOf(node))
}

export const tableRowRule: Rule = (content, node) => {
  const table = parentTable(node)
  if (isSkipped(table)) return content
  let borders = ''
  if (isHeadingRow(node)) {
    const cells = children(node)
    const columns = columnCount(table as LightElement)
    for (let index = 0; index < columns; index++) {
      const child = cells[index]
      borders += cell(BORDER, child instanceof LightElement ? child : null, index)
    }
  }
  return `\n${content}${borders ? `\n${borders}` : ''}`
}

export const tableRule: Rule = (content, node) => {
  if (descendants(node, (element) => HTML_CONTENT.has(element.name)).length > 0)
    throw new Unsupported('a table the GFM plugin keeps as HTML')
  if (isSkipped(node)) return content
  const lines = content.replace(/\n+/g, '\n')
  const split = lines.trim().split('\n')
  const second = split.length >= 2 ? split[1] : split.join(',')
  const columns = columnCount(node)
  let emptyHeader = ''
  if (columns && !/\| :?---/.test(second ?? '')) {
    emptyHeader = `|${'     |'.repeat(columns)}\n|`
    for (let index = 0; index < columns; index++) emptyHeader += ` ${BORDER} |`
  }
  return `\n\n${`${emptyHeader}${lines}`.trimStart()}\n\n`
}

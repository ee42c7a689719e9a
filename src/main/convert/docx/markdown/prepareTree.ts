import { unwrapRedirect } from '../../markdown/redirects'
import {
  cells,
  descendants,
  LightElement,
  LightText,
  moveChildren,
  replace,
  rows,
  textContent,
} from './lightDom'

// htmlToMarkdown.ts's `prepare` on the light tree, edit for edit: blocks inside table cells become lines,
// nested tables one line of text, a table without header cells has its first row promoted, links are
// unwrapped from redirects (and `javascript:` ones lose their target). The tags it drops (script, style,
// svg...) are never in the tree (buildTree.ts).

const BLOCK_IN_CELL = new Set('P DIV UL OL LI H1 H2 H3 H4 H5 H6 BLOCKQUOTE PRE HR DL DT DD'.split(' '))
const isCell = (element: LightElement) => element.name === 'TD' || element.name === 'TH'

function tableText(table: LightElement): string {
  const found = descendants(table, isCell)
  if (found.length === 0) return textContent(table)
  return found.map((cell) => textContent(cell).replace(/\s+/g, ' ').trim()).join(' ')
}

function flattenCell(cell: LightElement): void {
  if (!cell.first) return
  const nestedTables: LightElement[] = []
  const blocks = descendants(cell, (element) => {
    if (element.name === 'TABLE') nestedTables.push(element)
    return BLOCK_IN_CELL.has(element.name)
  })
  if (nestedTables.length === 0 && blocks.length === 0) return
  for (const nested of nestedTables) replace(nested, new LightText(` ${tableText(nested)} `))
  for (const block of blocks.reverse()) {
    const fragment = new LightElement('#fragment')
    if (block.name === 'LI') fragment.append(new LightText('• '))
    if (/^H\d$/.test(block.name)) {
      const strong = new LightElement('STRONG')
      moveChildren(block, strong)
      fragment.append(strong)
    } else {
      moveChildren(block, fragment)
    }
    if (block.next || block.name === 'LI') fragment.append(new LightElement('BR'))
    replace(block, fragment)
  }
}

function normaliseTable(table: LightElement): void {
  for (const cell of descendants(table, isCell)) flattenCell(cell)
  const first = rows(table)[0]
  if (!first || descendants(table, (element) => element.name === 'TH').length > 0) return
  for (const cell of cells(first)) {
    const th = new LightElement('TH')
    moveChildren(cell, th)
    const colspan = cell.attribute('colspan')
    if (colspan) th.attributes.set('colspan', colspan)
    replace(cell, th)
  }
}

export function prepareTree(root: LightElement): void {
  const tables: LightElement[] = []
  const links: LightElement[] = []
  descendants(root, (element) => {
    if (element.name === 'TABLE') tables.push(element)
    else if (element.name === 'A' && element.attributes.has('href')) links.push(element)
    return false
  })
  for (const table of tables.reverse()) normaliseTable(table)
  for (const link of links) {
    const href = link.attribute('href') ?? ''
    const target = /^\s*javascript:/i.test(href) ? '' : unwrapRedirect(href)
    if (target) link.attributes.set('href', target)
    else link.attributes.delete('href')
  }
}

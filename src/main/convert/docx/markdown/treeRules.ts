import {
  imageAlt,
  imageMarkdown,
  linkTarget,
  linkText,
  listItemMarkdown,
  listItemPrefix,
} from '../../markdown/inlineSyntax'
import { elementChildren, type LightElement } from './lightDom'
import { tableCellRule, tableRowRule, tableRule } from './treeTables'
import { type Conversion, isBlock, type Rule } from './turndownTree'

// The rules htmlToMarkdown.ts's turndown service applies (its own: image, list item, link; the GFM
// plugin's: tables, strikethrough, task list items; turndown's: paragraph, line break, heading, list,
// emphasis, strong), for the tags the light tree holds, picked by tag as turndown's first matching
// filter would pick them. Options: atx headings, `*` bullets and emphasis, `**` strong, `  ` breaks.

const paragraph: Rule = (content) => `\n\n${content}\n\n`
const lineBreak: Rule = () => '  \n'
const heading: Rule = (content, node) => `\n\n${'#'.repeat(Number(node.name.charAt(1)))} ${content}\n\n`
const section: Rule = (content) => content
const strikethrough: Rule = (content) => `~~${content}~~`
const emphasis: Rule = (content) => (content.trim() ? `*${content}*` : '')
const strong: Rule = (content) => (content.trim() ? `**${content}**` : '')
const fallback: Rule = (content, node) => (isBlock(node) ? `\n\n${content}\n\n` : content)

const list: Rule = (content, node) => {
  const parent = node.parent
  const last = parent ? elementChildren(parent).at(-1) : undefined
  return parent?.name === 'LI' && last === node ? `\n${content}` : `\n\n${content}\n\n`
}

/** htmlToMarkdown.ts's list item. */
const listItem: Rule = (content, node) => {
  const parent = node.parent
  const ordered = parent?.name === 'OL'
  const index = ordered && parent ? elementChildren(parent).indexOf(node) : 0
  const prefix = listItemPrefix(ordered, parent?.attribute('start'), index)
  return listItemMarkdown(prefix, content, node.next !== null)
}

/** htmlToMarkdown.ts's image rule with data images kept. */
const image: Rule = (_content, node) => {
  const src = node.attribute('src') ?? ''
  return src ? imageMarkdown(imageAlt(node.attribute('alt') ?? ''), src) : ''
}

/** htmlToMarkdown.ts's link rule (no title attribute is ever in the tree). */
const link: Rule = (content, node) => {
  const text = linkText(content)
  const href = node.attribute('href')
  if (!href || !text) return text
  return `[${text}](${linkTarget(href)})`
}

const isCheckbox = (node: LightElement) =>
  (node.attribute('type') ?? '').toLowerCase() === 'checkbox' && node.parent?.name === 'LI'
const taskListItem: Rule = (_content, node) => `${node.attributes.has('checked') ? '[x]' : '[ ]'} `

const byName: Record<string, Rule> = {
  A: link,
  LI: listItem,
  IMG: image,
  THEAD: section,
  TBODY: section,
  TFOOT: section,
  TABLE: tableRule,
  TR: tableRowRule,
  TH: tableCellRule,
  TD: tableCellRule,
  S: strikethrough,
  P: paragraph,
  BR: lineBreak,
  H1: heading,
  H2: heading,
  H3: heading,
  H4: heading,
  H5: heading,
  H6: heading,
  UL: list,
  OL: list,
  EM: emphasis,
  STRONG: strong,
}

export function ruleFor(node: LightElement, _conversion: Conversion): Rule {
  if (node.name === 'INPUT') return isCheckbox(node) ? taskListItem : fallback
  return byName[node.name] ?? fallback
}

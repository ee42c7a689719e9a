import { children, detach, LightElement, type LightNode, LightText } from './lightDom'

// turndown 7.2's conversion (lib/turndown.es.js: collapseWhitespace, process, join, escape, the blank
// and flanking-whitespace rules) on the light tree, for the options htmlToMarkdown.ts gives it. The
// rules themselves are in treeRules.ts. Text content is read once per element (the tree does not
// change while it is converted); turndown reads it again for every node it visits.

const BLOCK = new Set(
  'ADDRESS ARTICLE ASIDE AUDIO BLOCKQUOTE BODY CANVAS CENTER DD DIR DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM FRAMESET H1 H2 H3 H4 H5 H6 HEADER HGROUP HR HTML ISINDEX LI MAIN MENU NAV NOFRAMES NOSCRIPT OL OUTPUT P PRE SECTION TABLE TBODY TD TFOOT TH THEAD TR UL'.split(
    ' ',
  ),
)
const VOID = new Set(
  'AREA BASE BR COL COMMAND EMBED HR IMG INPUT KEYGEN LINK META PARAM SOURCE TRACK WBR'.split(' '),
)
const MEANINGFUL_WHEN_BLANK = new Set('A TABLE THEAD TBODY TFOOT TH TD IFRAME SCRIPT AUDIO VIDEO'.split(' '))
const ESCAPES: [RegExp, string][] = [
  [/\\/g, '\\\\'],
  [/\*/g, '\\*'],
  [/^-/g, '\\-'],
  [/^\+ /g, '\\+ '],
  [/^(=+)/g, '\\$1'],
  [/^(#{1,6}) /g, '\\$1 '],
  [/`/g, '\\`'],
  [/^~~~/g, '\\~~~'],
  [/\[/g, '\\['],
  [/\]/g, '\\]'],
  [/^>/g, '\\>'],
  [/_/g, '\\_'],
  [/^(\d+)\. /g, '$1\\. '],
]

export const isBlock = (node: LightNode) => node instanceof LightElement && BLOCK.has(node.name)
const isVoid = (node: LightNode) => node instanceof LightElement && VOID.has(node.name)

/** Whether any of ESCAPES can apply (most text runs have none of these: one test instead of thirteen). */
const MAY_ESCAPE = /[\\*`[\]_]|^(?:[-=>]|\+ |#{1,6} |~~~|\d+\. )/

function escapeMarkdown(text: string): string {
  if (!MAY_ESCAPE.test(text)) return text
  let escaped = text
  for (const [pattern, replacement] of ESCAPES) escaped = escaped.replace(pattern, replacement)
  return escaped
}

/** The next node of collapse-whitespace's walk (each element is visited going down and coming back up). */
function nextInWalk(previous: LightNode | null, current: LightNode): LightNode | null {
  const isPre = current instanceof LightElement && current.name === 'PRE'
  if ((previous && previous.parent === current) || isPre) return current.next ?? current.parent
  return (current instanceof LightElement ? current.first : null) ?? current.next ?? current.parent
}

function removeInWalk(node: LightNode): LightNode | null {
  const next = node.next ?? node.parent
  detach(node)
  return next
}

/** turndown's collapseWhitespace (after collapse-whitespace by Luc Thevenard, MIT), with `PRE` as preformatted. */
export function collapseWhitespace(root: LightElement): void {
  if (!root.first || root.name === 'PRE') return
  let previousText: LightText | null = null
  let keepLeadingWhitespace = false
  let previous: LightNode | null = null
  let node = nextInWalk(previous, root)
  while (node && node !== root) {
    if (node instanceof LightText) {
      let text = node.data.replace(/[ \r\n\t]+/g, ' ')
      if ((!previousText || / $/.test(previousText.data)) && !keepLeadingWhitespace && text[0] === ' ')
        text = text.slice(1)
      if (!text) {
        node = removeInWalk(node)
        continue
      }
      node.data = text
      previousText = node
    } else if (isBlock(node) || node.name === 'BR') {
      if (previousText) previousText.data = previousText.data.replace(/ $/, '')
      previousText = null
      keepLeadingWhitespace = false
    } else if (isVoid(node) || node.name === 'PRE') {
      previousText = null
      keepLeadingWhitespace = true
    } else if (previousText) {
      keepLeadingWhitespace = false
    }
    const next = nextInWalk(previous, node)
    previous = node
    node = next
  }
  if (previousText) {
    previousText.data = previousText.data.replace(/ $/, '')
    if (!previousText.data) detach(previousText)
  }
}

const trimLeadingNewlines = (text: string) => text.replace(/^\n*/, '')
function trimTrailingNewlines(text: string): string {
  let end = text.length
  while (end > 0 && text[end - 1] === '\n') end--
  return text.slice(0, end)
}

/** Appends with as many newlines between as the two sides ask for (at most two). */
function join(output: string[], replacement: string): void {
  const tail = output.pop() || ''
  const left = trimTrailingNewlines(tail)
  const right = trimLeadingNewlines(replacement)
  const newlines = Math.max(tail.length - left.length, replacement.length - right.length)
  const separator = '\n\n'.substring(0, newlines)
  if (left) output.push(left)
  if (separator) output.push(separator)
  if (right) output.push(right)
}

const EDGES = /^(([ \t\r\n]*)(\s*))(?:(?=\S)[\s\S]*\S)?((\s*?)([ \t\r\n]*))$/

/** What turndown's rules see of a node besides the node: its content's text, blankness, and the tree. */
export interface Conversion {
  text(node: LightNode): string
  isBlank(node: LightElement): boolean
}

export type Rule = (content: string, node: LightElement, conversion: Conversion) => string

class TreeConversion implements Conversion {
  private readonly texts = new Map<LightElement, string>()
  private readonly voids = new Map<LightElement, boolean>()
  private readonly meaningful = new Map<LightElement, boolean>()

  constructor(private readonly ruleFor: (node: LightElement, conversion: Conversion) => Rule) {}

  text(node: LightNode): string {
    if (node instanceof LightText) return node.data
    let text = this.texts.get(node)
    if (text === undefined) {
      text = ''
      for (let child = node.first; child; child = child.next) text += this.text(child)
      this.texts.set(node, text)
    }
    return text
  }

  /** Whether an element under `node` has one of the names. */
  private has(node: LightElement, names: Set<string>, memo: Map<LightElement, boolean>): boolean {
    let found = memo.get(node)
    if (found === undefined) {
      found = false
      for (let child = node.first; child && !found; child = child.next)
        if (child instanceof LightElement) found = names.has(child.name) || this.has(child, names, memo)
      memo.set(node, found)
    }
    return found
  }

  isBlank(node: LightElement): boolean {
    return (
      !VOID.has(node.name) &&
      !MEANINGFUL_WHEN_BLANK.has(node.name) &&
      /^\s*$/.test(this.text(node)) &&
      !this.has(node, VOID, this.voids) &&
      !this.has(node, MEANINGFUL_WHEN_BLANK, this.meaningful)
    )
  }

  private flankedBy(side: 'left' | 'right', node: LightElement): boolean {
    const sibling = side === 'left' ? node.previous : node.next
    const edge = side === 'left' ? / $/ : /^ /
    if (!sibling) return false
    if (sibling instanceof LightText) return edge.test(sibling.data)
    return !isBlock(sibling) && edge.test(this.text(sibling))
  }

  private flanking(node: LightElement): { leading: string; trailing: string } {
    if (isBlock(node)) return { leading: '', trailing: '' }
    const edges = EDGES.exec(this.text(node)) as RegExpExecArray
    let leading = edges[1] ?? ''
    let trailing = edges[4] ?? ''
    if (edges[2] && this.flankedBy('left', node)) leading = edges[3] ?? ''
    if (edges[6] && this.flankedBy('right', node)) trailing = edges[5] ?? ''
    return { leading, trailing }
  }

  private replacement(node: LightElement): string {
    const whitespace = this.flanking(node)
    let content = this.process(node).join('')
    if (whitespace.leading || whitespace.trailing) content = content.trim()
    const rule: Rule = this.isBlank(node) ? () => (isBlock(node) ? '\n\n' : '') : this.ruleFor(node, this)
    return whitespace.leading + rule(content, node, this) + whitespace.trailing
  }

  process(parent: LightElement): string[] {
    const output: string[] = []
    for (const node of children(parent))
      join(output, node instanceof LightText ? escapeMarkdown(node.data) : this.replacement(node))
    return output
  }
}

/** turndown's `turndown(root)`: whitespace collapsed in place (the caller's tree is not used again), then converted. */
export function turndownTree(
  root: LightElement,
  ruleFor: (node: LightElement, conversion: Conversion) => Rule,
): string {
  collapseWhitespace(root)
  const conversion = new TreeConversion(ruleFor)
  const output = conversion.process(root)
  join(output, '')
  return output
    .join('')
    .replace(/^[\t\r\n]+/, '')
    .replace(/[\t\r\n\s]+$/, '')
}

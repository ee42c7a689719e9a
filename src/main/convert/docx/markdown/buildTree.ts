import { writer as htmlWriter } from 'mammoth/lib/writers/html-writer.js'
import { LightElement, LightText } from './lightDom'

// mammoth writes its HTML through a writer (open, close, text, selfClosing). This one builds the tree an
// HTML parser (domino, quirks mode, inside `<body>`) would build from that HTML, for the markup mammoth
// writes with Bureau's style map: well nested, so the parser only adds a `tbody` around rows written
// straight into a table. Anything the parser could reshape (a block opened inside a paragraph, a link
// inside a link, a row outside a table, text between rows, a carriage return or NUL it would rewrite,
// a tag or attribute outside the known set) gives up on the tree; the HTML is then kept for the DOM path.
// Every call is also recorded, so that HTML can be written afterwards by mammoth's own writer.

/**
 * Thrown (and caught) when the fast path cannot be sure to give what the DOM path gives. A class of its own:
 * the docx converter catches exactly this to fall back to the DOM path, and lets any other error through.
 */
export class Unsupported extends Error {}

const TAGS = new Set(
  'p h1 h2 h3 h4 h5 h6 ul ol li dl dt dd table thead tbody tr td th a strong em s u sup sub br img input'.split(
    ' ',
  ),
)
const VOID = new Set(['br', 'img', 'input'])
const ATTRIBUTES = new Set(['href', 'id', 'target', 'src', 'alt', 'colspan', 'rowspan', 'checked'])
/** Start tags that close an open `p` (in button scope); a table does not in quirks mode, but is refused too. */
const CLOSES_P = new Set('p ul ol dl dt dd li table h1 h2 h3 h4 h5 h6'.split(' '))
/** The parser's "special" elements among the known tags (they stop its search for an open `li`/`dd`). */
const SPECIAL = new Set(
  'HTML BODY P UL OL LI DL DT DD TABLE THEAD TBODY TR TD TH H1 H2 H3 H4 H5 H6'.split(' '),
)
const SCOPE_LIMIT = new Set(['HTML', 'TABLE', 'TD', 'TH'])
const HEADING = /^H[1-6]$/
const TABLE_CHILDREN: Record<string, Set<string>> = {
  TABLE: new Set(['thead', 'tbody', 'tr']),
  THEAD: new Set(['tr']),
  TBODY: new Set(['tr']),
  TR: new Set(['td', 'th']),
}
const REWRITTEN = /[\r\0]/

type Attributes = Record<string, string>
type Call =
  | [kind: 'open' | 'selfClosing', tag: string, attributes: Attributes]
  | ['close', string]
  | ['text', string]

export interface TreeOutput {
  /** The document (`#document` > `HTML` > `HEAD`, `BODY`), or undefined when the fast path gave up. */
  document: LightElement | undefined
  /** The HTML mammoth would have returned. */
  html(): string
}

class TreeBuilder {
  readonly document = new LightElement('#document')
  private readonly stack: LightElement[]
  /** `tbody` elements the parser adds around rows written straight into a table. */
  private readonly implied = new Set<LightElement>()

  constructor() {
    const html = new LightElement('HTML')
    const body = new LightElement('BODY')
    this.document.append(html)
    html.append(new LightElement('HEAD'))
    html.append(body)
    this.stack = [html, body]
  }

  private get current(): LightElement {
    return this.stack[this.stack.length - 1] as LightElement
  }

  open(tag: string, attributes: Attributes, selfClosing: boolean): void {
    if (!TAGS.has(tag) || VOID.has(tag) !== selfClosing) throw new Unsupported(tag)
    const element = new LightElement(tag.toUpperCase())
    for (const [name, value] of Object.entries(attributes)) {
      if (!ATTRIBUTES.has(name) && !(name === 'type' && tag === 'input')) throw new Unsupported(name)
      if (REWRITTEN.test(value)) throw new Unsupported('attribute value')
      element.attributes.set(name, value)
    }
    this.place(tag).append(element)
    if (!selfClosing) this.stack.push(element)
  }

  /** The element the new one goes into, after the checks of the parser's rules for its start tag. */
  private place(tag: string): LightElement {
    const parent = this.current
    const allowed = TABLE_CHILDREN[parent.name]
    if (allowed) {
      const fits = this.implied.has(parent) ? tag === 'tr' : allowed.has(tag)
      if (!fits) throw new Unsupported(`${tag} in ${parent.name}`)
      if (parent.name === 'TABLE' && tag === 'tr') {
        const body = new LightElement('TBODY')
        parent.append(body)
        this.implied.add(body)
        this.stack.push(body)
        return body
      }
      return parent
    }
    if (tag === 'thead' || tag === 'tbody' || tag === 'tr' || tag === 'td' || tag === 'th')
      throw new Unsupported(`${tag} outside a table`)
    if (CLOSES_P.has(tag) && this.paragraphInScope()) throw new Unsupported(`${tag} in p`)
    if (HEADING.test(parent.name) && /^h[1-6]$/.test(tag)) throw new Unsupported('heading in heading')
    if (tag === 'li') this.refuseOpen(['LI'])
    if (tag === 'dd' || tag === 'dt') this.refuseOpen(['DD', 'DT'])
    if (tag === 'a' && this.stack.some((element) => element.name === 'A')) throw new Unsupported('a in a')
    return parent
  }

  private paragraphInScope(): boolean {
    for (let index = this.stack.length - 1; index >= 0; index--) {
      const name = (this.stack[index] as LightElement).name
      if (name === 'P') return true
      if (SCOPE_LIMIT.has(name)) return false
    }
    return false
  }

  /** The parser closes an open element of these names reached before a special element. */
  private refuseOpen(names: string[]): void {
    for (let index = this.stack.length - 1; index >= 0; index--) {
      const name = (this.stack[index] as LightElement).name
      if (names.includes(name)) throw new Unsupported(`${name} reopened`)
      if (SPECIAL.has(name) && name !== 'P') return
    }
  }

  close(tag: string): void {
    if (tag === 'table' && this.implied.has(this.current)) this.stack.pop()
    if (this.current.name !== tag.toUpperCase() || this.stack.length <= 2) throw new Unsupported(`</${tag}>`)
    this.stack.pop()
  }

  text(value: string): void {
    if (REWRITTEN.test(value)) throw new Unsupported('text')
    const parent = this.current
    if (TABLE_CHILDREN[parent.name]) throw new Unsupported(`text in ${parent.name}`)
    if (!value) return
    if (parent.last instanceof LightText) parent.last.data += value
    else parent.append(new LightText(value))
  }

  finish(): LightElement {
    if (this.stack.length !== 2) throw new Unsupported('unclosed')
    return this.document
  }
}

/** A mammoth writer (its `writers/index.js` interface) whose `asString()` answers a TreeOutput. */
export function treeWriter() {
  const calls: Call[] = []
  let builder: TreeBuilder | undefined = new TreeBuilder()
  const build = (step: (tree: TreeBuilder) => void) => {
    if (!builder) return
    try {
      step(builder)
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error
      builder = undefined
    }
  }
  return {
    open(tag: string, attributes: Attributes) {
      calls.push(['open', tag, attributes])
      build((tree) => tree.open(tag, attributes, false))
    },
    close(tag: string) {
      calls.push(['close', tag])
      build((tree) => tree.close(tag))
    },
    text(value: string) {
      calls.push(['text', value])
      build((tree) => tree.text(value))
    },
    selfClosing(tag: string, attributes: Attributes) {
      calls.push(['selfClosing', tag, attributes])
      build((tree) => tree.open(tag, attributes, true))
    },
    asString(): TreeOutput {
      let document: LightElement | undefined
      build((tree) => {
        document = tree.finish()
      })
      return { document, html: () => writeHtml(calls) }
    },
  }
}

function writeHtml(calls: Call[]): string {
  const html = htmlWriter({})
  for (const call of calls) {
    if (call[0] === 'open') html.open(call[1], call[2])
    else if (call[0] === 'selfClosing') html.selfClosing(call[1], call[2])
    else if (call[0] === 'close') html.close(call[1])
    else html.text(call[1])
  }
  return html.asString()
}

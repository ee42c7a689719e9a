import mammothXml from 'mammoth/lib/xml/index.js'

// mammoth's element tree as its own reader builds it from xmldom's DOM, built from any parser's events
// (saxesXmlReader.ts: saxes, or the plain-XML reader): names as mammoth reads them, namespaces resolved
// scope by scope, and DECLINE thrown where the two could differ from xmldom.

export type Tree = InstanceType<typeof mammothXml.Element>
type Child = Tree | ReturnType<typeof mammothXml.text>

const XML_NS = 'http://www.w3.org/XML/1998/namespace'
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/'

/** Prefix -> namespace URI in scope ('' is the default namespace); inner scopes inherit by prototype. */
type Scope = Record<string, string | undefined>

const ROOT_SCOPE: Scope = Object.freeze(Object.assign(Object.create(null), { xml: XML_NS, xmlns: XMLNS_NS }))

/** Thrown to hand the part to xmldom. */
export const DECLINE = Object.freeze({ decline: true })

function nameOf(uri: string | undefined, local: string, namespaceMap: Record<string, string>): string {
  if (!uri) return local
  const prefix = namespaceMap[uri]
  return prefix ? `${prefix}:${local}` : `{${uri}}${local}`
}

/** Line separators xmldom normalises and saxes does not, and an end tag's space xmldom warns about. */
export const XMLDOM_ONLY = /[\u0085\u2028]|<!DOCTYPE|<\/[^>\s]*\s+>/

/** A plain ASCII name, or prefix:local of two: what both parsers read the same way. */
const PLAIN_NAME = /^(?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*$/

/** The scope inside an element: its parent's, plus what its `xmlns` attributes declare. */
function scopeOf(attributes: string[], parent: Scope): Scope {
  let scope = parent
  for (let index = 0; index < attributes.length; index += 2) {
    const key = attributes[index] as string
    if (key !== 'xmlns' && !key.startsWith('xmlns:')) continue
    const value = attributes[index + 1] ?? ''
    const prefix = key === 'xmlns' ? '' : key.slice(6)
    if (prefix && !value) throw DECLINE
    if (scope === parent) scope = Object.create(parent) as Scope
    scope[prefix] = value
  }
  return scope
}

/** A prefixed name's namespace, or the default one (elements) / none (attributes) without a prefix. */
function resolve(
  qname: string,
  scope: Scope,
  isAttribute: boolean,
): { uri: string | undefined; local: string } {
  const colon = qname.indexOf(':')
  if (colon < 0) {
    if (isAttribute) return { uri: qname === 'xmlns' ? XMLNS_NS : undefined, local: qname }
    return { uri: scope[''] || undefined, local: qname }
  }
  const prefix = qname.slice(0, colon)
  if (!isAttribute && prefix === 'xmlns') throw DECLINE
  const uri = scope[prefix]
  if (!uri) throw DECLINE
  return { uri, local: qname.slice(colon + 1) }
}

/**
 * mammoth's names for the qualified names met in one scope; attributes apart, since an unprefixed
 * attribute takes no default namespace.
 */
class Names {
  private readonly elements = new Map<string, string>()
  private readonly attributes = new Map<string, string>()
  constructor(
    readonly scope: Scope,
    private readonly namespaceMap: Record<string, string>,
  ) {}

  of(qname: string, isAttribute: boolean): string {
    const known = isAttribute ? this.attributes : this.elements
    let name = known.get(qname)
    if (name === undefined) {
      if (!PLAIN_NAME.test(qname)) throw DECLINE
      const { uri, local } = resolve(qname, this.scope, isAttribute)
      name = nameOf(uri, local, this.namespaceMap)
      known.set(qname, name)
    }
    return name
  }
}

interface Frame {
  name: string
  attributes: Record<string, string>
  children: Child[]
  names: Names
}

/**
 * Builds mammoth's element tree from a parser's events (start tag with its attributes as written,
 * text, end tag); throws DECLINE where xmldom must read the part.
 */
export class MammothTreeBuilder {
  root: Tree | undefined
  private readonly open: Frame[] = []
  private readonly rootNames: Names
  // Read once: each access through the bundled module namespace is a getter call.
  private readonly textNode = mammothXml.text
  private readonly Element = mammothXml.Element

  constructor(private readonly namespaceMap: Record<string, string>) {
    this.rootNames = new Names(ROOT_SCOPE, namespaceMap)
  }

  /** Whether an element is open (text outside the root is not part of the tree). */
  get inRoot(): boolean {
    return this.open.length > 0
  }

  /** `raw`: the attributes as written, in document order: name, value, name, value... */
  openTag(qname: string, raw: string[]): void {
    const outer = this.open[this.open.length - 1]?.names ?? this.rootNames
    const scope = scopeOf(raw, outer.scope)
    const names = scope === outer.scope ? outer : new Names(scope, this.namespaceMap)
    // A null prototype, as mammoth's own reader makes them.
    const attributes: Record<string, string> = Object.create(null)
    for (let index = 0; index < raw.length; index += 2)
      attributes[names.of(raw[index] as string, true)] = raw[index + 1] ?? ''
    this.open.push({ name: names.of(qname, false), attributes, children: [], names })
  }

  text(text: string): void {
    this.open[this.open.length - 1]?.children.push(this.textNode(text))
  }

  closeTag(): void {
    const frame = this.open.pop()
    if (!frame) return
    const element = new this.Element(frame.name, frame.attributes, frame.children)
    const parent = this.open[this.open.length - 1]
    if (parent) parent.children.push(element)
    else this.root = element
  }
}

import mammothXml from 'mammoth/lib/xml/index.js'
import { SaxesParser, type SaxesTagPlain } from 'saxes'

/**
 * mammoth 1.13.0 reads every XML part through `xml.readString`: @xmldom/xmldom builds a DOM, which mammoth
 * then copies into its own element tree; in the profile of a warm .docx conversion that was about a third
 * of the time. This reader builds the same tree in one pass of saxes (a strict XML parser) with the same
 * names: a mapped namespace's prefix, `{uri}local` for any other namespace, the local name without one
 * (`xmlns` declarations included, as xmldom reports them); text runs between markup as text nodes;
 * CDATA, comments and processing instructions left out, as mammoth's conversion leaves them. Namespaces
 * are resolved here (saxes's own resolution was most of its time), scope by scope.
 *
 * Where the two parsers could differ, xmldom still reads the part: U+0085 or U+2028 anywhere (xmldom 0.8
 * turns them into line feeds as it does CR LF; saxes, an XML 1.0 parser, keeps them), a DOCTYPE, an end
 * tag with a space before its `>` (xmldom warns, and mammoth takes any warning as an error), a name that
 * is not a plain ASCII name or qualified name (xmldom's name rules are its own), a prefix declared empty
 * or not declared, an element in the `xmlns` namespace, and anything saxes refuses (xmldom then gives
 * mammoth its own verdict, an error or a tree).
 */

type Tree = InstanceType<typeof mammothXml.Element>
type Child = Tree | ReturnType<typeof mammothXml.text>

const originalReadString = mammothXml.readString

const XML_NS = 'http://www.w3.org/XML/1998/namespace'
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/'

/** Prefix -> namespace URI in scope ('' is the default namespace); inner scopes inherit by prototype. */
type Scope = Record<string, string | undefined>

const ROOT_SCOPE: Scope = Object.freeze(Object.assign(Object.create(null), { xml: XML_NS, xmlns: XMLNS_NS }))

/** Thrown to hand the part to xmldom. */
const DECLINE = Object.freeze({ decline: true })

function nameOf(uri: string | undefined, local: string, namespaceMap: Record<string, string>): string {
  if (!uri) return local
  const prefix = namespaceMap[uri]
  return prefix ? `${prefix}:${local}` : `{${uri}}${local}`
}

/** Line separators xmldom normalises and saxes does not, and an end tag's space xmldom warns about. */
const XMLDOM_ONLY = /[\u0085\u2028]|<!DOCTYPE|<\/[^>\s]*\s+>/

/** A plain ASCII name, or prefix:local of two: what both parsers read the same way. */
const PLAIN_NAME = /^(?:[A-Za-z_][\w.-]*:)?[A-Za-z_][\w.-]*$/

/** The scope inside an element: its parent's, plus what its `xmlns` attributes declare. */
function scopeOf(attributes: Record<string, string>, parent: Scope): Scope {
  let scope = parent
  for (const key in attributes) {
    if (key !== 'xmlns' && !key.startsWith('xmlns:')) continue
    const value = attributes[key] ?? ''
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

/** The part as mammoth's element tree, or undefined when xmldom should read it (see above). */
export function parseWithSaxes(xml: string, namespaceMap: Record<string, string>): Tree | undefined {
  if (XMLDOM_ONLY.test(xml)) return undefined
  // Without an error handler saxes throws at the first error.
  const parser = new SaxesParser({ xmlns: false, position: false })
  const open: Frame[] = []
  let root: Tree | undefined
  const rootNames = new Names(ROOT_SCOPE, namespaceMap)
  // Read once: each access through the bundled module namespace is a getter call.
  const { text: textNode, Element } = mammothXml
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const raw = tag.attributes
    const outer = open[open.length - 1]?.names ?? rootNames
    const scope = scopeOf(raw, outer.scope)
    const names = scope === outer.scope ? outer : new Names(scope, namespaceMap)
    // A null prototype, as mammoth's own reader makes them.
    const attributes: Record<string, string> = Object.create(null)
    for (const key in raw) attributes[names.of(key, true)] = raw[key] ?? ''
    open.push({ name: names.of(tag.name, false), attributes, children: [], names })
  })
  parser.on('text', (text: string) => {
    open[open.length - 1]?.children.push(textNode(text))
  })
  parser.on('closetag', () => {
    const frame = open.pop()
    if (!frame) return
    const element = new Element(frame.name, frame.attributes, frame.children)
    const parent = open[open.length - 1]
    if (parent) parent.children.push(element)
    else root = element
  })
  try {
    parser.write(xml).close()
  } catch {
    return undefined
  }
  return root
}

function readString(xml: string, namespaceMap?: Record<string, string>): Promise<unknown> {
  const tree = parseWithSaxes(xml, namespaceMap ?? {})
  return tree ? Promise.resolve(tree) : originalReadString(xml, namespaceMap)
}

/** Has mammoth read its XML parts through `readString` above (once; every later call is a no-op). */
export function installSaxesXmlReader(): void {
  mammothXml.readString = readString
}

/** mammoth's own reader, for the tests that compare the two. */
export { originalReadString as xmldomReadString }

import mammothXml from 'mammoth/lib/xml/index.js'
import { readPlainXml } from '../xml/plainXml'
import { DECLINE, MammothTreeBuilder, type Tree, XMLDOM_ONLY } from './mammothTree'

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
 *
 * Before saxes, a part that is plain XML (xml/plainXml.ts: what Office writes) is read by a reader of
 * that subset alone, into the same tree; saxes (`saxesParse.ts`, imported then) reads any other part.
 */

const originalReadString = mammothXml.readString

/** Text outside the root that is not XML whitespace: saxes decides (it refuses it). */
const NOT_SPACE = /[^ \t\n\r]/

/** Anything the plain reader should not decide alone (saxes then reads the part). */
class AskSaxes extends Error {}

/** The plain-XML reader's verdict: the tree, undefined for saxes to read the part, DECLINE for xmldom. */
function parsePlain(xml: string, namespaceMap: Record<string, string>): Tree | undefined {
  const tree = new MammothTreeBuilder(namespaceMap)
  let sawRoot = false
  const plain = readPlainXml(
    xml,
    {
      open: (name, attributes) => {
        if (sawRoot && !tree.inRoot) throw new AskSaxes('second root')
        sawRoot = true
        tree.openTag(name, attributes)
      },
      text: (text) => {
        if (tree.inRoot) tree.text(text)
        else if (NOT_SPACE.test(text)) throw new AskSaxes('text outside the root')
      },
      close: () => tree.closeTag(),
    },
    { normaliseAttributeSpace: true },
  )
  return plain ? tree.root : undefined
}

/**
 * The part as mammoth's element tree: read by the plain-XML reader (xml/plainXml.ts, several times
 * faster than saxes on Office's parts) when it is plain XML, else by saxes; undefined when xmldom should.
 */
export async function parseXmlPart(
  xml: string,
  namespaceMap: Record<string, string>,
): Promise<Tree | undefined> {
  if (XMLDOM_ONLY.test(xml)) return undefined
  try {
    const tree = parsePlain(xml, namespaceMap)
    if (tree) return tree
  } catch (error) {
    if (error === DECLINE) return undefined
    if (!(error instanceof AskSaxes)) throw error
  }
  return (await import('./saxesParse')).parseWithSaxes(xml, namespaceMap)
}

async function readString(xml: string, namespaceMap?: Record<string, string>): Promise<unknown> {
  const tree = await parseXmlPart(xml, namespaceMap ?? {})
  return tree ?? originalReadString(xml, namespaceMap)
}

/** Has mammoth read its XML parts through `readString` above (once; every later call is a no-op). */
export function installSaxesXmlReader(): void {
  mammothXml.readString = readString
}

/** mammoth's own reader, for the tests that compare the two. */
export { originalReadString as xmldomReadString }

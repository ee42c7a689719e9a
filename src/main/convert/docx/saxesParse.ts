import { SaxesParser, type SaxesTagPlain } from 'saxes'
import { MammothTreeBuilder, type Tree, XMLDOM_ONLY } from './mammothTree'

/** A part as mammoth's element tree read by saxes, or undefined when xmldom should read it (saxesXmlReader.ts). */
export function parseWithSaxes(xml: string, namespaceMap: Record<string, string>): Tree | undefined {
  if (XMLDOM_ONLY.test(xml)) return undefined
  // Without an error handler saxes throws at the first error.
  const parser = new SaxesParser({ xmlns: false, position: false })
  const tree = new MammothTreeBuilder(namespaceMap)
  parser.on('opentag', (tag: SaxesTagPlain) => tree.openTag(tag.name, Object.entries(tag.attributes).flat()))
  parser.on('text', (text: string) => tree.text(text))
  parser.on('closetag', () => tree.closeTag())
  try {
    parser.write(xml).close()
  } catch {
    return undefined
  }
  return tree.root
}

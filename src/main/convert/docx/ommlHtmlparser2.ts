import { parseDocument } from 'htmlparser2'
import type { MathNode } from './ommlNodes'

/** Office Math that is not plain XML, read by htmlparser2 in XML mode (lenient). */
export function htmlparser2Nodes(xml: string): MathNode[] {
  return parseDocument(xml, { xmlMode: true }).children as unknown as MathNode[]
}

import { parseDocument } from 'htmlparser2'

/** Office Math that is not plain XML, read by htmlparser2 in XML mode (lenient): domhandler's nodes. */
export function htmlparser2Nodes(xml: string): unknown[] {
  return parseDocument(xml, { xmlMode: true }).children
}

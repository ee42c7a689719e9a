import { readPlainXml } from '../xml/plainXml'

// Office Math as the nodes ommlToLatex.ts reads: the shape of domhandler's (what htmlparser2 builds in
// XML mode). Plain XML is read by xml/plainXml.ts, the same tree htmlparser2 builds from it; anything
// else by htmlparser2, imported then (in a cold worker its parse of a first equation cost ~10 ms more).

export interface MathElement {
  type: 'tag'
  name: string
  attribs: Record<string, string>
  children: MathNode[]
}
export type MathNode = MathElement | { type: 'text'; data: string } | { type: 'other' }

/** domhandler gives these names a type of their own (not 'tag'), which the conversion skips. */
const SPECIAL_NAMES = new Set(['script', 'style'])

/** The nodes of plain XML, or undefined when htmlparser2 should read it. */
function plainNodes(xml: string): MathNode[] | undefined {
  const top: MathNode[] = []
  const open: MathElement[] = []
  const into = () => open[open.length - 1]?.children ?? top
  let special = false
  const plain = readPlainXml(
    xml,
    {
      open: (name, attributes) => {
        special ||= SPECIAL_NAMES.has(name)
        const attribs: Record<string, string> = {}
        for (let index = 0; index < attributes.length; index += 2)
          attribs[attributes[index] as string] = attributes[index + 1] ?? ''
        const element: MathElement = { type: 'tag', name, attribs, children: [] }
        into().push(element)
        open.push(element)
      },
      close: () => {
        open.pop()
      },
      text: (data) => {
        into().push({ type: 'text', data })
      },
    },
    { normaliseAttributeSpace: false },
  )
  return plain && !special ? top : undefined
}

export async function mathNodes(xml: string): Promise<MathNode[]> {
  return plainNodes(xml) ?? ((await import('./ommlHtmlparser2')).htmlparser2Nodes(xml) as MathNode[])
}

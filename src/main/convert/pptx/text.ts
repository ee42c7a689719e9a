import { childElements, type Element, localName, textOf } from '../xml/parseXml'

function runText(paragraph: Element): string {
  let text = ''
  for (const child of childElements(paragraph)) {
    const name = localName(child)
    if (name === 'r' || name === 'fld')
      text += childElements(child)
        .filter((part) => localName(part) === 't')
        .map(textOf)
        .join('')
    else if (name === 'br') text += '\n'
  }
  return text
}

function bulletKind(paragraph: Element, bodyDefault: boolean): 'bullet' | 'number' | undefined {
  const properties = childElements(paragraph).find((child) => localName(child) === 'pPr')
  const marks = properties ? childElements(properties).map(localName) : []
  if (marks.includes('buNone')) return undefined
  if (marks.includes('buAutoNum')) return 'number'
  if (marks.includes('buChar') || marks.includes('buBlip')) return 'bullet'
  return bodyDefault ? 'bullet' : undefined
}

/**
 * A text body as Markdown lines. Body placeholders are bulleted unless a paragraph says buNone;
 * text boxes only where a bullet is set explicitly.
 */
export function textBodyMarkdown(body: Element | undefined, options: { bulleted: boolean }): string {
  if (!body) return ''
  const lines: string[] = []
  let number = 0
  for (const paragraph of childElements(body).filter((child) => localName(child) === 'p')) {
    const text = runText(paragraph)
      .replace(/[ \t]+/g, ' ')
      .trim()
    if (!text) {
      number = 0
      continue
    }
    const properties = childElements(paragraph).find((child) => localName(child) === 'pPr')
    const level = Number(properties?.attribs.lvl ?? '0') || 0
    const kind = bulletKind(paragraph, options.bulleted)
    const indent = '  '.repeat(level)
    if (kind === 'number') lines.push(`${indent}${++number}. ${text.replace(/\n/g, ' ')}`)
    else if (kind === 'bullet') lines.push(`${indent}* ${text.replace(/\n/g, ' ')}`)
    else lines.push(text)
  }
  return lines.join('\n')
}

export function plainText(body: Element | undefined): string {
  return textBodyMarkdown(body, { bulleted: false }).replace(/\n+/g, ' ').trim()
}

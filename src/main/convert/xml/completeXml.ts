/**
 * True when an XML part ends with its root element's closing tag. Parsers here are lenient, so a
 * part cut short or overwritten would otherwise parse "successfully" with content missing.
 */
export function isCompleteXml(text: string): boolean {
  const withoutProlog = text.replace(/^\uFEFF?\s*(<\?[^>]*\?>\s*|<!--[\s\S]*?-->\s*)*/, '')
  const root = /^<([\w:.-]+)/.exec(withoutProlog)?.[1]
  if (!root) return false
  const tail = withoutProlog.trimEnd()
  return tail.endsWith(`</${root}>`) || (tail.endsWith('/>') && tail.indexOf('>') === tail.length - 1)
}

import { ommlToLatex } from './ommlToLatex'

const mathBlock = /<m:oMathPara\b[\s\S]*?<\/m:oMathPara>|<m:oMath\b[\s\S]*?<\/m:oMath>/g

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

// LaTeX travels through mammoth and turndown as an opaque marker so its backslashes are not escaped.
function mathMarker(latex: string): string {
  return `\u27e6math:${Buffer.from(latex).toString('base64url')}\u27e7`
}

export function restoreMath(markdown: string): string {
  return markdown.replace(/\u27e6math:([\w-]+)\u27e7/g, (_, encoded: string) =>
    Buffer.from(encoded, 'base64url').toString(),
  )
}

function textRun(value: string): string {
  return `<w:r><w:t xml:space="preserve">${escapeXml(value)}</w:t></w:r>`
}

async function mathRun(block: string): Promise<string> {
  const display = block.startsWith('<m:oMathPara')
  // Inline math keeps its letters and symbols as typed (θ, ×), as pandoc writes them; display math is
  // all LaTeX. Structure (fractions, scripts) is LaTeX in both.
  const latex = await ommlToLatex(block, { unicodeSymbols: !display })
  if (!latex) return ''
  return textRun(mathMarker(display ? `$$${latex}$$` : `$${latex}$`))
}

/**
 * mammoth drops Office Math, so equations are rewritten as text runs holding LaTeX (`$...$`, or
 * `$$...$$` for display math) as mammoth reads the part (`docxPackage.ts`).
 */
export async function rewriteMath(xml: string): Promise<string> {
  if (!xml.includes('<m:oMath')) return xml
  const runs: string[] = []
  for (const [block] of xml.matchAll(mathBlock)) runs.push(await mathRun(block))
  let next = 0
  return xml.replace(mathBlock, () => runs[next++] ?? '')
}

import { strToU8, zipSync } from 'fflate'
import { readZip } from '../zip/readZip'
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

/**
 * mammoth drops Office Math, so equations are rewritten as text runs holding LaTeX (`$...$`, or
 * `$$...$$` for display math) before mammoth sees the document. Returns the bytes unchanged when
 * there is no math.
 */
const textParts = /^word\/(document|footnotes|endnotes|comments)\.xml$/

export function inlineMath(bytes: Uint8Array): Uint8Array {
  const parts = readZip(bytes, (name) => textParts.test(name))
  const decoder = new TextDecoder()
  if (![...parts.values()].some((data) => decoder.decode(data).includes('<m:oMath'))) return bytes
  const files = readZip(bytes)
  let changed = false
  for (const [name, data] of files) {
    if (!textParts.test(name)) continue
    const xml = decoder.decode(data)
    if (!xml.includes('<m:oMath')) continue
    const rewritten = xml.replace(mathBlock, (block) => {
      const display = block.startsWith('<m:oMathPara')
      // Inline math keeps its letters and symbols as typed (θ, ×), as pandoc writes them; display math is
      // all LaTeX. Structure (fractions, scripts) is LaTeX in both.
      const latex = ommlToLatex(block, { unicodeSymbols: !display })
      if (!latex) return ''
      return textRun(mathMarker(display ? `$$${latex}$$` : `$${latex}$`))
    })
    files.set(name, strToU8(rewritten))
    changed = true
  }
  // Stored (level 0): the archive only lives until mammoth has read it, so deflating is wasted time.
  return changed ? zipSync(Object.fromEntries(files), { level: 0 }) : bytes
}

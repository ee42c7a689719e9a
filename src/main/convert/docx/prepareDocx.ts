import { strToU8, zipSync } from 'fflate'
import { readZip } from '../zip/readZip'
import { rewriteMath } from './inlineMath'

const textParts = /^word\/(document|footnotes|endnotes|comments)\.xml$/

/**
 * A table-row property switched off (`<w:tblHeader w:val="false"/>`, as the docx library and Bureau's
 * own writer emit for body rows). mammoth reads any `w:tblHeader` as on, which made every row a header.
 */
const offHeader = /<w:tblHeader\s+w:val="(?:false|0|off)"\s*\/>/g

function rewrite(xml: string): string {
  return rewriteMath(xml.replace(offHeader, ''))
}

const needsRewrite = (xml: string) =>
  xml.includes('<m:oMath') || /<w:tblHeader\s+w:val="(?:false|0|off)"/.test(xml)

/**
 * What mammoth cannot read as it is, rewritten before it sees the document: Office Math as LaTeX text,
 * header flags that are off removed. Returns the bytes unchanged when there is nothing to rewrite.
 */
export function prepareDocx(bytes: Uint8Array): Uint8Array {
  const parts = readZip(bytes, (name) => textParts.test(name))
  const decoder = new TextDecoder()
  if (![...parts.values()].some((data) => needsRewrite(decoder.decode(data)))) return bytes
  const files = readZip(bytes)
  for (const [name, data] of files) {
    if (!textParts.test(name)) continue
    const xml = decoder.decode(data)
    if (needsRewrite(xml)) files.set(name, strToU8(rewrite(xml)))
  }
  // Stored (level 0): the archive only lives until mammoth has read it, so deflating is wasted time.
  return zipSync(Object.fromEntries(files), { level: 0 })
}

import type { DocxFile } from 'mammoth/lib/unzip.js'
import { FormatProblem } from '../errors'
import { readZipDeclared } from '../zip/readDeclared'
import { rewriteMath } from './inlineMath'
import { pruneStyles } from './pruneStyles'
import { type ReviewMarks, rewriteReview } from './reviewMarks'

const textParts = /^word\/(document|footnotes|endnotes|comments)\.xml$/
const stylesPart = /^word\/styles\.xml$/
/** The parts mammoth reads whose review marks the Markdown shows. */
const reviewedPart = /^word\/(document|footnotes|endnotes)\.xml$/
/** The parts mammoth reads from a usual package, inflated in one pass; any other part when it is asked for. */
const usualPart =
  /^(\[Content_Types\]\.xml|(.*\/)?_rels\/[^/]*\.rels|word\/(document|styles|numbering|footnotes|endnotes|comments)\.xml)$/

/**
 * A table-row property switched off (`<w:tblHeader w:val="false"/>`, as the docx library and Bureau's
 * own writer emit for body rows). mammoth reads any `w:tblHeader` as on, which made every row a header.
 */
const offHeader = /<w:tblHeader\s+w:val="(?:false|0|off)"\s*\/>/g

/** Office Math as LaTeX text (mammoth drops it), header flags that are off removed. */
function rewriteText(xml: string): Promise<string> {
  const headers = xml.includes('<w:tblHeader') ? xml.replace(offHeader, '') : xml
  return rewriteMath(headers)
}

/** What mammoth says through JSZip for the same damage, so the message does not depend on the reader. */
export const sizeMismatch =
  'the docx file is damaged: its zip data does not unpack to what it declares. Re-save it from the program that made it, or use an undamaged copy'

/**
 * The package as mammoth reads it (its `file` input, what zipfile.js builds from JSZip), read from the
 * central directory (`readZipDeclared`): the usual parts are inflated in one pass, any other (an image kept as a data URI, a part
 * the relationships name elsewhere) when mammoth asks. Parts are adapted as they are read: Office Math and off header flags in the text parts
 * (`rewriteText`), review marks in `word/document.xml` and the notes when `marks` is given (reviewMarks.ts), `word/styles.xml` cut to what mammoth reads (`pruneStyles`). A member that does not
 * inflate to its declared size, or whose CRC-32 is not the declared one, is refused when it is read.
 */
export async function openDocx(bytes: Uint8Array, marks?: ReviewMarks): Promise<DocxFile> {
  const { files: markup, size: declared } = await readZipDeclared(bytes, (name) => usualPart.test(name))
  const decoder = new TextDecoder()
  const member = async (name: string): Promise<Uint8Array> => {
    const data =
      markup.get(name) ?? (await readZipDeclared(bytes, (candidate) => candidate === name)).files.get(name)
    if (!data || data.length !== declared.get(name)) throw new FormatProblem('damaged', sizeMismatch)
    return data
  }
  const text = async (name: string): Promise<string> => {
    const xml = decoder.decode(await member(name))
    if (marks && reviewedPart.test(name)) return rewriteText(rewriteReview(xml, marks))
    if (textParts.test(name)) return rewriteText(xml)
    return stylesPart.test(name) ? pruneStyles(xml) : xml
  }
  return {
    exists: (name) => declared.has(name),
    read: async (name, encoding) => {
      if (encoding === 'base64') return Buffer.from(await member(name)).toString('base64')
      if (encoding && /^utf-?8$/i.test(encoding)) return text(name)
      return encoding ? new TextDecoder(encoding).decode(await member(name)) : member(name)
    },
  }
}

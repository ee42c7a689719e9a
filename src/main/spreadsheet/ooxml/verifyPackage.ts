import { unzipSync } from 'fflate'
import { SaxesParser } from 'saxes'
import type { AppError } from '../../../shared/errors'
import { filterProblems } from '../filters/package'
import { pivotProblems } from '../pivot/package'
import {
  contentTypeOf,
  type Parts,
  readRels,
  relsPathFor,
  workbookPart,
  workbookSheets,
} from './packageParts'

const XML_PART = /\.(xml|rels)$/i

const PARSE_CHUNK = 64 * 1024

/** Parses `bytes` as XML 64 KB at a time: a sheet's XML is never decoded into one string. */
function parseXml(bytes: Uint8Array): void {
  const decoder = new TextDecoder()
  const parser = new SaxesParser()
  for (let i = 0; i < bytes.byteLength; i += PARSE_CHUNK)
    parser.write(decoder.decode(bytes.subarray(i, i + PARSE_CHUNK), { stream: true }))
  parser.write(decoder.decode()).close()
}

/** First XML part that is not well-formed, with the parser's reason. */
export function findMalformedPart(parts: Parts): { part: string; reason: string } | undefined {
  for (const [name, bytes] of Object.entries(parts)) {
    if (!XML_PART.test(name)) continue
    try {
      parseXml(bytes)
    } catch (error) {
      return {
        part: name,
        reason: (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 120),
      }
    }
  }
  return undefined
}

/** Problems a spreadsheet application would refuse or repair: missing parts, dangling relationships. */
export function structuralProblems(parts: Parts): string[] {
  const problems: string[] = []
  if (!parts['[Content_Types].xml']) problems.push('[Content_Types].xml is missing')
  const wb = workbookPart(parts)
  if (!wb || !parts[wb]) return [...problems, 'the workbook part is missing']
  const sheets = workbookSheets(parts)
  if (sheets.length === 0) problems.push('the workbook lists no sheets')
  for (const sheet of sheets)
    if (!parts[sheet.part]) problems.push(`sheet "${sheet.name}" points to a missing part`)
  for (const name of Object.keys(parts)) {
    if (name.endsWith('.rels')) continue
    if (!contentTypeOf(parts, name)) problems.push(`${name} has no content type`)
    if (!parts[relsPathFor(name)]) continue
    for (const rel of readRels(parts, name))
      if (rel.part && !parts[rel.part]) problems.push(`${name} points to missing ${rel.part}`)
  }
  problems.push(...pivotProblems(parts))
  problems.push(...filterProblems(parts))
  return problems
}

/** Throws `fail(why)` unless every XML part parses and the package structure is sound. */
export function verifyPackage(parts: Parts, fail: (why: string) => AppError): void {
  const malformed = findMalformedPart(parts)
  if (malformed) throw fail(`${malformed.part} is not well-formed XML (${malformed.reason})`)
  const problems = structuralProblems(parts)
  if (problems.length > 0) throw fail(problems.slice(0, 3).join('; '))
}

/** Parts above this are inflated and compared one at a time. */
const READ_BACK_TOGETHER = 1024 * 1024

/** First part the zip does not give back exactly as verified (or the reason it cannot be read). */
export function zipMismatch(zip: Uint8Array, parts: Parts): string | undefined {
  const names = Object.keys(parts)
  const big = new Set(names.filter((name) => parts[name]!.byteLength > READ_BACK_TOGETHER))
  let back: Parts
  let listed = 0
  try {
    // Small parts in one pass; each big one on its own, so only one is inflated at a time.
    back = unzipSync(zip, {
      filter: (file) => {
        listed++
        return !big.has(file.name)
      },
    })
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  if (listed !== names.length) return 'the part list differs'
  for (const name of names) {
    const want = parts[name]!
    let got = back[name]
    if (big.has(name)) {
      try {
        got = unzipSync(zip, { filter: (file) => file.name === name })[name]
      } catch (error) {
        return error instanceof Error ? error.message : String(error)
      }
    }
    if (!got || !Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(want)) return name
  }
  return undefined
}

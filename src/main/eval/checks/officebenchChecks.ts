import { readFile, stat } from 'node:fs/promises'
import type ExcelJS from 'exceljs'
import { calendarEvents, firstOverlap } from './calendarOverlap'
import type { CheckOf } from './checkSchema'
import { type CheckContext, diskPath, fail } from './context'
import { hasSignature } from './fileSignature'
import {
  activeSheet,
  docxParagraphs,
  mailDump,
  maildirFolders,
  type PyValue,
  pyText,
  sheetDump,
  sheetGrid,
} from './officeText'

// The checks that carry OfficeBench's evaluation functions with their exact semantics (see each
// check's schema); the text views are in officeText.ts.

const isNumber = (text: string) => text.trim() !== '' && !Number.isNaN(Number(text.replaceAll('_', '')))

/**
 * OfficeBench's containment: lower-cased; once a keyword is a number, the text loses its commas (for
 * that keyword and every later one). Returns the first keyword not found.
 */
export function missingKeyword(content: string, keywords: readonly string[]): string | undefined {
  let text = content.toLowerCase()
  for (const keyword of keywords) {
    const want = keyword.toLowerCase()
    if (isNumber(want)) text = text.replaceAll(',', '')
    if (!text.includes(want)) return keyword
  }
  return undefined
}

async function loadWorkbook(bytes: Uint8Array, what: string): Promise<ExcelJS.Workbook> {
  const { default: Excel } = await import('exceljs')
  const wb = new Excel.Workbook()
  try {
    await wb.xlsx.load(bytes as unknown as ArrayBuffer)
  } catch (error) {
    fail(`${what} is not a readable workbook (${error instanceof Error ? error.message : error})`)
  }
  return wb
}

async function active(bytes: Uint8Array, what: string): Promise<ExcelJS.Worksheet> {
  const ws = activeSheet(await loadWorkbook(bytes, what))
  if (!ws) fail(`${what} has no sheet`)
  return ws
}

async function fileBytes(path: string): Promise<Uint8Array | undefined> {
  const info = await stat(path).catch(() => undefined)
  if (!info?.isFile()) return undefined
  return new Uint8Array(await readFile(path))
}

async function agentBytes(ctx: CheckContext, agentPath: string): Promise<Uint8Array> {
  const bytes = await fileBytes(diskPath(ctx, agentPath))
  if (!bytes) fail(`${agentPath} does not exist`)
  return bytes
}

const stripMarkdown = (markdown: string) =>
  markdown.replace(/\\([\\`*_{}[\]()#+\-.!$|<>~])/g, '$1').replace(/\*\*|__/g, '')

async function fileText(
  ctx: CheckContext,
  source: Extract<CheckOf<'keywords'>['source'], { kind: 'file' }>,
  bytes: Uint8Array,
): Promise<string> {
  switch (source.format) {
    case 'text':
      return Buffer.from(bytes).toString('utf8')
    case 'xlsx':
      return sheetDump(await active(bytes, source.path))
    case 'docx': {
      let text: string
      try {
        text = docxParagraphs(bytes)
      } catch (error) {
        fail(`${source.path} ${error instanceof Error ? error.message : error}`)
      }
      return text
    }
    case 'pdf': {
      if (!hasSignature(bytes, 'pdf')) fail(`${source.path} is not a PDF`)
      const name = source.path.split('/').pop() ?? 'file.pdf'
      return stripMarkdown((await ctx.reader.convert({ name, bytes })).markdown)
    }
  }
}

async function mailText(
  ctx: CheckContext,
  source: Extract<CheckOf<'keywords'>['source'], { kind: 'mail' }>,
  absent: boolean,
): Promise<string> {
  if (!ctx.maildir) fail('the task has no mailbox (a mail check needs the task to have one)')
  const folders = await maildirFolders(ctx.maildir)
  // The user's own mail is what reached them and, for "contain", also their copy of what they sent (where
  // OfficeBench's checks look for a message the user wrote); "not contain" reads only what reached them, or
  // a user who congratulates others could never pass a check that they were not congratulated themselves.
  if (source.own && absent) return mailDump([ctx.maildir])
  if (source.own) {
    const sent = [...folders].filter(([name]) => /^sent\b/i.test(name)).map(([, dir]) => dir)
    return mailDump([ctx.maildir, ...sent])
  }
  const match =
    folders.get(source.person) ??
    [...folders].find(([name]) => name.toLowerCase() === source.person.toLowerCase())?.[1]
  // Nobody wrote to that person: their mail holds nothing, so "not contain" holds (as OfficeBench's empty listing).
  if (!match && absent) return ''
  if (!match) fail(`there is no mail folder of ${source.person}`)
  return mailDump([match])
}

export async function checkKeywords(check: CheckOf<'keywords'>, ctx: CheckContext): Promise<string> {
  const { source } = check
  const where = source.kind === 'file' ? source.path : `${source.person}'s mail`
  let missing: string | undefined
  if (source.kind === 'file') {
    const bytes = await fileBytes(diskPath(ctx, source.path))
    // A missing file contains nothing: OfficeBench's "not contain" then passes.
    missing = bytes ? missingKeyword(await fileText(ctx, source, bytes), check.keywords) : check.keywords[0]
    if (!bytes && !check.absent) fail(`${source.path} does not exist`)
  } else missing = missingKeyword(await mailText(ctx, source, check.absent), check.keywords)
  if (check.absent) {
    if (missing === undefined) fail(`${where} still contains all of ${JSON.stringify(check.keywords)}`)
    return `${where} lacks "${missing}"`
  }
  if (missing !== undefined) fail(`${where} does not contain "${missing}"`)
  return `${where} contains ${check.keywords.length} keywords`
}

export async function checkSheetText(check: CheckOf<'sheetText'>, ctx: CheckContext): Promise<string> {
  const dump = sheetDump(await active(await agentBytes(ctx, check.path), check.path))
  for (const m of check.matches) {
    if (m.value !== undefined && !dump.includes(`(${m.row}, ${m.col}): ${m.value}`))
      fail(`${check.path}: the cell (${m.row}, ${m.col}) does not read "${m.value}"`)
    if (m.oneOf) {
      const found = new RegExp(`\\(${m.row}, ${m.col}\\): (\\w+)\\t`).exec(dump)?.[1]
      if (found === undefined || !m.oneOf.includes(found))
        fail(
          `${check.path}: the cell (${m.row}, ${m.col}) reads ${found === undefined ? 'nothing' : `"${found}"`}, not one of ${m.oneOf.join(', ')}`,
        )
    }
  }
  return `${check.matches.length} cells as expected`
}

function same(a: PyValue, b: PyValue): boolean {
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime()
  return a === b
}

export async function checkSameSheet(check: CheckOf<'sameSheet'>, ctx: CheckContext): Promise<string> {
  const result = sheetGrid(await active(await agentBytes(ctx, check.path), check.path))
  const expectedBytes = await fileBytes(check.expected)
  if (!expectedBytes) fail(`the reference workbook ${check.expected} does not exist`)
  const expected = sheetGrid(await active(expectedBytes, 'the reference workbook'))
  const rows = Math.max(result.length, expected.length)
  const cols = Math.max(result[0]?.length ?? 0, expected[0]?.length ?? 0)
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const got = result[r]?.[c] ?? null
      const want = expected[r]?.[c] ?? null
      if (!same(got, want))
        fail(
          `${check.path}: the cell (${r + 1}, ${c + 1}) is ${pyText(got)}, the reference has ${pyText(want)}`,
        )
    }
  return `${check.path} equals the reference cell by cell`
}

export async function checkSheetDiff(check: CheckOf<'sheetDiff'>, ctx: CheckContext): Promise<string> {
  const end = sheetDump(await active(await agentBytes(ctx, check.path), check.path))
  const startBytes = await fileBytes(check.start)
  if (!startBytes) fail(`the start workbook ${check.start} does not exist`)
  const start = sheetDump(await active(startBytes, 'the start workbook'))
  if (start === end) fail(`${check.path} is unchanged`)
  const { structuredPatch } = await import('diff')
  const patch = structuredPatch('', '', start, end, '', '', { context: 0 })
  const diff = patch.hunks
    .flatMap((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines])
    .join('\n')
  const missing = check.keywords.find((k) => !diff.includes(k))
  if (missing !== undefined) fail(`the changes to ${check.path} do not contain "${missing}"`)
  return `the changes to ${check.path} contain ${check.keywords.length} keywords`
}

export async function checkNoOverlap(check: CheckOf<'noOverlap'>, ctx: CheckContext): Promise<string> {
  const text = Buffer.from(await agentBytes(ctx, check.path)).toString('utf8')
  let overlap: ReturnType<typeof firstOverlap>
  try {
    overlap = firstOverlap(text)
  } catch (error) {
    fail(`${check.path} cannot be checked: ${error instanceof Error ? error.message : error}`)
  }
  if (overlap) fail(`${check.path}: "${overlap[0].summary}" and "${overlap[1].summary}" overlap`)
  return `${check.path}: ${calendarEvents(text).length} events, none overlapping`
}

export async function checkFileSignature(
  check: CheckOf<'fileSignature'>,
  ctx: CheckContext,
): Promise<string> {
  if (!hasSignature(await agentBytes(ctx, check.path), check.format))
    fail(`${check.path} is not a ${check.format.toUpperCase()} file (its content does not start like one)`)
  return `${check.path} is a ${check.format} file`
}

import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import type { CheckOf, Scalar } from './checkSchema'
import { type CheckContext, diskPath, fail } from './context'
import { checkStructure, factName, hasFact, loose, numbersIn } from './otherChecks'

/** The file's own signature, so a PDF saved as .docx (or plain text) is not taken for what it claims. */
const SIGNATURE: Record<string, (bytes: Uint8Array) => boolean> = {
  pdf: (b) => Buffer.from(b.subarray(0, 5)).toString('latin1') === '%PDF-',
  docx: (b) => b[0] === 0x50 && b[1] === 0x4b && Buffer.from(b).includes('word/document.xml'),
}

/** The cells of every GFM table in the Markdown, row by row (the separator row left out). */
export function markdownTables(markdown: string): string[][][] {
  const tables: string[][][] = []
  let current: string[][] | undefined
  for (const line of markdown.split(/\r?\n/)) {
    const trimmed = line.trim()
    if (!trimmed.startsWith('|')) {
      current = undefined
      continue
    }
    const cells = trimmed
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim())
    if (cells.every((c) => /^:?-{3,}:?$/.test(c))) continue
    if (!current) {
      current = []
      tables.push(current)
    }
    current.push(cells)
  }
  return tables
}

/** A cell matches its text loosely; a number also within a cell such as "EUR 48,250". */
function same(cell: string, want: Scalar): boolean {
  if (typeof want === 'number') {
    const found = numbersIn(cell)
    if (found.length === 1 && Math.abs((found[0] as number) - want) < 0.005) return true
  }
  return loose(cell) === loose(String(want ?? ''))
}

function findTable(tables: string[][][], header: readonly string[]): string[][] | undefined {
  return tables.find((t) => {
    const head = t[0] ?? []
    return head.length === header.length && header.every((h, i) => same(head[i] ?? '', h))
  })
}

function checkTables(check: CheckOf<'document'>, markdown: string): void {
  const tables = markdownTables(markdown)
  for (const want of check.tables) {
    const table = findTable(tables, want.header)
    if (!table) {
      const heads = tables.map((t) => (t[0] ?? []).join(' | ')).join('; ')
      fail(
        `${check.path} has no table with the header ${want.header.join(' | ')} (tables: ${heads || 'none'})`,
      )
    }
    const body = table.slice(1)
    for (const row of want.rows)
      if (!body.some((cells) => cells.length === row.length && row.every((v, i) => same(cells[i] ?? '', v))))
        fail(`the table ${want.header.join(' | ')} in ${check.path} lacks the row ${row.join(' | ')}`)
  }
}

/** A .docx or .pdf read back with Bureau's converter: format, heading structure, facts and tables. */
export async function checkDocument(check: CheckOf<'document'>, ctx: CheckContext): Promise<string> {
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(await readFile(diskPath(ctx, check.path)))
  } catch {
    fail(`${check.path} does not exist`)
  }
  const format = (check.path.split('.').pop() ?? '').toLowerCase()
  if (!SIGNATURE[format]?.(bytes)) fail(`${check.path} is not a ${format.toUpperCase()} file`)
  let markdown: string
  try {
    markdown = (await ctx.reader.convert({ name: basename(check.path), bytes })).markdown
  } catch (error) {
    fail(`${check.path} could not be read (${error instanceof Error ? error.message : error})`)
  }
  checkStructure(markdown, check.path, check.headings, check.facts)
  for (const fact of check.includes)
    if (!hasFact(markdown, fact)) fail(`${check.path} does not mention ${factName(fact)}`)
  checkTables(check, markdown)
  return `${check.path} has the structure, facts and tables`
}

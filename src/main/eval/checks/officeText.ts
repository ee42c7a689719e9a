import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type ExcelJS from 'exceljs'
import { unzipSync } from 'fflate'
import { SaxesParser } from 'saxes'

// The text views OfficeBench's checkers compare against, rebuilt from the same files: a sheet as
// openpyxl prints it, a Word file as python-docx's body paragraphs, a person's mail as its list dump.

/** A cell value as Python's `str()` prints what openpyxl reads (formulas as their text, not results). */
export type PyValue = string | number | boolean | Date | null

function pyFloat(n: number): string {
  if (Number.isInteger(n)) return String(n)
  const text = String(n)
  // Python writes 1e-05 and 1e+16 where JavaScript writes 0.00001 and 10000000000000000.
  return text.replace(/e([+-])(\d)$/, 'e$10$2')
}

export function pyText(value: PyValue): string {
  if (value === null) return '[Empty Cell]'
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  if (typeof value === 'number') return pyFloat(value)
  if (value instanceof Date) return value.toISOString().slice(0, 19).replace('T', ' ')
  return value
}

/** What openpyxl gives for a cell (without data_only): the formula text for a formula cell. */
export function pyValue(cell: ExcelJS.Cell): PyValue {
  if (cell.isMerged && cell.master !== cell) return null
  const v = cell.value as unknown
  if (v === null || v === undefined) return null
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean' || v instanceof Date) return v
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>
    if ('formula' in o || 'sharedFormula' in o) return `=${cell.formula ?? String(o.formula ?? '')}`
    if ('richText' in o && Array.isArray(o.richText))
      return (o.richText as { text: string }[]).map((r) => r.text).join('')
    if ('text' in o) return String(o.text)
    if ('error' in o) return String(o.error)
  }
  return String(v)
}

/** The sheet openpyxl opens as `.active`: the workbook view's active tab. */
export function activeSheet(wb: ExcelJS.Workbook): ExcelJS.Worksheet | undefined {
  const tab = (wb.views?.[0] as { activeTab?: number } | undefined)?.activeTab ?? 0
  return wb.worksheets[tab] ?? wb.worksheets[0]
}

/** The cells from A1 to the last used row and column, row by row. */
export function sheetGrid(ws: ExcelJS.Worksheet): PyValue[][] {
  const rows: PyValue[][] = []
  for (let r = 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r)
    const cells: PyValue[] = []
    for (let c = 1; c <= ws.columnCount; c++) cells.push(pyValue(row.getCell(c)))
    rows.push(cells)
  }
  return rows
}

/** OfficeBench's sheet dump: `(row, col): value\t` per cell, one line per row. */
export function sheetDump(ws: ExcelJS.Worksheet): string {
  return sheetGrid(ws)
    .map((cells, r) => `${cells.map((v, c) => `(${r + 1}, ${c + 1}): ${pyText(v)}\t`).join('')}\n`)
    .join('')
}

/**
 * The body paragraphs of a .docx (not those inside tables), each as its runs' text, joined by newlines
 * (python-docx's `doc.paragraphs`). Throws when the file is not a Word document.
 */
export function docxParagraphs(bytes: Uint8Array): string {
  let xml: Uint8Array | undefined
  try {
    xml = unzipSync(bytes, { filter: (f) => f.name === 'word/document.xml' })['word/document.xml']
  } catch {
    throw new Error('is not a Word document (not a zip package)')
  }
  if (!xml) throw new Error('is not a Word document (no word/document.xml)')
  const parser = new SaxesParser({ xmlns: false })
  const paragraphs: string[] = []
  const stack: string[] = []
  let current: string[] | undefined
  let inText = false
  parser.on('opentag', (tag) => {
    stack.push(tag.name)
    // A body paragraph: w:p directly under w:body.
    if (tag.name === 'w:p' && stack.at(-2) === 'w:body') current = []
    else if (current && tag.name === 'w:t') inText = true
    else if (current && tag.name === 'w:tab') current.push('\t')
    else if (current && (tag.name === 'w:br' || tag.name === 'w:cr')) current.push('\n')
  })
  parser.on('text', (text) => {
    if (current && inText) current.push(text)
  })
  parser.on('closetag', (tag) => {
    stack.pop()
    if (tag.name === 'w:t') inText = false
    if (tag.name === 'w:p' && current && stack.at(-1) === 'w:body') {
      paragraphs.push(current.join(''))
      current = undefined
    }
  })
  parser.write(Buffer.from(xml).toString('utf8')).close()
  return paragraphs.join('\n')
}

/** The maildir folders of a mailbox, by name (`INBOX` is the maildir itself). */
export async function maildirFolders(maildir: string): Promise<Map<string, string>> {
  const folders = new Map<string, string>([['INBOX', maildir]])
  for (const name of await readdir(maildir).catch(() => [] as string[]))
    if (name.startsWith('.') && name.length > 1) folders.set(name.slice(1), join(maildir, name))
  return folders
}

/**
 * OfficeBench's `list_emails` dump of the messages in these maildir folders: per message its name, From,
 * To, Subject and the text (plain and HTML parts), then a rule.
 */
export async function mailDump(dirs: readonly string[]): Promise<string> {
  const { simpleParser } = await import('mailparser')
  let out = ''
  for (const dir of dirs)
    for (const sub of ['new', 'cur']) {
      const names = (await readdir(join(dir, sub)).catch(() => [] as string[])).sort()
      for (const name of names) {
        const mail = await simpleParser(await readFile(join(dir, sub, name)))
        const content = [mail.text, typeof mail.html === 'string' ? mail.html : undefined]
          .filter((part): part is string => Boolean(part))
          .join('\n')
        out += `Email ID: ${mail.subject ?? ''}.eml\nFrom: ${mail.from?.text ?? ''}\n`
        out += `To: ${(Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : mail.to?.text) ?? ''}\n`
        out += `Subject: ${mail.subject ?? ''}\nContent: ${content}\n${'-'.repeat(50)}\n`
      }
    }
  return out
}

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type ExcelJS from 'exceljs'

/** A form the local test site received. */
export interface Submission {
  path: string
  fields: Record<string, string>
}

/** Bureau's converter as the document checks use it (the eval environment's, as the agent's). */
export interface DocumentReader {
  convert(input: { name: string; bytes: Uint8Array }): Promise<{ markdown: string; format: string }>
}

/**
 * What a checker sees of the end state: the workspace folder, the final answer, the site's submissions,
 * and the converter that reads Word and PDF files back.
 */
export interface CheckContext {
  root: string
  answer: string
  submissions: readonly Submission[]
  reader: DocumentReader
  /** The maildir of the task's mailbox (e-mail tasks only). */
  maildir?: string | undefined
  /** The journal of the task's MCP servers (MCP tasks only). */
  mcpJournal?: string | undefined
}

export interface CheckOutcome {
  ok: boolean
  /** Why it failed (or what was verified), one line. */
  reason: string
}

/** A check that did not hold; its own class so `runChecks` can tell it from a check that crashed. */
export class CheckFailed extends Error {}

export function fail(reason: string): never {
  throw new CheckFailed(reason)
}

export function diskPath(ctx: CheckContext, agentPath: string): string {
  return join(ctx.root, ...agentPath.split('/').filter(Boolean))
}

/** Reads a workbook with exceljs (an independent reader, not Bureau's spreadsheet toolset). */
export async function readWorkbook(ctx: CheckContext, agentPath: string): Promise<ExcelJS.Workbook> {
  let bytes: Buffer
  try {
    bytes = await readFile(diskPath(ctx, agentPath))
  } catch {
    fail(`${agentPath} does not exist`)
  }
  // Loaded on first use: the app imports this service for its IPC route and never needs exceljs for it.
  const { default: Excel } = await import('exceljs')
  const wb = new Excel.Workbook()
  try {
    await wb.xlsx.load(bytes as unknown as ArrayBuffer)
  } catch (error) {
    fail(`${agentPath} is not a readable workbook (${error instanceof Error ? error.message : error})`)
  }
  return wb
}

export function worksheet(wb: ExcelJS.Workbook, path: string, sheet: string): ExcelJS.Worksheet {
  const ws = wb.getWorksheet(sheet)
  if (!ws) fail(`${path} has no sheet "${sheet}" (sheets: ${wb.worksheets.map((w) => w.name).join(', ')})`)
  return ws
}

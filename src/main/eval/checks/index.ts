import type { Check } from './checkSchema'
import { type CheckContext, CheckFailed, type CheckOutcome } from './context'
import { checkDocument } from './documentChecks'
import { checkMail } from './mailChecks'
import { checkMcpCall } from './mcpChecks'
import {
  checkFileSignature,
  checkKeywords,
  checkNoOverlap,
  checkSameSheet,
  checkSheetDiff,
  checkSheetText,
} from './officebenchChecks'
import { checkAnswer, checkFiles, checkFileText, checkMarkdown, checkSubmission } from './otherChecks'
import { checkCells, checkChart, checkSheets, checkTable } from './spreadsheetChecks'

export { Check, Fact } from './checkSchema'
export type { CheckContext, CheckOutcome, DocumentReader, Submission } from './context'
export { formatOfName } from './fileSignature'
export { numbersIn } from './otherChecks'

async function runOne(check: Check, ctx: CheckContext): Promise<string> {
  switch (check.type) {
    case 'cells':
      return checkCells(check, ctx)
    case 'table':
      return checkTable(check, ctx)
    case 'chart':
      return checkChart(check, ctx)
    case 'sheets':
      return checkSheets(check, ctx)
    case 'files':
      return checkFiles(check, ctx)
    case 'fileText':
      return checkFileText(check, ctx)
    case 'answer':
      return checkAnswer(check, ctx)
    case 'markdown':
      return checkMarkdown(check, ctx)
    case 'document':
      return checkDocument(check, ctx)
    case 'submission':
      return checkSubmission(check, ctx)
    case 'mail':
      return checkMail(check, ctx)
    case 'mcpCall':
      return checkMcpCall(check, ctx)
    case 'keywords':
      return checkKeywords(check, ctx)
    case 'sheetText':
      return checkSheetText(check, ctx)
    case 'sameSheet':
      return checkSameSheet(check, ctx)
    case 'sheetDiff':
      return checkSheetDiff(check, ctx)
    case 'noOverlap':
      return checkNoOverlap(check, ctx)
    case 'fileSignature':
      return checkFileSignature(check, ctx)
  }
}

/** Runs the checks in order; the first that fails gives the reason. Never throws. */
export async function runChecks(checks: readonly Check[], ctx: CheckContext): Promise<CheckOutcome> {
  for (const [i, check] of checks.entries()) {
    try {
      await runOne(check, ctx)
    } catch (error) {
      if (error instanceof CheckFailed) return { ok: false, reason: error.message }
      return {
        ok: false,
        reason: `check ${i + 1} (${check.type}) crashed: ${error instanceof Error ? error.message : error}`,
      }
    }
  }
  return { ok: true, reason: `${checks.length} check${checks.length === 1 ? '' : 's'} passed` }
}

import { AppError } from '../../shared/errors'

export function sheetNotFound(name: string, sheets: readonly string[]): AppError {
  return new AppError('NOT_FOUND', `Sheet "${name}" not found; sheets: ${sheets.join(', ') || '(none)'}`)
}

export function invalidInput(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message)
}

export function notAWorkbook(path: string, why: string): AppError {
  return new AppError(
    'UNSUPPORTED',
    `${path} is not a readable .xlsx workbook: ${why}. The file was left untouched.`,
  )
}

export function damagedZip(path: string): AppError {
  return new AppError(
    'UNSUPPORTED',
    `${path} is not a readable .xlsx workbook: its zip data is damaged (a part does not unpack to what it declares). Restore an earlier version (spreadsheet restore, or a numbered .bak backup) or re-save it from the program that made it. The file was left untouched.`,
  )
}

export function saveRefused(path: string, why: string): AppError {
  return new AppError(
    'HANDLER_FAILED',
    `Save of ${path} stopped, the result would not be a valid workbook: ${why}. The file was left untouched.`,
  )
}

import { invalidInput } from '../errors'

const RULES =
  'a sheet name has 1 to 31 characters, no control characters, none of \\ / ? * [ ] :, does not start or end with an apostrophe, is not "History" and differs from the other sheets in more than letter case'

/** C0 and C1 controls, DEL, lone surrogates and the XML non-characters: Excel refuses them, exceljs strips them at save. */
const FORBIDDEN_CHAR = /\p{Cc}|\p{Cs}|[\ufffe\uffff]/u
const FORBIDDEN_PUNCTUATION = /[\\/?*[\]:]/

function problem(name: string): string | undefined {
  if (name === '') return 'it is empty'
  if (name.length > 31) return `it has ${name.length} characters`
  const control = FORBIDDEN_CHAR.exec(name)
  if (control)
    return `it contains the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
  const punctuation = FORBIDDEN_PUNCTUATION.exec(name)
  if (punctuation) return `it contains ${punctuation[0]}`
  if (name.startsWith("'") || name.endsWith("'")) return 'it starts or ends with an apostrophe'
  if (name.toLowerCase() === 'history') return 'Excel reserves "History"'
  return undefined
}

/**
 * Checks a new sheet name with Excel's rules before anything changes (exceljs would strip control
 * characters only at save, where two names could then collide and the save fail). `others` are the
 * workbook's other sheet names. Returns the name trimmed of surrounding spaces.
 */
export function validSheetName(name: string, others: readonly string[] = []): string {
  const trimmed = name.trim()
  const why = problem(trimmed)
  if (why) throw invalidInput(`${JSON.stringify(name)} is not a valid sheet name: ${why}; ${RULES}`)
  const clash = others.find((other) => other.toLowerCase() === trimmed.toLowerCase())
  if (clash !== undefined) throw invalidInput(`Sheet "${clash}" already exists; ${RULES}`)
  return trimmed
}

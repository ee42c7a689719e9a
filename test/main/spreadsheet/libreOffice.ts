import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { withLibreOfficeProfile } from '../../support/libreOffice'
import { findProgram } from '../../support/requirements'

const run = promisify(execFile)

/** LibreOffice's soffice where it is installed (suites that run it use describeNeeding(['soffice'])). */
export const SOFFICE = findProgram('soffice')

/** Every sheet to its own UTF-8 CSV, cell contents as shown (formatted). */
export const CSV_ALL_SHEETS = 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1'

/**
 * Runs one headless conversion of one or more files, in this process's LibreOffice profile (which recomputes
 * every formula of an .xlsx on load, so it checks our results instead of reading them). Starting soffice is the
 * slow part: convert the files a test needs in one call.
 */
export async function convert(files: string | string[], filter: string, outDir: string): Promise<void> {
  await withLibreOfficeProfile((userInstallation) =>
    run(
      SOFFICE!,
      [
        userInstallation,
        '--headless',
        '--norestore',
        '--convert-to',
        filter,
        '--outdir',
        outDir,
        ...(typeof files === 'string' ? [files] : files),
      ],
      { timeout: 120_000 },
    ),
  )
}

/** Minimal RFC 4180 reader for LibreOffice's CSV output. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  const endField = () => {
    row.push(field)
    field = ''
  }
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') endField()
    else if (ch === '\n') {
      endField()
      rows.push(row)
      row = []
    } else if (ch !== '\r') field += ch
  }
  if (field !== '' || row.length > 0) {
    endField()
    rows.push(row)
  }
  return rows
}

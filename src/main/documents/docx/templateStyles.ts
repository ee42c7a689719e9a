import { strFromU8, unzipSync } from 'fflate'
import { AppError } from '../../../shared/errors'
import type { Workspace } from '../../workspace'
import { refuseOleContainer } from '../edit/docxPackage'

const MAX_TEMPLATE_BYTES = 20 * 1024 * 1024

/** The styles part of a .docx/.dotx in the workspace: its fonts, heading looks and paragraph styles are reused. */
export async function readTemplateStyles(path: string, workspace: Workspace | undefined): Promise<string> {
  if (!workspace) throw new AppError('UNAVAILABLE', 'No workspace is open to read the template from.')
  const bytes = new Uint8Array(await workspace.readFile(path, { maxBytes: MAX_TEMPLATE_BYTES }))
  // A Word 97-2003 or password-protected template gets the same advice as editing one.
  refuseOleContainer(bytes, `Template ${path}`)
  let styles: Uint8Array | undefined
  try {
    styles = unzipSync(bytes, { filter: (file) => file.name === 'word/styles.xml' })['word/styles.xml']
  } catch {
    styles = undefined
  }
  if (!styles)
    throw new AppError('VALIDATION_FAILED', `Template ${path} is not a Word document (no word/styles.xml).`)
  return strFromU8(styles)
}

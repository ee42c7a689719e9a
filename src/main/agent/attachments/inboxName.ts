import { safeFileName, type Workspace } from '../../workspace'

export const INBOX_DIR = '/inbox'

function numbered(name: string, n: number): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`
}

async function sameContent(workspace: Workspace, path: string, bytes: Uint8Array): Promise<boolean> {
  const info = await workspace.stat(path)
  if (info.type !== 'file' || info.size !== bytes.length) return false
  const existing = await workspace.readFile(path, { maxBytes: bytes.length + 1 })
  return Buffer.from(bytes).equals(existing)
}

export interface InboxFile {
  path: string
  /** Set when the file was saved under another name than the user's: says which and why. */
  note?: string
}

/**
 * Saves an attachment as `/inbox/<name>`. The same bytes dropped again reuse their file; a different
 * file with a taken name becomes `<stem>-2.<ext>`, `-3`, ... A name the workspace refuses (CON, a:b.txt,
 * trailing dots, bidi overrides, %2e...) is saved under a safe one, and the note says so.
 */
export async function saveToInbox(workspace: Workspace, name: string, bytes: Uint8Array): Promise<InboxFile> {
  const safe = safeFileName(name)
  const note = (path: string) =>
    safe.why
      ? { note: `Saved as ${path}: ${JSON.stringify(name)} is not a safe file name (${safe.why}).` }
      : {}
  for (let n = 1; n < 1000; n++) {
    const path = `${INBOX_DIR}/${n === 1 ? safe.name : numbered(safe.name, n)}`
    if (!(await workspace.exists(path))) {
      const receipt = await workspace.writeFile(path, bytes, { overwrite: false, message: `attach ${path}` })
      return { path: receipt.path, ...note(receipt.path) }
    }
    if (await sameContent(workspace, path, bytes)) return { path, ...note(path) }
  }
  throw new Error(`too many files named "${safe.name}" in ${INBOX_DIR}`)
}

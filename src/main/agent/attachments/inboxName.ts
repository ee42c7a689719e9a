import type { Workspace } from '../../workspace'

export const INBOX_DIR = '/inbox'

/** A safe file name from what the user's system called the file: base name only, no control characters. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  const bounded = Buffer.byteLength(cleaned) > 200 ? shorten(cleaned, 200) : cleaned
  return bounded === '' || bounded === '.' || bounded === '..' ? 'attachment' : bounded
}

function shorten(name: string, maxBytes: number): string {
  const dot = name.lastIndexOf('.')
  const ext = dot > 0 && name.length - dot <= 12 ? name.slice(dot) : ''
  let stem = name.slice(0, name.length - ext.length)
  while (Buffer.byteLength(stem + ext) > maxBytes) stem = stem.slice(0, -1)
  return stem + ext
}

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

/**
 * Saves an attachment as `/inbox/<name>`. The same bytes dropped again reuse their file; a different
 * file with a taken name becomes `<stem>-2.<ext>`, `-3`, ... Returns the agent path.
 */
export async function saveToInbox(workspace: Workspace, name: string, bytes: Uint8Array): Promise<string> {
  const fileName = safeFileName(name)
  for (let n = 1; n < 1000; n++) {
    const path = `${INBOX_DIR}/${n === 1 ? fileName : numbered(fileName, n)}`
    if (!(await workspace.exists(path))) {
      const receipt = await workspace.writeFile(path, bytes, { overwrite: false, message: `attach ${path}` })
      return receipt.path
    }
    if (await sameContent(workspace, path, bytes)) return path
  }
  throw new Error(`too many files named "${fileName}" in ${INBOX_DIR}`)
}

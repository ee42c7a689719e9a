import type { Workspace } from '../../workspace'

/** Makes a page-supplied file name safe for the workspace (no folders, no odd characters). */
export function safeFileName(name: string, fallback: string): string {
  const cleaned = name
    .replace(/[\\/]/g, '_')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/\p{Cc}/gu, '_')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 150)
  return cleaned || fallback
}

/** Writes into `folder` without replacing anything: "report.pdf", then "report (2).pdf"... */
export async function saveUnique(workspace: Workspace, folder: string, name: string, bytes: Uint8Array) {
  const dot = name.lastIndexOf('.')
  const stem = dot > 0 ? name.slice(0, dot) : name
  const ext = dot > 0 ? name.slice(dot) : ''
  for (let n = 1; n <= 200; n++) {
    const path = `${folder}/${n === 1 ? name : `${stem} (${n})${ext}`}`
    try {
      return await workspace.writeFile(path, bytes, {
        overwrite: false,
        backup: false,
        message: `browser: save ${path}`,
      })
    } catch (error) {
      if ((error as { code?: string }).code !== 'CONFLICT') throw error
    }
  }
  throw new Error(`too many files named ${name} in ${folder}`)
}

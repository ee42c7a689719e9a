import * as fs from 'node:fs'
import path from 'node:path'
import { readAnchored } from '../anchored/anchoredIo'
import { walkAnchored, withAnchored } from '../anchored/anchoredWalk'

/**
 * The file system isomorphic-git works with: its own folder (`gitdir`) as usual, but the content of the
 * workspace's files only through anchored lookups, as every other operation reads it. Recording a file
 * that a concurrent rename turned into a link to an outside folder then fails instead of committing (and
 * later handing back) what is outside. Metadata (lstat, readdir) stays plain: it only decides what to
 * read, and a link is met as a link.
 */
export function anchoredGitFs(rootReal: string, gitdir: string): { promises: typeof fs.promises } {
  const base = fs.promises
  const inWorkspace = (hostPath: string): string[] | null => {
    const full = path.resolve(hostPath)
    if (full === gitdir || full.startsWith(`${gitdir}${path.sep}`)) return null
    const relative = path.relative(rootReal, full)
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return null
    return relative.split(path.sep)
  }
  const locate = (segments: string[]) =>
    walkAnchored(rootReal, `/${segments.join('/')}`, segments, { allowInternal: true })

  const readFile = (async (hostPath: fs.PathLike, options?: unknown) => {
    const segments = inWorkspace(String(hostPath))
    if (!segments) return base.readFile(hostPath, options as never)
    const bytes = await withAnchored(locate(segments), (target) => readAnchored(rootReal, target))
    const encoding = typeof options === 'string' ? options : (options as { encoding?: string })?.encoding
    return encoding ? bytes.toString(encoding as BufferEncoding) : bytes
  }) as typeof base.readFile

  const promises = Object.create(base, {
    readFile: { value: readFile, enumerable: true },
  }) as typeof fs.promises
  return { promises }
}

import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { expect } from 'vitest'
import { createWorkspace } from '../../../src/main/workspace'
import type { CreateWorkspaceOptions } from '../../../src/main/workspace/createWorkspace'
import { tempDirs } from '../../support/tempDir'

export const CANARY = 'CANARY: must never be read, changed or joined by new files'

/** A temp base holding `ws/` (the workspace) and `outside/` (a canary folder the workspace must never touch). */
export function sandboxes(prefix = 'bureau-ws-') {
  const dirs = tempDirs(prefix)
  return {
    async make(options: Partial<CreateWorkspaceOptions> = {}) {
      const base = await dirs.make()
      const outside = path.join(base, 'outside')
      const root = path.join(base, 'ws')
      await import('node:fs/promises').then((fs) => fs.mkdir(outside, { recursive: true }))
      await writeFile(path.join(outside, 'canary.txt'), CANARY)
      await writeFile(path.join(base, 'outside.txt'), CANARY)
      const workspace = createWorkspace({ root, ...options })
      return { base, outside, root, workspace, snapshotOutside: () => snapshotOutside(base, root) }
    },
    cleanup: () => dirs.cleanup(),
  }
}

/** Every file outside the workspace folder, with content: compared before and after hostile calls. */
async function snapshotOutside(base: string, root: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {}
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (full === root) continue
      if (entry.isDirectory()) await walk(full)
      else if (entry.isFile()) result[path.relative(base, full)] = await readFile(full, 'utf8')
      else result[path.relative(base, full)] = `<${entry.isSymbolicLink() ? 'link' : 'other'}>`
    }
  }
  await walk(base)
  return result
}

export async function tempFilesIn(dir: string): Promise<string[]> {
  const found: string[] = []
  const walk = async (current: string) => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      if (entry.name.startsWith('.bureau-tmp-')) found.push(path.join(current, entry.name))
      if (entry.isDirectory()) await walk(path.join(current, entry.name))
    }
  }
  await walk(dir)
  return found
}

/** The error a promise rejects with, failing the test when it resolves. */
export async function rejection(
  promise: Promise<unknown>,
): Promise<Error & { code?: string; rule?: string }> {
  try {
    await promise
  } catch (error) {
    return error as Error & { code?: string; rule?: string }
  }
  expect.fail('expected the call to be refused, but it succeeded')
}

export async function exists(hostPath: string): Promise<boolean> {
  return stat(hostPath).then(
    () => true,
    () => false,
  )
}
